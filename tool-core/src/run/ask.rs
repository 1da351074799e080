//! Asking the person behind a call for a value, in the middle of the call.
//!
//! A handler calls [`Context::ask`] with a message and a flat type `T` (a struct of strings,
//! numbers, integers, booleans, enums of strings and lists of such enums, or one such value). The question goes to
//! the [`Asker`] the host put on the context: a terminal prompt, a chat UI, or, over MCP, an
//! elicitation request (2025-11-25) or an `input_required` round trip (2026-07-28). The tool
//! is written once and never knows which.
//!
//! What a form can show is what MCP's elicitation forms take, so `T`'s JSON Schema is read
//! into such a form when the tool first asks ([`Question::form`]); a type a form cannot show
//! (a list of anything but a string enum, a nested struct, a map) is refused then, with a message naming the field, since
//! the compiler cannot read a schema. A context without an asker, an asker that cannot reach
//! a person, an answer that is not a `T`: each is a model-facing [`Refusal`], so `?` in a
//! handler ends the call with an answer a model can act on. The question waits no longer than
//! the call: cancelling the call or passing its deadline ends it.
//!
//! The same asker reaches the client's model ([`Context::sample`], MCP's sampling) and the
//! client's roots ([`Context::roots`]), with the same refusals and the same bounds in time.

use std::marker::PhantomData;
use std::time::Instant;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::call::asker::{Question, Reply};
use crate::call::client::{Root, Sampled, SamplingRequest};
use crate::call::context::Context;
use crate::outcome::refusal::{Refusal, code};

/// The property a form holds a single value in, when `T` is not a struct (`ask::<bool>`).
pub const SINGLE_VALUE_FIELD: &str = "value";

/// What [`Context::ask`] returns: the person's answer, or that they gave none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer<T> {
    /// The answer, read as a `T`.
    Given(T),
    /// The person declined to answer.
    Declined,
    /// The person dismissed the question.
    Cancelled,
}

impl<T> Answer<T> {
    /// The answer, if one was given.
    pub fn given(self) -> Option<T> {
        match self {
            Answer::Given(value) => Some(value),
            Answer::Declined | Answer::Cancelled => None,
        }
    }
}

/// The form for `T`, or why a form cannot show it.
pub fn form_for<T: JsonSchema>() -> Result<Map<String, Value>, Refusal> {
    Form::<T>::build().map(|(form, _)| form)
}

struct Form<T>(PhantomData<T>);

