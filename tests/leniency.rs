//! Leniency: the slips models make most, forgiven where a registry or a tool says so, each
//! adjustment told to the model and to the log; nothing forgiven otherwise.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde_json::{Value, json};
use tool_core::call::{Arguments, BoxFuture};
use tool_core::outcome::Output;
use tool_core::providers::{anthropic, gemini, mcp, openai};
use tool_core::tool::{Tool, ToolDefinition};
use tool_core::{
    Approval, ApprovalRequest, Context, Leniency, Refusal, Registry, ToolCall, ToolResult, tool,
};
use tool_tests::Log;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Filter {
    /// Tags every note must have.
    tags: Vec<String>,
    /// Notes changed since this revision.
    since: Option<u32>,
}

/// Searches notes.
#[tool(readonly)]
async fn note_search(
    limit: u32,
    exact: Option<bool>,
    weight: Option<f64>,
    tags: Vec<String>,
    filter: Option<Filter>,
) -> String {
    let filter = filter.map(|filter| (filter.tags, filter.since));
    format!("limit={limit} exact={exact:?} weight={weight:?} tags={tags:?} filter={filter:?}")
}

/// Deletes notes.
#[tool(destructive)]
async fn note_delete(ids: Vec<u64>) -> String {
    format!("deleted {ids:?}")
}

/// Deletes notes, forgiving the slips models make.
#[tool(destructive, lenient)]
async fn note_purge(ids: Vec<u64>) -> String {
    format!("purged {ids:?}")
}

fn registry() -> Registry {
    Registry::builder()
        .tool(NoteSearch)
        .tool(NoteDelete)
        .tool(NotePurge)
        .build()
        .unwrap()
}

async fn call(registry: &Registry, name: &str, arguments: Value) -> ToolResult {
    log();
    registry
        .call(ToolCall::new("c1", name, arguments), &Context::default())
        .await
}

/// Every slip at once: a number, a boolean and a fraction as text, one tag for a list, and the
/// filter as JSON text, inside which `since` is text too.
fn slips() -> Value {
    json!({
        "limit": "10",
        "exact": "true",
        "weight": "2.5",
        "tags": "a",
        "filter": r#"{"tags": ["b"], "since": "3"}"#,
    })
}

const ADJUSTED: &str = "adjusted\tlimit\tread the text \"10\" as the number 10\n\
                        adjusted\texact\tread the text \"true\" as the boolean true\n\
                        adjusted\tweight\tread the text \"2.5\" as the number 2.5\n\
                        adjusted\ttags\tread one value as a list of one\n\
                        adjusted\tfilter\tread the JSON text as an object\n\
                        adjusted\tfilter.since\tread the text \"3\" as the number 3";

#[tokio::test]
async fn each_slip_is_adjusted_and_reported_with_the_result() {
    let lenient = registry().with_leniency(Leniency::all());
    let result = call(&lenient, "note_search", slips()).await;
    assert_eq!(
        result.text(),
        format!(
            "limit=10 exact=Some(true) weight=Some(2.5) tags=[\"a\"] \
             filter=Some(([\"b\"], Some(3)))\n{ADJUSTED}"
        )
    );
    assert_eq!(result.notes.len(), 6);
    assert_eq!(result.notes[0].label, "adjusted");
    assert_eq!(
        result.notes[0].cells,
        ["limit", "read the text \"10\" as the number 10"]
    );
}

#[tokio::test]
async fn every_provider_writes_the_adjustments_where_the_model_reads_them() {
    let lenient = registry().with_leniency(Leniency::all());
    let result = call(&lenient, "note_search", json!({"limit": "10", "tags": []})).await;
    let line = "adjusted\tlimit\tread the text \"10\" as the number 10";
    let output = "limit=10 exact=None weight=None tags=[] filter=None";

    let written = mcp::write_result(&result);
    assert_eq!(
        written["content"],
        json!([{"type": "text", "text": output}, {"type": "text", "text": line}])
    );
    assert_eq!(written["isError"], false);
    let both = format!("{output}\n{line}");
    assert_eq!(openai::write_result(&result)["content"], both.as_str());
    assert_eq!(anthropic::write_result(&result)["content"], both.as_str());
    assert_eq!(
        gemini::write_result(&result)["functionResponse"]["response"]["output"],
        both.as_str()
    );
    assert_eq!(
        serde_json::to_value(&result).unwrap()["notes"][0]["cells"][0],
        "limit"
    );
}

