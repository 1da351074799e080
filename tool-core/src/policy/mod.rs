//! What a registry's settings add to every call, each off until set and each a module of its
//! own: who may call which tool ([`grant`]), approval before destructive tools
//! ([`approval`]), budgets of calls per caller (`rate`, the `rate-limits` feature), large outputs
//! kept and read by handle (`artifact`, the `artifacts` feature), a record of every call ([`observe`]) and its tracing span
//! ([`trace`]). The registry applies them in the order its `call` module writes down.

pub mod approval;
#[cfg(feature = "artifacts")]
#[cfg_attr(docsrs, doc(cfg(feature = "artifacts")))]
pub mod artifact;
pub mod grant;
pub mod observe;
pub mod rate;
pub mod trace;
