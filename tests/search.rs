//! Finding tools among many: `Registry::search` (BM25 over names, descriptions, fields and
//! tags), deferred loading (a `tool_search` tool, and tools listed once a session's search finds
//! them), and tags (in definitions, exports, grants and `describe`).

use serde_json::json;
use tool_core::tool::ToolDefinition;
use tool_core::{Context, Grant, Provider, Registry, Session, TOOL_SEARCH, ToolCall, code, tool};
use tool_tests::Raw;

/// Writes a note to the notebook.
#[tool(tags("notes", "write"))]
async fn note_write(
    /// The note's text.
    text: String,
) -> String {
    text
}

/// Reads a note from the notebook.
#[tool(readonly, tags("notes", "read"))]
async fn note_read(id: u64) -> String {
    id.to_string()
}

/// Tells the weather forecast.
#[tool(readonly)]
async fn weather(
    /// The city to forecast.
    city: String,
) -> String {
    format!("sunny in {city}")
}

/// Converts an amount between currencies.
#[tool(readonly, tags("money"))]
async fn currency_convert(amount: f64, from: String, to: String) -> String {
    format!("{amount} {from} in {to}")
}

fn registry() -> Registry {
    Registry::builder()
        .tool(NoteWrite)
        .tool(NoteRead)
        .tool(Weather)
        .tool(CurrencyConvert)
        .build()
        .unwrap()
}

fn names(found: &[tool_core::registry::SearchHit]) -> Vec<&str> {
    found
        .iter()
        .map(|each| each.definition.name.as_str())
        .collect()
}

fn call(name: &str, arguments: serde_json::Value) -> ToolCall {
    ToolCall::new("1", name, arguments)
}

// 1. Search.

#[test]
fn search_ranks_by_name_description_and_fields() {
    let registry = registry();
    let found = registry.search("write a note", 10);
    assert_eq!(names(&found)[0], "note_write", "{found:?}");
    assert!(!names(&found).contains(&"weather"));
    // A field's description is searched: "city" is only in weather's field.
    assert_eq!(names(&registry.search("which city", 10)), ["weather"]);
    // Stemmed: "converting" finds "Converts".
    assert_eq!(
        names(&registry.search("converting money", 10))[0],
        "currency_convert"
    );
    // Best first, scores falling.
    let found = registry.search("notebook note", 10);
    assert!(found.windows(2).all(|pair| pair[0].score >= pair[1].score));
    assert_eq!(registry.search("note", 1).len(), 1);
    assert!(registry.search("zebra", 10).is_empty());
    assert!(registry.search("", 10).is_empty());
}

#[test]
fn a_scoped_view_finds_granted_tools_only() {
    let view = registry().scoped(Grant::new().tool("note_read"));
    assert_eq!(
        names(&view.search("note notebook write read", 10)),
        ["note_read"]
    );
    assert!(view.search("weather forecast", 10).is_empty());
}

#[test]
fn the_index_follows_changes() {
    let registry = registry();
    assert!(registry.search("calendar", 10).is_empty());
    /// Adds an event to the calendar.
    #[tool]
    async fn calendar_add(title: String) -> String {
        title
    }
    registry.add(CalendarAdd).unwrap();
    assert_eq!(
        names(&registry.search("calendar event", 10)),
        ["calendar_add"]
    );
    assert!(registry.remove("calendar_add"));
    assert!(registry.search("calendar", 10).is_empty());
}

// 2. Deferred loading.

#[tokio::test]
async fn deferred_loading_lists_search_then_what_was_found() {
    let registry = registry().with_deferred_loading(["weather"]);
    let session = Session::new();
    let listed = |session: &Session| -> Vec<String> {
        registry
            .definitions_in(session)
            .iter()
            .map(|d| d.name.clone())
            .collect()
    };
    assert_eq!(listed(&session), [TOOL_SEARCH, "weather"]);
    // The registry's own list is unchanged.
    assert_eq!(registry.definitions().len(), 4);

    // Not found yet: refused, with the way to find it.
    let refused = registry
        .call_in(
            &session,
            call("note_write", json!({"text": "hi"})),
            &Context::default(),
        )
        .await;
    assert_eq!(refused.refusal().unwrap().code, code::UNKNOWN_TOOL);
    assert!(refused.text().contains(TOOL_SEARCH), "{}", refused.text());

    let found = registry
        .call_in(
            &session,
            call(TOOL_SEARCH, json!({"query": "write a note", "limit": 1})),
            &Context::default(),
        )
        .await;
    assert!(!found.is_refused(), "{}", found.text());
    assert!(found.text().contains("note_write"), "{}", found.text());
    assert_eq!(session.loaded(), ["note_write"]);
    assert_eq!(listed(&session), [TOOL_SEARCH, "note_write", "weather"]);

    let written = registry
        .call_in(
            &session,
            call("note_write", json!({"text": "hi"})),
            &Context::default(),
        )
        .await;
    assert_eq!(written.text(), "hi");

    // Another session has found nothing.
    let other = Session::new();
    assert_eq!(listed(&other), [TOOL_SEARCH, "weather"]);
    // Every provider takes the search tool's shape.
    for provider in Provider::ALL {
        let exported = registry.export_in(&other, provider).unwrap();
        assert_eq!(exported.len(), 2, "{provider:?}");
    }
}

