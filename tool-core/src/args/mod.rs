//! Argument parsing: from a call's JSON text to a tool's typed input, or to a refusal that
//! names every fault by its path.
//!
//! Good arguments take one pass: `serde_json` deserializes the text straight into the input
//! type, with a thin wrapper that refuses unknown top-level fields. Only when that fails does
//! the slow path run: the text is parsed into a light JSON tree (`tree::Node`, which borrows
//! its strings and keeps a key sent twice), checked against the input's JSON Schema to find
//! *every* fault (unknown, missing and repeated fields, wrong values, each with its path, such
//! as `items[2].qty`), and, when the only trouble was a `null` for an absent field or a `3.0`
//! for an integer, deserialized again with the nulls out and the integers written (`written`).
//!
//! The slow path is bounded whatever arrives: nesting stops at serde_json's 128 levels, the
//! checker gives up (and refuses with serde's first error) past a number of steps proportional
//! to the arguments' size or past a depth that only a schema referring to itself without end
//! can reach, descriptions of recursive types stop at the recursion, and the faults told stop
//! at 1 MiB of paths and problems, the rest counted. So no input can make it overflow the stack,
//! take time exponential in its nesting, or answer with a refusal far larger than itself.
//!
//! This module knows nothing of tools or registries: it turns text into a value or a refusal.

mod absent;
mod adjust;
mod as_sent;
mod checker;
mod conditions;
mod guard;
mod in_part;
mod json_text;
mod key_fault;
mod key_ranges;
mod keyed;
mod leads;
mod least;
pub(crate) mod leniency;
mod named_keys;
mod numbers;
mod path;
mod plan;
pub(crate) mod prepared;
mod refusal;
mod required;
mod serde_faults;
mod top_level;
pub(crate) mod tree;
mod trial;
mod unions;
mod unknown_variant;
mod untold;
mod written;

pub(crate) use self::adjust::{Adjustment, adjust};
pub use self::leniency::Leniency;
#[doc(hidden)]
pub use self::prepared::Prepared;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use self::checker::{Checker, received};
pub(crate) use self::checker::{validate, validate_shape};
use self::guard::{Findings, Guard};
use self::path::Path;
pub(crate) use self::path::shown;
use self::plan::Plan;
use self::prepared::View;
use self::refusal::refusal;
use self::top_level::TopLevel;
use crate::args::tree::Node;
use crate::outcome::refusal::Refusal;

type JsonDeserializer<'a> = serde_json::Deserializer<serde_json::de::StrRead<'a>>;

/// The deepest nesting of arrays and objects a call's arguments may have: 128, serde_json's
/// own recursion limit, which is not configurable. Deeper arguments are refused with
/// `bad-arguments` before any of them is read into a value, so no walk over arguments (serde's,
/// or this crate's) can overflow the stack.
pub const MAX_ARGUMENT_DEPTH: usize = 128;

/// One thing wrong with a call's arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Where: `text`, `filter.since`, `items[2].qty`; empty for the arguments as a whole.
    pub path: String,
    /// What is wrong: `missing`, `unknown field`, `expected u32, received "x"`.
    pub problem: String,
}

/// A fault at `path` saying `problem`, for the tests of the modules here.
#[cfg(test)]
fn fault(path: &str, problem: &str) -> Fault {
    Fault {
        path: path.to_owned(),
        problem: problem.to_owned(),
    }
}

/// Parses `arguments` into `T`, whose JSON Schema is `schema`; on failure, a `bad-arguments`
/// refusal listing every fault found, then a `fields` line naming the fields `tool` takes.
pub fn parse<T: DeserializeOwned>(
    arguments: &str,
    schema: &Prepared,
    tool: &str,
) -> Result<T, Refusal> {
    // One `parse_with` for both kinds of schema: each is compiled once for every input type.
    parse_with(arguments, schema.view(), tool, |text, guard| {
        read_all(text, |de| match guard {
            Some((plan, findings)) => T::deserialize(Guard::root(de, plan, findings)),
            None => T::deserialize(TopLevel::of(de, schema.names())),
        })
    })
}

