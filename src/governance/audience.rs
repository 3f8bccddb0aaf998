//! Audience checks on what leaves (Ted §8.1 `validateRoleCard` / `validateOutputContract`): a
//! draft to someone outside the profile's own domains must not carry what the profile keeps
//! internal — configured labels, deal code names, internal-only phrases — nor quote an
//! internal thread. Judged when the draft is made, with rule, reason and remedy like every
//! other verdict.
//!
//! ```toml
//! [profiles.work]
//! email_domains = ["contoso.com"]
//! [profiles.work.audience]
//! internal_only = ["Project Falcon", "INTERNAL ONLY", "margin floor"]
//! internal_quotes = false   # default true: quoting an internal thread to outsiders is refused
//! ```
//!
//! A recipient is external when its domain is none of the profile's `email_domains` (or their
//! subdomains); a profile without `email_domains` cannot tell, so every recipient is external.
//! Chat posts and calendar events are judged the same way by their recipients.

use super::bans::domain_of;
use super::boundary::{normalize, shared_passage};
use crate::config::Config;
use crate::domain::{Outbound, Verdict};

/// A recent inbound text of the profile that came from its own domains (an internal thread).
#[derive(Debug, Clone, PartialEq)]
pub struct InternalText {
    pub text: String,
    /// The chat it was posted in (the chat id a reply to it posts to), for a chat message.
    pub chat: Option<String>,
}

