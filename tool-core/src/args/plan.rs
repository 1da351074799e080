//! A tool's schema compiled once into a plan: for each value in the arguments, the bounds,
//! lengths, patterns and formats it must keep, and for each object the fields it names. The
//! guard (`guard.rs`) holds serde's one read of a call to it.
//!
//! A plan never refuses on its own. When a value breaks its rule, or the plan meets what it
//! does not describe (a union of several shapes, items that must be unique, a tuple), the full
//! checker looks at the call, and finds every fault with its path, or none. So the plan only
//! has to be right about what it lets through.

use std::sync::LazyLock;

use serde_json::{Map, Value};

use super::numbers::{INEXACT, is_multiple_of};
use crate::schema::formats;
use crate::schema::keywords::{Keywords, admits_null, only_solid_branch};
use crate::schema::patterns::{Patterns, Regex};
use crate::schema::walk::{self, Lookup};

/// A schema compiled for the check of accepted calls.
#[derive(Debug)]
pub(super) struct Plan {
    steps: Vec<Step>,
    /// The definitions compiled so far, by name, and where their steps are.
    defined: Vec<(String, usize)>,
}

/// What to check of one value. A `null` passes every step: serde, which accepted the call,
/// took it as an absent optional.
#[derive(Debug)]
pub(super) enum Step {
    /// Nothing to check: the value is read past.
    Any,
    /// The plan cannot say: the full checker decides.
    HandOver,
    /// What another step checks (a `$ref`, an optional's one type).
    Same(usize),
    Number(NumberRule),
    Text(TextRule),
    List {
        min: Option<u64>,
        max: Option<u64>,
        items: usize,
    },
    Object {
        fields: Vec<(String, usize)>,
        others: Others,
        min: Option<u64>,
        max: Option<u64>,
    },
    /// Nothing checked, every part read through the guard: a traced read's one step, for
    /// every value.
    Traced,
}

/// What an object does with a field it does not name.
#[derive(Debug)]
pub(super) enum Others {
    Refused,
    Taken,
    Checked(usize),
    /// Read through the guard, each noted in the trail: a traced read's objects.
    Traced,
}

#[derive(Debug, Default)]
pub(super) struct NumberRule {
    minimum: Option<f64>,
    maximum: Option<f64>,
    exclusive_minimum: Option<f64>,
    exclusive_maximum: Option<f64>,
    multiple_of: Option<f64>,
    /// An `f32`: a number beyond its range is refused, though serde may read it as infinity.
    single: bool,
}

#[derive(Debug, Default)]
pub(super) struct TextRule {
    min_length: Option<u64>,
    max_length: Option<u64>,
    pattern: Option<Regex>,
    format: Option<String>,
    /// An `enum` or `const` of text: the values allowed. serde checks a Rust enum's variants
    /// itself, but not one written onto a `String` (`#[schemars(extend("enum" = ..))]`).
    choices: Option<Vec<String>>,
}

impl Plan {
    /// The plan of `schema`, a tool's input schema, whose patterns are compiled in `patterns`.
    /// `absence_known`: whether the type is known to refuse the absence of every required
    /// field whose schema takes `null` (`required.rs` asked it), so that none needs the
    /// checker.
    pub(super) fn of(
        schema: &Map<String, Value>,
        patterns: &Patterns,
        absence_known: bool,
    ) -> Plan {
        let mut plan = Plan {
            steps: Vec::new(),
            defined: Vec::new(),
        };
        let mut compiler = Compiler {
            plan: &mut plan,
            root: schema,
            patterns,
            absence_known,
        };
        compiler.compile_map(schema);
        plan
    }

