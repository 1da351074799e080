//! Which registry and which deferred-loading session serve a request: the grant of its caller
//! (or of an anonymous HTTP request), the session its searches keep what they find in (its
//! connection's, its HTTP session's, its caller's, or none), shared with other replicas
//! through the task store when there is one, and the level its calls log at.

use std::borrow::Cow;

use std::sync::PoisonError;

use rmcp::ErrorData as McpError;
use rmcp::service::{RequestContext, RoleServer};
#[cfg(feature = "http")]
use tool_core::Grant;
use tool_core::Registry;
use tool_core::call::LogLevel;

use super::McpServer;
#[cfg(feature = "http")]
use super::host_code::or_instead;
use crate::owner::Owner;
#[cfg(feature = "http")]
use crate::owner::{HttpRequestParts, is_current};

impl McpServer {
    /// The registry this request may use: scoped to the grant of its caller, or, over HTTP
    /// without one, to what anonymous requests are granted; with bearer tokens, narrowed to
    /// the tools whose scopes the request's token holds.
    pub(super) fn registry_for(
        &self,
        context: &RequestContext<RoleServer>,
        caller: Option<&str>,
    ) -> Cow<'_, Registry> {
        #[cfg(not(feature = "http"))]
        let registry = {
            // Over stdio there is no request and no caller: the registry as given.
            let _ = (context, caller);
            Cow::Borrowed(&self.registry)
        };
        #[cfg(feature = "http")]
        let registry = {
            let over_http = context.extensions.get::<HttpRequestParts>().is_some();
            self.host_registry(caller, over_http)
        };
        #[cfg(feature = "oauth")]
        if let Some(scopes) = self.token_grant(context) {
            return Cow::Owned(registry.scoped(scopes));
        }
        registry
    }

    /// The registry scoped to the host's grant for `caller` (or, over HTTP without one, to
    /// what anonymous requests are granted), before any token's scopes narrow it.
    #[cfg(feature = "http")]
    pub(super) fn host_registry(&self, caller: Option<&str>, over_http: bool) -> Cow<'_, Registry> {
        let grant = match caller {
            // A hook that panics grants nothing (and the request is answered).
            Some(caller) => (self.grant.as_ref())
                .map(|grant| or_instead("with_grant", || grant(caller), Grant::new)),
            None if over_http => match &self.anonymous {
                Some(grant) => Some(grant.clone()),
                None if self.caller.is_some() || self.grant.is_some() => Some(Grant::new()),
                None => None,
            },
            None => None,
        };
        match grant {
            Some(grant) => Cow::Owned(self.registry.scoped(grant)),
            None => Cow::Borrowed(&self.registry),
        }
    }

    /// The least level this request's call logs at, or `None` for no log messages at all: a
    /// 2026-07-28 request's `_meta` names it (and without it nothing is logged, as that revision
    /// requires); a 2025-11-25 request logs at what its session last set with
    /// `logging/setLevel`, everything until then. A 2026-07-28 `_meta` that names a level MCP
    /// does not have is an invalid-params error saying which there are.
    /// (`current`: whether the request is of 2026-07-28.)
    pub(super) fn least_log_level(
        &self,
        meta: Option<&rmcp::model::RequestMetaObject>,
        context: &RequestContext<RoleServer>,
        current: bool,
    ) -> Result<Option<LogLevel>, McpError> {
        if current {
            // Read in place, once: MCP's level names are this crate's `LogLevel`'s.
            const KEY: &str = "io.modelcontextprotocol/logLevel";
            let named = meta
                .and_then(|meta| meta.get(KEY))
                .or_else(|| context.meta.get(KEY));
            return match named {
                None | Some(serde_json::Value::Null) => Ok(None),
                Some(named) => super::unreadable::meta_log_level(named).map(Some),
            };
        }
        let set = *self
            .log_level
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        Ok(Some(set.unwrap_or(LogLevel::Debug)))
    }

    /// Who makes this request, for what it may reach again (its tasks, its suspended calls).
    pub(super) fn owner_of(&self, context: &RequestContext<RoleServer>) -> Owner {
        Owner::of(
            &context.extensions,
            self.caller_of(&context.extensions),
            self.connection,
        )
    }

    pub(super) fn caller_of(&self, context: &rmcp::model::Extensions) -> Option<String> {
        #[cfg(feature = "http")]
        {
            self.caller_from(context.get::<HttpRequestParts>()?)
        }
        #[cfg(not(feature = "http"))]
        {
            let _ = context;
            None
        }
    }

    /// The caller of an HTTP request: whom the host's hook names, else (with bearer tokens)
    /// the subject of the request's token.
    #[cfg(feature = "http")]
    pub(crate) fn caller_from(&self, parts: &HttpRequestParts) -> Option<String> {
        match &self.caller {
            // A hook that panics names no caller (and the request is answered as such).
            Some(identify) => or_instead("with_caller", || identify(parts), || None),
            #[cfg(feature = "oauth")]
            None => crate::auth::token_in(parts).map(|token| token.subject().to_owned()),
            #[cfg(not(feature = "oauth"))]
            None => None,
        }
    }

    /// Where this request's searches keep what they find, and what it is listed from: its
    /// stdio connection's or HTTP session's session, else its caller's, else (nothing ties
    /// the request to any other) an unbound one.
    pub(super) fn session_for(
        &self,
        context: &RequestContext<RoleServer>,
        caller: Option<&str>,
    ) -> RequestSession {
        if !self.registry.is_deferred() || self.in_own_session(context) {
            return RequestSession::Own(self.finds.clone());
        }
        match caller {
            Some(caller) => RequestSession::Caller(self.caller_finds.session(caller)),
            None => RequestSession::Unbound(tool_core::Session::unbound()),
        }
    }

    /// Whether the request is served by a clone that lives as long as its session: over stdio
    /// (no HTTP request), or in a 2025-11-25 HTTP session. rmcp serves a request naming MCP
    /// 2026-07-28 without a session whatever headers it carries, and a server without sessions
    /// serves every request so, each by a clone of its own.
    fn in_own_session(&self, context: &RequestContext<RoleServer>) -> bool {
        #[cfg(feature = "http")]
        {
            let Some(parts) = context.extensions.get::<HttpRequestParts>() else {
                return true;
            };
            self.http_sessions
                && parts.headers.contains_key(crate::owner::SESSION_HEADER)
                && !is_current(context)
        }
        #[cfg(not(feature = "http"))]
        {
            let _ = context;
            true
        }
    }

    /// For a caller's session (a request without one of its own) when the server shares a task
    /// store: loads the tools the caller found on any replica into the session, and returns
    /// where to write what this request finds. Nothing else asks the store, so a server
    /// without deferred loading or without a shared store makes no round trip for it.
    pub(super) async fn load_shared<'a>(
        &'a self,
        found: &RequestSession,
        caller: Option<&'a str>,
    ) -> Option<Sharing<'a>> {
        let (RequestSession::Caller(session), Some(caller)) = (found, caller) else {
            return None;
        };
        let store = self.tasks.shared_store()?;
        let keep = self.caller_finds.idle();
        match store.found(caller, keep).await {
            Ok(names) => {
                for name in names {
                    session.load(name);
                }
            }
            // Listing and calling go on with what this replica knows, as plain calls do when
            // the store is down.
            Err(error) => tracing::warn!(
                caller = %caller,
                %error,
                "the tools this caller found on other replicas could not be read from the \
                 task store; going on with those found here"
            ),
        }
        Some(Sharing {
            store,
            caller,
            keep,
            known: session.loaded().len(),
        })
    }
}

