//! Every fault only serde finds in a call, not the first alone. serde stops at its first
//! fault; where the checker finds none (a custom `Deserialize`, a `try_from`, a key type's
//! own rule: what a schema cannot say), each is found by reading the arguments again with the
//! field or map entry that holds the last one taken out, so that serde goes on past it. A
//! model sending three notes that a rule refuses is told of the three, not of one a call.
//!
//! The text is cut as written, each value's text kept as sent (serde_json's `RawValue`): read
//! into a tree and written again, an integer past 64 bits would come back a double.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::path::{Path, within};
use super::{Fault, Read, fault_of};

/// The most faults serde is asked for in one call, each a read of the whole arguments.
const MAX_SERDE_FAULTS: usize = 16;

/// Every fault serde finds in `text`, where the checker found none, `error` (serde's refusal
/// of `text` read by `read`) the first: the next read without the field or entry that holds
/// the last fault, until a read passes, a fault is at no field or entry (an item of a list,
/// the arguments as a whole), one may be the taking out's, or [`MAX_SERDE_FAULTS`].
pub(super) fn serde_faults(
    text: &str,
    error: serde_json::Error,
    read: &mut Read<'_>,
) -> Vec<Fault> {
    let mut faults = vec![fault_of(text, error, read)];
    let mut text = text.to_owned();
    // The objects a field was taken out of.
    let mut taken_from = Vec::new();
    while faults.len() < MAX_SERDE_FAULTS {
        let Some(last) = faults.last() else { break };
        let Some((next, object)) = without(&text, &last.path) else {
            break;
        };
        taken_from.push(object);
        let Err(error) = read(&next, None) else {
            break;
        };
        let fault = fault_of(&next, error, read);
        // A fault at an object a field was taken out of, or around it, may be the taking out's
        // (a field serde misses, an enum's object left with no variant, an untagged enum that
        // no longer fits), not the call's; a fault found again is no step past the last.
        let ours = (taken_from.iter()).any(|object| within(object, &fault.path));
        if ours || faults.iter().any(|found| found.path == fault.path) {
            break;
        }
        faults.push(fault);
        text = next;
    }
    faults
}

/// `text` without the field or map entry at `at`, and the path of the object it was in:
/// `None` where `at` is no object's field (an item, the arguments as a whole) or is not in
/// `text`.
fn without(text: &str, at: &str) -> Option<(String, String)> {
    let raw: &RawValue = serde_json::from_str(text).ok()?;
    let mut object = None;
    let cut = without_in(raw, &mut Path::default(), at, &mut object)?;
    Some((cut, object?))
}

/// [`without`] within `raw`, at `path`: its text with the field at `at` taken out, the path
/// of its object noted in `object`.
fn without_in(
    raw: &RawValue,
    path: &mut Path,
    at: &str,
    object: &mut Option<String>,
) -> Option<String> {
    let text = raw.get();
    match text.as_bytes().first()? {
        b'{' => {
            let Fields(fields) = serde_json::from_str(text).ok()?;
            let mut written = Vec::with_capacity(fields.len());
            let mut found = false;
            for (key, value) in fields {
                let (here, below) =
                    path.with_field(&key, |path| (path.0 == at, within(at, &path.0)));
                match (found, here, below) {
                    (false, true, _) => {
                        found = true;
                        *object = Some(path.0.clone());
                        continue;
                    }
                    (false, false, true) => {
                        let cut =
                            path.with_field(&key, |path| without_in(value, path, at, object))?;
                        found = true;
                        written.push(field(&key, &cut)?);
                    }
                    _ => written.push(field(&key, value.get())?),
                }
            }
            found.then(|| format!("{{{}}}", written.join(",")))
        }
        b'[' => {
            let items: Vec<&RawValue> = serde_json::from_str(text).ok()?;
            let mut written = Vec::with_capacity(items.len());
            let mut found = false;
            for (index, item) in items.into_iter().enumerate() {
                let below = path.with_index(index, |path| within(at, &path.0) && path.0 != at);
                match !found && below {
                    true => {
                        let cut =
                            path.with_index(index, |path| without_in(item, path, at, object))?;
                        found = true;
                        written.push(cut);
                    }
                    false => written.push(item.get().to_owned()),
                }
            }
            found.then(|| format!("[{}]", written.join(",")))
        }
        _ => None,
    }
}

/// A field written as JSON text: its key quoted, its value as given.
fn field(key: &str, value: &str) -> Option<String> {
    Some(format!("{}:{value}", serde_json::to_string(key).ok()?))
}

/// An object's fields as sent, in order, each value's text as written.
struct Fields<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Fields<'a> {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct FieldsVisitor;

        impl<'de> Visitor<'de> for FieldsVisitor {
            type Value = Fields<'de>;

            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("an object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields<'de>, A::Error> {
                let mut fields = Vec::new();
                while let Some(entry) = map.next_entry::<String, &'de RawValue>()? {
                    fields.push(entry);
                }
                Ok(Fields(fields))
            }
        }

        de.deserialize_map(FieldsVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::without;

    #[test]
    fn a_field_or_entry_is_cut_from_the_text_as_written_and_nothing_else() {
        let text = r#"{"a": {"x": 1, "y": [1, {"z": 18446744073709551617}]}, "b": 2.50}"#;
        let (cut, object) = without(text, "a.y[1].z").unwrap();
        assert_eq!(cut, r#"{"a":{"x":1,"y":[1,{}]},"b":2.50}"#);
        assert_eq!(object, "a.y[1]");
        let (cut, object) = without(text, "a").unwrap();
        assert_eq!((cut.as_str(), object.as_str()), (r#"{"b":2.50}"#, ""));
        // Quoted keys, as a path writes them.
        let (cut, object) = without(r#"{"m": {"a.b": 1, "c": 2}}"#, r#"m["a.b"]"#).unwrap();
        assert_eq!((cut.as_str(), object.as_str()), (r#"{"m":{"c":2}}"#, "m"));
        // An item, the whole, a place not in the text: nothing to take out.
        for at in ["a.y[0]", "", "a.q", "b.c"] {
            assert_eq!(without(text, at), None, "{at}");
        }
    }
}
