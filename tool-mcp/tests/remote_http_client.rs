//! A remote toolkit's HTTP client: the redirects it follows (307 and 308 to the same origin,
//! which keep a POST's body, at most ten in a row; never one to another origin, which would be
//! sent the session's id, nor a 301, 302 or 303, which would turn the POST into a GET and lose
//! its message), and what a connection that fails says.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use serde_json::json;
use tool_mcp::{RemoteToolkit, Revision};

/// Requests each path of a server was sent, whatever their method; and whether `/expiring`
/// has begun to refuse its token.
#[derive(Default)]
struct Counts {
    mcp: AtomicUsize,
    looping: AtomicUsize,
    expired: AtomicBool,
}

/// A server without sessions whose `/mcp` lists one tool, and whose other paths redirect:
/// `/kept` (307) and `/kept-308` to `/mcp`, `/moved` (302) to `/mcp`, `/loop` (307) to itself,
/// `/away` (307) to `elsewhere`'s `/mcp`; `/locked` answers 401, `/challenged` 401 with a
/// bearer challenge, `/refused` 401 with a challenge that refuses a token, and `/expiring` as
/// `/mcp` until `expired` is set, then as `/refused`.
async fn serve(counts: Arc<Counts>, elsewhere: Option<String>) -> String {
    serve_stoppably(counts, elsewhere).await.0
}

