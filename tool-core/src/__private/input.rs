//! A tool's input type, as the generated code reaches it: its schema, prepared once, and its
//! parsing, through one generic call whose bounds make a parameter type without `Deserialize`
//! or `JsonSchema` one error at that parameter, in words about parameters.

use std::sync::OnceLock;

use serde::de::DeserializeOwned;

use crate::args::prepared::Prepared;
use crate::call::arguments::Arguments;
use crate::outcome::refusal::Refusal;

/// A tool's input schema, generated and prepared on first use and kept for the life of the
/// program.
pub type SchemaCell = OnceLock<Prepared>;

/// Holds for a tool's input type: every parameter can be read from JSON and described.
///
/// Only an `#[input]` struct can fail this: the struct generated from the parameters has it
/// whenever each of them is a [`Parameter`], which is checked (and reported) first.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's `#[input]`: it must implement `serde::Deserialize` and `schemars::JsonSchema`",
    label = "this input type cannot be read from JSON or described",
    note = "derive both on it: `#[derive(serde::Deserialize, schemars::JsonSchema)]`",
    note = "if it derives both already, one is another version's than tool-core reads (serde 1, schemars 1): `cargo tree -d` lists crates built in two versions"
)]
pub trait ToolInput: DeserializeOwned + schemars::JsonSchema {}

// Not recommended, for one error per input type as with `Parameter` below.
#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned + schemars::JsonSchema> ToolInput for T {}

/// What the generated code does with its input type, reached through one generic call so that
/// a bad parameter type is reported once here (and precisely at the parameter).
pub struct InputOps<T> {
    /// The input schema, prepared, from the tool's cell.
    pub prepared: fn(&'static SchemaCell) -> &'static Prepared,
    /// Parses a call's arguments.
    pub parse: fn(&Arguments, &'static SchemaCell, &str) -> Result<T, Refusal>,
}

/// The operations on input type `T`.
pub const fn input_ops<T: ToolInput>() -> InputOps<T> {
    InputOps {
        prepared: prepared::<T>,
        parse: parse_arguments::<T>,
    }
}

/// The operations on the input struct `#[tool]` makes of a fn's parameters, which says
/// `#[serde(deny_unknown_fields)]`.
pub const fn generated_input_ops<T: ToolInput>() -> InputOps<T> {
    InputOps {
        prepared: prepared::<T>,
        parse: parse_generated_arguments::<T>,
    }
}

fn prepared<T: ToolInput>(cell: &'static SchemaCell) -> &'static Prepared {
    prepare(cell, prepare_input::<T>)
}

fn prepare_input<T: ToolInput>() -> Prepared {
    Prepared::of_type::<T>(crate::schema::input_schema::<T>())
}

/// [`prepared`] for any input type, compiled once rather than once for each tool (inlined
/// where optimized: a call's fast path is the cell's check).
#[inline]
fn prepare(cell: &'static SchemaCell, make: fn() -> Prepared) -> &'static Prepared {
    cell.get_or_init(make)
}

fn parse_arguments<T: ToolInput>(
    arguments: &Arguments,
    cell: &'static SchemaCell,
    tool: &str,
) -> Result<T, Refusal> {
    crate::args::parse(arguments.as_str(), prepared::<T>(cell), tool)
}

fn parse_generated_arguments<T: ToolInput>(
    arguments: &Arguments,
    cell: &'static SchemaCell,
    tool: &str,
) -> Result<T, Refusal> {
    crate::args::parse_strict(arguments.as_str(), prepared::<T>(cell), tool)
}

/// Holds for every type a tool parameter can have: one that can be read from JSON and
/// described by a JSON Schema.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter: it must implement `serde::Deserialize` and `schemars::JsonSchema`",
    label = "this parameter's type cannot be read from JSON or described",
    note = "derive both on the type (for `Option<T>`, `Vec<T>` and the like, on `T`): `#[derive(serde::Deserialize, schemars::JsonSchema)]`",
    note = "for a type of another crate, turn on schemars' feature for it (`url2` for `url::Url`, `uuid1` for `uuid::Uuid`, `chrono04` for chrono's types) and that crate's own `serde` feature",
    note = "if it derives both already, one is another version's than tool-core reads (serde 1, schemars 1): `cargo tree -d` lists crates built in two versions"
)]
pub trait Parameter: DeserializeOwned + schemars::JsonSchema {}

// Not recommended, so that a type lacking both traits gets one error (this trait's) instead of
// one per missing trait, and without rustc's list of other types that implement each.
#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned + schemars::JsonSchema> Parameter for T {}

/// [`Parameter`], as the generated code asks it of a parameter taken by value whose type is
/// named `Context`: the same types hold it, and one that does not is most likely tool-core's
/// [`Context`](crate::Context) with its `&` left out, which the error says. The macro cannot
/// tell that `Context` from a type of the user's own of that name, which is an argument like
/// any other.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter: a tool borrows the call's context; write `ctx: &Context`",
    label = "the context taken by value",
    note = "the context is injected by reference, not read from the call: the parameter is `ctx: &Context`",
    note = "a type of your own named `Context` is an argument like any other: derive `serde::Deserialize` and `schemars::JsonSchema` on it"
)]
pub trait ContextParameter: Parameter {}

// Not recommended, for one error as with `Parameter`.
#[diagnostic::do_not_recommend]
impl<T: Parameter> ContextParameter for T {}

/// `Default` of a parameter marked `#[serde(default)]`: the generated code reads its default
/// through [`field_default`], so that a type without one is told once, at the attribute, in
/// these words, where serde's and schemars' derives each said it in their own.
#[diagnostic::on_unimplemented(
    message = "`#[serde(default)]` takes a missing field as `{Self}::default()`, and `{Self}` has no `Default`",
    label = "needs `{Self}: Default`",
    note = "derive `Default` on `{Self}` (or implement it), write `#[serde(default = \"a_fn\")]` naming a fn that makes the value, or take the parameter as an `Option`"
)]
pub trait FieldDefault: Default {}

// Not recommended, for one error as with `Parameter`.
#[diagnostic::do_not_recommend]
impl<T: Default> FieldDefault for T {}

/// The value of a parameter marked `#[serde(default)]` that the call leaves out.
pub fn field_default<T: FieldDefault>() -> T {
    T::default()
}
