//! The TLS provider this crate's HTTP clients need (the remote toolkit's, and the OAuth
//! verifier's for its issuers' keys): reqwest is built with rustls but without a provider of
//! its own, so that the crate builds only ring.

/// Installs ring's provider for the process, unless the host installed one already (then
/// this does nothing, and the host's is used).
// rustls deprecates ring's provider for its lack of post-quantum key exchange. It stays the
// one installed when the host chooses none, for its build (aws-lc-rs builds a C library); a
// host that wants post-quantum key exchange installs aws-lc-rs's before connecting.
#[allow(deprecated)]
pub(crate) fn install_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
