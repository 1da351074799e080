//! Deferred loading: a registry that lists only a `tool_search` tool and a chosen few, and lists
//! (and lets through) each further tool once a search by the same caller has found it.
//!
//! Every listed tool costs a model prompt tokens on every turn, and a model chooses worse among
//! hundreds; with deferred loading it starts with a short list and asks for what it needs. What
//! a caller has found is kept in a [`Session`], a value the host keeps per caller session and
//! passes in ([`Registry::definitions_in`], [`Registry::call_in`]); over MCP the server keeps
//! one per client session (and, for requests without one, per caller). A request nothing
//! ties to any other gets an [unbound](Session::unbound) session, in which a search's answer
//! carries what is needed to call the tools it finds.
//!
//! Grants still decide: a scoped view's search finds granted tools only, and a call of any
//! other tool is refused, as a tool not found, before it reaches anything.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use serde_json::{Value, json};
use tokio::sync::watch;

use super::Registry;
use super::catalog::{Definitions, Exported, export_all};
use crate::args::{self, Prepared};
use crate::call::context::Context;
use crate::call::tool_call::ToolCall;
use crate::outcome::output::Output;
use crate::outcome::refusal::{Refusal, code};
use crate::outcome::result::ToolResult;
use crate::outcome::shorten::shortened;
use crate::providers::{ExportError, Provider};
use crate::tool::definition::ToolDefinition;

/// The name of the search tool a registry with deferred loading lists first. It stands in
/// front of a registry tool of the same name.
pub const TOOL_SEARCH: &str = "tool_search";

/// How many tools one `tool_search` call finds unless it asks for another number, and the most
/// it may ask for: enough to choose among, few enough to read in one turn.
const DEFAULT_FOUND: usize = 5;
const MOST_FOUND: u64 = 20;

/// The tools one caller's searches have found, which a registry with deferred loading lists
/// and lets through for that caller from then on.
///
/// Keep one per caller session; clones share what was found (so a host may hand a clone to
/// each request of the session), and [`Session::new`] starts afresh. [`Session::changes`]
/// tells a host when the session grows, so that it can tell the caller to list its tools
/// again.
#[derive(Clone, Debug)]
pub struct Session {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    loaded: Mutex<Vec<String>>,
    /// How many tools have been found; a new value each time the session grows.
    grown: watch::Sender<usize>,
    /// Whether the session stands for one request that nothing ties to any other
    /// ([`Session::unbound`]).
    unbound: bool,
}

impl Default for Session {
    fn default() -> Self {
        Session::with(false)
    }
}

impl Session {
    /// A session that has found nothing yet.
    pub fn new() -> Session {
        Session::default()
    }

    /// A session for a request that cannot be tied to any other: no connection, no HTTP
    /// session and no caller the host names (MCP over HTTP without sessions, from an
    /// anonymous caller). What its search finds would be forgotten before the next request,
    /// so a listing could never grow, and a caller that may only call what is listed could
    /// never call a found tool. So with it, a call of any tool the registry grants goes
    /// through, listed or not, and `tool_search`'s answer gives each found tool's input
    /// schema, so that a model can call it without a listing.
    ///
    /// This lets through nothing a grant would not: grants, not the listing, are what protect
    /// a tool. A scoped view's search still finds granted tools only, and a call of any other
    /// tool is still refused before it reaches anything. The listing stays `tool_search` and
    /// the tools listed always.
    pub fn unbound() -> Session {
        Session::with(true)
    }

    fn with(unbound: bool) -> Session {
        Session {
            inner: Arc::new(Inner {
                loaded: Mutex::new(Vec::new()),
                grown: watch::Sender::new(0),
                unbound,
            }),
        }
    }

    /// Whether this session was made by [`Session::unbound`].
    pub fn is_unbound(&self) -> bool {
        self.inner.unbound
    }

    /// The names of the tools found so far, in the order they were found.
    pub fn loaded(&self) -> Vec<String> {
        self.lock().clone()
    }

    /// Lists `name` from now on, as if a search had found it (a host that knows what a caller
    /// will need). A tool the registry does not grant the caller stays unlisted and refused.
    /// Returns whether `name` is new to the session, which then tells its
    /// [`changes`](Session::changes) listeners.
    pub fn load(&self, name: impl Into<String>) -> bool {
        let name = name.into();
        let mut loaded = self.lock();
        if loaded.contains(&name) {
            return false;
        }
        loaded.push(name);
        // Sent under the lock, so that listeners see the counts in the order they were reached.
        self.inner.grown.send_replace(loaded.len());
        true
    }

