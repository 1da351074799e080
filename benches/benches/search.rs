//! Finding tools among many: one `Registry::search` over 1,000 and 10,000 generated tools (the
//! index already made), and the cost of a change to the tools followed by the first search,
//! which makes the index again, beside the change alone.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use serde_json::json;
use tool_core::call::{Arguments, BoxFuture};
use tool_core::outcome::Output;
use tool_core::tool::{Tool, ToolDefinition};
use tool_core::{Context, Refusal, Registry};

/// Words the generated descriptions are drawn from.
const WORDS: [&str; 48] = [
    "note",
    "write",
    "read",
    "delete",
    "list",
    "search",
    "file",
    "folder",
    "user",
    "account",
    "invoice",
    "payment",
    "currency",
    "convert",
    "weather",
    "forecast",
    "city",
    "calendar",
    "event",
    "meeting",
    "email",
    "send",
    "message",
    "channel",
    "ticket",
    "issue",
    "comment",
    "project",
    "task",
    "deadline",
    "report",
    "chart",
    "table",
    "row",
    "column",
    "image",
    "resize",
    "upload",
    "download",
    "archive",
    "backup",
    "restore",
    "price",
    "order",
    "stock",
    "shipment",
    "address",
    "translate",
];

/// A tool of a generated definition, which answers nothing of interest.
struct Generated(ToolDefinition);

impl Tool for Generated {
    fn definition(&self) -> ToolDefinition {
        self.0.clone()
    }

    fn call<'a>(
        &'a self,
        _arguments: &'a Arguments,
        _ctx: &'a Context,
    ) -> BoxFuture<'a, Result<Output, Refusal>> {
        Box::pin(async { Ok(Output::text("")) })
    }
}

/// The `n`th generated tool: a name of two words, a description of eight, two fields.
fn generated(n: usize) -> Generated {
    let word =
        |k: usize| WORDS[(n.wrapping_mul(2_654_435_761).wrapping_add(k * 40_503)) % WORDS.len()];
    let description: Vec<&str> = (0..8).map(word).collect();
    let schema = json!({
        "type": "object",
        "properties": {
            word(8): {"type": "string", "description": format!("The {} to {}.", word(9), word(10))},
            "limit": {"type": "integer", "description": "How many at most."}
        },
        "additionalProperties": false
    });
    let schema = schema.as_object().cloned().unwrap_or_default();
    let name = format!("{}_{}_{n}", word(11), word(12));
    let description = format!("{}.", description.join(" "));
    Generated(ToolDefinition::new(name, description, schema).with_tags([word(13)]))
}

fn registry_of(tools: usize) -> Registry {
    (0..tools)
        .fold(Registry::builder(), |builder, n| {
            builder.shared_tool(Arc::new(generated(n)), "generated")
        })
        .build()
        .expect("generated tools are valid")
}

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    for tools in [1_000, 10_000] {
        let registry = registry_of(tools);
        assert!(!registry.search("convert currency payment", 10).is_empty());
        group.bench_with_input(BenchmarkId::new("query", tools), &registry, |b, r| {
            b.iter(|| black_box(r.search(black_box("convert currency payment"), 10)))
        });
        let mut round = 0;
        group.bench_with_input(BenchmarkId::new("change", tools), &registry, |b, r| {
            b.iter(|| {
                round += 1;
                r.replace(generated(round % tools)).expect("a valid tool");
            })
        });
        group.bench_with_input(
            BenchmarkId::new("change then first query", tools),
            &registry,
            |b, r| {
                b.iter(|| {
                    round += 1;
                    r.replace(generated(round % tools)).expect("a valid tool");
                    black_box(r.search("convert currency payment", 10))
                })
            },
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = search
}
criterion_main!(benches);