#[tokio::test]
async fn leniency_is_off_by_default_and_the_same_calls_are_refused_as_without_it() {
    let strict = registry();
    let refused = call(&strict, "note_search", slips()).await;
    assert!(refused.notes.is_empty());
    assert_eq!(
        tool_tests::faults(refused.refusal().unwrap()),
        [
            ("limit", r#"expected u32, received "10""#),
            ("exact", r#"expected boolean or null, received "true""#),
            ("weight", r#"expected f64 or null, received "2.5""#),
            ("tags", r#"expected array of string, received "a""#),
            (
                "filter",
                r#"expected object with fields tags, since, received "{\"tags\": [\"b\"], \"since\": \"3\"}""#
            ),
        ]
        .map(|(path, problem)| (path.to_owned(), problem.to_owned()))
    );
    for unchanged in [
        registry().with_leniency(Leniency::none()),
        registry().with_leniency(Leniency::default()),
    ] {
        assert_eq!(call(&unchanged, "note_search", slips()).await, refused);
    }
    assert_eq!(
        call(&strict, "note_purge", json!({"ids": 7})).await.text(),
        "purged [7]\nadjusted\tids\tread one value as a list of one",
        "a tool that says `lenient` is lenient in any registry"
    );
}

#[tokio::test]
async fn only_the_slips_a_leniency_names_are_forgiven() {
    let numbers = registry().with_leniency(Leniency::none().scalars_as_text());
    let refused = call(&numbers, "note_search", json!({"limit": "10", "tags": "a"})).await;
    assert_eq!(
        refused.text(),
        "refused\tbad-arguments\t1 fault in the arguments of note_search; nothing ran\n\
         fault\ttags\texpected array of string, received \"a\"\n\
         fields\tlimit\texact\tweight\ttags\tfilter\n\
         adjusted\tlimit\tread the text \"10\" as the number 10"
    );
}

#[tokio::test]
async fn a_destructive_tool_is_lenient_only_if_it_says_so_itself() {
    let lenient = registry().with_leniency(Leniency::all());
    let strict = registry();
    let delete = call(&lenient, "note_delete", json!({"ids": 7})).await;
    assert_eq!(
        delete,
        call(&strict, "note_delete", json!({"ids": 7})).await
    );
    assert_eq!(
        tool_tests::faults(delete.refusal().unwrap()),
        [(
            "ids".to_owned(),
            "expected array of u64, received 7".to_owned()
        )]
    );
    let purge = call(&lenient, "note_purge", json!({"ids": 7})).await;
    assert_eq!(
        purge.text(),
        "purged [7]\nadjusted\tids\tread one value as a list of one"
    );
    let definitions = lenient.definitions();
    let leniency = |name: &str| {
        definitions
            .iter()
            .find(|definition| definition.name == name)
            .unwrap()
            .leniency()
    };
    assert_eq!(leniency("note_purge"), Some(Leniency::all()));
    assert_eq!(leniency("note_delete"), None);
    assert!(
        !serde_json::to_string(&*definitions)
            .unwrap()
            .contains("lenien"),
        "leniency is a run-time setting, never advertised"
    );
}

#[tokio::test]
async fn a_value_that_cannot_be_adjusted_is_refused_with_the_original_faults() {
    let lenient = registry().with_leniency(Leniency::all());
    let strict = registry();
    for arguments in [
        json!({"limit": "ten", "tags": []}),
        json!({"limit": "2.5", "tags": []}),
        json!({"limit": 10, "tags": [], "exact": "yes"}),
        json!({"limit": 10, "tags": [], "filter": "tags: a"}),
        json!({"limit": 10, "tags": null}),
    ] {
        let refused = call(&lenient, "note_search", arguments.clone()).await;
        assert!(refused.notes.is_empty(), "{arguments}");
        assert_eq!(
            refused,
            call(&strict, "note_search", arguments.clone()).await,
            "{arguments}"
        );
    }
}

#[tokio::test]
async fn adjusted_arguments_refused_again_give_the_faults_left_with_the_adjustments() {
    let lenient = registry().with_leniency(Leniency::all());
    let result = call(
        &lenient,
        "note_search",
        json!({"limit": "ten", "tags": "a", "filter": r#"{"tag": ["b"]}"#}),
    )
    .await;
    assert_eq!(
        result.text(),
        "refused\tbad-arguments\t3 faults in the arguments of note_search; nothing ran\n\
         fault\tlimit\texpected u32, received \"ten\"\n\
         fault\tfilter.tag\tunknown field; did you mean tags?\n\
         fault\tfilter.tags\tmissing; expected array of string\n\
         fields\tlimit\texact\tweight\ttags\tfilter\n\
         adjusted\ttags\tread one value as a list of one\n\
         adjusted\tfilter\tread the JSON text as an object"
    );
    // The text form, notes and all, reads back as one refusal.
    let read = Refusal::parse(&result.text()).unwrap();
    assert_eq!(read.find_line("adjusted").unwrap().cells[0], "tags");
}

/// The log of this test binary, installed as the global subscriber before any call runs: a
/// subscriber set for one thread misses events whose callsite another thread reached first
/// (tracing caches each callsite's interest), so these tests share one, and tell their events
/// apart by tool.
fn log() -> &'static Log {
    static LOG: OnceLock<Log> = OnceLock::new();
    LOG.get_or_init(|| {
        let log = Log::default();
        tracing::subscriber::set_global_default(log.clone()).unwrap();
        log
    })
}

/// Counts notes; called by one test only, so its log is that test's.
#[tool(readonly)]
async fn note_count(limit: u32, tags: Vec<String>) -> String {
    format!("{limit} {tags:?}")
}

#[tokio::test]
async fn each_adjustment_is_logged_with_the_tool_the_path_and_what_was_done() {
    let arguments = json!({"limit": "10", "tags": "a"});
    let strict = Registry::builder().tool(NoteCount).build().unwrap();
    call(&strict, "note_count", arguments.clone()).await;
    assert!(
        log().of("note_count").is_empty(),
        "nothing adjusted, nothing logged"
    );
    let lenient = strict.with_leniency(Leniency::all());
    call(&lenient, "note_count", arguments).await;
    let events = log().of("note_count");
    assert_eq!(events.len(), 2, "{events:?}");
    for (event, (path, done)) in events.iter().zip([
        ("limit", r#"read the text "10" as the number 10"#),
        ("tags", "read one value as a list of one"),
    ]) {
        assert!(event.starts_with("INFO "), "{event}");
        assert!(event.contains(&format!("path={path} ")), "{event}");
        assert!(event.contains(&format!("adjustment={done} ")), "{event}");
    }
}

#[tokio::test]
async fn the_approver_of_a_lenient_destructive_tool_approves_the_arguments_that_run() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let approver = {
        let seen = seen.clone();
        move |request: ApprovalRequest| {
            seen.lock()
                .unwrap()
                .push(request.call.arguments.as_str().to_owned());
            async { Approval::Approve }
        }
    };
    let registry = registry().with_approver(approver, Duration::from_secs(5));
    let purge = call(&registry, "note_purge", json!({"ids": 7})).await;
    assert_eq!(purge.outcome, Ok(Output::text("purged [7]")));
    assert_eq!(*seen.lock().unwrap(), [r#"{"ids":7}"#, r#"{"ids":[7]}"#]);
}

/// A tool written by hand whose schema asks for an integer `limit`, and which refuses with
/// `bad-arguments` itself, after it has run: its own refusal, or one it passes on from a
/// registry it called. Counts its runs.
struct Relay {
    runs: Arc<AtomicUsize>,
    inner: Option<Registry>,
}

impl Tool for Relay {
    fn definition(&self) -> ToolDefinition {
        let schema = json!({
            "type": "object",
            "properties": {"limit": {"type": "integer"}},
            "additionalProperties": false
        });
        ToolDefinition::new(
            "relay",
            "Relays a call.",
            schema.as_object().unwrap().clone(),
        )
    }

    fn call<'a>(
        &'a self,
        _arguments: &'a Arguments,
        ctx: &'a Context,
    ) -> BoxFuture<'a, Result<Output, Refusal>> {
        Box::pin(async move {
            self.runs.fetch_add(1, Ordering::SeqCst);
            match &self.inner {
                None => Err(Refusal::bad_arguments("the limit is too generous")),
                Some(inner) => {
                    let call = ToolCall::new("in", "note_search", json!({"limit": "ten"}));
                    inner.call(call, ctx).await.outcome
                }
            }
        })
    }
}

#[tokio::test]
async fn a_refusal_the_handler_gives_after_running_is_never_a_reason_to_run_it_again() {
    for inner in [None, Some(registry())] {
        let runs = Arc::new(AtomicUsize::new(0));
        let relay = Relay {
            runs: runs.clone(),
            inner,
        };
        let lenient = Registry::builder()
            .tool(relay)
            .build()
            .unwrap()
            .with_leniency(Leniency::all());
        let result = call(&lenient, "relay", json!({"limit": "10"})).await;
        assert_eq!(result.refusal().unwrap().code, "bad-arguments");
        assert!(result.notes.is_empty(), "{}", result.text());
        assert_eq!(runs.load(Ordering::SeqCst), 1);
    }
}

#[tokio::test]
async fn a_tool_s_own_leniency_outranks_the_registry_s() {
    struct Strict;
    impl Tool for Strict {
        fn definition(&self) -> ToolDefinition {
            NoteSearch.definition().with_leniency(Leniency::none())
        }
        fn call<'a>(
            &'a self,
            arguments: &'a Arguments,
            ctx: &'a Context,
        ) -> BoxFuture<'a, Result<Output, Refusal>> {
            NoteSearch.call(arguments, ctx)
        }
    }
    let lenient = Registry::builder()
        .tool(Strict)
        .build()
        .unwrap()
        .with_leniency(Leniency::all());
    let result = call(&lenient, "note_search", json!({"limit": "10", "tags": []})).await;
    assert!(result.is_refused());
    assert!(result.notes.is_empty());
}

#[tokio::test]
async fn adjusted_arguments_are_held_to_the_size_limit_too() {
    let sent = json!({"ids": 7});
    let at_the_limit = registry().with_max_argument_bytes(sent.to_string().len());
    let purge = call(&at_the_limit, "note_purge", sent.clone()).await;
    assert!(purge.notes.is_empty());
    assert_eq!(
        tool_tests::faults(purge.refusal().unwrap()),
        [(
            "ids".to_owned(),
            "expected array of u64, received 7".to_owned()
        )]
    );
    let roomier = registry().with_max_argument_bytes(sent.to_string().len() + 2);
    assert!(!call(&roomier, "note_purge", sent).await.is_refused());
}

/// Counts notes by their revision.
#[tool(readonly, lenient)]
async fn note_tally(by_revision: std::collections::BTreeMap<u32, u32>) -> String {
    format!("{by_revision:?}")
}

#[tokio::test]
async fn a_map_keyed_by_numbers_has_its_values_adjusted_as_any_map() {
    let registry = Registry::builder().tool(NoteTally).build().unwrap();
    let result = call(&registry, "note_tally", json!({"by_revision": {"3": "7"}})).await;
    assert_eq!(
        result.text(),
        "{3: 7}\nadjusted\tby_revision.3\tread the text \"7\" as the number 7"
    );
}

/// Weighs grains.
#[tool(readonly, lenient)]
async fn grains_weigh(grains: u128, sacks: u32, per_sack: Vec<u64>) -> String {
    format!("{grains} {sacks} {per_sack:?}")
}

/// Sets a scale.
#[tool(readonly, lenient)]
async fn scale_set(factor: f64, exact: u128) -> String {
    format!("{factor} {exact}")
}

#[tokio::test]
async fn adjusted_arguments_keep_each_number_as_sent() {
    let registry = Registry::builder().tool(GrainsWeigh).build().unwrap();
    let call = |text: &str| {
        let call = ToolCall::new("1", "grains_weigh", Arguments::from_text(text));
        let registry = &registry;
        async move { registry.call(call, &Context::new()).await.text() }
    };
    // A `u128` past 64 bits beside a slip: written again from a tree of doubles, it was refused.
    let text = r#"{"grains": 18446744073709551621, "sacks": "3", "per_sack": []}"#;
    assert_eq!(
        call(text).await,
        "18446744073709551621 3 []\nadjusted\tsacks\tread the text \"3\" as the number 3"
    );
    // A double read from text is not taken for the same double sent after it.
    let scales = Registry::builder().tool(ScaleSet).build().unwrap();
    let text = r#"{"factor": "1e20", "exact": 100000000000000000000}"#;
    let scale = ToolCall::new("1", "scale_set", Arguments::from_text(text));
    assert_eq!(
        scales.call(scale, &Context::new()).await.text(),
        "100000000000000000000 100000000000000000000\nadjusted\tfactor\tread the text \"1e20\" as \
         the number 1e+20"
    );
    // A number moved into a list of one is told as sent.
    let text = r#"{"grains": 1, "sacks": 3, "per_sack": 18446744073709551616}"#;
    let told = call(text).await;
    assert!(
        told.contains(
            "per_sack[0]\texpected u64, received 18446744073709551616, which is out of range"
        ),
        "{told}"
    );
}
