//! The [`ToolDefinition`] a tool advertises (its name, description, schemas, hints, icons,
//! `_meta` and tags) and how the registry runs it (its timeout, whether it may take values of
//! no single type, the slips it forgives), with the [`Icon`]s and [`Annotations`] it carries.

use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::args::leniency::Leniency;
use crate::call::arguments::Arguments;
use crate::outcome::refusal::Refusal;

/// What a tool is: what it advertises (the public fields: its name, description, schemas and
/// hints, which every export writes, and its icons and `_meta`, which only MCP's has a place
/// for) and how the registry runs it (its timeout, whether it
/// may take values of no single type, the slips it forgives), which no export shows and which
/// only the methods reach.
///
/// ```
/// use std::time::Duration;
/// use tool_core::tool::ToolDefinition;
///
/// let schema = serde_json::json!({"type": "object", "properties": {}, "additionalProperties": false});
/// let mut definition = ToolDefinition::new("clock_read", "Reads the clock.", schema.as_object().unwrap().clone())
///     .with_timeout(Duration::from_secs(1));
/// definition.annotations.read_only = true;
/// assert_eq!(definition.timeout(), Some(Duration::from_secs(1)));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolDefinition {
    /// The tool's name: lower snake case, at most 64 characters, as `#[tool]` writes it. A
    /// name given by hand is held to the rules of the registry's providers (MCP's, OpenAI's,
    /// …) when the registry is made.
    pub name: String,
    /// A human-readable title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the tool does: its summary when it has one, else its full description.
    pub description: String,
    /// The JSON Schema of its arguments: an object schema with `additionalProperties: false`.
    pub input_schema: Map<String, Value>,
    /// The JSON Schema of its structured output, when it returns structured output, of
    /// whatever JSON: an object, a list, a number. MCP shows it as `outputSchema` (a server
    /// leaves out one that is not an object's for a 2025-11-25 client, which takes no other).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Map<String, Value>>,
    /// Hints about what calling it does.
    pub annotations: Annotations,
    /// Icons a client may show for it; only the MCP export has a place for them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// Its MCP `_meta` entries, keyed as MCP's `_meta` key rules say (see
    /// [`ToolDefinition::with_meta`]); only the MCP export has a place for them.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub meta: Map<String, Value>,
    /// Words that group it with other tools (`notes`, `write`), in the order written, each
    /// once: a [`Grant`](crate::Grant) may grant tools by tag, and
    /// [`Registry::search`](crate::Registry::search) and
    /// [`Registry::describe`](crate::Registry::describe) read them. The MCP export has them
    /// as `_meta.tags`; the other providers' shapes have no place for them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// The OAuth scopes a caller's access token must hold, every one of them, for the tool to
    /// be listed to it or called (`#[tool(scopes("notes:write"))]`), in the order written,
    /// each once: a [`Grant::scopes`](crate::Grant::scopes) lets through only the tools whose
    /// scopes it holds. No provider's export carries them; they decide who sees the tool.
    #[serde(skip)]
    pub scopes: Vec<String>,
    #[serde(skip)]
    timeout: Option<Duration>,
    #[serde(skip)]
    allow_any: bool,
    #[serde(skip)]
    checked_elsewhere: bool,
    #[serde(skip)]
    as_written: bool,
    #[serde(skip)]
    leniency: Option<Leniency>,
    #[serde(skip)]
    task: bool,
    #[serde(skip)]
    task_required: bool,
    #[serde(skip)]
    task_after_input: bool,
    /// Where its schema says what its code would not hold to (a rule the code declares that
    /// the schema does not carry, see `__private::Declared`; a map keyed by numbers its input
    /// type cannot read a key of), each a field and why; building a registry refuses them.
    #[serde(skip)]
    untrue: Vec<(String, String)>,
}

