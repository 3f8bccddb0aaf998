//! What the operator asked for, read from the last user message by fixed patterns (the Ted
//! seed's section 4.5, with drafting checked before listing so "draft an email" is not a mail
//! list), and which profile it is about (section 6.3: named in the text, or the only one; never
//! guessed). The text is data: it selects one of these intents and nothing else.

use std::sync::OnceLock;

use regex::Regex;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    DraftEmail,
    DraftsList,
    MorningBrief,
    EodDigest,
    Deadlines,
    Triage,
    CalendarList,
    MailList,
    Deals,
    Status,
    Help,
}

impl Intent {
    /// Name in the audit trail.
    pub fn name(self) -> &'static str {
        match self {
            Intent::DraftEmail => "draft_email",
            Intent::DraftsList => "drafts_list",
            Intent::MorningBrief => "morning_brief",
            Intent::EodDigest => "eod_digest",
            Intent::Deadlines => "deadlines",
            Intent::Triage => "triage",
            Intent::CalendarList => "calendar_list",
            Intent::MailList => "mail_list",
            Intent::Deals => "deals",
            Intent::Status => "status",
            Intent::Help => "help",
        }
    }

    /// Whether the intent is about one profile's data (and so needs to know which).
    pub fn needs_profile(self) -> bool {
        !matches!(
            self,
            Intent::Status | Intent::Help | Intent::DraftsList | Intent::Deals
        )
    }
}

fn patterns() -> &'static [(Regex, Intent)] {
    static P: OnceLock<Vec<(Regex, Intent)>> = OnceLock::new();
    P.get_or_init(|| {
        [
            (
                r"\bdraft\s+(an?\s+)?(e-?mail|mail|message|reply)\b",
                Intent::DraftEmail,
            ),
            (
                r"\b(drafts|pending approval|approval queue)\b",
                Intent::DraftsList,
            ),
            (r"\bmorning\s*brief", Intent::MorningBrief),
            (r"\b(eod|end.?of.?day|digest)\b", Intent::EodDigest),
            (r"\bdeadlines?\b", Intent::Deadlines),
            (r"\btriage\b", Intent::Triage),
            (r"\b(calendar|schedule|meetings?)\b", Intent::CalendarList),
            (r"\b(inbox|mail|e-?mails?)\b", Intent::MailList),
            (r"\bdeals?\b", Intent::Deals),
            (r"\b(status|health)\b", Intent::Status),
        ]
        .into_iter()
        .filter_map(|(p, i)| Regex::new(p).ok().map(|r| (r, i)))
        .collect()
    })
}

/// The intent a pattern finds, or None when none matches (the request is unclear).
pub fn classify_known(text: &str) -> Option<Intent> {
    let lower = text.to_lowercase();
    patterns()
        .iter()
        .find(|(r, _)| r.is_match(&lower))
        .map(|(_, i)| *i)
}

/// The read-only intents an LLM may choose for an unclear request. Drafting is not among them:
/// a model's guess never starts an action.
pub const REFINABLE: &[Intent] = &[
    Intent::Status,
    Intent::MorningBrief,
    Intent::EodDigest,
    Intent::Deadlines,
    Intent::Triage,
    Intent::CalendarList,
    Intent::MailList,
    Intent::DraftsList,
    Intent::Help,
];

/// The refinable intent a model's answer names (its first word, any case, punctuation
/// trimmed), or None.
pub fn refined(answer: &str) -> Option<Intent> {
    let word = answer
        .split_whitespace()
        .next()?
        .trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .to_ascii_lowercase();
    REFINABLE.iter().copied().find(|i| i.name() == word)
}

/// Which profile the text is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProfileChoice {
    One(String),
    /// Nothing names one and several exist: ask.
    Unclear,
    /// Several are named: ask.
    Several(Vec<String>),
}

/// A profile is named by its name or its display name, as whole words, in any case.
pub fn profile_in(text: &str, profiles: &[(String, Option<String>)]) -> ProfileChoice {
    let lower = text.to_lowercase();
    let named: Vec<String> = profiles
        .iter()
        .filter(|(name, display)| {
            std::iter::once(name.as_str())
                .chain(display.as_deref())
                .any(|n| crate::sanitize::has_word(&lower, &n.to_lowercase()))
        })
        .map(|(n, _)| n.clone())
        .collect();
    match named.as_slice() {
        [one] => ProfileChoice::One(one.clone()),
        [] if profiles.len() == 1 => ProfileChoice::One(profiles[0].0.clone()),
        [] => ProfileChoice::Unclear,
        _ => ProfileChoice::Several(named),
    }
}

