//! How rmcp's client opens a connection in the revision of MCP a remote toolkit speaks.
//!
//! The revision is tool-core's, the one its MCP export shapes for, so that a host names one
//! type whether it serves a client or connects to a server.

use rmcp::model::ProtocolVersion;
use rmcp::service::ClientLifecycleMode;

#[cfg_attr(docsrs, doc(cfg(feature = "remote")))]
pub use tool_core::providers::mcp::Revision;

/// The protocol version rmcp's client asks for in `revision`: rmcp's own of that date, which
/// it knows for every revision tool-core has (the test below holds each).
pub(super) fn version(revision: Revision) -> ProtocolVersion {
    (ProtocolVersion::KNOWN_VERSIONS.iter())
        .find(|known| known.as_str() == revision.as_str())
        .cloned()
        .unwrap_or(ProtocolVersion::LATEST)
}

/// How rmcp's client opens a connection in `revision`: the `initialize` handshake, or
/// `server/discover` and requests that each stand alone, as rmcp says of that version.
pub(super) fn lifecycle(revision: Revision) -> ClientLifecycleMode {
    let version = version(revision);
    match version.has_initialize() {
        true => ClientLifecycleMode::Initialize,
        false => ClientLifecycleMode::Discover {
            preferred_versions: vec![version],
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_revision_is_spoken_as_its_own_protocol_version() {
        for &revision in Revision::ALL {
            // rmcp knows it: the fallback is never taken.
            assert_eq!(version(revision).as_str(), revision.as_str());
        }
        // The same type as the export's, so one value names both.
        let exported: tool_core::providers::mcp::Revision = Revision::default();
        assert!(matches!(
            lifecycle(exported),
            ClientLifecycleMode::Initialize
        ));
        let current = Revision::V2026_07_28;
        assert!(matches!(
            lifecycle(current),
            ClientLifecycleMode::Discover { preferred_versions }
                if preferred_versions == [ProtocolVersion::V_2026_07_28]
        ));
    }
}
