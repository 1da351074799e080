//! Work done beside the calls (writing lines, forwarding a call's notices, telling a session
//! its tool list changed, keeping a task's stored state, expiring a call that waits for
//! answers, following a remote server's tools, telling it a call was dropped), spawned as one
//! type of future.
//!
//! tokio compiles its task machinery (the harness, its polling and its cancelling, for each
//! kind of runtime) once for every type of future spawned. Each piece of work here runs once
//! per session, per toolkit, per call that reports or waits, or per task, so boxing it costs
//! nothing a caller would notice, and a binary carries one copy of that machinery for all of
//! them instead of one each.

use futures::FutureExt;
use tokio::runtime::Handle;
use tokio::task::JoinHandle;

/// Spawns `work` on the current runtime.
#[track_caller]
pub(crate) fn spawn(work: impl Future<Output = ()> + Send + 'static) -> JoinHandle<()> {
    tokio::spawn(work.boxed())
}

/// Spawns `work` on the runtime `runtime` is a handle to.
#[track_caller]
pub(crate) fn spawn_on(
    runtime: &Handle,
    work: impl Future<Output = ()> + Send + 'static,
) -> JoinHandle<()> {
    runtime.spawn(work.boxed())
}
