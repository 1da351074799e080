//! Speaking each provider's dialect: tool definitions out, calls in, results out.
//!
//! One module per host: [`mcp`] (`tools/list` entries, `tools/call` params, `CallToolResult`),
//! [`openai`] (function tools, `tool_calls` entries, `tool` messages), [`anthropic`] (tools,
//! `tool_use` blocks, `tool_result` blocks) and [`gemini`] (function declarations,
//! `functionCall` and `functionResponse` parts). Each export is a function of a tool's
//! [`ToolDefinition`]; each reader is total (any JSON gives a call or a `bad-call` refusal)
//! and writes the arguments as text without copying or recursing into them, so a value of any
//! depth is safe to read (and refused when the call runs if it nests deeper than
//! [`MAX_ARGUMENT_DEPTH`](crate::args::MAX_ARGUMENT_DEPTH));
//! each writer puts a refusal in its text form, so the model sees the code, the fault paths and
//! the `fields` row.
//!
//! Every export inlines the `$ref`s schemars writes for nested types. A recursive type cannot
//! be inlined: MCP, OpenAI (not strict) and Anthropic keep a `$ref` to it in `$defs`, and so
//! does Gemini's JSON Schema (its OpenAPI subset takes no `$ref`). A union of objects at the
//! top of an input is shown as one object (`flat_root.rs`). [`check`] finds everything a
//! provider would refuse, so a registry refuses it when it is built.

mod all_of;
pub mod anthropic;
mod defs_only;
pub(crate) mod describe;
pub(crate) mod dialect;
mod flat_root;
mod inline;
// Read by the adapters (`crate::adapters`) only.
#[cfg(any(test, feature = "rig", feature = "async-openai", feature = "genai"))]
pub(crate) mod function;
pub mod gemini;
mod gemini_schema;
pub mod mcp;
mod mcp_meta;
mod mcp_revision;
pub mod openai;
mod strict;
mod unfit;

use std::fmt;

use serde_json::{Map, Value};

use self::inline::Recursion;
use crate::outcome::refusal::{Refusal, code};
use crate::tool::definition::ToolDefinition;

/// A host whose dialect the registry speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// The Model Context Protocol.
    Mcp,
    /// OpenAI's chat completions function tools.
    OpenAi,
    /// Anthropic's Messages API tools.
    Anthropic,
    /// Google Gemini's function declarations.
    Gemini,
}

impl Provider {
    /// Every provider.
    pub const ALL: [Provider; 4] = [
        Provider::Mcp,
        Provider::OpenAi,
        Provider::Anthropic,
        Provider::Gemini,
    ];

    /// The tool-name rule of this provider, as text.
    fn name_rule(self) -> &'static str {
        match self {
            Provider::Mcp => "1 to 128 of A-Z, a-z, 0-9, `_`, `-` and `.`",
            Provider::OpenAi | Provider::Anthropic => "1 to 64 of A-Z, a-z, 0-9, `_` and `-`",
            Provider::Gemini => {
                "1 to 64 of A-Z, a-z, 0-9, `_`, `.`, `:` and `-`, starting with a letter or `_`"
            }
        }
    }

    fn accepts_name(self, name: &str) -> bool {
        let (max, extra): (usize, &[char]) = match self {
            Provider::Mcp => (128, &['_', '-', '.']),
            Provider::OpenAi | Provider::Anthropic => (64, &['_', '-']),
            Provider::Gemini => (64, &['_', '.', ':', '-']),
        };
        let first_ok = match self {
            Provider::Gemini => name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_'),
            _ => true,
        };
        !name.is_empty()
            && name.len() <= max
            && first_ok
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || extra.contains(&c))
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Provider::Mcp => "MCP",
            Provider::OpenAi => "OpenAI",
            Provider::Anthropic => "Anthropic",
            Provider::Gemini => "Gemini",
        })
    }
}

/// A tool that a provider would refuse, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{tool}`{}: {path}: {problem}", provider.map(|p| format!(" cannot be offered to {p}")).unwrap_or_default())]
pub struct ExportError {
    /// The tool's name.
    pub tool: String,
    /// The provider that would refuse it; `None` for what every provider would.
    pub provider: Option<Provider>,
    /// The field at fault, as a path: a field of the tool's input (or output) schema
    /// (`items[].children`, `(arguments)` for the schema's root, `$defs.Name` for a type
    /// defined as itself); `(name)` for a name the provider (or an agent framework) refuses;
    /// `(tags)` or `(scopes)[1]` for a tag or scope; `(icons)[0]` or `(_meta).key` for an MCP
    /// icon or `_meta` entry; `(export).function.strict` (a field of the provider's export, as
    /// in `(export).inputSchema`) for an export an [adapter](crate::adapters) could not read
    /// back, which is a bug of tool-core.
    pub path: String,
    /// What is wrong, and what to do.
    pub problem: String,
}

impl ExportError {
    fn new(
        definition: &ToolDefinition,
        provider: Option<Provider>,
        error: dialect::SchemaError,
    ) -> Self {
        ExportError {
            tool: definition.name.clone(),
            provider,
            path: error.path,
            problem: error.problem,
        }
    }
}

