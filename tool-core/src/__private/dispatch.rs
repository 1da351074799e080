//! How a handler's return type becomes an [`Output`] and its error a [`Refusal`], each chosen
//! by method-call autoref on a `Wrap` of the type, so that a type that can be neither is a
//! compile error naming it in words, not a wall of trait bounds.

use std::marker::PhantomData;
use std::sync::OnceLock;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::outcome::output::{IntoOutput, IntoRefusal, Output};
use crate::outcome::refusal::Refusal;

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
// `&&&&Wrap<T>`: the first of these impls that applies wins. A `Result` comes first, since the
// macro reads a fn as fallible from the words of its return type, and a `Result` it did not
// see as one (an alias of another name) would otherwise be served as `{"Err": ..}`, a
// success: that is a compile error. (For the `T` of a `Result<T, E>` it did see, the macro
// writes `&&&Wrap<T>` without this level's trait in scope: a `Result` written inside one is
// the user's choice of output.) Then `IntoOutput` types (text, nothing, a hand-built
// `Output`), then `Serialize + JsonSchema` (structured output), then `Serialize` alone, and a
// fallback: the last two only make a compile error that names the return type, the first of
// them saying which `JsonSchema` is missing, since a type that derives another version's
// (schemars 0.8) reads as one that derives both.

/// Stands for a return type during dispatch.
pub struct Wrap<T: ?Sized>(PhantomData<fn() -> Box<T>>);

impl<T: ?Sized> Wrap<T> {
    /// The marker for `T`.
    pub const NEW: Self = Wrap(PhantomData);
}

// `Copy` whatever `T` is, so that reaching `ViaNothing` (whose receiver is the `Wrap` itself,
// three or four derefs below the `&&&Wrap` or `&&&&Wrap` the macro writes) copies it instead of moving out of a
// reference: otherwise a bad return type gets a second error, "cannot move out of a shared
// reference", after the one that names it.
impl<T: ?Sized> Clone for Wrap<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: ?Sized> Copy for Wrap<T> {}

/// Dispatch for a `Result` the macro did not see as one.
pub trait ViaHiddenResult {
    /// The way this type (fails to) become an output.
    fn output_kind(self) -> HiddenResultKind
    where
        Self: Sized,
    {
        HiddenResultKind
    }
}
impl<T, E> ViaHiddenResult for &&&&Wrap<Result<T, E>> {}

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
        Err(Refusal::new(
            crate::outcome::refusal::code::INTERNAL,
            "unreachable",
        ))
    }
}

/// A `Result` returned under a name the macro does not read as one: using it is a compile
/// error at the return type.
pub struct HiddenResultKind;

/// Implemented by no type: the bound that turns a `Result` the macro did not see into a
/// readable error.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is a `Result` that `#[tool]` cannot see as one: it reads a tool as fallible only from a return type written `Result<T, E>` (or a path ending in `Result`, as `io::Result<T>`)",
    label = "a `Result` under another name: its errors would be served as successes",
    note = "write the return type as `Result<T, E>`, or name the alias `Result` (`type Result<T> = std::result::Result<T, NoteError>;`)"
)]
pub trait ResultWrittenOut {}

impl HiddenResultKind {
    /// Fails to compile for every `T`, with the message above.
    pub fn output_schema<T: ResultWrittenOut>(&self) -> Option<Map<String, Value>> {
        None
    }

    /// Never reached: the crate did not compile.
    pub fn convert<T>(&self, _value: T, _cell: &'static OutputCell) -> Result<Output, Refusal> {
        Err(Refusal::new(
            crate::outcome::refusal::code::INTERNAL,
            "unreachable",
        ))
    }
}

/// Not an output: using it is a compile error at the return type.
pub struct NoKind;

/// Implemented by no type: the bound that turns a bad return type into a readable error.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's output",
    label = "this return type is not a tool output",
    note = "return a type that derives `serde::Serialize` and `schemars::JsonSchema`, a `String`, `()`, `tool_core::outcome::Output`, or a `Result` of one of these"
)]
pub trait NotAnOutput {}

impl NoKind {
    /// Fails to compile for every `T`, with the message above.
    pub fn output_schema<T: NotAnOutput>(&self) -> Option<Map<String, Value>> {
        None
    }

    /// Never reached: the crate did not compile.
    pub fn convert<T>(&self, _value: T, _cell: &'static OutputCell) -> Result<Output, Refusal> {
        Err(Refusal::new(
            crate::outcome::refusal::code::INTERNAL,
            "unreachable",
        ))
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
    crate::outcome::host_log::without_subscriber(|| {
        format!("a tool's output does not match its output schema: {faults:?}")
    });
    let mut refusal = Refusal::new(
        crate::outcome::refusal::code::INTERNAL,
        "the tool's output does not match its own output schema (checked in debug builds)",
    );
    for fault in faults {
        refusal = refusal.line("fault", [fault.path, fault.problem]);
    }
    Err(refusal)
}
