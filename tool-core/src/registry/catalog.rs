//! A registry's tools at one moment (the catalog), never changed once made, and what is
//! derived from them: the index of names, each provider's export and the search index, made
//! when first asked for.

use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use super::RegistryError;
#[cfg(feature = "search")]
use super::index::SearchIndex;
use crate::providers::{self, ExportError, Provider};
use crate::run::guarded::guarded;
use crate::tool::Tool;
use crate::tool::definition::ToolDefinition;
use crate::tool::toolkit::Toolkit;

/// The tools of a registry at one moment. Never changed once made: a change makes a new one.
#[derive(Default)]
pub(super) struct Catalog {
    pub(super) entries: Vec<Entry>,
    pub(super) definitions: Arc<[ToolDefinition]>,
    pub(super) index: Index,
    /// Whether any tool here may run as a task: most registries have none, and a server asks
    /// of every call.
    pub(super) tasks: bool,
    /// Every tool in each provider's shape (in the order of [`Provider::ALL`]), made when
    /// first asked for.
    pub(super) exports: [OnceLock<Result<Exported, ExportError>>; Provider::ALL.len()],
    /// The tools' search index, made when first searched.
    #[cfg(feature = "search")]
    pub(super) search: OnceLock<SearchIndex>,
}

/// Tool names to positions in a catalog, hashed with foldhash's fixed-seed hasher: far cheaper
/// than std's SipHash for a short name. SipHash resists flooding by keys chosen to collide; the
/// keys here are the names of the tools the application added, not the callers'.
pub(super) type Index = HashMap<String, usize, foldhash::fast::FixedState>;

/// A scoped view's definitions, and the catalog they were filtered from.
pub(super) type ScopedDefinitions = (Arc<Catalog>, Arc<[ToolDefinition]>);

/// A tool and the toolkit it belongs to.
#[derive(Clone)]
pub(super) struct Entry {
    pub(super) tool: Arc<dyn Tool>,
    pub(super) toolkit: Arc<str>,
}

impl Entry {
    /// `tool` in `toolkit` (without one, in a toolkit named like the tool), with its
    /// definition; held under a catch of panics unless it only makes its future
    /// (`run/guarded.rs`).
    pub(super) fn new(tool: Arc<dyn Tool>, toolkit: Option<Arc<str>>) -> (Entry, ToolDefinition) {
        let tool = guarded(tool);
        let definition = tool.definition();
        let toolkit = toolkit.unwrap_or_else(|| definition.name.as_str().into());
        (Entry { tool, toolkit }, definition)
    }

    /// Every tool of a toolkit, with its definition.
    pub(super) fn of_toolkit<T: Toolkit>(
        toolkit: T,
    ) -> impl Iterator<Item = (Entry, ToolDefinition)> {
        let name: Arc<str> = T::NAME.into();
        (toolkit.into_tools().into_iter()).map(move |tool| Entry::new(tool, Some(name.clone())))
    }
}

impl Catalog {
    /// A catalog of these tools; an error if two share a name.
    pub(super) fn with_definitions(
        entries: Vec<Entry>,
        definitions: Vec<ToolDefinition>,
    ) -> Result<Catalog, RegistryError> {
        let mut index = Index::with_capacity_and_hasher(entries.len(), Default::default());
        for (position, definition) in definitions.iter().enumerate() {
            if let Some(earlier) = index.insert(definition.name.clone(), position) {
                let toolkit = |at: usize| {
                    (entries.get(at)).map_or_else(String::new, |entry| entry.toolkit.to_string())
                };
                return Err(RegistryError::DuplicateName {
                    name: definition.name.clone(),
                    toolkits: [toolkit(earlier), toolkit(position)],
                    remote: definition.is_checked_elsewhere()
                        || definitions[earlier].is_checked_elsewhere(),
                });
            }
        }
        Ok(Catalog {
            entries,
            tasks: definitions.iter().any(ToolDefinition::runs_as_task),
            definitions: definitions.into(),
            index,
            exports: Default::default(),
            #[cfg(feature = "search")]
            search: OnceLock::new(),
        })
    }

    /// Copies of the tools and definitions, for a change to make a new catalog of.
    pub(super) fn parts(&self) -> (Vec<Entry>, Vec<ToolDefinition>) {
        (self.entries.clone(), self.definitions.to_vec())
    }
}

/// What a registry held at one moment: its definitions, or its tools in a provider's shape
/// ([`Definitions`], [`Exported`]). Derefs to a slice; cloning it costs a reference count, and
/// it does not change when the registry does.
///
/// ```
/// # let registry = tool_core::Registry::builder().build()?;
/// for definition in &registry.definitions() {
///     println!("{}: {}", definition.name, definition.description);
/// }
/// # Ok::<(), tool_core::registry::RegistryError>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct Snapshot<T>(Arc<[T]>);

/// The definitions of a registry's tools (of a scoped view: of its granted tools), in
/// insertion order, as [`Registry::definitions`](super::Registry::definitions) gives them.
pub type Definitions = Snapshot<ToolDefinition>;

/// A registry's tools (of a scoped view: its granted tools) in one provider's shape, in
/// insertion order, as [`Registry::export`](super::Registry::export) gives them.
pub type Exported = Snapshot<serde_json::Value>;

impl<T> Deref for Snapshot<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T> From<Arc<[T]>> for Snapshot<T> {
    fn from(items: Arc<[T]>) -> Self {
        Snapshot(items)
    }
}

impl<T> FromIterator<T> for Snapshot<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        Snapshot(items.into_iter().collect())
    }
}

/// `for definition in &registry.definitions()`: each item by reference, as from the slice.
impl<'a, T> IntoIterator for &'a Snapshot<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T: serde::Serialize> serde::Serialize for Snapshot<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<T: fmt::Debug> fmt::Debug for Snapshot<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Every definition in `provider`'s shape; the first error if any.
pub(super) fn export_all(
    definitions: &[ToolDefinition],
    provider: Provider,
) -> Result<Exported, ExportError> {
    definitions
        .iter()
        .map(|definition| providers::export(definition, provider))
        .collect()
}

#[cfg(feature = "search")]
impl Catalog {
    /// The search index of these tools, made on first use.
    pub(super) fn search_index(&self) -> &SearchIndex {
        self.search
            .get_or_init(|| SearchIndex::new(&self.definitions))
    }
}
