//! What a tool's schema tells a model is what the registry enforces: bounds, lengths,
//! patterns and formats at every depth, objects closed at every depth, and a registry that
//! refuses to advertise a rule it could not check.

use serde_json::{Value, json};
use tool_core::registry::RegistryError;
use tool_core::tool::ToolDefinition;
use tool_core::{Context, Provider, Refusal, Registry, ToolCall, tool};
use tool_tests::{Raw, fault, faults, outcome};

/// A page of results.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // read through Debug, which the lint does not count
struct Page {
    /// How many results a page holds.
    #[schemars(range(min = 1, max = 50))]
    size: u32,
}

/// Searches, with every kind of bound a model is told of.
#[tool]
async fn web_search(
    /// How often to retry.
    #[schemars(range(min = 1, max = 5))]
    retries: u8,
    /// What to look for.
    #[schemars(length(min = 1, max = 10))]
    query: String,
    /// A tag of lower-case letters.
    #[schemars(regex(pattern = r"^[a-z]+$"))]
    tag: String,
    /// Which page.
    page: Option<Page>,
    /// Where to send the results.
    #[schemars(email)]
    notify: Option<String>,
) -> String {
    format!("{retries} {query} {tag} {page:?} {notify:?}")
}

/// Looks a record up by id, for a day.
#[tool]
async fn record_get(
    /// The record.
    id: uuid::Uuid,
    /// The day.
    day: chrono::NaiveDate,
) -> String {
    format!("{id} {day}")
}

fn registry() -> Registry {
    Registry::builder()
        .tool(WebSearch)
        .tool(RecordGet)
        .build()
        .unwrap()
}

async fn call(name: &str, arguments: Value) -> Result<String, Refusal> {
    outcome(&registry(), name, arguments).await
}

#[tokio::test]
async fn every_advertised_bound_is_enforced_before_the_handler_runs() {
    let refusal = call(
        "web_search",
        json!({"retries": 9, "query": "", "tag": "ABC", "page": {"size": 500}, "notify": "nobody"}),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refusal),
        [
            fault("retries", "expected 1 to 5, received 9"),
            fault("query", r#"expected 1 to 10 characters, received """#),
            fault("tag", r#"expected text matching ^[a-z]+$, received "ABC""#),
            fault("page.size", "expected 1 to 50, received 500"),
            fault("notify", r#"expected an email address, received "nobody""#),
        ]
    );
    assert_eq!(
        call(
            "web_search",
            json!({"retries": 5, "query": "rust", "tag": "abc", "page": {"size": 50}}),
        )
        .await
        .unwrap(),
        "5 rust abc Some(Page { size: 50 }) None"
    );
}

#[tokio::test]
async fn an_unknown_field_is_refused_at_any_depth_even_when_all_else_is_right() {
    let refusal = call(
        "web_search",
        json!({"retries": 1, "query": "q", "tag": "a", "page": {"size": 5, "colour": "red"}}),
    )
    .await
    .unwrap_err();
    assert_eq!(faults(&refusal), [fault("page.colour", "unknown field")]);
}

#[tokio::test]
async fn standard_formats_are_refused_at_their_path_without_serde_s_line_and_column() {
    let refusal = call(
        "record_get",
        json!({"id": "not-a-uuid", "day": "2026-13-01"}),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refusal),
        [
            fault("id", r#"expected a UUID, received "not-a-uuid""#),
            fault(
                "day",
                r#"expected a date (YYYY-MM-DD), received "2026-13-01""#
            ),
        ]
    );
    assert!(!refusal.to_string().contains("line 1"), "{refusal}");
    assert_eq!(
        call(
            "record_get",
            json!({"id": "67e55044-10b1-426f-9247-bb680e5fe0c8", "day": "2026-02-28"}),
        )
        .await
        .unwrap(),
        "67e55044-10b1-426f-9247-bb680e5fe0c8 2026-02-28"
    );
}

fn raw(field: Value) -> Raw {
    let schema = json!({
        "type": "object",
        "properties": {"items": field},
        "additionalProperties": false
    });
    Raw(ToolDefinition::new(
        "raw_tool",
        "A tool written by hand.",
        schema.as_object().unwrap().clone(),
    ))
}

#[test]
fn a_rule_the_registry_cannot_check_is_refused_when_the_registry_is_built() {
    let cases = [
        (
            json!({"type": "array", "contains": {"type": "string"}}),
            "`contains` is not a keyword the registry can check",
        ),
        (
            json!({"type": "string", "format": "uri-template"}),
            "the format `uri-template` is not one the registry can check",
        ),
        (
            json!({"type": "string", "pattern": "^(?=a)"}),
            "cannot be read by the regex crate",
        ),
        (
            json!({"type": "object", "additionalProperties": false,
                   "patternProperties": {"^(?!x)": {"type": "string"}}}),
            "the pattern \"^(?!x)\" cannot be read by the regex crate",
        ),
    ];
    for (field, problem) in cases {
        let error = Registry::builder()
            .tool(raw(field.clone()))
            .build()
            .unwrap_err();
        let RegistryError::Unexportable { errors } = &error else {
            panic!("{error}");
        };
        assert_eq!(errors[0].tool, "raw_tool", "{field}");
        assert_eq!(errors[0].path, "items", "{field}");
        assert!(errors[0].problem.contains(problem), "{}", errors[0].problem);
    }
    let checked = json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true});
    assert!(Registry::builder().tool(raw(checked)).build().is_ok());
}

