use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Who asked for something. Serialized as a short string: `console`, `cli`,
/// `mcp:<client>`, `source:<name>`, `engine`, `executor`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Actor {
    /// The operator at the console.
    Console,
    /// The operator at the local command line.
    Cli,
    /// An MCP client, named by its `clientInfo.name`.
    Mcp(String),
    /// A poller or other inbound source.
    Source(String),
    /// The engine itself (scheduled jobs, recovery).
    Engine,
    /// The executor running an approved draft.
    Executor,
    /// One of the assistant's jobs (`assistant:draft`): model-written work, never an operator.
    Assistant(String),
    /// A vault tool proposing actions (`vault:<tool>`); never the operator.
    Vault(String),
}

impl Actor {
    /// Only the operator's own surfaces may approve or reject (principle 3 in docs/ARCHITECTURE.md).
    pub fn is_operator(&self) -> bool {
        matches!(self, Actor::Console | Actor::Cli)
    }

    pub fn mcp(client: &str) -> Actor {
        Actor::Mcp(client.to_string())
    }
}

impl fmt::Display for Actor {
    // `pad`, not `write_str`: lists align actors in columns (`{:<20}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Console => f.pad("console"),
            Actor::Cli => f.pad("cli"),
            Actor::Mcp(c) => f.pad(&format!("mcp:{c}")),
            Actor::Source(s) => f.pad(&format!("source:{s}")),
            Actor::Engine => f.pad("engine"),
            Actor::Executor => f.pad("executor"),
            Actor::Assistant(j) => f.pad(&format!("assistant:{j}")),
            Actor::Vault(t) => f.pad(&format!("vault:{t}")),
        }
    }
}

impl FromStr for Actor {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "console" => Actor::Console,
            "cli" => Actor::Cli,
            "engine" => Actor::Engine,
            "executor" => Actor::Executor,
            _ => {
                if let Some(c) = s.strip_prefix("mcp:") {
                    Actor::Mcp(c.to_string())
                } else if let Some(c) = s.strip_prefix("source:") {
                    Actor::Source(c.to_string())
                } else if let Some(j) = s.strip_prefix("assistant:") {
                    Actor::Assistant(j.to_string())
                } else if let Some(t) = s.strip_prefix("vault:") {
                    Actor::Vault(t.to_string())
                } else {
                    return Err(format!("unknown actor `{s}`"));
                }
            }
        })
    }
}

impl Serialize for Actor {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Actor {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_its_string_form() {
        for a in [
            Actor::Console,
            Actor::Cli,
            Actor::mcp("claude-code"),
            Actor::Source("demo".into()),
            Actor::Engine,
            Actor::Executor,
            Actor::Assistant("draft".into()),
        ] {
            let s = serde_json::to_string(&a).unwrap();
            assert_eq!(serde_json::from_str::<Actor>(&s).unwrap(), a);
        }
    }

    #[test]
    fn only_console_and_cli_are_operators() {
        assert!(Actor::Console.is_operator());
        assert!(Actor::Cli.is_operator());
        assert!(!Actor::mcp("console").is_operator());
        assert!(!Actor::Engine.is_operator());
        assert!(!Actor::Assistant("draft".into()).is_operator());
        assert!(!Actor::Vault("approve".into()).is_operator());
        assert_eq!(
            "vault:summarise".parse::<Actor>(),
            Ok(Actor::Vault("summarise".into()))
        );
    }
}
