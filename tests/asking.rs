//! Asking the person behind a call, in process: the form a type becomes, the answer read back
//! as that type, a decline the tool handles, and every way a question ends without an answer
//! (no asker, a type a form cannot show, a wrong answer, cancellation, the deadline).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Map, Value, json};
use tool_core::call::{Question, Reply};
use tool_core::run::form_for;
use tool_core::{Answer, Context, Refusal, Registry, ToolCall, code, tool};

/// How a note is shared.
#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Sharing {
    /// Only its author sees it.
    Private,
    /// Everyone sees it.
    Public,
}

/// What the user is asked before a note is published.
#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
struct Publish {
    /// The note's title.
    #[schemars(length(min = 1, max = 40))]
    title: String,
    /// Who sees it.
    sharing: Sharing,
    /// How many copies to keep.
    #[schemars(range(min = 1, max = 9))]
    copies: Option<u8>,
}

/// A list is no form field.
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Tags {
    tags: Vec<String>,
}

fn accept(values: Value) -> Reply {
    match values {
        Value::Object(map) => Reply::Accept(map),
        _ => Reply::Accept(Map::new()),
    }
}

/// Publishes a note, asking its user how.
#[tool]
async fn note_publish(ctx: &Context) -> Result<String, Refusal> {
    match ctx
        .ask::<Publish>("How should the note be published?")
        .await?
    {
        Answer::Given(publish) => Ok(format!(
            "published {:?} as {:?}",
            publish.title, publish.sharing
        )),
        Answer::Declined => Ok("kept private: the user declined".into()),
        Answer::Cancelled => Err(Refusal::new("cancelled", "the user cancelled publishing")),
    }
}

async fn publish(ctx: &Context) -> String {
    let registry = Registry::builder().tool(NotePublish).build().unwrap();
    registry
        .call(ToolCall::new("1", "note_publish", json!({})), ctx)
        .await
        .text()
        .to_owned()
}

#[test]
fn a_flat_struct_becomes_a_form_and_keeps_its_bounds_and_choices() {
    let form = Value::Object(form_for::<Publish>().unwrap());
    assert_eq!(form["type"], "object");
    assert_eq!(form["required"], json!(["title", "sharing"]));
    let title = &form["properties"]["title"];
    assert_eq!(title["type"], "string");
    assert_eq!(
        (title["minLength"].clone(), title["maxLength"].clone()),
        (json!(1), json!(40))
    );
    let copies = &form["properties"]["copies"];
    assert_eq!(
        copies["type"], "integer",
        "an Option is its inner type: {copies}"
    );
    assert_eq!(
        (copies["minimum"].clone(), copies["maximum"].clone()),
        (json!(1), json!(9))
    );
    let sharing = &form["properties"]["sharing"];
    assert_eq!(sharing["type"], "string");
    assert_eq!(
        sharing["oneOf"],
        json!([
            {"const": "private", "title": "Only its author sees it."},
            {"const": "public", "title": "Everyone sees it."}
        ])
    );
}

/// What a note is filed under, several at once.
#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
struct Filing {
    /// Who sees it, any of them.
    audiences: Vec<Sharing>,
    /// Its colours.
    #[schemars(length(max = 2))]
    colours: Vec<Colour>,
}

/// A colour, untitled.
#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Colour {
    Red,
    Blue,
}

#[test]
fn a_list_of_choices_is_a_multi_select() {
    let form = Value::Object(form_for::<Filing>().unwrap());
    let audiences = &form["properties"]["audiences"];
    assert_eq!(audiences["type"], "array");
    assert_eq!(
        audiences["items"],
        json!({"type": "string", "anyOf": [
            {"const": "private", "title": "Only its author sees it."},
            {"const": "public", "title": "Everyone sees it."}
        ]}),
        "titled choices: {audiences}"
    );
    let colours = &form["properties"]["colours"];
    assert_eq!(
        colours["items"],
        json!({"type": "string", "enum": ["red", "blue"]})
    );
    assert_eq!(colours["maxItems"], 2, "a list keeps its bounds: {colours}");
}

/// A colour, titled the legacy way (SEP-1330's `enumNames`), and one titled wrong.
#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
struct Painting {
    /// The colour.
    #[schemars(extend("enumNames" = ["Deep red", "Sky blue"]))]
    colour: Colour,
}

