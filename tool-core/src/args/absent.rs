//! The nulls that stand for absent fields, taken out of arguments a tool forwards to whoever
//! checks them (a remote server's tool).
//!
//! A model held to OpenAI's strict mode sends `null` for each optional field it leaves out,
//! since each is exported required and nullable. This registry's own tools read such a null
//! as the field left out; a remote server may refuse it (a Python server's `limit: int = 10`
//! takes no `null`), so it is sent the arguments as this registry's tools read them. The
//! checker finds those nulls as it does for a tool's own arguments; its faults are left to the
//! server, which checks the arguments by the schema it wrote.

use serde_json::{Map, Value};

use super::checker::{self, Checker};
use super::path::Path;
use super::prepared::View;
use super::tree::Node;
use super::written;

/// `arguments` without the nulls that `schema` reads as absent fields (a field whose own
/// schema takes no `null`), or `None` when there are none.
pub(super) fn taken_out(arguments: &str, schema: &Map<String, Value>) -> Option<String> {
    if !arguments.contains("null") {
        return None;
    }
    let mut value = Node::parse(arguments).ok()?;
    let values = checker::values_for_steps(arguments.len(), &value);
    let mut checker = Checker::new(View::unprepared(schema), true, values);
    checker.check_object_schema(&mut value, schema, &mut Path::default());
    checker.rewrote.then(|| written::text(&value, arguments))
}
