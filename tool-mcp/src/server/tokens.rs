//! What a request's bearer token decides (the `oauth` feature): the grant of its scopes, which
//! narrows the host's, and, before rmcp reads a request, whether it needs a scope the token
//! lacks (a call of such a tool, or a list that would show nothing without one), which the
//! token check answers 403.

use rmcp::service::{RequestContext, RoleServer};
use tool_core::Grant;

use super::McpServer;
use crate::HttpRequestParts;
use crate::auth::{AccessToken, BearerAuth, Peek, token_in};

impl McpServer {
    /// Checks every HTTP request's OAuth 2.1 bearer token before anything else runs (see
    /// [`BearerAuth`] and the [`auth`](crate::auth) module): a request without a valid one is
    /// answered 401, a call of a tool whose scopes (`#[tool(scopes(..))]`) its token lacks is
    /// answered 403 naming them, the token's subject is each call's caller (unless
    /// [`McpServer::with_caller`] names another from the request, which holds the
    /// [`AccessToken`] in its extensions), its scopes narrow the caller's grant, and the token
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
            Some(token) => Grant::scopes(token.scopes().iter().map(String::as_str)),
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

    /// The scopes (space-separated) this request needs and its token lacks, if any: a
    /// `tools/call` of a tool the host grants whose scopes the token does not all hold, or a
    /// `tools/list` that the host's grant would fill and the token's scopes would leave empty.
    pub(crate) fn scopes_needed(
        &self,
        parts: &HttpRequestParts,
        token: &AccessToken,
        body: &[u8],
    ) -> Option<String> {
        let peek: Peek<'_> = serde_json::from_slice(body).ok()?;
        let method = peek.method?;
        let caller = self.caller_from(parts);
        let host = self.host_registry(caller.as_deref(), true);
        let held = Grant::scopes(token.scopes().iter().map(String::as_str));
        match method.as_ref() {
            "tools/call" => {
                let name = peek.params?.name?;
                let definitions = host.definitions();
                let definition = definitions.iter().find(|each| each.name == name)?;
                let missing = held.missing_scopes(definition);
                (!missing.is_empty()).then(|| definition.scopes.join(" "))
            }
            "tools/list" => {
                let definitions = host.definitions();
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
}
