//! Spending against `[llm.budgets]`: the usage ledger and the check made before every hop.
//!
//! Usage is counted per provider and per profile, for the current UTC day and month, in
//! tokens (prompt + completion) and money (tokens × the provider's price per 1000; a `local`
//! provider costs 0 and is never stopped by a money limit). The ledger lives in
//! `<data>/llm-usage.json` (0600), rewritten atomically after every answered call, so a crash
//! leaves the previous or the new state and a restart continues from it.
//!
//! A hop is refused when the budget is already spent or when the call's estimate (prompt
//! characters / 4, plus `max_tokens` when set) would take it over; the real usage the provider
//! reports is what gets recorded.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use crate::config::ProviderKind;
use crate::config::budgets::{BudgetsConfig, Limits, Money};

pub(crate) type Clock = Arc<dyn Fn() -> OffsetDateTime + Send + Sync>;

pub(crate) fn system_clock() -> Clock {
    Arc::new(OffsetDateTime::now_utc)
}

/// The ledger's file name in the data dir.
pub(crate) const USAGE_FILE: &str = "llm-usage.json";

/// What one scope spent in one period.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Spent {
    pub tokens: u64,
    /// Millionths of the price unit.
    pub money_micros: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct LedgerFile {
    /// `YYYY-MM-DD` (UTC) the `daily` counters belong to.
    day: String,
    /// `YYYY-MM` (UTC) the `monthly` counters belong to.
    month: String,
    /// Scope (`provider:<name>` / `profile:<name>`) → spent.
    daily: BTreeMap<String, Spent>,
    monthly: BTreeMap<String, Spent>,
}

/// A budget a hop would exceed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Exceeded {
    /// `provider openai daily tokens`, the way the config names it.
    pub budget: String,
    pub used: String,
    pub limit: String,
    /// RFC 3339, when the period starts over.
    pub resets_at: String,
}

/// One budget and where it stands, for `providers list` / `providers_get` / the console.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct BudgetStatus {
    /// `provider` or `profile`.
    pub scope: String,
    pub name: String,
    /// `daily` or `monthly`.
    pub period: String,
    /// `tokens` or `money`.
    pub unit: String,
    pub used: String,
    pub limit: String,
    pub exhausted: bool,
    pub resets_at: String,
}

pub(crate) struct Ledger {
    path: Option<PathBuf>,
    clock: Clock,
    state: Mutex<State>,
}

struct State {
    file: LedgerFile,
    /// The last write failed: spending can no longer be counted durably.
    unwritable: Option<String>,
}

fn day_key(t: OffsetDateTime) -> String {
    format!("{:04}-{:02}-{:02}", t.year(), t.month() as u8, t.day())
}

fn month_key(t: OffsetDateTime) -> String {
    format!("{:04}-{:02}", t.year(), t.month() as u8)
}

