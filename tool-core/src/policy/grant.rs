//! Grants: which tools a caller may see and run.
//!
//! A [`Grant`] names tools, whole toolkits and tags (every tool that has the tag). A registry scoped to a grant
//! ([`Registry::scoped`](crate::Registry::scoped)) lists only what the grant names and refuses
//! everything else with `not-permitted`, before the arguments are read, before any approver is
//! asked and before the tool (or any transport behind it) is touched. Its refusals never name a
//! tool outside the grant.
//!
//! A grant is a set of names (and, for [`Grant::all`] and [`Grant::read_only`], a rule over
//! every tool), nothing more: who gets which grant is the host's decision. A grant names what
//! it lets through, so the empty grant, [`Grant::new`], lets nothing through: what a host
//! forgets to grant stays closed.
//!
//! [`Grant::scopes`] is the one grant of another kind: it lets through the tools whose OAuth
//! scopes (`#[tool(scopes(...))]`) an access token holds, and is meant to narrow a host's grant
//! (scoping a registry twice lets through what both grants do), as an MCP server checking
//! tokens does.

use std::collections::HashSet;
use std::sync::Arc;

use crate::tool::definition::ToolDefinition;

/// The tools and toolkits a caller may use.
///
/// ```
/// use tool_core::Grant;
///
/// let grant = Grant::new().tool("web_search").toolkit("note");
/// assert!(grant.permits("web_search", "search"));
/// assert!(grant.permits("note_read", "note"));
/// assert!(!grant.permits("file_delete", "files"));
///
/// let readers = Grant::new().tag("read");
/// assert!(readers.permits_tagged("note_read", "note", &["notes".into(), "read".into()]));
/// assert!(!readers.permits_tagged("note_write", "note", &["notes".into(), "write".into()]));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grant {
    tools: HashSet<Arc<str>>,
    toolkits: HashSet<Arc<str>>,
    tags: HashSet<Arc<str>>,
    all: bool,
    read_only: bool,
    /// For [`Grant::scopes`]: the scopes held, shared by its clones (a server scopes each of
    /// a caller's requests by the same grant).
    held: Option<Arc<HashSet<Arc<str>>>>,
}

impl Grant {
    /// A grant of nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// A grant of every tool, now or once added.
    ///
    /// ```
    /// use tool_core::Grant;
    ///
    /// assert!(Grant::all().permits("file_delete", "files"));
    /// ```
    pub fn all() -> Self {
        Grant {
            all: true,
            ..Self::default()
        }
    }

    /// A grant of every tool marked `readonly` (`#[tool(readonly)]`, MCP's `readOnlyHint`),
    /// now or once added, and of what else it is given. A remote server's tools are read-only
    /// when that server says so.
    pub fn read_only() -> Self {
        Grant {
            read_only: true,
            ..Self::default()
        }
    }

    /// A grant of every tool whose OAuth scopes (`#[tool(scopes("notes:write"))]`) are all
    /// among `held` (the scopes of a caller's access token), and of every tool that needs none;
    /// nothing else it is given widens it. Scope a registry that a host's grant already scoped
    /// with it, and a caller sees and runs what both let through.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_core::Grant;
    /// use tool_core::tool::ToolDefinition;
    ///
    /// let schema = json!({"type": "object"});
    /// let write = ToolDefinition::new("note_write", "Writes a note.", schema.as_object().unwrap().clone())
    ///     .with_scopes(["notes:write"]);
    /// assert!(Grant::scopes(["notes:read", "notes:write"]).permits_tool(&write, "note"));
    /// assert!(!Grant::scopes(["notes:read"]).permits_tool(&write, "note"));
    /// ```
    pub fn scopes<I, S>(held: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<Arc<str>>,
    {
        Grant {
            held: Some(Arc::new(held.into_iter().map(Into::into).collect())),
            ..Self::default()
        }
    }

    /// The scopes of `definition` this grant does not hold, if it is a [`Grant::scopes`]
    /// (empty for any other grant): what a caller's token lacks to reach the tool.
    pub fn missing_scopes<'a>(&self, definition: &'a ToolDefinition) -> Vec<&'a str> {
        match &self.held {
            Some(held) => (definition.scopes.iter())
                .filter(|scope| !held.contains(scope.as_str()))
                .map(String::as_str)
                .collect(),
            None => Vec::new(),
        }
    }

    /// Also grants the tool of this name.
    pub fn tool(mut self, name: impl Into<Arc<str>>) -> Self {
        self.tools.insert(name.into());
        self
    }

    /// Also grants every tool of the toolkit of this name.
    pub fn toolkit(mut self, name: impl Into<Arc<str>>) -> Self {
        self.toolkits.insert(name.into());
        self
    }

    /// Also grants every tool that has this tag (`#[tool(tags("read"))]`), now or once added.
    pub fn tag(mut self, tag: impl Into<Arc<str>>) -> Self {
        self.tags.insert(tag.into());
        self
    }

    /// Grants tools or toolkits by name: each name grants the tool or the toolkit it names.
    pub fn names<I, S>(names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<Arc<str>>,
    {
        let mut grant = Grant::new();
        for name in names {
            let name = name.into();
            grant.tools.insert(name.clone());
            grant.toolkits.insert(name);
        }
        grant
    }

    /// Whether the tool `tool` of the toolkit `toolkit` is granted by name, or by
    /// [`Grant::all`] (a grant by tag needs the tool's tags: see [`Grant::permits_tagged`]; one
    /// of read-only tools or of scopes, its definition: see [`Grant::permits_tool`]).
    pub fn permits(&self, tool: &str, toolkit: &str) -> bool {
        // A grant of scopes decides by a tool's definition alone.
        if self.held.is_some() {
            return false;
        }
        self.all || self.tools.contains(tool) || self.toolkits.contains(toolkit)
    }

    /// Whether the tool `tool` of the toolkit `toolkit`, which has the tags `tags`, is
    /// granted: by its name, its toolkit's, or one of its tags.
    pub fn permits_tagged(&self, tool: &str, toolkit: &str, tags: &[String]) -> bool {
        self.permits(tool, toolkit) || tags.iter().any(|tag| self.tags.contains(tag.as_str()))
    }

    /// Whether the tool of this definition, in the toolkit `toolkit`, is granted: by its name,
    /// its toolkit's, one of its tags, or its being read-only; for a [`Grant::scopes`], by its
    /// scopes being held.
    pub fn permits_tool(&self, definition: &ToolDefinition, toolkit: &str) -> bool {
        if self.held.is_some() {
            return self.missing_scopes(definition).is_empty();
        }
        (self.read_only && definition.annotations.read_only)
            || self.permits_tagged(&definition.name, toolkit, &definition.tags)
    }
}
