use tool_core::{tool, toolkit};

struct Counter {
    count: u64,
}

#[toolkit(name = "counter")]
impl Counter {
    /// Counts one more.
    #[tool]
    async fn counter_bump(&mut self) -> u64 {
        self.count += 1;
        self.count
    }
}

fn main() {}
