//! The [`Registry`]: the tools an application offers, advertised and called by name.
//!
//! A registry keeps its tools in insertion order, reads each tool's definition once when the
//! tool is added, and answers every call with exactly one [`ToolResult`]: never a panic, never
//! an `Err`, never a hang. On the way to a tool a call passes, in this order: the lookup
//! (`unknown-tool`), the grant of a scoped view (`not-permitted`), the size of its arguments
//! (`bad-arguments`), the approver for destructive tools (`declined`), the context's
//! cancellation (`cancelled`) and deadline (`timed-out`), and only then the tool, which parses
//! its arguments (`bad-arguments`) and runs, ended by cancellation or its deadline, with panics
//! caught (`internal`) and the messages of errors it returns kept for the log (`failed`).
//!
//! A registry can change while it serves: tools are added, replaced, removed; readers see
//! either the whole change or none of it, and never wait on a writer for longer than it takes
//! to swap one pointer. Clones and scoped views share the tools; subscribers hear of changes.
//!
//! It speaks no provider's wire format; exports and transports build on it.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Deref;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};
use std::time::{Duration, Instant};

use tokio::sync::broadcast;

use crate::approval::{Approval, ApprovalRequest, Approver};
use crate::call::{ToolCall, ToolResult};
use crate::context::Context;
use crate::execute::{self, Limits};
use crate::grant::Grant;
use crate::output::Output;
use crate::providers::{self, ExportError, Provider};
use crate::refusal::{Refusal, code};
use crate::tool::{Tool, ToolDefinition};
use crate::toolkit::Toolkit;

/// The tools an application offers.
///
/// ```
/// use tool_core::{tool, Context, Registry, ToolCall};
///
/// /// Adds two numbers.
/// #[tool(readonly)]
/// async fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let registry = Registry::builder().tool(Add).build().unwrap();
/// assert_eq!(registry.definitions()[0].name, "add");
///
/// let result = registry
///     .call(ToolCall::new("1", "add", serde_json::json!({"a": 2, "b": 3})), &Context::default())
///     .await;
/// assert_eq!(result.text(), "5");
/// # });
/// ```
#[derive(Clone)]
pub struct Registry {
    shared: Arc<Shared>,
    config: Arc<Config>,
    scope: Option<Arc<Scope>>,
}

/// What clones and scoped views of one registry share.
struct Shared {
    catalog: RwLock<Arc<Catalog>>,
    changes: broadcast::Sender<Change>,
}

/// The tools of a registry at one moment. Never changed once made: a change makes a new one.
#[derive(Default)]
struct Catalog {
    entries: Vec<Entry>,
    definitions: Arc<[ToolDefinition]>,
    index: Index,
    /// Every tool in each provider's shape (in the order of [`Provider::ALL`]), made when
    /// first asked for.
    exports: [OnceLock<Result<Exported, ExportError>>; Provider::ALL.len()],
}

/// Tool names to positions in a catalog.
type Index = HashMap<String, usize, BuildHasherDefault<NameHasher>>;

/// FNV-1a, the hash of the index: a handful of instructions for a short name, where std's
/// SipHash costs more than the rest of the lookup. SipHash resists flooding by keys chosen to
/// collide; the keys here are the names of the tools the application added, not the callers'.
struct NameHasher(u64);

impl Default for NameHasher {
    fn default() -> Self {
        NameHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[derive(Clone)]
struct Entry {
    tool: Arc<dyn Tool>,
    toolkit: Arc<str>,
}

#[derive(Clone)]
struct Config {
    providers: Vec<Provider>,
    default_timeout: Option<Duration>,
    show_panics: bool,
    show_errors: bool,
    approver: Option<Arc<dyn Approver>>,
    approval_timeout: Option<Duration>,
    batch_limit: usize,
    max_argument_bytes: usize,
}

/// The grants a view is scoped to (a tool must be permitted by each), and the definitions
/// they let through, kept for the catalog they were made from.
struct Scope {
    grants: Vec<Grant>,
    definitions: Mutex<Option<ScopedDefinitions>>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            providers: Provider::ALL.to_vec(),
            default_timeout: Some(DEFAULT_TIMEOUT),
            show_panics: false,
            show_errors: false,
            approver: None,
            approval_timeout: None,
            batch_limit: DEFAULT_BATCH_LIMIT,
            max_argument_bytes: DEFAULT_MAX_ARGUMENT_BYTES,
        }
    }
}

