//! One registry in every provider's dialect: MCP, OpenAI, Anthropic and Gemini tool
//! definitions, then one call read from each provider's call shape and answered in its result
//! shape, good and refused.
//!
//! Run with `cargo run --example providers`.

use serde_json::{Value, json};
use tool_core::providers::{anthropic, gemini, mcp, openai};
use tool_core::{Context, Provider, Refusal, Registry, tool};

/// A line of an order.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Line {
    /// Stock-keeping unit.
    sku: String,
    /// How many.
    qty: u32,
}

/// How an order ships.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Shipping {
    /// Picked up at the counter.
    Pickup,
    /// Sent to an address.
    Courier {
        /// Where to.
        address: String,
    },
}

/// What placing an order did.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Placed {
    order: u64,
    skus: Vec<String>,
    ships_to: String,
    note: Option<String>,
}

/// Places an order.
#[tool(title = "Place an order", destructive)]
async fn order_place(
    /// The order's lines.
    lines: Vec<Line>,
    /// How it ships.
    shipping: Shipping,
    /// A note for the packer.
    note: Option<String>,
) -> Result<Placed, Refusal> {
    if lines.iter().any(|line| line.qty == 0) {
        return Err(Refusal::new(
            "empty-line",
            "a line orders nothing; drop it or set qty",
        ));
    }
    let to = match shipping {
        Shipping::Pickup => "the counter".to_owned(),
        Shipping::Courier { address } => address,
    };
    Ok(Placed {
        order: 1042,
        skus: lines.into_iter().map(|line| line.sku).collect(),
        ships_to: to,
        note,
    })
}

fn print(title: &str, value: &Value) {
    println!("== {title} ==");
    println!(
        "{}\n",
        serde_json::to_string_pretty(value).expect("JSON prints")
    );
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let registry = Registry::builder()
        .tool(OrderPlace)
        .build()
        .expect("every provider accepts this tool");
    let ctx = Context::default();

    for provider in Provider::ALL {
        let tools = registry.export(provider).expect("checked when built");
        print(&format!("{provider} tools"), &json!(tools));
    }

    let good = json!({"lines": [{"sku": "milk", "qty": 2}], "shipping": "pickup"});
    let bad = json!({"lines": [{"sku": "milk", "qty": "two"}], "shipping": {"courier": {}}});

    for (label, arguments) in [("good", good), ("refused", bad)] {
        let call = openai::read_call(&json!({
            "id": "call_1", "type": "function",
            "function": {"name": "order_place", "arguments": arguments.to_string()}
        }))
        .expect("an OpenAI tool call");
        let result = registry.call(call, &ctx).await;
        print(
            &format!("OpenAI tool message ({label})"),
            &openai::write_result(&result),
        );

        let call = anthropic::read_call(&json!({
            "type": "tool_use", "id": "toolu_1", "name": "order_place", "input": arguments
        }))
        .expect("an Anthropic tool_use block");
        let result = registry.call(call, &ctx).await;
        print(
            &format!("Anthropic tool_result ({label})"),
            &anthropic::write_result(&result),
        );

        let call = mcp::read_call(&json!({"name": "order_place", "arguments": arguments}), "7")
            .expect("MCP tools/call params");
        let result = registry.call(call, &ctx).await;
        print(
            &format!("MCP CallToolResult ({label})"),
            &mcp::write_result(&result),
        );

        let call = gemini::read_call(&json!({
            "functionCall": {"name": "order_place", "args": arguments}
        }))
        .expect("a Gemini functionCall");
        let result = registry.call(call, &ctx).await;
        print(
            &format!("Gemini functionResponse ({label})"),
            &gemini::write_result(&result),
        );
    }
}
