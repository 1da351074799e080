//! `Refusal::parse`: never panics, and what it reads is written back as the same text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tool_core::Refusal;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Some(refusal) = Refusal::parse(text) {
        let written = refusal.to_string();
        assert_eq!(written, text);
        assert_eq!(Refusal::parse(&written), Some(refusal));
    }
});