#[tokio::test]
async fn deferred_loading_keeps_to_grants() {
    let view = registry()
        .with_deferred_loading(Vec::<String>::new())
        .scoped(Grant::new().tool("note_read"));
    let session = Session::new();
    let found = view
        .call_in(
            &session,
            call(TOOL_SEARCH, json!({"query": "note write read"})),
            &Context::default(),
        )
        .await;
    assert!(!found.text().contains("note_write"), "{}", found.text());
    assert_eq!(session.loaded(), ["note_read"]);
    // Loading an ungranted tool by hand does not list it or let a call through.
    session.load("note_write");
    assert!(
        view.definitions_in(&session)
            .iter()
            .all(|d| d.name != "note_write")
    );
    let refused = view
        .call_in(
            &session,
            call("note_write", json!({"text": "hi"})),
            &Context::default(),
        )
        .await;
    assert_eq!(refused.refusal().unwrap().code, code::NOT_PERMITTED);
    // Nor does naming a tool never found.
    let refused = view
        .call_in(
            &Session::new(),
            call("weather", json!({"city": "Oslo"})),
            &Context::default(),
        )
        .await;
    assert_eq!(refused.refusal().unwrap().code, code::UNKNOWN_TOOL);
    assert!(
        !refused.text().contains("weather` is not granted"),
        "{}",
        refused.text()
    );
}

#[tokio::test]
async fn tool_search_refuses_bad_arguments_with_what_to_write() {
    let registry = registry().with_deferred_loading(Vec::<String>::new());
    let session = Session::new();
    for arguments in [
        json!({}),
        json!({"query": 3}),
        json!({"query": "note", "limit": 0}),
        json!({"query": "note", "limit": 21}),
        json!({"query": ""}),
        json!({"query": "note", "count": 3}),
    ] {
        let refused = registry
            .call_in(&session, call(TOOL_SEARCH, arguments), &Context::default())
            .await;
        assert_eq!(refused.refusal().unwrap().code, code::BAD_ARGUMENTS);
        assert!(refused.text().contains("\"query\""), "{}", refused.text());
    }
}

// 3. Tags.

#[test]
fn tags_are_in_definitions_and_the_mcp_export() {
    let registry = registry();
    let definitions = registry.definitions();
    assert_eq!(definitions[0].tags, ["notes", "write"]);
    assert!(definitions[3].has_tag("money"));
    assert!(definitions[2].tags.is_empty());
    let mcp = registry.export(Provider::Mcp).unwrap();
    assert_eq!(mcp[0]["_meta"]["tags"], json!(["notes", "write"]));
    assert!(mcp[2].get("_meta").is_none());
    let openai = registry.export(Provider::OpenAi).unwrap();
    assert!(!openai[0].to_string().contains("\"write\""));
    let by_hand = ToolDefinition::new("x", "X.", Default::default()).with_tags(["a", "b", "a"]);
    assert_eq!(by_hand.tags, ["a", "b"]);
}

#[test]
fn a_hand_made_definition_with_a_tag_twice_is_refused_when_the_registry_is_built() {
    let schema = json!({"type": "object", "properties": {}, "additionalProperties": false});
    // `with_tags` keeps a tag once, but the field is public: a definition made by hand, or
    // changed after, can still hold one twice, which would reach `_meta.tags` and `describe`.
    let mut twice =
        ToolDefinition::new("remote_ping", "Pings.", schema.as_object().unwrap().clone())
            .with_tags(["notes", "Notes"]);
    twice.tags.push("notes".into());
    let expected = "`remote_ping`: (tags): the tag \"notes\" is given twice; keep one";
    let refused = Registry::builder().tool(Raw(twice.clone())).build();
    assert_eq!(refused.err().unwrap().to_string(), expected);
    let registry = registry();
    assert_eq!(registry.add(Raw(twice)).unwrap_err().to_string(), expected);
    // A grant compares tags as written, so a tag differing only in case is another tag.
    let cased = ToolDefinition::new("remote_ping", "Pings.", schema.as_object().unwrap().clone())
        .with_tags(["notes", "Notes"]);
    registry.add(Raw(cased)).unwrap();
    assert_eq!(
        registry.scoped(Grant::new().tag("Notes")).names(),
        ["remote_ping"]
    );
}

