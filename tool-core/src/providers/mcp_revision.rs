//! The MCP revisions whose shapes of a tool's entry and of a call's result differ, so that a
//! host writing MCP itself (with another server library, or by hand) answers each client in
//! the shape its revision takes, as tool-mcp does.

use std::fmt;

/// A revision of MCP, as far as it shapes a `tools/list` entry and a `CallToolResult`
/// ([`mcp::tool_for`](super::mcp::tool_for), [`mcp::write_result_for`](super::mcp::write_result_for)).
///
/// Ordered by date, so `revision < Revision::V2026_07_28` asks for the older shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Revision {
    /// 2025-11-25 (and the revisions before it, whose clients do not read what they lack): an
    /// `outputSchema` is an object's schema alone, and `structuredContent` an object alone;
    /// a client refuses a whole `tools/list` that holds another.
    V2025_11_25,
    /// 2026-07-28: an `outputSchema` of any JSON Schema and a `structuredContent` of any JSON
    /// (SEP-2106), and `resultType` on every result.
    V2026_07_28,
}

impl Revision {
    /// The latest revision this crate shapes for.
    pub const LATEST: Revision = Revision::V2026_07_28;

    /// The revision whose shapes a peer that negotiated `protocol_version` takes: `None` for a
    /// version this crate does not know, which a server should not have agreed to (answer
    /// with one it knows, such as [`Revision::LATEST`]'s).
    ///
    /// ```
    /// use tool_core::providers::mcp::Revision;
    ///
    /// assert_eq!(Revision::of("2025-06-18"), Some(Revision::V2025_11_25));
    /// assert_eq!(Revision::of("2026-07-28"), Some(Revision::V2026_07_28));
    /// assert_eq!(Revision::of("2027-01-01"), None);
    /// ```
    pub fn of(protocol_version: &str) -> Option<Revision> {
        match protocol_version {
            "2024-11-05" | "2025-03-26" | "2025-06-18" | "2025-11-25" => {
                Some(Revision::V2025_11_25)
            }
            "2026-07-28" => Some(Revision::V2026_07_28),
            _ => None,
        }
    }

    /// The revision's protocol version, as a client sends it: `"2025-11-25"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Revision::V2025_11_25 => "2025-11-25",
            Revision::V2026_07_28 => "2026-07-28",
        }
    }

    /// Whether this revision takes an `outputSchema` and a `structuredContent` of any JSON, not
    /// an object's alone.
    pub(super) fn takes_any_output(self) -> bool {
        self >= Revision::V2026_07_28
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
