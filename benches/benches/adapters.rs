//! One good call through each agent framework's adapter, beside what it is held to: this
//! project's `Registry::call` answering the same arguments with the text a model reads (from
//! the arguments' text, as OpenAI's calls carry them, and from a `serde_json::Value`, as rig
//! and genai hand them over), and the framework's own way of running the same tool without
//! this project (rig's `ToolSet` with a tool of rig's, static or a `DynamicTool`, which takes
//! its arguments as a `Value`; for async-openai and genai, which dispatch nothing, the call
//! read by hand into the tool's arguments and answered in the crate's own message type). The
//! hand-written tool alone (arguments read, fn run, output written) is measured too, so that
//! what a framework's dispatch adds is its figure less the tool's.
//!
//! Every contender is driven by the same `ready()` (one poll, no executor): none of them waits.

mod common;

use std::hint::black_box;

use async_openai::types::chat::{
    ChatCompletionMessageToolCall, ChatCompletionRequestToolMessage,
    ChatCompletionRequestToolMessageContent, FunctionCall,
};
use criterion::{Criterion, criterion_group, criterion_main};
use rig_agent::tool::ToolSet;
use rig_core::tool::ToolContext;
use serde::Deserialize;
use tool_benches::{ARGUMENTS, Args, parts, ready, registry_of, run};
use tool_core::call::Arguments;
use tool_core::{Context, ToolCall};

fn adapters(c: &mut Criterion) {
    let runtime = tool_benches::runtime();
    let _entered = runtime.enter();
    let registry = registry_of(1);
    let ctx = Context::default();

    let rig_native = ToolSet::from_tools(vec![common::RigEventCount]);
    let rig_dynamic = ToolSet::from_dynamic_tools(vec![common::rig_dynamic_event_count()]);
    let rig_ours = ToolSet::from_dynamic_tools(
        tool_core::adapters::rig::tools(&registry).expect("the tools export"),
    );
    let openai_call = ChatCompletionMessageToolCall {
        id: "call-1".to_owned(),
        function: FunctionCall {
            name: "event_count".to_owned(),
            arguments: ARGUMENTS.to_owned(),
        },
    };
    let genai_call = genai::chat::ToolCall {
        call_id: "call-1".to_owned(),
        fn_name: "event_count".to_owned(),
        fn_arguments: serde_json::from_str(ARGUMENTS).expect("JSON"),
        thought_signatures: None,
    };

    let core = || {
        let call = ToolCall::new("call-1", "event_count", Arguments::from_text(ARGUMENTS));
        ready(registry.call(call, &ctx)).text()
    };
    let value: serde_json::Value = serde_json::from_str(ARGUMENTS).expect("JSON");
    let core_from_value = |value: &serde_json::Value| {
        let call = ToolCall::new("call-1", "event_count", Arguments::from(value));
        ready(registry.call(call, &ctx)).text()
    };
    let rig = |tools: &ToolSet| {
        let mut context = ToolContext::new();
        ready(tools.execute("event_count", ARGUMENTS, &mut context))
    };
    let openai_by_hand = |call: &ChatCompletionMessageToolCall| {
        let args: Args = serde_json::from_str(&call.function.arguments).expect("arguments");
        let text = serde_json::to_string(&ready(run(args))).expect("an output");
        ChatCompletionRequestToolMessage {
            content: ChatCompletionRequestToolMessageContent::Text(text),
            tool_call_id: call.id.clone(),
        }
    };
    let genai_by_hand = |call: &genai::chat::ToolCall| {
        let args = Args::deserialize(&call.fn_arguments).expect("arguments");
        let text = serde_json::to_string(&ready(run(args))).expect("an output");
        genai::chat::ToolResponse::new(call.call_id.clone(), text)
    };

    // Every contender answers the same.
    let answer = r#"{"matched":5,"span":86400}"#;
    assert_eq!(core(), answer);
    assert_eq!(core_from_value(&value), answer);
    assert!(rig(&rig_native).output().render().contains("86400"));
    assert!(rig(&rig_dynamic).output().render().contains("86400"));
    assert_eq!(rig(&rig_ours).output().render(), answer);
    let ours = ready(tool_core::adapters::async_openai::call_chat(
        &registry,
        &openai_call,
        &ctx,
    ));
    assert_eq!(ours, openai_by_hand(&openai_call));
    let ours = ready(tool_core::adapters::genai::call(
        &registry,
        &genai_call,
        &ctx,
    ));
    assert_eq!(ours.content, genai_by_hand(&genai_call).content);

    let mut group = c.benchmark_group("adapters");
    group.bench_function("the tool by hand", |b| {
        let mut out = Vec::new();
        b.iter(|| parts::tool_baseline(black_box(ARGUMENTS), &mut out))
    });
    group.bench_function("Registry::call", |b| b.iter(|| black_box(core())));
    group.bench_function("Registry::call, arguments from a Value", |b| {
        b.iter(|| black_box(core_from_value(black_box(&value))))
    });
    group.bench_function("rig ToolSet::execute, rig's tool", |b| {
        b.iter(|| black_box(rig(black_box(&rig_native))))
    });
    group.bench_function("rig ToolSet::execute, rig's DynamicTool", |b| {
        b.iter(|| black_box(rig(black_box(&rig_dynamic))))
    });
    group.bench_function("rig ToolSet::execute, adapter", |b| {
        b.iter(|| black_box(rig(black_box(&rig_ours))))
    });
    group.bench_function("async-openai by hand", |b| {
        b.iter(|| black_box(openai_by_hand(black_box(&openai_call))))
    });
    group.bench_function("async-openai adapter", |b| {
        b.iter(|| {
            black_box(ready(tool_core::adapters::async_openai::call_chat(
                &registry,
                black_box(&openai_call),
                &ctx,
            )))
        })
    });
    group.bench_function("genai by hand", |b| {
        b.iter(|| black_box(genai_by_hand(black_box(&genai_call))))
    });
    group.bench_function("genai adapter", |b| {
        b.iter(|| {
            black_box(ready(tool_core::adapters::genai::call(
                &registry,
                black_box(&genai_call),
                &ctx,
            )))
        })
    });
    group.finish();
}

criterion_group!(benches, adapters);
criterion_main!(benches);
