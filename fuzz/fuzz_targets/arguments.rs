//! Argument parsing into a tool with nested structs, enums, vectors and options, through
//! `Registry::call`: any text gives one result with the call's id, the handler's input or a
//! refusal that reads back from its text, never a panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::ToolCall;
use tool_core::call::Arguments;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let call = ToolCall::new("fuzz", "order_place", Arguments::from_text(text));
    tool_core_fuzz::call_and_check(tool_core_fuzz::registry(), call);
});
