//! What a remote server asks of and tells the caller of one of its tools reaches that caller's
//! context through a remote toolkit, in both revisions: a question (2025-11-25: a request to
//! the client; 2026-07-28: an `input_required` round), a request for the client's model or
//! roots, and progress; and a server's change to its tools is followed in the registry.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::service::ServiceExt;
use serde_json::json;
use tool_core::call::{Asker, BoxFuture, Offers, Question, Reply, Root, Sampled, SamplingRequest};
use tool_core::{Answer, Context, Refusal, Registry, ToolCall, tool};
use tool_mcp::{McpServer, RemoteToolkit, Revision};

mod support;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Title {
    /// The note's title.
    title: String,
}

/// Asks its caller for a title.
#[tool(readonly)]
async fn ask_title(ctx: &Context) -> Result<String, Refusal> {
    Ok(match ctx.ask::<Title>("What is the note called?").await? {
        Answer::Given(Title { title }) => format!("titled {title}"),
        Answer::Declined => "declined".to_owned(),
        Answer::Cancelled => "cancelled".to_owned(),
    })
}

/// Asks its caller's model, then for its roots, in two rounds.
#[tool(readonly)]
async fn ask_model_and_roots(ctx: &Context) -> Result<String, Refusal> {
    let sampled = ctx
        .sample(SamplingRequest::new("Name a colour.").with_max_tokens(5))
        .await?;
    let roots = ctx.roots().await?;
    let uris: Vec<String> = roots.into_iter().map(|root| root.uri).collect();
    Ok(format!(
        "{} by {}; {}",
        sampled.text,
        sampled.model,
        uris.join(",")
    ))
}

/// Reports progress while it works.
#[tool(readonly)]
async fn report(ctx: &Context) -> &'static str {
    ctx.progress(1.0, Some(2.0), Some("half way"));
    "reported"
}

/// What the calling context was asked and told.
#[derive(Default)]
struct Heard {
    questions: Mutex<Vec<Question>>,
    samples: Mutex<Vec<SamplingRequest>>,
}

struct Person(Arc<Heard>);

impl Asker for Person {
    fn ask(&self, question: Question) -> BoxFuture<'_, Result<Reply, Refusal>> {
        self.0.questions.lock().unwrap().push(question);
        let answer = json!({"title": "Groceries"});
        Box::pin(async move { Ok(Reply::Accept(answer.as_object().cloned().unwrap())) })
    }

    fn offers(&self) -> Offers {
        Offers {
            forms: true,
            sampling: true,
            roots: true,
        }
    }

    fn sample(&self, request: SamplingRequest) -> BoxFuture<'_, Result<Sampled, Refusal>> {
        self.0.samples.lock().unwrap().push(request);
        Box::pin(async {
            Ok(Sampled {
                text: "teal".to_owned(),
                model: "local-model".to_owned(),
                stop_reason: None,
            })
        })
    }

    fn roots(&self) -> BoxFuture<'_, Result<Vec<Root>, Refusal>> {
        Box::pin(async {
            Ok(vec![Root {
                uri: "file:///notes".to_owned(),
                name: None,
            }])
        })
    }
}

fn listening(heard: &Arc<Heard>) -> Context {
    Context::new().with_asker(Person(heard.clone()))
}

/// Serves `registry` over an in-memory pipe and connects a remote toolkit speaking `revision`.
async fn connected(registry: Registry, revision: Revision) -> (RemoteToolkit, Registry) {
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = McpServer::new(registry).serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    let remote = RemoteToolkit::connect_with("notes", client_end, revision)
        .await
        .expect("the server answers");
    let local = remote.add_to(Registry::builder()).build().unwrap();
    (remote, local)
}

async fn text_of(registry: &Registry, name: &str, ctx: &Context) -> Result<String, String> {
    let result = registry
        .call(ToolCall::new("1", name, json!({})), ctx)
        .await;
    match result.outcome {
        Ok(output) => Ok(serde_json::to_value(&output)
            .ok()
            .and_then(|value| value.as_str().map(str::to_owned))
            .unwrap_or_else(|| format!("{output:?}"))),
        Err(refusal) => Err(refusal.to_string()),
    }
}

