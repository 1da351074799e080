//! The code the macros write: for `#[tool]`, the fn as it was, a unit struct named after it, and
//! that struct's `Tool` impl with its input type, schema and call; for `#[toolkit]`, the impl
//! block and one such `Tool` per method; for `registry!`, the composed `Registry`.
//!
//! The parts: `input` (the input type and its schema cell), `output` (how the return type
//! becomes an output and its error a refusal), `metadata` (icons and `_meta`), `registry`
//! (`registry!`), `stand_in` (what a tool or toolkit with errors leaves, so that code naming
//! it adds no error).

mod input;
mod metadata;
mod output;
mod registry;
mod stand_in;

pub use self::registry::registry;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::spanned::Spanned;

use crate::case::pascal_case;
use crate::case::unraw;
use crate::check;
use crate::error::{Errors, at};
use crate::model::{Role, ToolFn};

/// `#[tool(args)] item`.
pub fn tool(args: TokenStream, item: TokenStream) -> crate::error::Result<TokenStream> {
    // A method of a `#[toolkit]` impl, which the toolkit has already expanded.
    if args.to_string() == crate::model::IN_TOOLKIT {
        return Ok(item);
    }
    let func = match syn::parse2::<syn::Item>(item)? {
        syn::Item::Fn(func) => func,
        other => {
            // A fn declared without a body (as in a trait) reaches here as tokens.
            let declared = match &other {
                syn::Item::Verbatim(tokens) => syn::parse2::<syn::TraitItemFn>(tokens.clone()).ok(),
                _ => None,
            };
            return Err(match declared {
                Some(declared) => at(
                    &declared.sig.fn_token,
                    "`#[tool]` goes on a fn with a body, and this fn is declared without one \
                     (as in a trait): write the tool as a free fn, or as a method of an impl \
                     block marked `#[toolkit]`",
                ),
                None => at(
                    &item_keyword_span(&other),
                    "`#[tool]` goes on a fn, such as `#[tool] async fn note_write(text: String)`",
                ),
            });
        }
    };
    // Read what we can even when the options are wrong, so every error shows at once.
    let (attr, attr_error) = crate::attr::read(args);
    let model = ToolFn::new(attr, func, false);
    let mut errors = Errors::default();
    if let Some(error) = attr_error {
        errors.push(error);
    }
    errors.handle(check::tool(&model));
    if let Err(error) = errors.finish() {
        // Keep the fn, and a stand-in for the tool it would have made, so that code calling
        // the fn or naming the tool adds no errors of its own to these. A second `#[tool]` on
        // the fn, an error here, would make a second stand-in.
        let mut func = model.func.clone();
        func.attrs.retain(|attr| {
            !crate::model::is_tool_attr(attr) || crate::model::is_toolkit_mark(attr)
        });
        let stand_in = stand_in::tool(&model);
        let errors = error.into_compile_error();
        return Ok(quote!(#func #stand_in #errors));
    }
    Ok(expand(&model))
}

/// `#[toolkit(args)] impl Type { ... }`.
pub fn toolkit(args: TokenStream, item: TokenStream) -> crate::error::Result<TokenStream> {
    let item = match syn::parse2::<syn::Item>(item)? {
        syn::Item::Impl(item) => item,
        other => {
            return Err(at(
                &item_keyword_span(&other),
                "`#[toolkit]` goes on an impl block whose methods are tools, such as \
                 `#[toolkit(name = \"note\")] impl Notes { #[tool] async fn note_read(&self, id: u64) ... }`",
            ));
        }
    };
    let (attr, attr_error) = crate::attr::read_toolkit(args);
    let (model, read_errors) = crate::model::Toolkit::new(attr, item, crate::attr::read);
    let mut errors = Errors::default();
    errors.extend(attr_error);
    errors.extend(read_errors);
    errors.handle(check::toolkit(&model));
    let item = &model.item;
    if let Err(error) = errors.finish() {
        // Keep the impl block and the type's `Toolkit` impl, as thiserror keeps the user's
        // item, so that a registry naming the toolkit adds no error to these.
        let stand_in = stand_in::toolkit(&model);
        let errors = error.into_compile_error();
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
    let count = adapters.len();
    Ok(quote! {
        #item

        const _: () = {
            #(#tools)*

            impl ::tool_core::tool::Toolkit for #self_ty {
                const NAME: &'static str = #name;
                const TOOL_NAMES: &'static [&'static str] = &[#(#names),*];

                // One push per tool, not `vec![...]`: an array literal's unwinding drops every
                // element made before the one that panicked, which compiles to code that grows
                // with the square of the number of tools.
                fn into_tools(self) -> ::std::vec::Vec<::std::sync::Arc<dyn ::tool_core::tool::Tool>> {
                    let __toolkit = ::std::sync::Arc::new(self);
                    let mut __tools: ::std::vec::Vec<::std::sync::Arc<dyn ::tool_core::tool::Tool>> =
                        ::std::vec::Vec::with_capacity(#count);
                    #(__tools.push(::std::sync::Arc::new(#adapters(__toolkit.clone())));)*
                    __tools
                }
            }
        };
    })
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
    let struct_ident = tool.struct_ident();
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

        impl ::tool_core::tool::Toolkit for #struct_ident {
            const NAME: &'static str = #name;
            const TOOL_NAMES: &'static [&'static str] = &[#name];

            fn into_tools(self) -> ::std::vec::Vec<::std::sync::Arc<dyn ::tool_core::tool::Tool>> {
                ::std::vec![::std::sync::Arc::new(self)]
            }
        }
    }
}

/// The input type, its schema cell and the `Tool` impl of `tool_type`, whose call runs
/// `target(arguments)`: the fn's path, or `self.0.method` for a toolkit method.
pub fn tool_items(tool: &ToolFn, tool_type: &syn::Ident, target: TokenStream) -> TokenStream {
    let (input_def, input_ty, input_ops) = input::input_type(tool);
    let meta = meta(tool);
    let args = call_arguments(tool);
    let await_ = tool.func.sig.asyncness.map(|_| quote!(.await));
    let name = &tool.name;
    let convert = output::convert_return(tool);
    let output_schema = output::output_schema(tool);
    let metadata = metadata::builder_calls(&tool.attr.icon, &tool.attr.meta);
    let tags: Vec<_> = tool.attr.tags.iter().flat_map(|tags| &tags.0).collect();
    let metadata = if tags.is_empty() {
        metadata
    } else {
        quote!(#metadata .with_tags([#(#tags),*]))
    };
    let scopes: Vec<_> = tool
        .attr
        .scopes
        .iter()
        .flat_map(|scopes| &scopes.0)
        .collect();
    let metadata = if scopes.is_empty() {
        metadata
    } else {
        quote!(#metadata .with_scopes([#(#scopes),*]))
    };

    quote! {
        const _: () = {
            #input_def

            static __INPUT_SCHEMA: ::tool_core::__private::SchemaCell =
                ::tool_core::__private::SchemaCell::new();
            static __OUTPUT_SCHEMA: ::tool_core::__private::OutputCell =
                ::tool_core::__private::OutputCell::new();
            const __INPUT: ::tool_core::__private::InputOps<#input_ty> = #input_ops;

            impl ::tool_core::tool::Tool for #tool_type {
                fn definition(&self) -> ::tool_core::tool::ToolDefinition {
                    ::tool_core::__private::definition(
                        &#meta,
                        (__INPUT.prepared)(&__INPUT_SCHEMA),
                        #output_schema,
                    )
                    #metadata
                }

                fn call<'__a>(
                    &'__a self,
                    __arguments: &'__a ::tool_core::call::Arguments,
                    __ctx: &'__a ::tool_core::call::Context,
                ) -> ::tool_core::call::BoxFuture<'__a, ::core::result::Result<::tool_core::outcome::Output, ::tool_core::outcome::Refusal>> {
                    ::std::boxed::Box::pin(async move {
                        let __input = (__INPUT.parse)(__arguments, &__INPUT_SCHEMA, #name)?;
                        let __returned = #target(#args) #await_;
                        #convert
                    })
                }

                fn __makes_its_future_only(&self) -> bool {
                    true
                }
            }
        };
    }
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
    let description = match (&tool.attr.description, doc_joined(&tool.func.attrs)) {
        (None, Some(joined)) => joined,
        _ => {
            let description = tool.description();
            quote!(#description)
        }
    };
    let read_only = tool.attr.readonly.is_present();
    let destructive = tool.attr.destructive.is_present();
    let idempotent = tool.attr.idempotent.is_present();
    let open_world = tool.attr.open_world.is_present();
    let allow_any = tool.attr.allow_any.is_present();
    let lenient = tool.attr.lenient.is_present();
    let task = tool.attr.task.is_some();
    let task_required = tool.attr.task == Some(crate::attr::TaskAttr::Required);
    let task_after_input = tool.attr.task == Some(crate::attr::TaskAttr::AfterInput);
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
            annotations: ::tool_core::tool::Annotations {
                read_only: #read_only,
                destructive: #destructive,
                idempotent: #idempotent,
                open_world: #open_world,
            },
            timeout_ms: #timeout,
            allow_any: #allow_any,
            lenient: #lenient,
            task: #task,
            task_required: #task_required,
            task_after_input: #task_after_input,
            rules: &[#(#rules),*],
        }
    }
}

/// A doc comment with a part the macro cannot read (`#[doc = include_str!("note.md")]`), as
/// a `concat!` of its parts in order, a line apart, each literal one as
/// [`crate::model::doc_of`] reads it:
/// the compiler writes the text the macro never sees. `None` where every part is a literal.
fn doc_joined(attrs: &[syn::Attribute]) -> Option<TokenStream> {
    let mut joined = Vec::new();
    let mut read_whole = true;
    for part in crate::model::doc_parts(attrs) {
        if !joined.is_empty() {
            joined.push(quote!("\n"));
        }
        joined.push(match part {
            crate::model::DocPart::Text(text) => quote!(#text),
            crate::model::DocPart::Unread(unread) => {
                read_whole = false;
                quote!(#unread)
            }
        });
    }
    (!read_whole).then(|| quote!(::core::concat!(#(#joined),*)))
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
        let field = crate::model::rules::of(&param.field_attrs);
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
