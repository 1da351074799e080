//! The procedural macros of `tool-core`: `#[tool]`, `#[toolkit]` and `registry!`. Depend on
//! `tool-core`, which re-exports them and documents them.
//!
//! `#[tool]` and `#[toolkit]` go through the same stages, one module each: `attr` reads the
//! options, `model` reads the item into what it means, `check` refuses every mistake with an
//! error at the offending token, and `expand` writes the code. `metadata` does all of this for
//! the `icon` and `meta` options, which only MCP advertises. `case` turns names from one case
//! into another for the stages that need it. `registry!` is only expanded: the code it writes
//! has the compiler check its tool names when the crate is built.

mod attr;
mod case;
mod check;
mod expand;
mod metadata;
mod model;
mod rules;

use proc_macro::TokenStream;

/// Turns an `async fn` into a tool. Documented in `tool_core`.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::tool(args.into(), item.into())
        .unwrap_or_else(|error| error.write_errors())
        .into()
}

/// Makes an impl block's `#[tool]` methods a toolkit. Documented in `tool_core`.
#[proc_macro_attribute]
pub fn toolkit(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::toolkit(args.into(), item.into())
        .unwrap_or_else(|error| error.write_errors())
        .into()
}

/// Composes toolkits and tools into a registry. Documented in `tool_core`.
#[proc_macro]
pub fn registry(input: TokenStream) -> TokenStream {
    expand::registry(input.into())
        .unwrap_or_else(|error| error.write_errors())
        .into()
}
