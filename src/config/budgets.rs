//! `[llm.budgets]`: spending limits per provider and per profile, and prices.
//!
//! ```toml
//! [llm.budgets.prices]            # money per 1000 tokens (prompt + completion), per provider
//! openai = 0.002
//! [llm.budgets.providers.openai]  # any of the four limits
//! daily_tokens = 200000
//! monthly_money = 40.0
//! [llm.budgets.profiles.clinic]
//! daily_money = 1.5
//! ```
//!
//! Days and months are UTC. Money is kept in millionths (so the config stays `Eq` and sums are
//! exact); the unit is whatever currency the prices are in.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An amount of money in millionths of the price unit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Money(pub u64);

impl Money {
    pub const MICROS: u64 = 1_000_000;

    pub fn from_units(v: f64) -> Result<Money, String> {
        if !v.is_finite() || v < 0.0 {
            return Err(format!(
                "{v} is not an amount of money; use a number 0 or above"
            ));
        }
        if v > 1e12 {
            return Err(format!("{v} is too large for an amount of money"));
        }
        Ok(Money((v * Self::MICROS as f64).round() as u64))
    }

    pub fn units(self) -> f64 {
        self.0 as f64 / Self::MICROS as f64
    }
}

impl std::fmt::Display for Money {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.4}", self.units())
    }
}

impl Serialize for Money {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.units())
    }
}

// Written as a plain number of price units (`1.5`); the millionths are internal.
impl schemars::JsonSchema for Money {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Money".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "number",
            "minimum": 0,
            "description": "An amount in the currency the prices are in."
        })
    }
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Money, D::Error> {
        let v = f64::deserialize(d)?;
        Money::from_units(v).map_err(serde::de::Error::custom)
    }
}

/// The limits of one provider or profile; each is off when absent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Tokens (prompt + completion) per UTC day.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = 200_000)]
    pub daily_tokens: Option<u64>,
    /// Tokens (prompt + completion) per UTC month.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = 4_000_000)]
    pub monthly_tokens: Option<u64>,
    /// Money per UTC day, at the prices of `[llm.budgets.prices]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = 1.5)]
    pub daily_money: Option<Money>,
    /// Money per UTC month, at the prices of `[llm.budgets.prices]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = 40.0)]
    pub monthly_money: Option<Money>,
}

impl Limits {
    pub fn has_money(&self) -> bool {
        self.daily_money.is_some() || self.monthly_money.is_some()
    }
    pub fn is_empty(&self) -> bool {
        *self == Limits::default()
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct BudgetsConfig {
    /// Provider name → price per 1000 tokens. A `local` provider always costs 0.
    #[schemars(example = serde_json::json!({"openai": 0.002}))]
    pub prices: BTreeMap<String, Money>,
    /// `[llm.budgets.providers.<name>]`: limits of one provider, over every profile.
    pub providers: BTreeMap<String, Limits>,
    /// `[llm.budgets.profiles.<name>]`: limits of one profile, over every provider.
    pub profiles: BTreeMap<String, Limits>,
}

impl BudgetsConfig {
    pub fn is_empty(&self) -> bool {
        *self == BudgetsConfig::default()
    }
}

/// Problems of `[llm.budgets]`, as (key path, message); the validator reports them with the
/// rest of the config's problems.
pub(crate) fn problems(c: &super::Config) -> Vec<(Vec<String>, String)> {
    let b = &c.llm.budgets;
    let mut out = Vec::new();
    let path = |keys: &[&str]| -> Vec<String> {
        ["llm", "budgets"]
            .iter()
            .chain(keys)
            .map(|s| s.to_string())
            .collect()
    };
    let providers = c
        .llm
        .providers
        .keys()
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    let is_local = |p: &str| {
        c.llm
            .providers
            .get(p)
            .is_some_and(|p| p.kind == super::ProviderKind::Local)
    };
    for name in b.prices.keys() {
        if !c.llm.providers.contains_key(name) {
            out.push((
                path(&["prices", name]),
                format!("`llm.budgets.prices.{name}` names no provider; allowed: {providers}"),
            ));
        } else if is_local(name) && b.prices[name].0 > 0 {
            out.push((
                path(&["prices", name]),
                format!("`llm.budgets.prices.{name}`: `{name}` is a local provider, which costs nothing; remove the price"),
            ));
        }
    }
    for (name, limits) in &b.providers {
        if !c.llm.providers.contains_key(name) {
            out.push((
                path(&["providers", name]),
                format!("`llm.budgets.providers.{name}` names no provider; allowed: {providers}"),
            ));
            continue;
        }
        if limits.has_money() && is_local(name) {
            out.push((
                path(&["providers", name]),
                format!("`llm.budgets.providers.{name}` sets a money limit on a local provider, which costs nothing and is never blocked by money; use daily_tokens / monthly_tokens"),
            ));
        } else if limits.has_money() && !b.prices.contains_key(name) {
            out.push((
                path(&["providers", name]),
                format!("`llm.budgets.providers.{name}` sets a money limit but `{name}` has no price; add `{name} = <price per 1000 tokens>` under [llm.budgets.prices]"),
            ));
        }
    }
    let unpriced: Vec<&String> = c
        .llm
        .providers
        .keys()
        .filter(|p| c.llm.providers[*p].enabled && !is_local(p) && !b.prices.contains_key(*p))
        .collect();
    for (name, limits) in &b.profiles {
        if !c.profiles.contains_key(name) {
            out.push((
                path(&["profiles", name]),
                format!(
                    "`llm.budgets.profiles.{name}` names no profile; allowed: {}",
                    c.profiles.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            ));
        } else if limits.has_money() && !unpriced.is_empty() {
            // Otherwise calls to an unpriced provider would spend nothing against the limit.
            out.push((
                path(&["profiles", name]),
                format!(
                    "`llm.budgets.profiles.{name}` sets a money limit, but these providers have no price, so their calls could not be counted: {}; add them under [llm.budgets.prices] (local providers cost 0)",
                    unpriced.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
    }
    out
}
