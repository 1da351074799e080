//! What a `#[tool]` fn means: its name, its documentation, its fields, its injected context and
//! its return type, each keeping the tokens it came from so errors point at them.

use proc_macro2::Span;
use syn::{Attribute, FnArg, Ident, ItemFn, Pat, ReturnType, Type};

use crate::attr::ToolAttr;

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
    pub fn new(attr: ToolAttr, mut func: ItemFn) -> Self {
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
        }
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
                ty: (*receiver.ty).clone(),
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

fn is_result(ty: &Type) -> bool {
    last_segment_is(ty, "Result")
}

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

/// An identifier without its `r#`.
pub fn unraw(ident: &Ident) -> String {
    let text = ident.to_string();
    text.strip_prefix("r#").map(str::to_owned).unwrap_or(text)
}

/// The text of `///` comments, one space of indent removed from each line, trimmed.
pub fn doc_of(attrs: &[Attribute]) -> String {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|attr| attr.path().is_ident("doc"))
        .filter_map(|attr| match &attr.meta {
            syn::Meta::NameValue(meta) => match &meta.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(text),
                    ..
                }) => Some(text.value()),
                _ => None,
            },
            _ => None,
        })
        .flat_map(|text| {
            text.split('\n')
                .map(|line| line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    lines.join("\n").trim().to_owned()
}

/// `note_write` → `NoteWrite`.
pub fn pascal_case(snake: &str) -> String {
    snake
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        })
        .collect()
}
