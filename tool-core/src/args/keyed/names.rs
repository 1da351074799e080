//! Asking a type which keys its maps of any key (by their schema) take (`named_keys.rs` says
//! why): a pass of its own over the schema, after the maps keyed by numbers, within the same
//! bound of work.

use serde_json::{Map, Value};

use super::super::Read;
use super::super::least::{MAX_LEAST_DEPTH, least};
use super::super::named_keys::is_open;
use super::super::path::{Path, within};
use super::super::unknown_variant::variants;
use super::{Asker, Leads, Names, Step, UNNAMED, reachable};
use crate::schema::walk::{Lookup, Root};

/// Asks about the maps of any key by their schema which keys their types take
/// ([`Asker::names`]): each map's names where every way to it found the same, and none at
/// all where the asking could not go every way. `work` done already counts against
/// `MAX_WORK`, which bounds the whole asking.
pub(super) fn ask_names<'s>(
    schema: &'s Map<String, Value>,
    root: Root<'s>,
    read: &mut Read<'_>,
    work: usize,
) -> Vec<(String, Names)> {
    let mut open = Vec::new();
    reachable(
        is_open,
        schema,
        root,
        &mut String::new(),
        &mut Vec::new(),
        &mut open,
    );
    if open.is_empty() {
        return Vec::new();
    }
    let leads = Leads::new(schema, is_open);
    let mut asker = Asker::new(root, read, &leads, true, work);
    asker.object(schema);
    if asker.exhausted {
        return Vec::new();
    }
    let mut named = Vec::new();
    for (map, _) in open {
        let unasked = asker.unasked.iter().any(|&at| std::ptr::eq(at, map));
        let mut here = (asker.named.iter()).filter(|(at, _)| std::ptr::eq(*at, map));
        let Some((_, Some(names))) = here.next() else {
            continue;
        };
        if !unasked && here.all(|(_, other)| other.as_ref() == Some(names)) {
            named.push((map, names.clone()));
        }
    }
    super::super::key_ranges::located(schema, &named)
}

impl<'s> Asker<'s, '_, '_, '_> {
    /// The names the map of any key at the way's end, `map`, takes, where its type refuses a
    /// key no variant is named ([`UNNAMED`]) at the map and names those it takes (an enum whose
    /// variants have docs), or refuses it as serde_json refuses a `bool` key and takes `true`
    /// and `false`: each name seen taken, and each of [`near_names`] seen refused, so that a
    /// key type of its own taking more than it names (a parser that ignores case) keeps the
    /// schema of any key. A map asked on an earlier way is only heard refusing the key with the
    /// same names. `None` where it takes any key, refuses keys another way, the way passes
    /// through an untagged enum (whose refusal serde tells where the map sits, for a variant
    /// that is the map itself), or a read fails elsewhere, which tells nothing of the key.
    pub(super) fn names(&mut self, map: &'s Map<String, Value>) -> Option<Names> {
        let buffered =
            (self.way.iter()).any(|(_, step)| matches!(step, Step::Branch { buffered: true }));
        if buffered {
            return None;
        }
        let values = map.lookup("additionalProperties")?;
        let value = least(values, self.root, MAX_LEAST_DEPTH).unwrap_or(Value::Null);
        let map_at = self.path();
        // Taken, refused at the map with serde's words, or `None`: failed elsewhere.
        let read = |asker: &mut Self, key: &str| -> Option<Result<(), String>> {
            let entry = Map::from_iter([(key.to_owned(), value.clone())]);
            let mut entry_at = Path(map_at.clone());
            entry_at.push_field(key);
            match asker.read_with(&entry, false, key)?.failed {
                None => Some(Ok(())),
                Some((at, _)) if at != map_at && within(&at, &entry_at.0) => Some(Ok(())),
                Some((at, error)) if at == map_at => Some(Err(error)),
                Some(_) => None,
            }
        };
        let refusal = read(self, UNNAMED)?.err()?;
        let names = match variants(&refusal, UNNAMED) {
            Some(names) => names,
            None if refuses_as_bool(&refusal) => vec!["true".to_owned(), "false".to_owned()],
            None => return None,
        };
        let earlier =
            (self.named.iter()).find_map(|(at, names)| std::ptr::eq(*at, map).then_some(names));
        if let Some(earlier) = earlier {
            return earlier
                .as_ref()
                .filter(|earlier| **earlier == names)
                .cloned();
        }
        for name in &names {
            read(self, name)?.ok()?;
        }
        for near in near_names(&names) {
            read(self, &near)?.err()?;
        }
        Some(names)
    }
}

/// Whether `refusal` is serde_json's of a key that is no `bool`: `invalid type: string
/// "...", expected a boolean` (the key's text less its first letter, which it reads before it
/// knows the key is neither word).
fn refuses_as_bool(refusal: &str) -> bool {
    refusal.starts_with("invalid type: string ") && refusal.ends_with(", expected a boolean")
}

/// How many of a map's names are also sent in other letter cases: a parser that ignores case
/// takes every one so, and a few show it.
const NAMES_IN_OTHER_CASES: usize = 8;

/// Keys a type that takes exactly `names` refuses, and one taking more than it names may
/// take: the first names in other letter cases, and for `true` and `false` the other words
/// and digits a parser of truth values may take.
fn near_names(names: &[String]) -> Vec<String> {
    let truths = [
        "True", "False", "TRUE", "FALSE", "1", "0", "yes", "no", "on", "off",
    ];
    let truths = (names == ["true", "false"]).then_some(truths.map(str::to_owned));
    let cases = (names.iter().take(NAMES_IN_OTHER_CASES))
        .flat_map(|name| [name.to_uppercase(), name.to_lowercase()]);
    let mut near: Vec<String> = cases.chain(truths.into_iter().flatten()).collect();
    near.retain(|key| !names.contains(key));
    near.sort();
    near.dedup();
    near
}

#[cfg(test)]
mod tests {
    use super::near_names;

    #[test]
    fn near_names_are_other_cases_and_other_truths_never_a_name() {
        let names = |names: &[&str]| {
            names
                .iter()
                .map(|name| name.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(near_names(&names(&["Low", "high"])), ["HIGH", "LOW", "low"]);
        let truths = near_names(&names(&["true", "false"]));
        assert!(truths.contains(&"TRUE".to_owned()) && truths.contains(&"yes".to_owned()));
        assert!(!truths.contains(&"true".to_owned()), "{truths:?}");
        // A name in another case that is a name itself is not sent as one refused.
        assert_eq!(near_names(&names(&["a", "A"])), Vec::<String>::new());
    }
}