/// A scoped view's definitions, and the catalog they were filtered from.
type ScopedDefinitions = (Arc<Catalog>, Arc<[ToolDefinition]>);

/// How long an approver may take when no timeout is given.
const DEFAULT_APPROVAL_TIMEOUT: Duration = Duration::from_secs(60);

/// How long a call of a tool that sets no timeout of its own may run, unless the registry is
/// told otherwise: a minute, what MCP clients commonly wait for a tool call before giving up,
/// so a handler that never finishes cannot hold its call (and a batch waiting on it) forever.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// How many calls of one [`Registry::call_all`] batch run at once, unless the registry is told
/// otherwise. A model turn asks for a handful of calls at once; a batch of thousands comes from
/// a runaway or hostile client, and should not get thousands of handlers (each holding its
/// connections, files and memory) running together.
pub const DEFAULT_BATCH_LIMIT: usize = 64;

/// The largest arguments, in bytes of JSON text, a registry takes unless told otherwise: 1 MiB.
/// More than a model writes in one turn (its output limit is tens of thousands of tokens, a
/// few hundred KiB), and little enough that parsing it (into a value several times its size,
/// on the slow path) costs milliseconds and a few MiB.
pub const DEFAULT_MAX_ARGUMENT_BYTES: usize = 1 << 20;

/// Collects tools for a [`Registry`]; see [`Registry::builder`].
#[derive(Default)]
pub struct RegistryBuilder {
    entries: Vec<Entry>,
    definitions: Vec<ToolDefinition>,
    providers: Option<Vec<Provider>>,
}

/// Why tools could not be put in a registry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// Two tools have the same name.
    #[error("two tools are named `{name}`; tool names must be unique within a registry")]
    DuplicateName {
        /// The name used twice.
        name: String,
    },
    /// Tools that a provider the registry is for would refuse, or that have fields of no
    /// single type.
    #[error("{}", errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Unexportable {
        /// Each tool and field at fault.
        errors: Vec<ExportError>,
    },
}

/// What [`Registry::merge`] does when both registries have a tool of one name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collision {
    /// Merge nothing and return an error.
    Error,
    /// The other registry's tool replaces this one's, in this one's position.
    Replace,
    /// This registry's tool stays.
    Keep,
}

/// A change to a registry's tools, as [`Registry::subscribe`] reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Change {
    /// These tools were added.
    Added(Vec<String>),
    /// These tools were replaced by new ones of the same names.
    Replaced(Vec<String>),
    /// These tools were removed.
    Removed(Vec<String>),
    /// Every tool was removed.
    Cleared,
}

impl RegistryBuilder {
    /// Adds a tool; for `#[tool] async fn note_write`, pass `NoteWrite`. A tool added on its
    /// own is a toolkit of its own, named like it.
    pub fn tool(mut self, tool: impl Tool) -> Self {
        let (entry, definition) = Entry::single(Arc::new(tool));
        self.entries.push(entry);
        self.definitions.push(definition);
        self
    }

    /// Adds a tool that is already shared, in the toolkit of this name.
    pub fn shared_tool(mut self, tool: Arc<dyn Tool>, toolkit: &str) -> Self {
        self.definitions.push(tool.definition());
        self.entries.push(Entry {
            tool,
            toolkit: toolkit.into(),
        });
        self
    }

    /// Adds every tool of a toolkit.
    pub fn toolkit<T: Toolkit>(mut self, toolkit: T) -> Self {
        for (entry, definition) in Entry::of_toolkit(toolkit) {
            self.entries.push(entry);
            self.definitions.push(definition);
        }
        self
    }