#[test]
fn a_keyword_whose_value_the_registry_cannot_read_is_refused_when_the_registry_is_built() {
    let cases = [
        (
            json!({"type": "int"}),
            "items",
            r#"`type` is "int", which is not a JSON Schema type: did you mean "integer"?"#,
        ),
        (
            json!({"type": "array", "items": [{"type": "string"}]}),
            "items",
            "`items` is a list, as draft 7 wrote a tuple: write the list as `prefixItems`",
        ),
        (
            json!({"type": "number", "minimum": 0, "exclusiveMinimum": true}),
            "items",
            "`exclusiveMinimum` is true, as draft 4 wrote it: write the bound itself \
             (`\"exclusiveMinimum\": 0` in place of `\"minimum\": 0` and this)",
        ),
        (
            json!({"type": "string", "maxLength": 10.0}),
            "items",
            "`maxLength` is 10.0, which is not a count (a whole number, 0 or more, written without \
             a fraction): \
             write 10",
        ),
        (
            json!({"type": "object", "required": "x"}),
            "items",
            r#"`required` is "x", which is not a list of field names: write ["x"]"#,
        ),
        (
            json!({"$ref": "#note"}),
            "items",
            "`$ref` is \"#note\", which does not point into this schema's `$defs`",
        ),
        (
            json!({"$ref": "#/$defs/Missing"}),
            "items",
            "`$ref` is \"#/$defs/Missing\", which does not point into this schema's `$defs`",
        ),
        (
            json!({"type": "array", "uniqueItems": "yes"}),
            "items",
            r#"`uniqueItems` is "yes", which is not true or false"#,
        ),
        (
            json!({"type": "number", "multipleOf": 0}),
            "items",
            "`multipleOf` is 0, which is not a number above zero",
        ),
        (
            json!({"anyOf": []}),
            "items",
            "`anyOf` is [], which is not a list of one schema or more",
        ),
        (
            json!({"type": "object", "properties": {"a": 5}}),
            "items",
            "`properties.a` is 5, which is not a schema: write an object of keywords, or true or \
             false",
        ),
    ];
    for (field, path, problem) in cases {
        let error = Registry::builder()
            .tool(raw(field.clone()))
            .build()
            .expect_err(&field.to_string());
        let RegistryError::Unexportable { errors } = &error else {
            panic!("{error}");
        };
        assert_eq!(errors[0].tool, "raw_tool", "{field}");
        assert_eq!(errors[0].path, path, "{field}");
        assert!(
            errors[0].problem.contains(problem),
            "{field}: {}",
            errors[0].problem
        );
    }
}

