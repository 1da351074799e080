//! `#[toolkit(require(title, hints))]`: what every tool of a toolkit must say, for a host that
//! lists its tools in a directory which asks for a title and for whether a tool changes
//! anything. A tool that does not say it is a compile error at that tool (`check::toolkit`).

use syn::Meta;

use super::syntax::{known_names, list_option};
use crate::error::{Errors, at};

/// What a toolkit requires of its tools.
#[derive(Clone, Copy, Debug, Default)]
pub struct Require {
    /// Each tool has a `title`.
    pub title: bool,
    /// Each tool says `readonly` or `destructive`.
    pub hints: bool,
}

/// The things a toolkit may require.
const REQUIRABLE: [&str; 2] = ["title", "hints"];

const HELP: &str = "write what each tool must say, such as `require(title, hints)`";

impl Require {
    /// Reads `require(...)`.
    pub fn from_meta(item: &Meta) -> crate::error::Result<Self> {
        let items = list_option::<syn::Ident>(item, "what each tool must say", HELP)?;
        let mut errors = Errors::default();
        let mut require = Require::default();
        for ident in &items {
            match ident.to_string().as_str() {
                "title" => require.title = true,
                "hints" => require.hints = true,
                other => errors.push(at(
                    ident,
                    format!(
                        "a toolkit cannot require `{other}`; {}",
                        known_names(other, &REQUIRABLE, "requirements")
                    ),
                )),
            }
        }
        errors.finish_with(require)
    }
}