#[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
struct Misnamed {
    /// The colour, with one name for two choices.
    #[schemars(extend("enumNames" = ["Deep red"]))]
    colour: Colour,
}

#[test]
fn legacy_enum_names_are_kept_when_they_name_each_choice() {
    let form = Value::Object(form_for::<Painting>().unwrap());
    let colour = &form["properties"]["colour"];
    assert_eq!(colour["enum"], json!(["red", "blue"]), "{colour}");
    assert_eq!(
        colour["enumNames"],
        json!(["Deep red", "Sky blue"]),
        "{colour}"
    );
    let refusal = form_for::<Misnamed>().unwrap_err();
    assert!(
        refusal
            .message
            .contains("field `colour` has `enumNames` that are not one text for each"),
        "{}",
        refusal.message
    );
}

#[test]
fn a_single_value_is_one_field_named_value() {
    let form = Value::Object(form_for::<bool>().unwrap());
    assert_eq!(form["properties"]["value"]["type"], "boolean");
    assert_eq!(form["required"], json!(["value"]));
}

#[test]
fn a_type_a_form_cannot_show_is_refused_naming_its_field() {
    let refusal = form_for::<Tags>().unwrap_err();
    assert_eq!(refusal.code, code::CANNOT_ASK);
    assert!(
        refusal.message.contains("field `tags` is a list"),
        "{}",
        refusal.message
    );
}

#[tokio::test]
async fn the_answer_reaches_the_tool_as_its_type() {
    let seen = Arc::new(Mutex::new(Vec::<Question>::new()));
    let record = seen.clone();
    let ctx = Context::new().with_asker(move |question: Question| {
        record.lock().unwrap().push(question);
        async { Ok(accept(json!({"title": "Groceries", "sharing": "public"}))) }
    });
    assert_eq!(publish(&ctx).await, "published \"Groceries\" as Public");
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].message, "How should the note be published?");
    assert_eq!(seen[0].form, form_for::<Publish>().unwrap());
}

#[tokio::test]
async fn a_decline_ends_as_the_tool_decides() {
    let ctx = Context::new().with_asker(|_| async { Ok(Reply::Decline) });
    assert_eq!(publish(&ctx).await, "kept private: the user declined");
    let ctx = Context::new().with_asker(|_| async { Ok(Reply::Cancel) });
    assert!(
        publish(&ctx)
            .await
            .starts_with("refused\tcancelled\tthe user cancelled")
    );
}

#[tokio::test]
async fn a_caller_nobody_can_ask_gets_a_refusal_that_says_so() {
    let text = publish(&Context::new()).await;
    assert!(
        text.starts_with("refused\tcannot-ask\tthis caller cannot be asked questions"),
        "{text}"
    );
    let ctx = Context::new()
        .with_asker(|_| async { Err(Refusal::new(code::CANNOT_ASK, "the client shows no forms")) });
    assert_eq!(
        publish(&ctx).await,
        "refused\tcannot-ask\tthe client shows no forms"
    );
}

#[tokio::test]
async fn an_answer_of_the_wrong_type_is_a_bad_answer_with_its_path() {
    let ctx = Context::new()
        .with_asker(|_| async { Ok(accept(json!({"title": "x", "sharing": "everyone"}))) });
    let text = publish(&ctx).await;
    assert!(text.starts_with("refused\tbad-answer\t"), "{text}");
    assert!(text.contains("\nfault\tsharing\t"), "{text}");
    let long = "x".repeat(41);
    let ctx = Context::new().with_asker(move |_| {
        let answer = accept(json!({"title": long, "sharing": "public", "copies": 12}));
        async move { Ok(answer) }
    });
    let text = publish(&ctx).await;
    assert!(text.starts_with("refused\tbad-answer\t"), "{text}");
    assert!(
        text.contains("\nfault\ttitle\texpected 1 to 40 characters")
            && text.contains("\nfault\tcopies\texpected 1 to 9, received 12"),
        "the form's bounds hold whatever the client checked: {text}"
    );
    let ctx = Context::new().with_asker(|_| async { Ok(accept(json!({"value": "yes"}))) });
    let refusal = ctx.ask::<bool>("Sure?").await.unwrap_err();
    assert_eq!(refusal.code, code::BAD_ANSWER);
}

