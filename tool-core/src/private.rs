//! What the code that `#[tool]` generates calls. Not public API: names here may change in any
//! release.

use std::marker::PhantomData;
use std::sync::OnceLock;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

pub use schemars;
pub use serde;
pub use serde_json;

use crate::output::{IntoOutput, Output};
use crate::refusal::Refusal;
use crate::tool::{Annotations, ToolDefinition};

pub use crate::output::IntoRefusal;

/// A tool's input schema, generated and prepared on first use and kept for the life of the
/// program.
pub type SchemaCell = OnceLock<crate::args::Prepared>;

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
    /// The input schema, from the tool's cell.
    pub schema: fn(&'static SchemaCell) -> &'static Map<String, Value>,
    /// Parses a call's arguments.
    pub parse: fn(&crate::Arguments, &'static SchemaCell, &str) -> Result<T, Refusal>,
}

/// The operations on input type `T`.
pub const fn input_ops<T: ToolInput>() -> InputOps<T> {
    InputOps {
        schema: input_schema::<T>,
        parse: parse_arguments::<T>,
    }
}

/// The operations on the input struct `#[tool]` makes of a fn's parameters, which says
/// `#[serde(deny_unknown_fields)]`.
pub const fn generated_input_ops<T: ToolInput>() -> InputOps<T> {
    InputOps {
        schema: input_schema::<T>,
        parse: parse_generated_arguments::<T>,
    }
}

fn input_schema<T: ToolInput>(cell: &'static SchemaCell) -> &'static Map<String, Value> {
    prepared::<T>(cell).schema()
}

fn prepared<T: ToolInput>(cell: &'static SchemaCell) -> &'static crate::args::Prepared {
    cell.get_or_init(|| crate::args::Prepared::new(crate::schema::input_schema::<T>()))
}

fn parse_arguments<T: ToolInput>(
    arguments: &crate::Arguments,
    cell: &'static SchemaCell,
    tool: &str,
) -> Result<T, Refusal> {
    crate::args::parse(arguments.as_str(), prepared::<T>(cell), tool)
}

fn parse_generated_arguments<T: ToolInput>(
    arguments: &crate::Arguments,
    cell: &'static SchemaCell,
    tool: &str,
) -> Result<T, Refusal> {
    crate::args::parse_strict(arguments.as_str(), prepared::<T>(cell), tool)
}

/// What `#[tool(...)]` says about a tool, besides its types.
pub struct Meta {
    /// The tool's name.
    pub name: &'static str,
    /// Its title.
    pub title: Option<&'static str>,
    /// Its description: the `description` option, else the doc comment.
    pub description: &'static str,
    /// Its summary, advertised instead of the description when given.
    pub summary: Option<&'static str>,
    /// Its hints.
    pub annotations: Annotations,
    /// Its timeout in milliseconds.
    pub timeout_ms: Option<u64>,
    /// Whether it may have fields of no single type.
    pub allow_any: bool,
    /// Whether it forgives every slip a [`Leniency`](crate::Leniency) knows, whatever the
    /// registry says.
    pub lenient: bool,
    /// Whether a call may run as a task.
    pub task: bool,
    /// The rules its fields' `#[schemars(...)]` declare.
    pub rules: &'static [Declared],
}

/// A rule a field's `#[schemars(...)]` declares (`range(..)`, `length(..)`, `regex(..)`, a
/// format), which schemars writes into the field's schema only where the schema's type can
/// take it.
pub struct Declared {
    /// The field, by the name the arguments use.
    pub field: &'static str,
    /// The rule as written.
    pub rule: &'static str,
    /// The JSON Schema types it applies to, any of them.
    pub needs: &'static [&'static str],
    /// Whether it bounds the field's items (`inner(..)`).
    pub inner: bool,
}

impl Declared {
    /// Why the input schema does not carry this rule, if it does not: the field's schema is
    /// of no type the rule applies to, so schemars left the rule out.
    fn unapplied(&self, input_schema: &Map<String, Value>) -> Option<(String, String)> {
        let field = input_schema
            .get("properties")
            .and_then(|properties| properties.get(self.field))?;
        let (schema, path) = match self.inner {
            true => (field.get("items")?, format!("{}[]", self.field)),
            false => (field, self.field.to_owned()),
        };
        let types: Vec<&str> = match schema.get("type") {
            Some(Value::String(one)) => vec![one.as_str()],
            Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if types.iter().any(|each| self.needs.contains(each)) {
            return None;
        }
        let what = match (types.as_slice(), schema.get("$ref").and_then(Value::as_str)) {
            (_, Some(reference)) => format!(
                "a type of its own (`{}`), whose schema schemars does not bound here",
                reference.rsplit('/').next().unwrap_or(reference)
            ),
            ([], None) => "of no single type".to_owned(),
            (types, None) => format!("a {}", types.join(" or ")),
        };
        let instead = match self.rule {
            "range(..)" => "put it on a number, or for a length write `length(..)`",
            "length(..)" => "put it on text or a list, or for a number write `range(..)`",
            _ => "put it on text",
        };
        Some((
            path,
            format!(
                "`{}` cannot apply here: this field's schema is {what}, so schemars left the \
                 rule out and a model would never be told it; {instead}, or bound the type's \
                 own field, or check it in the handler",
                self.rule
            ),
        ))
    }
}

/// The definition of a tool.
pub fn definition(
    meta: &Meta,
    input_schema: &Map<String, Value>,
    output_schema: Option<Map<String, Value>>,
) -> ToolDefinition {
    let mut definition = ToolDefinition::new(
        meta.name,
        meta.summary.unwrap_or(meta.description),
        input_schema.clone(),
    );
    definition.title = meta.title.map(str::to_owned);
    definition.output_schema = output_schema;
    definition.annotations = meta.annotations;
    if let Some(timeout) = meta.timeout_ms {
        definition = definition.with_timeout(Duration::from_millis(timeout));
    }
    if meta.allow_any {
        definition = definition.allowing_any();
    }
    if meta.lenient {
        definition = definition.with_leniency(crate::Leniency::all());
    }
    if meta.task {
        definition = definition.as_task();
    }
    for rule in meta.rules {
        if let Some((path, problem)) = rule.unapplied(input_schema) {
            definition = definition.with_unapplied_rule(path, problem);
        }
    }
    definition
}

/// Splits a `Result` return type into its parts, so the macro can name `T` and `E` of any
/// `Result<T, E>` alias (`io::Result<T>`, `anyhow::Result<T>`, say).
pub trait ResultParts {
    /// The output type.
    type Ok;
    /// The error type.
    type Err;
}

impl<T, E> ResultParts for Result<T, E> {
    type Ok = T;
    type Err = E;
}

/// What `registry![...]` expands to, once the tool names are known to be unique: the registry,
/// checked as [`RegistryBuilder::build`](crate::RegistryBuilder::build) checks one.
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
) -> crate::Registry {
    match crate::Registry::from_toolkits(entries) {
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
pub fn stand_in_call<'a>() -> crate::tool::BoxFuture<'a, Result<Output, Refusal>> {
    Box::pin(async {
        Err(Refusal::new(
            crate::refusal::code::INTERNAL,
            "this tool did not compile",
        ))
    })
}

/// Converts a handler's error into a refusal, with a readable compile error when it can't.
pub fn into_refusal<E: IntoRefusal>(error: E) -> Refusal {
    error.into_refusal()
}

// A handler's error reaches `into_refusal` the same way, by autoref on `&&Wrap<E>`. A boxed
// `dyn Error` and an `anyhow::Error` are no `std::error::Error` themselves, and cannot implement
// `IntoRefusal` beside its impl for every `std::error::Error` (std or anyhow could one day make
// them errors: the impls would overlap), so they are made into a `Refusal` first. Every other
// type goes to `into_refusal` as it is, so a type that is no error is still reported by
// `IntoRefusal`'s bound, in its words.

/// An error behind a pointer, seen as the `std::error::Error` it holds.
pub trait DynError {
    /// The error, whose `source()`s are its chain.
    fn as_error(&self) -> &(dyn std::error::Error + 'static);
}

impl DynError for Box<dyn std::error::Error + 'static> {
    fn as_error(&self) -> &(dyn std::error::Error + 'static) {
        &**self
    }
}

impl DynError for Box<dyn std::error::Error + Send + 'static> {
    fn as_error(&self) -> &(dyn std::error::Error + 'static) {
        &**self
    }
}

impl DynError for Box<dyn std::error::Error + Send + Sync + 'static> {
    fn as_error(&self) -> &(dyn std::error::Error + 'static) {
        &**self
    }
}

#[cfg(feature = "anyhow")]
impl DynError for anyhow::Error {
    fn as_error(&self) -> &(dyn std::error::Error + 'static) {
        // The outermost error; its `source()`s are what `anyhow::Error::chain` walks.
        &**self
    }
}

/// Dispatch for an error behind a pointer.
pub trait ViaDynError {
    /// The way this error becomes a refusal.
    fn error_kind(self) -> DynErrorKind
    where
        Self: Sized,
    {
        DynErrorKind
    }
}
impl<E: DynError> ViaDynError for &&Wrap<E> {}

/// Dispatch for every other error type.
pub trait ViaIntoRefusal {
    /// The way this error becomes a refusal.
    fn error_kind(self) -> IntoRefusalKind
    where
        Self: Sized,
    {
        IntoRefusalKind
    }
}
impl<E: ?Sized> ViaIntoRefusal for &Wrap<E> {}

/// Errors behind a pointer.
pub struct DynErrorKind;

impl DynErrorKind {
    /// The `failed` refusal for the error, as for any `std::error::Error`.
    pub fn prepare<E: DynError>(&self, error: E) -> Refusal {
        Refusal::from_error(error.as_error())
    }
}

/// Errors [`into_refusal`] converts, or reports.
pub struct IntoRefusalKind;

impl IntoRefusalKind {
    /// The error as it is.
    pub fn prepare<E>(&self, error: E) -> E {
        error
    }
}

// The macro picks how a return type becomes an `Output` by method-call autoref on
// `&&&Wrap<T>`: the first of these impls that applies wins. `IntoOutput` types (text, nothing,
// a hand-built `Output`) come first, then `Serialize + JsonSchema` (structured output), then
// `Serialize` alone, and a fallback: the last two only make a compile error that names the
// return type, the first of them saying which `JsonSchema` is missing, since a type that
// derives another version's (schemars 0.8) reads as one that derives both.

/// Stands for a return type during dispatch.
pub struct Wrap<T: ?Sized>(PhantomData<fn() -> Box<T>>);

impl<T: ?Sized> Wrap<T> {
    /// The marker for `T`.
    pub const NEW: Self = Wrap(PhantomData);
}

// `Copy` whatever `T` is, so that reaching `ViaNothing` (whose receiver is the `Wrap` itself,
// three derefs below the `&&&Wrap` the macro writes) copies it instead of moving out of a
// reference: otherwise a bad return type gets a second error, "cannot move out of a shared
// reference", after the one that names it.
impl<T: ?Sized> Clone for Wrap<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: ?Sized> Copy for Wrap<T> {}

/// Dispatch to [`IntoOutput`].
pub trait ViaIntoOutput {
    /// The way this type becomes an output.
    fn output_kind(self) -> IntoOutputKind
    where
        Self: Sized,
    {
        IntoOutputKind
    }
}
impl<T: IntoOutput> ViaIntoOutput for &&&Wrap<T> {}

/// Dispatch to structured output.
pub trait ViaSerialize {
    /// The way this type becomes an output.
    fn output_kind(self) -> SerializeKind
    where
        Self: Sized,
    {
        SerializeKind
    }
}
impl<T: Serialize + schemars::JsonSchema> ViaSerialize for &&Wrap<T> {}

/// Dispatch for a type that serializes but has no schema tool-core can read.
pub trait ViaSerializeOnly {
    /// The way this type (fails to) become an output.
    fn output_kind(self) -> NoSchemaKind
    where
        Self: Sized,
    {
        NoSchemaKind
    }
}
impl<T: Serialize> ViaSerializeOnly for &Wrap<T> {}

/// The last resort, for types that cannot be an output at all.
pub trait ViaNothing {
    /// The way this type (fails to) become an output.
    fn output_kind(self) -> NoKind
    where
        Self: Sized,
    {
        NoKind
    }
}
impl<T: ?Sized> ViaNothing for Wrap<T> {}

/// Outputs through [`IntoOutput`].
pub struct IntoOutputKind;

impl IntoOutputKind {
    /// No output schema: text or nothing.
    pub fn output_schema<T>(&self) -> Option<Map<String, Value>> {
        None
    }

    /// Converts the value.
    pub fn convert<T: IntoOutput>(
        &self,
        value: T,
        _cell: &'static OutputCell,
    ) -> Result<Output, Refusal> {
        value.into_output()
    }
}

/// A tool's output schema, generated on first use, for checking outputs in debug builds.
pub type OutputCell = OnceLock<Option<Map<String, Value>>>;

/// Structured output.
pub struct SerializeKind;

impl SerializeKind {
    /// The output schema of `T`.
    pub fn output_schema<T: schemars::JsonSchema>(&self) -> Option<Map<String, Value>> {
        crate::schema::output_schema::<T>()
    }

    /// Serializes the value; in debug builds, refuses an output that does not match the
    /// output schema its type advertises (a hand-written `Serialize` or `JsonSchema` that
    /// disagree), so the mismatch shows in tests, not in a client.
    pub fn convert<T: Serialize + schemars::JsonSchema>(
        &self,
        value: T,
        cell: &'static OutputCell,
    ) -> Result<Output, Refusal> {
        let output = Output::json(&value)?;
        if cfg!(debug_assertions)
            && let Some(schema) = cell.get_or_init(crate::schema::output_schema::<T>)
            && let Output::Json(json) = &output
        {
            check_output(json.get(), schema)?;
        }
        Ok(output)
    }
}

/// Serializes, but has no `JsonSchema` of the schemars tool-core reads: using it is a compile
/// error at the return type.
pub struct NoSchemaKind;

/// Implemented by no type: the bound that turns a return type without a schema into a
/// readable error.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's output: it derives `serde::Serialize`, but not the `schemars::JsonSchema` of schemars 1, which tool-core reads",
    label = "this return type has no schema tool-core can read",
    note = "derive `schemars::JsonSchema` on it, from schemars 1.x; if it derives a `JsonSchema` already, that is another version's (schemars 0.8, say): depend on `schemars = \"1\"` (`cargo tree -d -i schemars` lists the versions in the build)"
)]
pub trait NoOutputSchema {}

