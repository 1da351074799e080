//! The note tools the examples share: write, search, count, a slow reindex that reports
//! progress and can be cancelled, a publish that asks its user how, a slow export that runs as
//! a task, a summary the client's model writes and the client's roots listed as sources. The
//! store reaches handlers through the context.

use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};

use tool_core::call::{LogLevel, SamplingRequest};
use tool_core::{
    Answer, Context, DryRun, ExpectedRevision, NonEmptyString, Refusal, Registry, code, tool,
};

/// The notes, kept in memory; handlers reach it through the context. Each change is one
/// insert or removal, so a handler that panicked while holding a lock left the notes whole,
/// and the next one reads them as they are.
#[derive(Default)]
pub struct NoteStore {
    notes: Mutex<BTreeMap<u64, Note>>,
    /// How many reindex calls are running now, so a host can see a cancelled one stop.
    reindexing: std::sync::atomic::AtomicUsize,
    /// The published notes' titles, by note.
    published: Mutex<BTreeMap<u64, String>>,
    /// How many exports are running now, likewise.
    exporting: std::sync::atomic::AtomicUsize,
}

/// A stored note.
#[derive(Clone, serde::Serialize, schemars::JsonSchema)]
pub struct Note {
    id: u64,
    text: String,
    tags: Vec<String>,
    revision: u64,
}

/// What a write did, or, for a dry run, would do.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Written {
    id: u64,
    revision: u64,
    /// True when nothing was written (a dry run): `id` and `revision` are what it would make.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    dry_run: bool,
}

/// Which notes to find.
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Filter {
    /// Only notes carrying every one of these tags.
    #[serde(default)]
    tags: Vec<String>,
    /// Only notes at this revision or later.
    min_revision: Option<u64>,
}

/// What `note_search` found.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Found {
    notes: Vec<Note>,
}

fn store(ctx: &Context) -> Result<&NoteStore, Refusal> {
    ctx.get::<NoteStore>()
        .ok_or_else(|| Refusal::new("internal", "the host gave no note store"))
}

/// Writes a note, creating it or replacing its text.
#[tool(
    name = "note_write",
    destructive,
    timeout = "5s",
    scopes("notes:write")
)]
pub async fn note_write(
    /// Which note; a new one when absent.
    id: Option<u64>,
    /// The note's text.
    text: NonEmptyString,
    /// Tags to file it under.
    #[serde(default)]
    tags: Vec<String>,
    // The conventions' types describe themselves to the model; a `///` here would replace that.
    revision: ExpectedRevision,
    dry_run: DryRun,
    ctx: &Context,
) -> Result<Written, Refusal> {
    let mut notes = store(ctx)?
        .notes
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    let id = match id {
        Some(id) => id,
        None => notes
            .keys()
            .last()
            .map_or(Some(1), |last| last.checked_add(1))
            .ok_or_else(|| {
                Refusal::new(
                    code::BAD_ARGUMENTS,
                    "there is no id after the highest note's; give the id of the note to write",
                )
            })?,
    };
    let current = notes.get(&id).map_or(0, |note| note.revision);
    revision.check(current)?;
    let written = Written {
        id,
        revision: current + 1,
        dry_run: dry_run.is_set(),
    };
    if dry_run.is_set() {
        return Ok(written);
    }
    let note = Note {
        id,
        text: text.into_string(),
        tags,
        revision: current + 1,
    };
    notes.insert(id, note);
    Ok(written)
}

/// Finds notes by tag and revision.
#[tool(
    name = "note_search",
    readonly,
    summary = "Finds notes by tag.",
    icon(
        src = "https://example.com/icons/note-search.svg",
        mime_type = "image/svg+xml",
        sizes = "any"
    ),
    scopes("notes:read")
)]
pub async fn note_search(
    /// What to match.
    filter: Filter,
    /// At most this many notes.
    limit: Option<u8>,
    ctx: &Context,
) -> Result<Found, Refusal> {
    let notes = store(ctx)?
        .notes
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
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
#[tool(readonly, scopes("notes:read"))]
pub async fn note_count(ctx: &Context) -> Result<String, Refusal> {
    let store = store(ctx)?;
    let count = store
        .notes
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .len();
    let reindexing = store.reindexing.load(std::sync::atomic::Ordering::SeqCst);
    match store.exporting.load(std::sync::atomic::Ordering::SeqCst) {
        0 => Ok(format!("{count} notes, {reindexing} reindexing")),
        exporting => Ok(format!(
            "{count} notes, {reindexing} reindexing, {exporting} exporting"
        )),
    }
}

/// What a reindex did.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Reindexed {
    pub notes: usize,
}