/// [`parse`] for a schema written by hand ([`InputSchema`](crate::tool::InputSchema)): `T` is
/// not the schema's own type (a `Value`, say, takes anything), so what serde accepts says
/// nothing of the schema: the checker holds the arguments to all of it before `T` reads them.
pub(crate) fn parse_checked<T: DeserializeOwned>(
    arguments: &str,
    schema: &Prepared,
    tool: &str,
) -> Result<T, Refusal> {
    // Read as checked: a field sent as `null` is absent to the handler too.
    let cleaned = checked(arguments, schema.view(), None)
        .map_err(|faults| refusal(tool, schema.view().schema, faults))?;
    parse(cleaned.as_deref().unwrap_or(arguments), schema, tool)
}

/// [`parse`] for a `T` that refuses unknown fields itself (`#[serde(deny_unknown_fields)]`, as
/// the input structs `#[tool]` makes of parameters do): the fast path needs no wrapper to look
/// at every key. (The guard reads a struct as a map, so an array is not read into it by
/// position.)
pub fn parse_strict<T: DeserializeOwned>(
    arguments: &str,
    schema: &Prepared,
    tool: &str,
) -> Result<T, Refusal> {
    parse_with(arguments, schema.view(), tool, read_typed::<T>)
}

/// `text` read into `T`, held to the guard's plan when given one: the read of a `T` that needs
/// no wrapper of its own, [`parse_strict`]'s and [`read_value`]'s. Without a plan it is read
/// through the guard all the same, with a plan that checks nothing: `T`'s deserializer is
/// compiled for the guard alone.
fn read_typed<T: DeserializeOwned>(
    text: &str,
    guard: Option<(&Plan, &Findings)>,
) -> serde_json::Result<T> {
    let unchecked = Findings::default();
    let (plan, findings) = match guard {
        Some(guard) => guard,
        None => (Plan::nothing(), &unchecked),
    };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(Guard::root(&mut deserializer, plan, findings))?;
    deserializer.end()?;
    Ok(value)
}

/// The arguments as a JSON object, refused as [`parse`] would refuse them when they are not
/// JSON or not an object, without the nulls `schema` reads as absent fields (`absent.rs`);
/// nothing else of `schema` is checked (a remote tool's own server checks the rest).
pub(crate) fn parse_object(
    arguments: &str,
    schema: &Map<String, Value>,
    tool: &str,
) -> Result<Map<String, Value>, Refusal> {
    let taken_out = absent::taken_out(arguments, schema);
    let arguments = taken_out.as_deref().unwrap_or(arguments);
    parse_with(arguments, View::unprepared(schema), tool, |text, _| {
        read_all(text, |deserializer| {
            <Map<String, Value>>::deserialize(TopLevel::of(deserializer, None))
        })
    })
}

/// A read of the arguments' text, through the guard when given one, into a value the caller
/// of [`parse_with`] keeps: the only part of the slow path that knows the input type.
type Read<'r> = dyn FnMut(&str, Option<(&Plan, &Findings)>) -> serde_json::Result<()> + 'r;

/// Reads `text` with `read`, held to the schema's plan when the schema says more than serde
/// checks (and by the checker where the plan cannot say). If the read fails, finds every fault;
/// if there is none (the trouble was only nulls standing for absent fields), reads the cleaned
/// arguments' text with `read` again: the same code both times, so a tool's input type has its
/// deserializer compiled once, not once for text and once for values. Only the first read and
/// its answer are compiled for each input type; the slow path ([`checked_rest`], [`reread`])
/// once for all.
fn parse_with<T: DeserializeOwned>(
    arguments: &str,
    schema: View<'_>,
    tool: &str,
    read: impl Fn(&str, Option<(&Plan, &Findings)>) -> serde_json::Result<T>,
) -> Result<T, Refusal> {
    // Written with matches rather than closures: each closure here would be one more function
    // compiled for every tool.
    let findings = Findings::default();
    #[allow(clippy::manual_map)] // `map` takes a closure, which this is written without.
    let guard = match schema.plan {
        Some(plan) => Some((plan, &findings)),
        None => None,
    };
    let first_error = match read(arguments, guard) {
        Ok(value) => {
            if findings.unchecked.get() {
                // The plan did not describe all of it: the checker looks at the rest.
                checked_rest(arguments, schema, tool)?;
            }
            return Ok(value);
        }
        Err(error) => error,
    };
    let mut value = None;
    reread(arguments, schema, tool, &first_error, &mut |text, guard| {
        value = Some(read(text, guard)?);
        Ok(())
    })?;
    match value {
        Some(value) => Ok(value),
        None => Err(kept_nothing()),
    }
}