impl ToolDefinition {
    /// A tool of this name, description and input schema, with no title, no output schema, no
    /// hints, no timeout of its own (the registry's default applies) and typed fields only.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Map<String, Value>,
    ) -> Self {
        ToolDefinition {
            name: name.into(),
            title: None,
            description: description.into(),
            input_schema,
            output_schema: None,
            annotations: Annotations::default(),
            icons: Vec::new(),
            meta: Map::new(),
            tags: Vec::new(),
            scopes: Vec::new(),
            timeout: None,
            allow_any: false,
            checked_elsewhere: false,
            as_written: false,
            leniency: None,
            task: false,
            task_required: false,
            task_after_input: false,
            untrue: Vec::new(),
        }
    }

    pub(crate) fn with_untrue_part(mut self, path: String, problem: String) -> Self {
        self.untrue.push((path, problem));
        self
    }

    /// Where the tool's schema says what its code would not hold to (a rule the code declares
    /// that the schema leaves out, a map keyed by numbers whose keys the input type cannot
    /// read): what [`providers::check`](crate::providers::check) refuses besides the schema's
    /// own faults.
    pub(crate) fn untrue_parts(&self) -> &[(String, String)] {
        &self.untrue
    }

    /// Limits each call to `timeout`, in place of the registry's default
    /// (`#[tool(timeout = "5s")]`).
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Lets the tool have fields of no single type (`serde_json::Value`), which
    /// [`Registry::check`](crate::Registry::check) otherwise refuses (`#[tool(allow_any)]`).
    pub fn allowing_any(mut self) -> Self {
        self.allow_any = true;
        self
    }

    /// Forgives the slips `leniency` names in this tool's arguments, in place of the
    /// registry's leniency, even if the tool is `destructive` (`#[tool(lenient)]` is
    /// `with_leniency(Leniency::all())`); `Leniency::none()` keeps the tool strict in a
    /// lenient registry. See [`Registry::with_leniency`](crate::Registry::with_leniency).
    pub fn with_leniency(mut self, leniency: Leniency) -> Self {
        self.leniency = Some(leniency);
        self
    }

    /// Adds an icon a client may show for the tool (`#[tool(icon = "https://...")]`). Its
    /// `src` is an `https:` or `http:` URL or a `data:` URI of base64 image data; building a
    /// registry for MCP refuses any other (other providers have no place for icons).
    pub fn with_icon(mut self, icon: Icon) -> Self {
        self.icons.push(icon);
        self
    }

    /// Sets the `_meta` entry `key` of the tool's MCP definition
    /// (`#[tool(meta("com.example/category" = "notes"))]`). A key is an optional prefix of
    /// dot-separated labels ending in `/` (`com.example/`), then a name of letters, digits,
    /// `-`, `_` and `.` that starts and ends with a letter or digit; a prefix with
    /// `modelcontextprotocol` or `mcp` as its second label, or as any label but its last, is
    /// MCP's own. Building a registry for MCP refuses a key that breaks these rules.
    pub fn with_meta(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.meta.insert(key.into(), value.into());
        self
    }

    /// Adds tags (`#[tool(tags("notes", "write"))]`), each kept once, in the order first
    /// written.
    pub fn with_tags(mut self, tags: impl IntoIterator<Item = impl Into<String>>) -> Self {
        for tag in tags {
            let tag = tag.into();
            if !self.tags.contains(&tag) {
                self.tags.push(tag);
            }
        }
        self
    }

    /// Adds OAuth scopes a caller's token must hold to see and call the tool
    /// (`#[tool(scopes("notes:write"))]`), each kept once, in the order first written. Each is
    /// a scope token as RFC 6749 (section 3.3) defines one: printable ASCII without spaces,
    /// `"` or `\`; building a registry refuses any other.
    pub fn with_scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        for scope in scopes {
            let scope = scope.into();
            if !self.scopes.contains(&scope) {
                self.scopes.push(scope);
            }
        }
        self
    }

    /// Whether the tool has this tag.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|each| each == tag)
    }

    /// Lets a call of the tool run as a task (`#[tool(task)]`): started with
    /// [`Registry::start`](crate::Registry::start), watched and cancelled through its
    /// [`TaskHandle`](crate::TaskHandle), and, over MCP, answered with a task handle when the
    /// client takes tasks. A direct call runs as before.
    pub fn as_task(mut self) -> Self {
        self.task = true;
        self
    }

    /// Says that, over MCP, a call of the tool runs only as a task (`#[tool(task =
    /// "required")]`): MCP lists it with `taskSupport: "required"`, and a client that did not
    /// declare the tasks extension is refused with `-32021` before it runs. In process it runs
    /// as any task tool does.
    pub fn requiring_task(mut self) -> Self {
        self.task = true;
        self.task_required = true;
        self
    }

    /// Whether, over MCP, a call of the tool runs only as a task.
    pub fn requires_task(&self) -> bool {
        self.task_required
    }

    /// Says that, over MCP, a call of the tool asks for its input before it runs as a task
    /// (`#[tool(task = "after_input")]`, SEP-2663's composition with SEP-2322): from a client
    /// with the tasks extension, a call's questions come back as `input_required` rounds, and
    /// the retry that brings the answers starts the call again as a task, its questions
    /// answered from them. The tool runs from the start each time, as MCP's rounds have it, so
    /// it asks before it does anything it must not do twice. In process it is a task tool.
    pub fn as_task_after_input(mut self) -> Self {
        self.task = true;
        self.task_after_input = true;
        self
    }

    /// Whether, over MCP, a call of the tool asks for its input before it runs as a task.
    pub fn asks_before_task(&self) -> bool {
        self.task_after_input
    }

    /// Whether a call of the tool may run as a task.
    pub fn runs_as_task(&self) -> bool {
        self.task
    }

    /// Says that the tool's arguments are checked against its schema by whoever runs it (a
    /// remote server), so that the registry does not refuse the tool for a keyword it could
    /// not check itself.
    pub fn checked_elsewhere(mut self) -> Self {
        self.checked_elsewhere = true;
        self
    }

    /// Says that MCP's `tools/list` publishes the input schema exactly as written: its `$defs`
    /// and `$ref`s kept, nothing inlined or rewritten, as a hand-written JSON Schema 2020-12
    /// (read with an [`InputSchema`](crate::tool::InputSchema)) asks. The other providers
    /// still get their own dialect of it, or refuse it when the registry is made.
    pub fn as_written(mut self) -> Self {
        self.as_written = true;
        self
    }

    /// Whether MCP publishes the input schema as written ([`ToolDefinition::as_written`]).
    pub fn is_as_written(&self) -> bool {
        self.as_written
    }

    /// Whether the tool's arguments are checked by whoever runs it, not by this registry.
    pub fn is_checked_elsewhere(&self) -> bool {
        self.checked_elsewhere
    }

    /// How long one call may run, when the tool sets a limit of its own.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }

    /// The slips the tool forgives in its arguments, when it says so itself.
    pub fn leniency(&self) -> Option<Leniency> {
        self.leniency
    }

    /// Whether the tool may have fields of no single type.
    pub fn allows_any(&self) -> bool {
        self.allow_any
    }

    /// The check of output made elsewhere (a remote server's `structuredContent`) against
    /// this tool's output schema, its patterns compiled now; `None` without one.
    pub fn output_check(&self) -> Option<super::OutputCheck> {
        (self.output_schema.clone()).map(super::OutputCheck::new)
    }

    /// The arguments as a JSON object, as a remote tool forwards them, or, when they are not
    /// JSON or not an object, the very refusal this tool's own parser would give (with its
    /// `fields` line), so a forwarding tool refuses exactly as a local one does. Fields are
    /// not checked here: the tool that runs checks them. A `null` for a field whose schema
    /// takes none is taken out, as this registry's own tools read it: the field left out (a
    /// model in OpenAI's strict mode sends one for each optional field it leaves out).
    pub fn arguments_object(&self, arguments: &Arguments) -> Result<Map<String, Value>, Refusal> {
        crate::args::parse_object(arguments.as_str(), &self.input_schema, &self.name)
    }
}