fn rfc3339(t: OffsetDateTime) -> String {
    t.format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

/// The next UTC midnight and the first of the next UTC month.
fn resets(now: OffsetDateTime) -> (OffsetDateTime, OffsetDateTime) {
    let now = now.to_offset(time::UtcOffset::UTC);
    let midnight = now.date().midnight().assume_utc();
    let day = midnight + time::Duration::days(1);
    let (y, m) = match now.month() {
        time::Month::December => (now.year() + 1, time::Month::January),
        m => (now.year(), m.next()),
    };
    let month = time::Date::from_calendar_date(y, m, 1)
        .map(|d| d.midnight().assume_utc())
        .unwrap_or(day);
    (day, month)
}

/// Money for `tokens` at `price` per 1000, rounded up (a budget is never under-counted).
pub fn cost(tokens: u64, price: Money) -> u64 {
    (tokens as u128 * price.0 as u128).div_ceil(1000) as u64
}

impl Ledger {
    /// Read the ledger at `path` (none yet: nothing spent). `None`: kept in memory only.
    pub fn open(path: Option<PathBuf>, clock: Clock) -> Result<Ledger, String> {
        let file = match &path {
            None => LedgerFile::default(),
            Some(p) => load(p)?.unwrap_or_default(),
        };
        Ok(Ledger {
            path,
            clock,
            state: Mutex::new(State {
                file,
                unwritable: None,
            }),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Start a new day / month when the clock has moved on.
    fn roll(file: &mut LedgerFile, now: OffsetDateTime) {
        let (d, m) = (day_key(now), month_key(now));
        if file.day != d {
            file.day = d;
            file.daily.clear();
        }
        if file.month != m {
            file.month = m;
            file.monthly.clear();
        }
    }

    /// Whether `provider` may receive a hop of about `estimate` tokens for `profile`.
    pub fn check(
        &self,
        budgets: &BudgetsConfig,
        provider: &str,
        kind: ProviderKind,
        profile: &str,
        estimate: u64,
    ) -> Result<(), Exceeded> {
        if budgets.providers.is_empty() && budgets.profiles.is_empty() {
            return Ok(());
        }
        let now = (self.clock)();
        let (day_reset, month_reset) = resets(now);
        let mut st = self.lock();
        if let Some(why) = &st.unwritable {
            return Err(Exceeded {
                budget: "usage ledger".into(),
                used: "unknown".into(),
                limit: format!("the last usage could not be saved ({why})"),
                resets_at: "when the data dir is writable again".into(),
            });
        }
        // Another process on this data dir (a CLI command beside the running engine) may have
        // spent since: the file is the truth (replaced atomically, so always whole).
        if let Some(p) = &self.path {
            match load(p) {
                Ok(Some(f)) => st.file = f,
                Ok(None) => {}
                Err(why) => {
                    return Err(Exceeded {
                        budget: "usage ledger".into(),
                        used: "unknown".into(),
                        limit: why,
                        resets_at: "when the ledger is readable again".into(),
                    });
                }
            }
        }
        Self::roll(&mut st.file, now);
        let price = price_of(budgets, provider, kind);
        let scopes = [
            ("provider", provider, budgets.providers.get(provider)),
            ("profile", profile, budgets.profiles.get(profile)),
        ];
        for (scope, name, limits) in scopes {
            let Some(l) = limits else { continue };
            let key = format!("{scope}:{name}");
            for (period, spent, reset, tokens, money) in [
                (
                    "daily",
                    st.file.daily.get(&key).copied().unwrap_or_default(),
                    day_reset,
                    l.daily_tokens,
                    l.daily_money,
                ),
                (
                    "monthly",
                    st.file.monthly.get(&key).copied().unwrap_or_default(),
                    month_reset,
                    l.monthly_tokens,
                    l.monthly_money,
                ),
            ] {
                let over = |unit: &str, used: String, limit: String| Exceeded {
                    budget: format!("{scope} `{name}` {period} {unit}"),
                    used,
                    limit,
                    resets_at: rfc3339(reset),
                };
                if let Some(max) = tokens
                    && spent.tokens.saturating_add(estimate) > max
                {
                    return Err(over(
                        "tokens",
                        format!("{} tokens used, about {estimate} more needed", spent.tokens),
                        format!("{max} tokens"),
                    ));
                }
                // A call that costs nothing (local) is never stopped by money.
                match (money, price) {
                    (Some(max), Some(p)) if p.0 > 0 => {
                        let need = cost(estimate, p);
                        if spent.money_micros.saturating_add(need) > max.0 {
                            return Err(over(
                                "money",
                                format!(
                                    "{} spent, about {} more needed",
                                    Money(spent.money_micros),
                                    Money(need)
                                ),
                                max.to_string(),
                            ));
                        }
                    }
                    (Some(_), None) => {
                        return Err(Exceeded {
                            budget: format!("{scope} `{name}` {period} money"),
                            used: "unknown".into(),
                            limit: format!(
                                "`{provider}` has no price, so its cost cannot be counted (add it under [llm.budgets.prices])"
                            ),
                            resets_at: rfc3339(reset),
                        });
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Count an answered call, then save. A failed save is returned and also stops every later
    /// budgeted hop (the counts could no longer be trusted after a restart).
    pub fn record(
        &self,
        budgets: &BudgetsConfig,
        provider: &str,
        kind: ProviderKind,
        profile: &str,
        tokens: u64,
    ) -> Result<(), String> {
        let now = (self.clock)();
        let money = price_of(budgets, provider, kind)
            .map(|p| cost(tokens, p))
            .unwrap_or(0);
        let mut guard = self.lock();
        let st = &mut *guard;
        // Read-modify-write under a file lock, so two processes never lose each other's counts.
        let _file_lock = match &self.path {
            Some(p) => {
                let lock = p.with_extension("lock");
                let l = crate::store::jsonl::FileLock::exclusive(&lock).map_err(|e| {
                    let why = e.to_string();
                    st.unwritable = Some(why.clone());
                    why
                })?;
                match load(p) {
                    Ok(Some(f)) => st.file = f,
                    Ok(None) => {}
                    Err(why) => {
                        st.unwritable = Some(why.clone());
                        return Err(why);
                    }
                }
                Some(l)
            }
            None => None,
        };
        Self::roll(&mut st.file, now);
        for key in [format!("provider:{provider}"), format!("profile:{profile}")] {
            for map in [&mut st.file.daily, &mut st.file.monthly] {
                let s = map.entry(key.clone()).or_default();
                s.tokens = s.tokens.saturating_add(tokens);
                s.money_micros = s.money_micros.saturating_add(money);
            }
        }
        let Some(path) = &self.path else {
            return Ok(());
        };
        let mut bytes = serde_json::to_vec_pretty(&st.file).map_err(|e| e.to_string())?;
        bytes.push(b'\n');
        match crate::paths::write_atomic(path, &bytes) {
            Ok(()) => {
                st.unwritable = None;
                Ok(())
            }
            Err(e) => {
                let why = format!("cannot write {}: {e}", path.display());
                st.unwritable = Some(why.clone());
                Err(why)
            }
        }
    }

    /// Every configured budget and where it stands now.
    pub fn status(&self, budgets: &BudgetsConfig) -> Vec<BudgetStatus> {
        let now = (self.clock)();
        let (day_reset, month_reset) = resets(now);
        let mut file = self.lock().file.clone();
        // What every process on the data dir spent (an unreadable file: what this one knows).
        if let Some(p) = &self.path
            && let Ok(Some(f)) = load(p)
        {
            file = f;
        }
        Self::roll(&mut file, now);
        let mut out = Vec::new();
        let groups = [
            ("provider", &budgets.providers),
            ("profile", &budgets.profiles),
        ];
        for (scope, map) in groups {
            for (name, l) in map.iter() {
                let key = format!("{scope}:{name}");
                push_status(
                    &mut out,
                    scope,
                    name,
                    l,
                    &file,
                    &key,
                    day_reset,
                    month_reset,
                );
            }
        }
        out
    }
}

#[allow(clippy::too_many_arguments)]
fn push_status(
    out: &mut Vec<BudgetStatus>,
    scope: &str,
    name: &str,
    l: &Limits,
    file: &LedgerFile,
    key: &str,
    day_reset: OffsetDateTime,
    month_reset: OffsetDateTime,
) {
    let daily = file.daily.get(key).copied().unwrap_or_default();
    let monthly = file.monthly.get(key).copied().unwrap_or_default();
    let row =
        |period: &str, unit: &str, used: String, limit: String, exhausted, reset| BudgetStatus {
            scope: scope.into(),
            name: name.into(),
            period: period.into(),
            unit: unit.into(),
            used,
            limit,
            exhausted,
            resets_at: rfc3339(reset),
        };
    if let Some(max) = l.daily_tokens {
        out.push(row(
            "daily",
            "tokens",
            daily.tokens.to_string(),
            max.to_string(),
            daily.tokens >= max,
            day_reset,
        ));
    }
    if let Some(max) = l.monthly_tokens {
        out.push(row(
            "monthly",
            "tokens",
            monthly.tokens.to_string(),
            max.to_string(),
            monthly.tokens >= max,
            month_reset,
        ));
    }
    if let Some(max) = l.daily_money {
        out.push(row(
            "daily",
            "money",
            Money(daily.money_micros).to_string(),
            max.to_string(),
            daily.money_micros >= max.0,
            day_reset,
        ));
    }
    if let Some(max) = l.monthly_money {
        out.push(row(
            "monthly",
            "money",
            Money(monthly.money_micros).to_string(),
            max.to_string(),
            monthly.money_micros >= max.0,
            month_reset,
        ));
    }
}

/// The ledger file's content; `None` when there is none yet.
fn load(p: &Path) -> Result<Option<LedgerFile>, String> {
    match std::fs::read(p) {
        Ok(bytes) => serde_json::from_slice(&bytes).map(Some).map_err(|e| {
            format!(
                "{} is unreadable ({e}); LLM spending cannot be counted. Move it aside to start the counts again",
                p.display()
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", p.display())),
    }
}

/// The provider's price per 1000 tokens: 0 for a local provider, `None` when none is set.
fn price_of(budgets: &BudgetsConfig, provider: &str, kind: ProviderKind) -> Option<Money> {
    if kind == ProviderKind::Local {
        return Some(Money(0));
    }
    budgets.prices.get(provider).copied()
}

/// A call's size before it is sent: prompt characters / 4 (a common rule of thumb for
/// English text) plus the answer's `max_tokens` when the request sets one.
pub fn estimate(messages: &[super::ChatMessage], max_tokens: Option<u32>) -> u64 {
    let chars: usize = messages.iter().map(|m| m.content.chars().count()).sum();
    (chars as u64).div_ceil(4) + max_tokens.map(u64::from).unwrap_or(0)
}
