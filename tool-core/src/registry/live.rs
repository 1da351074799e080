//! A registry changing while it serves: tools added, replaced, removed and merged, each change
//! made whole beside the tools in use and swapped in, and announced to subscribers.

use std::sync::{Arc, PoisonError};

use tokio::sync::broadcast;

use super::builder::refuse_unexportable;
use super::catalog::{Catalog, Entry};
use super::{Change, Collision, Registry, RegistryError};
use crate::tool::Tool;
use crate::tool::definition::ToolDefinition;
use crate::tool::toolkit::Toolkit;

impl Registry {
    /// Hears of every change to the tools from now on. A subscriber that falls more than 64
    /// changes behind is told it lagged and should read [`Registry::definitions`] afresh.
    pub fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.shared.changes.subscribe()
    }

    /// Applies `change` to a copy of the tools and swaps it in; readers see all of it or none,
    /// and wait only for the swap: the copy is made and changed outside the lock they take.
    fn change<R>(
        &self,
        change: impl FnOnce(&mut Vec<Entry>, &mut Vec<ToolDefinition>) -> Result<R, RegistryError>,
    ) -> Result<R, RegistryError> {
        // One writer at a time, so that no change is made to a copy another change replaces.
        let _writing = self
            .shared
            .writer
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let (mut entries, mut definitions) = self.catalog().parts();
        let result = change(&mut entries, &mut definitions)?;
        let changed = Arc::new(Catalog::with_definitions(entries, definitions)?);
        *self
            .shared
            .catalog
            .write()
            .unwrap_or_else(PoisonError::into_inner) = changed;
        self.shared
            .generation
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Ok(result)
    }

    /// How many changes the tools have had, counted when each is made (before subscribers
    /// hear of it): a listener that reads it, then subscribes, then reads it again knows
    /// whether a change came between, which its subscription would not report.
    pub fn generation(&self) -> u64 {
        self.shared
            .generation
            .load(std::sync::atomic::Ordering::SeqCst)
    }

    fn announce(&self, change: Change) {
        // No subscribers is not an error.
        let _ = self.shared.changes.send(change);
    }

    /// Adds a tool at the end; an error, changing nothing, if its name is taken.
    pub fn add(&self, tool: impl Tool) -> Result<(), RegistryError> {
        self.add_entries(vec![Entry::new(Arc::new(tool), None)])
    }

    /// Adds a tool that is already shared at the end, in the toolkit of this name (as
    /// [`RegistryBuilder::shared_tool`](crate::registry::RegistryBuilder::shared_tool) does);
    /// an error, changing nothing, if its name is taken.
    pub fn add_shared(&self, tool: Arc<dyn Tool>, toolkit: &str) -> Result<(), RegistryError> {
        self.add_entries(vec![Entry::new(tool, Some(toolkit.into()))])
    }

    /// Adds every tool of a toolkit at the end; an error, changing nothing, if a name is
    /// taken.
    pub fn add_toolkit<T: Toolkit>(&self, toolkit: T) -> Result<(), RegistryError> {
        self.add_entries(Entry::of_toolkit(toolkit).collect())
    }

    fn add_entries(&self, added: Vec<(Entry, ToolDefinition)>) -> Result<(), RegistryError> {
        let (added, added_definitions): (Vec<Entry>, Vec<ToolDefinition>) =
            added.into_iter().unzip();
        refuse_unexportable(&added_definitions, &self.config.providers)?;
        let names = added_definitions.iter().map(|d| d.name.clone()).collect();
        self.change(|entries, definitions| {
            entries.extend(added);
            definitions.extend(added_definitions);
            Ok(())
        })?;
        self.announce(Change::Added(names));
        Ok(())
    }

    /// Puts `tool` in place of the tool of the same name, keeping its position and toolkit, or
    /// adds it at the end if there is none.
    pub fn replace(&self, tool: impl Tool) -> Result<(), RegistryError> {
        let (entry, definition) = Entry::new(Arc::new(tool), None);
        refuse_unexportable(std::slice::from_ref(&definition), &self.config.providers)?;
        let name = definition.name.clone();
        let replaced = self.change(|entries, definitions| {
            match definitions.iter().position(|d| d.name == definition.name) {
                Some(position) => {
                    entries[position].tool = entry.tool;
                    definitions[position] = definition;
                    Ok(true)
                }
                None => {
                    entries.push(entry);
                    definitions.push(definition);
                    Ok(false)
                }
            }
        })?;
        self.announce(if replaced {
            Change::Replaced(vec![name])
        } else {
            Change::Added(vec![name])
        });
        Ok(())
    }

    /// Removes the tool of this name; whether there was one.
    pub fn remove(&self, name: &str) -> bool {
        let removed = self
            .change(|entries, definitions| {
                let position = definitions.iter().position(|d| d.name == name);
                if let Some(position) = position {
                    entries.remove(position);
                    definitions.remove(position);
                }
                Ok(position.is_some())
            })
            .unwrap_or(false);
        if removed {
            self.announce(Change::Removed(vec![name.to_owned()]));
        }
        removed
    }

    /// Removes every tool.
    pub fn clear(&self) {
        let _ = self.change(|entries, definitions| {
            entries.clear();
            definitions.clear();
            Ok(())
        });
        self.announce(Change::Cleared);
    }

    /// Adds `other`'s tools to this registry, in `other`'s order, settling names both have by
    /// `policy`. An error, changing nothing, if a tool it would take is one this registry's
    /// providers refuse (`other` may have been made for others), or, with
    /// [`Collision::Error`], if any name is shared.
    pub fn merge(&self, other: &Registry, policy: Collision) -> Result<(), RegistryError> {
        let theirs = other.catalog();
        let (mut added, mut replaced) = (Vec::new(), Vec::new());
        self.change(|entries, definitions| {
            let mut taken = Vec::new();
            for (entry, definition) in theirs.entries.iter().zip(theirs.definitions.iter()) {
                match definitions.iter().position(|d| d.name == definition.name) {
                    None => {
                        entries.push(entry.clone());
                        definitions.push(definition.clone());
                        added.push(definition.name.clone());
                        taken.push(definition.clone());
                    }
                    Some(position) => match policy {
                        Collision::Error => {
                            return Err(RegistryError::DuplicateName {
                                name: definition.name.clone(),
                                toolkits: [
                                    entries[position].toolkit.to_string(),
                                    entry.toolkit.to_string(),
                                ],
                                remote: definition.is_checked_elsewhere()
                                    || definitions[position].is_checked_elsewhere(),
                            });
                        }
                        Collision::Replace => {
                            entries[position] = entry.clone();
                            definitions[position] = definition.clone();
                            replaced.push(definition.name.clone());
                            taken.push(definition.clone());
                        }
                        Collision::Keep => {}
                    },
                }
            }
            refuse_unexportable(&taken, &self.config.providers)
        })?;
        if !added.is_empty() {
            self.announce(Change::Added(added));
        }
        if !replaced.is_empty() {
            self.announce(Change::Replaced(replaced));
        }
        Ok(())
    }
}
