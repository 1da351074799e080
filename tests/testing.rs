//! The helpers for testing one's own tools (`tool_core::testing`): each assertion passes on
//! the answer it names and fails, showing the whole answer, on any other; the snapshots of a
//! registry's exports are held to the files kept in `tests/snapshots/`.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::json;
use tool_core::call::Arguments;
use tool_core::testing::{self, Called};
use tool_core::{Context, Refusal, registry, tool};
use tool_tests::run;

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Count {
    words: usize,
}

/// Counts the words of a text.
#[tool(readonly)]
async fn word_count(
    /// The text.
    #[schemars(length(min = 1, max = 100))]
    text: String,
    /// Counted only if at least this long.
    #[schemars(range(min = 1))]
    shortest: Option<u32>,
) -> Count {
    let shortest = shortest.unwrap_or(1) as usize;
    Count {
        words: text
            .split_whitespace()
            .filter(|word| word.chars().count() >= shortest)
            .count(),
    }
}

/// Says who is calling.
#[tool(readonly)]
async fn whoami(ctx: &Context) -> Result<String, Refusal> {
    ctx.caller()
        .map(str::to_owned)
        .ok_or_else(|| Refusal::new("anonymous", "no caller was named").line("hint", ["log in"]))
}

/// The message a failed assertion panicked with.
fn failure(assertion: impl FnOnce()) -> String {
    let panicked =
        catch_unwind(AssertUnwindSafe(assertion)).expect_err("the assertion did not fail");
    panicked
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| {
            panicked
                .downcast_ref::<&str>()
                .map(|text| (*text).to_owned())
        })
        .unwrap_or_default()
}

fn call(name: &str, arguments: serde_json::Value) -> Called {
    run(testing::call(
        &registry![WordCount, Whoami],
        name,
        arguments,
    ))
}

#[test]
fn an_output_is_asserted_as_text_or_as_json() {
    let good = call("word_count", json!({"text": "one two three"}));
    good.assert_text(r#"{"words":3}"#)
        .assert_json(json!({"words": 3}));
    assert_eq!(good.text(), r#"{"words":3}"#);
    assert!(!good.result().is_refused());

    let other = failure(|| {
        good.assert_json(json!({"words": 4}));
    });
    assert!(
        other.contains("`word_count` answered another value"),
        "{other}"
    );
    let refused_instead = failure(|| {
        call("word_count", json!({"text": ""})).assert_text("{}");
    });
    assert!(
        refused_instead.contains("was refused, where an output was expected")
            && refused_instead.contains("refused\tbad-arguments\t"),
        "{refused_instead}"
    );
}

#[test]
fn a_refusal_is_asserted_by_its_code_and_its_rows() {
    let bad = call(
        "word_count",
        json!({"text": "", "shortest": 0, "colour": "red"}),
    );
    bad.assert_refused("bad-arguments")
        .assert_fault("shortest", "expected at least 1, received 0")
        .assert_faults(&[
            ("colour", "unknown field"),
            ("text", "expected 1 to 100 characters, received \"\""),
            ("shortest", "expected at least 1, received 0"),
        ])
        .assert_line("fields", &["text", "shortest"]);

    let code = failure(|| {
        bad.assert_refused("not-permitted");
    });
    assert!(
        code.contains("refused with another code") && code.contains("fault\tcolour\tunknown field"),
        "{code}"
    );
    let missing = failure(|| {
        bad.assert_fault("text", "too short");
    });
    assert!(
        missing.contains("has no fault `text`: `too short`"),
        "{missing}"
    );
    let fewer = failure(|| {
        bad.assert_faults(&[("colour", "unknown field")]);
    });
    assert!(fewer.contains("has other faults"), "{fewer}");
    let row = failure(|| {
        bad.assert_line("fields", &["text"]);
    });
    assert!(
        row.contains("has no row `fields` [\"text\"]") && row.contains("fields\ttext\tshortest"),
        "{row}"
    );
    let ran = failure(|| {
        call("word_count", json!({"text": "a"})).assert_refused("bad-arguments");
    });
    assert!(
        ran.contains("ran and answered, where a refusal was expected") && ran.contains("words"),
        "{ran}"
    );
}

#[test]
fn a_call_with_a_context_reaches_the_tool_with_it() {
    let registry = registry![WordCount, Whoami];
    let ctx = Context::new().with_caller("ada");
    run(testing::call_with(&registry, &ctx, "whoami", json!({}))).assert_text("ada");
    run(testing::call(&registry, "whoami", json!({})))
        .assert_refused("anonymous")
        .assert_line("hint", &["log in"]);
    run(testing::call(&registry, "word_cont", json!({})))
        .assert_refused("unknown-tool")
        .assert_line("tools", &["word_count", "whoami"]);
    // Text a model sent, JSON or not, as it sent it.
    run(testing::call(
        &registry,
        "word_count",
        Arguments::from_text(r#"{"text": "#),
    ))
    .assert_refused("bad-arguments")
    .assert_fault(
        "(arguments)",
        "not valid JSON: EOF while parsing a value at line 1 column 9",
    );
}

#[test]
fn what_models_are_shown_is_held_to_the_kept_snapshots() {
    tool_core::assert_exports_snapshot!(registry![WordCount, Whoami]);
    tool_core::assert_exports_snapshot!("one", registry![Whoami]);
}

#[test]
fn the_snapshot_text_is_each_provider_s_export_or_why_it_refuses() {
    use tool_core::Provider;
    let registry = registry![WordCount];
    let openai = testing::exports_text(&registry, Provider::OpenAi);
    let exported: serde_json::Value = serde_json::from_str(&openai).expect("JSON");
    let export = registry.export(Provider::OpenAi).expect("exports");
    assert_eq!(exported, serde_json::to_value(&*export).expect("JSON"));
    assert!(openai.contains("\n  {\n"), "indented: {openai}");
}