#[tokio::test]
async fn a_question_waits_no_longer_than_the_call() {
    let never = |_| std::future::pending::<Result<Reply, Refusal>>();
    let ctx = Context::new()
        .with_asker(never)
        .with_timeout(Duration::from_millis(50));
    let refusal = ctx.ask::<bool>("Sure?").await.unwrap_err();
    assert_eq!(refusal.code, code::TIMED_OUT);

    let ctx = Context::new().with_asker(never);
    let cancel = ctx.cancellation().clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(20)).await;
        cancel.cancel();
    });
    let refusal = ctx.ask::<bool>("Sure?").await.unwrap_err();
    assert_eq!(refusal.code, code::CANCELLED);
}

/// Deletes a note.
#[tool(destructive)]
async fn note_delete(id: u64) -> String {
    format!("deleted note {id}")
}

/// A registry that asks before `note_delete` through [`tool_core::ApproveByAsking`], scoped to
/// `grant`, and a context whose asker answers `reply` and records each question.
fn asking_registry(
    grant: Option<tool_core::Grant>,
    reply: Result<Reply, Refusal>,
) -> (Registry, Context, Arc<Mutex<Vec<Question>>>) {
    let registry = Registry::builder()
        .tool(NoteDelete)
        .tool(NotePublish)
        .build()
        .unwrap()
        .with_approver(tool_core::ApproveByAsking, Duration::from_secs(5));
    let registry = match grant {
        Some(grant) => registry.scoped(grant),
        None => registry,
    };
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    let ctx = Context::new().with_asker(move |question: Question| {
        record.lock().unwrap().push(question);
        let reply = reply.clone();
        async move { reply }
    });
    (registry, ctx, seen)
}

async fn delete(registry: &Registry, ctx: &Context) -> String {
    registry
        .call(ToolCall::new("1", "note_delete", json!({"id": 7})), ctx)
        .await
        .text()
}

#[tokio::test]
async fn approve_by_asking_runs_a_destructive_call_only_on_a_yes() {
    let (registry, ctx, seen) = asking_registry(None, Ok(accept(json!({"approve": true}))));
    assert_eq!(delete(&registry, &ctx).await, "deleted note 7");
    let question = seen.lock().unwrap()[0].clone();
    assert_eq!(
        question.message,
        "Allow the tool `note_delete` to run with these arguments?\n{\"id\":7}"
    );
    assert_eq!(
        Value::Object(question.form)["properties"]["approve"]["type"],
        "boolean"
    );

    for (reply, reason) in [
        (
            Ok(accept(json!({"approve": false}))),
            "the user did not approve it",
        ),
        (Ok(Reply::Decline), "the user declined it"),
        (Ok(Reply::Cancel), "the user dismissed the question"),
        (
            Err(Refusal::new(code::CANNOT_ASK, "the client shows no forms")),
            "nobody could be asked to approve it: the client shows no forms",
        ),
    ] {
        let (registry, ctx, _) = asking_registry(None, reply);
        assert_eq!(
            delete(&registry, &ctx).await,
            format!("refused\tdeclined\tthe call was declined: {reason}")
        );
    }
    let (registry, _, _) = asking_registry(None, Ok(Reply::Decline));
    assert_eq!(
        delete(&registry, &Context::new()).await,
        "refused\tdeclined\tthe call was declined: nobody can be asked to approve it: the host \
         gave this call no asker"
    );
}

#[tokio::test]
async fn an_unknown_or_ungranted_tool_never_raises_a_question() {
    let only_publish = tool_core::Grant::names(["note_publish"]);
    let (registry, ctx, seen) =
        asking_registry(Some(only_publish), Ok(accept(json!({"approve": true}))));
    assert!(
        delete(&registry, &ctx)
            .await
            .starts_with("refused\tnot-permitted\t")
    );
    let unknown = registry
        .call(ToolCall::new("2", "note_erase", json!({"id": 7})), &ctx)
        .await;
    assert!(unknown.text().starts_with("refused\tunknown-tool\t"));
    assert!(seen.lock().unwrap().is_empty(), "nobody was asked");
}
