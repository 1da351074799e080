//! Where what a model is not shown goes: a handler's error, a panic's text, an output that
//! breaks its own schema, an observer that panicked. Each goes to `tracing`; when no `tracing`
//! subscriber is installed (none is, unless the host installs one), it goes to standard error
//! too, one line each, so that a refusal saying "the details were logged" is true whatever the
//! host set up. A host that installs a subscriber decides where the details go, and what it
//! filters out is its own choice.

/// Writes `line()` to standard error when no `tracing` subscriber receives what is logged on
/// this thread; the caller logs the same through `tracing` beside it.
pub(crate) fn without_subscriber(line: impl FnOnce() -> String) {
    let subscribed = tracing::dispatcher::get_default(|dispatch| {
        !dispatch.is::<tracing::subscriber::NoSubscriber>()
    });
    if !subscribed {
        eprintln!("tool-core: {}", line());
    }
}
