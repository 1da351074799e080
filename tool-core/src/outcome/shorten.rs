//! Text shortened for a refusal: a name or a value a caller sent comes back cut, so that a
//! huge one is not sent back whole.

/// A name as a refusal repeats it: cut after 128 characters (longer than any tool's name or
/// artifact handle), so a huge name sent by a caller is not sent back whole.
pub fn shortened(name: &str) -> std::borrow::Cow<'_, str> {
    cut_after(name, 128)
}

/// `text` cut after `chars` characters and marked with `…` where it was cut; whole if it is
/// no longer.
pub fn cut_after(text: &str, chars: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(chars) {
        None => text.into(),
        Some((cut, _)) => format!("{}…", &text[..cut]).into(),
    }
}
