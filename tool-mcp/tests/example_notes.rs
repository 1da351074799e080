//! The example server's note store takes whatever its schema lets a model send: a note at the
//! highest id its schema allows leaves no id for a new note, which is refused with what to send
//! instead, and every tool goes on serving.

use serde_json::{Value, json};
use tool_core::{Context, Registry, ToolCall, code};

#[path = "../../examples/notes/mod.rs"]
#[allow(dead_code)]
mod notes;

async fn call(registry: &Registry, ctx: &Context, name: &str, arguments: Value) -> String {
    registry
        .call(ToolCall::new("c", name, arguments), ctx)
        .await
        .text()
}

#[tokio::test]
async fn a_note_at_the_highest_id_leaves_no_new_id_and_breaks_nothing() {
    let registry = notes::registry();
    let ctx = Context::new().with_extension(notes::NoteStore::default());
    let highest = call(
        &registry,
        &ctx,
        "note_write",
        json!({"id": u64::MAX, "text": "the last"}),
    )
    .await;
    assert!(highest.contains(&u64::MAX.to_string()), "{highest}");
    for dry_run in [false, true] {
        let next = registry
            .call(
                ToolCall::new(
                    "c",
                    "note_write",
                    json!({"text": "one more", "dry_run": dry_run}),
                ),
                &ctx,
            )
            .await;
        let refusal = next.refusal().expect("no id is left for a new note");
        assert_eq!(refusal.code, code::BAD_ARGUMENTS);
        assert!(
            refusal.message.contains("give the id of the note to write"),
            "{}",
            next.text()
        );
    }
    let count = call(&registry, &ctx, "note_count", json!({})).await;
    assert!(count.contains('1'), "{count}");
    let written = call(
        &registry,
        &ctx,
        "note_write",
        json!({"id": 7, "text": "still writing"}),
    )
    .await;
    assert!(!written.starts_with("refused"), "{written}");
}
