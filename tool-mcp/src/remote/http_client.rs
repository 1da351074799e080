//! The HTTP client a remote toolkit sends its requests by, with a token or without, set as
//! rmcp sets the one it makes for itself (and keeps private): no idle connection is kept, since
//! one reused before the answer before it was read to its end stalls on delayed
//! acknowledgements; and only 307 and 308 redirects to the same origin are followed, at most
//! ten in a row, the ones that keep a POST's body and send the session's id to no other host.

use reqwest::redirect::{Attempt, Policy};

use super::error::RemoteError;

/// How many redirects one request follows.
const MAX_REDIRECTS: usize = 10;

/// The client, or why it could not be made (no TLS backend, say).
pub(super) fn http_client() -> Result<reqwest::Client, reqwest::Error> {
    reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .redirect(Policy::custom(follow))
        .build()
}

/// The client for connecting to the server `name`, or why that server cannot be reached.
pub(super) fn http_client_for(name: &str) -> Result<reqwest::Client, RemoteError> {
    http_client().map_err(|error| RemoteError::Initialize {
        server: name.to_owned(),
        reason: format!("the HTTP client could not be made: {error}"),
    })
}

/// Follows `attempt` when it keeps the method and body and stays with the first URL's origin,
/// up to [`MAX_REDIRECTS`]; any other redirect is the answer.
fn follow(attempt: Attempt<'_>) -> reqwest::redirect::Action {
    let keeps_body = matches!(attempt.status().as_u16(), 307 | 308);
    let same_origin =
        (attempt.previous().first()).is_some_and(|first| first.origin() == attempt.url().origin());
    if !(keeps_body && same_origin) {
        return attempt.stop();
    }
    if attempt.previous().len() > MAX_REDIRECTS {
        return attempt.error(format!("more than {MAX_REDIRECTS} redirects"));
    }
    tracing::debug!(to = %attempt.url(), "following a redirect of the MCP server");
    attempt.follow()
}
