//! Origin matching: browsers send `Origin`, and a page on another site must not drive a
//! loopback server (DNS rebinding, cross-site requests). Loopback origins on any port are always
//! allowed; the operator may add more (`server.allowed_origins`).

pub const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
    "https://localhost:*",
    "https://127.0.0.1:*",
    "https://[::1]:*",
];

/// `scheme://host[:port]` matching; a pattern ending in `:*` accepts any port (or none).
pub fn origin_allowed(patterns: &[String], origin: &str) -> bool {
    let origin = origin.trim().to_ascii_lowercase();
    patterns.iter().any(|p| {
        let p = p.to_ascii_lowercase();
        match p.strip_suffix(":*") {
            Some(base) => {
                origin == base
                    || origin
                        .strip_prefix(base)
                        .and_then(|rest| rest.strip_prefix(':'))
                        .is_some_and(|port| {
                            !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit())
                        })
            }
            None => origin == p,
        }
    })
}

/// The host of `scheme://host[:port]` (brackets of an IPv6 literal removed).
pub fn origin_host(origin: &str) -> Option<String> {
    let rest = origin.split_once("://")?.1;
    let host = if let Some(r) = rest.strip_prefix('[') {
        r.split_once(']')?.0
    } else {
        rest.split(':').next()?
    };
    (!host.is_empty()).then(|| host.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_origins_with_any_port_are_allowed_and_others_are_not() {
        let p: Vec<String> = LOOPBACK_ORIGINS
            .iter()
            .map(|s| s.to_string())
            .chain(["https://app.example.com".to_string()])
            .collect();
        assert!(origin_allowed(&p, "http://localhost:3000"));
        assert!(origin_allowed(&p, "http://127.0.0.1"));
        assert!(origin_allowed(&p, "http://[::1]:8080"));
        assert!(origin_allowed(&p, "https://app.example.com"));
        assert!(!origin_allowed(&p, "http://evil.example"));
        assert!(!origin_allowed(&p, "http://localhost.evil.example"));
        assert!(!origin_allowed(&p, "http://localhost:80abc"));
        assert!(!origin_allowed(&p, "null"));
    }
}