impl<T: JsonSchema> Form<T> {
    /// The form, and whether it holds `T` as its one `value` field (`T` is no struct).
    fn build() -> Result<(Map<String, Value>, bool), Refusal> {
        let generator = SchemaSettings::draft2020_12()
            .with(|settings| {
                settings.meta_schema = None;
                settings.inline_subschemas = true;
            })
            .for_deserialize()
            .into_generator();
        let schema = match generator.into_root_schema_for::<T>().to_value() {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        let type_name = T::schema_name();
        let unsupported = |field: &str, why: &str| {
            Refusal::new(
                code::CANNOT_ASK,
                format!(
                    "{type_name} cannot be asked for with a form: {field} {why}; a form takes \
                     strings, numbers, integers, booleans, enums of strings and lists of \
                     such enums"
                ),
            )
        };
        let mut form = Map::new();
        form.insert("type".into(), "object".into());
        let single = schema.get("type") != Some(&Value::from("object"));
        if !single {
            if (schema.contains_key("additionalProperties")
                && schema.get("additionalProperties") != Some(&Value::Bool(false)))
                || schema.contains_key("patternProperties")
            {
                return Err(unsupported("it", "takes fields of any name"));
            }
            let mut properties = Map::new();
            let empty = Map::new();
            let given = schema
                .get("properties")
                .and_then(Value::as_object)
                .unwrap_or(&empty);
            for (name, property) in given {
                let field = format!("field `{name}`");
                let flat = flat_property(property).map_err(|why| unsupported(&field, why))?;
                properties.insert(name.clone(), Value::Object(flat));
            }
            form.insert("properties".into(), Value::Object(properties));
            if let Some(required) = schema.get("required") {
                form.insert("required".into(), required.clone());
            }
        } else {
            let flat =
                flat_property(&Value::Object(schema)).map_err(|why| unsupported("it", why))?;
            let mut properties = Map::new();
            properties.insert(SINGLE_VALUE_FIELD.into(), Value::Object(flat));
            form.insert("properties".into(), Value::Object(properties));
            form.insert("required".into(), Value::from(vec![SINGLE_VALUE_FIELD]));
        }
        Ok((form, single))
    }
}

/// One property of a form: the schema of a string, number, integer, boolean or enum of
/// strings, with the keywords a form keeps; `Option<_>` reads as its inner type (the
/// property is then not required, which `required` already says).
fn flat_property(schema: &Value) -> Result<Map<String, Value>, &'static str> {
    let Value::Object(schema) = schema else {
        return Err("has no type");
    };
    // `Option<T>`: `type: [T, "null"]` or `anyOf: [T, {type: null}]`.
    if let Some(Value::Array(variants)) = schema.get("anyOf") {
        let mut not_null = variants
            .iter()
            .filter(|variant| variant.get("type") != Some(&Value::from("null")));
        return match (not_null.next(), not_null.next()) {
            (Some(only), None) => {
                let mut inner = flat_property(only)?;
                for keyword in ["title", "description", "default"] {
                    if let Some(value) = schema.get(keyword) {
                        inner.insert(keyword.into(), value.clone());
                    }
                }
                Ok(inner)
            }
            _ => Err("is one of several types"),
        };
    }
    let kind = match schema.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(Value::Array(kinds)) => {
            let mut not_null = kinds.iter().filter(|kind| *kind != "null");
            match (not_null.next(), not_null.next()) {
                (Some(Value::String(kind)), None) => kind.as_str(),
                _ => return Err("is one of several types"),
            }
        }
        None if schema.get("oneOf").is_some() => "string",
        _ => return Err("has no single type"),
    };
    let kept: &[&str] = match kind {
        // `enumNames` titles an `enum`'s choices in SEP-1330's legacy form, which a client of
        // 2025-06-18 shows; a titled enum (`oneOf` of `const`s) is the current one.
        "string" => &["minLength", "maxLength", "format", "enum", "enumNames"],
        "number" | "integer" => &["minimum", "maximum"],
        "boolean" => &[],
        "array" => return multi_select(schema),
        "object" => return Err("is an object"),
        _ => return Err("has no single type"),
    };
    let mut flat = Map::new();
    flat.insert("type".into(), kind.into());
    for keyword in ["title", "description", "default"].iter().chain(kept) {
        if let Some(value) = schema.get(*keyword) {
            flat.insert((*keyword).into(), value.clone());
        }
    }
    if let Some(choices) = titled_choices(schema)? {
        flat.insert("oneOf".into(), Value::Array(choices));
    }
    if let Some(Value::Array(values)) = flat.get("enum")
        && !values.iter().all(Value::is_string)
    {
        return Err("is an enum whose variants are not plain strings");
    }
    if let Some(names) = flat.get("enumNames") {
        let choices = flat.get("enum").and_then(Value::as_array).map(Vec::len);
        match names {
            Value::Array(names)
                if names.iter().all(Value::is_string) && Some(names.len()) == choices => {}
            _ => {
                return Err(
                    "has `enumNames` that are not one text for each of its `enum`'s choices",
                );
            }
        }
    }
    Ok(flat)
}

/// The choices of an enum whose variants have doc comments or titles (`oneOf` of `const`s):
/// each a `const` with a title, which a form shows as a titled choice; `None` for any other
/// schema.
fn titled_choices(schema: &Map<String, Value>) -> Result<Option<Vec<Value>>, &'static str> {
    let Some(Value::Array(options)) = schema.get("oneOf") else {
        return Ok(None);
    };
    let mut choices = Vec::with_capacity(options.len());
    for option in options {
        let choice = match option.get("const").or_else(|| {
            option
                .get("enum")
                .and_then(Value::as_array)
                .filter(|values| values.len() == 1)
                .and_then(|values| values.first())
        }) {
            Some(Value::String(value)) => value.clone(),
            _ => return Err("is an enum whose variants are not plain strings"),
        };
        let title = option
            .get("description")
            .or_else(|| option.get("title"))
            .cloned()
            .unwrap_or_else(|| Value::from(choice.clone()));
        choices.push(serde_json::json!({"const": choice, "title": title}));
    }
    Ok(Some(choices))
}

