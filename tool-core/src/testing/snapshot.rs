//! Snapshots of what each provider is shown of a registry, kept by insta as files beside the
//! test: a change to a tool's name, description or schema shows up as a diff in review instead
//! of reaching a model unseen.

use crate::providers::Provider;
use crate::registry::Registry;

/// Asserts that what each provider is shown of a registry's tools (its export in MCP's, OpenAI's,
/// Anthropic's and Gemini's shapes) matches the snapshots kept beside the test, one file per
/// provider in `snapshots/`, named as insta names them, after the test's module path and
/// `exports@mcp`, `exports@openai`, `exports@anthropic` and `exports@gemini`
/// (`my_crate__tests__exports@openai.snap`; after a prefix given first, for a test that keeps
/// several registries: `assert_exports_snapshot!("notes", registry)` makes
/// `notes-exports@openai`).
///
/// Every provider is compared before the assertion fails, so one run shows every diff. A
/// registry a provider refuses (a tool whose name or schema it cannot take) is kept as that
/// provider's one line, `refused: ...`, saying which tool and why, so a change making a
/// registry unusable with one provider is in the diff too.
///
/// A snapshot not yet kept, or one the code no longer matches, fails the test and is written
/// beside the kept one as a pending `.snap.new` file. To accept what the code now says:
/// `INSTA_UPDATE=always cargo test` (or `cargo insta review`, with cargo-insta installed, one
/// change at a time). Under `CI=true` nothing is written.
///
/// ```no_run
/// # use tool_core::{registry, tool};
/// /// Reads a note.
/// #[tool(readonly)]
/// async fn note_read(id: u64) -> String {
///     id.to_string()
/// }
///
/// #[test]
/// fn what_models_are_shown() {
///     tool_core::assert_exports_snapshot!(registry![NoteRead]);
/// }
/// ```
#[macro_export]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
macro_rules! assert_exports_snapshot {
    ($registry:expr $(,)?) => {
        $crate::assert_exports_snapshot!("", $registry)
    };
    ($prefix:expr, $registry:expr $(,)?) => {{
        let registry: &$crate::registry::Registry = &$registry;
        let prefix: &str = $prefix;
        let mut differ = ::std::vec::Vec::new();
        for provider in $crate::providers::Provider::ALL {
            let text = $crate::testing::exports_text(registry, provider);
            let name = $crate::testing::snapshot_name(prefix, provider);
            let what = format!("what {provider} is shown of {}", stringify!($registry));
            // Each provider is compared even after one differs: insta shows every diff and
            // writes every pending file in one run.
            let compared = ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(|| {
                $crate::testing::__insta::assert_snapshot!(name, text, &what);
            }));
            if compared.is_err() {
                differ.push(provider.to_string());
            }
        }
        if !differ.is_empty() {
            panic!(
                "what {} is shown of {} differs from the kept snapshots (the diffs are above); \
                 to accept it: INSTA_UPDATE=always cargo test",
                differ.join(", "),
                stringify!($registry)
            );
        }
    }};
}

/// The name of `provider`'s snapshot: `exports@openai`, or `notes-exports@openai` after the
/// prefix `notes`.
#[doc(hidden)]
pub fn snapshot_name(prefix: &str, provider: Provider) -> String {
    let provider = provider.to_string().to_lowercase();
    if prefix.is_empty() {
        format!("exports@{provider}")
    } else {
        format!("{prefix}-exports@{provider}")
    }
}

/// What `provider` is shown of `registry`'s tools: their export as indented JSON, or, when
/// the provider refuses the registry, the one line `refused: ...` naming the tool and why.
pub fn exports_text(registry: &Registry, provider: Provider) -> String {
    match registry.export(provider) {
        Ok(exported) => serde_json::to_string_pretty(&*exported)
            .unwrap_or_else(|error| format!("the export is not JSON: {error}")),
        Err(error) => format!("refused: {error}"),
    }
}
