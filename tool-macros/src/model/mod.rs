//! What a `#[tool]` fn means (its name, its documentation, its fields, its injected context and
//! its return type) and what a `#[toolkit]` impl block means (its name and its tools), each
//! keeping the tokens it came from so errors point at them; a field's validation rules are read
//! in `rules`.

pub mod rules;

use proc_macro2::Span;
use syn::{Attribute, FnArg, Ident, ItemFn, Pat, ReturnType, Type};

use crate::attr::ToolAttr;
use crate::case::unraw;
use crate::error::at;

/// A `#[tool]` fn, read.
pub struct ToolFn {
    /// The options.
    pub attr: ToolAttr,
    /// The fn as the user wrote it, minus the attributes that belong to the tool.
    pub func: ItemFn,
    /// The advertised name, and the token it came from.
    pub name: String,
    /// Where the name was written: the `name = "..."` literal or the fn's identifier.
    pub name_span: Span,
    /// The doc comment, joined.
    pub doc: String,
    /// The parameters, in order.
    pub params: Vec<Param>,
    /// What the fn returns.
    pub output: Output,
    /// Whether the fn is a method of a `#[toolkit]` impl block.
    pub in_toolkit: bool,
}

/// One parameter of a tool fn.
pub struct Param {
    /// The whole parameter, for spans.
    pub arg: FnArg,
    /// Its name, when it is a plain identifier.
    pub ident: Option<Ident>,
    /// Its type.
    pub ty: Type,
    /// What it is for.
    pub role: Role,
    /// The `///`, `#[serde]` and `#[schemars]` attributes that go on its field.
    pub field_attrs: Vec<Attribute>,
    /// The `#[input]` attribute, if it has one.
    pub input_attr: Option<Attribute>,
}

/// What a parameter is for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A field of the input.
    Field,
    /// The whole input (`#[input]`).
    Input,
    /// The injected `&Context`.
    Context,
    /// `self` in any form.
    Receiver,
}

/// The return type of a tool fn.
pub struct Output {
    /// The declared type; `None` for `()`.
    pub ty: Option<Type>,
    /// Whether it is a `Result` (by its last path segment, so aliases like `io::Result<T>`
    /// count).
    pub is_result: bool,
}

impl ToolFn {
    /// Reads a fn and its options; removes from the fn the parameter attributes that belong to
    /// the tool, since they are not valid on a fn.
    pub fn new(attr: ToolAttr, mut func: ItemFn, in_toolkit: bool) -> Self {
        let (name, name_span) = match &attr.name {
            Some(lit) => (lit.value(), lit.span()),
            None => {
                let ident = &func.sig.ident;
                (unraw(ident), ident.span())
            }
        };
        let doc = doc_of(&func.attrs);
        let params = func.sig.inputs.iter_mut().map(Param::take).collect();
        let output = match &func.sig.output {
            ReturnType::Default => Output {
                ty: None,
                is_result: false,
            },
            ReturnType::Type(_, ty) => Output {
                is_result: is_result(ty),
                ty: Some((**ty).clone()),
            },
        };
        ToolFn {
            attr,
            func,
            name,
            name_span,
            doc,
            params,
            output,
            in_toolkit,
        }
    }

    /// The struct `#[tool]` makes for a free fn, named after it (`note_write` → `NoteWrite`),
    /// spanned at the fn's name.
    pub fn struct_ident(&self) -> Ident {
        let ident = &self.func.sig.ident;
        Ident::new(&crate::case::pascal_case(&unraw(ident)), ident.span())
    }

    /// Whether the fn takes `self` (in a toolkit, `&self`).
    pub fn has_receiver(&self) -> bool {
        self.params.iter().any(|param| param.role == Role::Receiver)
    }

    /// The description: the `description` option, else the doc comment.
    pub fn description(&self) -> String {
        self.attr
            .description
            .clone()
            .unwrap_or_else(|| self.doc.clone())
    }

    /// The input fields: parameters that are neither the context nor `self`.
    pub fn fields(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|param| param.role == Role::Field)
    }

    /// The `#[input]` parameter, if there is one.
    pub fn whole_input(&self) -> Option<&Param> {
        self.params.iter().find(|param| param.role == Role::Input)
    }
}

