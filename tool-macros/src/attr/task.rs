//! The `task` option of `#[tool]`: written alone, a call may run as a task; `task =
//! "required"`, over MCP it runs only as one; `task = "after_input"`, over MCP it asks for its
//! input first. A value of any other form is an error saying the three.

use syn::{LitStr, Meta};

use super::syntax::string;
use crate::error::at;

/// The `task` option: alone, a call may run as a task; `task = "required"`, over MCP a call
/// runs only as one (a client without the tasks extension is refused); `task = "after_input"`,
/// over MCP a call asks for its input in `input_required` rounds first, then runs as a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskAttr {
    /// `task`, or `task = "optional"`.
    Optional,
    /// `task = "required"`.
    Required,
    /// `task = "after_input"`.
    AfterInput,
}

const TASK_HELP: &str = "`task` is written alone (a call may run as a task), `task = \"required\"` \
                         (over MCP a call runs only as a task) or `task = \"after_input\"` (over \
                         MCP a call asks for its input first, then runs as a task)";

impl TaskAttr {
    /// Reads `task` or `task = "..."`.
    pub fn from_meta(item: &Meta) -> crate::error::Result<Self> {
        let value = match item {
            Meta::Path(_) => return Ok(TaskAttr::Optional),
            Meta::NameValue(name_value) => &name_value.value,
            Meta::List(_) => {
                return Err(at(item, TASK_HELP));
            }
        };
        match string(value).map(LitStr::value).as_deref() {
            Some("required") => Ok(TaskAttr::Required),
            Some("optional") => Ok(TaskAttr::Optional),
            Some("after_input") => Ok(TaskAttr::AfterInput),
            _ => Err(at(value, TASK_HELP)),
        }
    }
}