#[tokio::test]
async fn grants_by_tag() {
    let view = registry().scoped(Grant::new().tag("notes"));
    assert_eq!(view.names(), ["note_write", "note_read"]);
    let refused = view
        .call(
            call("weather", json!({"city": "Oslo"})),
            &Context::default(),
        )
        .await;
    assert_eq!(refused.refusal().unwrap().code, code::NOT_PERMITTED);
    let read = view.scoped(Grant::new().tag("read"));
    assert_eq!(read.names(), ["note_read"]);
}

#[test]
fn describe_and_search_read_tags() {
    let registry = registry();
    let described = registry.describe();
    assert!(
        described.contains("note_write [notes, write]: Writes a note"),
        "{described}"
    );
    assert!(described.contains("weather: Tells"), "{described}");
    // "money" is only in currency_convert's tags.
    assert_eq!(names(&registry.search("money", 10)), ["currency_convert"]);
}

#[tokio::test]
async fn a_search_is_a_call_like_any_other_recorded_budgeted_and_bounded() {
    let records = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let kept = records.clone();
    let budget = tool_core::RateLimit::per_caller(
        std::num::NonZeroU32::new(2).unwrap(),
        std::time::Duration::from_secs(3600),
    );
    let registry = registry()
        .with_deferred_loading(["weather"])
        .with_observer(move |record: tool_core::CallRecord| kept.lock().unwrap().push(record))
        .with_rate_limit(budget)
        .with_max_argument_bytes(64);
    let session = Session::new();
    let ctx = Context::new().with_caller("alice");

    let found = registry
        .call_in(
            &session,
            call(TOOL_SEARCH, json!({"query": "write a note"})),
            &ctx,
        )
        .await;
    assert!(!found.is_refused(), "{}", found.text());
    // Past the bound on arguments: refused before any search, as any call would be.
    let long = "a note ".repeat(20);
    let refused = registry
        .call_in(&session, call(TOOL_SEARCH, json!({"query": long})), &ctx)
        .await;
    let refusal = refused.refusal().expect("refused");
    assert_eq!(refusal.code, code::BAD_ARGUMENTS, "{refusal}");
    assert!(refusal.message.contains("more than the 64"), "{refusal}");
    // The budget of two searches is used: the next is refused until it refills.
    let limited = registry
        .call_in(
            &session,
            call(TOOL_SEARCH, json!({"query": "weather"})),
            &ctx,
        )
        .await;
    assert_eq!(limited.refusal().expect("refused").code, code::RATE_LIMITED);
    // A call of a tool not listed is refused, and recorded, but takes none of the budget.
    let unlisted = registry
        .call_in(&session, call("currency_convert", json!({})), &ctx)
        .await;
    assert_eq!(
        unlisted.refusal().expect("refused").code,
        code::UNKNOWN_TOOL
    );

    tool_tests::until(|| records.lock().unwrap().len() >= 4).await;
    let seen = records.lock().unwrap().clone();
    let outcomes: Vec<(&str, &str)> = seen
        .iter()
        .map(|record| (record.tool.as_str(), record.outcome.as_str()))
        .collect();
    assert_eq!(
        outcomes,
        [
            (TOOL_SEARCH, "ok"),
            (TOOL_SEARCH, "bad-arguments"),
            (TOOL_SEARCH, "rate-limited"),
            ("currency_convert", "unknown-tool"),
        ]
    );
    assert!(
        seen.iter()
            .all(|record| record.caller.as_deref() == Some("alice"))
    );
    assert_eq!(seen[0].arguments_sha256.len(), 64);
}

