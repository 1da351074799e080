//! The procedural macros of `tool-core`: `#[tool]`, `#[toolkit]` and `registry!`. Depend on
//! `tool-core`, which re-exports them and documents them.
//!
//! `#[tool]` and `#[toolkit]` go through the same stages, one folder each, each importing only
//! from the ones before it: `attr` reads the options (`attr::metadata` the `icon` and `meta`
//! options, which only MCP advertises), `model` reads the item into what it means (a field's
//! validation rules in `model::rules`), `check` refuses every mistake with an error at the
//! offending token, and `expand` writes the code. `case` (names and types as text) and `error`
//! (an error at a token, and every error of an expansion gathered) are the leaves every stage
//! uses. `registry!` is only expanded: the code it writes has the compiler check its tool names
//! when the crate is checked or built.

#![forbid(unsafe_code)]

mod attr;
mod case;
mod check;
mod error;
mod expand;
mod model;

use proc_macro::TokenStream;

/// Turns an `async fn` into a tool. Documented in `tool_core`.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::tool(args.into(), item.into())
        .unwrap_or_else(|error| error.into_compile_error())
        .into()
}

/// Makes an impl block's `#[tool]` methods a toolkit. Documented in `tool_core`.
#[proc_macro_attribute]
pub fn toolkit(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::toolkit(args.into(), item.into())
        .unwrap_or_else(|error| error.into_compile_error())
        .into()
}

/// Composes toolkits and tools into a registry. Documented in `tool_core`.
#[proc_macro]
pub fn registry(input: TokenStream) -> TokenStream {
    expand::registry(input.into())
        .unwrap_or_else(|error| error.into_compile_error())
        .into()
}
