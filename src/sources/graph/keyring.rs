//! Refresh tokens in the OS keyring: the freedesktop Secret Service (GNOME Keyring, KWallet,
//! KeePassXC) on the session D-Bus, through the `secret-service` crate (pure Rust over zbus, so
//! the build needs no libdbus and a machine without a session bus simply has no keyring).
//!
//! Items live in the default collection, labelled for the person who browses their keyring and
//! found by attributes: `application = opsdesk`, `kind = graph-refresh-token`, the profile and
//! the data dir's token folder (two data dirs never share a token). A locked collection counts
//! as unavailable rather than being unlocked: unlocking may raise a desktop prompt, and an
//! engine must never wait on a dialog nobody sees.

use std::collections::HashMap;

use secret_service::EncryptionType;
use secret_service::blocking::SecretService;

/// Why the keyring could not be used, in words for the operator.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct KeyringError(String);

impl KeyringError {
    pub fn new(message: impl Into<String>) -> KeyringError {
        KeyringError(message.into())
    }
}

fn describe(e: secret_service::Error) -> KeyringError {
    KeyringError(match e {
        secret_service::Error::Locked => "the default keyring is locked".to_owned(),
        secret_service::Error::Unavailable => {
            "no Secret Service on the session D-Bus (no keyring daemon running)".to_owned()
        }
        secret_service::Error::NoResult => "the keyring has no default collection".to_owned(),
        other => format!("Secret Service error: {other}"),
    })
}

/// The attributes that identify one profile's token of one data dir.
pub struct TokenAttrs {
    pub profile: String,
    pub tokens_dir: String,
}

impl TokenAttrs {
    fn map(&self) -> HashMap<&str, &str> {
        HashMap::from([
            ("application", "opsdesk"),
            ("kind", "graph-refresh-token"),
            ("profile", self.profile.as_str()),
            ("tokens_dir", self.tokens_dir.as_str()),
        ])
    }
}

fn connect<'a>() -> Result<SecretService<'a>, KeyringError> {
    // Dh: the secret crosses the bus encrypted, not in the clear.
    SecretService::connect(EncryptionType::Dh).map_err(describe)
}

/// Whether a keyring can take a token now; on success, the default collection's label.
pub fn probe() -> Result<String, KeyringError> {
    let ss = connect()?;
    let c = ss.get_default_collection().map_err(describe)?;
    c.ensure_unlocked().map_err(describe)?;
    c.get_label().map_err(describe)
}

/// Store (or replace) the token.
pub fn save(attrs: &TokenAttrs, label: &str, secret: &[u8]) -> Result<(), KeyringError> {
    let ss = connect()?;
    let c = ss.get_default_collection().map_err(describe)?;
    c.ensure_unlocked().map_err(describe)?;
    c.create_item(label, attrs.map(), secret, true, "application/json")
        .map_err(describe)?;
    Ok(())
}

/// The stored token, or None when the keyring has none for these attributes.
pub fn load(attrs: &TokenAttrs) -> Result<Option<Vec<u8>>, KeyringError> {
    let ss = connect()?;
    let found = ss.search_items(attrs.map()).map_err(describe)?;
    if let Some(item) = found.unlocked.first() {
        return item.get_secret().map(Some).map_err(describe);
    }
    if !found.locked.is_empty() {
        return Err(KeyringError(
            "the keyring holding the token is locked".to_owned(),
        ));
    }
    Ok(None)
}

/// Remove every item for these attributes; whether there was one.
pub fn delete(attrs: &TokenAttrs) -> Result<bool, KeyringError> {
    let ss = connect()?;
    let found = ss.search_items(attrs.map()).map_err(describe)?;
    if !found.locked.is_empty() {
        return Err(KeyringError(
            "the keyring holding the token is locked; unlock it and run the command again"
                .to_owned(),
        ));
    }
    let had = !found.unlocked.is_empty();
    for item in found.unlocked {
        item.delete().map_err(describe)?;
    }
    Ok(had)
}
