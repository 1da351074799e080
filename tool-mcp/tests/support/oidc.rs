//! The authorization server of the OAuth tests: oidc-provider (`tests/oidc_issuer.mjs`),
//! installed into `target/test-clients/` like the SDKs, issuing JWT access tokens by the
//! client-credentials grant for one resource.
#![allow(dead_code)] // Each test binary uses some of these.

use serde_json::Value;

/// A port free on this machine now, for a server that must know its own address before it
/// binds (an issuer names itself; a resource's tokens name it).
pub fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// oidc-provider, issuing JWTs for `resource`: its issuer URL, and its process.
pub fn start(resource: &str) -> (String, super::process::ChildGuard) {
    let script = super::clients::oidc_provider("oidc_issuer.mjs");
    let port = free_port().to_string();
    let mut issuer = super::process::ChildGuard::spawn(
        std::process::Command::new(super::clients::node22())
            .arg(&script)
            .args([port.as_str(), resource])
            .current_dir(script.parent().unwrap())
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null()),
        "oidc-provider",
    );
    let url = issuer.listening_on("oidc-provider");
    (url, issuer)
}

/// A token of `client` from the issuer's token endpoint, by the client-credentials grant.
pub async fn client_token(issuer: &str, client: &str, scope: &str, resource: &str) -> String {
    super::install_tls();
    let body = format!(
        "grant_type=client_credentials&scope={}&resource={}",
        scope.replace(' ', "%20"),
        resource.replace(':', "%3A").replace('/', "%2F")
    );
    let answer: Value = reqwest::Client::new()
        .post(format!("{issuer}/token"))
        .basic_auth(client, Some(format!("{client}-secret")))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    answer["access_token"]
        .as_str()
        .unwrap_or_else(|| panic!("no token: {answer}"))
        .to_owned()
}
