//! The way out of a call, the ground floor every other module stands on: what a call ends
//! with. A [`Refusal`] (a code, a message a model reads, advice rows) or an [`Output`] (text,
//! structured JSON, content blocks), and the [`ToolResult`] that carries one of them with the
//! call's id and name; how a handler's own return becomes one ([`IntoOutput`],
//! [`IntoRefusal`]); and the few helpers every refusal uses (a near name suggested, a long
//! name shortened, details a model is not shown sent to the host's log). Nothing here knows
//! of calls, tools or registries.

pub(crate) mod content;
pub(crate) mod host_log;
pub(crate) mod output;
pub(crate) mod refusal;
pub(crate) mod result;
pub(crate) mod shorten;
pub(crate) mod suggest;

pub use self::content::{Content, ResourceContents};
pub use self::output::{IntoOutput, IntoRefusal, Output};
pub use self::refusal::{Line, Refusal, code};
pub use self::result::ToolResult;
pub use self::shorten::{cut_after, shortened};