    /// Whether the plan checks anything serde, reading the Rust type, does not check by
    /// itself: a bound, a length, a pattern or format, a count, an object inside the arguments
    /// (whose unknown fields serde would drop), or a part only the checker can judge. A plan
    /// that does not is not kept: such a tool reads as serde alone reads it.
    pub(super) fn checks_beyond_serde(&self) -> bool {
        self.steps.iter().enumerate().any(|(at, step)| match step {
            Step::Any | Step::Same(_) | Step::Traced => false,
            Step::List { min, max, .. } => min.is_some() || max.is_some(),
            // The root's fields are known to serde (the input struct, or its wrapper); how
            // many it must have is not.
            Step::Object { min, max, .. } => at != self.root() || min.is_some() || max.is_some(),
            Step::HandOver | Step::Number(_) | Step::Text(_) => true,
        })
    }

    /// The plan of a traced read: every value read through the guard, none checked.
    pub(super) fn traced() -> Plan {
        Plan {
            steps: vec![Step::Traced],
            defined: Vec::new(),
        }
    }

    /// The plan that hands every call to the checker.
    pub(super) fn handed_over() -> Plan {
        Plan {
            steps: vec![Step::HandOver],
            defined: Vec::new(),
        }
    }

    /// The plan of a read that checks nothing: every value read as serde alone reads it.
    pub(super) fn nothing() -> &'static Plan {
        static NOTHING: LazyLock<Plan> = LazyLock::new(|| Plan {
            steps: vec![Step::Any],
            defined: Vec::new(),
        });
        &NOTHING
    }

    /// Where the root's step is.
    pub(super) fn root(&self) -> usize {
        0
    }

    /// The step at `at`, past any steps that only say "what that other step checks".
    pub(super) fn step(&self, mut at: usize) -> &Step {
        // A chain of them can only loop through a type defined as itself, which the registry
        // refuses; bounded all the same.
        for _ in 0..self.steps.len() {
            match &self.steps[at] {
                Step::Same(next) => at = *next,
                step => return step,
            }
        }
        &Step::HandOver
    }
}

struct Compiler<'a> {
    plan: &'a mut Plan,
    root: &'a Map<String, Value>,
    patterns: &'a Patterns,
    absence_known: bool,
}