const REVISIONS: [Revision; 2] = [Revision::V2025_11_25, Revision::V2026_07_28];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_question_is_put_to_the_caller_and_its_answer_goes_back() {
    for revision in REVISIONS {
        let served = Registry::builder().tool(AskTitle).build().unwrap();
        let (_remote, local) = connected(served, revision).await;
        let heard = Arc::new(Heard::default());
        let answered = text_of(&local, "ask_title", &listening(&heard)).await;
        assert_eq!(answered.as_deref(), Ok("titled Groceries"), "{revision:?}");
        let questions = heard.questions.lock().unwrap().clone();
        assert_eq!(questions.len(), 1, "{revision:?}");
        assert_eq!(questions[0].message, "What is the note called?");
        assert_eq!(
            questions[0].form["properties"]["title"]["type"], "string",
            "{revision:?}: the form the server wrote reaches the caller whole"
        );

        // A caller nobody can ask gets the server's own refusal, not a hang.
        let nobody = text_of(&local, "ask_title", &Context::new()).await;
        let refused = nobody.expect_err("nobody was there to answer");
        assert!(refused.contains("cannot"), "{revision:?}: {refused}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_request_for_the_callers_model_and_roots_is_answered_by_the_caller() {
    for revision in REVISIONS {
        let served = Registry::builder().tool(AskModelAndRoots).build().unwrap();
        let (_remote, local) = connected(served, revision).await;
        let heard = Arc::new(Heard::default());
        let answered = text_of(&local, "ask_model_and_roots", &listening(&heard)).await;
        assert_eq!(
            answered.as_deref(),
            Ok("teal by local-model; file:///notes"),
            "{revision:?}"
        );
        let samples = heard.samples.lock().unwrap();
        assert_eq!(samples.len(), 1, "{revision:?}");
        assert_eq!(samples[0].messages[0].text, "Name a colour.");
        assert_eq!(samples[0].max_tokens, 5);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remote_progress_reaches_the_callers_listener() {
    for revision in REVISIONS {
        let served = Registry::builder().tool(Report).build().unwrap();
        let (_remote, local) = connected(served, revision).await;
        let (reported, mut heard) = tokio::sync::mpsc::unbounded_channel();
        let ctx = Context::new().with_progress(move |progress| {
            let _ = reported.send(progress);
        });
        let answered = text_of(&local, "report", &ctx).await;
        assert_eq!(answered.as_deref(), Ok("reported"), "{revision:?}");
        // rmcp hands each notification to a task of its own: it may be heard after the answer.
        let progress = tokio::time::timeout(Duration::from_secs(60), heard.recv())
            .await
            .expect("the progress was heard")
            .expect("the listener is alive");
        assert_eq!(
            (progress.done, progress.total, progress.message.as_deref()),
            (1.0, Some(2.0), Some("half way")),
            "{revision:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_to_the_servers_tools_is_followed_in_the_registry() {
    let served = Registry::builder().tool(Report).build().unwrap();
    let (remote, local) = connected(served.clone(), Revision::V2025_11_25).await;
    let _following = remote.follow(&local);
    let mut changes = local.subscribe();

    served.add(AskTitle).unwrap();
    let change = tokio::time::timeout(Duration::from_secs(60), changes.recv())
        .await
        .expect("the new tool reached the registry")
        .unwrap();
    assert_eq!(
        format!("{change:?}"),
        r#"Added(["ask_title"])"#,
        "only what changed is changed"
    );
    assert_eq!(local.names(), ["report", "ask_title"]);
    let heard = Arc::new(Heard::default());
    assert_eq!(
        text_of(&local, "ask_title", &listening(&heard))
            .await
            .as_deref(),
        Ok("titled Groceries")
    );

    assert!(served.remove("report"));
    let change = tokio::time::timeout(Duration::from_secs(60), changes.recv())
        .await
        .expect("the removal reached the registry")
        .unwrap();
    assert_eq!(format!("{change:?}"), r#"Removed(["report"])"#);
    assert_eq!(local.names(), ["ask_title"]);
    let gone = text_of(&local, "report", &Context::new()).await;
    assert!(gone.is_err(), "{gone:?}");
}

/// Holds its call until the test lets it go, saying when it started.
struct Gate {
    entered: Arc<tokio::sync::Notify>,
    let_go: Arc<tokio::sync::Notify>,
}

#[tool_core::toolkit(name = "gate")]
impl Gate {
    /// Waits to be let go.
    #[tool(readonly)]
    async fn hold(&self) -> &'static str {
        self.entered.notify_one();
        self.let_go.notified().await;
        "let go"
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2025_11_25_question_while_two_calls_are_in_flight_is_refused_not_misdirected() {
    let (entered, let_go) = (Arc::default(), Arc::new(tokio::sync::Notify::new()));
    let gate = Gate {
        entered: Arc::clone(&entered),
        let_go: let_go.clone(),
    };
    let served = Registry::builder()
        .toolkit(gate)
        .tool(AskTitle)
        .build()
        .unwrap();
    let (_remote, local) = connected(served, Revision::V2025_11_25).await;
    let held = {
        let local = local.clone();
        tokio::spawn(async move { text_of(&local, "hold", &Context::new()).await })
    };
    // The held call runs on the server, so it is in flight here.
    let entered: Arc<tokio::sync::Notify> = entered;
    tokio::time::timeout(Duration::from_secs(60), entered.notified())
        .await
        .expect("the held call reached the server");
    let heard = Arc::new(Heard::default());
    let answered = text_of(&local, "ask_title", &listening(&heard)).await;
    let refused = answered.expect_err("the question was refused");
    assert!(
        refused.contains("connect the toolkit with `Revision::V2026_07_28`"),
        "{refused}"
    );
    assert!(
        heard.questions.lock().unwrap().is_empty(),
        "no question reached a caller it may not belong to"
    );
    assert!(
        refused.contains("exactly one call is in flight"),
        "{refused}"
    );
    let_go.notify_one();
    assert_eq!(held.await.unwrap().as_deref(), Ok("let go"));
}
