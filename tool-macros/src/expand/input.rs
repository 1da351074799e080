//! A tool's input type: the user's `#[input]` struct, or a struct generated from the fn's
//! parameters, and the expression for its `InputOps`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::model::ToolFn;

/// The input type: the user's `#[input]` struct, or a struct generated from the parameters;
/// its definition, its name, and the expression for its `InputOps`.
///
/// The generated struct is generic over its field types, and its `InputOps` come from a
/// generic fn whose bounds say `Parameter` of each, so that a parameter type without
/// `Deserialize` or `JsonSchema` is reported once, at that parameter, in words about
/// parameters, instead of many times from inside the derived impls.
pub fn input_type(tool: &ToolFn) -> (TokenStream, TokenStream, TokenStream) {
    if let Some(input) = tool.whole_input() {
        let ty = &input.ty;
        let ops = quote_spanned!(ty.span()=> ::tool_core::__private::input_ops::<#ty>());
        return (TokenStream::new(), quote!(#ty), ops);
    }
    // A field whose `#[serde]` or `#[schemars]` attributes may name functions of its type
    // (`default = "..."`, `with = "..."`) keeps its concrete type; the others become generic.
    let generic: Vec<Option<proc_macro2::Ident>> = tool
        .fields()
        .enumerate()
        .map(|(index, param)| {
            let annotated = param
                .field_attrs
                .iter()
                .any(|attr| !attr.path().is_ident("doc"));
            (!annotated).then(|| format_ident!("__T{}", index))
        })
        .collect();
    let generics: Vec<_> = generic.iter().flatten().collect();
    let fields = tool.fields().zip(&generic).map(|(param, generic)| {
        let ident = &param.ident;
        let attrs = &param.field_attrs;
        match generic {
            Some(generic) => quote!(#(#attrs)* #ident: #generic),
            None => {
                let ty = &param.ty;
                quote!(#(#attrs)* #ident: #ty)
            }
        }
    });
    let generic_types: Vec<_> = tool
        .fields()
        .zip(&generic)
        .filter(|(_, generic)| generic.is_some())
        .map(|(param, _)| &param.ty)
        .collect();
    let bound = generics
        .iter()
        .map(|generic| format!("{generic}: ::tool_core::__private::Parameter"))
        .collect::<Vec<_>>()
        .join(", ");
    let def = quote! {
        #[derive(::tool_core::__private::serde::Deserialize, ::tool_core::__private::schemars::JsonSchema)]
        #[serde(crate = "::tool_core::__private::serde")]
        #[serde(bound(deserialize = #bound), deny_unknown_fields)]
        #[schemars(crate = "::tool_core::__private::schemars", bound = #bound)]
        #[allow(non_camel_case_types)]
        struct __ToolInputOf<#(#generics),*> {
            #(#fields,)*
        }

        type __ToolInput = __ToolInputOf<#(#generic_types),*>;

        const fn __input_ops<#(#generics: ::tool_core::__private::Parameter),*>()
            -> ::tool_core::__private::InputOps<__ToolInputOf<#(#generics),*>>
        {
            ::tool_core::__private::generated_input_ops::<__ToolInputOf<#(#generics),*>>()
        }
    };
    let ops = quote!(__input_ops::<#(#generic_types),*>());
    (def, quote!(__ToolInput), ops)
}
