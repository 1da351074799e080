//! Toolkits: named groups of tools that join a registry together.
//!
//! `#[toolkit]` on an impl block makes its type a [`Toolkit`]: its `#[tool]` methods are the
//! toolkit's tools, and those taking `&self` share the value's state. A single `#[tool]` fn is
//! a toolkit too, of one tool named like it, so `registry![...]` takes both. Grants may name a
//! whole toolkit.
//!
//! Calls run concurrently and share the toolkit, so state that changes lives behind a lock. A
//! tool that panics while holding a `std::sync::Mutex` poisons it: the registry answers that
//! call with `internal`, but later calls that `lock().unwrap()` panic too. Recover the guard
//! with `lock().unwrap_or_else(PoisonError::into_inner)` where the data stays valid.
//!
//! The tool names a toolkit lists are constants, so `registry![...]` checks at compile time
//! that no two tools of a registry share a name.

use std::sync::Arc;

use crate::tool::Tool;

/// A named group of tools.
///
/// ```
/// use tool_core::{Refusal, tool, toolkit};
/// use tool_core::tool::Toolkit;
///
/// struct Notes {
///     prefix: String,
/// }
///
/// #[toolkit(name = "note")]
/// impl Notes {
///     /// Reads a note.
///     #[tool(readonly)]
///     async fn note_read(&self, id: u64) -> String {
///         format!("{}{id}", self.prefix)
///     }
///
///     /// Counts notes.
///     #[tool(readonly)]
///     async fn note_count() -> u64 {
///         0
///     }
/// }
///
/// assert_eq!(Notes::NAME, "note");
/// assert_eq!(Notes::TOOL_NAMES, ["note_read", "note_count"]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is neither a tool nor a toolkit",
    label = "not a tool or a toolkit",
    note = "pass the struct `#[tool]` makes from a fn (`NoteWrite` for `async fn note_write`), or a value of a type whose impl block has `#[toolkit]` (`Notes::default()`)",
    note = "a remote MCP server's tools (`tool_mcp::RemoteToolkit`) join with `remote.add_to(Registry::builder())`"
)]
pub trait Toolkit: Send + Sync + 'static {
    /// The toolkit's name: lower snake case, like tool names.
    const NAME: &'static str;
    /// The names of its tools, in order.
    const TOOL_NAMES: &'static [&'static str];

    /// Its tools, in the order of [`Toolkit::TOOL_NAMES`], sharing `self`.
    fn into_tools(self) -> Vec<Arc<dyn Tool>>;
}