#[test]
fn fields_written_beside_a_ref_and_in_its_definition_are_refused_when_the_registry_is_built() {
    let with_point = |point: Value| {
        let schema = json!({
            "type": "object",
            "properties": {"point": point},
            "additionalProperties": false,
            "$defs": {"Point": {
                "type": "object",
                "properties": {"x": {"type": "number"}},
                "additionalProperties": false,
            }},
        });
        let schema = schema.as_object().unwrap().clone();
        Registry::builder()
            .tool(Raw(ToolDefinition::new("raw_tool", "A tool.", schema)))
            .build()
    };
    let beside = json!({"$ref": "#/$defs/Point", "properties": {"z": {"type": "number"}}});
    let error = with_point(beside).unwrap_err();
    let RegistryError::Unexportable { errors } = &error else {
        panic!("{error}");
    };
    assert_eq!(errors[0].path, "point");
    assert!(
        errors[0].problem.starts_with(
            "`properties` is written beside `$ref`, and the definition it points to says which \
             fields an object has too"
        ),
        "{}",
        errors[0].problem
    );
    let described = json!({"$ref": "#/$defs/Point", "description": "Where."});
    assert!(with_point(described).is_ok());
}

/// Halves, as a hand-written schema describes them: keywords no schemars attribute writes.
#[derive(Debug, serde::Deserialize)]
struct Halves(Vec<f64>);

impl schemars::JsonSchema for Halves {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Halves".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "array",
            "items": {"type": "number", "multipleOf": 0.5, "exclusiveMaximum": 10},
            "maxItems": 3
        })
    }
}

/// Adds halves, and counts tags.
#[tool]
async fn halves_add(
    /// The halves.
    items: Halves,
    /// Tags, each once.
    tags: std::collections::HashSet<String>,
) -> String {
    format!("{} {}", items.0.iter().sum::<f64>(), tags.len())
}

#[tokio::test]
async fn arrays_and_numbers_keep_every_rule_they_advertise() {
    let registry = Registry::builder().tool(HalvesAdd).build().unwrap();
    let result = registry
        .call(
            ToolCall::new(
                "1",
                "halves_add",
                json!({"items": [1, 1.5, 10, 0.3], "tags": ["a", "b", "a"]}),
            ),
            &Context::default(),
        )
        .await;
    assert_eq!(
        faults(result.refusal().unwrap()),
        [
            fault("items", "expected at most 3 items, received 4"),
            fault("items[2]", "expected less than 10, received 10"),
            fault("items[3]", "expected a multiple of 0.5, received 0.3"),
            fault(
                "tags",
                r#"expected unique items, received "a" at [0] and again at [2]"#
            ),
        ]
    );
    let result = registry
        .call(
            ToolCall::new("2", "halves_add", json!({"items": [1, 1.5], "tags": ["a"]})),
            &Context::default(),
        )
        .await;
    assert_eq!(result.text(), "2.5 1");
}

/// Who a message goes to.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[allow(dead_code)] // read through Debug, which the lint does not count
enum Recipient {
    /// A person, by name.
    Person { name: String },
    /// A channel, by id.
    Channel { id: u32 },
}

/// A priority, adjacently tagged.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "level", content = "detail", rename_all = "lowercase")]
#[allow(dead_code)] // read through Debug, which the lint does not count
enum Priority {
    /// Soon, and why.
    Urgent(String),
    /// Some time.
    Routine(u8),
}

/// Sends a message.
#[tool]
async fn message_send(
    /// Who to send it to.
    to: Vec<Recipient>,
    /// How soon.
    priority: Option<Priority>,
) -> String {
    format!("{to:?} {priority:?}")
}

async fn send(arguments: Value) -> Result<String, Refusal> {
    Registry::builder()
        .tool(MessageSend)
        .build()
        .unwrap()
        .call(
            ToolCall::new("1", "message_send", arguments),
            &Context::default(),
        )
        .await
        .outcome
        .map(|output| output.as_text().into_owned())
}

#[tokio::test]
async fn a_tagged_enum_s_missing_or_unknown_tag_is_a_fault_at_the_tag() {
    let refusal = send(json!({"to": [
        {"kind": "robot", "name": "r2"},
        {"name": "ada"},
        {"kind": "Person", "name": "ada"},
    ]}))
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refusal),
        [
            fault(
                "to[0].kind",
                r#"expected one of "person", "channel", received "robot""#
            ),
            fault(
                "to[1].kind",
                r#"missing; expected one of "person", "channel""#
            ),
            fault(
                "to[2].kind",
                r#"expected one of "person", "channel", received "Person"; did you mean "person"?"#
            ),
        ]
    );
    let refusal = send(json!({"to": [], "priority": {"level": "whenever", "detail": 1}}))
        .await
        .unwrap_err();
    assert_eq!(
        faults(&refusal),
        [fault(
            "priority.level",
            r#"expected one of "urgent", "routine", received "whenever""#
        )]
    );
}

