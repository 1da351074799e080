//! Refusals: the answer a caller gets instead of an output.
//!
//! A [`Refusal`] is written for a language model to act on: a stable `code`, a one-sentence
//! `message`, and advice [`Line`]s such as the path of every bad field or the names of the tools
//! the caller may use. Its text form (its `Display`) is what a model sees; [`Refusal::parse`]
//! reads that text back, so a host that only keeps text loses nothing.
//!
//! This module does not decide *when* to refuse; the argument parser, the registry and handlers
//! do.

use std::borrow::Cow;
use std::fmt;

/// The codes this framework uses. Applications may use any other code of their own.
pub mod code {
    /// The arguments do not fit the tool's input; `fault` lines give each fault's path.
    pub const BAD_ARGUMENTS: &str = "bad-arguments";
    /// The call itself could not be read (not a JSON object, no tool name), or asks for what
    /// the tool does not offer (a task of a tool that does not run as one).
    pub const BAD_CALL: &str = "bad-call";
    /// No tool of that name is available to this caller; a `tools` line lists those that are.
    pub const UNKNOWN_TOOL: &str = "unknown-tool";
    /// The caller is not granted this tool.
    pub const NOT_PERMITTED: &str = "not-permitted";
    /// The call was cancelled before it finished.
    pub const CANCELLED: &str = "cancelled";
    /// The call's deadline passed before it finished.
    pub const TIMED_OUT: &str = "timed-out";
    /// An approver declined to let the call run.
    pub const DECLINED: &str = "declined";
    /// The tool asked its caller's person a question and nobody could be asked (no asker,
    /// a client without forms), or a form cannot show what it asked for. See
    /// [`Context::ask`](crate::Context::ask).
    pub const CANNOT_ASK: &str = "cannot-ask";
    /// The answer to a tool's question does not fit the question's form; `fault` lines say
    /// where.
    pub const BAD_ANSWER: &str = "bad-answer";
    /// The item the call would change has changed since the caller read it; a `revision`
    /// line gives its current revision. See [`ExpectedRevision`](crate::ExpectedRevision).
    pub const CONFLICT: &str = "conflict";
    /// The caller has as many tasks running as the registry lets one caller have; see
    /// [`Registry::start`](crate::Registry::start).
    pub const TOO_MANY_TASKS: &str = "too-many-tasks";
    /// The caller has used its budget of calls for now; a `retry-after` line gives the seconds
    /// to wait. See [`Registry::with_rate_limit`](crate::Registry::with_rate_limit).
    pub const RATE_LIMITED: &str = "rate-limited";
    /// No artifact of that handle is readable by this caller (it may have expired); see
    /// `Registry::with_artifacts` (the `artifacts` feature).
    pub const UNKNOWN_ARTIFACT: &str = "unknown-artifact";
    /// The tool ran and reported an error of its own.
    pub const FAILED: &str = "failed";
    /// Something went wrong inside the tool or the framework (a panic, for instance).
    pub const INTERNAL: &str = "internal";
}

/// Why a call produced no output, in a form a model can act on.
///
/// The text form, produced by `Display` and read back by [`Refusal::parse`], is one
/// tab-separated head line followed by one line per advice [`Line`]:
///
/// ```text
/// refused<TAB>bad-arguments<TAB>1 fault in the arguments of note_write; nothing ran
/// fault<TAB>revision<TAB>expected u64 or null, received "latest"
/// fields<TAB>text<TAB>revision
/// ```
///
/// Tabs, newlines, carriage returns and backslashes inside any cell are escaped (`\t`, `\n`,
/// `\r`, `\\`), so a row can never break.
///
/// A handler returns `Result<T, Refusal>` to refuse with a code of its own; any
/// `std::error::Error` converts into a `failed` refusal with `?`.
///
/// # What a model is shown
///
/// A refusal made with [`Refusal::new`] (or [`failed`](Refusal::failed), or read back with
/// [`parse`](Refusal::parse)) is *model-facing*: its author wrote it for a model, and a
/// registry passes it on as it is. One converted from a `std::error::Error` (by `?`, by
/// `From`, or because the handler's error type is one) is not: an error's message is written
/// for the program's developers and may hold paths, queries, addresses or secrets. A registry
/// logs such a message (a `tracing` warning) and answers `failed` with a fixed message instead,
/// unless it was set up with
/// [`Registry::with_error_messages(true)`](crate::Registry::with_error_messages). To show one
/// error's message, say so: `.map_err(|error| Refusal::failed(error.to_string()))`.
///
/// Equality, hashing and the text form ignore whether a refusal is model-facing.
///
/// ```
/// use tool_core::Refusal;
///
/// let refusal = Refusal::new("conflict", "the note has moved on").line("revision", ["7"]);
/// let text = refusal.to_string();
/// assert_eq!(text, "refused\tconflict\tthe note has moved on\nrevision\t7");
/// assert_eq!(Refusal::parse(&text), Some(refusal));
/// ```
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Refusal {
    /// A short, stable, kebab-case code, such as `bad-arguments`; see [`code`].
    pub code: String,
    /// One sentence saying what went wrong.
    pub message: String,
    /// Advice rows, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<Line>,
    /// Whether the message was converted from an error rather than written for a model.
    #[serde(skip)]
    from_error: bool,
    /// Whether a tool's argument parser made it, before the handler could run: what lets a
    /// lenient registry adjust the arguments and call again. Never set on a refusal a
    /// handler made, nor on one that left its registry.
    #[serde(skip)]
    by_parser: bool,
}

