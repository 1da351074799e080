//! Typed tools from plain `async fn`s: functions that a language model, an MCP client or
//! ordinary code discovers by description and calls by name with JSON arguments.
//!
//! ```
//! use tool_core::{Context, Refusal, Registry, ToolCall, tool};
//!
//! /// Writes a note.
//! #[tool(name = "note_write", destructive)]
//! async fn note_write(
//!     /// The note's text.
//!     text: String,
//!     /// The revision the caller last read.
//!     revision: Option<u64>,
//! ) -> Result<String, Refusal> {
//!     match revision {
//!         Some(7) | None => Ok(format!("saved {} bytes", text.len())),
//!         Some(_) => Err(Refusal::new("conflict", "the note has moved on; read it again")),
//!     }
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let registry = Registry::builder().tool(NoteWrite).build().unwrap();
//! let ctx = Context::default();
//!
//! let good = ToolCall::new("1", "note_write", serde_json::json!({"text": "hi"}));
//! assert_eq!(registry.call(good, &ctx).await.text(), "saved 2 bytes");
//!
//! let bad = ToolCall::new("2", "note_write", serde_json::json!({"text": 3, "colour": "red"}));
//! assert_eq!(
//!     registry.call(bad, &ctx).await.text(),
//!     "refused\tbad-arguments\t2 faults in the arguments of note_write; nothing ran\n\
//!      fault\tcolour\tunknown field\n\
//!      fault\ttext\texpected string, received 3\n\
//!      fields\ttext\trevision"
//! );
//! # });
//! ```
//!
//! # Defining tools
//!
//! `#[tool(...)]` goes on an `async fn` (a plain `fn` works too, and runs to its end once
//! called: no timeout stops it). It needs a description, its doc comment or `description`: a
//! model chooses tools by it. The fn stays an ordinary fn
//! that tests can call; the macro adds a unit struct named after it in PascalCase
//! (`note_write` → `NoteWrite`) that implements [`Tool`](tool::Tool) and is what a [`Registry`] takes.
//!
//! Options, all optional:
//!
//! | option | meaning |
//! | --- | --- |
//! | `name = "note_write"` | the advertised name (default: the fn's name); lower snake case, 1 to 64 characters |
//! | `title = "Write a note"` | a human-readable title |
//! | `description = "..."` | the description (default: the fn's doc comment) |
//! | `summary = "..."` | a short description advertised instead of the full one |
//! | `readonly`, `destructive`, `idempotent`, `open_world` | hints, as in MCP's tool annotations; `readonly` and `destructive` exclude each other |
//! | `timeout = "5s"` | how long one call may run: `"250ms"`, `"5s"`, `"2m"`, `"1h"` (a bare number is an error: its unit is unsaid); an `async fn`'s alone |
//! | `allow_any` | lets the tool have fields of no single type (`serde_json::Value`), which building a registry otherwise refuses |
//! | `lenient` | forgives the slips models make most in the tool's arguments, whatever the registry says, `destructive` or not (see [`Leniency`]) |
//! | `icon = "https://example.com/note.svg"` | an icon MCP clients may show; any number of them; an `https:`/`http:` URL or a `data:image/...;base64,...` URI; `icon(src = "...", mime_type = "image/png", sizes = ["48x48"], theme = "dark")` says more (see [`Icon`](tool::Icon)); other providers have no place for icons |
//! | `meta("com.example/category" = "notes", ...)` | entries of the tool's MCP `_meta`; any number; a key is an optional reverse-DNS prefix ending in `/` and a name, as MCP's key rules say (a prefix with `mcp` or `modelcontextprotocol` as its second label, or as any label but its last, is MCP's, and refused); a value is a string, number or boolean literal or a `[...]` of them |
//! | `tags("notes", "write")` | words that group the tool with others: in its definition (`tags`, and `_meta.tags` in the MCP export), granted by [`Grant::tag`], read by [`Registry::search`] and [`Registry::describe`]; any number; each one word of letters, digits, `-`, `_`, `.` and `/` |
//! | `task` | lets a call run as a task: started with [`Registry::start`], watched, cancelled and its result read later through a [`TaskHandle`]; over MCP, run as a task of the tasks extension for clients that take them (`task = "optional"` says the same) |
//! | `task = "required"` | as `task`, and over MCP the tool runs only as a task: a client that does not take tasks is refused, told which extension to declare |
//! | `task = "after_input"` | as `task`, and over MCP the tool's questions come first, as `input_required` rounds, and the retry that answers them starts the task |
//! | `scopes("notes:read")` | OAuth scopes a caller must hold, every one, for the tool to be listed to it or called: a [`Grant::scopes`] lets through only the tools whose scopes it holds (tool-mcp's `oauth` feature makes one from each bearer token); any number |
//!
//! The fn's parameters, in order, are the input's fields; a `///` comment on a parameter is
//! its description; an `Option<T>` parameter is not required; `#[serde(...)]` and
//! `#[schemars(...)]` attributes on a parameter apply to its field (`#[serde(default)]`, say).
//! A `&Context` parameter is injected by the host, not advertised. Alternatively, one parameter
//! marked `#[input]` takes the whole input as a struct of yours that derives `Deserialize` and
//! `JsonSchema`.
//!
//! # Outputs
//!
//! A handler returns structured output (a type deriving `Serialize + JsonSchema`: its output
//! schema is advertised, and debug builds check every output against it), text (`String`,
//! `&str`), nothing (`()`), [`Content`](outcome::Content) blocks (text, image and audio bytes with a MIME type,
//! resource links), or a `Result` of one of these whose error is a [`Refusal`] or any
//! `std::error::Error`, a `Box<dyn std::error::Error + Send + Sync>` or an `anyhow::Error`
//! (`anyhow::Result<T>`, with the `anyhow` feature). Such an error becomes `failed`; its
//! message, followed by its sources' (`a: b: c`), is logged, and shown only by a registry set
//! up with [`Registry::with_error_messages`], since it was not written for a model: see
//! [`Refusal`](Refusal#what-a-model-is-shown).
//!
//! # Providers
//!
//! [`providers`] writes definitions and results in the shapes of MCP, OpenAI, Anthropic and
//! Gemini and reads their calls; [`Registry::export`] and [`Registry::check`] use it, and
//! [`RegistryBuilder::build`](registry::RegistryBuilder::build) refuses what a provider the registry is for would refuse.
//!
//! # Arguments and refusals
//!
//! What a tool's schema tells a model is what the registry enforces, before the handler runs:
//! types, every validation keyword (bounds, lengths, patterns, formats, unique items), the tags
//! of tagged enums, and objects closed at every depth (but maps; a map keyed by numbers, such
//! as `HashMap<u32, V>`, takes the keys serde_json reads for its key type, and advertises its
//! integer type's range where it can tell it (up to 32 bits); one that serde reads from its own
//! buffer, inside a `#[serde(flatten)]`ed field or an internally tagged or untagged enum, is
//! refused when the registry is made). A field set to `null` counts as absent, and a whole
//! number written with a fraction (`3.0`) is an integer;
//! every fault is reported at once with its path, and a near miss with a suggestion. See
//! [`Refusal`] for the text form a model sees; here, a call with a wrong tag, a misspelt field,
//! a number out of its bounds and a field a nested struct does not have (`<TAB>` stands for a
//! tab):
//!
//! ```text
//! refused<TAB>bad-arguments<TAB>5 faults in the arguments of message_post; nothing ran
//! fault<TAB>bdy<TAB>unknown field; did you mean body?
//! fault<TAB>to[0].kind<TAB>expected one of "person", "channel", received "robot"
//! fault<TAB>body<TAB>missing; expected string
//! fault<TAB>retries<TAB>expected 1 to 5, received 9
//! fault<TAB>page.colour<TAB>unknown field
//! fields<TAB>to<TAB>body<TAB>retries<TAB>page
//! ```
//!
//! A rule the registry could not enforce (a keyword it does not know, a format it does not
//! check, a pattern the `regex` crate cannot read, which has no look-around or
//! backreferences) makes building the registry fail, naming the tool, the field and the rule.
//!
//! A registry can be told to forgive the slips models make most (a number or a boolean sent
//! as text, one value for a list, an object as JSON text) instead of refusing them:
//! [`Registry::with_leniency`] for every tool that is not `destructive`, `#[tool(lenient)]` for
//! one tool. Off by default. Each adjustment is told to the model after the result
//! (`adjusted<TAB>limit<TAB>read the text "10" as the number 10`) and logged; see [`Leniency`].
//!
//! # Conventions
//!
//! Three parameter types carry the conventions of the @adecore/agents tool layer, each with
//! the description a model needs in its schema: [`DryRun`] (check everything, change nothing),
//! [`ExpectedRevision`] (refuse with `conflict` and the current revision when the caller's is
//! stale; see [`ExpectedRevision::check`]) and [`NonEmptyString`] (text that may not be `""`).
//! A `DryRun` or `ExpectedRevision` parameter is optional, as an `Option` is.
//!
//! # Limits
//!
//! A registry sits between an untrusted caller and the application's functions, so every call
//! is bounded, by defaults a host can change:
//!
//! | limit | default | set with |
//! | --- | --- | --- |
//! | size of a call's arguments, checked after the grant and before anything reads them | [`DEFAULT_MAX_ARGUMENT_BYTES`](registry::DEFAULT_MAX_ARGUMENT_BYTES) (1 MiB) | [`Registry::with_max_argument_bytes`] |
//! | nesting of arrays and objects in the arguments | [`MAX_ARGUMENT_DEPTH`](args::MAX_ARGUMENT_DEPTH) (128, serde_json's) | fixed |
//! | how long a call of a tool without a `timeout` of its own runs | [`DEFAULT_TIMEOUT`](registry::DEFAULT_TIMEOUT) (60 s) | [`Registry::with_default_timeout`] |
//! | calls of one batch running at once | [`DEFAULT_BATCH_LIMIT`](registry::DEFAULT_BATCH_LIMIT) (64) | [`Registry::with_batch_limit`] |
//! | how long an approver may take | given with the approver | [`Registry::with_approver`] |
//! | tasks of one caller running at once | [`DEFAULT_TASK_LIMIT`](registry::DEFAULT_TASK_LIMIT) (16) | [`Registry::with_task_limit`] |
//!
//! # Features
//!
//! The default builds what defining tools, making a registry and calling them need; each
//! capability beyond that is a feature, with the crates it takes: `search` (BM25 search and
//! deferred loading), `rate-limits`, `call-records` (the observer), `artifacts`, `formats`
//! (the standard formats a crate checks: dates and times, URIs, UUIDs), `patterns` (`pattern`,
//! with the `regex` crate), `anyhow` (a handler returning `anyhow::Result<T>`); `full` turns on
//! all of them. A schema's rule whose feature is off is a compile error where the macro
//! reads it (a parameter's `#[schemars(regex(..))]`), and is refused when the registry is made
//! where it does not (a hand-written schema, a remote server's), naming the feature either way;
//! a setting whose feature is off is a compile error naming it.
//!
//! Asked for by name, not by `full`: the [`adapters`] to agent frameworks (`rig`,
//! `async-openai`, `genai`), each with the framework's crate, and `testing` (the `testing` module's
//! helpers for a crate's own tests, with `insta`), for `[dev-dependencies]`.
//!
//! Nothing in this crate recurses over a call's arguments more deeply than the depth limit
//! allows, and the search for every fault in bad arguments gives up (refusing with the first
//! fault) after a number of steps proportional to their size. `SECURITY.md` at the root of the
//! repository lists each guarantee with the test that proves it.

