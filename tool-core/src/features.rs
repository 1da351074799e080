//! The cargo features a setting needs, each a marker trait that every type has when the
//! feature is on and none has when it is off. A setting whose feature is off is then still
//! there, bounded by its trait, so that using it is a compile error naming the feature
//! instead of a method the compiler cannot find. (Types behind a feature are left out when it
//! is off, and rustc's own error names the feature that gates them.)

/// Holds for every type when the `search` feature is on.
#[diagnostic::on_unimplemented(
    message = "search and deferred loading need tool-core's `search` feature, which is off",
    label = "needs the `search` feature",
    note = "turn it on in Cargo.toml: `tool-core = {{ version = \"0.1\", features = [\"search\"] }}`"
)]
pub trait SearchFeature {}

#[cfg(feature = "search")]
impl<T: ?Sized> SearchFeature for T {}

/// Holds for every type when the `call-records` feature is on.
#[diagnostic::on_unimplemented(
    message = "call records need tool-core's `call-records` feature, which is off",
    label = "needs the `call-records` feature",
    note = "turn it on in Cargo.toml: `tool-core = {{ version = \"0.1\", features = [\"call-records\"] }}`"
)]
pub trait CallRecordsFeature {}

#[cfg(feature = "call-records")]
impl<T: ?Sized> CallRecordsFeature for T {}

/// Holds for every type when the `rate-limits` feature is on.
#[diagnostic::on_unimplemented(
    message = "rate limits need tool-core's `rate-limits` feature, which is off",
    label = "needs the `rate-limits` feature",
    note = "turn it on in Cargo.toml: `tool-core = {{ version = \"0.1\", features = [\"rate-limits\"] }}`"
)]
pub trait RateLimitsFeature {}

#[cfg(feature = "rate-limits")]
impl<T: ?Sized> RateLimitsFeature for T {}

/// Holds for every type when the `artifacts` feature is on.
#[diagnostic::on_unimplemented(
    message = "artifacts need tool-core's `artifacts` feature, which is off",
    label = "needs the `artifacts` feature",
    note = "turn it on in Cargo.toml: `tool-core = {{ version = \"0.1\", features = [\"artifacts\"] }}`"
)]
pub trait ArtifactsFeature {}

#[cfg(feature = "artifacts")]
impl<T: ?Sized> ArtifactsFeature for T {}

/// Without the `testing` feature, `assert_exports_snapshot!` is a compile error naming it.
#[cfg(not(feature = "testing"))]
#[macro_export]
macro_rules! assert_exports_snapshot {
    ($($anything:tt)*) => {
        ::core::compile_error!(
            "`assert_exports_snapshot!` needs tool-core's `testing` feature, which is off: turn \
             it on for tests, `[dev-dependencies] tool-core = { version = \"0.1\", features = \
             [\"testing\"] }`"
        )
    };
}

/// What a schema's rule needs that is behind a feature, for the refusal of a registry that
/// would advertise it with the feature off.
pub(crate) fn enable(feature: &str) -> String {
    format!(
        "turn on tool-core's `{feature}` feature (`tool-core = {{ version = \"0.1\", features = \
         [\"{feature}\"] }}`), or take the rule out"
    )
}
