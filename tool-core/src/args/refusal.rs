//! The refusal of a call whose arguments break the tool's schema: one line for each fault, at
//! its path, and one naming the fields the tool takes, as a model reads them to try again.

use serde_json::{Map, Value};

use super::{Fault, shown};
use crate::outcome::refusal::{Line, Refusal};
use crate::schema::walk::Lookup;

/// The refusal of a call of `tool`, whose input `schema` its arguments break with `faults`.
/// Faults the checker counted and did not tell count here, and are told as one at the end.
pub(super) fn refusal(tool: &str, schema: &Map<String, Value>, mut faults: Vec<Fault>) -> Refusal {
    let count = faults.len();
    super::untold::untold(&mut faults);
    let mut message = String::with_capacity(48 + tool.len());
    message.push_str(itoa::Buffer::new().format(count));
    message.push_str(if count == 1 { " fault" } else { " faults" });
    message.push_str(" in the arguments of ");
    message.push_str(tool);
    message.push_str("; nothing ran");
    let mut refusal = Refusal::bad_arguments(message);
    // Collected in place: a fault and a line are the same size, so the faults' buffer holds
    // the lines, and has room for the fields' line after them unless it was full.
    refusal.lines = faults
        .into_iter()
        .map(|fault| Line {
            label: "fault".into(),
            cells: vec![shown(fault.path), fault.problem],
        })
        .collect();
    refusal.lines.reserve(1);
    let fields = match schema.lookup("properties").and_then(Value::as_object) {
        Some(fields) => fields.keys().cloned().collect(),
        None => variants_fields(schema),
    };
    refusal.lines.push(Line {
        label: "fields".into(),
        cells: fields,
    });
    refusal.made_by_parser()
}

/// The fields of an input that is one of several objects (an enum, or a struct that flattens
/// one): each variant's, in order, once.
fn variants_fields(schema: &Map<String, Value>) -> Vec<String> {
    let mut fields: Vec<String> = Vec::new();
    let variants = ["oneOf", "anyOf"]
        .into_iter()
        .filter_map(|union| schema.lookup(union));
    for variant in variants.filter_map(Value::as_array).flatten() {
        let names = variant.get("properties").and_then(Value::as_object);
        for name in names.into_iter().flat_map(|names| names.keys()) {
            if !fields.contains(name) {
                fields.push(name.clone());
            }
        }
    }
    fields
}
