use tool_core::{tool, Context, Refusal, Registry, ToolCall};

/// An item.
#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
struct Item {
    /// How many.
    qty: u32,
}


/// Writes a note.
#[tool(name = "note_write", destructive, timeout = "5s")]
async fn note_write(
    /// The text.
    text: String,
    /// Revision.
    revision: Option<u64>,
    items: Vec<Item>,
    _ctx: &Context,
) -> Result<Item, Refusal> {
    Ok(Item { qty: text.len() as u32 + revision.unwrap_or(0) as u32 + items.len() as u32 })
}

#[tokio::main]
async fn main() {
    let registry = Registry::builder().tool(NoteWrite).build().unwrap();
    println!("{}", serde_json::to_string_pretty(&registry.definitions()).unwrap());
    for args in [r#"{"text":"hi","items":[{"qty":1},{"qty":"x"}],"colour":null, "revision": "7"}"#, r#"{"text":"hi","items":[], "revision": null}"#] {
        let r = registry.call(ToolCall::new("1", "note_write", tool_core::Arguments::from_text(args)), &Context::default()).await;
        println!("{}", r.text());
    }
}