/// What is wrong with an OAuth scope, if anything: RFC 6749's scope token (section 3.3) is one
/// or more printable ASCII characters other than space, `"` and `\`. `#[tool(scopes(..))]`
/// checks the same when the crate is built; this catches definitions written by hand.
fn scope_problem(scope: &str) -> Option<String> {
    if scope.is_empty() {
        return Some("a scope cannot be empty".to_owned());
    }
    let bad = scope
        .chars()
        .find(|&c| !(c.is_ascii_graphic() && c != '"' && c != '\\'))?;
    Some(format!(
        "a scope is printable ASCII without spaces, `\"` or `\\` (RFC 6749, section 3.3), \
         and {bad:?} is not; give two scopes as two strings"
    ))
}

/// Everything in `definitions` that `providers` would refuse, every field of no single type
/// (such as a `serde_json::Value`) in a tool that has not opted in with `#[tool(allow_any)]`,
/// every type defined as itself (`struct A(Box<A>)`), which no call could ever fill, every
/// union one of whose variants reads the same value as the union again (an untagged
/// `Again(Box<Nest>)`), which serde reads without end on a value its other variants refuse,
/// and every
/// schema keyword, format or pattern the registry could not enforce, which would tell a model
/// a rule that nobody checks, every rule a `#[tool]`'s fields declare that their schema could
/// not take (`range(..)` on a type of the user's that schemars writes as text), every tag
/// a definition holds twice, and every scope that is not an RFC 6749 scope token or is held
/// twice.
pub fn check(definitions: &[ToolDefinition], providers: &[Provider]) -> Vec<ExportError> {
    let mut errors = Vec::new();
    for definition in definitions {
        // `with_tags` and `#[tool(tags(..))]` keep a tag once, but `tags` is a public field;
        // compared as written, as a grant compares them.
        for (index, tag) in definition.tags.iter().enumerate() {
            if definition.tags[..index].contains(tag) {
                errors.push(ExportError {
                    tool: definition.name.clone(),
                    provider: None,
                    path: "(tags)".to_owned(),
                    problem: format!("the tag {tag:?} is given twice; keep one"),
                });
            }
        }
        for (index, scope) in definition.scopes.iter().enumerate() {
            let problem = match scope_problem(scope) {
                Some(problem) => problem,
                None if definition.scopes[..index].contains(scope) => {
                    format!("the scope {scope:?} is given twice; keep one")
                }
                None => continue,
            };
            errors.push(ExportError {
                tool: definition.name.clone(),
                provider: None,
                path: format!("(scopes)[{index}]"),
                problem,
            });
        }
        if !definition.allows_any() {
            for path in unfit::untyped_fields(&definition.input_schema) {
                errors.push(ExportError {
                    tool: definition.name.clone(),
                    provider: None,
                    path,
                    problem: "this field has no single type (a `serde_json::Value`?), so a \
                              model is told nothing of what to send; give it a concrete type, \
                              or mark the tool `#[tool(allow_any)]`"
                        .to_owned(),
                });
            }
        }
        for (path, problem) in definition.untrue_parts() {
            errors.push(ExportError {
                tool: definition.name.clone(),
                provider: None,
                path: path.clone(),
                problem: problem.clone(),
            });
        }
        if let (false, Some(problem)) = (
            definition.is_checked_elsewhere(),
            unfit::not_an_object(&definition.input_schema),
        ) {
            errors.push(ExportError {
                tool: definition.name.clone(),
                provider: None,
                path: "(arguments)".to_owned(),
                problem,
            });
            // Each provider's export would say the same again, in its words.
            continue;
        }
        if !definition.is_checked_elsewhere() {
            let unsendable = crate::schema::headers::unsendable(&definition.input_schema);
            for (path, problem) in unsendable
                .into_iter()
                .chain(unfit::unenforceable(&definition.input_schema))
            {
                errors.push(ExportError {
                    tool: definition.name.clone(),
                    provider: None,
                    path,
                    problem,
                });
            }
        }
        for name in crate::schema::recursion::endless_definitions(&definition.input_schema) {
            errors.push(ExportError {
                tool: definition.name.clone(),
                provider: None,
                path: format!("$defs.{name}"),
                problem: format!(
                    "`{name}` is defined as itself, so no value fits it and reading one would \
                     never end; give it a base case, such as an `Option` or a `Vec`"
                ),
            });
        }
        // Whoever checks a remote tool's arguments reads them without serde.
        let self_variants = match definition.is_checked_elsewhere() {
            true => Vec::new(),
            false => crate::schema::recursion::self_variants(&definition.input_schema),
        };
        for name in self_variants {
            errors.push(ExportError {
                tool: definition.name.clone(),
                provider: None,
                path: format!("$defs.{name}"),
                problem: format!(
                    "`{name}` holds `{name}` again with no required field in between \
                     (through an enum's variant, a `Box`, an `Option`, a newtype or a \
                     flattened field): given a value none of its other variants takes, serde \
                     reads `{name}` from it again and again until the stack overflows and the \
                     process aborts; give the variant or field that holds it a required field \
                     of its own (`Wrapped {{ inner: Box<{name}> }}`), or remove it"
                ),
            });
        }
        for &provider in providers {
            if let Err(error) = export(definition, provider) {
                errors.push(error);
            }
        }
    }
    errors
}

