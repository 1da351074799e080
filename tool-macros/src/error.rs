//! The macros' errors: each a message at the token that is wrong, and all the mistakes of one
//! expansion gathered, so that a user sees every one in a single build. syn's error already
//! carries several messages (`combine`) and turns them into `compile_error!`s, so it is the
//! error type throughout; what it lacks, a place to gather errors while reading goes on, is
//! `Errors`.

use std::fmt::Display;

use syn::spanned::Spanned;

/// What a stage of the macros returns: its result, or every error it found.
pub type Result<T> = std::result::Result<T, syn::Error>;

/// An error that says `message` at `node` (its first token).
pub fn at(node: &dyn Spanned, message: impl Display) -> syn::Error {
    syn::Error::new(node.span(), message)
}

/// An error that says `message` over the whole of `node`, its first token to its last (an
/// attribute's `cfg(test)`, where [`at`] marks its first token alone on a stable compiler).
pub fn over(node: &dyn quote::ToTokens, message: impl Display) -> syn::Error {
    syn::Error::new_spanned(node, message)
}

/// An `Err` that says `message` at `node`, for a reader or check that stops at its first
/// mistake.
pub fn err_at<T>(node: &dyn Spanned, message: impl Display) -> Result<T> {
    Err(at(node, message))
}

/// The errors found so far, in the order found; reading goes on past each.
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    /// Adds an error.
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(first) => first.combine(error),
            None => self.0 = Some(error),
        }
    }

    /// The value of `result`, or `None` with its error kept.
    pub fn handle<T>(&mut self, result: Result<T>) -> Option<T> {
        result.map_err(|error| self.push(error)).ok()
    }

    /// `value`, or every error kept.
    pub fn finish_with<T>(self, value: T) -> Result<T> {
        match self.0 {
            Some(errors) => Err(errors),
            None => Ok(value),
        }
    }

    /// `Ok`, or every error kept.
    pub fn finish(self) -> Result<()> {
        self.finish_with(())
    }
}

impl Extend<syn::Error> for Errors {
    fn extend<I: IntoIterator<Item = syn::Error>>(&mut self, errors: I) {
        for error in errors {
            self.push(error);
        }
    }
}
