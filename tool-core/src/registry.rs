//! The [`Registry`]: the tools an application offers, advertised and called by name.
//!
//! A registry keeps its tools in insertion order, reads each tool's definition once when it is
//! added, and answers every call with exactly one [`ToolResult`]. Building one checks what can
//! only be checked once all tools are known: that no two share a name.
//!
//! It does not speak any provider's wire format; exports and transports build on it.

use std::collections::HashMap;
use std::ops::Deref;
use std::sync::Arc;

use crate::call::ToolCall;
use crate::call::ToolResult;
use crate::context::Context;
use crate::refusal::{Refusal, code};
use crate::tool::{Tool, ToolDefinition};

/// The tools an application offers.
///
/// ```
/// use tool_core::{tool, Context, Registry, ToolCall};
///
/// /// Adds two numbers.
/// #[tool(readonly)]
/// async fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let registry = Registry::builder().tool(Add).build().unwrap();
/// assert_eq!(registry.definitions()[0].name, "add");
///
/// let result = registry
///     .call(ToolCall::new("1", "add", serde_json::json!({"a": 2, "b": 3})), &Context::default())
///     .await;
/// assert_eq!(result.text(), "5");
/// # });
/// ```
#[derive(Clone)]
pub struct Registry {
    catalog: Arc<Catalog>,
}

/// The tools of a registry at one moment, with their definitions and a name index.
struct Catalog {
    tools: Vec<Arc<dyn Tool>>,
    definitions: Vec<ToolDefinition>,
    index: HashMap<String, usize>,
}

/// Collects tools for a [`Registry`]; see [`Registry::builder`].
#[derive(Default)]
pub struct RegistryBuilder {
    tools: Vec<Arc<dyn Tool>>,
}

/// Why a registry could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// Two tools have the same name.
    #[error("two tools are named `{name}`; tool names must be unique within a registry")]
    DuplicateName {
        /// The name used twice.
        name: String,
    },
}

impl RegistryBuilder {
    /// Adds a tool; for `#[tool] async fn note_write`, pass `NoteWrite`.
    pub fn tool(mut self, tool: impl Tool) -> Self {
        self.tools.push(Arc::new(tool));
        self
    }

    /// Adds a tool that is already shared.
    pub fn shared_tool(mut self, tool: Arc<dyn Tool>) -> Self {
        self.tools.push(tool);
        self
    }

    /// Builds the registry, reading every tool's definition; an error if two tools share a
    /// name.
    pub fn build(self) -> Result<Registry, BuildError> {
        let mut index = HashMap::with_capacity(self.tools.len());
        let mut definitions = Vec::with_capacity(self.tools.len());
        for (position, tool) in self.tools.iter().enumerate() {
            let definition = tool.definition();
            if index.insert(definition.name.clone(), position).is_some() {
                return Err(BuildError::DuplicateName {
                    name: definition.name,
                });
            }
            definitions.push(definition);
        }
        Ok(Registry {
            catalog: Arc::new(Catalog {
                tools: self.tools,
                definitions,
                index,
            }),
        })
    }
}

/// The definitions of a registry's tools, in insertion order; derefs to a slice.
#[derive(Clone)]
pub struct Definitions {
    catalog: Arc<Catalog>,
}

impl Deref for Definitions {
    type Target = [ToolDefinition];

    fn deref(&self) -> &[ToolDefinition] {
        &self.catalog.definitions
    }
}

impl serde::Serialize for Definitions {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.catalog.definitions.serialize(serializer)
    }
}

impl std::fmt::Debug for Definitions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Registry {
    /// Starts an empty registry.
    pub fn builder() -> RegistryBuilder {
        RegistryBuilder::default()
    }

    /// Every tool's definition, in insertion order. Computed when the registry was built;
    /// reading it costs one reference count.
    pub fn definitions(&self) -> Definitions {
        Definitions {
            catalog: self.catalog.clone(),
        }
    }

    /// The names of the tools, in insertion order.
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        self.catalog
            .definitions
            .iter()
            .map(|definition| definition.name.as_str())
    }

    /// Runs one call and answers it. Never panics and never fails: every problem is a
    /// [`Refusal`] in the result's outcome.
    pub async fn call(&self, call: ToolCall, ctx: &Context) -> ToolResult {
        let outcome = match self.catalog.index.get(&call.name) {
            Some(&position) => {
                self.catalog.tools[position]
                    .call(&call.arguments, ctx)
                    .await
            }
            None => Err(self.unknown_tool(&call.name)),
        };
        ToolResult {
            id: call.id,
            name: call.name,
            outcome,
        }
    }

    fn unknown_tool(&self, name: &str) -> Refusal {
        Refusal::new(
            code::UNKNOWN_TOOL,
            format!("there is no tool named `{name}`; call one of the tools listed"),
        )
        .line("tools", self.names())
    }
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("tools", &self.names().collect::<Vec<_>>())
            .finish()
    }
}
