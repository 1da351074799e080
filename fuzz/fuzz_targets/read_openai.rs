//! The openai call reader: any JSON gives a call or a `bad-call` refusal; a call read runs
//! through the registry to one result, which is written back in the provider's shape.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::providers::openai;

fuzz_target!(|data: &[u8]| {
    tool_core_fuzz::read_and_write(data, openai::read_call, openai::write_result);
});
