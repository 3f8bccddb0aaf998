//! The entity boundary: every action belongs to exactly one profile, and data of a profile
//! never flows into an action of a profile it must not mix with (`never_mix_with`, symmetric).
//!
//! What the check can see of a data flow:
//! - a reply must come from the profile that received the message;
//! - recipients and attendees at a foreign profile's own domains;
//! - names on a foreign profile's PHI roster (`phi_names`) in the subject or body;
//! - a passage of a foreign profile's recent inbound text copied into the subject or body;
//! - for every profile, a passage of a recent `unassigned` item, or a roster name it contains
//!   (nobody knows whose data it is, so no profile may mix with it).

use crate::config::Config;
use crate::domain::{Outbound, Verdict};
use crate::governance::bans::domain_of;

/// Shortest copied passage that counts as a flow of data (shorter runs are common phrases).
pub const MIN_PASSAGE: usize = 48;

/// The profiles `profile` must not mix with.
pub fn forbidden_for<'a>(config: &'a Config, profile: &str) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    if let Some(p) = config.profiles.get(profile) {
        out.extend(p.never_mix_with.iter().map(String::as_str));
    }
    // Symmetric even for a config built in code that lists the pair on one side only.
    for (name, p) in &config.profiles {
        if p.never_mix_with.iter().any(|n| n == profile) && !out.contains(&name.as_str()) {
            out.push(name);
        }
    }
    out
}

/// The remedy of every refusal that names the reserved profile `unassigned`.
pub const ASSIGN_FIRST: &str = "assign it first: opsdesk triage assign SEQ PROFILE (or the console's assign key on the message)";

/// An action of, or about an item of, the reserved profile `unassigned`: nobody knows whose
/// data it is, so nothing may act on it until the operator assigns it.
pub fn unassigned(profile: &str, reply_source: Option<&str>) -> Option<Verdict> {
    use crate::domain::UNASSIGNED;
    if profile == UNASSIGNED {
        return Some(Verdict::block(
            "entity_boundary.unassigned",
            format!(
                "the action names profile `{UNASSIGNED}`: whose item it is has not been decided"
            ),
            ASSIGN_FIRST,
        ));
    }
    if reply_source == Some(UNASSIGNED) {
        return Some(Verdict::block(
            "entity_boundary.unassigned",
            format!(
                "the message acted on is `{UNASSIGNED}`: whose item it is has not been decided"
            ),
            ASSIGN_FIRST,
        ));
    }
    None
}

/// The first boundary `o` (an action of `profile`) crosses, if any. `reply_source` is the
/// profile of the message it replies to; `recent(q)` yields recent inbound texts of profile `q`.
pub fn check(
    config: &Config,
    profile: &str,
    o: &Outbound,
    reply_source: Option<&str>,
    recent: &dyn Fn(&str) -> Vec<String>,
) -> Option<Verdict> {
    if let Some(v) = unassigned(profile, reply_source) {
        return Some(v);
    }
    if let Some(src) = reply_source
        && src != profile
    {
        return Some(Verdict::block(
            "entity_boundary.reply_profile",
            format!("the message replied to belongs to profile `{src}`, the draft to `{profile}`"),
            format!("draft the reply in profile `{src}` (draft_reply picks it for you)"),
        ));
    }
    if let Some(v) = copies_unassigned(config, profile, o, recent) {
        return Some(v);
    }
    let forbidden = forbidden_for(config, profile);
    if forbidden.is_empty() {
        return None;
    }
    for q in &forbidden {
        let Some(qp) = config.profiles.get(*q) else {
            continue;
        };
        for r in o.recipients() {
            if let Some(d) = domain_of(&r)
                && qp
                    .email_domains
                    .iter()
                    .any(|own| d == *own || d.ends_with(&format!(".{own}")))
            {
                return Some(Verdict::block(
                    "entity_boundary.recipient",
                    format!(
                        "`{d}` belongs to profile `{q}`, which `{profile}` must never mix with"
                    ),
                    format!("write to them from profile `{q}` instead"),
                ));
            }
        }
    }
    let text = match o.subject() {
        Some(s) => format!("{s}\n{}", o.body()),
        None => o.body().to_string(),
    };
    let hay = normalize(&text);
    for q in &forbidden {
        let Some(qp) = config.profiles.get(*q) else {
            continue;
        };
        if qp
            .phi_names
            .iter()
            .any(|n| !n.trim().is_empty() && hay.contains(&normalize(n)))
        {
            // Neither the name nor anything else of `q`'s is said back: the reason reaches the
            // caller (an MCP client may be cleared for neither profile's data), and a reason
            // that quoted what matched would confirm a guess about `q`'s people.
            return Some(Verdict::block(
                "entity_boundary.content",
                format!(
                    "the text names a person on profile `{q}`'s roster, which `{profile}` must never mix with"
                ),
                format!("remove what came from `{q}`"),
            ));
        }
        for t in recent(q) {
            // The passage is not quoted (see above): which words matched would tell a caller
            // whether a guessed date of birth or record number was right.
            if shared_passage(&hay, &normalize(&t)).is_some() {
                return Some(Verdict::block(
                    "entity_boundary.content",
                    format!(
                        "the text copies a passage of a recent message of profile `{q}`, which `{profile}` must never mix with"
                    ),
                    format!("remove what came from `{q}`"),
                ));
            }
        }
    }
    None
}

