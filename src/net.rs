//! The one way the product builds an outbound HTTP client.
//!
//! TLS is rustls with the `ring` crypto provider: reqwest's default provider, aws-lc, linked
//! 1.3 MiB of code against ring's 0.27 MiB for the same handshakes (docs/ARCHITECTURE.md,
//! "Release build"). reqwest is built with `rustls-no-provider`, so every client must be built
//! after a process-wide provider is installed; building one without would panic inside reqwest.

use std::sync::Once;

/// A `reqwest::ClientBuilder` whose TLS uses the `ring` provider.
pub fn client_builder() -> reqwest::ClientBuilder {
    install_crypto_provider();
    reqwest::Client::builder()
}

/// Installs `ring` as the process's rustls provider, once. An `Err` from `install_default`
/// only says a provider is already installed (by the embedding process, e.g. a test), which
/// every later client then uses: nothing to report.
pub fn install_crypto_provider() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _already_installed = rustls::crypto::ring::default_provider().install_default();
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_builds_with_the_ring_provider() {
        let client = client_builder().build();
        assert!(client.is_ok(), "{:?}", client.err());
        let provider =
            rustls::crypto::CryptoProvider::get_default().expect("a provider is installed");
        assert!(
            !provider.cipher_suites.is_empty(),
            "the installed provider offers no cipher suite"
        );
    }
}
