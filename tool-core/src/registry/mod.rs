//! The [`Registry`]: the tools an application offers, advertised and called by name.
//!
//! A registry keeps its tools in insertion order, reads each tool's definition once when the
//! tool is added, and answers every call with exactly one [`ToolResult`](crate::ToolResult): never a panic, never
//! an `Err`, never a hang. On the way to its tool a call passes the checks
//! [`Registry::call`] lists, in that order. An output larger than a registry set up with
//! `Registry::with_artifacts` (the `artifacts` feature) shows is kept as an artifact; each call has a `tracing` span
//! and, with [`Registry::with_observer`], a record.
//!
//! A registry can change while it serves: tools are added, replaced, removed; readers see
//! either the whole change or none of it, and never wait on a writer for longer than it takes
//! to swap one pointer (a writer builds the new tools beside the old). Clones and scoped views
//! share the tools; subscribers hear of changes.
//!
//! The parts: `catalog` (the tools at one moment, and what is derived from
//! them), `builder` (making a registry), `call` (the way of one call), `batch` (calls run
//! together), `live` (changes while serving), `search` (finding tools by what they do),
//! `session` (deferred loading: tools listed once a caller's search finds them).
//!
//! It speaks no provider's wire format; exports and transports build on it.

mod batch;
mod builder;
mod call;
mod catalog;
#[cfg(feature = "search")]
mod index;
mod live;
mod search;
mod session;
mod start;

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::Duration;

use tokio::sync::broadcast;

pub use self::builder::RegistryBuilder;
use self::catalog::{Catalog, ScopedDefinitions, export_all};
pub use self::catalog::{Definitions, Exported, Snapshot};
pub use self::search::SearchHit;
pub use self::session::{Session, TOOL_SEARCH};
use crate::args::leniency::Leniency;
use crate::policy::approval::Approver;
use crate::policy::grant::Grant;
use crate::providers::{self, ExportError, Provider};
use crate::tool::definition::ToolDefinition;

/// The tools an application offers.
///
/// ```
/// use tool_core::{Context, Registry, ToolCall, tool};
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
    /// Held by a change while it makes the new catalog, so that changes are made one at a
    /// time while readers go on reading the old one.
    writer: Mutex<()>,
    changes: broadcast::Sender<Change>,
    /// How many changes the tools have had: see [`Registry::generation`].
    generation: std::sync::atomic::AtomicU64,
    /// How many tasks each caller has running, for the bound on them.
    tasks: crate::run::task::TaskCounts,
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
    leniency: Leniency,
    task_limit: usize,
    /// With deferred loading, the tools listed before any search.
    deferred: Option<Arc<std::collections::HashSet<String>>>,
    observer: Option<crate::policy::observe::Sink>,
    rate: Option<Arc<crate::policy::rate::Limiter>>,
    #[cfg(feature = "artifacts")]
    artifacts: Option<crate::policy::artifact::Artifacts>,
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
            leniency: Leniency::none(),
            task_limit: DEFAULT_TASK_LIMIT,
            deferred: None,
            observer: None,
            rate: None,
            #[cfg(feature = "artifacts")]
            artifacts: None,
        }
    }
}

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
/// More than a model writes in one turn (its output is limited to tens of thousands of
/// tokens), and little enough that parsing it (into a value several times its size, on the
/// slow path) stays quick and small.
pub const DEFAULT_MAX_ARGUMENT_BYTES: usize = 1 << 20;

/// How many tasks one caller may have running at once, unless the registry is told otherwise.
/// A task runs on after its call is answered, so a caller could otherwise start handlers
/// faster than they finish, each holding what it holds, until the host runs out; past the
/// bound [`Registry::start`] refuses at once rather than queueing, so the caller learns to
/// wait for (or cancel) a task it has.
pub const DEFAULT_TASK_LIMIT: usize = 16;

/// How many records wait for the observer before new ones are dropped, unless the registry is
/// told otherwise: enough for a burst of calls while the observer writes, little enough that
/// waiting records hold little memory.
pub const DEFAULT_RECORD_BUFFER: usize = 1024;

