//! The revisions of MCP this framework speaks, and what differs between them for a tool: a
//! host writing MCP itself (with another server library, or by hand) answers each client in
//! the shape its revision takes, as tool-mcp does; tool-mcp's remote toolkits speak one of
//! them to their servers.

use std::fmt;

/// A revision of MCP: the shapes of a `tools/list` entry and a `CallToolResult` it takes
/// ([`mcp::tool_for`](super::mcp::tool_for), [`mcp::write_result_for`](super::mcp::write_result_for)),
/// and, for tool-mcp's remote toolkits, the revision they speak to their server.
///
/// Ordered by date, so `revision < Revision::V2026_07_28` asks for the older shapes. The
/// default is 2025-11-25, whose shapes every client takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Revision {
    /// 2025-11-25 (and the revisions before it, whose clients do not read what they lack):
    /// `initialize` opens a session, and a server's questions come as requests to the client
    /// while a call runs. An `outputSchema` is an object's schema alone, and
    /// `structuredContent` an object alone; a client refuses a whole `tools/list` that holds
    /// another.
    #[default]
    V2025_11_25,
    /// 2026-07-28: `server/discover`, then each request stands alone (no session); a server's
    /// questions come back as `input_required` results, answered on the call's retry. An
    /// `outputSchema` of any JSON Schema and a `structuredContent` of any JSON (SEP-2106), and
    /// `resultType` on every result.
    V2026_07_28,
}

impl Revision {
    /// The latest revision this crate shapes for.
    pub const LATEST: Revision = Revision::V2026_07_28;

    /// Every revision, oldest first (a slice, so that a revision added is no change of type).
    pub const ALL: &'static [Revision] = &[Revision::V2025_11_25, Revision::V2026_07_28];

    /// The revision whose shapes a peer that negotiated `protocol_version` takes: 2025-11-25's
    /// for it and the versions before it, whose clients do not read what they lack; `None` for
    /// a version this crate does not know, which a server should not have agreed to (answer
    /// with one it knows, such as [`Revision::LATEST`]'s).
    ///
    /// The version negotiated stays the one to answer with: `Revision::of("2025-06-18")` is
    /// 2025-11-25, whose [`as_str`](Revision::as_str) is `"2025-11-25"`.
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
            // The versions before the oldest revision here, which take its shapes.
            "2024-11-05" | "2025-03-26" | "2025-06-18" => Some(Revision::V2025_11_25),
            _ => (Revision::ALL.iter().copied())
                .find(|revision| revision.as_str() == protocol_version),
        }
    }

    /// The revision's own protocol version: `"2025-11-25"`.
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
