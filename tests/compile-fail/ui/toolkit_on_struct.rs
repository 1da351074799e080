use tool_core::toolkit;

#[toolkit(name = "note")]
struct Notes;

fn main() {}
