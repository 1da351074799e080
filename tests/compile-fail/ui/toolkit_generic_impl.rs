use tool_core::{tool, toolkit};

struct Store<T>(Vec<T>);

#[toolkit(name = "store")]
impl<T: Send + Sync + 'static> Store<T> {
    /// Counts the items.
    #[tool(readonly)]
    async fn store_count(&self) -> u64 {
        self.0.len() as u64
    }
}

fn main() {}