impl Param {
    fn take(arg: &mut FnArg) -> Param {
        let original = arg.clone();
        match arg {
            FnArg::Receiver(receiver) => Param {
                arg: original,
                ident: None,
                ty: match &receiver.kind {
                    syn::ReceiverKind::Typed(_, ty) => (**ty).clone(),
                    syn::ReceiverKind::Reference(..) => syn::parse_quote!(&Self),
                    _ => syn::parse_quote!(Self),
                },
                role: Role::Receiver,
                field_attrs: Vec::new(),
                input_attr: None,
            },
            FnArg::Typed(typed) => {
                let mut field_attrs = Vec::new();
                let mut input_attr = None;
                typed.attrs.retain(|attr| {
                    if attr.path().is_ident("input") {
                        input_attr = Some(attr.clone());
                        false
                    } else if ["doc", "serde", "schemars"]
                        .iter()
                        .any(|name| attr.path().is_ident(name))
                    {
                        field_attrs.push(attr.clone());
                        false
                    } else {
                        true
                    }
                });
                let ident = match &*typed.pat {
                    Pat::Ident(pat) if pat.subpat.is_none() => Some(pat.ident.clone()),
                    _ => None,
                };
                let role = if is_context(&typed.ty) {
                    Role::Context
                } else if input_attr.is_some() {
                    Role::Input
                } else {
                    Role::Field
                };
                Param {
                    arg: original,
                    ident,
                    ty: (*typed.ty).clone(),
                    role,
                    field_attrs,
                    input_attr,
                }
            }
        }
    }
}

/// `&Context` or `&path::to::Context`, by the type's last segment.
fn is_context(ty: &Type) -> bool {
    match ty {
        Type::Reference(reference) => last_segment_is(&reference.elem, "Context"),
        _ => false,
    }
}

/// `Result<T, E>`, `io::Result<T>` or any type whose last segment is `Result`.
fn is_result(ty: &Type) -> bool {
    last_segment_is(ty, "Result")
}

/// Whether a path type's last segment is `name`, seen through parentheses and the invisible
/// groups of `macro_rules!`; a qualified path (`<T as Trait>::Result`) is not.
pub fn last_segment_is(ty: &Type, name: &str) -> bool {
    match ty {
        Type::Path(path) if path.qself.is_none() => path
            .path
            .segments
            .last()
            .is_some_and(|segment| segment.ident == name),
        Type::Group(group) => last_segment_is(&group.elem, name),
        Type::Paren(paren) => last_segment_is(&paren.elem, name),
        _ => false,
    }
}

/// The text of `///` comments, one space of indent removed from each line, trimmed.
pub fn doc_of(attrs: &[Attribute]) -> String {
    let lines: Vec<String> = doc_parts(attrs)
        .filter_map(|part| match part {
            DocPart::Text(text) => Some(text),
            DocPart::Unread(_) => None,
        })
        .collect();
    lines.join("\n").trim().to_owned()
}

/// One `#[doc = ...]` of an item.
pub enum DocPart<'a> {
    /// A literal's text, each line as [`doc_lines`] reads it.
    Text(String),
    /// What the macro cannot read (`include_str!("note.md")`), which the compiler can.
    Unread(&'a syn::Expr),
}

/// The `#[doc = ...]` attributes of an item, in order.
pub fn doc_parts(attrs: &[Attribute]) -> impl Iterator<Item = DocPart<'_>> {
    (attrs.iter())
        .filter(|attr| attr.path().is_ident("doc"))
        .filter_map(|attr| match &attr.meta {
            syn::Meta::NameValue(meta) => Some(match &meta.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(text),
                    ..
                }) => DocPart::Text(doc_lines(&text.value())),
                other => DocPart::Unread(other),
            }),
            _ => None,
        })
}