#[tokio::test]
async fn inside_a_known_variant_faults_are_at_their_paths() {
    let refusal = send(json!({"to": [
        {"kind": "person", "name": 7},
        {"kind": "channel", "id": 3, "extra": true},
    ], "priority": {"level": "routine", "detail": 300}}))
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refusal),
        [
            fault("to[0].name", "expected string, received 7"),
            fault("to[1].extra", "unknown field"),
            fault(
                "priority.detail",
                "expected u8, received 300, which is out of range"
            ),
        ]
    );
    // A field a variant does not have is refused on a call that would otherwise succeed.
    let refusal = send(json!({"to": [{"kind": "person", "name": "ada", "extra": 1}]}))
        .await
        .unwrap_err();
    assert_eq!(faults(&refusal), [fault("to[0].extra", "unknown field")]);
    assert_eq!(
        send(json!({"to": [{"kind": "channel", "id": 3}], "priority": {"level": "urgent", "detail": "now"}}))
            .await
            .unwrap(),
        r#"[Channel { id: 3 }] Some(Urgent("now"))"#
    );
}

/// Posts a message: the README's example of a refusal.
#[tool]
async fn message_post(
    /// Who to send it to.
    to: Vec<Recipient>,
    /// The message.
    #[schemars(length(min = 1, max = 500))]
    body: String,
    /// How often to retry.
    #[schemars(range(min = 1, max = 5))]
    retries: u8,
    /// Which page of replies to show.
    page: Option<Page>,
) -> String {
    format!("{to:?} {body} {retries} {page:?}")
}

#[tokio::test]
async fn the_readme_s_refusal_is_what_a_model_sees() {
    let registry = Registry::builder().tool(MessagePost).build().unwrap();
    let arguments = json!({
        "to": [{"kind": "robot"}],
        "bdy": "hello",
        "retries": 9,
        "page": {"size": 5, "colour": "red"},
    });
    let result = registry
        .call(
            ToolCall::new("1", "message_post", arguments),
            &Context::default(),
        )
        .await;
    assert_eq!(
        result.text(),
        "refused\tbad-arguments\t5 faults in the arguments of message_post; nothing ran\n\
         fault\tbdy\tunknown field; did you mean body?\n\
         fault\tto[0].kind\texpected one of \"person\", \"channel\", received \"robot\"\n\
         fault\tbody\tmissing; expected string\n\
         fault\tretries\texpected 1 to 5, received 9\n\
         fault\tpage.colour\tunknown field\n\
         fields\tto\tbody\tretries\tpage"
    );
}

/// What `ticket_rate` takes: bounds written as `validator` and `garde` attributes, which
/// schemars reads into the schema as it reads its own.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // read through Debug, which the lint does not count
struct Rating {
    /// From 1 to 3 stars.
    #[validate(range(min = 1, max = 3))]
    stars: u8,
    /// Who rates.
    #[garde(email)]
    by: String,
}

/// Rates a ticket.
#[tool]
async fn ticket_rate(#[input] rating: Rating) -> String {
    format!("{rating:?}")
}