/// Why tools could not be put in a registry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// Two tools have the same name.
    #[error(
        "two tools are named `{name}`, {}; tool names must be unique within a registry: {}",
        whose(name, toolkits),
        match remote {
            true => "offer a remote server's tools under a prefix (`RemoteToolkit::with_prefix`)",
            false => "rename one with `#[tool(name = \"...\")]`, or, if a tool or toolkit is \
                      added twice, add it once",
        }
    )]
    #[non_exhaustive]
    DuplicateName {
        /// The name used twice.
        name: String,
        /// The toolkit of each, the first then the second: a tool on its own is a toolkit of
        /// one, named like it.
        toolkits: [String; 2],
        /// Whether either tool is checked elsewhere, a remote server's, which no attribute
        /// renames ([`is_checked_elsewhere`](crate::tool::ToolDefinition::is_checked_elsewhere)).
        remote: bool,
    },
    /// Tools that a provider the registry is for would refuse, or that have fields of no
    /// single type.
    #[error("{}", errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Unexportable {
        /// Each tool and field at fault.
        errors: Vec<ExportError>,
    },
}

/// Where each of two tools named `name` comes from, in words: "one of toolkit `notes`, one
/// on its own".
fn whose(name: &str, toolkits: &[String; 2]) -> String {
    let from = |toolkit: &String| match toolkit == name {
        true => "one on its own".to_owned(),
        false => format!("one of toolkit `{toolkit}`"),
    };
    format!("{}, {}", from(&toolkits[0]), from(&toolkits[1]))
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
                writer: Mutex::new(()),
                changes,
                generation: std::sync::atomic::AtomicU64::new(0),
                tasks: crate::run::task::TaskCounts::default(),
            }),
            config: Arc::default(),
            scope: None,
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
            Some(scope) => {
                let definition = &catalog.definitions[position];
                scope
                    .grants
                    .iter()
                    .all(|grant| grant.permits_tool(definition, &catalog.entries[position].toolkit))
            }
        }
    }

    /// The count of running tasks by caller, and how many one caller may have.
    pub(crate) fn tasks(&self) -> (&crate::run::task::TaskCounts, usize) {
        (&self.shared.tasks, self.config.task_limit)
    }

    /// Every tool's definition (of a scoped view: every granted tool's), in insertion order.
    /// Computed when tools are added; reading it costs a reference count.
    pub fn definitions(&self) -> Definitions {
        let catalog = self.catalog();
        let Some(scope) = &self.scope else {
            return Definitions::from(catalog.definitions.clone());
        };
        let mut cached = scope
            .definitions
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some((seen, definitions)) = &*cached
            && Arc::ptr_eq(seen, &catalog)
        {
            return Definitions::from(definitions.clone());
        }
        let definitions: Arc<[ToolDefinition]> = (0..catalog.entries.len())
            .filter(|&position| self.permits(&catalog, position))
            .map(|position| catalog.definitions[position].clone())
            .collect();
        *cached = Some((catalog, definitions.clone()));
        Definitions::from(definitions)
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
    /// single type, as [`RegistryBuilder::build`] does. `registry![...]` checks as much when
    /// it runs (and panics, saying what it found), so the one-line unit test below turns a
    /// panic at a program's start into a failing test:
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
    /// goes to the host's log only (a `tracing` error event; on stderr while no subscriber is
    /// installed), since it may hold what a model should not see. The process's panic hook
    /// still runs too; by default it prints the panic to stderr.
    pub fn with_panic_messages(self, show: bool) -> Registry {
        self.configure(|config| config.show_panics = show)
    }

    /// Shows the message of a handler's `std::error::Error` in its `failed` refusal. Off by
    /// default: the message goes to the host's log only (a `tracing` warning; on stderr while
    /// no subscriber is installed) and the refusal says
    /// `the tool failed; the details were logged`, since an error's message is written for
    /// developers and may hold paths, queries or secrets. Refusals a handler builds itself
    /// ([`Refusal::new`](crate::Refusal::new), [`Refusal::failed`](crate::Refusal::failed)) are model-facing and always shown; see
    /// [What a model is shown](crate::Refusal#what-a-model-is-shown).
    pub fn with_error_messages(self, show: bool) -> Registry {
        self.configure(|config| config.show_errors = show)
    }

    /// Asks `approver` before every call of a tool marked `destructive`; no answer within
    /// `timeout` is a decline. In a tokio runtime without timers (or outside one) the timeout
    /// is checked whenever the approver wakes the call, so an approver that waits on nothing
    /// that wakes it is waited on; a `timeout` too long to add to the clock is none.
    pub fn with_approver(self, approver: impl Approver, timeout: Duration) -> Registry {
        self.configure(|config| {
            config.approver = Some(Arc::new(approver));
            config.approval_timeout = Some(timeout);
        })
    }

    /// Forgives the slips `leniency` names in the arguments of every tool that is not
    /// `destructive` and sets no leniency of its own (none, unless set: every slip is
    /// refused). A tool's own setting (`#[tool(lenient)]`,
    /// [`ToolDefinition::with_leniency`]) outranks it; a destructive tool is lenient only if
    /// it says so itself.
    ///
    /// Only a call whose arguments its tool has refused (nothing ran) is adjusted, and called
    /// once more with the adjusted arguments (after asking the approver again, for a
    /// destructive tool, with the arguments that will run). Each adjustment goes to `tracing`
    /// (info) and to the model, as a line of the result's [`notes`](crate::ToolResult::notes).
    /// If the tool refuses the adjusted arguments too, the result is that refusal, whose faults
    /// are those left to mend, with the notes. See [`Leniency`].
    pub fn with_leniency(self, leniency: Leniency) -> Registry {
        self.configure(|config| config.leniency = leniency)
    }

    /// Runs at most `limit` calls of one [`Registry::call_all`] or [`Registry::call_each`]
    /// batch at once ([`DEFAULT_BATCH_LIMIT`], 64, unless set); `usize::MAX` for no limit.
    pub fn with_batch_limit(self, limit: usize) -> Registry {
        let limit = limit.clamp(1, tokio::sync::Semaphore::MAX_PERMITS);
        self.configure(|config| config.batch_limit = limit)
    }

    /// Lets each caller (as [`Context::caller`](crate::Context::caller) names it; callers
    /// without a name count as one) have at most `limit` tasks running at once
    /// ([`DEFAULT_TASK_LIMIT`], 16, unless set); [`Registry::start`] refuses more with
    /// `too-many-tasks`. Clones and scoped views count together.
    pub fn with_task_limit(self, limit: usize) -> Registry {
        self.configure(|config| config.task_limit = limit)
    }

    /// Hands a [`CallRecord`](crate::CallRecord) of every call (id, tool, caller, SHA-256 of
    /// the arguments, start, elapsed time, outcome, output size) to `observer`, on a thread of
    /// its own, through a buffer of [`DEFAULT_RECORD_BUFFER`]
    /// records: a call never waits for the observer, and a record that finds the buffer full
    /// is dropped and counted ([`Registry::records_dropped`]). Replaces any observer set
    /// before; clones and scoped views made after share it. See [`Observer`](crate::policy::observe::Observer).
    ///
    /// Needs the `call-records` feature; without it, a call of this is a compile error naming
    /// the feature.
    #[cfg_attr(docsrs, doc(cfg(feature = "call-records")))]
    pub fn with_observer<O>(self, observer: O) -> Registry
    where
        O: crate::policy::observe::Observer + crate::features::CallRecordsFeature,
    {
        self.with_observer_buffer(observer, DEFAULT_RECORD_BUFFER)
    }

    /// [`Registry::with_observer`] with a buffer of `records` records (at least one).
    #[cfg_attr(docsrs, doc(cfg(feature = "call-records")))]
    pub fn with_observer_buffer<O>(self, observer: O, records: usize) -> Registry
    where
        O: crate::policy::observe::Observer + crate::features::CallRecordsFeature,
    {
        let sink = crate::policy::observe::Sink::start(observer, records);
        self.configure(|config| config.observer = Some(sink))
    }

    /// How many call records were dropped because the observer was behind (or gone); 0
    /// without an observer. A count that grows says the observer needs a bigger buffer
    /// ([`Registry::with_observer_buffer`]) or to be quicker.
    pub fn records_dropped(&self) -> u64 {
        self.config
            .observer
            .as_ref()
            .map_or(0, crate::policy::observe::Sink::dropped)
    }

    /// Lets each caller make at most the calls `limit` budgets (per interval, on all tools or
    /// on each tool), and refuses the rest with `rate-limited`, whose `retry-after` line says
    /// in how many seconds to try again. The budget is checked after the lookup and the grant
    /// (a call of an unknown or ungranted tool uses none of it) and before anything else.
    /// Clones and scoped views made after share the budgets; setting a limit again starts
    /// fresh ones. See [`RateLimit`](crate::RateLimit).
    ///
    /// Needs the `rate-limits` feature; without it, a call of this is a compile error naming
    /// the feature.
    #[cfg_attr(docsrs, doc(cfg(feature = "rate-limits")))]
    pub fn with_rate_limit<L>(self, limit: L) -> Registry
    where
        L: Into<crate::policy::rate::RateLimit> + crate::features::RateLimitsFeature,
    {
        #[cfg(feature = "rate-limits")]
        {
            let limiter = Arc::new(crate::policy::rate::Limiter::new(limit.into()));
            self.configure(|config| config.rate = Some(limiter))
        }
        // Unreachable: no type meets the bound without the feature.
        #[cfg(not(feature = "rate-limits"))]
        {
            let _ = limit;
            self
        }
    }

    /// Takes one call of `name` by `ctx`'s caller from the rate limit's budget, if there is
    /// one, or refuses it with `rate-limited`.
    #[inline]
    pub(crate) fn take_from_budget(
        &self,
        ctx: &crate::call::context::Context,
        name: &str,
    ) -> Result<(), crate::outcome::refusal::Refusal> {
        match &self.config.rate {
            Some(rate) => rate.check(ctx.caller_shared(), name),
            None => Ok(()),
        }
    }

    /// This registry without its rate limit: for a task's call, whose budget was taken when it
    /// started.
    pub(crate) fn without_budget(&self) -> Registry {
        match self.config.rate {
            Some(_) => self.clone().configure(|config| config.rate = None),
            None => self.clone(),
        }
    }

    /// Keeps a text or structured output larger than `artifacts` allows in its store, and
    /// answers with a preview, the size and a handle instead (a line `artifact` of the result's
    /// notes gives the handle and the size); the model reads the rest in parts with the `artifact_read`
    /// tool, which the registry must have: add [`Artifacts::reader`](crate::Artifacts::reader).
    /// See [`Artifacts`](crate::Artifacts).
    ///
    /// Needs the `artifacts` feature; without it, a call of this is a compile error naming
    /// the feature.
    #[cfg(feature = "artifacts")]
    #[cfg_attr(docsrs, doc(cfg(feature = "artifacts")))]
    pub fn with_artifacts(self, artifacts: crate::policy::artifact::Artifacts) -> Registry {
        self.configure(|config| config.artifacts = Some(artifacts))
    }

    /// Keeps large outputs in a store: needs the `artifacts` feature, which is off, so a call
    /// of this is a compile error naming it.
    #[cfg(not(feature = "artifacts"))]
    pub fn with_artifacts<A>(self, artifacts: A) -> Registry
    where
        A: crate::features::ArtifactsFeature,
    {
        // Unreachable: no type meets the bound without the feature.
        let _ = artifacts;
        self
    }

    /// A plain-text list of the tools (of a scoped view: the granted ones) with their
    /// descriptions and parameters, for hosts that put tools in a prompt.
    pub fn describe(&self) -> String {
        crate::providers::describe::describe(&self.definitions())
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