/// One `#[doc = "..."]`'s text as a doc comment reads: each line without its first space and
/// its trailing ones.
fn doc_lines(text: &str) -> String {
    (text.split('\n'))
        .map(|line| line.strip_prefix(' ').unwrap_or(line).trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A `#[toolkit]` impl block, read.
pub struct Toolkit {
    /// The impl block, minus the `#[tool]` attributes and parameter attributes.
    pub item: syn::ItemImpl,
    /// The toolkit's name.
    pub name: String,
    /// Where the name was written: the `name = "..."` literal or the type.
    pub name_span: Span,
    /// Whether the name was written with `name = "..."`, not made from the type's name.
    pub explicit_name: bool,
    /// Its tools, in order.
    pub tools: Vec<ToolFn>,
    /// What each of its tools must say (`#[toolkit(require(..))]`).
    pub require: crate::attr::Require,
}

impl Toolkit {
    /// Reads an impl block: each method marked `#[tool(...)]` becomes a tool, its options read
    /// by `read_tool`; the errors of all of them come back together.
    pub fn new(
        attr: crate::attr::ToolkitAttr,
        mut item: syn::ItemImpl,
        read_tool: impl Fn(proc_macro2::TokenStream) -> (ToolAttr, Option<syn::Error>),
    ) -> (Toolkit, Vec<syn::Error>) {
        let mut errors = Vec::new();
        let (name, name_span) = match &attr.name {
            Some(lit) => (lit.value(), lit.span()),
            None => {
                let ident = type_ident(&item.self_ty);
                let name = ident
                    .as_ref()
                    .map_or_else(String::new, |ident| crate::case::snake_case(&unraw(ident)));
                (name, syn::spanned::Spanned::span(&item.self_ty))
            }
        };
        let toolkit_scopes = attr.scopes.clone();
        let require = attr.require.unwrap_or_default();
        let mut tools = Vec::new();
        for impl_item in &mut item.items {
            let syn::ImplItem::Fn(method) = impl_item else {
                continue;
            };
            let Some(position) = method.attrs.iter().position(is_tool_attr) else {
                continue;
            };
            let tool_attr = method.attrs.remove(position);
            // The method keeps a `#[tool(...)]` of the path the user wrote, marked as handled,
            // so that the import of `tool` counts as used and the attribute expands to nothing.
            let path = tool_attr.path().clone();
            let mark = Ident::new(IN_TOOLKIT, Span::call_site());
            method.attrs.push(syn::parse_quote!(#[#path(#mark)]));
            let args = match tool_attr.meta {
                syn::Meta::Path(_) => proc_macro2::TokenStream::new(),
                syn::Meta::List(list) => list.tokens,
                syn::Meta::NameValue(meta) => {
                    errors.push(at(&meta, "write `#[tool]` or `#[tool(...)]`"));
                    continue;
                }
            };
            let (mut attr, error) = read_tool(args);
            // The toolkit's scopes come first: every tool of it needs them.
            attr.scopes.splice(0..0, toolkit_scopes.iter().cloned());
            errors.extend(error);
            let func = ItemFn {
                attrs: method.attrs.clone(),
                vis: method.vis.clone(),
                modifiers: method.modifiers.clone(),
                sig: method.sig.clone(),
                block: Box::new(method.block.clone()),
            };
            let tool = ToolFn::new(attr, func, true);
            // The parameter attributes that belong to the tool are not valid on a method, and
            // a second `#[tool]`, an error of the tool's, would expand on the method itself.
            method.sig = tool.func.sig.clone();
            method
                .attrs
                .retain(|attr| !is_tool_attr(attr) || is_toolkit_mark(attr));
            tools.push(tool);
        }
        let toolkit = Toolkit {
            explicit_name: attr.name.is_some(),
            item,
            name,
            name_span,
            tools,
            require,
        };
        (toolkit, errors)
    }
}

/// What a toolkit writes in the `#[tool(...)]` it leaves on a method it has read, so that the
/// attribute expands to nothing.
pub const IN_TOOLKIT: &str = "__in_toolkit";

/// Whether `attr` is the `#[tool(__in_toolkit)]` a toolkit leaves on a method it has read.
pub fn is_toolkit_mark(attr: &Attribute) -> bool {
    match &attr.meta {
        syn::Meta::List(list) => is_tool_attr(attr) && list.tokens.to_string() == IN_TOOLKIT,
        _ => false,
    }
}

/// `#[tool]`, `#[tool(...)]` or `#[path::to::tool(...)]`.
pub fn is_tool_attr(attr: &Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|segment| segment.ident == "tool")
}

/// The identifier of a type's last path segment (`Notes` of `crate::Notes`).
fn type_ident(ty: &Type) -> Option<Ident> {
    match ty {
        Type::Path(path) => path
            .path
            .segments
            .last()
            .map(|segment| segment.ident.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use syn::parse_quote;

    use super::*;

    #[test]
    fn unraw_drops_the_r_hash() {
        assert_eq!(unraw(&parse_quote!(r#type)), "type");
        assert_eq!(unraw(&parse_quote!(note_write)), "note_write");
    }

    #[test]
    fn doc_of_joins_the_doc_lines_without_their_first_space() {
        let func: ItemFn = parse_quote! {
            ///
            /// Reads a note.
            ///   Indented.
            #[inline]
            #[doc = "From an attribute."]
            #[doc = concat!("not", "read")]
            ///
            fn note_read() {}
        };
        assert_eq!(
            doc_of(&func.attrs),
            "Reads a note.\n  Indented.\nFrom an attribute."
        );
        assert_eq!(doc_of(&[]), "");
    }

    #[test]
    fn types_are_known_by_their_last_segment() {
        let context: [Type; 3] = [
            parse_quote!(&Context),
            parse_quote!(&'a tool_core::Context),
            parse_quote!(&mut Context),
        ];
        assert!(context.iter().all(is_context));
        let not_context: [Type; 3] = [
            parse_quote!(Context),
            parse_quote!(&ContextLike),
            parse_quote!(&<T as Trait>::Context),
        ];
        assert!(!not_context.iter().any(is_context));
        let result: [Type; 3] = [
            parse_quote!(Result<u8, Error>),
            parse_quote!(std::io::Result<u8>),
            parse_quote!((Result<u8, Error>)),
        ];
        assert!(result.iter().all(is_result));
        let not_result: [Type; 3] = [
            parse_quote!(Vec<Result<u8, Error>>),
            parse_quote!(&Result<u8, Error>),
            parse_quote!(Option<u8>),
        ];
        assert!(!not_result.iter().any(is_result));
    }

    #[test]
    fn type_ident_is_the_last_segment_of_a_path() {
        let ident = |ty: Type| type_ident(&ty).map(|ident| ident.to_string());
        assert_eq!(ident(parse_quote!(crate::Notes)).as_deref(), Some("Notes"));
        assert_eq!(ident(parse_quote!(Notes<u8>)).as_deref(), Some("Notes"));
        assert_eq!(ident(parse_quote!(&Notes)), None);
    }

    #[test]
    fn each_parameter_gets_its_role_and_its_attributes() {
        let func: ItemFn = parse_quote! {
            async fn note_write(
                &self,
                /// The note.
                #[serde(default)]
                #[allow(unused)]
                text: String,
                ctx: &tool_core::Context,
                #[input] args: Args,
                (a, b): (u8, u8),
            ) {}
        };
        let tool = ToolFn::new(ToolAttr::default(), func, true);
        let roles: Vec<Role> = tool.params.iter().map(|param| param.role).collect();
        assert!(
            roles
                == [
                    Role::Receiver,
                    Role::Field,
                    Role::Context,
                    Role::Input,
                    Role::Field
                ]
        );
        let text = &tool.params[1];
        assert_eq!(text.ident.as_ref().unwrap(), "text");
        assert_eq!(
            text.field_attrs.len(),
            2,
            "the doc and #[serde], not #[allow]"
        );
        assert!(tool.params[3].input_attr.is_some());
        assert!(tool.params[4].ident.is_none(), "a pattern has no name");
        // The fn keeps only the attributes that are valid on it.
        let kept: Vec<usize> = tool
            .func
            .sig
            .inputs
            .iter()
            .map(|arg| match arg {
                FnArg::Typed(typed) => typed.attrs.len(),
                FnArg::Receiver(receiver) => receiver.attrs.len(),
            })
            .collect();
        assert_eq!(kept, [0, 1, 0, 0, 0]);
        assert_eq!(tool.name, "note_write");
        assert!(tool.has_receiver());
        assert!(tool.whole_input().is_some());
    }
}