impl NoSchemaKind {
    /// Fails to compile for every `T`, with the message above.
    pub fn output_schema<T: NoOutputSchema>(&self) -> Option<Map<String, Value>> {
        None
    }

    /// Never reached: the crate did not compile.
    pub fn convert<T>(&self, _value: T, _cell: &'static OutputCell) -> Result<Output, Refusal> {
        Err(Refusal::new(crate::refusal::code::INTERNAL, "unreachable"))
    }
}

/// Not an output: using it is a compile error at the return type.
pub struct NoKind;

/// Implemented by no type: the bound that turns a bad return type into a readable error.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's output",
    label = "this return type is not a tool output",
    note = "return a type that derives `serde::Serialize` and `schemars::JsonSchema`, a `String`, `()`, `tool_core::Output`, or a `Result` of one of these"
)]
pub trait NotAnOutput {}

impl NoKind {
    /// Fails to compile for every `T`, with the message above.
    pub fn output_schema<T: NotAnOutput>(&self) -> Option<Map<String, Value>> {
        None
    }

    /// Never reached: the crate did not compile.
    pub fn convert<T>(&self, _value: T, _cell: &'static OutputCell) -> Result<Output, Refusal> {
        Err(Refusal::new(crate::refusal::code::INTERNAL, "unreachable"))
    }
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

/// Fails const evaluation, naming the tool, if one of the tool names `these` equals another of
/// them or one of the lists `earlier`.
#[track_caller]
pub const fn assert_unique_tool_names(earlier: &[&[&str]], these: &[&str]) {
    let mut item = 0;
    while item < these.len() {
        let name = these[item];
        let mut other = item + 1;
        while other < these.len() {
            if str_eq(name, these[other]) {
                duplicate_tool_name(name);
            }
            other += 1;
        }
        let mut list = 0;
        while list < earlier.len() {
            let mut other = 0;
            while other < earlier[list].len() {
                if str_eq(name, earlier[list][other]) {
                    duplicate_tool_name(name);
                }
                other += 1;
            }
            list += 1;
        }
        item += 1;
    }
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[track_caller]
const fn duplicate_tool_name(name: &str) -> ! {
    const BEFORE: &[u8] = b"two tools in this registry![...] are named `";
    const AFTER: &[u8] = b"`: rename one with `#[tool(name = \"...\")]`, or, if a tool or \
        toolkit is listed twice, list it once";
    let mut message = [0u8; 512];
    let mut length = 0;
    let parts = [BEFORE, name.as_bytes(), AFTER];
    let mut part = 0;
    while part < parts.len() {
        let mut i = 0;
        while i < parts[part].len() && length < message.len() {
            message[length] = parts[part][i];
            length += 1;
            i += 1;
        }
        part += 1;
    }
    match core::str::from_utf8(message.split_at(length).0) {
        Ok(message) => panic!("{}", message),
        Err(_) => panic!("two tools in this registry![...] have the same name"),
    }
}

fn check_output(json: &str, schema: &Map<String, Value>) -> Result<(), Refusal> {
    let Ok(value) = serde_json::from_str::<Value>(json) else {
        return Ok(());
    };
    let faults = crate::args::validate(&value, schema);
    if faults.is_empty() {
        return Ok(());
    }
    tracing::error!(?faults, "a tool's output does not match its output schema");
    crate::host_log::without_subscriber(|| {
        format!("a tool's output does not match its output schema: {faults:?}")
    });
    let mut refusal = Refusal::new(
        crate::refusal::code::INTERNAL,
        "the tool's output does not match its own output schema (checked in debug builds)",
    );
    for fault in faults {
        refusal = refusal.line("fault", [fault.path, fault.problem]);
    }
    Err(refusal)
}