/// [`serve`], and the task serving, which stops the server when aborted.
async fn serve_stoppably(
    counts: Arc<Counts>,
    elsewhere: Option<String>,
) -> (String, tokio::task::JoinHandle<std::io::Result<()>>) {
    let redirect = |status: StatusCode, to: String| {
        move || {
            let to = to.clone();
            async move { (status, [("location", to)]).into_response() }
        }
    };
    let loop_counts = counts.clone();
    let get_counts = counts.clone();
    let expiring = counts.clone();
    let elsewhere = elsewhere.unwrap_or_default();
    let router = axum::Router::new()
        .route(
            "/mcp",
            axum::routing::post(move |body: String| {
                let counts = counts.clone();
                async move {
                    counts.mcp.fetch_add(1, Ordering::SeqCst);
                    let (method, message) = support::scripted::read(&body);
                    support::scripted::answer(method.as_deref(), &message, None)
                }
            })
            // A followed 302 would arrive as a GET, its message lost.
            .get(move || {
                let counts = get_counts.clone();
                async move {
                    counts.mcp.fetch_add(1, Ordering::SeqCst);
                    StatusCode::METHOD_NOT_ALLOWED
                }
            }),
        )
        .route(
            "/kept",
            axum::routing::post(redirect(StatusCode::TEMPORARY_REDIRECT, "/mcp".into())),
        )
        .route(
            "/kept-308",
            axum::routing::post(redirect(StatusCode::PERMANENT_REDIRECT, "/mcp".into())),
        )
        .route(
            "/moved",
            axum::routing::post(redirect(StatusCode::FOUND, "/mcp".into())),
        )
        .route(
            "/away",
            axum::routing::post(redirect(StatusCode::TEMPORARY_REDIRECT, elsewhere)),
        )
        .route(
            "/locked",
            axum::routing::post(|| async { StatusCode::UNAUTHORIZED }),
        )
        .route(
            "/challenged",
            axum::routing::post(|| async {
                let challenge = ("www-authenticate", "Bearer realm=\"mcp\"");
                (StatusCode::UNAUTHORIZED, [challenge]).into_response()
            }),
        )
        .route("/refused", axum::routing::post(|| async { refused() }))
        .route(
            "/expiring",
            axum::routing::post(move |body: String| {
                let expired = expiring.expired.load(Ordering::SeqCst);
                async move {
                    if expired {
                        return refused();
                    }
                    let (method, message) = support::scripted::read(&body);
                    support::scripted::answer(method.as_deref(), &message, None)
                }
            }),
        )
        .route(
            "/loop",
            axum::routing::post(move |_: HeaderMap| {
                let counts = loop_counts.clone();
                async move {
                    counts.looping.fetch_add(1, Ordering::SeqCst);
                    (StatusCode::TEMPORARY_REDIRECT, [("location", "/loop")]).into_response()
                }
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let bound = listener.local_addr().unwrap();
    let serving = tokio::spawn(async move { axum::serve(listener, router).await });
    (format!("http://{bound}"), serving)
}

/// A 401 whose challenge refuses the token sent.
fn refused() -> axum::response::Response {
    let challenge = (
        "www-authenticate",
        "Bearer error=\"invalid_token\", error_description=\"the token has expired\"",
    );
    (StatusCode::UNAUTHORIZED, [challenge]).into_response()
}

async fn connect(url: String) -> Result<RemoteToolkit, tool_mcp::RemoteError> {
    RemoteToolkit::connect_http_with("redirected", &url, Revision::V2025_11_25).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_307_or_308_to_the_same_origin_is_followed_with_the_message() {
    for path in ["/kept", "/kept-308"] {
        let counts = Arc::new(Counts::default());
        let server = serve(counts.clone(), None).await;
        let remote = connect(format!("{server}{path}")).await.unwrap();
        assert_eq!(remote.definitions().len(), 1, "{path}");
        assert!(counts.mcp.load(Ordering::SeqCst) >= 2, "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_302_is_not_followed() {
    let counts = Arc::new(Counts::default());
    let server = serve(counts.clone(), None).await;
    assert!(connect(format!("{server}/moved")).await.is_err());
    assert_eq!(counts.mcp.load(Ordering::SeqCst), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_to_another_origin_is_not_followed() {
    let elsewhere_counts = Arc::new(Counts::default());
    let elsewhere = serve(elsewhere_counts.clone(), None).await;
    let server = serve(
        Arc::new(Counts::default()),
        Some(format!("{elsewhere}/mcp")),
    )
    .await;
    assert!(connect(format!("{server}/away")).await.is_err());
    assert_eq!(elsewhere_counts.mcp.load(Ordering::SeqCst), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_stop_after_ten_in_a_row() {
    let counts = Arc::new(Counts::default());
    let server = serve(counts.clone(), None).await;
    let refused = connect(format!("{server}/loop")).await.err().unwrap();
    assert_eq!(
        counts.looping.load(Ordering::SeqCst),
        11,
        "the first and ten more"
    );
    let said = refused.to_string();
    assert!(said.contains("more than 10 redirects"), "{said}");
    assert!(!said.contains("WorkerTransport"), "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_is_not_there_is_named_with_why_in_plain_words() {
    // A port just freed: nothing listens on it.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let refused = connect(format!("http://127.0.0.1:{port}/mcp"))
        .await
        .err()
        .unwrap();
    let said = refused.to_string();
    assert!(
        said.contains("the MCP server `redirected` did not initialize"),
        "{said}"
    );
    assert!(said.to_lowercase().contains("connection refused"), "{said}");
    assert!(!said.contains("WorkerTransport"), "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_to_a_server_gone_away_fails_saying_why_in_plain_words() {
    let (server, serving) = serve_stoppably(Arc::new(Counts::default()), None).await;
    let remote = connect(format!("{server}/mcp")).await.unwrap();
    let registry = remote
        .add_to(tool_core::Registry::builder())
        .build()
        .unwrap();
    let call = || tool_core::ToolCall::new("1", "only", json!({}));
    let context = tool_core::Context::default();
    assert_eq!(registry.call(call(), &context).await.text(), "called");
    serving.abort();
    let _ = serving.await;
    let failed = registry.call(call(), &context).await;
    let said = failed.text();
    assert!(failed.is_refused(), "{said}");
    assert!(said.contains("did not answer"), "{said}");
    assert!(said.to_lowercase().contains("connection refused"), "{said}");
    assert!(!said.contains("Transport ["), "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_asks_for_a_token_is_told_of_with_how_to_send_one() {
    let server = serve(Arc::new(Counts::default()), None).await;
    for path in ["/locked", "/challenged"] {
        let said = connect(format!("{server}{path}"))
            .await
            .err()
            .unwrap()
            .to_string();
        assert!(
            said.contains(
                "the server takes only calls with a token: connect with \
                 `RemoteToolkit::connect_http_authorized`"
            ),
            "{path}: {said}"
        );
    }
    // A server that refuses for another cause is not said to want a token.
    let said = connect(format!("{server}/moved")).await.err().unwrap();
    assert!(!said.to_string().contains("token"), "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_the_server_refuses_is_told_of_as_refused_not_as_missing() {
    let server = serve(Arc::new(Counts::default()), None).await;
    let url = format!("{server}/refused");
    // Without a token, the answer is the same (some servers, the Python SDK's among them, say
    // `invalid_token` for a request that carried none): what is told is what was sent.
    let said = connect(url.clone()).await.err().unwrap().to_string();
    assert!(
        said.contains("the server takes only calls with a token: connect with"),
        "{said}"
    );
    let token = tool_mcp::RemoteAuth::Bearer("expired".into());
    let refused =
        RemoteToolkit::connect_http_authorized("locked", &url, Revision::V2025_11_25, token);
    let said = refused.await.err().unwrap().to_string();
    assert!(
        said.contains("the server refused the token it was sent"),
        "{said}"
    );
    assert!(said.contains("the token has expired"), "{said}");
    assert!(!said.contains("connect_http_authorized"), "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_refused_on_a_later_call_is_told_of_as_the_handshake_s_is() {
    let call = || tool_core::ToolCall::new("1", "only", json!({}));
    let context = tool_core::Context::default();
    let token = tool_mcp::RemoteAuth::Bearer("soon expired".into());
    for (auth, said) in [
        (Some(token), "the server refused the token it was sent"),
        (
            None,
            "the server takes only calls with a token: connect with \
             `RemoteToolkit::connect_http_authorized`",
        ),
    ] {
        let counts = Arc::new(Counts::default());
        let url = format!("{}/expiring", serve(counts.clone(), None).await);
        let connecting = RemoteToolkit::connecting("expiring").speaking(Revision::V2025_11_25);
        let remote = match auth.clone() {
            Some(auth) => connecting.http_authorized(&url, auth).await,
            None => connecting.http(&url).await,
        };
        let registry = (remote.unwrap().add_to(tool_core::Registry::builder()))
            .build()
            .unwrap();
        assert_eq!(registry.call(call(), &context).await.text(), "called");
        counts.expired.store(true, Ordering::SeqCst);
        let failed = registry.call(call(), &context).await;
        let told = failed.text();
        assert!(failed.is_refused() && told.contains(said), "{told}");
        assert!(told.contains("the token has expired"), "{told}");
        if auth.is_some() {
            assert!(!told.contains("connect_http_authorized"), "{told}");
        }
    }
}
