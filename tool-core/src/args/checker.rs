//! The checker: a value held against a tool's JSON Schema, finding every fault with its path,
//! taking a struct's fields set to `null` as absent and a whole number written with a fraction
//! as an integer where the schema says integer. It runs once serde has refused the arguments,
//! where the plan cannot say (or for every call of a tool whose type serde cannot be trusted
//! with, `required.rs`), or on a tool's own output, in debug builds, so it may take its time,
//! within bounds that no input can escape.

mod fields;

use serde_json::{Map, Value};

use super::Fault;
use super::numbers::{
    INEXACT, OUT_OF_RANGE, compared, is_multiple, past_exact, whole, whole_double, written_whole,
};
use super::path::{Path, quote, write_quoted};
use super::prepared::View;
use super::untold::{MAX_TOLD_BYTES, untold};
use crate::args::tree::Node;
use crate::outcome::suggest::nearest;
use crate::schema::Words;
use crate::schema::formats;
use crate::schema::keywords::{Keywords, admits_null, integer_range};
use crate::schema::patterns::Patterns;
use crate::schema::walk::{Lookup, Root};

/// How deep the checker may go, in nested schema checks. Arguments nest at most
/// [`MAX_ARGUMENT_DEPTH`](super::MAX_ARGUMENT_DEPTH) levels and each level costs a few checks
/// (a `$ref`, an `anyOf` branch, the object itself), so only a schema that refers to itself
/// without consuming any value (a hand-written `JsonSchema` can write one) gets here. Small
/// enough for a tokio worker's stack in a debug build (a test in `args` runs it on one).
const MAX_CHECK_DEPTH: usize = 512;

/// Every way `value` departs from `schema`, taking `null` at face value: for checking what a
/// tool wrote against the schema it advertised. A value too intricate to check in full gives
/// the faults found before the checker gave up.
pub(crate) fn validate(value: &Value, schema: &Map<String, Value>) -> Vec<Fault> {
    validate_in(value, View::unprepared(schema), false)
}

/// [`validate`] for output made elsewhere, held only to its shape, as MCP's SDKs hold a
/// server's output: a `format` is an annotation (its maker may write one more loosely than
/// this crate reads it: a date-time without an offset, an `int32` past 32 bits), and a
/// `pattern` this crate cannot read (a lookahead) is not checked.
/// `patterns` are `schema`'s, compiled ahead ([`Patterns::of`]).
pub(crate) fn validate_shape(
    value: &Value,
    schema: &Map<String, Value>,
    patterns: &Patterns,
) -> Vec<Fault> {
    let view = View {
        patterns,
        ..View::unprepared(schema)
    };
    validate_in(value, view, true)
}

fn validate_in(value: &Value, view: View<'_>, shape_only: bool) -> Vec<Fault> {
    let schema = view.schema;
    let mut node = Node::of(value);
    let mut checker = Checker::new(view, false, node.count());
    checker.shape_only = shape_only;
    checker.check_object_schema(&mut node, schema, &mut Path::default());
    checker.tell_untold();
    checker.faults
}

/// What a `uniqueItems` fault says between the item it received and that item's index, by
/// which `as_sent.rs` finds the item as sent.
pub(super) const AT: &str = " at [";

/// What a `uniqueItems` fault says between its first item's index and its repeat's.
pub(super) const AGAIN_AT: &str = " and again at [";

/// How many schema checks the checker may make per value in the arguments, and at least.
/// A value is checked once per schema that applies to it: its field's, one more per `$ref`,
/// one per union branch tried (and a trial's copy of the value costs what checking it does);
/// arguments that fit their schema need one to three per value (three for the nested structs,
/// enums and options of `order_place` in `tests/adversarial.rs`). Without a bound, unions whose
/// branches all descend into the same value (untagged recursive enums) take time exponential
/// in the nesting. Running out refuses the call with serde's first fault: the list of faults
/// is shorter, and arguments whose only trouble was a `null` for an absent field, in a value
/// too intricate to check, are refused rather than read.
const CHECK_STEPS_PER_VALUE: usize = 6;
const CHECK_STEPS_AT_LEAST: usize = 10_000;

/// How many values `node`, read from `text_len` bytes of JSON, holds, as far as the checker's
/// steps depend on it: a value takes at least one byte, so a text too short to earn more than
/// the least steps is not counted (counting walks the whole tree).
pub(super) fn values_for_steps(text_len: usize, node: &Node<'_>) -> usize {
    if text_len.saturating_mul(CHECK_STEPS_PER_VALUE) <= CHECK_STEPS_AT_LEAST {
        text_len
    } else {
        node.count()
    }
}

