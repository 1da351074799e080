//! What a `#[tool]` or `#[toolkit]` with errors leaves beside the user's item: a stand-in for
//! what it would have made (the tool's unit struct, the type's `Toolkit` impl), which never
//! runs since the crate does not build, so that code naming it adds no error of its own.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::ToolFn;

/// For a `#[tool]` fn with errors: its unit struct, a `Tool` and a `Toolkit` that never run
/// (the crate does not compile). None for a method, which cannot have a struct beside it, or
/// where the struct's name clashes with another (`check::struct_clashes`).
pub fn tool(tool: &ToolFn) -> TokenStream {
    if tool.has_receiver() || crate::check::struct_clashes(tool) {
        return TokenStream::new();
    }
    let vis = &tool.func.vis;
    let struct_ident = tool.struct_ident();
    let name = &tool.name;
    quote! {
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #struct_ident;

        impl ::tool_core::tool::Tool for #struct_ident {
            fn definition(&self) -> ::tool_core::tool::ToolDefinition {
                ::tool_core::__private::stand_in_definition(#name)
            }

            fn call<'__a>(
                &'__a self,
                _: &'__a ::tool_core::call::Arguments,
                _: &'__a ::tool_core::call::Context,
            ) -> ::tool_core::call::BoxFuture<'__a, ::core::result::Result<::tool_core::outcome::Output, ::tool_core::outcome::Refusal>> {
                ::tool_core::__private::stand_in_call()
            }

            fn __makes_its_future_only(&self) -> bool {
                true
            }
        }

        impl ::tool_core::tool::Toolkit for #struct_ident {
            const NAME: &'static str = #name;
            const TOOL_NAMES: &'static [&'static str] = &[#name];

            fn into_tools(self) -> ::std::vec::Vec<::std::sync::Arc<dyn ::tool_core::tool::Tool>> {
                ::std::vec::Vec::new()
            }
        }
    }
}

/// For a `#[toolkit]` with errors: the type's `Toolkit` impl, listing each tool name once,
/// with no tools (the crate does not compile). None for a trait impl or a generic one, whose
/// type the stand-in could not name alone.
pub fn toolkit(toolkit: &crate::model::Toolkit) -> TokenStream {
    let item = &toolkit.item;
    if item.trait_.is_some() || !item.generics.params.is_empty() {
        return TokenStream::new();
    }
    let self_ty = &item.self_ty;
    let name = &toolkit.name;
    let mut names: Vec<&str> = Vec::new();
    for tool in &toolkit.tools {
        if !names.contains(&tool.name.as_str()) {
            names.push(&tool.name);
        }
    }
    quote! {
        impl ::tool_core::tool::Toolkit for #self_ty {
            const NAME: &'static str = #name;
            const TOOL_NAMES: &'static [&'static str] = &[#(#names),*];

            fn into_tools(self) -> ::std::vec::Vec<::std::sync::Arc<dyn ::tool_core::tool::Tool>> {
                ::std::vec::Vec::new()
            }
        }
    }
}
