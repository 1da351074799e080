//! The answer to a test's call, with one-line assertions on its output or its refusal's rows.
//! Each assertion panics with the whole answer as a model would read it, so a failing test
//! shows what the tool said instead.

use serde_json::Value;

use crate::outcome::refusal::Refusal;
use crate::outcome::result::ToolResult;

/// What a tool answered a test's call ([`call`](super::call)). The assertions return `&Self`,
/// so several chain on one answer.
#[derive(Clone, Debug)]
#[must_use = "a call's answer is asserted on; `.result()` reads it"]
pub struct Called {
    result: ToolResult,
}

impl Called {
    pub(super) fn new(result: ToolResult) -> Called {
        Called { result }
    }

    /// The whole answer.
    pub fn result(&self) -> &ToolResult {
        &self.result
    }

    /// The text a model reads: the output's, or the refusal's text form, followed by the notes
    /// the registry adds (`adjusted` and `artifact` lines), as [`ToolResult::text`] gives it.
    pub fn text(&self) -> String {
        self.result.text()
    }

    /// Asserts that the call ran and its output's text (structured output's JSON text) is
    /// `expected`.
    #[track_caller]
    pub fn assert_text(&self, expected: &str) -> &Self {
        let output = self.output();
        assert_eq!(
            output, expected,
            "`{}` answered another text",
            self.result.name
        );
        self
    }

    /// Asserts that the call ran and its output, as JSON (text as a JSON string, nothing as
    /// `null`), is `expected`.
    #[track_caller]
    pub fn assert_json(&self, expected: Value) -> &Self {
        match &self.result.outcome {
            Ok(output) => assert_eq!(
                output.to_value(),
                expected,
                "`{}` answered another value",
                self.result.name
            ),
            Err(_) => self.unexpected_refusal(),
        }
        self
    }

    /// Asserts that the call was refused with `code` (`"bad-arguments"`, `"not-permitted"`,
    /// `"conflict"`, ...: see [`code`](crate::code)).
    #[track_caller]
    pub fn assert_refused(&self, code: &str) -> &Self {
        let refusal = self.refusal();
        assert_eq!(
            refusal.code, code,
            "`{}` was refused with another code:\n{refusal}",
            self.result.name
        );
        self
    }

    /// Asserts that the refusal has a `fault` row at `path` saying exactly `problem`, among
    /// any others.
    #[track_caller]
    pub fn assert_fault(&self, path: &str, problem: &str) -> &Self {
        let refusal = self.refusal();
        let found = faults(refusal).any(|row| row == (path, problem));
        assert!(
            found,
            "`{}`'s refusal has no fault `{path}`: `{problem}`:\n{refusal}",
            self.result.name
        );
        self
    }

    /// Asserts that the refusal's `fault` rows are exactly `rows`, as (path, problem), in
    /// order.
    #[track_caller]
    pub fn assert_faults(&self, rows: &[(&str, &str)]) -> &Self {
        let refusal = self.refusal();
        let found: Vec<(&str, &str)> = faults(refusal).collect();
        assert_eq!(
            found, rows,
            "`{}`'s refusal has other faults:\n{refusal}",
            self.result.name
        );
        self
    }

    /// Asserts that the refusal has a row labelled `label` whose cells are exactly `cells`
    /// (`("fields", &["text", "revision"])`, or a row of the application's own).
    #[track_caller]
    pub fn assert_line(&self, label: &str, cells: &[&str]) -> &Self {
        let refusal = self.refusal();
        let found = refusal
            .lines
            .iter()
            .any(|line| line.label == label && line.cells.iter().eq(cells.iter()));
        assert!(
            found,
            "`{}`'s refusal has no row `{label}` {cells:?}:\n{refusal}",
            self.result.name
        );
        self
    }

    /// The output's text; panics with the refusal if the call was refused.
    #[track_caller]
    fn output(&self) -> String {
        match &self.result.outcome {
            Ok(output) => output.as_text().into_owned(),
            Err(_) => self.unexpected_refusal(),
        }
    }

    /// The refusal; panics with the output if the call ran.
    #[track_caller]
    fn refusal(&self) -> &Refusal {
        match &self.result.outcome {
            Err(refusal) => refusal,
            Ok(output) => panic!(
                "`{}` ran and answered, where a refusal was expected:\n{}",
                self.result.name,
                output.as_text()
            ),
        }
    }

    #[track_caller]
    fn unexpected_refusal(&self) -> ! {
        panic!(
            "`{}` was refused, where an output was expected:\n{}",
            self.result.name,
            self.result.text()
        )
    }
}

/// A refusal's `fault` rows as (path, problem).
fn faults(refusal: &Refusal) -> impl Iterator<Item = (&str, &str)> {
    refusal
        .lines
        .iter()
        .filter(|line| line.label == "fault")
        .map(|line| {
            let cell = |index: usize| line.cells.get(index).map_or("", String::as_str);
            (cell(0), cell(1))
        })
}