/// A list of choices (`Vec` of an enum of strings), which a form shows as a multi-select:
/// `items` an `enum`, or for titled choices an `anyOf` of `const`s with titles.
fn multi_select(schema: &Map<String, Value>) -> Result<Map<String, Value>, &'static str> {
    let not_choices = "is a list of something other than an enum's variants";
    let Some(Value::Object(item)) = schema.get("items") else {
        return Err(not_choices);
    };
    let mut items = Map::new();
    items.insert("type".into(), "string".into());
    if let Some(choices) = titled_choices(item)? {
        items.insert("anyOf".into(), Value::Array(choices));
    } else {
        match item.get("enum") {
            Some(Value::Array(values)) if values.iter().all(Value::is_string) => {
                items.insert("enum".into(), Value::Array(values.clone()));
            }
            _ => return Err(not_choices),
        }
    }
    let mut flat = Map::new();
    flat.insert("type".into(), "array".into());
    for keyword in ["title", "description", "default", "minItems", "maxItems"] {
        if let Some(value) = schema.get(keyword) {
            flat.insert(keyword.into(), value.clone());
        }
    }
    flat.insert("items".into(), Value::Object(items));
    Ok(flat)
}

impl Context {
    /// Asks the person behind the call for a `T`, and waits for their answer or their
    /// refusal to give one.
    ///
    /// `T` is a flat type: a struct whose fields are strings, numbers, integers, booleans,
    /// enums of strings or lists of such enums (a multi-select; each may be an `Option`), or
    /// one such value (`bool`, say), which the
    /// form shows as one field named `value`. It is an `Err` (a model-facing [`Refusal`], so
    /// `?` ends the call) when nobody can be asked (no asker on the context: code
    /// `cannot-ask`), when a form cannot show `T` (`cannot-ask`, naming the field), when the
    /// answer is not a `T` (`bad-answer`, with each fault), or when the call is cancelled or
    /// its deadline passes while waiting (`cancelled`, `timed-out`).
    ///
    /// ```
    /// use tool_core::{Answer, Context, Refusal};
    /// use tool_core::call::Reply;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Title {
    ///     /// The note's new title.
    ///     title: String,
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let ctx = Context::new().with_asker(|_question| async {
    ///     Ok::<_, Refusal>(Reply::Accept(serde_json::json!({"title": "Groceries"}).as_object().unwrap().clone()))
    /// });
    /// match ctx.ask::<Title>("What should the note be called?").await? {
    ///     Answer::Given(Title { title }) => assert_eq!(title, "Groceries"),
    ///     Answer::Declined | Answer::Cancelled => unreachable!(),
    /// }
    /// let nobody = Context::new().ask::<bool>("Really?").await.unwrap_err();
    /// assert_eq!(nobody.code, "cannot-ask");
    /// # Ok::<_, Refusal>(()) }).unwrap();
    /// ```
    pub async fn ask<T>(&self, message: impl Into<String>) -> Result<Answer<T>, Refusal>
    where
        T: DeserializeOwned + JsonSchema,
    {
        let (form, single) = Form::<T>::build()?;
        let question_form = form.clone();
        let name = match single {
            true => SINGLE_VALUE_FIELD.to_owned(),
            false => question_name(&T::schema_name()),
        };
        let question = Question {
            name,
            message: message.into(),
            form,
        };
        match self.ask_form(question).await? {
            Reply::Accept(values) => {
                // The form's bounds and choices were shown to the person: held to them, as a
                // tool's arguments are held to its schema, whatever the client checked.
                let values = Value::Object(values);
                let faults = crate::args::validate(&values, &question_form);
                if !faults.is_empty() {
                    return Err(bad_answer(
                        faults
                            .into_iter()
                            .map(|fault| (crate::args::shown(fault.path), fault.problem)),
                    ));
                }
                let value = match values {
                    Value::Object(mut values) if single => {
                        values.remove(SINGLE_VALUE_FIELD).unwrap_or(Value::Null)
                    }
                    values => values,
                };
                crate::args::read_value::<T>(&value)
                    .map(Answer::Given)
                    .map_err(|fault| {
                        let path = match fault.path {
                            root if root.is_empty() && single => SINGLE_VALUE_FIELD.to_owned(),
                            path => path,
                        };
                        bad_answer([(crate::args::shown(path), fault.problem)])
                    })
            }
            Reply::Decline => Ok(Answer::Declined),
            Reply::Cancel => Ok(Answer::Cancelled),
        }
    }
}

impl Context {
    /// Asks the caller's client's model for a message (MCP's sampling) and waits for it.
    ///
    /// It is an `Err` (a model-facing [`Refusal`]) when nobody can be asked (no asker, or one
    /// that cannot reach a model: `cannot-ask`), when the client declines (`declined`), or
    /// when the call is cancelled or its deadline passes while waiting.
    ///
    /// ```
    /// use tool_core::{Asker, Context, Refusal};
    /// use tool_core::call::{BoxFuture, Question, Reply, Sampled, SamplingRequest};
    ///
    /// struct Echo;
    ///
    /// impl Asker for Echo {
    ///     fn ask(&self, _question: Question) -> BoxFuture<'_, Result<Reply, Refusal>> {
    ///         Box::pin(async { Ok(Reply::Decline) })
    ///     }
    ///     fn sample(&self, request: SamplingRequest) -> BoxFuture<'_, Result<Sampled, Refusal>> {
    ///         let text = format!("you said: {}", request.messages[0].text);
    ///         Box::pin(async move { Ok(Sampled { text, model: "echo".into(), stop_reason: None }) })
    ///     }
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let ctx = Context::new().with_asker(Echo);
    /// let sampled = ctx.sample(SamplingRequest::new("hello")).await?;
    /// assert_eq!(sampled.text, "you said: hello");
    /// let nobody = Context::new().sample(SamplingRequest::new("hello")).await.unwrap_err();
    /// assert_eq!(nobody.code, "cannot-ask");
    /// # Ok::<_, Refusal>(()) }).unwrap();
    /// ```
    pub async fn sample(&self, request: SamplingRequest) -> Result<Sampled, Refusal> {
        let asker =
            self.asker_or("this caller has no model to ask; go on without its answer or stop")?;
        self.within_call(asker.sample(request)).await
    }

    /// The caller's client's roots: the places it works in (MCP's roots), with the same
    /// refusals as [`Context::sample`].
    pub async fn roots(&self) -> Result<Vec<Root>, Refusal> {
        let asker =
            self.asker_or("this caller has no roots to tell; go on without them or stop")?;
        self.within_call(asker.roots()).await
    }

    /// Whether [`Context::ask`] can reach a person: the host put an asker on the context
    /// that offers forms (over MCP, a client that declared `elicitation`).
    pub fn can_ask(&self) -> bool {
        self.asker().is_some_and(|asker| asker.offers().forms)
    }

    /// Whether [`Context::sample`] can reach a model (over MCP, a client that declared
    /// `sampling`). A tool that can do without asks only when this is true: a 2026-07-28
    /// request whose tool asks anyway answers `-32021`, which names what was missing.
    pub fn can_sample(&self) -> bool {
        self.asker().is_some_and(|asker| asker.offers().sampling)
    }

    /// Puts a question whose form is already written (another MCP server's, passed on by a
    /// remote toolkit) to the caller, and gives the reply as it came: not read into a type,
    /// nor held to the form, which is the asking server's to check. Refused as
    /// [`Context::ask`] is when nobody can be asked or the call ends first.
    pub async fn ask_form(&self, question: Question) -> Result<Reply, Refusal> {
        let asker = self
            .asker_or("this caller cannot be asked questions; go on without an answer or stop")?;
        self.within_call(asker.ask(question)).await
    }

    /// Whether [`Context::roots`] can tell the client's roots (over MCP, a client that
    /// declared `roots`).
    pub fn can_list_roots(&self) -> bool {
        self.asker().is_some_and(|asker| asker.offers().roots)
    }

    /// The context's asker, or a `cannot-ask` refusal saying `why` there is none.
    fn asker_or(
        &self,
        why: &str,
    ) -> Result<&std::sync::Arc<dyn crate::call::asker::Asker>, Refusal> {
        self.asker()
            .ok_or_else(|| Refusal::new(code::CANNOT_ASK, why.to_owned()))
    }

    /// Waits for `asked` no longer than the call: `cancelled` or `timed-out` when the call is
    /// cancelled or its deadline passes first.
    async fn within_call<T>(
        &self,
        asked: impl std::future::Future<Output = Result<T, Refusal>>,
    ) -> Result<T, Refusal> {
        tokio::select! {
            biased;
            () = self.cancellation().cancelled() => Err(Refusal::cancelled()),
            () = wait_until(self.deadline()) => Err(Refusal::timed_out()),
            answer = asked => answer,
        }
    }
}

/// A question's name from its type's, in lower snake case (`UserName` → `user_name`,
/// `HTTPProxy` → `http_proxy`), as case-conversion crates make it: anything but a letter or
/// digit separates words, and within one a capital starts a word when the last letter before it
/// is lower case (`Notes2X` → `notes2_x`) or when it ends a run of capitals and a lower-case
/// letter follows it (`HTTPProxy`).
///
/// Written here rather than taken from such a crate (heck) because it is all of one this crate
/// would use, and that crate would be one more in every user's build than in rmcp's. The
/// macros' `case::ascii_words` splits words by the same rule, for the name an error suggests;
/// a proc-macro crate shares no code with the crate that uses it, so each has its copy.
fn question_name(type_name: &str) -> String {
    let chars: Vec<char> = type_name.chars().collect();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    // The case of the word's last letter (upper), once it has one.
    let mut last_letter: Option<bool> = None;
    for (position, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            words.extend((!word.is_empty()).then(|| std::mem::take(&mut word)));
            last_letter = None;
            continue;
        }
        let lower_follows = chars
            .get(position + 1)
            .is_some_and(|next| next.is_lowercase());
        if c.is_uppercase() && last_letter.is_some_and(|upper| !upper || lower_follows) {
            words.push(std::mem::take(&mut word));
        }
        if c.is_lowercase() || c.is_uppercase() {
            last_letter = Some(c.is_uppercase());
        }
        word.extend(c.to_lowercase());
    }
    words.extend((!word.is_empty()).then_some(word));
    words.join("_")
}

/// A `bad-answer` refusal with a `fault` line for each (path, problem).
fn bad_answer(faults: impl IntoIterator<Item = (String, String)>) -> Refusal {
    faults.into_iter().fold(
        Refusal::new(
            code::BAD_ANSWER,
            "the answer does not fit the question's form",
        ),
        |refusal, (path, problem)| refusal.line("fault", [path, problem]),
    )
}

/// Waits until `deadline`, or for ever without one or without a tokio timer to wake at it (the
/// call's own deadline is then checked whenever it wakes).
async fn wait_until(deadline: Option<Instant>) {
    match deadline.and_then(crate::run::deadline::timer_until) {
        Some(timer) => timer.await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::question_name;

    #[test]
    fn a_question_is_named_for_its_type_in_lower_snake_case() {
        let cases = [
            ("Title", "title"),
            ("UserName", "user_name"),
            ("HTTPProxy", "http_proxy"),
            ("X11Notes2X", "x11_notes2_x"),
            ("V2Search", "v2_search"),
            ("NOTE_WRITE", "note_write"),
            ("Notes_", "notes"),
            ("_Notes", "notes"),
            ("note-write", "note_write"),
            ("Wrapper<String>", "wrapper_string"),
            ("ÜberName", "über_name"),
            ("already_snake", "already_snake"),
        ];
        for (type_name, name) in cases {
            assert_eq!(question_name(type_name), name, "{type_name:?}");
        }
    }
}