#![deny(missing_docs)]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// Lets the code `#[tool]` generates, which names `::tool_core`, compile inside this crate too.
extern crate self as tool_core;

pub mod adapters;
pub mod args;
pub mod call;
pub mod features;
pub mod outcome;
pub mod policy;
pub mod providers;
pub mod registry;
pub mod run;
pub mod schema;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod testing;
pub mod tool;

#[doc(hidden)]
pub mod __private;

#[cfg(test)]
mod test_values;

// The front door: what the README and the examples name. Everything else is reached by the
// path of the module that holds it (`tool_core::policy::artifact::Part`).
pub use args::Leniency;
pub use call::{Asker, Context, ToolCall};
pub use outcome::{Refusal, ToolResult, code};
pub use policy::approval::{Approval, ApprovalRequest, ApproveByAsking};
#[cfg(feature = "artifacts")]
pub use policy::artifact::{ArtifactStore, Artifacts, MemoryStore};
pub use policy::grant::Grant;
pub use policy::observe::CallRecord;
pub use policy::rate::RateLimit;
pub use policy::trace::TraceParent;
pub use providers::Provider;
pub use registry::{Collision, Registry, Session, TOOL_SEARCH};
pub use run::{Answer, TaskHandle};
pub use tool::{DryRun, ExpectedRevision, NonEmptyString};