#[tokio::test]
async fn validator_and_garde_attributes_are_enforced_too() {
    let registry = Registry::builder().tool(TicketRate).build().unwrap();
    let result = registry
        .call(
            ToolCall::new("1", "ticket_rate", json!({"stars": 5, "by": "me"})),
            &Context::default(),
        )
        .await;
    assert_eq!(
        faults(result.refusal().unwrap()),
        [
            fault("stars", "expected 1 to 3, received 5"),
            fault("by", r#"expected an email address, received "me""#),
        ]
    );
}

#[test]
fn a_list_of_tools_for_a_prompt_says_the_rules_it_enforces() {
    let described = registry().describe();
    for line in [
        "  retries (u8, 1 to 5, required): How often to retry.",
        "  query (string, 1 to 10 characters, required): What to look for.",
        "  tag (string, matching ^[a-z]+$, required): A tag of lower-case letters.",
        "    size (u32, 1 to 50, required): How many results a page holds.",
        "  id (string (uuid), required): The record.",
    ] {
        assert!(described.contains(line), "{line}\n{described}");
    }
}

/// A tag no bookmark may have; a pattern the macro cannot read, since it is no literal.
const NOT_PRIVATE: &str = r"^(?!private)";

/// Bookmarks, one of whose tools has a pattern the registry cannot check.
#[derive(Default)]
struct Bookmarks {
    prefix: String,
}

#[tool_core::toolkit(name = "bookmark")]
impl Bookmarks {
    /// Lists bookmarks.
    #[tool(readonly)]
    async fn bookmark_list(
        &self,
        /// Only bookmarks with this tag.
        #[schemars(regex(pattern = NOT_PRIVATE))]
        tag: Option<String>,
    ) -> String {
        format!("{}{}", self.prefix, tag.unwrap_or_default())
    }
}

/// The message of the panic `make` ends with.
fn panic_of(make: impl FnOnce() -> Registry + std::panic::UnwindSafe) -> String {
    let Err(panic) = std::panic::catch_unwind(make) else {
        panic!("it made a registry");
    };
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|text| text.to_string()))
        .unwrap_or_default()
}

#[test]
fn registry_macro_never_makes_a_registry_that_tells_a_rule_nobody_enforces() {
    let message = panic_of(|| tool_core::registry![Bookmarks::default()]);
    assert!(
        message.contains("`bookmark_list`: tag: the pattern \"^(?!private)\" cannot be read"),
        "{message}"
    );
    assert!(message.contains("Registry::builder()"), "{message}");
    // The builder refuses the same toolkit with the same words, as a value.
    let error = Registry::builder()
        .toolkit(Bookmarks::default())
        .build()
        .unwrap_err()
        .to_string();
    assert!(message.contains(&error), "{message}\n{error}");
}

/// A slug: text, as a type of its own.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Slug(String);

/// Renames a bookmark.
#[tool]
async fn bookmark_rename(
    /// The new name.
    #[schemars(length(max = 20))]
    slug: Slug,
    /// The new rank.
    #[schemars(inner(range(min = 1)))]
    ranks: Vec<Slug>,
) -> String {
    format!("{} {}", slug.0, ranks.len())
}

#[test]
fn a_bound_the_fields_type_cannot_take_is_refused_when_the_registry_is_made() {
    // schemars drops a bound whose field's schema is not of a type it bounds (here a `$ref`
    // to `Slug`): it is neither advertised nor enforced, so the registry refuses it.
    let error = Registry::builder()
        .tool(BookmarkRename)
        .build()
        .unwrap_err();
    let RegistryError::Unexportable { errors } = &error else {
        panic!("{error}");
    };
    let found: Vec<(&str, &str)> = errors
        .iter()
        .map(|error| (error.tool.as_str(), error.path.as_str()))
        .collect();
    assert_eq!(
        found,
        [("bookmark_rename", "slug"), ("bookmark_rename", "ranks[]")]
    );
    assert!(
        errors[0].problem.starts_with(
            "`length(..)` cannot apply here: this field's schema is a type of its own (`Slug`)"
        ),
        "{}",
        errors[0].problem
    );
    assert!(
        errors[1].problem.contains("`range(..)`"),
        "{}",
        errors[1].problem
    );
    let message = panic_of(|| tool_core::registry![BookmarkRename]);
    assert!(message.contains(&error.to_string()), "{message}");
}

/// Routes a request by region: a field a 2026-07-28 client also sends as a header.
#[tool]
async fn route_request(
    /// The region.
    #[schemars(extend("x-mcp-header" = "Region"))]
    region: String,
    /// The shard, as a header whose name no client can send.
    #[schemars(extend("x-mcp-header" = "Shard Id"))]
    shard: String,
    /// The tenant, optional, so no one plain value for a header.
    #[schemars(extend("x-mcp-header" = "Tenant"))]
    tenant: Option<String>,
) -> String {
    format!("{region} {shard} {tenant:?}")
}

