//! The checker's way with unions (`anyOf`, `oneOf`): which branch a value was meant for, by a
//! tagged enum's tag or by the shape of the value, so that its faults are those of that branch
//! rather than of every branch it failed.

use serde_json::Value;

use super::checker::{Checker, received};
use super::path::{Path, quote};
use crate::args::tree::Node;
use crate::outcome::suggest::nearest;
use crate::schema::keywords::{
    UNIONS, fixed_value, is_null_schema, only_solid_branch, repeats_earlier,
};
use crate::schema::walk::Lookup;

/// How deep [`Checker::fixed`] looks into unions within unions.
const MAX_UNIONS_WITHIN: usize = 8;

impl<'s> Checker<'s> {
    /// `anyOf`/`oneOf`: fine if any branch accepts the value (`oneOf`, `exactly_one`: if no
    /// other does too). Otherwise report the faults of the one branch whose shape the value has
    /// (an enum variant's object, say), or one fault naming every branch.
    // Kept apart from the check of every value, which most never reach.
    #[inline(never)]
    pub(super) fn check_branches(
        &mut self,
        value: &mut Node<'_>,
        branches: &'s [Value],
        exactly_one: bool,
        path: &mut Path,
    ) {
        // What each branch fixes (its tags), worked out once: only an object has tags.
        let fixed: Vec<Fixed<'s>> = match value {
            Node::Object(_) => branches.iter().map(|branch| self.fixed(branch)).collect(),
            _ => Vec::new(),
        };
        if let Some((tag, tags)) = tag_of(&fixed)
            && (self.tag_is_wrong(value, tag, &tags, path)
                || self.inner_tag_is_wrong(value, &fixed, (tag, &tags), path))
        {
            return;
        }
        let differs = |at: usize| fixed.get(at).is_some_and(|fixed| tag_differs(fixed, value));
        let mut candidates = Vec::new();
        // The faults of the one branch that is not `null`, for a value that is not null: an
        // optional's type, whatever shape it has (a union of its own, say).
        let mut solid = None;
        let only_one_solid = !value.is_null() && only_solid_branch(branches).is_some();
        // An object only one branch can fit, each other being of another type or requiring a
        // field it lacks (an externally tagged enum's variants), and of that branch's shape:
        // checked in place, as that branch's faults are what would be told. Tried on a copy
        // at every level of a deep value, the copies cost the square of its depth.
        if !only_one_solid
            && let Some(only) = self.only_possible(branches, &differs, exactly_one, value)
        {
            self.check(value, only, path);
            return;
        }
        // Each branch is tried on a copy, sharing this checker's steps. The first branch that
        // fits, its value, and whether the check changed it, held while the others are tried:
        // for `oneOf`, none of them may fit too; for `anyOf`, one that fits the value as sent
        // (not only once changed: `3.0` read as an integer, a `null` taken out) is taken first,
        // as serde's read of an untagged enum takes the first variant that reads the value as
        // sent, and so must the check, which hands serde the value as it leaves it.
        let mut fits: Option<(usize, Node<'_>, bool)> = None;
        // The fields every branch names, made when a branch does not fit.
        let mut common = None;
        // How many branches are not written as one before them, and the faults of the first
        // where its shape is not the value's: the only one (each other written as it is), its
        // faults are the value's.
        let mut distinct = 0;
        let mut lone = None;
        for (at, branch) in branches.iter().enumerate() {
            // A branch written as one before it (an untagged enum's variants wrapping one
            // type) fits as that one did: for `anyOf`, not tried again, or a value nested in
            // such unions is tried the product of their lengths times.
            let repeated = !exactly_one && repeats_earlier(branches, at);
            distinct += usize::from(!repeated);
            if differs(at) || repeated {
                continue;
            }
            let Some(trial) = self.trial(value, branch, path) else {
                return;
            };
            if trial.faults.is_empty() {
                if !exactly_one && !trial.changed {
                    *value = trial.value;
                    return;
                }
                if let (true, Some((first, ..))) = (exactly_one, &fits) {
                    let problem = format!(
                        "fits both branch {} and branch {} of `oneOf`, which takes a value \
                         that fits exactly one",
                        first + 1,
                        at + 1
                    );
                    self.fault(path, problem);
                    return;
                }
                fits.get_or_insert((at, trial.value, trial.changed));
                continue;
            }
            if only_one_solid && !is_null_schema(branch) {
                solid = Some(trial.faults);
            } else if self.shape_matches(
                branch,
                value,
                common.get_or_insert_with(|| self.common_fields(branches)),
            ) {
                candidates.push(trial.faults);
            } else if distinct == 1 {
                lone = Some(trial.faults);
            }
        }
        if let Some((_, trial, changed)) = fits {
            *value = trial;
            self.rewrote |= changed;
            return;
        }
        if let Some(faults) = solid {
            self.faults.extend(faults);
        } else if candidates.len() == 1 {
            self.faults.extend(candidates.remove(0));
        } else if let (1, Some(faults)) = (distinct, lone) {
            self.faults.extend(faults);
        } else {
            let expected = self.words.of_branches(branches);
            self.note_shown(value);
            self.fault(
                path,
                format!("expected {expected}, received {}", received(value)),
            );
        }
    }

