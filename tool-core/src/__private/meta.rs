//! What `#[tool(...)]` says about a tool besides its types ([`Meta`]), the rules its fields'
//! `#[schemars(...)]` declare ([`Declared`]), and the [`ToolDefinition`] made of them.

use std::time::Duration;

use serde_json::{Map, Value};

use crate::args::leniency::Leniency;
use crate::args::prepared::Prepared;
use crate::tool::definition::{Annotations, ToolDefinition};

/// What `#[tool(...)]` says about a tool, besides its types.
pub struct Meta {
    /// The tool's name.
    pub name: &'static str,
    /// Its title.
    pub title: Option<&'static str>,
    /// Its description: the `description` option, else the doc comment.
    pub description: &'static str,
    /// Its summary, advertised instead of the description when given.
    pub summary: Option<&'static str>,
    /// Its hints.
    pub annotations: Annotations,
    /// Its timeout in milliseconds.
    pub timeout_ms: Option<u64>,
    /// Whether it may have fields of no single type.
    pub allow_any: bool,
    /// Whether it forgives every slip a [`Leniency`](crate::Leniency) knows, whatever the
    /// registry says.
    pub lenient: bool,
    /// Whether a call may run as a task.
    pub task: bool,
    /// Whether, over MCP, a call runs only as a task.
    pub task_required: bool,
    /// Whether, over MCP, a call asks for its input before it runs as a task.
    pub task_after_input: bool,
    /// The rules its fields' `#[schemars(...)]` declare.
    pub rules: &'static [Declared],
}

/// A rule a field's `#[schemars(...)]` declares (`range(..)`, `length(..)`, `regex(..)`, a
/// format), which schemars writes into the field's schema only where the schema's type can
/// take it.
pub struct Declared {
    /// The field, by the name the arguments use.
    pub field: &'static str,
    /// The rule as written.
    pub rule: &'static str,
    /// The JSON Schema types it applies to, any of them.
    pub needs: &'static [&'static str],
    /// Whether it bounds the field's items (`inner(..)`).
    pub inner: bool,
}

impl Declared {
    /// Why the input schema does not carry this rule, if it does not: the field's schema is
    /// of no type the rule applies to, so schemars left the rule out.
    fn unapplied(&self, input_schema: &Map<String, Value>) -> Option<(String, String)> {
        let field = input_schema
            .get("properties")
            .and_then(|properties| properties.get(self.field))?;
        let (schema, path) = match self.inner {
            true => (field.get("items")?, format!("{}[]", self.field)),
            false => (field, self.field.to_owned()),
        };
        // A union's branches carry the rule too (a signed non-zero integer is the ranges
        // either side of zero, each bounded as the rule says).
        let branches = ["anyOf", "oneOf"]
            .into_iter()
            .filter_map(|union| schema.get(union)?.as_array())
            .flatten();
        let types: Vec<&str> = std::iter::once(schema)
            .chain(branches)
            .flat_map(|schema| match schema.get("type") {
                Some(Value::String(one)) => vec![one.as_str()],
                Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            })
            .collect();
        if types.iter().any(|each| self.needs.contains(each)) {
            return None;
        }
        let what = match (types.as_slice(), schema.get("$ref").and_then(Value::as_str)) {
            (_, Some(reference)) => format!(
                "a type of its own (`{}`), whose schema schemars does not bound here",
                reference.rsplit('/').next().unwrap_or(reference)
            ),
            ([], None) => "of no single type".to_owned(),
            (types, None) => format!("a {}", types.join(" or ")),
        };
        let instead = match self.rule {
            "range(..)" => "put it on a number, or for a length write `length(..)`",
            "length(..)" => "put it on text or a list, or for a number write `range(..)`",
            _ => "put it on text",
        };
        Some((
            path,
            format!(
                "`{}` cannot apply here: this field's schema is {what}, so schemars left the \
                 rule out and a model would never be told it; {instead}, or bound the type's \
                 own field, or check it in the handler",
                self.rule
            ),
        ))
    }
}

/// The definition of a tool.
pub fn definition(
    meta: &Meta,
    input: &Prepared,
    output_schema: Option<Map<String, Value>>,
) -> ToolDefinition {
    let input_schema = input.schema();
    let mut definition = ToolDefinition::new(
        meta.name,
        // A description the macro could not read whole (`#[doc = include_str!(..)]`) is
        // joined by the compiler, its blank edges left.
        meta.summary.unwrap_or(meta.description).trim(),
        input_schema.clone(),
    );
    definition.title = meta.title.map(str::to_owned);
    definition.output_schema = output_schema;
    definition.annotations = meta.annotations;
    if let Some(timeout) = meta.timeout_ms {
        definition = definition.with_timeout(Duration::from_millis(timeout));
    }
    if meta.allow_any {
        definition = definition.allowing_any();
    }
    if meta.lenient {
        definition = definition.with_leniency(Leniency::all());
    }
    if meta.task_required {
        definition = definition.requiring_task();
    } else if meta.task_after_input {
        definition = definition.as_task_after_input();
    } else if meta.task {
        definition = definition.as_task();
    }
    for rule in meta.rules {
        if let Some((path, problem)) = rule.unapplied(input_schema) {
            definition = definition.with_untrue_part(path, problem);
        }
    }
    for (path, problem) in input.unread_keys() {
        definition = definition.with_untrue_part(path.clone(), problem.clone());
    }
    definition
}

/// Splits a `Result` return type into its parts, so the macro can name `T` and `E` of any
/// `Result<T, E>` alias (`io::Result<T>`, `anyhow::Result<T>`, say).
pub trait ResultParts {
    /// The output type.
    type Ok;
    /// The error type.
    type Err;
}

impl<T, E> ResultParts for Result<T, E> {
    type Ok = T;
    type Err = E;
}
