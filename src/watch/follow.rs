//! Following the inbox from a consumer cursor.
//!
//! The inbox's index is its commit point, so a reader that goes through
//! [`Inbox::read_after`] never sees a partial or uncommitted record, whatever state the day
//! files are in. The follower only keeps two watermarks: how far it has read, and how far its
//! saved cursor is. The cursor moves when the caller has delivered what was read
//! ([`Follower::commit`]), so a restart neither repeats what was delivered nor skips what was not.

use std::path::Path;

use crate::domain::InboxRecord;
use crate::store::StoreError;
use crate::store::inbox::{Filter, Inbox};

/// Default consumer name of `opsdesk watch`.
pub const DEFAULT_CONSUMER: &str = "watch";

/// Where a follower started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// The consumer had a cursor: continue after it.
    Resumed(u64),
    /// No cursor yet: start after the inbox's current last record (only new messages).
    AtEnd(u64),
    /// No cursor yet and `--from-start`: from the first record.
    FromStart,
}

/// One read from the cursor.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Poll {
    /// Records after the read position that match the filter, oldest first.
    pub records: Vec<InboxRecord>,
    /// The read stopped at `limit`: call again before waiting.
    pub more: bool,
    /// The inbox's last seq when read.
    pub last_seq: u64,
    /// Indexed records that could not be read back (the store logs each one).
    pub skipped_corrupt: u64,
}

pub struct Follower {
    inbox: Inbox,
    consumer: String,
    filter: Filter,
    /// Every record up to this seq has been read (returned, or passed over by the filter).
    read_to: u64,
    /// The consumer's saved cursor.
    saved: u64,
}

impl Follower {
    /// Open the inbox in `dir` for `consumer`. With no saved cursor the follower starts at the
    /// end of the inbox (or at its start with `from_start`) and saves that position at once,
    /// so that a restart continues from it rather than from wherever the inbox has got to.
    pub fn open(
        dir: &Path,
        consumer: &str,
        filter: Filter,
        from_start: bool,
    ) -> Result<(Follower, Start), StoreError> {
        let inbox = Inbox::open(dir)?;
        let (pos, start) = match inbox.cursor(consumer)? {
            Some(c) => (c, Start::Resumed(c)),
            None if from_start => (0, Start::FromStart),
            None => {
                let last = inbox.last_seq()?;
                (last, Start::AtEnd(last))
            }
        };
        let mut f = Follower {
            inbox,
            consumer: consumer.to_string(),
            filter,
            read_to: pos,
            saved: pos,
        };
        if !matches!(start, Start::Resumed(_)) {
            // Also validates the consumer name.
            f.saved = f.inbox.advance_cursor(&f.consumer, pos)?;
        }
        Ok((f, start))
    }

    pub fn consumer(&self) -> &str {
        &self.consumer
    }

    pub fn inbox(&self) -> &Inbox {
        &self.inbox
    }

    /// Everything up to this seq has been read.
    pub fn position(&self) -> u64 {
        self.read_to
    }

    /// The saved cursor.
    pub fn saved(&self) -> u64 {
        self.saved
    }

    /// Read up to `limit` matching records after the read position and move the read position
    /// past them (and past any non-matching records read on the way). Does not save.
    pub fn poll(&mut self, limit: usize) -> Result<Poll, StoreError> {
        let limit = limit.max(1);
        let batch = self.inbox.read_after(self.read_to, limit, &self.filter)?;
        let more = batch.records.len() >= limit;
        let scanned_to = if more {
            // Stopped early: only what precedes the last returned record was scanned.
            batch.records.last().map(|r| r.seq).unwrap_or(self.read_to)
        } else {
            batch.last_seq
        };
        // Never backwards: an index that is briefly missing or shorter (being rebuilt) reads
        // as a shorter inbox, and those records were delivered already.
        self.read_to = self.read_to.max(scanned_to);
        Ok(Poll {
            records: batch
                .records
                .into_iter()
                .map(std::sync::Arc::unwrap_or_clone)
                .collect(),
            more,
            last_seq: batch.last_seq,
            skipped_corrupt: batch.skipped_corrupt,
        })
    }

