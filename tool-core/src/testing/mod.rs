//! Helpers for testing one's own tools (the `testing` feature, for a crate's
//! `[dev-dependencies]`): a call by name with JSON asserted in one line, on its output or on
//! the rows of its refusal, and snapshots of what each provider is shown of a registry.
//!
//! ```
//! use tool_core::{Refusal, registry, testing, tool};
//!
//! /// Writes a note.
//! #[tool(name = "note_write", destructive)]
//! async fn note_write(
//!     /// The note's text.
//!     #[schemars(length(min = 1))]
//!     text: String,
//! ) -> Result<String, Refusal> {
//!     Ok(format!("saved {} bytes", text.len()))
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! let registry = registry![NoteWrite];
//! testing::call(&registry, "note_write", serde_json::json!({"text": "hi"}))
//!     .await
//!     .assert_text("saved 2 bytes");
//! testing::call(&registry, "note_write", serde_json::json!({"text": "", "colour": 1}))
//!     .await
//!     .assert_refused("bad-arguments")
//!     .assert_faults(&[
//!         ("colour", "unknown field"),
//!         ("text", "expected text that is not empty, received \"\""),
//!     ]);
//! # });
//! ```
//!
//! A test that needs the wire, an MCP client talking to the registry's server, has
//! `tool_mcp::testing::connect` (tool-mcp's `testing` feature).

mod called;
mod snapshot;

pub use self::called::Called;
pub use self::snapshot::exports_text;
#[doc(hidden)]
pub use self::snapshot::snapshot_name;

use crate::call::arguments::IntoArguments;
use crate::call::context::Context;
use crate::call::tool_call::ToolCall;
use crate::registry::Registry;

/// Re-exported for [`assert_exports_snapshot!`](crate::assert_exports_snapshot), so a user's
/// crate names no snapshot crate of its own.
#[doc(hidden)]
pub use insta as __insta;

/// Calls the tool `name` of `registry` with `arguments` (a JSON value, or
/// [`Arguments::from_text`](crate::call::Arguments::from_text) for text a model sent, JSON or not), as a model would, with a
/// default [`Context`]; the answer comes back ready for assertions.
pub async fn call(registry: &Registry, name: &str, arguments: impl IntoArguments) -> Called {
    call_with(registry, &Context::default(), name, arguments).await
}

/// Like [`call`], with the context a host would give: a caller, a deadline, a cancellation
/// token, extensions.
pub async fn call_with(
    registry: &Registry,
    ctx: &Context,
    name: &str,
    arguments: impl IntoArguments,
) -> Called {
    let call = ToolCall::new("test", name, arguments);
    Called::new(registry.call(call, ctx).await)
}
