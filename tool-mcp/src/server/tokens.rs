//! What a request's bearer token decides (the `oauth` feature): the grant of its scopes, which
//! narrows the host's, and, before rmcp reads a request, whether it needs a scope the token
//! lacks (a call of such a tool, or a list that would show nothing without one), which the
//! token check answers 403.

use rmcp::service::{RequestContext, RoleServer};
use tool_core::Grant;

use super::McpServer;
use crate::auth::{AccessToken, BearerAuth, Scopes, token_in};
use crate::owner::HttpRequestParts;

impl McpServer {
    /// Checks every HTTP request's OAuth 2.1 bearer token before anything else runs (see
    /// [`BearerAuth`] and the [`auth`](crate::auth) module): a request without a valid one is
    /// answered 401, a call of a tool whose scopes (`#[tool(scopes(..))]`) its token lacks is
    /// answered 403 naming them, the token's subject is each call's caller (with a
    /// [`McpServer::with_caller`] hook, the hook alone names the caller, reading the
    /// [`AccessToken`] in the request's extensions; its `None` is a caller of no name, as
    /// [`McpServer::with_anonymous`] grants), its scopes narrow the caller's grant, and the token
    /// is in each call's context. The protected-resource metadata is served beside the MCP
    /// endpoint by [`McpServer::serve_http`], [`McpServer::bind_http`] and
    /// [`McpServer::http_router`].
    pub fn with_bearer_auth(mut self, auth: BearerAuth) -> Self {
        self.bearer = Some(auth);
        self
    }

    /// The grant of the request's token's scopes, on a server checking tokens: nothing for an
    /// HTTP request that reached the server unchecked (its service mounted without the token
    /// check), `None` over stdio or without tokens.
    pub(super) fn token_grant(&self, context: &RequestContext<RoleServer>) -> Option<Grant> {
        self.bearer.as_ref()?;
        let parts = context.extensions.get::<HttpRequestParts>()?;
        Some(match token_in(parts) {
            Some(token) => token.grant(),
            None => Grant::new(),
        })
    }

    /// Every scope a tool of the registry needs, each once, in the order the tools have them.
    pub(crate) fn registry_scopes(&self) -> Vec<String> {
        let mut scopes: Vec<String> = Vec::new();
        for definition in self.registry.definitions().iter() {
            for scope in &definition.scopes {
                if !scopes.contains(scope) {
                    scopes.push(scope.clone());
                }
            }
        }
        scopes
    }

    /// The scopes (space-separated) a request of `method` (naming the tool `name`) needs and
    /// its token lacks, if any: a `tools/call` of a tool the host grants whose scopes the
    /// token does not all hold, or a `tools/list` that the host's grant would fill and the
    /// token's scopes would leave empty. `parts` are the request's, for the host's caller hook.
    pub(crate) fn scopes_needed_by(
        &self,
        parts: &HttpRequestParts,
        token: &AccessToken,
        (method, name): (&str, Option<&str>),
    ) -> Option<String> {
        let held = || token.grant();
        match method {
            "tools/call" => {
                let name = name?;
                // Most calls need no scope the token lacks: that is seen without the host's
                // grant, on the registry as it is.
                let definitions = self.registry.definitions();
                let definition = definitions.iter().find(|each| each.name == name)?;
                if definition.scopes.iter().all(|scope| token.has_scope(scope)) {
                    return None;
                }
                let host = self.host_registry(self.caller_in(parts, token).as_deref(), true);
                let granted = host.definitions();
                let definition = granted.iter().find(|each| each.name == name)?;
                let missing = held().missing_scopes(definition);
                (!missing.is_empty()).then(|| definition.scopes.join(" "))
            }
            "tools/list" => {
                let host = self.host_registry(self.caller_in(parts, token).as_deref(), true);
                let definitions = host.definitions();
                let held = held();
                if definitions.is_empty()
                    || definitions.iter().any(|each| held.permits_tool(each, ""))
                {
                    return None;
                }
                let mut needed: Vec<&str> = Vec::new();
                for scope in definitions.iter().flat_map(|each| &each.scopes) {
                    if !needed.contains(&scope.as_str()) {
                        needed.push(scope);
                    }
                }
                Some(needed.join(" "))
            }
            _ => None,
        }
    }

    /// The caller of a request of `parts` whose token is `token`: whom the host's hook names,
    /// else the token's subject.
    fn caller_in(&self, parts: &HttpRequestParts, token: &AccessToken) -> Option<String> {
        match &self.caller {
            Some(_) => self.caller_from(parts),
            None => Some(token.subject().to_owned()),
        }
    }
}

impl Scopes for McpServer {
    fn all(&self) -> Vec<String> {
        self.registry_scopes()
    }

    fn needed(
        &self,
        parts: &HttpRequestParts,
        token: &AccessToken,
        named: (&str, Option<&str>),
    ) -> Option<String> {
        self.scopes_needed_by(parts, token, named)
    }
}