/// Checks a JSON value against a schemars-generated schema, collecting every fault, and removes
/// `null` fields from objects that are structs (so that `null` counts as absent).
///
/// It understands what schemars emits for Rust types: `type` (and arrays of types), integer
/// `format`s, `minimum`/`maximum`, string lengths, `enum`, `const`, `properties`, `required`,
/// `additionalProperties`, `items`, `prefixItems`, array lengths, `anyOf`/`oneOf`/`allOf`,
/// `if`/`then`/`else` and local `$ref`s. A fault it cannot see is still caught by serde, with serde's message.
pub(super) struct Checker<'s> {
    pub(super) root: Root<'s>,
    pub(super) words: Words<'s>,
    pub(super) patterns: &'s Patterns,
    pub(super) faults: Vec<Fault>,
    /// Whether a struct's field set to `null` counts as absent (arguments: yes; outputs, which
    /// the tool wrote itself: no).
    pub(super) null_is_absent: bool,
    /// How many schema checks are under way, one inside the other.
    pub(super) depth: usize,
    /// How many more schema checks may start.
    pub(super) steps_left: usize,
    /// Whether the checker stopped early (out of steps or too deep): the faults found are then
    /// not all there are, and the value may be unchecked.
    pub(super) gave_up: bool,
    /// Whether some object schema requires a field its `properties` do not describe: only then
    /// are required fields looked for beyond the properties.
    pub(super) required_elsewhere: bool,
    /// Whether the value was changed somewhere (a field set to `null` taken out, a whole
    /// number taken as an integer), so that the arguments are to be read as the checker left
    /// them.
    pub(super) rewrote: bool,
    /// Whether a fault shows a number the tree holds as a double, which may have been sent in
    /// another form (`as_sent.rs` finds it).
    pub(super) shown_double: bool,
    /// The bytes of the paths and problems of the faults told so far.
    told_bytes: usize,
    /// Whether only the value's shape is held ([`validate_shape`]): formats are annotations,
    /// and a pattern not compiled ahead is one this crate cannot read.
    shape_only: bool,
}

impl<'s> Checker<'s> {
    /// A checker for a value that holds `values` values.
    pub(super) fn new(schema: View<'s>, null_is_absent: bool, values: usize) -> Self {
        Checker {
            root: Root::new(schema.schema),
            words: Words::new(schema.schema),
            patterns: schema.patterns,
            faults: Vec::new(),
            null_is_absent,
            depth: 0,
            steps_left: values
                .saturating_mul(CHECK_STEPS_PER_VALUE)
                .max(CHECK_STEPS_AT_LEAST),
            gave_up: false,
            required_elsewhere: schema.required_elsewhere,
            rewrote: false,
            shown_double: false,
            told_bytes: 0,
            shape_only: false,
        }
    }

    /// `expected <what schema says>, received <value>`, the start of most faults' messages,
    /// written into one buffer.
    fn expected(&mut self, keywords: &Keywords<'s>, value: &Node<'_>) -> String {
        let mut problem = String::with_capacity(64);
        problem.push_str("expected ");
        self.words.write_keywords(keywords, &mut problem);
        problem.push_str(", received ");
        write_received(value, &mut problem);
        self.note_shown(value);
        problem
    }

    /// Notes that a fault shows `value`, if that is a number held as a double.
    pub(super) fn note_shown(&mut self, value: &Node<'_>) {
        self.shown_double |= matches!(value, Node::Number(number) if number.is_f64());
    }

    /// [`expected`](Self::expected) of a value its `enum` lists: the `const` it is not, or
    /// else the type it is not.
    #[cold]
    fn expected_apart(&mut self, keywords: &Keywords<'s>, fixed: bool, value: &Node<'_>) -> String {
        let said = Keywords {
            enumeration: None,
            constant: keywords.constant.filter(|_| !fixed),
            types: keywords.types.filter(|_| fixed),
            ..*keywords
        };
        self.expected(&said, value)
    }

    /// A fault at `path`. Past [`MAX_TOLD_BYTES`] of faults told, one is noted untold (an
    /// empty problem, with no path): the union and condition checks still see it, and the
    /// refusal counts it ([`untold`](super::untold::untold)).
    #[inline]
    pub(super) fn fault(&mut self, path: &Path, problem: String) {
        self.told_bytes += path.0.len() + problem.len();
        if self.told_bytes > MAX_TOLD_BYTES {
            return self.untold_fault();
        }
        self.faults.push(Fault {
            path: path.0.clone(),
            problem,
        });
    }