/// Turns an `async fn` into a tool; see the [crate documentation](crate#defining-tools).
pub use tool_core_macros::tool;

/// Makes the `#[tool]` methods of an impl block a [`Toolkit`](tool::Toolkit).
///
/// `#[toolkit(name = "note")]` (the name defaults to the type's name in snake case) goes on an
/// inherent, non-generic impl block. Each method marked `#[tool(...)]` becomes a tool of the
/// toolkit, with the same options and rules as a free `#[tool]` fn; methods taking `&self`
/// share the toolkit value (calls run concurrently, so keep what changes behind a lock);
/// methods without `self` need no state. Two tools of one name in one toolkit are a compile
/// error at the second name. See [`Toolkit`](tool::Toolkit) for an example.
///
/// | option | what it does |
/// | --- | --- |
/// | `name = "note"` | the toolkit's name, which grants and records name |
/// | `scopes("notes:read")` | OAuth scopes every tool of the toolkit needs, beside each tool's own (see [`Grant::scopes`]); any number of times |
/// | `require(title, hints)` | makes a compile error of each tool without a `title`, or without `readonly` or `destructive` said, for a toolkit whose tools must all say them |
///
/// The methods' `#[tool]` attributes must resolve too: import both (`use tool_core::{tool,
/// toolkit};`), or write `#[tool_core::tool(...)]`. Without the import the compiler answers
/// "cannot find attribute `tool` in this scope".
pub use tool_core_macros::toolkit;

