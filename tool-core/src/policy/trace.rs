//! Tracing of calls: one `tracing` span per call, named `tool_call`, with the tool, its
//! toolkit, the call's id, the caller, the outcome's code and the elapsed time; and the W3C
//! trace context a caller may send ([`TraceParent`]), which the span records as its remote
//! parent.
//!
//! The remote parent is kept light: the span records the `traceparent`'s trace id and parent
//! id as fields (`trace_id`, `parent_id`) rather than linking through OpenTelemetry, so this
//! crate pulls in no OpenTelemetry SDK; a host that exports to OpenTelemetry reads the two
//! fields (or sets the parent itself, with `tracing-opentelemetry`, from
//! [`Context::get::<TraceParent>`](crate::Context::get)). The span's fields are
//! `tool`, `toolkit`, `call_id`, `caller`, `outcome`, `elapsed_ms`, `trace_id` and
//! `parent_id`. With no subscriber interested in it the span is disabled and costs a check.

use std::fmt;

/// A W3C trace context's `traceparent`: the trace a call belongs to and the caller's span in
/// it. Put it in a call's context with
/// [`Context::with_extension`](crate::Context::with_extension); the MCP server does so from a
/// request's `_meta.traceparent`.
///
/// ```
/// use tool_core::TraceParent;
///
/// let parent = TraceParent::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").unwrap();
/// assert_eq!(parent.trace_id(), "4bf92f3577b34da6a3ce929d0e0e4736");
/// assert_eq!(parent.parent_id(), "00f067aa0ba902b7");
/// assert!(parent.sampled());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TraceParent {
    trace_id: String,
    parent_id: String,
    flags: u8,
}

impl TraceParent {
    /// Reads a `traceparent` header's value (`version-traceid-parentid-flags`, lowercase hex);
    /// `None` if it is not one, as the W3C recommendation says to treat a malformed one: as if
    /// there were none. Versions after `00` are read by their first four fields.
    pub fn parse(text: &str) -> Option<TraceParent> {
        let mut parts = text.trim().split('-');
        let version = parts.next()?;
        let trace_id = parts.next()?;
        let parent_id = parts.next()?;
        let flags = parts.next()?;
        let hex = |part: &str, len: usize| {
            part.len() == len && part.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        };
        if !hex(version, 2) || version == "ff" || !hex(trace_id, 32) || !hex(parent_id, 16) {
            return None;
        }
        if !hex(flags, 2) || (version == "00" && parts.next().is_some()) {
            return None;
        }
        if trace_id.bytes().all(|b| b == b'0') || parent_id.bytes().all(|b| b == b'0') {
            return None;
        }
        Some(TraceParent {
            trace_id: trace_id.to_owned(),
            parent_id: parent_id.to_owned(),
            flags: u8::from_str_radix(flags, 16).ok()?,
        })
    }

    /// The trace's id: 32 lowercase hex digits.
    pub fn trace_id(&self) -> &str {
        &self.trace_id
    }

    /// The caller's span: 16 lowercase hex digits.
    pub fn parent_id(&self) -> &str {
        &self.parent_id
    }

    /// Whether the caller records this trace.
    pub fn sampled(&self) -> bool {
        self.flags & 1 == 1
    }
}

impl fmt::Display for TraceParent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "00-{}-{}-{:02x}",
            self.trace_id, self.parent_id, self.flags
        )
    }
}

/// The span of one call; disabled (and nearly free) when no subscriber wants it.
pub(crate) fn span(
    call: &crate::call::tool_call::ToolCall,
    ctx: &crate::call::context::Context,
) -> tracing::Span {
    let span = tracing::info_span!(
        "tool_call",
        tool = %call.name,
        toolkit = tracing::field::Empty,
        call_id = %call.id,
        caller = ctx.caller(),
        outcome = tracing::field::Empty,
        elapsed_ms = tracing::field::Empty,
        trace_id = tracing::field::Empty,
        parent_id = tracing::field::Empty,
    );
    if !span.is_disabled()
        && let Some(parent) = ctx.get::<TraceParent>()
    {
        span.record("trace_id", parent.trace_id());
        span.record("parent_id", parent.parent_id());
    }
    span
}