    /// The one branch of `branches` that can fit `value`, an object, where each other is of
    /// another type, requires a field the object lacks or fixes its tag to another value
    /// (`differs`, by the branch's place), or, for `anyOf`, is written as that one is; and
    /// `value` has that branch's shape ([`Checker::shape_matches`]).
    fn only_possible(
        &self,
        branches: &'s [Value],
        differs: &dyn Fn(usize) -> bool,
        exactly_one: bool,
        value: &Node<'_>,
    ) -> Option<&'s Value> {
        let Node::Object(object) = value else {
            return None;
        };
        let possible = |at: usize, branch: &'s Value| {
            let Some(schema) = self.root.deref(branch) else {
                return true;
            };
            let typed = (schema.lookup("type")).is_none_or(|types| value.is_of_type(types));
            let required = schema.lookup("required").and_then(Value::as_array);
            let lacks = (required.into_iter().flatten())
                .filter_map(Value::as_str)
                .any(|name| !object.iter().any(|(key, _)| key.as_ref() == name));
            typed && !lacks && !differs(at)
        };
        let mut found = (branches.iter().enumerate())
            .filter(|(at, branch)| possible(*at, branch))
            .map(|(_, branch)| branch);
        let only = found.next()?;
        if found.any(|other| exactly_one || other != only) {
            return None;
        }
        self.shape_matches(only, value, &self.common_fields(branches))
            .then_some(only)
    }

    /// The properties `branch` fixes to one value, each with its value: its own, or, for a
    /// branch that is a union of its own (an untagged enum a tagged variant wraps), those every
    /// branch of it fixes to the same value. `None` where it is no object schema.
    fn fixed(&self, branch: &'s Value) -> Fixed<'s> {
        self.fixed_within(branch, MAX_UNIONS_WITHIN)
    }

    /// [`Checker::fixed`], looking into unions within unions `depth` deep at most: a schema
    /// not made by schemars (a remote server's) may hold a union that holds itself.
    fn fixed_within(&self, branch: &'s Value, depth: usize) -> Fixed<'s> {
        let branch = self.root.deref(branch)?;
        if let Some(properties) = branch.lookup("properties").and_then(Value::as_object) {
            return Some(
                (properties.iter())
                    .filter_map(|(key, property)| Some((key.as_str(), fixed_value(property)?)))
                    .collect(),
            );
        }
        let within = UNIONS
            .into_iter()
            .find_map(|union| branch.get(union).and_then(Value::as_array))?;
        let depth = depth.checked_sub(1)?;
        let mut each = within.iter().map(|inner| self.fixed_within(inner, depth));
        let mut shared = each.next()??;
        for inner in each {
            let inner = inner?;
            shared.retain(|pair| inner.contains(pair));
        }
        Some(shared)
    }

    /// A fault at the inner tag of a value whose `outer` tag names several branches (`fixed`,
    /// what each fixes), as a tagged variant wrapping a tagged enum is one branch for each
    /// variant of that enum, when the inner tag is missing or names none of them; whether
    /// there was one.
    fn inner_tag_is_wrong(
        &mut self,
        value: &Node<'_>,
        fixed: &[Fixed<'s>],
        (outer, tags): (&str, &[&'s Value]),
        path: &mut Path,
    ) -> bool {
        let sent = value.field(outer);
        let named: Vec<&[(&'s str, &'s Value)]> = (fixed.iter().zip(tags))
            .filter(|(_, tag)| sent.is_some_and(|sent| sent.equals(tag)))
            .filter_map(|(fixed, _)| fixed.as_deref())
            .collect();
        if named.len() < 2 {
            return false;
        }
        // A property each branch named fixes, to values that are not all one.
        let inner = shared_property(&named, |key, values| {
            key != outer && values.iter().any(|value| *value != values[0])
        });
        match inner {
            Some((inner, values)) => self.tag_is_wrong(value, inner, &values, path),
            None => false,
        }
    }

    /// A fault at the tag of a tagged enum's value, when the tag is missing or names no
    /// variant; whether there was one.
    pub(super) fn tag_is_wrong(
        &mut self,
        value: &Node<'_>,
        tag: &str,
        tags: &[&'s Value],
        path: &mut Path,
    ) -> bool {
        // Once each: variants paired with another flattened enum's share their tags.
        let mut listed: Vec<String> = Vec::with_capacity(tags.len());
        for tag in tags.iter().map(|tag| tag.to_string()) {
            if !listed.contains(&tag) {
                listed.push(tag);
            }
        }
        let listed = listed.join(", ");
        let problem = match value.field(tag) {
            None => format!("missing; expected one of {listed}"),
            Some(sent) if tags.iter().any(|tag| sent.equals(tag)) => return false,
            Some(sent) => {
                self.note_shown(sent);
                let meant = match sent {
                    Node::String(sent) => nearest(sent, tags.iter().filter_map(|tag| tag.as_str())),
                    _ => None,
                };
                match meant {
                    Some(meant) => format!(
                        "expected one of {listed}, received {}; did you mean {}?",
                        received(sent),
                        quote(meant)
                    ),
                    None => format!("expected one of {listed}, received {}", received(sent)),
                }
            }
        };
        path.with_field(tag, |path| self.fault(path, problem));
        true
    }

    /// The fields every one of `branches` names, but for a tag (a field each fixes to a
    /// value): the fields of a struct that flattens an enum, written into each variant, which
    /// tell none apart.
    fn common_fields(&self, branches: &'s [Value]) -> Vec<&'s str> {
        let properties =
            |branch: &'s Value| self.root.deref(branch)?.lookup("properties")?.as_object();
        let named = |branch: &'s Value| {
            properties(branch).map(|properties| properties.keys().map(String::as_str))
        };
        let Some(first) = branches.first().and_then(properties) else {
            return Vec::new();
        };
        (first.iter())
            .filter(|(_, property)| fixed_value(property).is_none())
            .map(|(field, _)| field.as_str())
            .filter(|field| {
                branches[1..].iter().all(|branch| {
                    named(branch).is_some_and(|mut fields| fields.any(|other| other == *field))
                })
            })
            .collect()
    }

    /// Whether `value` has the JSON type `schema` asks for and, for objects, carries a key the
    /// schema names but for those of `common`, which every branch names (how an externally
    /// tagged enum variant is told apart).
    pub(super) fn shape_matches(
        &self,
        schema: &'s Value,
        value: &Node<'_>,
        common: &[&str],
    ) -> bool {
        let Some(schema) = self.root.deref(schema) else {
            return false;
        };
        if schema.lookup("enum").is_some() || schema.lookup("const").is_some() {
            return false;
        }
        let typed = schema
            .lookup("type")
            .is_some_and(|types| value.is_of_type(types));
        match (
            value,
            schema.lookup("properties").and_then(Value::as_object),
        ) {
            (Node::Object(object), Some(properties)) => {
                typed
                    && (object.iter()).any(|(key, _)| {
                        properties.lookup(key).is_some() && !common.contains(&key.as_ref())
                    })
            }
            _ => typed,
        }
    }
}

/// The properties a branch fixes to one value, each with its value ([`Checker::fixed`]).
type Fixed<'s> = Option<Vec<(&'s str, &'s Value)>>;

/// Whether `value` is an object whose tag (a property its branch fixes, `fixed`, as an
/// internally or adjacently tagged enum's variant does) holds another value: then the branch
/// cannot fit, and its faults would say nothing useful.
fn tag_differs(fixed: &Fixed<'_>, value: &Node<'_>) -> bool {
    (fixed.iter().flatten())
        .any(|(key, fixed)| value.field(key).is_some_and(|sent| !sent.equals(fixed)))
}

/// The tag of a tagged enum's variants, if the branches whose fixed properties are `fixed`
/// are that: objects that each fix one property (the same in all of them) to a value of their
/// own. Gives the property and the values, in the variants' order.
fn tag_of<'s>(fixed: &[Fixed<'s>]) -> Option<(&'s str, Vec<&'s Value>)> {
    if fixed.len() < 2 {
        return None;
    }
    let fixed: Vec<&[(&'s str, &'s Value)]> =
        fixed.iter().map(Option::as_deref).collect::<Option<_>>()?;
    shared_property(&fixed, |_, _| true)
}

/// The first property every one of `fixed` fixes, with its value in each, that `accept`s.
fn shared_property<'s>(
    fixed: &[&[(&'s str, &'s Value)]],
    accept: impl Fn(&str, &[&'s Value]) -> bool,
) -> Option<(&'s str, Vec<&'s Value>)> {
    let (first, _) = fixed.split_first()?;
    first.iter().find_map(|(key, _)| {
        let values: Vec<&'s Value> = (fixed.iter())
            .map(|each| (each.iter().find(|(other, _)| other == key)).map(|(_, value)| *value))
            .collect::<Option<_>>()?;
        accept(key, &values).then_some((*key, values))
    })
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::args::parse;
    use crate::args::prepared::Prepared;

    #[test]
    fn a_union_that_holds_itself_is_looked_into_for_tags_only_so_deep() {
        // Not one schemars writes (the registry refuses it when made from a type), but one a
        // schema written by hand may hold: each union's first branch is the other union.
        let schema = json!({
            "type": "object",
            "properties": {"x": {"$ref": "#/$defs/A"}},
            "required": ["x"],
            "$defs": {
                "A": {"anyOf": [
                    {"$ref": "#/$defs/B"},
                    {"type": "object", "properties": {"t": {"const": "a"}}, "required": ["t"]}
                ]},
                "B": {"anyOf": [
                    {"$ref": "#/$defs/A"},
                    {"type": "object", "properties": {"t": {"const": "b"}}, "required": ["t"]}
                ]}
            }
        });
        let schema = Prepared::new(schema.as_object().cloned().unwrap());
        // The checker follows the union round until its steps run out, and says so; looking
        // for a tag overflowed the stack first.
        for text in [r#"{"x":{"t":"b"}}"#, r#"{"x":{"t":"c"}}"#] {
            let refusal = parse::<Value>(text, &schema, "t").unwrap_err();
            assert!(
                refusal.lines[0].cells[1].starts_with("too large or too deeply nested"),
                "{refusal}"
            );
        }
    }
}