/// Whether a tool's calls run as tasks ([`Registry::task_support`](crate::Registry::task_support)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskSupport {
    /// Never: each call runs while its caller waits.
    None,
    /// When the caller can follow a task (over MCP, a client that declared the tasks
    /// extension); otherwise while it waits.
    Optional,
    /// Over MCP, only as a task: a client that cannot follow one is refused.
    Required,
    /// When the caller can follow a task, once the call has the input it asks for: its
    /// questions come back as `input_required` rounds first.
    AfterInput,
}

/// An icon a client may show for a tool, as MCP's `Icon` has it.
///
/// ```
/// use tool_core::tool::{Icon, IconTheme};
///
/// let icon = Icon::new("https://example.com/note-dark.png")
///     .with_mime_type("image/png")
///     .with_sizes(["48x48", "96x96"])
///     .with_theme(IconTheme::Dark);
/// assert_eq!(icon.sizes, ["48x48", "96x96"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Icon {
    /// Where the image is: an `https:` or `http:` URL, or a `data:` URI of base64 image data.
    pub src: String,
    /// Its MIME type (`image/png`), when the server's would be missing or too generic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The sizes it comes in, each `WxH` (`48x48`) or `any` for a scalable image.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<String>,
    /// The background it is drawn for; `None` for any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theme: Option<IconTheme>,
}

impl Icon {
    /// The icon at `src`, with no MIME type, sizes or theme.
    pub fn new(src: impl Into<String>) -> Self {
        Icon {
            src: src.into(),
            mime_type: None,
            sizes: Vec::new(),
            theme: None,
        }
    }

    /// Says its MIME type.
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Says the sizes it comes in.
    pub fn with_sizes(mut self, sizes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.sizes = sizes.into_iter().map(Into::into).collect();
        self
    }

    /// Says the background it is drawn for.
    pub fn with_theme(mut self, theme: IconTheme) -> Self {
        self.theme = Some(theme);
        self
    }
}

/// The background an [`Icon`] is drawn for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum IconTheme {
    /// A light background.
    Light,
    /// A dark background.
    Dark,
}

/// Hints about a tool's effects, as MCP's tool annotations describe them.
///
/// They are the tool author's claims, not guarantees; a host may use them to decide what to
/// confirm with a user.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Annotations {
    /// The tool does not change anything.
    pub read_only: bool,
    /// The tool may destroy or overwrite data.
    pub destructive: bool,
    /// Calling it again with the same arguments has no further effect.
    pub idempotent: bool,
    /// The tool reaches outside the application (the web, other systems).
    pub open_world: bool,
}
