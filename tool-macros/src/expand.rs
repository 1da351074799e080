//! The code the macros write: for `#[tool]`, the fn as it was, a unit struct named after it, and
//! that struct's `Tool` impl with its input type, schema and call; for `#[toolkit]`, the impl
//! block and one such `Tool` per method; for `registry!`, the composed `Registry`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::case::pascal_case;
use crate::check;
use crate::model::{Role, ToolFn, unraw};

/// `#[tool(args)] item`.
pub fn tool(args: TokenStream, item: TokenStream) -> darling::Result<TokenStream> {
    // A method of a `#[toolkit]` impl, which the toolkit has already expanded.
    if args.to_string() == "__in_toolkit" {
        return Ok(item);
    }
    let func = match syn::parse2::<syn::Item>(item)? {
        syn::Item::Fn(func) => func,
        other => {
            return Err(darling::Error::custom(
                "`#[tool]` goes on a fn, such as `#[tool] async fn note_write(text: String)`",
            )
            .with_span(&item_keyword_span(&other)));
        }
    };
    // Read what we can even when the options are wrong, so every error shows at once.
    let (attr, attr_error) = crate::attr::read(args);
    let model = ToolFn::new(attr, func, false);
    let mut errors = darling::Error::accumulator();
    if let Some(error) = attr_error {
        errors.push(error);
    }
    errors.handle(check::tool(&model));
    if let Err(error) = errors.finish() {
        // Keep the fn, so its callers don't add errors of their own.
        let func = &model.func;
        let errors = error.write_errors();
        return Ok(quote!(#func #errors));
    }
    Ok(expand(&model))
}

/// `#[toolkit(args)] impl Type { ... }`.
pub fn toolkit(args: TokenStream, item: TokenStream) -> darling::Result<TokenStream> {
    let item = match syn::parse2::<syn::Item>(item)? {
        syn::Item::Impl(item) => item,
        other => {
            return Err(darling::Error::custom(
                "`#[toolkit]` goes on an impl block whose methods are tools, such as \
                 `#[toolkit(name = \"note\")] impl Notes { #[tool] async fn note_read(&self, id: u64) ... }`",
            )
            .with_span(&item_keyword_span(&other)));
        }
    };
    let (attr, attr_error) = crate::attr::read_toolkit(args);
    let (model, read_errors) = crate::model::Toolkit::new(attr, item, crate::attr::read);
    let mut errors = darling::Error::accumulator();
    errors.extend(attr_error);
    errors.extend(read_errors);
    errors.handle(check::toolkit(&model));
    let item = &model.item;
    if let Err(error) = errors.finish() {
        let errors = error.write_errors();
        return Ok(quote!(#item #errors));
    }
    let self_ty = &item.self_ty;
    let mut adapters = Vec::new();
    let mut tools = Vec::new();
    for tool in &model.tools {
        let method = &tool.func.sig.ident;
        let adapter = format_ident!("__{}Tool", pascal_case(&unraw(method)));
        let target = if tool.has_receiver() {
            quote!(self.0.#method)
        } else {
            quote!(<#self_ty>::#method)
        };
        let items = tool_items(tool, &adapter, target);
        tools.push(quote! {
            #[allow(non_camel_case_types)]
            struct #adapter(::std::sync::Arc<#self_ty>);
            #items
        });
        adapters.push(adapter);
    }
    let name = &model.name;
    let names = model.tools.iter().map(|tool| &tool.name);
    Ok(quote! {
        #item

        const _: () = {
            #(#tools)*

            impl ::tool_core::Toolkit for #self_ty {
                const NAME: &'static str = #name;
                const TOOL_NAMES: &'static [&'static str] = &[#(#names),*];

                fn into_tools(self) -> ::std::vec::Vec<::std::sync::Arc<dyn ::tool_core::Tool>> {
                    let __toolkit = ::std::sync::Arc::new(self);
                    ::std::vec![
                        #(::std::sync::Arc::new(#adapters(__toolkit.clone())) as ::std::sync::Arc<dyn ::tool_core::Tool>),*
                    ]
                }
            }
        };
    })
}

/// `registry![a, b, c]`: a `Registry` of toolkits and tools, whose tool names are checked to be
/// unique when the crate is built.
pub fn registry(input: TokenStream) -> darling::Result<TokenStream> {
    let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
    let exprs = syn::parse::Parser::parse2(parser, input)?;
    let types: Vec<_> = (0..exprs.len())
        .map(|index| format_ident!("__K{}", index))
        .collect();
    let values: Vec<_> = (0..exprs.len())
        .map(|index| format_ident!("__k{}", index))
        .collect();
    // One check per entry, against the entries before it, at that entry: a name used twice is
    // reported at its second use.
    let checks = exprs.iter().enumerate().map(|(index, expr)| {
        let earlier = &types[..index];
        let this = &types[index];
        quote_spanned! {expr.span()=>
            const {
                ::tool_core::__private::assert_unique_tool_names(
                    &[#(#earlier::TOOL_NAMES),*],
                    #this::TOOL_NAMES,
                )
            };
        }
    });
    let exprs = exprs.iter();
    Ok(quote! {{
        #[allow(non_snake_case, clippy::too_many_arguments)]
        fn __compose<#(#types: ::tool_core::Toolkit),*>(#(#values: #types),*) -> ::tool_core::Registry {
            #(#checks)*
            ::tool_core::__private::registry_from_toolkits(::std::vec![
                #((#types::NAME, ::tool_core::Toolkit::into_tools(#values))),*
            ])
        }
        __compose(#(#exprs),*)
    }})
}

fn item_keyword_span(item: &syn::Item) -> proc_macro2::Span {
    match item {
        syn::Item::Struct(item) => item.struct_token.span,
        syn::Item::Enum(item) => item.enum_token.span,
        syn::Item::Impl(item) => item.impl_token.span,
        syn::Item::Mod(item) => item.mod_token.span,
        syn::Item::Trait(item) => item.trait_token.span,
        syn::Item::Const(item) => item.const_token.span,
        syn::Item::Static(item) => item.static_token.span,
        syn::Item::Type(item) => item.type_token.span,
        other => other.span(),
    }
}

fn expand(tool: &ToolFn) -> TokenStream {
    let func = &tool.func;
    let vis = &func.vis;
    let fn_ident = &func.sig.ident;
    let struct_ident = format_ident!("{}", pascal_case(&unraw(fn_ident)), span = fn_ident.span());
    let struct_doc = format!(
        "The tool `{}`, made by `#[tool]` from [`{}`]: pass it to a `Registry`. It is also a \
         toolkit of one tool, named like the tool.",
        tool.name,
        unraw(fn_ident)
    );
    let items = tool_items(tool, &struct_ident, quote!(#fn_ident));
    let name = &tool.name;

    quote! {
        #func

        #[doc = #struct_doc]
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #struct_ident;

        #items

        impl ::tool_core::Toolkit for #struct_ident {
            const NAME: &'static str = #name;
            const TOOL_NAMES: &'static [&'static str] = &[#name];

            fn into_tools(self) -> ::std::vec::Vec<::std::sync::Arc<dyn ::tool_core::Tool>> {
                ::std::vec![::std::sync::Arc::new(self)]
            }
        }
    }
}

/// The input type, its schema cell and the `Tool` impl of `tool_type`, whose call runs
/// `target(arguments)`: the fn's path, or `self.0.method` for a toolkit method.
pub fn tool_items(tool: &ToolFn, tool_type: &syn::Ident, target: TokenStream) -> TokenStream {
    let (input_def, input_ty, input_ops) = input_type(tool);
    let meta = meta(tool);
    let args = call_arguments(tool);
    let await_ = tool.func.sig.asyncness.map(|_| quote!(.await));
    let name = &tool.name;
    let convert = convert_return(tool);
    let output_schema = output_schema(tool);
    let metadata = crate::metadata::builder_calls(&tool.attr.icon, &tool.attr.meta);
    let tags: Vec<_> = tool.attr.tags.iter().flat_map(|tags| &tags.0).collect();
    let metadata = if tags.is_empty() {
        metadata
    } else {
        quote!(#metadata .with_tags([#(#tags),*]))
    };

    quote! {
        const _: () = {
            #input_def

            static __INPUT_SCHEMA: ::tool_core::__private::SchemaCell =
                ::tool_core::__private::SchemaCell::new();
            static __OUTPUT_SCHEMA: ::tool_core::__private::OutputCell =
                ::tool_core::__private::OutputCell::new();
            const __INPUT: ::tool_core::__private::InputOps<#input_ty> = #input_ops;

            impl ::tool_core::Tool for #tool_type {
                fn definition(&self) -> ::tool_core::ToolDefinition {
                    ::tool_core::__private::definition(
                        &#meta,
                        (__INPUT.schema)(&__INPUT_SCHEMA),
                        #output_schema,
                    )
                    #metadata
                }

                fn call<'__a>(
                    &'__a self,
                    __arguments: &'__a ::tool_core::Arguments,
                    __ctx: &'__a ::tool_core::Context,
                ) -> ::tool_core::BoxFuture<'__a, ::core::result::Result<::tool_core::Output, ::tool_core::Refusal>> {
                    ::std::boxed::Box::pin(async move {
                        let __input = (__INPUT.parse)(__arguments, &__INPUT_SCHEMA, #name)?;
                        let __returned = #target(#args) #await_;
                        #convert
                    })
                }
            }
        };
    }
}

/// The input type: the user's `#[input]` struct, or a struct generated from the parameters;
/// its definition, its name, and the expression for its `InputOps`.
///
/// The generated struct is generic over its field types, and its `InputOps` come from a
/// generic fn whose bounds say `Parameter` of each, so that a parameter type without
/// `Deserialize` or `JsonSchema` is reported once, at that parameter, in words about
/// parameters, instead of many times from inside the derived impls.
fn input_type(tool: &ToolFn) -> (TokenStream, TokenStream, TokenStream) {
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

fn call_arguments(tool: &ToolFn) -> TokenStream {
    let args = tool.params.iter().filter_map(|param| match param.role {
        Role::Context => Some(quote!(__ctx)),
        Role::Input => Some(quote!(__input)),
        Role::Field => {
            let ident = &param.ident;
            Some(quote!(__input.#ident))
        }
        Role::Receiver => None,
    });
    quote!(#(#args),*)
}

fn meta(tool: &ToolFn) -> TokenStream {
    let name = &tool.name;
    let option = |value: &Option<String>| match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    };
    let title = option(&tool.attr.title);
    let summary = option(&tool.attr.summary);
    let description = tool.description();
    let read_only = tool.attr.readonly.is_present();
    let destructive = tool.attr.destructive.is_present();
    let idempotent = tool.attr.idempotent.is_present();
    let open_world = tool.attr.open_world.is_present();
    let allow_any = tool.attr.allow_any.is_present();
    let lenient = tool.attr.lenient.is_present();
    let task = tool.attr.task.is_present();
    let timeout = match &tool.attr.timeout {
        Some(timeout) => {
            let millis = timeout.0.as_millis() as u64;
            quote!(::core::option::Option::Some(#millis))
        }
        None => quote!(::core::option::Option::None),
    };
    quote! {
        ::tool_core::__private::Meta {
            name: #name,
            title: #title,
            description: #description,
            summary: #summary,
            annotations: ::tool_core::Annotations {
                read_only: #read_only,
                destructive: #destructive,
                idempotent: #idempotent,
                open_world: #open_world,
            },
            timeout_ms: #timeout,
            allow_any: #allow_any,
            lenient: #lenient,
            task: #task,
        }
    }
}

/// The type that becomes the output: the `T` of a `Result<T, E>`, else the return type.
fn ok_type(tool: &ToolFn) -> TokenStream {
    match &tool.output.ty {
        None => quote!(()),
        Some(ty) if tool.output.is_result => {
            quote_spanned!(ok_span(tool)=> <#ty as ::tool_core::__private::ResultParts>::Ok)
        }
        Some(ty) => quote!(#ty),
    }
}

/// Where an error about the output points: at `T` in `Result<T, E>`, else at the return type.
fn ok_span(tool: &ToolFn) -> proc_macro2::Span {
    match &tool.output.ty {
        None => proc_macro2::Span::call_site(),
        Some(ty) => result_argument(ty, 0).unwrap_or(ty).span(),
    }
}

/// The `index`th type argument of a `Result` return type as written (`Result<T, E>`,
/// `io::Result<T>`), if it has one.
fn result_argument(ty: &syn::Type, index: usize) -> Option<&syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let syn::PathArguments::AngleBracketed(args) = &path.path.segments.last()?.arguments else {
        return None;
    };
    args.args
        .iter()
        .filter_map(|arg| match arg {
            syn::GenericArgument::Type(ty) => Some(ty),
            _ => None,
        })
        .nth(index)
}

fn dispatch(tool: &ToolFn) -> TokenStream {
    let ok = ok_type(tool);
    let span = ok_span(tool);
    quote_spanned! {span=>
        {
            #[allow(unused_imports)]
            use ::tool_core::__private::{ViaIntoOutput as _, ViaNothing as _, ViaSerialize as _};
            (&&::tool_core::__private::Wrap::<#ok>::NEW).output_kind()
        }
    }
}

fn output_schema(tool: &ToolFn) -> TokenStream {
    let ok = ok_type(tool);
    let dispatch = dispatch(tool);
    quote_spanned!(ok_span(tool)=> #dispatch.output_schema::<#ok>())
}

fn convert_return(tool: &ToolFn) -> TokenStream {
    let dispatch = dispatch(tool);
    let Some(ty) = tool.output.ty.as_ref().filter(|_| tool.output.is_result) else {
        return quote!(#dispatch.convert(__returned, &__OUTPUT_SCHEMA));
    };
    let into_refusal = into_refusal(ty);
    quote! {
        match __returned {
            ::core::result::Result::Ok(__value) => #dispatch.convert(__value, &__OUTPUT_SCHEMA),
            ::core::result::Result::Err(__error) => ::core::result::Result::Err(#into_refusal),
        }
    }
}

/// `__error`, of the error type of the `Result` type `ty`, as a refusal. A boxed `dyn Error` or
/// an `anyhow::Error` is made one first; any other error goes to `into_refusal` as it is, whose
/// bound reports a type that is no error (see `tool_core::__private::ViaDynError`).
fn into_refusal(ty: &syn::Type) -> TokenStream {
    // At `E` in `Result<T, E>`; at the whole type for an alias such as `io::Result<T>`.
    let span = result_argument(ty, 1).unwrap_or(ty).span();
    quote_spanned! {span=>
        ::tool_core::__private::into_refusal({
            #[allow(unused_imports)]
            use ::tool_core::__private::{ViaDynError as _, ViaIntoRefusal as _};
            (&&::tool_core::__private::Wrap::<
                <#ty as ::tool_core::__private::ResultParts>::Err,
            >::NEW)
                .error_kind()
                .prepare(__error)
        })
    }
}

#[cfg(test)]
mod tests {
    use syn::parse_quote;

    use super::*;

    #[test]
    fn result_argument_is_a_type_argument_as_written() {
        let argument =
            |ty: syn::Type, index| result_argument(&ty, index).map(|ty| quote!(#ty).to_string());
        let result: syn::Type = parse_quote!(Result<u8, Error>);
        assert_eq!(argument(result.clone(), 0).as_deref(), Some("u8"));
        assert_eq!(argument(result, 1).as_deref(), Some("Error"));
        assert_eq!(argument(parse_quote!(io::Result<u8>), 1), None);
        assert_eq!(
            argument(parse_quote!(Result<'a, u8>), 0).as_deref(),
            Some("u8")
        );
        assert_eq!(argument(parse_quote!(Output), 0), None);
    }
}