    /// Sets the providers the registry is for (all of them unless set): [`build`] refuses
    /// tools they would refuse.
    ///
    /// [`build`]: RegistryBuilder::build
    pub fn providers(mut self, providers: impl IntoIterator<Item = Provider>) -> Self {
        self.providers = Some(providers.into_iter().collect());
        self
    }

    /// Builds the registry; an error if two tools share a name, if a tool has a field of no
    /// single type without `#[tool(allow_any)]`, or if a provider the registry is for would
    /// refuse a tool (see [`Registry::check`]).
    pub fn build(self) -> Result<Registry, RegistryError> {
        let providers = self.providers.unwrap_or_else(|| Provider::ALL.to_vec());
        refuse_unexportable(&self.definitions, &providers)?;
        let catalog = Catalog::with_definitions(self.entries, self.definitions)?;
        let mut registry = Registry::from_catalog(catalog);
        Arc::make_mut(&mut registry.config).providers = providers;
        Ok(registry)
    }
}

impl Entry {
    /// A tool on its own, in a toolkit named like it, with its definition.
    fn single(tool: Arc<dyn Tool>) -> (Entry, ToolDefinition) {
        let definition = tool.definition();
        let toolkit = definition.name.as_str().into();
        (Entry { tool, toolkit }, definition)
    }

    fn of_toolkit<T: Toolkit>(toolkit: T) -> impl Iterator<Item = (Entry, ToolDefinition)> {
        let name: Arc<str> = T::NAME.into();
        toolkit.into_tools().into_iter().map(move |tool| {
            let definition = tool.definition();
            let entry = Entry {
                tool,
                toolkit: name.clone(),
            };
            (entry, definition)
        })
    }
}

impl Catalog {
    fn with_definitions(
        entries: Vec<Entry>,
        definitions: Vec<ToolDefinition>,
    ) -> Result<Catalog, RegistryError> {
        let mut index = Index::with_capacity_and_hasher(entries.len(), Default::default());
        for (position, definition) in definitions.iter().enumerate() {
            if index.insert(definition.name.clone(), position).is_some() {
                return Err(RegistryError::DuplicateName {
                    name: definition.name.clone(),
                });
            }
        }
        Ok(Catalog {
            entries,
            definitions: definitions.into(),
            index,
            exports: Default::default(),
        })
    }

    fn parts(&self) -> (Vec<Entry>, Vec<ToolDefinition>) {
        (self.entries.clone(), self.definitions.to_vec())
    }
}

fn refuse_unexportable(
    definitions: &[ToolDefinition],
    providers: &[Provider],
) -> Result<(), RegistryError> {
    let errors = providers::check(definitions, providers);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(RegistryError::Unexportable { errors })
    }
}

/// The definitions of a registry's tools (of a scoped view: of its granted tools), in
/// insertion order; derefs to a slice.
#[derive(Clone)]
pub struct Definitions(Arc<[ToolDefinition]>);

impl Deref for Definitions {
    type Target = [ToolDefinition];

    fn deref(&self) -> &[ToolDefinition] {
        &self.0
    }
}

impl serde::Serialize for Definitions {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// A registry's tools (of a scoped view: its granted tools) in one provider's shape, in
/// insertion order, as [`Registry::export`] gives them; derefs to a slice of JSON values.
#[derive(Clone, PartialEq)]
pub struct Exported(Arc<[serde_json::Value]>);

impl Deref for Exported {
    type Target = [serde_json::Value];

    fn deref(&self) -> &[serde_json::Value] {
        &self.0
    }
}

impl serde::Serialize for Exported {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl fmt::Debug for Exported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

fn export_all(definitions: &[ToolDefinition], provider: Provider) -> Result<Exported, ExportError> {
    definitions
        .iter()
        .map(|definition| providers::export(definition, provider))
        .collect::<Result<_, _>>()
        .map(Exported)
}

impl fmt::Debug for Definitions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Registry {
    /// Starts an empty registry.
    pub fn builder() -> RegistryBuilder {
        RegistryBuilder::default()
    }

