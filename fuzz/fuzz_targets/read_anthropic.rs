//! The anthropic call reader: any JSON gives a call or a `bad-call` refusal; a call read runs
//! through the registry to one result, which is written back in the provider's shape.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::providers::anthropic;

fuzz_target!(|data: &[u8]| {
    tool_core_fuzz::read_and_write(data, anthropic::read_call, anthropic::write_result);
});