#[test]
fn a_header_no_client_can_send_is_refused_when_the_registry_is_made() {
    let error = Registry::builder()
        .tool(RouteRequest)
        .build()
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("shard: `x-mcp-header` \"Shard Id\" is not an HTTP header name"),
        "{error}"
    );
    assert!(
        error.contains("tenant: `x-mcp-header` is on a field that is not one plain value"),
        "{error}"
    );
    assert!(
        !error.contains("region"),
        "a good header is not refused: {error}"
    );
}

/// A note to make.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // read through Debug, which the lint does not count
struct NewNote {
    /// Its title.
    title: String,
}

/// What to do, tagged by `kind`, a variant wrapping a struct.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind")]
#[allow(dead_code)] // read through Debug, which the lint does not count
enum NoteAction {
    /// Make a note.
    Create(NewNote),
    /// Drop every note.
    Clear,
}

/// Acts on notes.
#[tool]
async fn note_act(
    /// The action.
    action: NoteAction,
) -> String {
    format!("{action:?}")
}

#[tokio::test]
async fn an_internally_tagged_variant_wrapping_a_struct_takes_its_tag_and_its_fields() {
    let registry = Registry::builder().tool(NoteAct).build().unwrap();
    let made = outcome(
        &registry,
        "note_act",
        json!({"action": {"kind": "Create", "title": "t"}}),
    )
    .await;
    assert_eq!(made.as_deref(), Ok(r#"Create(NewNote { title: "t" })"#));
    let refused = outcome(
        &registry,
        "note_act",
        json!({"action": {"kind": "Create", "title": "t", "colour": "red"}}),
    )
    .await
    .unwrap_err();
    assert_eq!(faults(&refused), [fault("action.colour", "unknown field")]);
    let refused = outcome(&registry, "note_act", json!({"action": {"kind": "Create"}}))
        .await
        .unwrap_err();
    assert_eq!(
        faults(&refused),
        [fault("action.title", "missing; expected string")]
    );
    // What each export tells a model has both the tag and the wrapped struct's fields.
    for provider in [
        Provider::Mcp,
        Provider::OpenAi,
        Provider::Anthropic,
        Provider::Gemini,
    ] {
        let advertised = json!(registry.export(provider).unwrap()).to_string();
        assert!(
            advertised.contains(r#""title""#) && advertised.contains(r#""Create""#),
            "{provider:?}: {advertised}"
        );
    }
}

/// Moves a cursor by a step that is never zero.
#[tool]
async fn cursor_move(
    /// How far, either way.
    step: std::num::NonZeroI32,
    /// How many lines, either way, if not one.
    lines: Option<std::num::NonZeroI8>,
    /// How many pages back, at least three.
    #[schemars(range(max = -3))]
    back: std::num::NonZeroI16,
) -> String {
    format!("{step} {lines:?} {back}")
}

#[tokio::test]
async fn a_signed_non_zero_integer_is_advertised_as_the_ranges_either_side_of_zero() {
    let registry = Registry::builder().tool(CursorMove).build().unwrap();
    for provider in [
        Provider::Mcp,
        Provider::OpenAi,
        Provider::Anthropic,
        Provider::Gemini,
    ] {
        let exported = serde_json::to_string(&registry.export(provider).unwrap()).unwrap();
        // A keyword neither OpenAI's strict mode nor Gemini takes.
        assert!(!exported.contains("\"not\""), "{provider:?}: {exported}");
    }
    let ran = outcome(
        &registry,
        "cursor_move",
        json!({"step": -3, "lines": 2, "back": -3}),
    );
    assert_eq!(ran.await.as_deref(), Ok("-3 Some(2) -3"));
    let refused = outcome(
        &registry,
        "cursor_move",
        json!({"step": 0, "lines": 0, "back": -2}),
    )
    .await
    .unwrap_err();
    assert_eq!(
        faults(&refused),
        [
            fault(
                "step",
                "expected i32 at most -1 or i32 at least 1, received 0"
            ),
            fault(
                "lines",
                "expected i8 at most -1 or i8 at least 1 or null, received 0"
            ),
            // The schema's own bound, tighter than the type's, is kept.
            fault("back", "expected -32768 to -3, received -2"),
        ]
    );
}