/// Rebuilds the search index, one note at a time, reporting progress and logging as it starts
/// and ends; slow on purpose (each
/// note takes `pace_ms`), so it can be watched and cancelled.
#[tool(
    name = "note_reindex",
    idempotent,
    timeout = "60s",
    scopes("notes:write")
)]
pub async fn note_reindex(
    /// How long each note takes, in milliseconds.
    #[serde(default = "default_pace")]
    #[schemars(range(max = 600_000))]
    pace_ms: u64,
    /// How many passes over the notes.
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 100))]
    passes: u32,
    ctx: &Context,
) -> Result<Reindexed, Refusal> {
    let store = store(ctx)?;
    let count = store
        .notes
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .len()
        .max(1);
    let _running = Running::start(&store.reindexing);
    let steps = count * passes as usize;
    // Over MCP the client hears these as `notifications/message`, at the level it asks for.
    ctx.log(
        LogLevel::Info,
        format!("reindexing {count} notes in {passes} passes"),
    );
    for step in 1..=steps {
        tokio::time::sleep(std::time::Duration::from_millis(pace_ms)).await;
        ctx.progress(step as f64, Some(steps as f64), Some("reindexing"));
    }
    ctx.log(
        LogLevel::Notice,
        serde_json::json!({"reindexed": count, "passes": passes}),
    );
    Ok(Reindexed { notes: count })
}

/// Every note, as an export writes them.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Exported {
    pub notes: Vec<Note>,
}

/// Exports every note, one at a time, reporting progress; slow on purpose (each note takes
/// `pace_ms`), so it runs as a task a client polls, and can be cancelled. With `confirm`, it
/// first asks its user whether to go on, and exports nothing unless told yes.
#[tool(
    name = "note_export",
    readonly,
    task,
    timeout = "10m",
    scopes("notes:read")
)]
pub async fn note_export(
    /// How long each note takes, in milliseconds.
    #[serde(default = "default_pace")]
    #[schemars(range(max = 600_000))]
    pace_ms: u64,
    /// Whether to ask the user before exporting.
    #[serde(default)]
    confirm: bool,
    ctx: &Context,
) -> Result<Exported, Refusal> {
    let store = store(ctx)?;
    if confirm && ctx.ask::<bool>("Export every note?").await? != Answer::Given(true) {
        return Ok(Exported { notes: Vec::new() });
    }
    let notes: Vec<Note> = store
        .notes
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .values()
        .cloned()
        .collect();
    let _running = Running::start(&store.exporting);
    let steps = notes.len().max(1);
    for step in 1..=steps {
        tokio::time::sleep(std::time::Duration::from_millis(pace_ms)).await;
        ctx.progress(step as f64, Some(steps as f64), Some("exporting"));
    }
    Ok(Exported { notes })
}

/// Counts a running reindex or export until it ends, by finishing or by being dropped when
/// cancelled.
struct Running<'a>(&'a std::sync::atomic::AtomicUsize);

