//! Toolkits: grouping, shared state, names, and composition into registries.

use std::sync::Mutex;

use serde_json::json;
use tool_core::tool::Toolkit;
use tool_core::{Context, Grant, Registry, ToolCall, registry, tool, toolkit};

/// A counter shared by its tools.
#[derive(Default)]
struct TallyBook {
    count: Mutex<u64>,
}

#[toolkit]
impl TallyBook {
    /// Adds to the tally.
    #[tool(idempotent)]
    async fn tally_add(&self, by: u64) -> String {
        let mut count = self.count.lock().unwrap();
        *count += by;
        format!("{count}")
    }

    /// Reads the tally.
    #[tool(readonly)]
    async fn tally_read(&self) -> String {
        format!("{}", self.count.lock().unwrap())
    }

    /// The unit tallies are kept in; needs no state.
    #[tool(readonly)]
    fn tally_unit() -> &'static str {
        "marks"
    }

    /// Not a tool: an ordinary method, untouched.
    fn reset(&self) {
        *self.count.lock().unwrap() = 0;
    }
}

/// Says hello.
#[tool(readonly)]
async fn hello() -> &'static str {
    "hello"
}

#[test]
fn a_toolkit_is_named_after_its_type_unless_named() {
    assert_eq!(TallyBook::NAME, "tally_book");
    assert_eq!(
        TallyBook::TOOL_NAMES,
        ["tally_add", "tally_read", "tally_unit"]
    );
    assert_eq!(Hello::NAME, "hello");
    assert_eq!(Hello::TOOL_NAMES, ["hello"]);
}

#[tokio::test]
async fn tools_of_a_toolkit_share_its_state() {
    let registry = registry![TallyBook::default(), Hello];
    let ctx = Context::default();
    let add = |by: u64| ToolCall::new("a", "tally_add", json!({ "by": by }));
    assert_eq!(registry.call(add(2), &ctx).await.text(), "2");
    assert_eq!(registry.call(add(3), &ctx).await.text(), "5");
    let read = ToolCall::new("r", "tally_read", serde_json::Value::Null);
    assert_eq!(registry.call(read, &ctx).await.text(), "5");
    let unit = ToolCall::new("u", "tally_unit", json!({}));
    assert_eq!(registry.call(unit, &ctx).await.text(), "marks");
    assert_eq!(
        registry.names(),
        ["tally_add", "tally_read", "tally_unit", "hello"]
    );
}

#[test]
fn the_methods_stay_ordinary_methods() {
    let book = TallyBook::default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    assert_eq!(runtime.block_on(book.tally_add(4)), "4");
    book.reset();
    assert_eq!(runtime.block_on(book.tally_read()), "0");
    assert_eq!(TallyBook::tally_unit(), "marks");
}

#[tokio::test]
async fn the_builder_takes_toolkits_and_grants_name_them() {
    let registry = Registry::builder()
        .toolkit(TallyBook::default())
        .tool(Hello)
        .build()
        .unwrap();
    let view = registry.scoped(Grant::new().toolkit("tally_book"));
    assert_eq!(view.names(), ["tally_add", "tally_read", "tally_unit"]);
    let hello = registry.scoped(Grant::new().toolkit("hello"));
    assert_eq!(
        hello.names(),
        ["hello"],
        "a lone tool is a toolkit of its own"
    );
}

#[test]
fn an_empty_registry_macro_makes_an_empty_registry() {
    let registry = registry![];
    assert!(registry.names().is_empty());
}

/// A toolkit for a directory: every tool has a title and says whether it changes anything.
struct Listed;

#[tool_core::toolkit(name = "listed", require(title, hints))]
impl Listed {
    /// Reads the list.
    #[tool(readonly, title = "Read the list")]
    async fn listed_read(&self) -> String {
        "read".to_owned()
    }

    /// Clears the list.
    #[tool(destructive, title = "Clear the list")]
    async fn listed_clear(&self) -> String {
        "cleared".to_owned()
    }
}

#[test]
fn a_toolkit_whose_tools_say_what_it_requires_builds() {
    let registry = Registry::builder().toolkit(Listed).build().unwrap();
    let definitions = registry.definitions();
    assert_eq!(definitions[0].title.as_deref(), Some("Read the list"));
    assert!(definitions[1].annotations.destructive);
}
