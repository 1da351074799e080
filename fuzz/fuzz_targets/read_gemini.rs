//! The gemini call reader: any JSON gives a call or a `bad-call` refusal; a call read runs
//! through the registry to one result, which is written back in the provider's shape.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use tool_core::Registry;

static REGISTRY: LazyLock<Registry> = LazyLock::new(tool_core_fuzz::registry);

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    match tool_core::providers::gemini::read_call(&value) {
        Err(refusal) => assert_eq!(refusal.code, "bad-call"),
        Ok(call) => {
            let result = tool_core_fuzz::call_and_check(&REGISTRY, call);
            let written = tool_core::providers::gemini::write_result(&result);
            assert!(written.is_object(), "{written}");
        }
    }
});