impl<'a> Running<'a> {
    fn start(counter: &'a std::sync::atomic::AtomicUsize) -> Self {
        counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Running(counter)
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Who sees a published note.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    /// The team only.
    Team,
    /// Everyone with the link.
    Everyone,
}

/// What the user is asked before a note is published.
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Publishing {
    /// The title the note is published under.
    #[schemars(length(min = 1, max = 80))]
    pub title: String,
    /// Who sees it.
    pub audience: Audience,
}

/// Publishes a note, asking the user for its title and audience first.
#[tool(name = "note_publish", idempotent, scopes("notes:write"))]
pub async fn note_publish(
    /// Which note.
    id: u64,
    ctx: &Context,
) -> Result<String, Refusal> {
    let store = store(ctx)?;
    if !store
        .notes
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .contains_key(&id)
    {
        return Err(Refusal::new(
            "not-found",
            format!("there is no note {id}; write it first"),
        ));
    }
    let asked = ctx
        .ask::<Publishing>(format!("How should note {id} be published?"))
        .await?;
    match asked {
        Answer::Given(Publishing { title, audience }) => {
            let audience = match audience {
                Audience::Team => "the team",
                Audience::Everyone => "everyone",
            };
            let shown = format!("published note {id} as {title:?} to {audience}");
            store
                .published
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(id, title);
            Ok(shown)
        }
        // Declining is an answer: the note stays as it is, and the model is told so.
        Answer::Declined => Ok(format!("note {id} stays unpublished: the user declined")),
        Answer::Cancelled => Err(Refusal::new(
            "cancelled",
            "the user dismissed the question; nothing was published",
        )),
    }
}

/// Summarizes a note in one line, written by the client's model (MCP's sampling).
#[tool(name = "note_summarize", readonly, scopes("notes:read"))]
pub async fn note_summarize(
    /// Which note.
    id: u64,
    ctx: &Context,
) -> Result<String, Refusal> {
    let text = store(ctx)?
        .notes
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&id)
        .map(|note| note.text.clone())
        .ok_or_else(|| {
            Refusal::new(
                "not-found",
                format!("there is no note {id}; write it first"),
            )
        })?;
    let request = SamplingRequest::new(format!("Summarize this note in one line:\n{text}"))
        .with_system_prompt("You summarize notes in one short line.")
        .with_max_tokens(60);
    let sampled = ctx.sample(request).await?;
    Ok(format!("note {id}: {}", sampled.text))
}

/// The places the client works in (its roots), where notes could be imported from.
#[tool(name = "note_sources", readonly, scopes("notes:read"))]
pub async fn note_sources(ctx: &Context) -> Result<String, Refusal> {
    let roots = ctx.roots().await?;
    if roots.is_empty() {
        return Ok("the client works in no folders".to_owned());
    }
    let shown: Vec<String> = roots
        .iter()
        .map(|root| match &root.name {
            Some(name) => format!("{name} ({})", root.uri),
            None => root.uri.clone(),
        })
        .collect();
    Ok(format!("notes could come from: {}", shown.join(", ")))
}

fn default_pace() -> u64 {
    20
}

fn one() -> u32 {
    1
}

/// The note tools, in one registry.
pub fn registry() -> Registry {
    Registry::builder()
        .tool(NoteWrite)
        .tool(NoteSearch)
        .tool(NoteCount)
        .tool(NoteReindex)
        .tool(NotePublish)
        .tool(NoteExport)
        .tool(NoteSummarize)
        .tool(NoteSources)
        .build()
        .expect("the note tools have unique names and portable schemas")
}

/// What the agent examples' user (`openai_agent`, `genai_agent`) may use: writing, searching
/// and counting notes. Reindexing, among others, is left out.
#[allow(
    dead_code,
    reason = "every example includes this module; only the agent examples use this"
)]
pub fn granted() -> Registry {
    registry().scoped(
        tool_core::Grant::new()
            .tool("note_write")
            .tool("note_search")
            .tool("note_count"),
    )
}

/// `tool<TAB>name<TAB>first line` for each answer, given as the tool's name and the answer's
/// text, as the agent examples print them (`?` for a name not known).
#[allow(
    dead_code,
    reason = "every example includes this module; only the agent examples use this"
)]
pub fn answer_lines<'a>(
    answers: impl IntoIterator<Item = (Option<&'a str>, &'a str)>,
) -> Vec<String> {
    answers
        .into_iter()
        .map(|(name, text)| {
            let first = text.lines().next().unwrap_or_default();
            format!("tool\t{}\t{first}", name.unwrap_or("?"))
        })
        .collect()
}