    /// A fault past [`MAX_TOLD_BYTES`]: counted, not told.
    #[cold]
    fn untold_fault(&mut self) {
        self.told_bytes = MAX_TOLD_BYTES + 1;
        self.faults.push(Fault {
            path: String::new(),
            problem: String::new(),
        });
    }

    /// The faults counted, not told, taken out and counted in one ([`untold`]).
    pub(super) fn tell_untold(&mut self) {
        if self.told_bytes > MAX_TOLD_BYTES {
            untold(&mut self.faults);
        }
    }

    pub(super) fn check(&mut self, value: &mut Node<'_>, schema: &'s Value, path: &mut Path) {
        match schema {
            Value::Bool(true) => {}
            Value::Bool(false) => self.fault(path, "not allowed here".to_owned()),
            Value::Object(schema) => self.check_object_schema(value, schema, path),
            _ => {}
        }
    }

    pub(super) fn check_object_schema(
        &mut self,
        value: &mut Node<'_>,
        schema: &'s Map<String, Value>,
        path: &mut Path,
    ) {
        if self.gave_up {
            return;
        }
        if self.steps_left == 0 || self.depth >= MAX_CHECK_DEPTH {
            self.gave_up = true;
            return;
        }
        self.steps_left -= 1;
        self.depth += 1;
        self.check_against(value, schema, path);
        self.depth -= 1;
    }

    fn check_against(
        &mut self,
        value: &mut Node<'_>,
        schema: &'s Map<String, Value>,
        path: &mut Path,
    ) {
        let keywords = Keywords::of(schema);
        if let (true, Some(Value::Object(properties)), Node::Object(object)) =
            (self.null_is_absent, keywords.properties, &mut *value)
            && object.iter().any(|(_, value)| value.is_null())
            && !Node::sent_twice(object)
        {
            // A struct: a field set to null that does not take null counts as absent, to
            // every rule below (an `if`, a branch's `required`) as to the fields. (Not when a
            // field is sent twice, which is refused below and may be sent as `null` once.)
            let root = self.root;
            let absent =
                |key: &str| (properties.lookup(key)).is_some_and(|p| !admits_null(p, root));
            let sent = object.len();
            object.retain(|(key, value)| !(value.is_null() && absent(key)));
            self.rewrote |= object.len() < sent;
        }
        match keywords.reference.and_then(Value::as_str) {
            // The root (a type that holds itself, as a remote server may write it).
            Some("#") => self.check_object_schema(value, self.root.whole(), path),
            Some(reference) => {
                if let Some(target) = self.root.resolve(reference) {
                    self.check(value, target, path);
                }
            }
            None => {}
        }
        if let Some(Value::Array(all)) = keywords.all_of {
            for branch in all {
                self.check(value, branch, path);
            }
        }
        for (branches, exactly_one) in [(keywords.any_of, false), (keywords.one_of, true)] {
            if let Some(Value::Array(branches)) = branches {
                self.check_branches(value, branches, exactly_one, path);
            }
        }
        if let Some(condition) = keywords.condition {
            self.check_condition(value, condition, (keywords.then, keywords.otherwise), path);
        }
        // Each of the three that the schema says holds; a fault says the first that does not.
        let listed = (keywords.enumeration.and_then(Value::as_array))
            .is_none_or(|allowed| allowed.iter().any(|a| value.equals(a)));
        let fixed = (keywords.constant).is_none_or(|constant| value.equals(constant));
        let typed = (keywords.types).is_none_or(|types| value.is_of_type(types));
        if !(listed && fixed && typed) {
            let meant = match (keywords.enumeration.filter(|_| !listed), &*value) {
                (Some(Value::Array(allowed)), Node::String(sent)) => {
                    nearest(sent, allowed.iter().filter_map(Value::as_str))
                        .filter(|meant| meant.eq_ignore_ascii_case(sent))
                }
                _ => None,
            };
            let mut problem = if listed && (keywords.enumeration.or(keywords.constant)).is_some() {
                self.expected_apart(&keywords, fixed, value)
            } else {
                self.expected(&keywords, value)
            };
            if let Some(meant) = meant {
                problem.push_str("; did you mean ");
                write_quoted(meant, &mut problem);
                problem.push('?');
            }
            self.fault(path, problem);
            return;
        }
        match value {
            Node::Number(number) => {
                let before = self.faults.len();
                self.check_number(number, schema, &keywords, path);
                if number.is_f64() {
                    self.shown_double |= self.faults.len() > before;
                    self.rewrote |= written_whole(number, keywords.types);
                }
            }
            Node::String(text) => self.check_string(text, &keywords, path),
            Node::Array(items) => self.check_array(items, &keywords, path),
            Node::Object(object) => self.check_fields(object, &keywords, path),
            Node::Null | Node::Bool(_) => {}
        }
    }

