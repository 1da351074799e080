//! A tool's output schema made ready to hold output made elsewhere to: a remote server's
//! `structuredContent`, before it is passed on as this registry's tool's.

use serde_json::{Map, Value};

use crate::args::Fault;
use crate::schema::as_meant::as_meant;
use crate::schema::patterns::Patterns;

/// A tool's output schema, its patterns compiled once ([`ToolDefinition::output_check`]), to
/// find where output made elsewhere departs from it. The output is held to its shape, as MCP's
/// SDKs hold a server's output in a client: a `format` is an annotation (its maker may write
/// one more loosely than this crate checks it: a date-time without an offset, an `int32` past
/// 32 bits), and a `pattern` this crate cannot read (an ECMAScript lookahead, or any without
/// the `patterns` feature) is not checked.
///
/// [`ToolDefinition::output_check`]: super::ToolDefinition::output_check
#[derive(Debug)]
pub struct OutputCheck {
    schema: Map<String, Value>,
    patterns: Patterns,
}

impl OutputCheck {
    /// The check of output against `schema`, read as its writer meant it (`as_meant`), as the
    /// exports show it to clients; a part with no reading (a `type` JSON Schema does not have)
    /// is left as written, the rest read as meant.
    pub(crate) fn new(schema: Map<String, Value>) -> OutputCheck {
        let mut meant = Value::Object(schema);
        let _no_reading = as_meant(&mut meant);
        let Value::Object(schema) = meant else {
            unreachable!("an object stays an object")
        };
        let patterns = Patterns::of(&schema);
        OutputCheck { schema, patterns }
    }

    /// Every way `output` departs from the schema; none when it holds.
    pub fn faults(&self, output: &Value) -> Vec<Fault> {
        crate::args::validate_shape(output, &self.schema, &self.patterns)
    }
}
