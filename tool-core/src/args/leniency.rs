//! Leniency: which of the slips models make most a registry forgives instead of refusing.
//!
//! Models often send a number or a boolean as text (`"10"`, `"true"`), one value where a list
//! of them is expected (`"tags": "a"`), or an object as JSON text (`"filter":
//! "{\"tags\":[\"a\"]}"`). Strictly, each is a fault, and the call is refused with
//! `bad-arguments`; a model usually mends it on its next turn. A [`Leniency`] lets a registry
//! mend it instead, and say so.
//!
//! Off by default, and then nothing changes. When a lenient registry's tool refuses a call's
//! arguments (its parser does, before the handler runs), the registry reads the arguments
//! against the tool's input schema, adjusts each value the schema says is of one JSON type and
//! that is not of it but reads as one the way a forgiven slip says, and, if it adjusted
//! anything, calls the tool once more with the adjusted arguments. Every adjustment is told
//! to the model with the result, as a line it reads (`adjusted<TAB>limit<TAB>read the text
//! "10" as the number 10`, in [`ToolResult::notes`](crate::ToolResult::notes)), and to
//! `tracing`, at info level.
//!
//! What it does not do: guess. A value of a type the schema allows is never changed; text is
//! read as a number only if it is exactly a JSON number (`"10"`, `"2.5"`, not `"ten"`, `" 10"`
//! or `"1,000"`), and as an integer only if it has no fraction; `null` is never made a list;
//! a value inside a union of several types (an enum of objects, say) is left alone, since the
//! schema does not say which one was meant. Good calls never reach any of this, so they cost
//! what they cost without it.

/// Which slips in a call's arguments a registry forgives, adjusting the arguments and telling
/// the model, instead of refusing them. See [`Registry::with_leniency`](crate::Registry::with_leniency)
/// and the `lenient` option of `#[tool]`.
///
/// ```
/// use tool_core::{Context, Leniency, Registry, ToolCall, tool};
///
/// /// Lists notes.
/// #[tool(readonly)]
/// async fn note_list(limit: u32, tags: Vec<String>) -> String {
///     format!("{limit} notes tagged {}", tags.join(", "))
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let registry = Registry::builder()
///     .tool(NoteList)
///     .build()
///     .unwrap()
///     .with_leniency(Leniency::all());
/// let call = ToolCall::new("1", "note_list", serde_json::json!({"limit": "10", "tags": "work"}));
/// assert_eq!(
///     registry.call(call, &Context::default()).await.text(),
///     "10 notes tagged work\n\
///      adjusted\tlimit\tread the text \"10\" as the number 10\n\
///      adjusted\ttags\tread one value as a list of one"
/// );
/// # });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Leniency {
    scalars_as_text: bool,
    one_as_list: bool,
    json_text: bool,
}

impl Leniency {
    /// Forgives nothing: every slip is refused, as with no leniency at all. The default.
    pub const fn none() -> Leniency {
        Leniency {
            scalars_as_text: false,
            one_as_list: false,
            json_text: false,
        }
    }

    /// Forgives every slip this type knows.
    pub const fn all() -> Leniency {
        Leniency::none().scalars_as_text().one_as_list().json_text()
    }

    /// Also forgives a number or a boolean sent as text, where the schema asks for a number,
    /// an integer or a boolean: `"10"` is read as `10`, `"2.5"` as `2.5` (for a number, not an
    /// integer), `"true"` and `"false"` as `true` and `false`.
    pub const fn scalars_as_text(self) -> Leniency {
        Leniency {
            scalars_as_text: true,
            ..self
        }
    }

    /// Also forgives one value sent where the schema asks for a list: `"a"` is read as
    /// `["a"]`. Never `null`, and never text that holds a JSON list (which
    /// [`json_text`](Leniency::json_text) reads as the list it holds).
    pub const fn one_as_list(self) -> Leniency {
        Leniency {
            one_as_list: true,
            ..self
        }
    }

    /// Also forgives an object or a list sent as JSON text, where the schema asks for an
    /// object or a list: `"{\"tags\":[\"a\"]}"` is read as `{"tags": ["a"]}`, and the values
    /// inside it are adjusted in turn.
    pub const fn json_text(self) -> Leniency {
        Leniency {
            json_text: true,
            ..self
        }
    }

    /// Whether a number or a boolean sent as text is forgiven.
    pub(crate) fn forgives_scalars_as_text(self) -> bool {
        self.scalars_as_text
    }

    /// Whether one value sent for a list is forgiven.
    pub(crate) fn forgives_one_as_list(self) -> bool {
        self.one_as_list
    }

    /// Whether an object or a list sent as JSON text is forgiven.
    pub(crate) fn forgives_json_text(self) -> bool {
        self.json_text
    }

    /// Whether it forgives nothing.
    pub(crate) fn is_none(self) -> bool {
        self == Leniency::none()
    }
}