/// Where a request of a caller's session writes the tools its call finds, for the other
/// replicas sharing the task store.
pub(super) struct Sharing<'a> {
    store: &'a dyn crate::store::TaskStore,
    caller: &'a str,
    keep: std::time::Duration,
    /// How many tools the session had found before the call (the store's among them): a
    /// session only grows, so those past it are the ones the call found.
    known: usize,
}

impl Sharing<'_> {
    /// Writes the tools `session` gained since it was loaded, if any.
    pub(super) async fn share(self, session: &tool_core::Session) {
        let loaded = session.loaded();
        let gained = loaded.get(self.known..).unwrap_or_default();
        if gained.is_empty() {
            return;
        }
        if let Err(error) = self.store.add_found(self.caller, gained, self.keep).await {
            tracing::warn!(
                caller = %self.caller,
                %error,
                "the tools this caller found could not be written to the task store; only \
                 this replica lists them"
            );
        }
    }
}

/// A request's session, and whose it is.
pub(super) enum RequestSession {
    /// The stdio connection's or the HTTP session's (a clone of the server lives as long).
    Own(tool_core::Session),
    /// The caller's, for a request with no session.
    Caller(tool_core::Session),
    /// Nobody's: the request has no session and no caller.
    Unbound(tool_core::Session),
}

impl RequestSession {
    pub(super) fn session(&self) -> &tool_core::Session {
        match self {
            RequestSession::Own(session)
            | RequestSession::Caller(session)
            | RequestSession::Unbound(session) => session,
        }
    }
}