impl PartialEq for Refusal {
    fn eq(&self, other: &Self) -> bool {
        (&self.code, &self.message, &self.lines) == (&other.code, &other.message, &other.lines)
    }
}

impl Eq for Refusal {}

impl std::hash::Hash for Refusal {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (&self.code, &self.message, &self.lines).hash(state);
    }
}

/// One advice row of a [`Refusal`]: a label followed by cells, such as
/// `fields  text  revision` or `fault  items[2].qty  expected u32, received "x"`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Line {
    /// What the row is about: `fields`, `fault`, `tools`, or a label of the application's.
    /// Borrowed when it is a fixed word, as the framework's labels are, so a refusal with many
    /// rows does not allocate a label for each.
    pub label: Cow<'static, str>,
    /// The row's values.
    #[serde(default)]
    pub cells: Vec<String>,
}

impl Line {
    /// A row with the given label and cells.
    pub fn new<I, S>(label: impl Into<Cow<'static, str>>, cells: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Line {
            label: label.into(),
            cells: cells.into_iter().map(Into::into).collect(),
        }
    }
}

impl Refusal {
    /// A refusal with the given code and message and no advice lines.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Refusal {
            code: code.into(),
            message: message.into(),
            lines: Vec::new(),
            from_error: false,
            by_parser: false,
        }
    }

    /// Whether the message was written for a model: true unless the refusal was converted
    /// from a `std::error::Error`, whose message a registry hides unless told otherwise (see
    /// [What a model is shown](Refusal#what-a-model-is-shown)).
    pub fn is_model_facing(&self) -> bool {
        !self.from_error
    }

    /// Adds an advice row and returns the refusal, for building in one expression.
    pub fn line<I, S>(mut self, label: impl Into<Cow<'static, str>>, cells: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.lines.push(Line::new(label, cells));
        self
    }

    /// A `failed` refusal: the tool ran and reported an error of its own.
    pub fn failed(message: impl Into<String>) -> Self {
        Refusal::new(code::FAILED, message)
    }

    /// A `bad-arguments` refusal with the given message.
    pub fn bad_arguments(message: impl Into<String>) -> Self {
        Refusal::new(code::BAD_ARGUMENTS, message)
    }

    /// The first advice row with this label, if any.
    pub fn find_line(&self, label: &str) -> Option<&Line> {
        self.lines.iter().find(|line| line.label == label)
    }

    /// Reads a refusal back from its text form; `None` if the text is not one.
    ///
    /// The head line must be exactly `refused<TAB>code<TAB>message`; every following line is
    /// an advice row. For every refusal `r`, `Refusal::parse(&r.to_string()) == Some(r)`.
    pub fn parse(text: &str) -> Option<Refusal> {
        let mut rows = text.split('\n');
        let head = rows.next()?;
        let mut head_cells = head.split('\t');
        if head_cells.next()? != "refused" {
            return None;
        }
        let code = unescape(head_cells.next()?)?;
        let message = unescape(head_cells.next()?)?;
        if head_cells.next().is_some() {
            return None;
        }
        let lines = rows
            .map(|row| {
                let mut cells = row.split('\t');
                let label = unescape(cells.next().unwrap_or_default())?;
                let cells = cells.map(unescape).collect::<Option<Vec<_>>>()?;
                Some(Line {
                    label: Cow::Owned(label),
                    cells,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Refusal {
            lines,
            ..Refusal::new(code, message)
        })
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "refused\t{}\t{}",
            escape(&self.code),
            escape(&self.message)
        )?;
        for line in &self.lines {
            write!(f, "\n{line}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Line {
    /// The row as a refusal's text form writes it: the label and each cell, tab-separated,
    /// with tabs, newlines, carriage returns and backslashes inside them escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&escape(&self.label))?;
        for cell in &self.cells {
            write!(f, "\t{}", escape(cell))?;
        }
        Ok(())
    }
}

/// Any error converts into a `failed` refusal carrying its message (and its sources', joined
/// with `: `), so handlers can use `?`. The refusal is not model-facing: a registry logs the
/// message and shows a fixed one unless set up with
/// [`Registry::with_error_messages(true)`](crate::Registry::with_error_messages).
///
/// `Refusal` deliberately does not implement `std::error::Error` itself: that is what lets this
/// conversion exist beside `From<Refusal> for Refusal`, as with `anyhow::Error`.
impl<E> From<E> for Refusal
where
    E: std::error::Error + Send + Sync + 'static,
{
    fn from(error: E) -> Self {
        Refusal::from_error(&error)
    }
}

impl Refusal {
    /// The refusal of a call whose context was cancelled, before or while it ran (or waited
    /// for an answer): the one wording, wherever the cancel is seen.
    pub fn cancelled() -> Refusal {
        Refusal::new(
            code::CANCELLED,
            "the call was cancelled; nothing more will run",
        )
    }

    /// The refusal of a call whose deadline passed, before or while it ran (or waited for an
    /// answer).
    pub fn timed_out() -> Refusal {
        Refusal::new(
            code::TIMED_OUT,
            "the call did not finish before its deadline and was stopped",
        )
    }

    /// The `failed` refusal, not model-facing, for `error`: its message followed by its
    /// sources', joined with `: `. Every error type a handler may return comes through here.
    pub(crate) fn from_error(error: &(dyn std::error::Error + 'static)) -> Refusal {
        let mut message = error.to_string();
        let mut source = error.source();
        while let Some(cause) = source {
            message.push_str(": ");
            message.push_str(&cause.to_string());
            source = cause.source();
        }
        Refusal {
            from_error: true,
            ..Refusal::failed(message)
        }
    }

    /// The refusal, marked as made by a tool's argument parser before its handler ran.
    pub(crate) fn made_by_parser(self) -> Refusal {
        Refusal {
            by_parser: true,
            ..self
        }
    }

    /// Whether a tool's argument parser made the refusal, so that its handler has not run.
    pub(crate) fn is_by_parser(&self) -> bool {
        self.by_parser
    }

    /// Forgets who made the refusal, as it leaves the registry: a handler that passes on a
    /// refusal it was given (by a registry it called, say) has run, whoever made it.
    pub(crate) fn forget_maker(&mut self) {
        self.by_parser = false;
    }
}

fn escape(cell: &str) -> Cow<'_, str> {
    if !cell.contains(['\t', '\n', '\r', '\\']) {
        return Cow::Borrowed(cell);
    }
    let mut out = String::with_capacity(cell.len() + 4);
    for c in cell.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Reverses [`escape`]; `None` for a backslash not followed by `t`, `n`, `r` or `\`, or a bare
/// carriage return, which no escaped cell contains.
fn unescape(cell: &str) -> Option<String> {
    let mut out = String::with_capacity(cell.len());
    let mut chars = cell.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(match chars.next()? {
                't' => '\t',
                'n' => '\n',
                'r' => '\r',
                '\\' => '\\',
                _ => return None,
            }),
            '\r' => return None,
            c => out.push(c),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn any_cell() -> impl Strategy<Value = String> {
        prop_oneof![
            ".*",
            proptest::collection::vec(
                prop_oneof![
                    Just('\t'),
                    Just('\n'),
                    Just('\r'),
                    Just('\\'),
                    Just('a'),
                    Just('t')
                ],
                0..8
            )
            .prop_map(|chars| chars.into_iter().collect()),
        ]
    }

    fn any_refusal() -> impl Strategy<Value = Refusal> {
        let line =
            (any_cell(), proptest::collection::vec(any_cell(), 0..4)).prop_map(|(label, cells)| {
                Line {
                    label: Cow::Owned(label),
                    cells,
                }
            });
        (
            any_cell(),
            any_cell(),
            proptest::collection::vec(line, 0..5),
        )
            .prop_map(|(code, message, lines)| Refusal {
                lines,
                ..Refusal::new(code, message)
            })
    }

    proptest! {
        #[test]
        fn refusal_text_round_trips(refusal in any_refusal()) {
            let text = refusal.to_string();
            prop_assert_eq!(Refusal::parse(&text), Some(refusal));
        }

        #[test]
        fn parse_never_panics(text in ".*") {
            let _ = Refusal::parse(&text);
        }
    }

    #[test]
    fn control_characters_are_escaped_so_rows_cannot_break() {
        let refusal = Refusal::new("c\td", "two\nlines\\").line("fields", ["a\tb", "c\r"]);
        let text = refusal.to_string();
        assert_eq!(text.lines().count(), 2);
        assert_eq!(text, "refused\tc\\td\ttwo\\nlines\\\\\nfields\ta\\tb\tc\\r");
    }

    #[test]
    fn text_that_is_not_a_refusal_is_not_parsed() {
        assert_eq!(Refusal::parse("ok\tfine\tdone"), None);
        assert_eq!(Refusal::parse("refused\tonly-code"), None);
        assert_eq!(Refusal::parse("refused\ta\tb\tc"), None);
        assert_eq!(Refusal::parse("refused\ta\tbad \\q escape"), None);
    }

    #[test]
    fn errors_become_failed_with_their_sources() {
        let error = std::io::Error::other("disk full");
        let refusal = Refusal::from(error);
        assert_eq!(refusal.code, code::FAILED);
        assert_eq!(refusal.message, "disk full");
        assert!(!refusal.is_model_facing());
        assert!(Refusal::failed("disk full").is_model_facing());
        assert_eq!(refusal, Refusal::failed("disk full"));
    }
}
