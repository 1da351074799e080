use tool_core::ToolCall;

fn main() {
    // JSON text where a value goes: told to pass a value or `Arguments::from_text`.
    let _call = ToolCall::new("1", "note_write", r#"{"text": "milk"}"#);
}