/// The first audience rule `o` (of `profile`) breaks. `internal()` yields the recent inbound
/// texts of that profile that came from its own domains (an internal thread).
pub fn check(
    config: &Config,
    profile: &str,
    o: &Outbound,
    internal: &dyn Fn() -> Result<Vec<InternalText>, String>,
) -> Option<Verdict> {
    let p = config.profiles.get(profile)?;
    let own = &p.email_domains;
    let outsiders: Vec<String> = o
        .recipients()
        .into_iter()
        .filter(|r| {
            domain_of(r).is_none_or(|d| {
                !own.iter()
                    .any(|o| d.eq_ignore_ascii_case(o) || d.ends_with(&format!(".{o}")))
            })
        })
        .collect();
    if outsiders.is_empty() {
        return None;
    }
    let shown = outsiders.join(", ");
    let text = match o.subject() {
        Some(s) => format!("{s}\n{}", o.body()),
        None => o.body().to_string(),
    };
    let hay = normalize(&text);
    if let Some(term) = p
        .audience
        .internal_only
        .iter()
        .find(|t| !t.trim().is_empty() && hay.contains(&normalize(t)))
    {
        return Some(Verdict::block(
            "audience.internal_only",
            format!(
                "the text contains `{}`, which profile `{profile}` keeps internal, and goes to {} outside its domains",
                crate::sanitize::one_line(term, 60),
                crate::sanitize::one_line(&shown, 120)
            ),
            format!(
                "remove it, or send to recipients at {} only (`[profiles.{profile}.audience] internal_only`)",
                if own.is_empty() {
                    "the profile's own domains (set `email_domains`)".to_string()
                } else {
                    own.join(", ")
                }
            ),
        ));
    }
    if p.audience.internal_quotes {
        let texts = match internal() {
            Ok(t) => t,
            Err(e) => {
                return Some(Verdict::block(
                    "audience.unverifiable",
                    format!(
                        "recent messages cannot be read to check for quoted internal threads ({e})"
                    ),
                    "retry; if it persists run `opsdesk doctor`",
                ));
            }
        };
        // A post into the chat a text was said in shows it to no one new: that chat's members
        // read it there. (A chat id has no mail domain, so the chat itself counts as outside.)
        let same_chat = |t: &InternalText| match (o, &t.chat) {
            (Outbound::PostChat { chat_id, .. }, Some(c)) => c == chat_id,
            _ => false,
        };
        for t in texts.iter().filter(|t| !same_chat(t)) {
            // The passage is not quoted back: which words matched would answer a caller's
            // guess at what the thread says (an MCP client may read it only redacted).
            if shared_passage(&hay, &normalize(&t.text)).is_some() {
                return Some(Verdict::block(
                    "audience.internal_thread",
                    format!(
                        "the text quotes an internal thread of profile `{profile}` to {} outside its domains",
                        crate::sanitize::one_line(&shown, 120)
                    ),
                    format!(
                        "remove the quoted internal text, or set `[profiles.{profile}.audience] internal_quotes = false` if such quotes may go out"
                    ),
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        let mut c: Config = toml::from_str(
            r#"
[profiles.work]
sources = ["spool"]
email_domains = ["contoso.com"]
[profiles.work.audience]
internal_only = ["Project Falcon"]
"#,
        )
        .unwrap();
        c.profiles.get_mut("work").unwrap().audience.internal_quotes = true;
        c
    }

    fn mail(to: &str, body: &str) -> Outbound {
        Outbound::SendEmail {
            to: vec![to.into()],
            cc: Vec::new(),
            subject: "Update".into(),
            body: body.into(),
            attachments: Vec::new(),
            body_html: None,
        }
    }

    const THREAD: &str = "Between us: the margin floor for the renewal is 12 percent and we will not go below it under any circumstances.";

    #[test]
    fn an_internal_label_may_go_to_colleagues_but_not_outside() {
        let c = config();
        let none = || Ok(Vec::new());
        let inside = mail("ann@contoso.com", "Project falcon kicks off Monday.");
        assert_eq!(check(&c, "work", &inside, &none), None);
        let sub = mail("bo@eu.contoso.com", "Project Falcon kicks off Monday.");
        assert_eq!(check(&c, "work", &sub, &none), None);
        let out = mail(
            "cfo@fabrikam.example",
            "About PROJECT  falcon: we start Monday.",
        );
        match check(&c, "work", &out, &none) {
            Some(Verdict::Block {
                rule,
                reason,
                remedy,
            }) => {
                assert_eq!(rule, "audience.internal_only");
                assert!(reason.contains("fabrikam.example"), "{reason}");
                assert!(remedy.contains("contoso.com"), "{remedy}");
            }
            v => panic!("{v:?}"),
        }
    }

    fn mail_text(text: &str) -> InternalText {
        InternalText {
            text: text.into(),
            chat: None,
        }
    }

    #[test]
    fn quoting_an_internal_thread_to_an_outsider_is_refused() {
        let c = config();
        let internal = || Ok(vec![mail_text(THREAD)]);
        let quote = format!("Hi,\n\n> {THREAD}\n\nSee above.");
        let out = mail("buyer@fabrikam.example", &quote);
        assert!(matches!(
            check(&c, "work", &out, &internal),
            Some(Verdict::Block { rule, .. }) if rule == "audience.internal_thread"
        ));
        let inside = mail("ann@contoso.com", &quote);
        assert_eq!(check(&c, "work", &inside, &internal), None);
        let mut off = c.clone();
        off.profiles
            .get_mut("work")
            .unwrap()
            .audience
            .internal_quotes = false;
        assert_eq!(check(&off, "work", &out, &internal), None);
    }

    #[test]
    fn a_chat_thread_quoted_back_into_its_own_chat_stays_internal() {
        let c = config();
        const TEAM: &str = "19:platform-team-7f3a@thread.v2";
        let internal = || {
            Ok(vec![InternalText {
                text: THREAD.into(),
                chat: Some(TEAM.into()),
            }])
        };
        let post = |chat: &str| Outbound::PostChat {
            chat_id: chat.into(),
            body: format!("Agreed.\n\n> {THREAD}"),
        };
        // The reply the console's `R` makes: into the chat the message came from.
        assert_eq!(check(&c, "work", &post(TEAM), &internal), None);
        // The same quote into another chat, or mailed outside, is still refused.
        for o in [
            post("19:fabrikam-renewal-guest-91c0@thread.v2"),
            mail("buyer@fabrikam.example", &format!("> {THREAD}")),
        ] {
            assert!(
                matches!(
                    check(&c, "work", &o, &internal),
                    Some(Verdict::Block { rule, .. }) if rule == "audience.internal_thread"
                ),
                "{o:?}"
            );
        }
        // Labels the profile keeps internal are judged as before: a chat's members are unknown.
        let label = Outbound::PostChat {
            chat_id: TEAM.into(),
            body: "Project Falcon is on.".into(),
        };
        assert!(matches!(
            check(&c, "work", &label, &internal),
            Some(Verdict::Block { rule, .. }) if rule == "audience.internal_only"
        ));
    }
}