/// Content of an `unassigned` item in an action of any other profile: nobody knows whose data it
/// is, so every profile must not mix with it. A passage of a recent `unassigned` text copied
/// into the subject or body, or a name on any profile's roster (`phi_names`; the acting
/// profile's own excepted: naming its own people is its business) that occurs both in such a
/// text and in the action, is a flow. `recent(UNASSIGNED)` yields those texts.
fn copies_unassigned(
    config: &Config,
    profile: &str,
    o: &Outbound,
    recent: &dyn Fn(&str) -> Vec<String>,
) -> Option<Verdict> {
    use crate::domain::UNASSIGNED;
    let texts: Vec<String> = recent(UNASSIGNED).iter().map(|t| normalize(t)).collect();
    if texts.is_empty() {
        return None;
    }
    let text = match o.subject() {
        Some(s) => format!("{s}\n{}", o.body()),
        None => o.body().to_string(),
    };
    let hay = normalize(&text);
    let own: &[String] = config
        .profiles
        .get(profile)
        .map_or(&[], |p| p.phi_names.as_slice());
    let remedy = format!("remove what came from the `{UNASSIGNED}` item, or {ASSIGN_FIRST}");
    for (_, p) in config.profiles.iter() {
        for name in &p.phi_names {
            let n = normalize(name);
            if n.is_empty() || own.iter().any(|o| normalize(o) == n) || !hay.contains(&n) {
                continue;
            }
            if texts.iter().any(|t| t.contains(&n)) {
                // Not said back, as in `check`.
                return Some(Verdict::block(
                    "entity_boundary.content",
                    format!(
                        "the text names a person of an item of `{UNASSIGNED}` (whose it is has not been decided)"
                    ),
                    remedy,
                ));
            }
        }
    }
    if texts.iter().any(|t| shared_passage(&hay, t).is_some()) {
        return Some(Verdict::block(
            "entity_boundary.content",
            format!(
                "the text copies a passage of an item of `{UNASSIGNED}`, whose it is has not been decided"
            ),
            remedy,
        ));
    }
    None
}

