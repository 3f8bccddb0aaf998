//! A search answer as an uncleared reader may see it: without the records it found only
//! through words the PHI view redacted.
//!
//! The index holds every word in clear (it is opsdesk's own, on the operator's disk), so a
//! search for a patient's name finds that patient's records. Handing those records to a
//! reader that sees `<PERSON_3>` in place of the name would still tell it who the records are
//! about: search would be an oracle for the redacted words. So, for an uncleared reader, a
//! record is kept only if every word it was searched for is still there after the view.

use serde_json::Value;

use crate::domain::{SearchQuery, SearchTerm};

/// Drop from `viewed["messages"]` (the view of `original["messages"]`, item by item) every
/// message in which a searched-for word was visible before the view and is not after it.
pub(crate) fn drop_found_by_redacted(q: &SearchQuery, original: &Value, viewed: &mut Value) {
    let Some(before) = original.get("messages").and_then(Value::as_array) else {
        return;
    };
    let Some(Value::Array(after)) = viewed.get_mut("messages") else {
        return;
    };
    if before.len() != after.len() {
        // Not the same list item by item: keep nothing rather than guess.
        after.clear();
        return;
    }
    let mut i = 0;
    after.retain(|m| {
        let keep = !hidden_by_view(q, &before[i], m);
        i += 1;
        keep
    });
}

/// Whether some positive term of `q` is in `before`'s words and not in `after`'s.
fn hidden_by_view(q: &SearchQuery, before: &Value, after: &Value) -> bool {
    let (was, is) = (words(before), words(after));
    q.terms
        .iter()
        .filter(|t| !t.negated)
        .any(|t| has(&was, t) && !has(&is, t))
}

fn words(v: &Value) -> Vec<String> {
    let mut out = Vec::new();
    collect(v, &mut out);
    out.sort_unstable();
    out.dedup();
    out
}

fn collect(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.extend(crate::domain::words_of(s)),
        Value::Array(items) => items.iter().for_each(|x| collect(x, out)),
        Value::Object(map) => map.values().for_each(|x| collect(x, out)),
        _ => {}
    }
}

/// Whether all of `t`'s words are among `words`, in any of the forms the index's stemmer folds
/// together (a word and its longer forms: `okafor`, `okafors`).
fn has(words: &[String], t: &SearchTerm) -> bool {
    t.words.iter().all(|w| {
        words.iter().any(|x| {
            x.starts_with(w.as_str())
                || (x.chars().count() >= 3 && w.starts_with(x.as_str()) && !t.prefix)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_record_found_by_a_redacted_name_is_withheld_and_others_stay() {
        let q = SearchQuery::parse("okafor referral").unwrap();
        let original = json!({"messages": [
            {"seq": 3, "subject": "Referral", "text": "Margaret Okafor's referrals are in."},
            {"seq": 2, "subject": "Referral for Okafor Ltd", "text": "vendor Okafor Ltd"},
        ]});
        let mut viewed = json!({"messages": [
            {"seq": 3, "subject": "Referral", "text": "<PERSON_1>'s referrals are in."},
            {"seq": 2, "subject": "Referral for Okafor Ltd", "text": "vendor Okafor Ltd"},
        ]});
        drop_found_by_redacted(&q, &original, &mut viewed);
        assert_eq!(viewed["messages"].as_array().unwrap().len(), 1);
        assert_eq!(viewed["messages"][0]["seq"], 2);
    }

    #[test]
    fn words_the_view_keeps_keep_the_record() {
        let q = SearchQuery::parse("\"lab results\" -spam").unwrap();
        let original = json!({"messages": [{"text": "Lab results for Ruth Abernathy"}]});
        let mut viewed = json!({"messages": [{"text": "Lab results for <PERSON_1> <PERSON_2>"}]});
        drop_found_by_redacted(&q, &original, &mut viewed);
        assert_eq!(viewed["messages"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn lists_that_do_not_line_up_keep_nothing() {
        let q = SearchQuery::parse("x1").unwrap();
        let original = json!({"messages": [{"text": "x1"}, {"text": "x1"}]});
        let mut viewed = json!({"messages": [{"text": "x1"}]});
        drop_found_by_redacted(&q, &original, &mut viewed);
        assert!(viewed["messages"].as_array().unwrap().is_empty());
    }
}
