//! Which parts of a schema lead to the maps an asking (`keyed.rs`) asks about, so that it
//! walks no other (a schema object leads to one if it is one, refers to a definition that
//! leads to one, or holds a part that does), and which of those maps are reachable at all.

use std::cell::RefCell;
use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::schema::keywords::repeats_a_branch;
use crate::schema::walk::{self, Lookup, Root};

/// The parts of one schema that lead to a map `asked` picks out.
pub(super) struct Leads<'s> {
    /// Which maps are asked about.
    asked: fn(&Map<String, Value>) -> bool,
    /// Each definition, and whether it leads to one.
    definitions: HashMap<&'s str, bool>,
    /// Each schema object asked about once the definitions are known, by its address: the
    /// walk asks again of every part below a way.
    known: RefCell<HashMap<*const Map<String, Value>, bool>>,
}

impl<'s> Leads<'s> {
    /// Works out each definition of `schema`: those holding a map `asked` picks out, then,
    /// until nothing changes, those referring to one that leads to it.
    pub(super) fn new(
        schema: &'s Map<String, Value>,
        asked: fn(&Map<String, Value>) -> bool,
    ) -> Leads<'s> {
        let mut leads = Leads {
            asked,
            definitions: HashMap::new(),
            known: RefCell::default(),
        };
        let definitions = schema.lookup("$defs").and_then(Value::as_object);
        let definitions: Vec<(&'s str, &'s Value)> = (definitions.into_iter().flatten())
            .map(|(name, definition)| (name.as_str(), definition))
            .collect();
        loop {
            let mut changed = false;
            for &(name, definition) in &definitions {
                let found = definition.as_object().is_some_and(|map| leads.holds(map));
                if found && leads.definitions.insert(name, true) != Some(true) {
                    changed = true;
                }
            }
            if !changed {
                return leads;
            }
        }
    }

    /// Whether `map` leads to such a map, the definitions known.
    pub(super) fn within(&self, map: &Map<String, Value>) -> bool {
        let address: *const Map<String, Value> = map;
        if let Some(&known) = self.known.borrow().get(&address) {
            return known;
        }
        let found = self.holds(map);
        self.known.borrow_mut().insert(address, found);
        found
    }

    /// Whether `map` holds such a map, or refers to a definition known to lead to one.
    fn holds(&self, map: &Map<String, Value>) -> bool {
        let referred = (map.lookup("$ref").and_then(Value::as_str))
            .and_then(walk::definition_name)
            .is_some_and(|name| self.definitions.get(name) == Some(&true));
        (self.asked)(map)
            || referred
            || walk::children(map, |_, child| match child.as_object() {
                Some(child) if self.holds(child) => Err(()),
                _ => Ok(()),
            })
            .is_err()
    }

    /// Whether `schema` is an object that leads to such a map.
    pub(super) fn leads(&self, schema: &Value) -> bool {
        schema.as_object().is_some_and(|map| self.within(map))
    }
}

/// Every map `asked` picks out reachable from `map` (its `$ref`s followed, each once), with
/// the path the registry's other refusals write for the first way to it.
pub(super) fn reachable<'s>(
    asked: fn(&Map<String, Value>) -> bool,
    map: &'s Map<String, Value>,
    root: Root<'s>,
    path: &mut String,
    followed: &mut Vec<&'s str>,
    found: &mut Vec<(&'s Map<String, Value>, String)>,
) {
    if asked(map) && !found.iter().any(|(at, _)| std::ptr::eq(*at, map)) {
        found.push((map, path.clone()));
    }
    let reference = map.lookup("$ref").and_then(Value::as_str);
    if let Some(reference) = reference.filter(|reference| !followed.contains(reference)) {
        followed.push(reference);
        if let Some(target) = root.resolve(reference).and_then(Value::as_object) {
            reachable(asked, target, root, path, followed, found);
        }
    }
    let _ = walk::children::<()>(map, |slot, child| {
        // A branch written as one before it is the same way again, asked once.
        if let Some(child) = child.as_object().filter(|_| !repeats_a_branch(map, child)) {
            let length = walk::push_slot(path, slot);
            reachable(asked, child, root, path, followed, found);
            path.truncate(length);
        }
        Ok(())
    });
}
