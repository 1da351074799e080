//! A traced read's trail: the path the guard is at as it goes down the arguments, and the
//! path of the innermost value whose read failed (errors come up from the innermost value
//! first, so the first failure noted is the innermost).

use std::cell::{Cell, RefCell};

use crate::args::path::Path;

/// Where a traced read is, and where it failed.
#[derive(Default)]
pub(super) struct Trail {
    at: RefCell<Path>,
    /// The last key read: the field of the value read next.
    key: RefCell<String>,
    /// Whether the key last noted is the one being read: from its note until the read of its
    /// value begins ([`Trail::field`]), or it is known to be a unit variant's name, which no
    /// value follows ([`Trail::key_done`]). Kept so, a good read notes nothing more.
    key_seen: Cell<bool>,
    /// The key refused where the read failed, if a key was what failed.
    refused_key: RefCell<Option<String>>,
    /// The keys from 0 to 7 serde read as integers (of a map keyed by integers read from the
    /// text, not from serde's buffer, where a key is text), a bit each: what asking a type
    /// about such a map needs (`keyed.rs`), in a field with nothing to drop.
    integers: Cell<u8>,
    failed: RefCell<Option<String>>,
}

impl Trail {
    /// Notes `key`, read, as the field of the value read next.
    pub(super) fn note_key(&self, key: &str) {
        let mut kept = self.key.borrow_mut();
        kept.clear();
        kept.push_str(key);
        self.key_seen.set(true);
    }

    /// Notes that the key last noted was a unit variant's name, which no value follows.
    pub(super) fn key_done(&self) {
        self.key_seen.set(false);
    }

    /// Notes that the read of a key failed. A key noted and then refused (an enum's unknown
    /// variant, text that is no `char`, a key type's own rule) fails where its map sits, and
    /// the fault is shown at the key's own path ([`Trail::fault_at`]), so that a model sent
    /// `{"colours": {"Green": 1}}` is told which key to change, while the asking tells a key
    /// refused from its value by the path.
    #[cold]
    pub(super) fn refuse_key(&self) {
        let mut failed = self.failed.borrow_mut();
        if failed.is_none() && self.key_seen.get() {
            *failed = Some(self.at.borrow().0.clone());
            *self.refused_key.borrow_mut() = Some(self.key.borrow().clone());
        }
    }

    /// Notes `key`, read as an integer, as [`Trail::note_key`] does, and keeps it if it is
    /// one from 0 to 7.
    pub(super) fn note_integer_key(&self, key: &str) {
        self.note_key(key);
        if let Some(bit) = small(key) {
            self.integers.set(self.integers.get() | bit);
        }
    }

    /// Whether `key`, one from 0 to 7, was read as an integer.
    pub(super) fn read_as_integer(&self, key: &str) -> bool {
        small(key).is_some_and(|bit| self.integers.get() & bit != 0)
    }

    /// `read` of the value of the last key read, its path noted if it fails.
    pub(super) fn field<T, E>(&self, read: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
        self.key_seen.set(false);
        self.below(|at| at.push_field(&self.key.borrow()), read)
    }

    /// `read` of the item at `index`, its path noted if it fails.
    pub(super) fn item<T, E>(
        &self,
        index: u64,
        read: impl FnOnce() -> Result<T, E>,
    ) -> Result<T, E> {
        self.below(|at| at.push_index(index), read)
    }

    /// `read` one level down (the path made longer by `push`), the path cut back after it.
    /// The path is not borrowed while `read` runs: reads further down note theirs in it.
    fn below<T, E>(
        &self,
        push: impl FnOnce(&mut Path),
        read: impl FnOnce() -> Result<T, E>,
    ) -> Result<T, E> {
        let len = self.at.borrow().0.len();
        push(&mut self.at.borrow_mut());
        let result = read();
        let mut at = self.at.borrow_mut();
        if result.is_err() {
            self.failed.borrow_mut().get_or_insert_with(|| at.0.clone());
        }
        at.0.truncate(len);
        result
    }

    /// Where the read failed; empty for the arguments as a whole, or if it did not fail. A
    /// key refused fails where its map sits.
    pub(super) fn failed_at(self) -> String {
        self.failed.into_inner().unwrap_or_default()
    }

    /// Where the read failed, as a fault is shown: a key refused at its own path.
    pub(super) fn fault_at(self) -> String {
        let refused_key = self.refused_key.take();
        let mut at = Path(self.failed_at());
        if let Some(key) = refused_key {
            at.push_field(&key);
        }
        at.0
    }
}

/// The bit of `key`, an integer from 0 to 7 written in digits.
fn small(key: &str) -> Option<u8> {
    match key.as_bytes() {
        [digit @ b'0'..=b'7'] => Some(1 << (digit - b'0')),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;
    use serde_json::json;

    use crate::args::parse_strict;
    use crate::args::prepared::Prepared;

    /// Text the schema allows, which this type refuses unless it is upper case: a fault only
    /// the type's own `Deserialize` finds.
    struct Code;

    impl<'de> Deserialize<'de> for Code {
        fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
            let text = String::deserialize(de)?;
            match text.chars().all(|c| c.is_ascii_uppercase()) {
                true => Ok(Code),
                false => Err(serde::de::Error::custom(format!("{text:?} is not a code"))),
            }
        }
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Item {
        name: String,
        code: Code,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Order {
        items: Vec<Item>,
        by: BTreeMap<String, Code>,
        #[serde(default)]
        backup: Option<Box<Order>>,
    }

    fn schema() -> Prepared {
        let schema = json!({
            "type": "object",
            "properties": {
                "items": {"type": "array", "items": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "code": {"type": "string"}},
                    "required": ["name", "code"],
                    "additionalProperties": false
                }},
                "by": {"type": "object", "additionalProperties": {"type": "string"}},
                "backup": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}
            },
            "required": ["items", "by"],
            "additionalProperties": false
        });
        Prepared::new(schema.as_object().cloned().unwrap_or_default())
    }

    #[test]
    fn a_fault_only_a_type_s_own_deserialize_finds_is_at_its_path() {
        for (arguments, path, problem) in [
            (
                json!({"items": [{"name": "a", "code": "AB"}, {"name": "b", "code": "ab"}], "by": {}}),
                "items[1].code",
                r#""ab" is not a code"#,
            ),
            (
                json!({"items": [], "by": {"A": "AB", "x y": "cd"}}),
                r#"by["x y"]"#,
                r#""cd" is not a code"#,
            ),
            (
                json!({"items": [], "by": {}, "backup": {"items": [], "by": {"k": "e"}}}),
                "backup.by.k",
                r#""e" is not a code"#,
            ),
        ] {
            let Err(refusal) = parse_strict::<Order>(&arguments.to_string(), &schema(), "order")
            else {
                panic!("{arguments} was read");
            };
            let faults: Vec<(&str, &str)> = refusal
                .lines
                .iter()
                .filter(|line| line.label == "fault")
                .map(|line| (line.cells[0].as_str(), line.cells[1].as_str()))
                .collect();
            assert_eq!(faults, [(path, problem)], "{arguments}");
        }
    }
}
