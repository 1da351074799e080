//! A remote toolkit following its server's tools in a registry: each time the server says
//! its tools changed, they are listed again and the registry changed to match.

use std::sync::Arc;

use super::{RemoteToolkit, tool_list};

impl RemoteToolkit {
    /// Keeps this toolkit's tools in `registry` as the server lists them, until the handle
    /// is dropped: on each `notifications/tools/list_changed` the server's tools are listed
    /// again, and those it added, changed or took away are added (in this toolkit), replaced
    /// or removed in the registry, which tells its own subscribers (an `McpServer` serving it
    /// tells its clients). A listing that fails, or a new tool whose name the registry has
    /// already, changes nothing and is logged; the next change is followed as usual.
    pub fn follow(&self, registry: &tool_core::Registry) -> Following {
        let registry = registry.clone();
        let mut changed = self.tools_changed.clone();
        let (name, link, timeout, limit) = (
            self.name.clone(),
            self.link.clone(),
            self.timeout,
            self.limit,
        );
        let mut known = self.definitions.clone();
        let task = crate::background::spawn(async move {
            while changed.changed().await.is_ok() {
                let definitions = match tool_list::list(&name, &link.client, link.reached, limit)
                    .await
                {
                    Ok(mut definitions) => {
                        definitions.retain(|definition| !link.leaves_out(&definition.name));
                        definitions
                    }
                    Err(error) => {
                        tracing::warn!(toolkit = %name, %error, "the changed tools were not listed");
                        continue;
                    }
                };
                for gone in known
                    .iter()
                    .filter(|old| !definitions.iter().any(|d| d.name == old.name))
                {
                    registry.remove(&link.offered_name(&gone.name));
                }
                let mut now = Vec::new();
                for definition in definitions {
                    let before = known.iter().find(|old| old.name == definition.name);
                    let applied = match before {
                        Some(before) if *before == definition => Ok(()),
                        Some(_) => registry.replace(link.tool(definition.clone(), timeout)),
                        None => registry
                            .add_shared(Arc::new(link.tool(definition.clone(), timeout)), &name),
                    };
                    match applied {
                        Ok(()) => now.push(definition),
                        Err(error) => {
                            tracing::warn!(toolkit = %name, tool = %definition.name, %error, "a changed tool was not taken");
                            // A change refused leaves the tool as it was in the registry: it is
                            // still known, so that its removal or its mending is followed.
                            now.extend(before.cloned());
                        }
                    }
                }
                known = now;
            }
        });
        Following { task }
    }
}

/// A remote toolkit following its server's tools in a registry
/// ([`RemoteToolkit::follow`]); dropping it stops following.
#[cfg_attr(docsrs, doc(cfg(feature = "remote")))]
#[must_use = "following stops when this is dropped"]
pub struct Following {
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Following {
    fn drop(&mut self) {
        self.task.abort();
    }
}