/// Composes toolkits and tools into a [`Registry`], checking when the crate is built that no
/// two of their tools share a name.
///
/// ```
/// use tool_core::{registry, tool, toolkit};
///
/// struct Notes;
///
/// #[toolkit(name = "note")]
/// impl Notes {
///     /// Reads a note.
///     #[tool(readonly)]
///     async fn note_read(&self, id: u64) -> String {
///         format!("note {id}")
///     }
/// }
///
/// /// Searches the web.
/// #[tool(readonly, open_world)]
/// async fn web_search(query: String) -> String {
///     query
/// }
///
/// let registry = registry![Notes, WebSearch];
/// assert_eq!(registry.names(), ["note_read", "web_search"]);
/// ```
///
/// A name used twice is a compile error, "two tools in this registry![...] are named `...`", at
/// the entry that repeats it: under `cargo check` (what an editor shows) for entries whose type
/// the macro reads from their tokens (a unit struct such as `WebSearch`, a struct literal
/// `Notes { store }`, `Notes::new(..)` or `Notes::default()`, each taken to be of that type),
/// and under `cargo build` for any other entry (a variable, another fn's result), whose check
/// is a constant of generic code, which only code generation evaluates.
///
/// # Panics
///
/// When it runs, the registry is checked as [`RegistryBuilder::build`](crate::registry::RegistryBuilder::build)
/// checks one, and a tool it refuses (a rule in its schema the registry could not enforce, a
/// field of no single type, a name a provider refuses) is a panic naming every tool, field and
/// rule at fault: a registry that would tell a model rules nobody enforces is never made. What
/// a tool's code says is fixed when it is built, so the first run (or a unit test that makes
/// the registry) shows it. [`Registry::builder`] returns the same as an error value, for tools
/// known only at run time.
pub use tool_core_macros::registry;
