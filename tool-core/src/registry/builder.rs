//! Making a registry: from tools and toolkits added one by one (checked when built), or from
//! what `registry![...]` expands to (names checked when the crate is built).

use std::sync::Arc;

use super::catalog::{Catalog, Entry};
use super::{Registry, RegistryError};
use crate::providers::{self, Provider};
use crate::tool::Tool;
use crate::tool::definition::ToolDefinition;
use crate::tool::toolkit::Toolkit;

/// Collects tools for a [`Registry`]; see [`Registry::builder`].
#[derive(Default)]
pub struct RegistryBuilder {
    entries: Vec<Entry>,
    definitions: Vec<ToolDefinition>,
    providers: Option<Vec<Provider>>,
}

impl RegistryBuilder {
    /// Adds a tool; for `#[tool] async fn note_write`, pass `NoteWrite`. A tool added on its
    /// own is a toolkit of its own, named like it.
    pub fn tool(mut self, tool: impl Tool) -> Self {
        let (entry, definition) = Entry::new(Arc::new(tool), None);
        self.entries.push(entry);
        self.definitions.push(definition);
        self
    }

    /// Adds a tool that is already shared, in the toolkit of this name.
    pub fn shared_tool(mut self, tool: Arc<dyn Tool>, toolkit: &str) -> Self {
        let (entry, definition) = Entry::new(tool, Some(toolkit.into()));
        self.definitions.push(definition);
        self.entries.push(entry);
        self
    }

    /// Adds every tool of a toolkit.
    pub fn toolkit<T: Toolkit>(mut self, toolkit: T) -> Self {
        for (entry, definition) in Entry::of_toolkit(toolkit) {
            self.entries.push(entry);
            self.definitions.push(definition);
        }
        self
    }

    /// Sets the providers the registry is for (all of them unless set): [`build`] refuses
    /// tools they would refuse, and so do [`Registry::check`] and the methods that add tools
    /// later. The one place to say it: a registry's providers are fixed when it is made, and
    /// `registry![...]` makes one for every provider.
    ///
    /// [`build`]: RegistryBuilder::build
    pub fn providers(mut self, providers: impl IntoIterator<Item = Provider>) -> Self {
        self.providers = Some(providers.into_iter().collect());
        self
    }

    /// Builds the registry; an error if two tools share a name, if a tool has a field of no
    /// single type without `#[tool(allow_any)]`, or if a provider the registry is for would
    /// refuse a tool (see [`Registry::check`]).
    pub fn build(self) -> Result<Registry, RegistryError> {
        let providers = self.providers.unwrap_or_else(|| Provider::ALL.to_vec());
        refuse_unexportable(&self.definitions, &providers)?;
        let catalog = Catalog::with_definitions(self.entries, self.definitions)?;
        let mut registry = Registry::from_catalog(catalog);
        let config = Arc::make_mut(&mut registry.config);
        config.providers = providers;
        Ok(registry)
    }
}

pub(super) fn refuse_unexportable(
    definitions: &[ToolDefinition],
    providers: &[Provider],
) -> Result<(), RegistryError> {
    let errors = providers::check(definitions, providers);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(RegistryError::Unexportable { errors })
    }
}

impl Registry {
    /// What `registry![...]` expands to, once the tool names are known to be unique: checked
    /// as [`RegistryBuilder::build`] checks, against every provider.
    pub(crate) fn from_toolkits(
        entries: Vec<(&'static str, Vec<Arc<dyn Tool>>)>,
    ) -> Result<Registry, RegistryError> {
        let mut builder = Registry::builder();
        for (toolkit, tools) in entries {
            for tool in tools {
                builder = builder.shared_tool(tool, toolkit);
            }
        }
        builder.build()
    }
}
