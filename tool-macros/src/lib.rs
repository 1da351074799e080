//! The procedural macros of `tool-core`: `#[tool]`. Depend on `tool-core`, which re-exports
//! them and documents them.
//!
//! Each macro goes through the same stages, one module each: `attr` reads the options,
//! `model` reads the item into what it means, `check` refuses every mistake with an error at
//! the offending token, and `expand` writes the code.

mod attr;
mod check;
mod expand;
mod model;

use proc_macro::TokenStream;

/// Turns an `async fn` into a tool. Documented in `tool_core`.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::tool(args.into(), item.into())
        .unwrap_or_else(|error| error.write_errors())
        .into()
}
