//! A tool's input schema written by hand, for a [`Tool`](crate::Tool) implemented without
//! `#[tool]` (a schema loaded from a file, or one that says more than a Rust type can: an
//! `if`/`then`/`else`, an `anyOf` of required fields): made ready once, and each call's
//! arguments read and held to the whole of it, with every fault and its path, as a
//! `#[tool]`'s arguments are.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::args::Prepared;
use crate::call::arguments::Arguments;
use crate::outcome::refusal::Refusal;

/// A hand-written input schema, made ready for reading arguments.
///
/// ```
/// use serde_json::{Value, json};
/// use tool_core::call::Arguments;
/// use tool_core::tool::InputSchema;
///
/// let schema = InputSchema::new(json!({
///     "type": "object",
///     "properties": {"phone": {"type": "string"}, "email": {"type": "string"}},
///     "anyOf": [{"required": ["phone"]}, {"required": ["email"]}],
/// }).as_object().unwrap().clone());
/// let read: Value = schema.read(&Arguments::from(json!({"email": "a@b.c"})), "contact").unwrap();
/// assert_eq!(read["email"], "a@b.c");
/// let refused = schema.read::<Value>(&Arguments::from(json!({})), "contact").unwrap_err();
/// assert_eq!(refused.code, "bad-arguments");
/// ```
#[derive(Debug)]
pub struct InputSchema {
    prepared: Prepared,
}

impl InputSchema {
    /// `schema`, made ready; what the registry cannot check in it is refused when the tool
    /// that advertises it joins a registry.
    pub fn new(schema: Map<String, Value>) -> Self {
        InputSchema {
            prepared: Prepared::new(schema),
        }
    }

    /// The schema, as written: what the tool's [`ToolDefinition`](crate::tool::ToolDefinition)
    /// advertises.
    pub fn schema(&self) -> &Map<String, Value> {
        self.prepared.schema()
    }

    /// The arguments of a call of `tool`, read as `T` once they fit the whole schema; a
    /// `bad-arguments` refusal listing every fault otherwise.
    pub fn read<T: DeserializeOwned>(
        &self,
        arguments: &Arguments,
        tool: &str,
    ) -> Result<T, Refusal> {
        crate::args::parse_checked(arguments.as_str(), &self.prepared, tool)
    }
}
