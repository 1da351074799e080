//! Define tools, list what they advertise, call them, and see the refusals a model would see.
//!
//! Run with `cargo run --example quickstart`.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde_json::json;
use tool_core::{Context, Refusal, Registry, ToolCall, tool};

/// The notes, kept in memory; handlers reach it through the context.
#[derive(Default)]
struct NoteStore {
    notes: Mutex<BTreeMap<u64, Note>>,
}

/// A stored note.
#[derive(Clone, serde::Serialize, schemars::JsonSchema)]
struct Note {
    id: u64,
    text: String,
    tags: Vec<String>,
    revision: u64,
}

/// What a write did.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Written {
    id: u64,
    revision: u64,
}

/// Which notes to find.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Filter {
    /// Only notes carrying every one of these tags.
    #[serde(default)]
    tags: Vec<String>,
    /// Only notes at this revision or later.
    min_revision: Option<u64>,
}

/// What `note_search` found.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Found {
    notes: Vec<Note>,
}

fn store(ctx: &Context) -> Result<&NoteStore, Refusal> {
    ctx.get::<NoteStore>()
        .ok_or_else(|| Refusal::new("internal", "the host gave no note store"))
}

/// Writes a note, creating it or replacing its text.
#[tool(name = "note_write", destructive, timeout = "5s")]
async fn note_write(
    /// Which note; a new one when absent.
    id: Option<u64>,
    /// The note's text.
    text: String,
    /// Tags to file it under.
    #[serde(default)]
    tags: Vec<String>,
    /// The revision the caller last read; the write is refused if the note has moved on.
    revision: Option<u64>,
    ctx: &Context,
) -> Result<Written, Refusal> {
    let mut notes = store(ctx)?.notes.lock().expect("note store poisoned");
    let id = id.unwrap_or_else(|| notes.keys().last().map_or(1, |last| last + 1));
    let current = notes.get(&id).map_or(0, |note| note.revision);
    if let Some(read) = revision.filter(|read| *read != current) {
        return Err(Refusal::new(
            "conflict",
            format!("note {id} is at revision {current}, not {read}; read it again"),
        )
        .line("revision", [current.to_string()]));
    }
    let note = Note {
        id,
        text,
        tags,
        revision: current + 1,
    };
    notes.insert(id, note);
    Ok(Written {
        id,
        revision: current + 1,
    })
}

/// Finds notes by tag and revision.
#[tool(name = "note_search", readonly, summary = "Finds notes by tag.")]
async fn note_search(
    /// What to match.
    filter: Filter,
    /// At most this many notes.
    limit: Option<u8>,
    ctx: &Context,
) -> Result<Found, Refusal> {
    let notes = store(ctx)?.notes.lock().expect("note store poisoned");
    let found = notes
        .values()
        .filter(|note| filter.tags.iter().all(|tag| note.tags.contains(tag)))
        .filter(|note| filter.min_revision.is_none_or(|min| note.revision >= min))
        .take(limit.map_or(usize::MAX, usize::from))
        .cloned()
        .collect();
    Ok(Found { notes: found })
}

/// Says how many notes there are.
#[tool(readonly)]
async fn note_count(ctx: &Context) -> Result<String, Refusal> {
    let count = store(ctx)?.notes.lock().expect("note store poisoned").len();
    Ok(format!("{count} notes"))
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let registry = Registry::builder()
        .tool(NoteWrite)
        .tool(NoteSearch)
        .tool(NoteCount)
        .build()
        .expect("tool names are unique");
    let ctx = Context::new().with_extension(NoteStore::default());

    println!("== what the registry advertises ==");
    println!(
        "{}",
        serde_json::to_string_pretty(&registry.definitions()).expect("definitions serialize")
    );

    let calls = [
        (
            "a good call",
            ToolCall::new(
                "call-1",
                "note_write",
                json!({"text": "buy milk", "tags": ["shopping"]}),
            ),
        ),
        (
            "arguments as a string, the way OpenAI sends them",
            ToolCall::from_json(
                r#"{"id":"call-2","name":"note_search","arguments":"{\"filter\":{\"tags\":[\"shopping\"]}}"}"#,
            )
            .expect("a readable call"),
        ),
        (
            "a wrong type deep in a nested field, and a second fault",
            ToolCall::new(
                "call-3",
                "note_search",
                json!({"filter": {"tags": ["shopping", 7], "min_revision": "latest"}, "limit": 1000}),
            ),
        ),
        (
            "a field the tool does not have",
            ToolCall::new(
                "call-4",
                "note_write",
                json!({"text": "call mum", "colour": "red"}),
            ),
        ),
        (
            "the handler's own refusal",
            ToolCall::new(
                "call-5",
                "note_write",
                json!({"id": 1, "text": "buy oat milk", "revision": 0}),
            ),
        ),
        (
            "a tool that does not exist",
            ToolCall::new("call-6", "note_delete", json!({"id": 1})),
        ),
        (
            "no arguments at all",
            ToolCall::new("call-7", "note_count", serde_json::Value::Null),
        ),
    ];

    for (what, call) in calls {
        println!(
            "\n== {what}: {} ==",
            serde_json::to_string(&call).expect("calls serialize")
        );
        let result = registry.call(call, &ctx).await;
        println!("{}", result.text());
    }
}
