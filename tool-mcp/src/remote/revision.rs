//! How rmcp's client opens a connection in the revision of MCP a remote toolkit speaks.
//!
//! The revision is tool-core's, the one its MCP export shapes for, so that a host names one
//! type whether it serves a client or connects to a server.

use rmcp::model::ProtocolVersion;
use rmcp::service::ClientLifecycleMode;

#[cfg_attr(docsrs, doc(cfg(feature = "remote")))]
pub use tool_core::providers::mcp::Revision;

/// The protocol version rmcp's client asks for in `revision`.
pub(super) fn version(revision: Revision) -> ProtocolVersion {
    match revision {
        Revision::V2025_11_25 => ProtocolVersion::V_2025_11_25,
        Revision::V2026_07_28 => ProtocolVersion::V_2026_07_28,
        // tool-core's revisions are non-exhaustive to other crates; one added there is added
        // here in the same release.
        _ => ProtocolVersion::LATEST,
    }
}

/// How rmcp's client opens a connection in `revision`: the `initialize` handshake, or
/// `server/discover` and requests that each stand alone.
pub(super) fn lifecycle(revision: Revision) -> ClientLifecycleMode {
    match revision {
        Revision::V2025_11_25 => ClientLifecycleMode::Initialize,
        _ => ClientLifecycleMode::Discover {
            preferred_versions: vec![version(revision)],
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_revision_of_tool_core_s_export_is_spoken_as_its_protocol_version() {
        // The same type as the export's, so one value names both.
        let exported: tool_core::providers::mcp::Revision = Revision::default();
        assert_eq!(version(exported), ProtocolVersion::V_2025_11_25);
        assert!(matches!(
            lifecycle(exported),
            ClientLifecycleMode::Initialize
        ));
        let current = Revision::V2026_07_28;
        assert_eq!(version(current).as_str(), current.as_str());
        assert!(matches!(
            lifecycle(current),
            ClientLifecycleMode::Discover { preferred_versions } if preferred_versions == [version(current)]
        ));
    }
}
