//! The default classification of S0 section 6.3: an inbound item whose profile is unclear (a
//! spool `.json` item without `profile`, a spool `.eml` file) is placed by the ordered
//! `[classification]` rules, else into the reserved profile `unassigned` (or the source's
//! default profile with `unmatched = "default"`). It runs in the source, before the item's
//! attachments are stored and before the durable append, so the bytes and the record carry
//! the same profile. The record's `meta.profile_rule` says which rule placed it, or why nothing
//! did. Pure and cheap: no I/O, no model.

use serde_json::Value;

use crate::config::{ClassificationConfig, Unmatched};
use crate::domain::{META_PROFILE_RULE, NewMessage, UNASSIGNED};

/// `meta` key a source sets on an item whose profile it could not tell (the item then carries
/// the source's default profile). The spool removes it from what a file supplies, and
/// [`Classifier::settle`] always removes it: it never reaches the inbox.
pub(crate) const META_UNCLEAR: &str = "opsdesk_profile_unclear";

/// The compiled `[classification]` (lower-cased lists).
#[derive(Debug, Clone, Default)]
pub struct Classifier {
    rules: Vec<Rule>,
    unmatched: Unmatched,
}

#[derive(Debug, Clone)]
struct Rule {
    profile: String,
    senders: Vec<String>,
    domains: Vec<String>,
    keywords: Vec<String>,
    channels: Vec<crate::domain::Channel>,
}

/// Where an unclear item goes and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    pub profile: String,
    /// `classification.rules[N]: <what matched>`, or why no rule did.
    pub rule: String,
}

fn lower(list: &[String]) -> Vec<String> {
    list.iter()
        .map(|s| s.trim().trim_start_matches('@').to_lowercase())
        .filter(|s| !s.is_empty())
        .collect()
}

impl Classifier {
    pub fn new(config: &ClassificationConfig) -> Classifier {
        Classifier {
            rules: config
                .rules
                .iter()
                .map(|r| Rule {
                    profile: r.profile.clone(),
                    senders: lower(&r.senders),
                    domains: lower(&r.domains),
                    keywords: lower(&r.keywords),
                    channels: r.channels.clone(),
                })
                .collect(),
            unmatched: config.unmatched,
        }
    }

    /// Where `msg` goes; `default` is the source's default profile (for `unmatched =
    /// "default"`).
    pub fn place(&self, msg: &NewMessage, default: &str) -> Placement {
        let from = msg.from.address.trim().to_lowercase();
        let domain = from.rsplit_once('@').map(|(_, d)| d);
        let subject = msg.subject.as_deref().unwrap_or("").to_lowercase();
        // Keywords are matched against the words a person reads, not the markup.
        let text = if msg.html {
            crate::sanitize::html_to_text(&msg.body, 64 * 1024)
        } else {
            msg.body.clone()
        }
        .to_lowercase();
        for (i, r) in self.rules.iter().enumerate() {
            if !r.channels.is_empty() && !r.channels.contains(&msg.channel) {
                continue;
            }
            let placed = |what: String| Placement {
                profile: r.profile.clone(),
                rule: format!("classification.rules[{i}]: {what}"),
            };
            if r.senders.is_empty() && r.domains.is_empty() && r.keywords.is_empty() {
                return placed(format!("channel {}", msg.channel));
            }
            if let Some(s) = r.senders.iter().find(|s| **s == from) {
                return placed(format!("sender {s}"));
            }
            if let Some(d) = domain
                && let Some(want) = r
                    .domains
                    .iter()
                    .find(|w| d == w.as_str() || d.ends_with(&format!(".{w}")))
            {
                return placed(format!("sender domain {want}"));
            }
            for k in &r.keywords {
                if crate::sanitize::has_word(&subject, k) {
                    return placed(format!("keyword `{k}` in the subject"));
                }
                if crate::sanitize::has_word(&text, k) {
                    return placed(format!("keyword `{k}` in the text"));
                }
            }
        }
        match self.unmatched {
            Unmatched::Unassigned => Placement {
                profile: UNASSIGNED.to_string(),
                rule: "classification.unmatched: no rule matched; waiting for the operator (`opsdesk triage assign`)".into(),
            },
            Unmatched::Default => Placement {
                profile: default.to_string(),
                rule: "classification.unmatched: no rule matched; the source's default profile"
                    .into(),
            },
        }
    }