    /// Whether the read position is ahead of the saved cursor.
    pub fn dirty(&self) -> bool {
        self.read_to > self.saved
    }

    /// Save the read position as the consumer's cursor. Call once what was read has been
    /// delivered (printed and flushed). The store never moves a cursor backwards nor past the
    /// last committed seq; the saved value is what it kept.
    pub fn commit(&mut self) -> Result<u64, StoreError> {
        if self.dirty() {
            self.saved = self.inbox.advance_cursor(&self.consumer, self.read_to)?;
        }
        Ok(self.saved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Channel, Party};

    fn rec(id: &str, channel: Channel, profile: &str) -> InboxRecord {
        let now = time::OffsetDateTime::now_utc();
        InboxRecord {
            seq: 0,
            id: id.into(),
            received_at: now,
            profile: profile.into(),
            channel,
            thread_id: None,
            from: Party::new("A", "a@example.com"),
            to: vec![],
            subject: None,
            ts: now,
            text: id.into(),
            preview: id.into(),
            meta: Default::default(),
            untrusted: true,
            attachments: Vec::new(),
        }
    }

    #[test]
    fn starts_at_end_then_resumes() {
        let d = tempfile::tempdir().unwrap();
        let inbox = Inbox::open(d.path()).unwrap();
        inbox.append(rec("a", Channel::Email, "work")).unwrap();
        let (mut f, start) = Follower::open(d.path(), "w", Filter::default(), false).unwrap();
        assert_eq!(start, Start::AtEnd(1));
        assert_eq!(inbox.cursor("w").unwrap(), Some(1));
        assert!(f.poll(10).unwrap().records.is_empty());
        inbox.append(rec("b", Channel::Email, "work")).unwrap();
        let p = f.poll(10).unwrap();
        assert_eq!(p.records.len(), 1);
        assert_eq!(p.records[0].id, "b");
        assert!(f.dirty());
        assert_eq!(f.commit().unwrap(), 2);
        let (_, start) = Follower::open(d.path(), "w", Filter::default(), true).unwrap();
        assert_eq!(start, Start::Resumed(2));
    }

    #[test]
    fn filter_passes_over_other_records_and_limit_pages() {
        let d = tempfile::tempdir().unwrap();
        let inbox = Inbox::open(d.path()).unwrap();
        let filter = Filter {
            channel: Some(Channel::Teams),
            ..Filter::default()
        };
        let (mut f, start) = Follower::open(d.path(), "w", filter, true).unwrap();
        assert_eq!(start, Start::FromStart);
        for i in 0..5 {
            inbox
                .append(rec(&format!("e{i}"), Channel::Email, "work"))
                .unwrap();
            inbox
                .append(rec(&format!("t{i}"), Channel::Teams, "work"))
                .unwrap();
        }
        let p = f.poll(2).unwrap();
        assert_eq!(p.records.iter().map(|r| r.seq).collect::<Vec<_>>(), [2, 4]);
        assert!(p.more);
        assert_eq!(f.position(), 4);
        let p = f.poll(10).unwrap();
        assert_eq!(
            p.records.iter().map(|r| r.seq).collect::<Vec<_>>(),
            [6, 8, 10]
        );
        assert!(!p.more);
        inbox.append(rec("e9", Channel::Email, "work")).unwrap();
        assert!(f.poll(10).unwrap().records.is_empty());
        // The cursor still moves past the email this consumer never wants.
        assert_eq!(f.commit().unwrap(), 11);
    }

    #[test]
    fn bad_consumer_name_is_rejected() {
        let d = tempfile::tempdir().unwrap();
        assert!(Follower::open(d.path(), "", Filter::default(), false).is_err());
        assert!(Follower::open(d.path(), "a\nb", Filter::default(), false).is_err());
    }
}
