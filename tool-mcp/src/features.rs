//! The cargo feature a setting needs, as a marker trait that every type has when the feature
//! is on and none has when it is off. Without the feature, `McpServer`'s methods for it are
//! still there, bounded by it, so that using one is a compile error naming the feature
//! instead of a method the compiler cannot find. (Types behind a feature, `RemoteToolkit` and
//! `RedisTaskStore`, are left out when it is off, and rustc's own error names the feature that
//! gates them.)

/// Holds for every type when the `http` feature is on.
#[diagnostic::on_unimplemented(
    message = "serving HTTP, and naming HTTP callers, need tool-mcp's `http` feature, which is off",
    label = "needs the `http` feature",
    note = "turn it on in Cargo.toml: `tool-mcp = {{ version = \"0.1\", features = [\"http\"] }}`"
)]
pub trait HttpFeature {}

#[cfg(feature = "http")]
impl<T: ?Sized> HttpFeature for T {}

/// Holds for every type when the `asking` feature is on.
#[diagnostic::on_unimplemented(
    message = "putting questions to the client needs tool-mcp's `asking` feature, which is off",
    label = "needs the `asking` feature",
    note = "turn it on in Cargo.toml: `tool-mcp = {{ version = \"0.1\", features = [\"asking\"] }}`"
)]
pub trait AskingFeature {}

#[cfg(feature = "asking")]
impl<T: ?Sized> AskingFeature for T {}
