use tool_benches::EventCount;
use tool_core::{Context, Registry, Tool, ToolCall};
#[path = "../benches/common/mod.rs"]
mod common;

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let _entered = runtime.enter();
    let (_a, peer) = common::idle_peer(common::RmcpStored::new());
    println!(
        "{}",
        tool_benches::ready(common::handle_mcp_text(
            &common::RmcpStored::new(),
            &peer,
            tool_benches::MCP_CALL
        ))
    );
    let registry = Registry::builder().tool(EventCount).build().unwrap();
    let (_b, peer) = common::idle_peer(tool_mcp::McpServer::new(registry.clone()));
    println!(
        "{}",
        tool_benches::ready(common::handle_mcp_text(
            &tool_mcp::McpServer::new(registry.clone()),
            &peer,
            tool_benches::MCP_CALL
        ))
    );
    let registry = Registry::builder().tool(EventCount).build().unwrap();
    let ctx = Context::default();
    let call = ToolCall::from_json(tool_benches::CALL).unwrap();
    let f = registry.call(call, &ctx);
    println!("Registry::call future: {}", std::mem::size_of_val(&f));
    let args = tool_core::Arguments::from_text(tool_benches::ARGUMENTS);
    let h = EventCount.call(&args, &ctx);
    println!("handler (boxed) ptr: {}", std::mem::size_of_val(&h));
    for text in [tool_benches::BAD_THREE_CALL, tool_benches::BAD_NESTED_CALL] {
        let call = ToolCall::from_json(text).unwrap();
        let r = tool_benches::ready(registry.call(call, &ctx));
        println!("{}", serde_json::to_string(&r).unwrap());
        println!("{}", tool_benches::baseline(text).unwrap());
    }
}
#[allow(dead_code)]
fn unused() {}
