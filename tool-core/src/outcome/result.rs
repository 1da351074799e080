//! Results out: [`ToolResult`], the one answer to every call, with the notes a registry adds
//! for the model.

use std::fmt::Write as _;

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use crate::outcome::output::Output;
use crate::outcome::refusal::{Line, Refusal};

/// The answer to one [`ToolCall`](crate::ToolCall): its id and tool name, the output or the refusal, and notes
/// for the model on what the registry did to the call.
///
/// Serializes as `{"id", "name", "output"}` or `{"id", "name", "refusal": {code, message,
/// lines}}`, with `"notes": [{label, cells}]` when there are any.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolResult {
    /// The id of the call this answers.
    pub id: String,
    /// The name of the tool that was called.
    pub name: String,
    /// What came of it.
    pub outcome: Result<Output, Refusal>,
    /// What the registry did to the call on its way, for the model to read with the outcome:
    /// an `adjusted` line for each value of the arguments a lenient registry adjusted
    /// (`adjusted<TAB>limit<TAB>read the text "10" as the number 10`; see
    /// [`Leniency`](crate::Leniency)), and an `artifact` line giving the handle of an output
    /// kept as an artifact (`artifact<TAB>artifact-…<TAB>40000`; see
    /// [`Registry::with_artifacts`](crate::Registry)). Empty unless either applied; [`text`](Self::text) and
    /// every provider's result writer show it after the outcome.
    pub notes: Vec<Line>,
}

impl ToolResult {
    /// Whether the call was refused.
    pub fn is_refused(&self) -> bool {
        self.outcome.is_err()
    }

    /// The refusal, if the call was refused.
    pub fn refusal(&self) -> Option<&Refusal> {
        self.outcome.as_ref().err()
    }

    /// The text a model should see: the output's text, or the refusal's text form, followed
    /// by the [`notes`](Self::notes), one line each in a refusal's text form. A refusal's text
    /// with notes still reads back with [`Refusal::parse`], the notes as lines of it.
    pub fn text(&self) -> String {
        let mut text = match &self.outcome {
            Ok(output) => output.as_text().into_owned(),
            Err(refusal) => refusal.to_string(),
        };
        for note in &self.notes {
            if !text.is_empty() {
                text.push('\n');
            }
            // Writing into a `String` cannot fail.
            let _ = write!(text, "{note}");
        }
        text
    }

    /// The notes alone, one line each in a refusal's text form, as writers that send them
    /// apart from the outcome show them.
    pub(crate) fn notes_text(&self) -> String {
        let lines: Vec<String> = self.notes.iter().map(ToString::to_string).collect();
        lines.join("\n")
    }
}

impl Serialize for ToolResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let fields = if self.notes.is_empty() { 3 } else { 4 };
        let mut state = serializer.serialize_struct("ToolResult", fields)?;
        state.serialize_field("id", &self.id)?;
        state.serialize_field("name", &self.name)?;
        match &self.outcome {
            Ok(output) => state.serialize_field("output", output)?,
            Err(refusal) => state.serialize_field("refusal", refusal)?,
        }
        if !self.notes.is_empty() {
            state.serialize_field("notes", &self.notes)?;
        }
        state.end()
    }
}