    fn check_number(
        &mut self,
        number: &serde_json::Number,
        schema: &'s Map<String, Value>,
        keywords: &Keywords<'s>,
        path: &mut Path,
    ) {
        let format = (keywords.format.and_then(Value::as_str)).filter(|_| !self.shape_only);
        if let Some((min, max)) = format.and_then(integer_range) {
            // `3.0` as the integer it is (below 2^52); one past every 64-bit integer is out of
            // range.
            let integer = whole(number).or_else(|| whole_double(number).map(i128::from));
            let fits = integer.is_some_and(|n| n >= min && n <= max);
            if !fits {
                let mut problem = self.expected(keywords, &Node::Number(number.clone()));
                problem.push_str(past_exact(number, (min, max)));
                self.fault(path, problem);
                return;
            }
        }
        let Some(n) = number.as_f64() else { return };
        // A number too large for an `f32` would otherwise be refused by serde_json alone,
        // without its path.
        if format == Some("float") && (n as f32).is_infinite() {
            let expected = self.words.of_map(schema);
            self.fault(
                path,
                format!("expected {expected}, received {number}{OUT_OF_RANGE}"),
            );
            return;
        }
        // Whether `number` fails `holds` for `bound`: as doubles where doubles hold both
        // exactly, else by the sign of their exact difference, held to `holds` against zero.
        let fails = |bound: Option<&Value>, holds: fn(f64, f64) -> bool| {
            bound.is_some_and(|bound| match bound.as_f64() {
                Some(limit) if n.abs() < INEXACT && limit.abs() < INEXACT => !holds(n, limit),
                Some(_) => {
                    compared(number, bound).is_some_and(|order| !holds(f64::from(order as i8), 0.0))
                }
                None => false,
            })
        };
        match (keywords.minimum, keywords.maximum) {
            (Some(min), Some(max))
                if fails(Some(min), |n, min| n >= min) || fails(Some(max), |n, max| n <= max) =>
            {
                self.fault(path, format!("expected {min} to {max}, received {number}"));
            }
            (Some(min), None) if fails(Some(min), |n, min| n >= min) => {
                self.fault(path, format!("expected at least {min}, received {number}"));
            }
            (None, Some(max)) if fails(Some(max), |n, max| n <= max) => {
                self.fault(path, format!("expected at most {max}, received {number}"));
            }
            _ => {}
        }
        if let Some(bound) = keywords.exclusive_minimum
            && fails(Some(bound), |n, bound| n > bound)
        {
            self.fault(
                path,
                format!("expected more than {bound}, received {number}"),
            );
        }
        if let Some(bound) = keywords.exclusive_maximum
            && fails(Some(bound), |n, bound| n < bound)
        {
            self.fault(
                path,
                format!("expected less than {bound}, received {number}"),
            );
        }
        if let Some(step) = keywords.multiple_of
            && !is_multiple(number, step)
        {
            self.fault(
                path,
                format!("expected a multiple of {step}, received {number}"),
            );
        }
    }

    fn check_string(&mut self, text: &str, keywords: &Keywords<'s>, path: &mut Path) {
        let min = keywords.min_length.and_then(Value::as_u64);
        let max = keywords.max_length.and_then(Value::as_u64);
        if min.is_some() || max.is_some() {
            self.check_length(text, min, max, path);
        }
        if let Some(pattern) = keywords.pattern.and_then(Value::as_str)
            && !(self.shape_only && self.patterns.compiled(pattern).is_none())
            && !self.patterns.matches(pattern, text)
        {
            self.fault(
                path,
                format!("expected text matching {pattern}, received {}", quote(text)),
            );
        }
        if let Some(format) = keywords
            .format
            .and_then(Value::as_str)
            .filter(|_| !self.shape_only)
            && let Some(expected) = formats::expected(format)
            && !formats::holds(format, text)
        {
            self.fault(
                path,
                format!("expected {expected}, received {}", quote(text)),
            );
        }
    }

