//! `McpServer`'s settings for asking without the `asking` feature: each is bounded by
//! [`AskingFeature`], which no type has then, so a call of one is a compile error naming the
//! feature. None of them can be called, so none does anything.
//!
//! The bound is on a reference with a lifetime of the method's own, as in `without_http`, so
//! that it is checked where the method is used. `with_waiting_calls` takes any value because
//! its type, `WaitingCalls`, is left out with the feature, and rustc names the feature for it.

use super::McpServer;
use crate::features::AskingFeature;

impl McpServer {
    /// Asks the client's user to approve every destructive call. Needs the `asking` feature;
    /// without it, a call of this is a compile error naming the feature.
    pub fn with_confirmation<'a>(self, _timeout: std::time::Duration) -> Self
    where
        &'a Self: AskingFeature,
    {
        self
    }

    /// Bounds the calls suspended for their clients' answers. Needs the `asking` feature;
    /// without it, a call of this is a compile error naming the feature.
    pub fn with_waiting_calls<'a, L>(self, _limits: L) -> Self
    where
        &'a Self: AskingFeature,
    {
        self
    }
}