/// What [`parse_with`] answers if a read that succeeded kept no value (a read that succeeds
/// always keeps one).
fn kept_nothing() -> Refusal {
    let code = crate::outcome::refusal::code::INTERNAL;
    Refusal::new(code, "the arguments were read, and no value kept")
}

/// Arguments the plan let through, held to what it could not describe.
fn checked_rest(arguments: &str, schema: View<'_>, tool: &str) -> Result<(), Refusal> {
    match checked(arguments, schema, None) {
        Ok(_) => Ok(()),
        Err(faults) => Err(refusal(tool, schema.schema, faults)),
    }
}

/// Arguments serde refused with `first_error`: every fault, or, when the checker finds none,
/// the arguments read again by `read` with the nulls that stand for absent fields taken out,
/// and where serde still refuses them, every fault it finds (`serde_faults.rs`).
fn reread(
    arguments: &str,
    schema: View<'_>,
    tool: &str,
    first_error: &serde_json::Error,
    read: &mut Read<'_>,
) -> Result<(), Refusal> {
    let cleaned = checked(arguments, schema, Some(first_error))
        .map_err(|faults| refusal(tool, schema.schema, faults))?;
    // The checker found nothing: read as serde alone would, nulls for absent fields taken out.
    let cleaned = cleaned.as_deref().unwrap_or(arguments);
    match read(cleaned, None) {
        Ok(()) => Ok(()),
        Err(error) => {
            let faults = serde_faults::serde_faults(cleaned, error, read);
            Err(refusal(tool, schema.schema, faults))
        }
    }
}

/// The fault serde's `error` is, met reading `text` with `read`. A number read in part is
/// found in the text, which has them as sent; any other at its path ([`located`]).
fn fault_of(text: &str, error: serde_json::Error, read: &mut Read<'_>) -> Fault {
    in_part::fault(text, &error).unwrap_or_else(|| located(text, error, read))
}

/// The fault serde's `error` is, met reading `text` with `read`, at its path: for a fault the
/// schema does not explain (a custom `Deserialize` refusing a value the schema allows, say).
/// The path is found by reading `text` again through the guard, traced.
fn located(text: &str, error: serde_json::Error, read: &mut Read<'_>) -> Fault {
    let findings = Findings::traced();
    // The traced read fails as the first did; if it does not, the fault is the first's.
    let (path, error) = match read(text, Some((&Plan::traced(), &findings))) {
        Err(traced) => (findings.fault_at(), traced),
        Ok(()) => (String::new(), error),
    };
    let problem = without_position(&error);
    key_fault::at_key(text, &error, Fault { path, problem })
}

/// `value` read into `T`, or the first fault serde meets, at its path. Read as JSON text, as
/// arguments are, so that `T`'s deserializer is the one compiled for text and the guard, not a
/// further copy for `Value`'s deserializer.
pub(crate) fn read_value<T: DeserializeOwned>(value: &Value) -> Result<T, Fault> {
    let text = value.to_string();
    let mut read =
        |text: &str, guard: Option<(&Plan, &Findings)>| read_typed::<T>(text, guard).map(drop);
    read_typed(&text, None).map_err(|error| located(&text, error, &mut read))
}

/// serde_json's message without its `at line … column …`, which means nothing to a model
/// that sent JSON values, not lines.
fn without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    match text.strip_suffix(&position) {
        Some(message) => message.to_owned(),
        None => text,
    }
}

