//! The revision of MCP a remote toolkit speaks, and how rmcp's client opens a connection in it.

use rmcp::model::ProtocolVersion;
use rmcp::service::ClientLifecycleMode;

/// The revision of MCP a remote toolkit speaks to its server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(docsrs, doc(cfg(feature = "remote")))]
pub enum Revision {
    /// 2025-11-25: `initialize` opens a session; the server's questions come as requests to
    /// the client while a call runs.
    #[default]
    V2025_11_25,
    /// 2026-07-28: `server/discover`, then each request stands alone (no session); the
    /// server's questions come back as `input_required` results, answered on the call's retry.
    V2026_07_28,
}

impl Revision {
    pub(super) fn version(self) -> ProtocolVersion {
        match self {
            Revision::V2025_11_25 => ProtocolVersion::V_2025_11_25,
            Revision::V2026_07_28 => ProtocolVersion::V_2026_07_28,
        }
    }

    pub(super) fn lifecycle(self) -> ClientLifecycleMode {
        match self {
            Revision::V2025_11_25 => ClientLifecycleMode::Initialize,
            Revision::V2026_07_28 => ClientLifecycleMode::Discover {
                preferred_versions: vec![self.version()],
            },
        }
    }
}