#[tokio::test]
async fn an_unbound_session_calls_granted_tools_unlisted_and_tells_no_ungranted_tool_from_none() {
    let registry = registry()
        .with_deferred_loading(["weather"])
        .scoped(Grant::new().tool("note_write").tool("weather"));
    let session = Session::unbound();
    let ctx = Context::default();
    let written = registry
        .call_in(&session, call("note_write", json!({"text": "hi"})), &ctx)
        .await;
    assert!(!written.is_refused(), "{}", written.text());
    let ungranted = registry
        .call_in(&session, call("note_read", json!({"id": 1})), &ctx)
        .await;
    let missing = registry
        .call_in(&session, call("note_burn", json!({})), &ctx)
        .await;
    let ungranted = ungranted.refusal().expect("refused");
    let missing = missing.refusal().expect("refused");
    assert_eq!(ungranted.code, code::UNKNOWN_TOOL, "{ungranted}");
    assert_eq!(
        ungranted.to_string().replace("note_read", "NAME"),
        missing.to_string().replace("note_burn", "NAME")
    );
}

// 4. Scopes.

/// Deletes a note.
#[tool(destructive, scopes("notes:write", "notes:admin"))]
async fn note_delete(id: u64) -> String {
    id.to_string()
}

#[tokio::test]
async fn a_grant_of_scopes_lets_through_the_tools_whose_scopes_it_holds() {
    let registry = Registry::builder()
        .tool(NoteWrite)
        .tool(NoteDelete)
        .build()
        .unwrap();
    assert_eq!(
        registry.definitions()[1].scopes,
        ["notes:write", "notes:admin"]
    );
    // Scopes decide who sees a tool; no provider's shape carries them.
    assert!(
        !registry.export(Provider::Mcp).unwrap()[1]
            .to_string()
            .contains("notes:admin")
    );
    let writer = registry.scoped(Grant::scopes(["notes:write"]));
    assert_eq!(writer.names(), ["note_write"]);
    let refused = writer
        .call(call("note_delete", json!({"id": 1})), &Context::default())
        .await;
    assert_eq!(refused.refusal().unwrap().code, code::NOT_PERMITTED);
    let definitions = registry.definitions();
    let missing = Grant::scopes(["notes:write"]).missing_scopes(&definitions[1]);
    assert_eq!(missing, ["notes:admin"]);
    let admin = registry.scoped(Grant::scopes(["notes:write", "notes:admin", "other"]));
    assert_eq!(admin.names(), ["note_write", "note_delete"]);
    // With a host's grant, a caller gets what both let through.
    let both = registry
        .scoped(Grant::names(["note_delete"]))
        .scoped(Grant::scopes(["notes:admin", "notes:write"]));
    assert_eq!(both.names(), ["note_delete"]);
}

#[test]
fn a_hand_made_scope_of_bad_form_or_given_twice_is_refused_when_the_registry_is_built() {
    let schema = json!({"type": "object", "properties": {}, "additionalProperties": false});
    let mut bad = ToolDefinition::new("remote_ping", "Pings.", schema.as_object().unwrap().clone())
        .with_scopes(["notes read"]);
    bad.scopes.push("notes read".into());
    let refused = Registry::builder().tool(Raw(bad)).build();
    let message = refused.err().unwrap().to_string();
    assert!(
        message.contains("(scopes)[0]: a scope is printable ASCII without spaces"),
        "{message}"
    );
    assert!(
        message.contains("(scopes)[1]: a scope is printable ASCII"),
        "{message}"
    );
    let twice = ToolDefinition::new("remote_ping", "Pings.", schema.as_object().unwrap().clone())
        .with_scopes(["a", "b"]);
    let mut twice = twice;
    twice.scopes.push("a".into());
    let refused = Registry::builder().tool(Raw(twice)).build();
    assert_eq!(
        refused.err().unwrap().to_string(),
        "`remote_ping`: (scopes)[2]: the scope \"a\" is given twice; keep one"
    );
}

/// A notebook whose every tool needs `notes:access`.
struct Locked;

#[tool_core::toolkit(name = "locked", scopes("notes:access"))]
impl Locked {
    /// Opens the notebook.
    #[tool(readonly)]
    async fn locked_open(&self) -> String {
        "open".to_owned()
    }

    /// Burns the notebook.
    #[tool(destructive, scopes("notes:burn"))]
    async fn locked_burn(&self) -> String {
        "burnt".to_owned()
    }
}

#[test]
fn a_toolkit_s_scopes_come_before_each_tool_s_own() {
    let registry = Registry::builder().toolkit(Locked).build().unwrap();
    let definitions = registry.definitions();
    assert_eq!(definitions[0].scopes, ["notes:access"]);
    assert_eq!(definitions[1].scopes, ["notes:access", "notes:burn"]);
    let opener = registry.scoped(Grant::scopes(["notes:access"]));
    assert_eq!(opener.names(), ["locked_open"]);
    assert!(
        registry
            .scoped(Grant::scopes(["notes:burn"]))
            .names()
            .is_empty()
    );
}