/// One value read from all of `text` by `read`, and nothing after it.
fn read_all<'a, T>(
    text: &'a str,
    read: impl FnOnce(&mut JsonDeserializer<'a>) -> serde_json::Result<T>,
) -> serde_json::Result<T> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = read(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// The arguments held against the schema: every fault, or, if there is none, the text of the
/// arguments with the nulls that stand for absent fields taken out and whole numbers written
/// as integers (`None` when there were none, and the arguments stand as sent). `first_error` is serde's, when serde refused them.
fn checked(
    arguments: &str,
    schema: View<'_>,
    first_error: Option<&serde_json::Error>,
) -> Result<Option<String>, Vec<Fault>> {
    let mut value = Node::parse(arguments).map_err(|error| {
        let beyond = in_part::beyond_double(arguments, &error);
        vec![beyond.unwrap_or_else(|| Fault {
            path: String::new(),
            problem: unreadable(&error),
        })]
    })?;
    if !matches!(value, Node::Object(_)) {
        return Err(vec![Fault {
            path: String::new(),
            problem: format!("expected an object, received {}", received(&value)),
        }]);
    }
    let values = checker::values_for_steps(arguments.len(), &value);
    let mut checker = Checker::new(schema, true, values);
    checker.check_object_schema(&mut value, schema.schema, &mut Path::default());
    if checker.shown_double {
        as_sent::as_sent(&mut checker.faults, arguments);
    }
    if checker.gave_up {
        let problem = match first_error {
            Some(error) => format!(
                "too large or too deeply nested to check for every fault; the first fault: {}; \
                 mend it and send the call again to learn of any other",
                without_position(error)
            ),
            None => "too large or too deeply nested to check against the tool's schema; send \
                     smaller or flatter arguments"
                .to_owned(),
        };
        checker.faults.push(Fault {
            path: String::new(),
            problem,
        });
        return Err(checker.faults);
    }
    if !checker.faults.is_empty() {
        return Err(checker.faults);
    }
    Ok(checker.rewrote.then(|| written::text(&value, arguments)))
}

/// The problem with arguments serde_json could not read: nested too deeply, or not JSON.
fn unreadable(error: &serde_json::Error) -> String {
    if error.to_string().starts_with("recursion limit exceeded") {
        format!(
            "nested more than {MAX_ARGUMENT_DEPTH} levels deep, more than any call may be \
             ({error}); send flatter arguments"
        )
    } else {
        format!("not valid JSON: {error}")
    }
}

#[cfg(test)]
mod tests {
    use super::path::PLAIN_KEY_LIMIT;
    use super::*;
    use crate::outcome::refusal::Line;
    use serde_json::json;

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Loose {
        a: u8,
    }

    fn schema() -> Prepared {
        Prepared::new(json!({
            "type": "object",
            "properties": {"a": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255}},
            "required": ["a"],
            "additionalProperties": false
        })
        .as_object()
        .cloned()
        .unwrap())
    }

    #[test]
    fn structs_without_deny_unknown_fields_still_refuse_unknown_fields() {
        let refusal = parse::<Loose>(r#"{"a":1,"b":2}"#, &schema(), "t").unwrap_err();
        assert_eq!(refusal.lines[0], Line::new("fault", ["b", "unknown field"]));
        assert_eq!(
            parse::<Loose>(r#"{"a":1}"#, &schema(), "t"),
            Ok(Loose { a: 1 })
        );
    }

    #[test]
    fn arrays_are_not_read_into_structs_by_position() {
        let refusal = parse::<Loose>("[1]", &schema(), "t").unwrap_err();
        assert_eq!(
            refusal.lines[0],
            Line::new(
                "fault",
                ["(arguments)", "expected an object, received an array"]
            )
        );
    }

    #[test]
    fn integers_out_of_range_name_the_type() {
        let refusal = parse::<Loose>(r#"{"a":300}"#, &schema(), "t").unwrap_err();
        assert_eq!(
            refusal.lines[0],
            Line::new(
                "fault",
                ["a", "expected u8, received 300, which is out of range"]
            )
        );
    }

    #[derive(serde::Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Strict {
        a: u8,
    }

    #[test]
    fn strict_structs_are_refused_and_read_as_the_others_are() {
        let duplicate = r#"{"a":1,"a":2}"#;
        for text in [
            r#"{"a":1,"b":2}"#,
            "[1]",
            " [1]",
            "7",
            r#"{"a":300}"#,
            "{",
            duplicate,
        ] {
            assert_eq!(
                parse_strict::<Strict>(text, &schema(), "t").unwrap_err(),
                parse::<Loose>(text, &schema(), "t").unwrap_err(),
                "{text}"
            );
        }
        assert_eq!(
            parse_strict::<Strict>(" {\"a\":1} ", &schema(), "t"),
            Ok(Strict { a: 1 })
        );
    }

    #[test]
    fn a_schema_that_refers_to_itself_without_end_is_not_followed_forever() {
        // No schema schemars writes does this (a type defined as itself is refused when the
        // registry is built), but a hand-written `JsonSchema` can: the checker stops at its
        // depth limit, well within the 2 MiB stack of a tokio worker in a debug build.
        let schema = json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "additionalProperties": false,
            "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}]}}
        })
        .as_object()
        .cloned()
        .unwrap();
        let root = schema.clone();
        let schema = Prepared::new(schema);
        let refusal = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || parse::<Loose>(r#"{"a":"x"}"#, &schema, "t").unwrap_err())
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(refusal.lines[0].cells[0], "(arguments)");
        assert!(
            refusal.lines[0].cells[1].starts_with("too large or too deeply nested to check"),
            "{refusal}"
        );
        assert_eq!(
            crate::schema::Words::new(&root).of(&json!({"$ref": "#/$defs/A"})),
            "…"
        );
    }

    #[test]
    fn only_a_schema_that_says_more_than_its_types_is_checked_beyond_serde() {
        let plain = Prepared::new(
            json!({
                "type": "object",
                "properties": {
                    "kind": {"type": "string"},
                    "start": {"type": "integer", "format": "uint64", "minimum": 0},
                    "limit": {"type": ["integer", "null"], "format": "uint32", "minimum": 0},
                    "level": {"oneOf": [{"const": "low"}, {"const": "high"}]}
                },
                "additionalProperties": false
            })
            .as_object()
            .cloned()
            .unwrap(),
        );
        assert!(plain.plan.is_none(), "{:?}", plain.plan);
        let bounded = Prepared::new(
            json!({
                "type": "object",
                "properties": {"limit": {"type": "integer", "format": "uint32", "minimum": 1}},
                "additionalProperties": false
            })
            .as_object()
            .cloned()
            .unwrap(),
        );
        assert!(bounded.plan.is_some());
    }

    #[test]
    fn duplicate_fields_are_refused() {
        let refusal = parse::<Loose>(r#"{"a":1,"a":2}"#, &schema(), "t").unwrap_err();
        assert_eq!(
            refusal.lines[0],
            Line::new(
                "fault",
                [
                    "a",
                    "duplicate field `a`: sent more than once; send it once"
                ]
            )
        );
    }

    #[test]
    fn keys_that_would_make_a_path_ambiguous_are_quoted() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Scores {
            scores: std::collections::BTreeMap<String, u8>,
        }
        let schema = json!({
            "type": "object",
            "properties": {
                "scores": {"type": "object", "additionalProperties": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255}}
            },
            "required": ["scores"],
            "additionalProperties": false
        })
        .as_object()
        .cloned()
        .unwrap();
        let long = "k".repeat(PLAIN_KEY_LIMIT + 1);
        let text = json!({"scores": {
            "plain-key_1": "x",
            "a.b": "x",
            "c[0]": "x",
            "": "x",
            "first name": "x",
            "say \"hi\"": "x",
            long.clone(): "x",
        }})
        .to_string();
        let refusal = parse::<Scores>(&text, &Prepared::new(schema), "t").unwrap_err();
        let mut paths: Vec<&str> = refusal
            .lines
            .iter()
            .filter(|line| line.label == "fault")
            .map(|line| line.cells[0].as_str())
            .collect();
        paths.sort_unstable();
        let cut = format!(r#"scores["{}"…]"#, "k".repeat(40));
        let mut expected = vec![
            "scores.plain-key_1",
            r#"scores["a.b"]"#,
            r#"scores["c[0]"]"#,
            r#"scores[""]"#,
            r#"scores["first name"]"#,
            r#"scores["say \"hi\""]"#,
            cut.as_str(),
        ];
        expected.sort_unstable();
        assert_eq!(paths, expected, "{refusal}");
    }
}
