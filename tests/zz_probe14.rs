use opsdesk::governance::redact::{Redactor, RedactorConfig, RedactorOptions};
#[test]
fn probe() {
    let r = Redactor::with_options(
        &RedactorConfig {
            names: vec![],
            patterns: vec![],
        },
        &RedactorOptions {
            keep: vec![],
            redact_conditions: false,
        },
    )
    .expect("b");
    for t in std::env::var("PROBE").unwrap_or_default().split("@@") {
        let spans = r.find(t).expect("f");
        let shown: Vec<String> = spans
            .iter()
            .map(|s| format!("{:?}[{}]", s.kind, &t[s.start..s.end]))
            .collect();
        println!("{t:?} => {shown:?}");
    }
}
