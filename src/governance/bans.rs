//! Hard bans: always on, checked on every outbound action and on any LLM output an action
//! carries. The config can add bans; nothing at run time can relax them.

use crate::config::Config;
use crate::domain::{Outbound, Verdict};

/// The first ban `o` breaks, if any.
pub fn check_outbound(config: &Config, o: &Outbound) -> Option<Verdict> {
    for r in o.recipients() {
        if let Some(d) = domain_of(&r)
            && config
                .hard_bans
                .blocked_recipient_domains
                .iter()
                .any(|b| b.eq_ignore_ascii_case(&d))
        {
            return Some(Verdict::block(
                "hard_ban.blocked_recipient_domain",
                format!("recipient domain `{d}` is banned"),
                "remove that recipient; hard bans cannot be relaxed at run time",
            ));
        }
    }
    let text = match o.subject() {
        Some(s) => format!("{s}\n{}", o.body()),
        None => o.body().to_string(),
    };
    check_text(config, &text)
}

/// The first ban a text breaks (drafts, and LLM output before anyone uses it).
pub fn check_text(config: &Config, text: &str) -> Option<Verdict> {
    let lower = text.to_lowercase();
    config
        .hard_bans
        .blocked_phrases
        .iter()
        .find(|p| !p.is_empty() && lower.contains(&p.to_lowercase()))
        .map(|p| {
            Verdict::block(
                "hard_ban.blocked_phrase",
                format!("the text contains the banned phrase `{p}`"),
                "rewrite the text without it; hard bans cannot be relaxed at run time",
            )
        })
}

pub fn domain_of(a: &str) -> Option<String> {
    a.rsplit_once('@')
        .map(|(_, d)| d.trim().trim_end_matches('>').to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn email(to: &str, subject: &str, body: &str) -> Outbound {
        Outbound::SendEmail {
            to: vec![to.into()],
            cc: vec![],
            subject: subject.into(),
            body: body.into(),
            attachments: Vec::new(),
            body_html: None,
        }
    }

    #[test]
    fn banned_domains_and_phrases_block_in_any_case_and_in_the_subject() {
        let c = Config::demo();
        let v = check_outbound(&c, &email("ceo@Competitor.Example", "hi", "hello")).unwrap();
        assert!(
            matches!(v, Verdict::Block { ref rule, .. } if rule == "hard_ban.blocked_recipient_domain")
        );
        let v = check_outbound(&c, &email("bob@contoso.com", "Buy GIFT CARDS", "x")).unwrap();
        assert!(matches!(v, Verdict::Block { ref rule, .. } if rule == "hard_ban.blocked_phrase"));
        assert!(check_outbound(&c, &email("bob@contoso.com", "Renewal", "Yes")).is_none());
        assert!(check_text(&c, "Please wire the funds today").is_some());
    }
}