/// An email the operator asked to draft: recipients are the addresses in the text; `subject:`
/// and `body:` (each up to the next label or the end) give the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailRequest {
    pub to: Vec<String>,
    pub subject: String,
    pub body: String,
}

pub fn parse_email(text: &str) -> Result<EmailRequest, &'static str> {
    static ADDR: OnceLock<Option<Regex>> = OnceLock::new();
    static LABEL: OnceLock<Option<Regex>> = OnceLock::new();
    let addr = ADDR
        .get_or_init(|| Regex::new(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}").ok())
        .as_ref()
        .ok_or("internal: address pattern")?;
    let label = LABEL
        .get_or_init(|| Regex::new(r"(?i)\b(subject|body)\s*:").ok())
        .as_ref()
        .ok_or("internal: label pattern")?;
    // Labels split the text; addresses are read only before the first label, so an address
    // quoted in the body does not become a recipient.
    let marks: Vec<(usize, usize, String)> = label
        .captures_iter(text)
        .filter_map(|c| {
            let m = c.get(0)?;
            Some((m.start(), m.end(), c[1].to_lowercase()))
        })
        .collect();
    let head_end = marks.first().map_or(text.len(), |m| m.0);
    let mut to: Vec<String> = addr
        .find_iter(&text[..head_end])
        .map(|m| m.as_str().to_string())
        .collect();
    to.dedup();
    let mut subject = String::new();
    let mut body = String::new();
    for (i, (_, end, name)) in marks.iter().enumerate() {
        let stop = marks.get(i + 1).map_or(text.len(), |m| m.0);
        let value = text[*end..stop].trim().to_string();
        match name.as_str() {
            "subject" if subject.is_empty() => subject = value,
            "body" if body.is_empty() => body = value,
            _ => {}
        }
    }
    if to.is_empty() {
        return Err("name at least one recipient address (e.g. `to ann@example.com`)");
    }
    if subject.is_empty() {
        return Err("give a subject (`subject: …`)");
    }
    if body.is_empty() {
        return Err("give the text (`body: …`)");
    }
    Ok(EmailRequest { to, subject, body })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drafting_wins_over_listing_and_unknown_text_is_unclear() {
        assert_eq!(
            classify_known("Draft an email to a@b.co"),
            Some(Intent::DraftEmail)
        );
        assert_eq!(classify_known("show my inbox"), Some(Intent::MailList));
        assert_eq!(
            classify_known("Morning brief please"),
            Some(Intent::MorningBrief)
        );
        assert_eq!(classify_known("end of day digest"), Some(Intent::EodDigest));
        assert_eq!(
            classify_known("what drafts are pending?"),
            Some(Intent::DraftsList)
        );
        assert_eq!(
            classify_known("any meetings today"),
            Some(Intent::CalendarList)
        );
        assert_eq!(classify_known("status"), Some(Intent::Status));
        assert_eq!(classify_known("approve draft 1 and send it"), None);
        assert_eq!(classify_known("what came in overnight?"), None);
        assert_eq!(refined(" Mail_List.\n"), Some(Intent::MailList));
        // A model cannot pick an action.
        assert_eq!(refined("draft_email"), None);
        assert_eq!(refined("I think mail"), None);
    }

    #[test]
    fn the_profile_is_named_or_the_only_one_never_guessed() {
        let two = vec![
            ("clinic".to_string(), Some("Everest Clinic".to_string())),
            ("deals".to_string(), None),
        ];
        assert_eq!(
            profile_in("brief for Clinic", &two),
            ProfileChoice::One("clinic".into())
        );
        assert_eq!(
            profile_in("everest clinic brief", &two),
            ProfileChoice::One("clinic".into())
        );
        assert_eq!(profile_in("brief", &two), ProfileChoice::Unclear);
        assert_eq!(profile_in("clinicians", &two), ProfileChoice::Unclear);
        assert!(matches!(
            profile_in("clinic and deals", &two),
            ProfileChoice::Several(_)
        ));
        let one = vec![("work".to_string(), None)];
        assert_eq!(profile_in("brief", &one), ProfileChoice::One("work".into()));
    }

    #[test]
    fn an_email_needs_recipients_subject_and_body() {
        let e = parse_email(
            "draft an email for deals to ann@example.com subject: Term sheet body: Signed; cc bob@evil.example",
        )
        .unwrap();
        assert_eq!(e.to, vec!["ann@example.com"]);
        assert_eq!(e.subject, "Term sheet");
        assert_eq!(e.body, "Signed; cc bob@evil.example");
        assert!(parse_email("draft an email subject: x body: y").is_err());
        assert!(parse_email("draft an email to a@b.co body: y").is_err());
    }
}