impl Compiler<'_> {
    /// Compiles `schema` into a step of its own and returns where it is.
    fn compile(&mut self, schema: &Value) -> usize {
        let at = self.push(Step::HandOver);
        let step = match schema {
            Value::Object(map) => self.step_of(map),
            Value::Bool(true) => Step::Any,
            _ => Step::HandOver,
        };
        self.plan.steps[at] = step;
        at
    }

    fn compile_map(&mut self, map: &Map<String, Value>) -> usize {
        let at = self.push(Step::HandOver);
        self.plan.steps[at] = self.step_of(map);
        at
    }

    fn push(&mut self, step: Step) -> usize {
        self.plan.steps.push(step);
        self.plan.steps.len() - 1
    }

    fn step_of(&mut self, map: &Map<String, Value>) -> Step {
        let keywords = Keywords::of(map);
        if let Some(reference) = keywords.reference.and_then(Value::as_str) {
            // A `$ref` with constraints beside it is left to the full checker.
            return match walk::definition_name(reference).filter(|_| only_notes(map)) {
                Some(name) => self.definition(name).map_or(Step::HandOver, Step::Same),
                None => Step::HandOver,
            };
        }
        let unplanned = keywords.all_of.is_some()
            || keywords.condition.is_some()
            || keywords.pattern_properties.is_some()
            || keywords.prefix_items.is_some()
            || keywords.unique_items == Some(&Value::Bool(true));
        if unplanned {
            return Step::HandOver;
        }
        if let Some(Value::Array(branches)) = keywords.any_of.or(keywords.one_of) {
            return match only_solid_branch(branches) {
                // `Option<T>`: null, or what `T` is.
                Some(only) if keywords.types.is_none() => Step::Same(self.compile(only)),
                // An enum of plain values (variants with doc comments): serde checks them all.
                _ if branches.iter().all(|branch| self.is_plain(branch)) => Step::Any,
                _ => Step::HandOver,
            };
        }
        if keywords.properties.is_some() || keywords.additional_properties.is_some() {
            return self.object_step(&keywords);
        }
        if keywords.items.is_some() || keywords.min_items.is_some() || keywords.max_items.is_some()
        {
            let items = match keywords.items {
                Some(items) => self.compile(items),
                None => self.push(Step::Any),
            };
            return Step::List {
                min: keywords.min_items.and_then(Value::as_u64),
                max: keywords.max_items.and_then(Value::as_u64),
                items,
            };
        }
        let Some(choices) = text_choices(&keywords) else {
            // Values other than text allowed by name: the checker compares them.
            return Step::HandOver;
        };
        number_rule(&keywords)
            .map(Step::Number)
            .or_else(|| self.text_rule(&keywords, choices).map(Step::Text))
            .unwrap_or(Step::Any)
    }

    /// Whether `schema` is a plain value's (a constant, an enum of values, a type alone): one
    /// serde checks in full, with nothing inside it.
    fn is_plain(&self, schema: &Value) -> bool {
        let Some(map) = walk::Root::new(self.root).deref(schema) else {
            return false;
        };
        map.keys().all(|key| {
            matches!(
                key.as_str(),
                "type" | "const" | "enum" | "description" | "title" | "default" | "deprecated"
            )
        }) && !matches!(
            map.get("type").and_then(Value::as_str),
            Some("object" | "array")
        )
    }

    /// Where the steps of the definition `name` are, compiled once: a recursive type refers
    /// back to them.
    fn definition(&mut self, name: &str) -> Option<usize> {
        if let Some(&(_, at)) = self.plan.defined.iter().find(|(known, _)| known == name) {
            return Some(at);
        }
        let target = self
            .root
            .lookup("$defs")
            .and_then(Value::as_object)
            .and_then(|defs| defs.lookup(name))?;
        // Reserved first, so that the definition's own references find it.
        let at = self.push(Step::HandOver);
        self.plan.defined.push((name.to_owned(), at));
        self.plan.steps[at] = match target {
            Value::Object(map) => self.step_of(map),
            Value::Bool(true) => Step::Any,
            _ => Step::HandOver,
        };
        Some(at)
    }

    fn object_step(&mut self, keywords: &Keywords<'_>) -> Step {
        // A field required though its schema takes `null`: its type may read the field's
        // absence as it reads `null` (a missing field is handed to `deserialize_option` as
        // `None`), so only the checker is sure to see it missing, unless the type was asked.
        let properties = keywords.properties.and_then(Value::as_object);
        let required = keywords.required.and_then(Value::as_array);
        let required_optional = !self.absence_known
            && required.into_iter().flatten().any(|name| {
                (name.as_str())
                    .and_then(|name| properties?.lookup(name))
                    .is_some_and(|property| admits_null(property, walk::Root::new(self.root)))
            });
        if required_optional {
            return Step::HandOver;
        }
        let mut fields = Vec::new();
        if let Some(properties) = keywords.properties.and_then(Value::as_object) {
            for (name, schema) in properties {
                let step = self.compile(schema);
                fields.push((name.clone(), step));
            }
        }
        let others = match keywords.additional_properties {
            Some(Value::Bool(false)) => Others::Refused,
            Some(schema @ Value::Object(_)) => Others::Checked(self.compile(schema)),
            _ => Others::Taken,
        };
        Step::Object {
            fields,
            others,
            min: keywords.min_properties.and_then(Value::as_u64),
            max: keywords.max_properties.and_then(Value::as_u64),
        }
    }

    fn text_rule(&self, keywords: &Keywords<'_>, choices: Option<Vec<String>>) -> Option<TextRule> {
        let pattern = match keywords.pattern.and_then(Value::as_str) {
            Some(pattern) => Some(self.patterns.compiled(pattern)?),
            None => None,
        };
        let rule = TextRule {
            min_length: keywords.min_length.and_then(Value::as_u64),
            max_length: keywords.max_length.and_then(Value::as_u64),
            pattern,
            format: keywords
                .format
                .and_then(Value::as_str)
                .filter(|format| formats::expected(format).is_some())
                .map(str::to_owned),
            choices,
        };
        let says_something = rule.min_length.is_some()
            || rule.max_length.is_some()
            || rule.pattern.is_some()
            || rule.format.is_some()
            || rule.choices.is_some();
        says_something.then_some(rule)
    }
}

