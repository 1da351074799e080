//! One call while it runs: running a tool so that the call always ends (`execute`: with its
//! outcome, or cancelled, timed out, or a panic caught), its deadline (`deadline`), a question
//! put to the person behind it ([`Answer`], from `Context::ask`), and a call run as a task
//! ([`TaskHandle`]). The registry decides which call runs; this runs it.

pub(crate) mod ask;
pub(crate) mod deadline;
pub(crate) mod execute;
pub(crate) mod guarded;
pub(crate) mod task;

pub use self::ask::{Answer, SINGLE_VALUE_FIELD, form_for};
pub use self::task::{TaskHandle, TaskStatus};
