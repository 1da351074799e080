//! What the fuzz targets share: a tool whose input has nested structs, enums (externally and
//! internally tagged), vectors and options, a registry holding it, a way to run a call to the
//! end without an async runtime, and the checks every result must pass.

use std::future::Future;
use std::pin::pin;
use std::task::{Context as TaskContext, Poll, Waker};

use tool_core::{Context, Provider, Refusal, Registry, ToolCall, ToolResult, tool};

/// One line of an order.
#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct Item {
    /// Stock-keeping unit.
    pub sku: String,
    /// How many.
    pub qty: u32,
    /// Optional per-line discount, in percent.
    pub discount: Option<u8>,
}

/// How to ship.
#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Shipping {
    /// The usual way.
    Standard,
    /// Faster, with a deadline.
    Express {
        /// Days at most.
        days: u8,
    },
    /// Picked up at these stores, in order of preference.
    Pickup(Vec<String>),
}

/// A shape of package, internally tagged.
#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Package {
    /// A box.
    Box {
        /// Sides in centimetres.
        sides: Vec<f64>,
    },
    /// An envelope.
    Envelope {
        /// Whether it is padded.
        padded: bool,
    },
    /// Several packages.
    Bundle {
        /// What is in it.
        parts: Vec<Package>,
    },
}

/// Which orders to merge with.
#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct Filter {
    /// Only orders newer than this.
    pub since: Option<u64>,
    /// Tags every merged order has.
    pub tags: Vec<String>,
    /// A filter within this one.
    pub inner: Option<Box<Filter>>,
}

/// Everything `order_place` was given, handed back so a caller can compare.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Seen {
    /// The lines.
    pub items: Vec<Item>,
    /// The shipping.
    pub shipping: Shipping,
    /// The package.
    pub package: Option<Package>,
    /// The filter.
    pub filter: Option<Filter>,
    /// The priority.
    pub priority: i16,
    /// The note.
    pub note: Option<char>,
    /// The weight, in kilograms.
    pub weight: Option<f32>,
}

/// Places an order.
#[tool]
pub async fn order_place(
    items: Vec<Item>,
    shipping: Shipping,
    package: Option<Package>,
    filter: Option<Filter>,
    priority: i16,
    note: Option<char>,
    weight: Option<f32>,
) -> Seen {
    Seen {
        items,
        shipping,
        package,
        filter,
        priority,
        note,
        weight,
    }
}

/// A registry with `order_place` only, for the providers that take recursive types; made once
/// and shared by every run of every target.
pub fn registry() -> &'static Registry {
    static REGISTRY: std::sync::LazyLock<Registry> = std::sync::LazyLock::new(|| {
        Registry::builder()
            .tool(OrderPlace)
            .providers([Provider::Mcp, Provider::OpenAi, Provider::Anthropic])
            .build()
            .expect("the fuzz registry builds")
    });
    &REGISTRY
}

/// Runs `future` to its end by polling it with a waker that does nothing: enough for a
/// registry call whose handler never waits.
pub fn run<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = TaskContext::from_waker(Waker::noop());
    for _ in 0..1_000 {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
    }
    panic!("a call that never waits did not finish");
}

/// Runs `call` through `registry` and checks what every result must be: one answer with the
/// call's id and name, and, if refused, a refusal with a known code whose text reads back.
pub fn call_and_check(registry: &Registry, call: ToolCall) -> ToolResult {
    let (id, name) = (call.id.clone(), call.name.clone());
    let result = run(registry.call(call, &Context::default()));
    assert_eq!(result.id, id);
    assert_eq!(result.name, name);
    if let Err(refusal) = &result.outcome {
        assert!(
            ["bad-arguments", "unknown-tool"].contains(&refusal.code.as_str()),
            "unexpected refusal: {refusal}"
        );
        assert_eq!(Refusal::parse(&refusal.to_string()).as_ref(), Some(refusal));
        if refusal.code == "bad-arguments" {
            assert!(refusal.find_line("fields").is_some(), "{refusal}");
        }
    }
    if let Ok(output) = &result.outcome {
        // The handler hands back what it saw: an object with every field.
        let value = output.to_value();
        assert!(value.get("items").is_some(), "{value}");
    }
    result
}

/// The check every provider-reader target makes: any JSON in `data` is read by `read` into a
/// call or a `bad-call` refusal; a call runs through the registry to one result (checked as
/// [`call_and_check`] does), which `write` gives back as a JSON object.
pub fn read_and_write(
    data: &[u8],
    read: impl FnOnce(&serde_json::Value) -> Result<ToolCall, Refusal>,
    write: impl FnOnce(&ToolResult) -> serde_json::Value,
) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    match read(&value) {
        Err(refusal) => assert_eq!(refusal.code, "bad-call"),
        Ok(call) => {
            let result = call_and_check(registry(), call);
            let written = write(&result);
            assert!(written.is_object(), "{written}");
        }
    }
}
