//! [`BoxFuture`]: the boxed future a tool's call and an asker's question return, so that both
//! traits stay object-safe (the registry holds `Arc<dyn Tool>`, a context `Arc<dyn Asker>`).

use std::future::Future;
use std::pin::Pin;

/// A boxed future that is `Send`, as tools and askers return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;