/// `definition` in `provider`'s tool shape.
pub fn export(definition: &ToolDefinition, provider: Provider) -> Result<Value, ExportError> {
    if !provider.accepts_name(&definition.name) {
        return Err(ExportError {
            tool: definition.name.clone(),
            provider: Some(provider),
            path: "(name)".to_owned(),
            problem: format!(
                "{} accepts names of {}: rename the tool, or leave {} out of the registry's \
                 providers (`Registry::builder().providers([..])`)",
                provider,
                provider.name_rule(),
                provider
            ),
        });
    }
    match provider {
        Provider::Mcp => mcp::tool(definition),
        Provider::OpenAi => openai::tool(definition),
        Provider::Anthropic => anthropic::tool(definition),
        Provider::Gemini => gemini::tool(definition),
    }
}

/// Why a remote tool's arguments, as its server lists them (`schema`, read as meant), are no
/// object of fields, if they are not: MCP is offered them as written, the other providers
/// cannot be.
fn no_object_elsewhere(definition: &ToolDefinition, schema: &Map<String, Value>) -> Option<String> {
    match definition.is_checked_elsewhere() {
        true => unfit::not_an_object_elsewhere(schema),
        false => None,
    }
}

/// The input schema with nested types inlined, and a union of objects at its top written as
/// one object ([`flat_root`]).
fn inlined(
    definition: &ToolDefinition,
    provider: Provider,
    recursion: Recursion,
) -> Result<Map<String, Value>, ExportError> {
    let schema = inline::exportable(&definition.input_schema, recursion)
        .map_err(|error| ExportError::new(definition, Some(provider), error))?;
    if provider != Provider::Mcp
        && let Some(why) = no_object_elsewhere(definition, &schema)
    {
        let problem = format!(
            "{provider} takes an object of fields for a tool's arguments, and the schema this \
             tool's server lists for them {why}; leave the tool out of the registry \
             (`RemoteToolkit::without`), or build the registry for MCP alone \
             (`.providers([Provider::Mcp])`)"
        );
        let path = "(arguments)".to_owned();
        let error = dialect::SchemaError { path, problem };
        return Err(ExportError::new(definition, Some(provider), error));
    }
    // Each host takes one plain object at the top of a tool's parameters: OpenAI and Anthropic
    // refuse the whole request for a union there, Gemini is shown nothing to send, and Claude's
    // clients send MCP tools on to Anthropic. A schema of the user's own that MCP should see
    // as written says so (`ToolDefinition::as_written`), and is not read here; a remote tool's
    // is its server's, passed on to MCP as it is.
    let cause = match flat_root::flat_root(&schema) {
        Some(Ok(flat)) => return Ok(flat),
        Some(Err(cause)) => cause,
        None if schema.contains_key("allOf") => match all_of::one_object(&schema) {
            Some(object) => return Ok(object),
            None => "it is a rule across fields".to_owned(),
        },
        None => return Ok(typed_as_object(schema, provider)),
    };
    if provider == Provider::Mcp && definition.is_checked_elsewhere() {
        return Ok(schema);
    }
    let union = (crate::schema::keywords::UNIONS.into_iter())
        .find(|union| schema.contains_key(*union))
        .unwrap_or("allOf");
    let problem = format!(
        "the input's schema has `{union}` at the top, and {provider} takes one plain object \
         there (Anthropic refuses the whole request for a union there, and Claude's clients \
         send MCP tools on to it), but it cannot be written as one ({cause}); take the union \
         as a parameter of its own (`action: Action`), or hold the rule in the handler; a \
         schema of your own may be published to MCP as written \
         (`ToolDefinition::as_written`) and its other providers left out \
         (`.providers([Provider::Mcp])`)"
    );
    let path = "(arguments)".to_owned();
    let error = dialect::SchemaError { path, problem };
    Err(ExportError::new(definition, Some(provider), error))
}

/// `schema` with `type: "object"` at its root where it names no type (a remote server's `{}`,
/// or `properties` alone), for every provider but MCP, which is shown what the server wrote:
/// each takes an object of fields, and refuses the whole request for a root of no type
/// (Anthropic's `input_schema.type` is required; OpenAI's parameters must be an object).
/// A call's arguments are an object whatever the schema says, so this admits the same calls.
fn typed_as_object(mut schema: Map<String, Value>, provider: Provider) -> Map<String, Value> {
    if provider != Provider::Mcp && !schema.contains_key("type") {
        schema.insert("type".into(), "object".into());
    }
    schema
}

/// A reader's refusal for JSON that is not the call shape it expects.
fn bad_call(shape: &str, expected: &str) -> Refusal {
    Refusal::new(code::BAD_CALL, format!("this is not {shape}")).line("expected", [expected])
}

/// A JSON string field of an object.
fn string_field<'a>(object: &'a Value, key: &str) -> Option<&'a str> {
    object.get(key).and_then(Value::as_str)
}