/// The number rule of a schema object, if it has one beyond its type's own range.
fn number_rule(keywords: &Keywords<'_>) -> Option<NumberRule> {
    let (minimum, maximum) = keywords.bounds_beyond_type();
    let rule = NumberRule {
        minimum: minimum.and_then(Value::as_f64),
        maximum: maximum.and_then(Value::as_f64),
        exclusive_minimum: keywords.exclusive_minimum.and_then(Value::as_f64),
        exclusive_maximum: keywords.exclusive_maximum.and_then(Value::as_f64),
        multiple_of: keywords.multiple_of.and_then(Value::as_f64),
        single: keywords.format.and_then(Value::as_str) == Some("float"),
    };
    let says_something = rule.minimum.is_some()
        || rule.maximum.is_some()
        || rule.exclusive_minimum.is_some()
        || rule.exclusive_maximum.is_some()
        || rule.multiple_of.is_some()
        || rule.single;
    says_something.then_some(rule)
}

/// The text an `enum` or `const` allows (`Some(None)` when there is neither; a `null` among
/// them is left to the step's other rules, which every `null` passes), or `None` when it allows
/// values other than text, which the plan does not compare.
fn text_choices(keywords: &Keywords<'_>) -> Option<Option<Vec<String>>> {
    let allowed = match (keywords.enumeration, keywords.constant) {
        (None, None) => return Some(None),
        (None, Some(constant)) => std::slice::from_ref(constant),
        (Some(Value::Array(allowed)), None) => allowed.as_slice(),
        // Both, each to hold: the checker holds the value to each.
        (Some(_), _) => return None,
    };
    let mut choices = Vec::with_capacity(allowed.len());
    for value in allowed {
        match value {
            Value::String(text) => choices.push(text.clone()),
            Value::Null => {}
            _ => return None,
        }
    }
    Some(Some(choices))
}

/// Whether a schema object holds nothing but annotations besides its `$ref`.
fn only_notes(map: &Map<String, Value>) -> bool {
    map.keys()
        .all(|key| matches!(key.as_str(), "$ref" | "description" | "title" | "default"))
}

impl NumberRule {
    /// Whether `n` keeps the rule; `false` also for a number too large to be held to it as a
    /// double, which the checker then holds to it exactly.
    pub(super) fn holds(&self, n: f64) -> bool {
        n.abs() < INEXACT
            && self.minimum.is_none_or(|min| n >= min)
            && self.maximum.is_none_or(|max| n <= max)
            && self.exclusive_minimum.is_none_or(|min| n > min)
            && self.exclusive_maximum.is_none_or(|max| n < max)
            && self.multiple_of.is_none_or(|step| is_multiple_of(n, step))
            && (!self.single || (n as f32).is_finite())
    }
}

impl TextRule {
    pub(super) fn holds(&self, text: &str) -> bool {
        let length_holds = match (self.min_length, self.max_length) {
            (None, None) => true,
            (min, max) => {
                let length = text.chars().count() as u64;
                min.is_none_or(|min| length >= min) && max.is_none_or(|max| length <= max)
            }
        };
        length_holds
            && (self.choices.as_ref()).is_none_or(|choices| choices.iter().any(|c| c == text))
            && self
                .pattern
                .as_ref()
                .is_none_or(|regex| regex.is_match(text))
            && self
                .format
                .as_deref()
                .is_none_or(|format| formats::holds(format, text))
    }
}
