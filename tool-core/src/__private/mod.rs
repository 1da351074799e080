//! What the code that `#[tool]` generates calls. Not public API: names here may change in any
//! release.
//!
//! The parts: `input` (a tool's input type: its schema and its parsing, and the bounds that
//! make a bad parameter type one readable error), `fields` (the reading of the input struct
//! made of a fn's parameters, shared by every tool), `meta` (what `#[tool(...)]` says, and the
//! definition made of it), `dispatch` (how a return type becomes an output, and an error a
//! refusal, chosen by autoref), `names` (the compile-time check that a registry's tool names
//! are unique), and here what `registry!` and a tool that did not compile expand to.

mod dispatch;
mod fields;
mod input;
mod meta;
mod names;

pub use schemars;
pub use serde;
pub use serde_json;

pub use self::dispatch::*;
pub use self::fields::*;
pub use self::input::*;
pub use self::meta::*;
pub use self::names::*;
pub use crate::outcome::output::IntoRefusal;

use serde_json::Map;

use crate::call::future::BoxFuture;
use crate::outcome::output::Output;
use crate::outcome::refusal::Refusal;
use crate::tool::definition::ToolDefinition;

/// What `registry![...]` expands to, once the tool names are known to be unique: the registry,
/// checked as [`RegistryBuilder::build`](crate::registry::RegistryBuilder::build) checks one.
///
/// # Panics
///
/// If a tool is one `build` refuses (a rule in its schema the registry could not enforce, a
/// field of no single type, a name a provider refuses), naming each tool, field and rule: a
/// registry that would tell a model rules nobody enforces is never made. What a tool's code
/// says is fixed when it is built, so every run of the program would fail alike; the first
/// one, or a unit test that makes the registry, shows it.
#[track_caller]
pub fn registry_from_toolkits(
    entries: Vec<(&'static str, Vec<std::sync::Arc<dyn crate::tool::Tool>>)>,
) -> crate::registry::Registry {
    match crate::registry::Registry::from_toolkits(entries) {
        Ok(registry) => registry,
        Err(error) => panic!(
            "registry![...] cannot serve these tools:\n{error}\n(Registry::builder() ... \
             .build() returns this as a RegistryError instead)"
        ),
    }
}

/// The definition of a tool whose `#[tool]` did not compile: never read, since the crate
/// does not build, but it lets code that names the tool type-check.
pub fn stand_in_definition(name: &'static str) -> ToolDefinition {
    ToolDefinition::new(name, "", Map::new())
}

/// The call of a tool whose `#[tool]` did not compile; never run, as above.
pub fn stand_in_call<'a>() -> BoxFuture<'a, Result<Output, Refusal>> {
    Box::pin(async {
        Err(Refusal::new(
            crate::outcome::refusal::code::INTERNAL,
            "this tool did not compile",
        ))
    })
}
