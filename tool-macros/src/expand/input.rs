//! A tool's input type: the user's `#[input]` struct, or a struct generated from the fn's
//! parameters, and the expression for its `InputOps`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;

use crate::check::first_within;
use crate::model::{ToolFn, last_segment_is};

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
    // (`default = "..."`, `with = "..."`) keeps its concrete type; the others become generic,
    // a renamed one or one with rules too.
    let generic: Vec<Option<proc_macro2::Ident>> = tool
        .fields()
        .enumerate()
        .map(|(index, param)| {
            let own_type = crate::model::rules::of(&param.field_attrs).own_type;
            (!own_type).then(|| format_ident!("__T{}", index))
        })
        .collect();
    let generics: Vec<_> = generic.iter().flatten().collect();
    // Each `#[serde(default)]` reads its value through a fn of its own, `__tool_default_N`.
    let mut defaults = Vec::new();
    let mut fields = Vec::new();
    for ((index, param), generic) in tool.fields().enumerate().zip(&generic) {
        let mut attrs = Vec::with_capacity(param.field_attrs.len());
        for attr in &param.field_attrs {
            match default_through(attr, index, &param.ty) {
                Some((attr, default)) => {
                    attrs.push(attr);
                    defaults.push(default);
                }
                None => attrs.push(attr.clone()),
            }
        }
        let ident = &param.ident;
        let ty = &param.ty;
        fields.push(match generic {
            Some(generic) => quote!(#(#attrs)* #ident: #generic),
            None => quote!(#(#attrs)* #ident: #ty),
        });
    }
    let generic_types: Vec<_> = tool
        .fields()
        .zip(&generic)
        .filter(|(_, generic)| generic.is_some())
        .map(|(param, _)| &param.ty)
        .collect();
    // A parameter taken by value whose type names a `Context` (`Context`, `Arc<Context>`) is
    // held to `ContextParameter`, the same bound under an error that says to borrow
    // tool-core's `Context`.
    let checks: Vec<TokenStream> = tool
        .fields()
        .zip(&generic)
        .filter_map(|(param, generic)| {
            let generic = generic.as_ref()?;
            let names_context = |ty: &syn::Type| last_segment_is(ty, "Context").then_some(());
            Some(match first_within(&param.ty, names_context).is_some() {
                true => quote!(#generic: ::tool_core::__private::ContextParameter),
                false => quote!(#generic: ::tool_core::__private::Parameter),
            })
        })
        .collect();
    let bound = generics
        .iter()
        .map(|generic| format!("{generic}: ::tool_core::__private::Parameter"))
        .collect::<Vec<_>>()
        .join(", ");
    // With every field generic and none saying `#[serde]` or `#[schemars]`, the struct's
    // `Deserialize` is generated here; otherwise serde's derive reads the attributes.
    let idents: Option<Vec<&proc_macro2::Ident>> = tool
        .fields()
        .zip(&generic)
        .map(|(param, generic)| {
            let plain = (param.field_attrs.iter()).all(|attr| attr.path().is_ident("doc"));
            param.ident.as_ref().filter(|_| generic.is_some() && plain)
        })
        .collect();
    let (derive, deserialize) = match idents {
        Some(idents) => (quote!(), read_map(&generics, &idents)),
        None => (
            quote! {
                #[derive(::tool_core::__private::serde::Deserialize)]
                #[serde(crate = "::tool_core::__private::serde")]
                #[serde(bound(deserialize = #bound), deny_unknown_fields)]
            },
            quote!(),
        ),
    };
    let def = quote! {
        #derive
        #[derive(::tool_core::__private::schemars::JsonSchema)]
        #[schemars(crate = "::tool_core::__private::schemars", bound = #bound)]
        #[allow(non_camel_case_types)]
        struct __ToolInputOf<#(#generics),*> {
            #(#fields,)*
        }

        #(#defaults)*

        #deserialize

        type __ToolInput = __ToolInputOf<#(#generic_types),*>;

        const fn __input_ops<#(#checks),*>()
            -> ::tool_core::__private::InputOps<__ToolInputOf<#(#generics),*>>
        {
            ::tool_core::__private::generated_input_ops::<__ToolInputOf<#(#generics),*>>()
        }
    };
    let ops = quote!(__input_ops::<#(#generic_types),*>());
    (def, quote!(__ToolInput), ops)
}

/// `attr` with a bare `default` in its `#[serde(...)]` list written `default =
/// "__tool_default_N"`, and that fn, which asks `Default` of the field's type through
/// `FieldDefault`, at the `default`: serde's derive and schemars' each call `Default::default`
/// for a bare `default`, so a type without it would be told by each, from inside its
/// expansion, and never at the attribute.
fn default_through(
    attr: &syn::Attribute,
    index: usize,
    ty: &syn::Type,
) -> Option<(syn::Attribute, TokenStream)> {
    use syn::punctuated::Punctuated;
    if !attr.path().is_ident("serde") {
        return None;
    }
    let list = attr
        .parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
        .ok()?;
    let bare = list
        .iter()
        .find(|meta| matches!(meta, syn::Meta::Path(path) if path.is_ident("default")))?;
    let name = format_ident!("__tool_default_{}", index);
    let named = name.to_string();
    let items = list.iter().map(|meta| match meta {
        syn::Meta::Path(path) if path.is_ident("default") => quote!(default = #named),
        other => quote!(#other),
    });
    let rewritten: syn::Attribute = syn::parse_quote!(#[serde(#(#items),*)]);
    let value = quote_spanned!(bare.span()=> ::tool_core::__private::field_default());
    let default = quote! {
        #[allow(non_snake_case)]
        fn #name() -> #ty {
            #value
        }
    };
    Some((rewritten, default))
}

/// The input struct's `Deserialize`, when every field is generic: a `visit_map` alone, as serde's
/// derive reads a struct under `deny_unknown_fields` from an object (keys through
/// `FieldKey`, an absent field through `missing_field`, a field sent twice refused), with the
/// same messages. Nothing reads the struct from an array, so no `visit_seq` is made for it.
fn read_map(generics: &[&proc_macro2::Ident], fields: &[&proc_macro2::Ident]) -> TokenStream {
    let private = quote!(::tool_core::__private);
    let serde = quote!(#private::serde);
    // The names serde gives the fields: `r#type` is `type`.
    let names: Vec<String> = fields
        .iter()
        .map(|field| field.unraw().to_string())
        .collect();
    let slots: Vec<_> = (0..fields.len())
        .map(|index| format_ident!("__slot{}", index))
        .collect();
    let positions: Vec<usize> = (0..fields.len()).collect();
    quote! {
        impl<'de, #(#generics: #private::Parameter),*> #serde::Deserialize<'de>
            for __ToolInputOf<#(#generics),*>
        {
            fn deserialize<__D: #serde::Deserializer<'de>>(
                __deserializer: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                const __FIELDS: &[&str] = &[#(#names),*];
                fn __position(__key: &str) -> ::core::option::Option<usize> {
                    match __key {
                        #(#names => ::core::option::Option::Some(#positions),)*
                        _ => ::core::option::Option::None,
                    }
                }
                struct __Visitor<#(#generics),*>(::core::marker::PhantomData<(#(#generics,)*)>);
                impl<'de, #(#generics: #private::Parameter),*> #serde::de::Visitor<'de>
                    for __Visitor<#(#generics),*>
                {
                    type Value = __ToolInputOf<#(#generics),*>;

                    fn expecting(
                        &self,
                        __formatter: &mut ::core::fmt::Formatter<'_>,
                    ) -> ::core::fmt::Result {
                        __formatter.write_str("struct __ToolInputOf")
                    }

                    #[inline]
                    fn visit_map<__A: #serde::de::MapAccess<'de>>(
                        self,
                        mut __map: __A,
                    ) -> ::core::result::Result<Self::Value, __A::Error> {
                        #(let mut #slots: ::core::option::Option<#generics> = ::core::option::Option::None;)*
                        while let ::core::option::Option::Some(__at) =
                            __map.next_key_seed(#private::FieldKey {
                                fields: __FIELDS,
                                position: __position,
                            })?
                        {
                            match __at {
                                #(#positions => {
                                    if #slots.is_some() {
                                        return ::core::result::Result::Err(
                                            <__A::Error as #serde::de::Error>::duplicate_field(#names),
                                        );
                                    }
                                    #slots = ::core::option::Option::Some(__map.next_value()?);
                                })*
                                _ => {}
                            }
                        }
                        ::core::result::Result::Ok(__ToolInputOf {
                            #(#fields: match #slots {
                                ::core::option::Option::Some(__value) => __value,
                                ::core::option::Option::None => #private::missing_field(#names)?,
                            },)*
                        })
                    }
                }
                __deserializer.deserialize_struct(
                    "__ToolInputOf",
                    __FIELDS,
                    __Visitor(::core::marker::PhantomData),
                )
            }
        }
    }
}
