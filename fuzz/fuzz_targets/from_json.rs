//! `ToolCall::from_slice` (and so `from_json`): any bytes give a call or a `bad-call` refusal;
//! a call written back out and read again has the same id, name and arguments.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::ToolCall;

fuzz_target!(|data: &[u8]| {
    match ToolCall::from_slice(data) {
        Err(refusal) => assert_eq!(refusal.code, "bad-call"),
        Ok(call) => {
            let written = serde_json::to_string(&call).expect("a call serializes");
            let again = ToolCall::from_json(&written).expect("a written call reads back");
            assert_eq!(again.id, call.id);
            assert_eq!(again.name, call.name);
            match (call.arguments.to_value(), again.arguments.to_value()) {
                (Ok(before), Ok(after)) => assert_eq!(before, after),
                // Unreadable either way: the same text, but for the JSON whitespace around it
                // (`"1e400  "`, read back, is `1e400`).
                (Err(_), Err(_)) => assert_eq!(
                    again.arguments.as_str().trim(),
                    call.arguments.as_str().trim()
                ),
                (before, after) => panic!("arguments changed: {before:?} became {after:?}"),
            }
        }
    }
});
