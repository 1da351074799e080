//! The code the macros write: for `#[tool]`, the fn as it was, a unit struct named after it, and
//! that struct's `Tool` impl with its input type, schema and call; for `#[toolkit]`, the impl
//! block and one such `Tool` per method; for `registry!`, the composed `Registry`.

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};
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
        // Keep the fn, and a stand-in for the tool it would have made, so that code calling
        // the fn or naming the tool adds no errors of its own to these.
        let func = &model.func;
        let stand_in = stand_in_tool(&model);
        let errors = error.write_errors();
        return Ok(quote!(#func #stand_in #errors));
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
        // Keep the impl block and the type's `Toolkit` impl, as thiserror keeps the user's
        // item, so that a registry naming the toolkit adds no error to these.
        let stand_in = stand_in_toolkit(&model);
        let errors = error.write_errors();
        return Ok(quote!(#item #stand_in #errors));
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
/// unique when the crate is checked (or, for entries whose type the macro cannot read, built),
/// and whose schemas are checked when it runs.
///
/// An entry whose type the macro can read from its tokens (see [`named_type`]) is compared
/// with the other such entries in a constant outside any generic code, which `cargo check`
/// evaluates; the comparisons that involve any other entry live in a constant of the generic
/// fn that takes the entries, which only code generation (`cargo build`) evaluates. Each pair
/// of entries is compared once, so one repeat is one error.
pub fn registry(input: TokenStream) -> darling::Result<TokenStream> {
    let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
    let exprs = syn::parse::Parser::parse2(parser, input)?;
    let named: Vec<Option<syn::Path>> = exprs.iter().map(named_type).collect();
    // The type of each entry: the one it names, else a type parameter of `__compose`.
    let types: Vec<TokenStream> = named
        .iter()
        .enumerate()
        .map(|(index, named)| match named {
            Some(path) => quote!(#path),
            None => format_ident!("__K{}", index).to_token_stream(),
        })
        .collect();
    let generics: Vec<syn::Ident> = (0..exprs.len())
        .filter(|&index| named[index].is_none())
        .map(|index| format_ident!("__K{}", index))
        .collect();
    let values: Vec<_> = (0..exprs.len())
        .map(|index| format_ident!("__k{}", index))
        .collect();
    let names_of = |index: usize| {
        let ty = &types[index];
        quote!(<#ty as ::tool_core::Toolkit>::TOOL_NAMES)
    };
    let mut checked = Vec::new();
    let mut built = Vec::new();
    for (index, expr) in exprs.iter().enumerate() {
        // Against the entries before it, at this entry: a name used twice is reported at its
        // second use.
        let (statically, generically): (Vec<usize>, Vec<usize>) =
            (0..index).partition(|&earlier| named[earlier].is_some() && named[index].is_some());
        let this = names_of(index);
        if named[index].is_some() {
            let earlier = statically.into_iter().map(names_of);
            checked.push(quote_spanned! {expr.span()=>
                const _: () = ::tool_core::__private::assert_unique_tool_names(
                    &[#(#earlier),*],
                    #this,
                );
            });
        }
        if !generically.is_empty() || named[index].is_none() {
            let earlier = generically.into_iter().map(names_of);
            built.push(quote_spanned! {expr.span()=>
                const {
                    ::tool_core::__private::assert_unique_tool_names(&[#(#earlier),*], #this)
                };
            });
        }
    }
    let exprs = exprs.iter();
    Ok(quote! {{
        #(#checked)*
        #[allow(non_snake_case, clippy::too_many_arguments)]
        fn __compose<#(#generics: ::tool_core::Toolkit),*>(#(#values: #types),*) -> ::tool_core::Registry {
            #(#built)*
            ::tool_core::__private::registry_from_toolkits(::std::vec![
                #((<#types as ::tool_core::Toolkit>::NAME, ::tool_core::Toolkit::into_tools(#values))),*
            ])
        }
        __compose(#(#exprs),*)
    }})
}

/// The type of a `registry![...]` entry, where its tokens say it: a unit struct
/// (`WebSearch`, `tools::WebSearch`), a struct literal (`Notes { store }`), or `new` or
/// `default` called on a type (`Notes::new(store)`, `Notes::default()`), taken to return that
/// type. A path is taken for a type when its last segment is written in upper camel case
/// (`ALL_CAPS` is a constant's); anything else (a variable, a call of another fn) is left to
/// the generic fn.
fn named_type(expr: &syn::Expr) -> Option<syn::Path> {
    let type_path = |path: &syn::Path| {
        let last = path.segments.last()?;
        let text = last.ident.to_string();
        let camel = text.starts_with(|c: char| c.is_ascii_uppercase())
            && text.chars().any(|c| c.is_ascii_lowercase());
        let plain = path
            .segments
            .iter()
            .all(|segment| segment.arguments.is_none());
        (camel && plain && last.ident != "Self").then(|| path.clone())
    };
    match expr {
        syn::Expr::Path(path) if path.qself.is_none() => type_path(&path.path),
        syn::Expr::Struct(literal) if literal.qself.is_none() => type_path(&literal.path),
        syn::Expr::Call(call) => {
            let syn::Expr::Path(func) = &*call.func else {
                return None;
            };
            let mut path = func.path.clone();
            let constructor = path.segments.pop()?.into_value();
            if func.qself.is_some()
                || path.segments.is_empty()
                || !(constructor.ident == "new" || constructor.ident == "default")
            {
                return None;
            }
            path.segments.pop_punct();
            type_path(&path)
        }
        syn::Expr::Paren(paren) => named_type(&paren.expr),
        syn::Expr::Group(group) => named_type(&group.expr),
        _ => None,
    }
}

/// For a `#[tool]` fn with errors: its unit struct, a `Tool` and a `Toolkit` that never run
/// (the crate does not compile). None for a method, which cannot have a struct beside it.
fn stand_in_tool(tool: &ToolFn) -> TokenStream {
    if tool.has_receiver() {
        return TokenStream::new();
    }
    let vis = &tool.func.vis;
    let fn_ident = &tool.func.sig.ident;
    let struct_ident = format_ident!("{}", pascal_case(&unraw(fn_ident)), span = fn_ident.span());
    let name = &tool.name;
    quote! {
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #struct_ident;

        impl ::tool_core::Tool for #struct_ident {
            fn definition(&self) -> ::tool_core::ToolDefinition {
                ::tool_core::__private::stand_in_definition(#name)
            }

            fn call<'__a>(
                &'__a self,
                _: &'__a ::tool_core::Arguments,
                _: &'__a ::tool_core::Context,
            ) -> ::tool_core::BoxFuture<'__a, ::core::result::Result<::tool_core::Output, ::tool_core::Refusal>> {
                ::tool_core::__private::stand_in_call()
            }
        }

        impl ::tool_core::Toolkit for #struct_ident {
            const NAME: &'static str = #name;
            const TOOL_NAMES: &'static [&'static str] = &[#name];

            fn into_tools(self) -> ::std::vec::Vec<::std::sync::Arc<dyn ::tool_core::Tool>> {
                ::std::vec::Vec::new()
            }
        }
    }
}

/// For a `#[toolkit]` with errors: the type's `Toolkit` impl, listing each tool name once,
/// with no tools (the crate does not compile). None for a trait impl or a generic one, whose
/// type the stand-in could not name alone.
fn stand_in_toolkit(toolkit: &crate::model::Toolkit) -> TokenStream {
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
        impl ::tool_core::Toolkit for #self_ty {
            const NAME: &'static str = #name;
            const TOOL_NAMES: &'static [&'static str] = &[#(#names),*];

            fn into_tools(self) -> ::std::vec::Vec<::std::sync::Arc<dyn ::tool_core::Tool>> {
                ::std::vec::Vec::new()
            }
        }
    }
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
    let rules = declared_rules(tool);
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
            rules: &[#(#rules),*],
        }
    }
}

/// The rules each field's `#[schemars(...)]` declares, for the registry to find in the schema
/// schemars writes: a rule missing there was dropped because the field's type cannot take it,
/// where the macro could not tell from the type's tokens.
fn declared_rules(tool: &ToolFn) -> Vec<TokenStream> {
    let mut declared = Vec::new();
    for param in tool.fields() {
        let Some(ident) = &param.ident else {
            continue;
        };
        let field = crate::rules::of(&param.field_attrs);
        if field.schema_elsewhere {
            continue;
        }
        let name = field.rename.clone().unwrap_or_else(|| unraw(ident));
        for rule in &field.rules {
            let Some(needs) = rule.kind.needs() else {
                continue;
            };
            let written = rule.kind.written();
            let inner = rule.inner;
            declared.push(quote! {
                ::tool_core::__private::Declared {
                    field: #name,
                    rule: #written,
                    needs: &[#(#needs),*],
                    inner: #inner,
                }
            });
        }
    }
    declared
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
            use ::tool_core::__private::{
                ViaIntoOutput as _, ViaNothing as _, ViaSerialize as _, ViaSerializeOnly as _,
            };
            (&&&::tool_core::__private::Wrap::<#ok>::NEW).output_kind()
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
    fn an_entry_names_its_type_where_its_tokens_say_it() {
        let named = |expr: syn::Expr| named_type(&expr).map(|path| quote!(#path).to_string());
        assert_eq!(named(parse_quote!(WebSearch)).as_deref(), Some("WebSearch"));
        assert_eq!(
            named(parse_quote!(tools::WebSearch)).as_deref(),
            Some("tools :: WebSearch")
        );
        assert_eq!(
            named(parse_quote!(Notes { store })).as_deref(),
            Some("Notes")
        );
        assert_eq!(
            named(parse_quote!(Notes::new(store))).as_deref(),
            Some("Notes")
        );
        assert_eq!(
            named(parse_quote!((crate::Notes::default()))).as_deref(),
            Some("crate :: Notes")
        );
        for unnamed in [
            parse_quote!(notes),
            parse_quote!(TOOLS),
            parse_quote!(Self),
            parse_quote!(Notes::open(path)),
            parse_quote!(make_notes()),
            parse_quote!(Notes::<u8>::new()),
            parse_quote!(<Notes as Default>::default()),
            parse_quote!(notes.clone()),
        ] {
            let unnamed: syn::Expr = unnamed;
            assert_eq!(named(unnamed.clone()), None, "{}", quote!(#unnamed));
        }
    }

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