    /// `minLength` and `maxLength`, which count characters, as JSON Schema does.
    fn check_length(&mut self, text: &str, min: Option<u64>, max: Option<u64>, path: &Path) {
        let length = text.chars().count() as u64;
        let characters = |count: u64| {
            if count == 1 {
                "character"
            } else {
                "characters"
            }
        };
        let received = quote(text);
        match (min, max) {
            (Some(1), None) if length == 0 => self.fault(
                path,
                format!("expected text that is not empty, received {received}"),
            ),
            (Some(1), Some(1)) if length != 1 => self.fault(
                path,
                format!("expected a single character, received {received}"),
            ),
            (Some(min), Some(max)) if length < min || length > max => self.fault(
                path,
                format!(
                    "expected {min} to {max} {}, received {received}",
                    characters(max)
                ),
            ),
            (Some(min), None) if length < min => self.fault(
                path,
                format!(
                    "expected at least {min} {}, received {received}",
                    characters(min)
                ),
            ),
            (None, Some(max)) if length > max => self.fault(
                path,
                format!(
                    "expected at most {max} {}, received {received}",
                    characters(max)
                ),
            ),
            _ => {}
        }
    }

    /// `minItems`/`maxItems` or `minProperties`/`maxProperties`: how many `things` there are.
    fn check_count(
        &mut self,
        count: usize,
        (min, max): (Option<&Value>, Option<&Value>),
        things: &str,
        path: &Path,
    ) {
        let count = count as u64;
        if let Some(min) = min.and_then(Value::as_u64).filter(|min| count < *min) {
            self.fault(
                path,
                format!("expected at least {min} {things}, received {count}"),
            );
        }
        if let Some(max) = max.and_then(Value::as_u64).filter(|max| count > *max) {
            self.fault(
                path,
                format!("expected at most {max} {things}, received {count}"),
            );
        }
    }

    fn check_array(&mut self, items: &mut [Node<'_>], keywords: &Keywords<'s>, path: &mut Path) {
        let bounds = (keywords.min_items, keywords.max_items);
        self.check_count(items.len(), bounds, "items", path);
        if keywords.unique_items == Some(&Value::Bool(true)) {
            self.check_unique(items, path);
        }
        let prefix = keywords
            .prefix_items
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for (index, item) in items.iter_mut().enumerate() {
            let item_schema = prefix.get(index).or(keywords.items);
            if let Some(item_schema) = item_schema {
                path.with_index(index, |path| self.check(item, item_schema, path));
            }
        }
    }

    /// `uniqueItems`: one fault for the first item that repeats an earlier one, compared as
    /// JSON Schema compares values ([`Node::write_key`]), naming the places of both, so that a
    /// model knows which to drop.
    fn check_unique(&mut self, items: &[Node<'_>], path: &Path) {
        if items.iter().all(Node::is_scalar) {
            let mut seen = std::collections::HashMap::with_capacity(items.len());
            for (at, item) in items.iter().enumerate() {
                if let Some(earlier) = seen.insert(item.scalar_key(), at) {
                    self.repeated(items, earlier, at, path);
                    return;
                }
            }
            return;
        }
        // Each item as a key, whatever order its fields come in: in time that grows with the
        // items' size, where comparing them pair by pair grew with its square.
        let mut seen = std::collections::HashMap::with_capacity(items.len());
        for (at, item) in items.iter().enumerate() {
            let mut key = String::new();
            item.write_key(&mut key);
            if let Some(earlier) = seen.insert(key, at) {
                self.repeated(items, earlier, at, path);
                return;
            }
        }
    }

    /// The fault of `items[at]` repeating `items[earlier]`, showing the first as sent (the
    /// second may be written otherwise: `1` and `1.0` are one value).
    fn repeated(&mut self, items: &[Node<'_>], earlier: usize, at: usize, path: &Path) {
        let Some(first) = items.get(earlier) else {
            return;
        };
        let problem = format!(
            "expected unique items, received {}{AT}{earlier}]{AGAIN_AT}{at}]",
            received(first)
        );
        self.fault(path, problem);
        self.note_shown(first);
    }
}

/// A value as a fault message shows it: short values in full, long ones cut.
pub(super) fn received(value: &Node<'_>) -> String {
    let mut out = String::new();
    write_received(value, &mut out);
    out
}

/// [`received`], written at the end of `out`.
pub(super) fn write_received(value: &Node<'_>, out: &mut String) {
    use std::fmt::Write as _;
    match value {
        Node::String(text) => write_quoted(text, out),
        Node::Array(items) if items.is_empty() => out.push_str("an empty array"),
        Node::Array(_) => out.push_str("an array"),
        Node::Object(_) => out.push_str("an object"),
        Node::Number(number) => match (number.as_u64(), number.as_i64()) {
            (Some(n), _) => out.push_str(itoa::Buffer::new().format(n)),
            (None, Some(n)) => out.push_str(itoa::Buffer::new().format(n)),
            // Writing into a `String` cannot fail.
            (None, None) => drop(write!(out, "{number}")),
        },
        Node::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        Node::Null => out.push_str("null"),
    }
}