/// Lower case, runs of whitespace collapsed to one space.
pub(crate) fn normalize(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A run of at least `MIN_PASSAGE` characters of `source` that appears in `hay`: windows of
/// the source's words are looked up, so a copy with other line breaks still counts.
pub(crate) fn shared_passage(hay: &str, source: &str) -> Option<String> {
    if hay.len() < MIN_PASSAGE || source.len() < MIN_PASSAGE {
        return None;
    }
    let words: Vec<&str> = source.split(' ').collect();
    let mut start = 0;
    while start < words.len() {
        // Grow a window of words until it is long enough, then look it up.
        let mut end = start;
        let mut len = 0;
        while end < words.len() && len < MIN_PASSAGE {
            len += words[end].len() + 1;
            end += 1;
        }
        if len < MIN_PASSAGE {
            return None;
        }
        let window = words[start..end].join(" ");
        if hay.contains(&window) {
            return Some(window);
        }
        start += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn email(to: &str, body: &str) -> Outbound {
        Outbound::SendEmail {
            to: vec![to.into()],
            cc: vec![],
            subject: "Update".into(),
            body: body.into(),
            attachments: Vec::new(),
            body_html: None,
        }
    }

    fn none(_: &str) -> Vec<String> {
        Vec::new()
    }

    fn rule(v: Option<Verdict>) -> Option<String> {
        match v {
            Some(Verdict::Block { rule, .. }) => Some(rule),
            _ => None,
        }
    }

    #[test]
    fn a_work_draft_to_the_clinic_domain_is_blocked() {
        let c = Config::demo();
        let v = check(
            &c,
            "work",
            &email("frontdesk@riversideclinic.org", "hi"),
            None,
            &none,
        );
        assert_eq!(rule(v).as_deref(), Some("entity_boundary.recipient"));
        // Sub-domains count; the profile's own domain does not.
        let v = check(
            &c,
            "work",
            &email("a@mail.riversideclinic.org", "hi"),
            None,
            &none,
        );
        assert_eq!(rule(v).as_deref(), Some("entity_boundary.recipient"));
        assert_eq!(
            rule(check(
                &c,
                "work",
                &email("bob@contoso.com", "hi"),
                None,
                &none
            )),
            None
        );
    }

    #[test]
    fn the_relation_is_symmetric() {
        let c = Config::demo();
        let v = check(&c, "clinic", &email("bob@contoso.com", "hi"), None, &none);
        assert_eq!(rule(v).as_deref(), Some("entity_boundary.recipient"));
    }

    #[test]
    fn a_clinic_patient_named_in_a_work_draft_is_blocked() {
        let c = Config::demo();
        let v = check(
            &c,
            "work",
            &email("bob@contoso.com", "Running late, Margaret   okafor called"),
            None,
            &none,
        );
        assert_eq!(rule(v).as_deref(), Some("entity_boundary.content"));
    }

    #[test]
    fn a_passage_copied_from_a_clinic_message_is_blocked_wherever_its_line_breaks_fall() {
        let c = Config::demo();
        let clinic_text = "Lab results for the 3pm patient came back; the potassium level is \
                           elevated and the nephrology consult should be moved up to Thursday.";
        let recent = |q: &str| {
            if q == "clinic" {
                vec![clinic_text.to_string()]
            } else {
                vec![]
            }
        };
        let copied =
            "FYI:\nthe potassium level is elevated and the nephrology\nconsult should be moved up";
        let v = check(&c, "work", &email("bob@contoso.com", copied), None, &recent);
        assert_eq!(rule(v).as_deref(), Some("entity_boundary.content"));
        // A few shared common words are not a flow of data.
        let v = check(
            &c,
            "work",
            &email("bob@contoso.com", "Moved up to Thursday."),
            None,
            &recent,
        );
        assert_eq!(rule(v), None);
    }

    #[test]
    fn a_reply_must_come_from_the_profile_that_received_the_message() {
        let c = Config::demo();
        let v = check(
            &c,
            "work",
            &email("bob@contoso.com", "ok"),
            Some("clinic"),
            &none,
        );
        assert_eq!(rule(v).as_deref(), Some("entity_boundary.reply_profile"));
        assert_eq!(
            rule(check(
                &c,
                "work",
                &email("bob@contoso.com", "ok"),
                Some("work"),
                &none
            )),
            None
        );
    }
}