    /// Hears of the session's growth: the receiver's value is how many tools the session has
    /// found, and [`changed`](watch::Receiver::changed) returns each time a search (or
    /// [`Session::load`]) lists a tool not listed before, in any clone of the session. A
    /// host holding a stream open to the caller (MCP's `subscriptions/listen`, say) waits on
    /// it and tells the caller to list its tools again. Several growths between two waits
    /// are heard once. What was found before the call is counted, not heard.
    pub fn changes(&self) -> watch::Receiver<usize> {
        self.inner.grown.subscribe()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        self.inner
            .loaded
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl Registry {
    /// Lists only a `tool_search` tool ([`TOOL_SEARCH`]) and the tools named in `always` (of
    /// a scoped view: those granted) through [`Registry::definitions_in`],
    /// [`Registry::export_in`] and [`Registry::call_in`]; a tool a caller's search finds is
    /// listed and callable for the rest of that caller's [`Session`], whose
    /// [`changes`](Session::changes) say when its listing grew. The registry's own
    /// [`definitions`](Registry::definitions), [`export`](Registry::export) and
    /// [`call`](Registry::call) are unchanged.
    ///
    /// A host keeps one session per caller session: over MCP, `tool-mcp` keeps one per stdio
    /// connection and per HTTP session, and for HTTP requests without a session (MCP
    /// 2026-07-28, or a server without sessions) one per caller its caller hook names,
    /// forgotten once idle. A request that has none of these cannot be tied to the next one,
    /// so it gets a [`Session::unbound`]: a search there answers with each found tool's input
    /// schema, and a call of any granted tool goes through unlisted. Grants decide
    /// everywhere: a search never finds, and a call never reaches, a tool the registry (a
    /// scoped view) does not grant.
    ///
    /// Needs the `search` feature; without it, a call of this is a compile error naming the
    /// feature.
    #[cfg_attr(docsrs, doc(cfg(feature = "search")))]
    pub fn with_deferred_loading<I, S>(self, always: I) -> Registry
    where
        I: IntoIterator<Item = S> + crate::features::SearchFeature,
        S: Into<String>,
    {
        let always: HashSet<String> = always.into_iter().map(Into::into).collect();
        self.configure(|config| config.deferred = Some(Arc::new(always)))
    }

    /// Whether the registry lists tools only as searches find them (see
    /// [`Registry::with_deferred_loading`]).
    pub fn is_deferred(&self) -> bool {
        self.config.deferred.is_some()
    }

    /// What `session`'s caller is shown: with deferred loading, `tool_search`, then the tools
    /// listed always and those found, in the registry's order, granted ones only; without it,
    /// every (granted) tool, as [`Registry::definitions`] gives them.
    pub fn definitions_in(&self, session: &Session) -> Definitions {
        let Some(always) = &self.config.deferred else {
            return self.definitions();
        };
        let loaded: HashSet<String> = session.loaded().into_iter().collect();
        std::iter::once(search_definition().clone())
            .chain(
                self.definitions()
                    .iter()
                    .filter(|definition| {
                        definition.name != TOOL_SEARCH
                            && (always.contains(&definition.name)
                                || loaded.contains(&definition.name))
                    })
                    .cloned(),
            )
            .collect()
    }

    /// Whether a call of `name` in `session` goes on to the registry's own way of calling
    /// ([`Registry::call`], or a task's start), where grants are checked: without deferred
    /// loading, always; with it, for a tool listed always or found (in an
    /// [unbound](Session::unbound) session, for any tool), and never for `tool_search`,
    /// which [`Registry::call_in`] answers itself.
    pub fn is_listed_in(&self, session: &Session, name: &str) -> bool {
        match &self.config.deferred {
            None => true,
            Some(always) => {
                name != TOOL_SEARCH
                    && (always.contains(name)
                        || session.lock().iter().any(|each| each == name)
                        // Unbound, a granted tool only: any other name is refused as one not
                        // listed, so that the refusal tells no ungranted tool from none.
                        || (session.is_unbound() && self.grants(name)))
            }
        }
    }

    /// [`Registry::definitions_in`] in `provider`'s tool shape.
    pub fn export_in(
        &self,
        session: &Session,
        provider: Provider,
    ) -> Result<Exported, ExportError> {
        if !self.is_deferred() {
            return self.export(provider);
        }
        export_all(&self.definitions_in(session), provider)
    }

    /// Runs `call` for `session`'s caller. With deferred loading, a call of `tool_search`
    /// searches the (granted) tools and lists those it finds in the session, a call of a listed
    /// tool runs as [`Registry::call`] runs it, and any other call is refused with
    /// `unknown-tool` and a line saying to search first, whether the tool exists or not, so
    /// that a refusal tells nothing of tools the caller was not granted. A search and such a
    /// refusal are calls like any other: each has its span and its record, and a search takes
    /// from the caller's rate limit and is held to the bound on arguments. Without deferred
    /// loading, this is [`Registry::call`].
    pub async fn call_in(&self, session: &Session, call: ToolCall, ctx: &Context) -> ToolResult {
        if !self.is_deferred() {
            return self.call(call, ctx).await;
        }
        if call.name == TOOL_SEARCH {
            // Answered here, but a call like any other: its span, its record, the caller's
            // budget and the bound on arguments.
            return self
                .answered_by(call, ctx, |call| {
                    self.take_from_budget(ctx, TOOL_SEARCH)?;
                    self.check_size(search_definition(), &call.arguments)?;
                    self.search_for(session, call)
                })
                .await;
        }
        if !self.is_listed_in(session, &call.name) {
            return self
                .answered_by(call, ctx, |call| Err(self.not_listed(session, &call.name)))
                .await;
        }
        self.call(call, ctx).await
    }

    /// The refusal of a call of `name`, which `session` does not list: `unknown-tool`, whether
    /// the tool exists or not, with the tools it does list.
    fn not_listed(&self, session: &Session, name: &str) -> Refusal {
        let names: Vec<String> = self
            .definitions_in(session)
            .iter()
            .map(|definition| definition.name.clone())
            .collect();
        Refusal::new(
            code::UNKNOWN_TOOL,
            format!(
                "no tool named `{}` is listed for you; call `{TOOL_SEARCH}` with what you want \
                 done, then call a tool it finds",
                shortened(name)
            ),
        )
        .line("tools", names)
    }

    /// Runs a `tool_search` call: finds the tools, lists them in the session, and tells the
    /// model their names and descriptions.
    fn search_for(&self, session: &Session, call: &ToolCall) -> Result<Output, Refusal> {
        let SearchArguments { query, limit } =
            args::parse_strict(call.arguments.as_str(), search_schema(), TOOL_SEARCH).map_err(
                |refusal| {
                    refusal.line(
                        "example",
                        [r#"{"query": "what you want done", "limit": 5}"#],
                    )
                },
            )?;
        let limit = limit.unwrap_or(DEFAULT_FOUND);
        let found = self.hits(&query, limit);
        let mut tools = Vec::with_capacity(found.len());
        for each in &found {
            session.load(each.definition.name.clone());
            let mut tool = json!({
                "name": each.definition.name,
                "description": each.definition.description,
            });
            if !each.definition.tags.is_empty() {
                tool["tags"] = json!(each.definition.tags);
            }
            // Nothing will list an unbound session's finds: the model calls them from this.
            if session.is_unbound() {
                tool["inputSchema"] = Value::Object(each.definition.input_schema.clone());
            }
            tools.push(tool);
        }
        let note = if tools.is_empty() {
            "no tool matched; search again with other words"
        } else if session.is_unbound() {
            "these tools are not listed for you, but you may call them by name with arguments \
             that follow their inputSchema"
        } else {
            "these tools are listed for you now; call them by name"
        };
        Output::json(&json!({ "tools": tools, "note": note }))
    }
}

/// The arguments of a `tool_search` call, read by the parser every tool's arguments go through
/// and held to the schema `tool_search` advertises (a query of at least one character, a limit
/// from 1 to [`MOST_FOUND`], no other field).
#[derive(serde::Deserialize)]
struct SearchArguments {
    query: String,
    limit: Option<usize>,
}

/// The `tool_search` tool's input schema, made ready for the parser once.
fn search_schema() -> &'static Prepared {
    static SCHEMA: OnceLock<Prepared> = OnceLock::new();
    SCHEMA.get_or_init(|| Prepared::new(search_definition().input_schema.clone()))
}

/// The `tool_search` tool's definition, made once.
fn search_definition() -> &'static ToolDefinition {
    static DEFINITION: OnceLock<ToolDefinition> = OnceLock::new();
    DEFINITION.get_or_init(make_search_definition)
}

fn make_search_definition() -> ToolDefinition {
    let schema = json!({
        "type": "object",
        "properties": {
            "query": {
                "type": "string",
                "minLength": 1,
                "description": "What you want done, in a few words."
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": MOST_FOUND,
                "description": "How many tools to find at most (5 unless set)."
            }
        },
        "required": ["query"],
        "additionalProperties": false
    });
    let schema = match schema {
        Value::Object(schema) => schema,
        _ => serde_json::Map::new(),
    };
    let mut definition = ToolDefinition::new(
        TOOL_SEARCH,
        "Finds tools by what they do, among more than are listed. The tools it finds are \
         listed and callable from then on.",
        schema,
    );
    definition.annotations.read_only = true;
    definition.annotations.idempotent = true;
    definition
}