    /// Settle `msg`'s profile: an item a source marked unclear is placed by the rules (when
    /// `classifier` is configured; otherwise it keeps the source's default, as before
    /// `[classification]` existed). The marker never stays in `meta`.
    pub fn settle(classifier: Option<&Classifier>, msg: &mut NewMessage) {
        let unclear = msg.meta.remove(META_UNCLEAR).is_some();
        // The rule is the classifier's to say, never what came with the item.
        msg.meta.remove(META_PROFILE_RULE);
        if let (true, Some(c)) = (unclear, classifier) {
            let p = c.place(msg, &msg.profile);
            msg.profile = p.profile;
            msg.meta
                .insert(META_PROFILE_RULE.into(), Value::from(p.rule));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ClassificationRule;
    use crate::domain::{Channel, Party};

    fn msg(from: &str, subject: &str, body: &str, channel: Channel) -> NewMessage {
        let mut meta = std::collections::BTreeMap::new();
        meta.insert(META_UNCLEAR.to_string(), Value::Bool(true));
        NewMessage {
            id: "x".into(),
            profile: "work".into(),
            channel,
            thread_id: None,
            from: Party::new("", from),
            to: Vec::new(),
            subject: Some(subject.into()),
            ts: crate::domain::now(),
            body: body.into(),
            html: false,
            meta,
            attachments: Vec::new(),
        }
    }

    fn classifier(unmatched: Unmatched) -> Classifier {
        Classifier::new(&ClassificationConfig {
            rules: vec![
                ClassificationRule {
                    profile: "clinic".into(),
                    domains: vec!["@Lakeside.example".into()],
                    keywords: vec!["refill".into()],
                    ..Default::default()
                },
                ClassificationRule {
                    profile: "deals".into(),
                    senders: vec!["CEO@contoso.com".into()],
                    channels: vec![Channel::Email],
                    ..Default::default()
                },
            ],
            unmatched,
        })
    }

    #[test]
    fn the_first_matching_rule_places_the_item_and_says_why() {
        let c = classifier(Unmatched::Unassigned);
        let mut m = msg("desk@mail.lakeside.example", "Hi", "", Channel::Spool);
        Classifier::settle(Some(&c), &mut m);
        assert_eq!(m.profile, "clinic");
        assert_eq!(
            m.meta[META_PROFILE_RULE],
            "classification.rules[0]: sender domain lakeside.example"
        );
        assert!(!m.meta.contains_key(META_UNCLEAR));
        let p = c.place(
            &msg("a@b.example", "Refill please", "", Channel::Spool),
            "work",
        );
        assert_eq!(p.profile, "clinic");
        assert!(p.rule.contains("keyword `refill` in the subject"), "{p:?}");
        // `refilling` is not the word `refill`.
        let p = c.place(&msg("a@b.example", "", "refilling", Channel::Spool), "work");
        assert_eq!(p.profile, UNASSIGNED);
    }

    #[test]
    fn channels_limit_a_rule_and_unmatched_items_go_where_configured() {
        let c = classifier(Unmatched::Unassigned);
        let ceo = |ch| msg("ceo@contoso.com", "", "", ch);
        assert_eq!(c.place(&ceo(Channel::Email), "work").profile, "deals");
        assert_eq!(c.place(&ceo(Channel::Spool), "work").profile, UNASSIGNED);
        let d = classifier(Unmatched::Default);
        assert_eq!(d.place(&ceo(Channel::Spool), "work").profile, "work");
    }

    #[test]
    fn without_a_classifier_an_unclear_item_keeps_the_default_and_clear_items_are_left_alone() {
        let mut m = msg("desk@lakeside.example", "", "", Channel::Spool);
        Classifier::settle(None, &mut m);
        assert_eq!(m.profile, "work");
        assert!(m.meta.is_empty(), "{:?}", m.meta);
        let c = classifier(Unmatched::Unassigned);
        let mut clear = msg("desk@lakeside.example", "", "", Channel::Spool);
        clear.meta.clear();
        Classifier::settle(Some(&c), &mut clear);
        assert_eq!(
            clear.profile, "work",
            "an item that named its profile keeps it"
        );
    }
}