    fn from_catalog(catalog: Catalog) -> Registry {
        let (changes, _) = broadcast::channel(64);
        Registry {
            shared: Arc::new(Shared {
                catalog: RwLock::new(Arc::new(catalog)),
                changes,
            }),
            config: Arc::default(),
            scope: None,
        }
    }

    #[doc(hidden)]
    /// What `registry![...]` expands to, once the tool names are known to be unique.
    pub fn __from_toolkits(entries: Vec<(&'static str, Vec<Arc<dyn Tool>>)>) -> Registry {
        let entries: Vec<Entry> = entries
            .into_iter()
            .flat_map(|(toolkit, tools)| {
                let toolkit: Arc<str> = toolkit.into();
                tools.into_iter().map(move |tool| Entry {
                    tool,
                    toolkit: toolkit.clone(),
                })
            })
            .collect();
        let definitions: Vec<ToolDefinition> = entries
            .iter()
            .map(|entry| entry.tool.definition())
            .collect();
        match Catalog::with_definitions(entries.clone(), definitions.clone()) {
            Ok(catalog) => Registry::from_catalog(catalog),
            Err(error) => {
                // Only a hand-written `Toolkit` whose TOOL_NAMES differ from its tools gets
                // here; keep the first tool of each name rather than fail.
                tracing::error!(%error, "a Toolkit's TOOL_NAMES do not match its tools");
                let mut seen = std::collections::HashSet::new();
                let (entries, definitions) = entries
                    .into_iter()
                    .zip(definitions)
                    .filter(|(_, definition)| seen.insert(definition.name.clone()))
                    .unzip();
                let catalog = Catalog::with_definitions(entries, definitions)
                    .unwrap_or_else(|_| Catalog::default());
                Registry::from_catalog(catalog)
            }
        }
    }

    fn catalog(&self) -> Arc<Catalog> {
        self.shared
            .catalog
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn permits(&self, catalog: &Catalog, position: usize) -> bool {
        match &self.scope {
            None => true,
            Some(scope) => scope.grants.iter().all(|grant| {
                grant.permits(
                    &catalog.definitions[position].name,
                    &catalog.entries[position].toolkit,
                )
            }),
        }
    }

    /// Every tool's definition (of a scoped view: every granted tool's), in insertion order.
    /// Computed when tools are added; reading it costs a reference count.
    pub fn definitions(&self) -> Definitions {
        let catalog = self.catalog();
        let Some(scope) = &self.scope else {
            return Definitions(catalog.definitions.clone());
        };
        let mut cached = scope
            .definitions
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some((seen, definitions)) = &*cached
            && Arc::ptr_eq(seen, &catalog)
        {
            return Definitions(definitions.clone());
        }
        let definitions: Arc<[ToolDefinition]> = (0..catalog.entries.len())
            .filter(|&position| self.permits(&catalog, position))
            .map(|position| catalog.definitions[position].clone())
            .collect();
        *cached = Some((catalog, definitions.clone()));
        Definitions(definitions)
    }

    /// The names of the tools (of a scoped view: of the granted tools), in insertion order.
    pub fn names(&self) -> Vec<String> {
        self.definitions()
            .iter()
            .map(|definition| definition.name.clone())
            .collect()
    }

    /// A view of this registry that lists only the tools `grant` names (by tool or by
    /// toolkit) and refuses every other with `not-permitted`, before anything else happens.
    /// The view shares the tools, so it follows changes; scoping a view narrows it further.
    pub fn scoped(&self, grant: Grant) -> Registry {
        let mut grants = self
            .scope
            .as_ref()
            .map_or_else(Vec::new, |outer| outer.grants.clone());
        grants.push(grant);
        Registry {
            shared: self.shared.clone(),
            config: self.config.clone(),
            scope: Some(Arc::new(Scope {
                grants,
                definitions: Mutex::new(None),
            })),
        }
    }

    fn configure(mut self, change: impl FnOnce(&mut Config)) -> Registry {
        change(Arc::make_mut(&mut self.config));
        self
    }

    /// Checks every tool against what the registry's providers accept and refuses fields of no
    /// single type, as [`RegistryBuilder::build`] does; for registries made with
    /// `registry![...]`, which checks only names, this makes a one-line unit test:
    ///
    /// ```
    /// # use tool_core::{registry, tool};
    /// # /// Says hi.
    /// # #[tool] async fn hi() -> &'static str { "hi" }
    /// assert_eq!(registry![Hi].check(), Ok(()));
    /// ```
    pub fn check(&self) -> Result<(), Vec<ExportError>> {
        let errors = providers::check(&self.definitions(), &self.config.providers);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// The tools (of a scoped view: the granted ones) in `provider`'s tool shape, in order.
    /// Made once for the tools the registry holds (again after they change), so reading it
    /// again costs a reference count; a scoped view's is made on every call.
    pub fn export(&self, provider: Provider) -> Result<Exported, ExportError> {
        if self.scope.is_some() {
            return export_all(&self.definitions(), provider);
        }
        let catalog = self.catalog();
        let slot = Provider::ALL.iter().position(|&each| each == provider);
        match slot.map(|slot| &catalog.exports[slot]) {
            Some(cached) => cached
                .get_or_init(|| export_all(&catalog.definitions, provider))
                .clone(),
            None => export_all(&catalog.definitions, provider),
        }
    }

    /// Sets the providers this registry is for, which [`Registry::check`] and the methods that
    /// add tools check against.
    pub fn with_providers(self, providers: impl IntoIterator<Item = Provider>) -> Registry {
        let providers = providers.into_iter().collect();
        self.configure(|config| config.providers = providers)
    }

    /// Sets the timeout of calls to tools that set none of their own ([`DEFAULT_TIMEOUT`], a
    /// minute, unless set); `Duration::MAX` for none. A tool's own `timeout` outranks it.
    pub fn with_default_timeout(self, timeout: Duration) -> Registry {
        self.configure(|config| config.default_timeout = Some(timeout))
    }

    /// Refuses, with `bad-arguments` and before anything else reads them, calls whose
    /// arguments are more than `max` bytes of JSON text ([`DEFAULT_MAX_ARGUMENT_BYTES`], 1 MiB,
    /// unless set). The size is checked after the grant and before the approver is asked.
    pub fn with_max_argument_bytes(self, max: usize) -> Registry {
        self.configure(|config| config.max_argument_bytes = max)
    }

    /// Shows the text of a tool's panic in its `internal` refusal. Off by default: the text
    /// goes to the log only (a `tracing` error event, seen if the host installs a
    /// subscriber), since it may hold what a model should not see. The process's panic hook
    /// still runs too; by default it prints the panic to stderr.
    pub fn with_panic_messages(self, show: bool) -> Registry {
        self.configure(|config| config.show_panics = show)
    }

    /// Shows the message of a handler's `std::error::Error` in its `failed` refusal. Off by
    /// default: the message goes to the log only (a `tracing` warning) and the refusal says
    /// `the tool failed; the details were logged`, since an error's message is written for
    /// developers and may hold paths, queries or secrets. Refusals a handler builds itself
    /// ([`Refusal::new`], [`Refusal::failed`]) are model-facing and always shown; see
    /// [What a model is shown](Refusal#what-a-model-is-shown).
    pub fn with_error_messages(self, show: bool) -> Registry {
        self.configure(|config| config.show_errors = show)
    }

    /// Asks `approver` before every call of a tool marked `destructive`; no answer within
    /// `timeout` is a decline.
    pub fn with_approver(self, approver: impl Approver, timeout: Duration) -> Registry {
        self.configure(|config| {
            config.approver = Some(Arc::new(approver));
            config.approval_timeout = Some(timeout);
        })
    }

    /// Runs at most `limit` calls of one [`Registry::call_all`] or [`Registry::call_each`]
    /// batch at once ([`DEFAULT_BATCH_LIMIT`], 64, unless set); `usize::MAX` for no limit.
    pub fn with_batch_limit(self, limit: usize) -> Registry {
        let limit = limit.clamp(1, tokio::sync::Semaphore::MAX_PERMITS);
        self.configure(|config| config.batch_limit = limit)
    }

    /// Runs one call and answers it. Never panics and never fails: every problem is a
    /// [`Refusal`] in the result's outcome. Timeouts need a tokio runtime with its timer
    /// enabled to wake a waiting call; without one, a deadline is checked whenever the call
    /// wakes.
    pub async fn call(&self, call: ToolCall, ctx: &Context) -> ToolResult {
        let outcome = self.outcome(&call, ctx).await;
        ToolResult {
            id: call.id,
            name: call.name,
            outcome,
        }
    }

    async fn outcome(&self, call: &ToolCall, ctx: &Context) -> Result<Output, Refusal> {
        let catalog = self.catalog();
        let Some(&position) = catalog.index.get(&call.name) else {
            return Err(self.unknown_tool(&call.name));
        };
        if !self.permits(&catalog, position) {
            return Err(self.not_permitted(&call.name));
        }
        let entry = &catalog.entries[position];
        let definition = &catalog.definitions[position];
        let size = call.arguments.as_str().len();
        if size > self.config.max_argument_bytes {
            return Err(self.too_large(definition, size));
        }
        if let Some(approver) = &self.config.approver
            && definition.annotations.destructive
            && !ctx.is_cancelled()
        {
            // Boxed: asking an approver is rare, and its future (a timer and a wait for
            // cancellation) would otherwise make every call's future larger, all of it copied
            // when the call is first polled.
            Box::pin(self.approve(approver.as_ref(), call, ctx)).await?;
        }
        // The tool's time starts once it may run: waiting for approval is not its time.
        let timeout = definition.timeout.or(self.config.default_timeout);
        let now = Instant::now();
        let limits = Limits {
            deadline: execute::earliest(ctx, timeout, now),
            now,
            show_panics: self.config.show_panics,
            show_errors: self.config.show_errors,
        };
        execute::run(
            entry.tool.as_ref(),
            &call.name,
            &call.arguments,
            ctx,
            limits,
        )
        .await
    }

    async fn approve(
        &self,
        approver: &dyn Approver,
        call: &ToolCall,
        ctx: &Context,
    ) -> Result<(), Refusal> {
        let request = ApprovalRequest {
            call: call.clone(),
            caller: ctx.caller().map(str::to_owned),
        };
        let timeout = self
            .config
            .approval_timeout
            .unwrap_or(DEFAULT_APPROVAL_TIMEOUT);
        let asked = approver.approve(request);
        let answer = tokio::select! {
            answer = execute::within(timeout, asked) => answer,
            () = ctx.cancellation().cancelled() => return Err(execute::cancelled()),
        };
        match answer {
            Some(Approval::Approve) => Ok(()),
            Some(Approval::Decline(reason)) => Err(Refusal::new(
                code::DECLINED,
                format!("the call was declined: {reason}"),
            )),
            None => Err(Refusal::new(
                code::DECLINED,
                format!("the call was declined: no approval came within {timeout:?}"),
            )),
        }
    }

    fn unknown_tool(&self, name: &str) -> Refusal {
        Refusal::new(
            code::UNKNOWN_TOOL,
            format!(
                "there is no tool named `{}`; call one of the tools listed",
                shortened(name)
            ),
        )
        .line("tools", self.names())
    }

    fn not_permitted(&self, name: &str) -> Refusal {
        Refusal::new(
            code::NOT_PERMITTED,
            format!(
                "`{}` is not granted to this caller; call one of the tools listed",
                shortened(name)
            ),
        )
        .line("tools", self.names())
    }

    fn too_large(&self, definition: &ToolDefinition, size: usize) -> Refusal {
        let fields = definition
            .input_schema
            .get("properties")
            .and_then(serde_json::Value::as_object)
            .map(|properties| properties.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default();
        Refusal::new(
            code::BAD_ARGUMENTS,
            format!(
                "the arguments of {} are {size} bytes, more than the {} this registry takes; \
                 nothing ran: send less (the host can raise the limit with \
                 Registry::with_max_argument_bytes)",
                definition.name, self.config.max_argument_bytes
            ),
        )
        .line("fields", fields)
    }

    /// Runs a batch of calls concurrently, each with a child of `ctx`, and answers in input
    /// order: one result per call, each isolated from the others (duplicate ids stay distinct
    /// calls). See [`Registry::call_each`].
    pub async fn call_all(&self, calls: Vec<ToolCall>, ctx: &Context) -> Vec<ToolResult> {
        self.call_each(calls.into_iter().map(|call| (call, ctx.child(None))))
            .await
    }

    /// Runs a batch of calls, each with its own context, concurrently (at most the batch limit
    /// at once), and answers in input order. Inside a tokio runtime each call is a task of its
    /// own, so calls run in parallel on a multi-threaded runtime; dropping the returned future
    /// aborts them all. Outside one, the calls run one after another.
    pub async fn call_each(
        &self,
        calls: impl IntoIterator<Item = (ToolCall, Context)>,
    ) -> Vec<ToolResult> {
        let calls: Vec<(ToolCall, Context)> = calls.into_iter().collect();
        if tokio::runtime::Handle::try_current().is_err() {
            let mut results = Vec::with_capacity(calls.len());
            for (call, ctx) in calls {
                results.push(self.call(call, &ctx).await);
            }
            return results;
        }
        let limit = Arc::new(tokio::sync::Semaphore::new(self.config.batch_limit));
        let mut labels = Vec::with_capacity(calls.len());
        let mut tasks = tokio::task::JoinSet::new();
        for (position, (call, ctx)) in calls.into_iter().enumerate() {
            labels.push((call.id.clone(), call.name.clone()));
            // Never closed, so this waits only for a permit.
            let permit = limit.clone().acquire_owned().await.ok();
            let registry = self.clone();
            tasks.spawn(async move {
                let result = registry.call(call, &ctx).await;
                drop(permit);
                (position, result)
            });
        }
        let mut results: Vec<Option<ToolResult>> = labels.iter().map(|_| None).collect();
        while let Some(joined) = tasks.join_next().await {
            if let Ok((position, result)) = joined {
                results[position] = Some(result);
            }
        }
        results
            .into_iter()
            .zip(labels)
            .map(|(result, (id, name))| {
                result.unwrap_or_else(|| ToolResult {
                    id,
                    name,
                    outcome: Err(Refusal::new(
                        code::INTERNAL,
                        "the call's task ended without an answer",
                    )),
                })
            })
            .collect()
    }

    /// A plain-text list of the tools (of a scoped view: the granted ones) with their
    /// descriptions and parameters, for hosts that put tools in a prompt.
    pub fn describe(&self) -> String {
        crate::describe::describe(&self.definitions())
    }

    /// Hears of every change to the tools from now on. A subscriber that falls more than 64
    /// changes behind is told it lagged and should read [`Registry::definitions`] afresh.
    pub fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.shared.changes.subscribe()
    }

    /// Applies `change` to a copy of the tools and swaps it in; readers see all of it or none.
    fn change<R>(
        &self,
        change: impl FnOnce(&mut Vec<Entry>, &mut Vec<ToolDefinition>) -> Result<R, RegistryError>,
    ) -> Result<R, RegistryError> {
        let mut catalog = self
            .shared
            .catalog
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let (mut entries, mut definitions) = catalog.parts();
        let result = change(&mut entries, &mut definitions)?;
        *catalog = Arc::new(Catalog::with_definitions(entries, definitions)?);
        Ok(result)
    }

    fn announce(&self, change: Change) {
        // No subscribers is not an error.
        let _ = self.shared.changes.send(change);
    }

    /// Adds a tool at the end; an error, changing nothing, if its name is taken.
    pub fn add(&self, tool: impl Tool) -> Result<(), RegistryError> {
        self.add_entries(vec![Entry::single(Arc::new(tool))])
    }

    /// Adds every tool of a toolkit at the end; an error, changing nothing, if a name is
    /// taken.
    pub fn add_toolkit<T: Toolkit>(&self, toolkit: T) -> Result<(), RegistryError> {
        self.add_entries(Entry::of_toolkit(toolkit).collect())
    }

    fn add_entries(&self, added: Vec<(Entry, ToolDefinition)>) -> Result<(), RegistryError> {
        let (added, added_definitions): (Vec<Entry>, Vec<ToolDefinition>) =
            added.into_iter().unzip();
        refuse_unexportable(&added_definitions, &self.config.providers)?;
        let names = added_definitions.iter().map(|d| d.name.clone()).collect();
        self.change(|entries, definitions| {
            entries.extend(added);
            definitions.extend(added_definitions);
            Ok(())
        })?;
        self.announce(Change::Added(names));
        Ok(())
    }

    /// Puts `tool` in place of the tool of the same name, keeping its position and toolkit, or
    /// adds it at the end if there is none.
    pub fn replace(&self, tool: impl Tool) -> Result<(), RegistryError> {
        let (entry, definition) = Entry::single(Arc::new(tool));
        refuse_unexportable(std::slice::from_ref(&definition), &self.config.providers)?;
        let name = definition.name.clone();
        let replaced = self.change(|entries, definitions| {
            match definitions.iter().position(|d| d.name == definition.name) {
                Some(position) => {
                    entries[position].tool = entry.tool;
                    definitions[position] = definition;
                    Ok(true)
                }
                None => {
                    entries.push(entry);
                    definitions.push(definition);
                    Ok(false)
                }
            }
        })?;
        self.announce(if replaced {
            Change::Replaced(vec![name])
        } else {
            Change::Added(vec![name])
        });
        Ok(())
    }

    /// Removes the tool of this name; whether there was one.
    pub fn remove(&self, name: &str) -> bool {
        let removed = self
            .change(|entries, definitions| {
                let position = definitions.iter().position(|d| d.name == name);
                if let Some(position) = position {
                    entries.remove(position);
                    definitions.remove(position);
                }
                Ok(position.is_some())
            })
            .unwrap_or(false);
        if removed {
            self.announce(Change::Removed(vec![name.to_owned()]));
        }
        removed
    }

    /// Removes every tool.
    pub fn clear(&self) {
        let _ = self.change(|entries, definitions| {
            entries.clear();
            definitions.clear();
            Ok(())
        });
        self.announce(Change::Cleared);
    }

    /// Adds `other`'s tools to this registry, in `other`'s order, settling names both have by
    /// `policy`. With [`Collision::Error`], nothing changes if any name is shared.
    pub fn merge(&self, other: &Registry, policy: Collision) -> Result<(), RegistryError> {
        let theirs = other.catalog();
        let (mut added, mut replaced) = (Vec::new(), Vec::new());
        self.change(|entries, definitions| {
            for (entry, definition) in theirs.entries.iter().zip(theirs.definitions.iter()) {
                match definitions.iter().position(|d| d.name == definition.name) {
                    None => {
                        entries.push(entry.clone());
                        definitions.push(definition.clone());
                        added.push(definition.name.clone());
                    }
                    Some(position) => match policy {
                        Collision::Error => {
                            return Err(RegistryError::DuplicateName {
                                name: definition.name.clone(),
                            });
                        }
                        Collision::Replace => {
                            entries[position] = entry.clone();
                            definitions[position] = definition.clone();
                            replaced.push(definition.name.clone());
                        }
                        Collision::Keep => {}
                    },
                }
            }
            Ok(())
        })?;
        if !added.is_empty() {
            self.announce(Change::Added(added));
        }
        if !replaced.is_empty() {
            self.announce(Change::Replaced(replaced));
        }
        Ok(())
    }
}

/// A name as a refusal repeats it: cut after 128 characters (longer than any tool's name), so
/// a huge name sent by a caller is not sent back whole.
fn shortened(name: &str) -> std::borrow::Cow<'_, str> {
    const LIMIT: usize = 128;
    match name.char_indices().nth(LIMIT) {
        None => name.into(),
        Some((cut, _)) => format!("{}…", &name[..cut]).into(),
    }
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry")
            .field("tools", &self.names())
            .field("scoped", &self.scope.is_some())
            .finish()
    }
}
