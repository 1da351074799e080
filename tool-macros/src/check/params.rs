//! The mistakes a tool fn's parameters and signature can hold as a whole, beyond each
//! parameter's own: the context taken twice or given a field's attributes, two parameters read
//! from one field, an `#[input]` that no call's object of fields can be, a `#[cfg]` that would
//! leave the generated call an argument short, `#[tool]` written twice, `unsafe`, a struct
//! name that hides an item in scope. Each is an error at the token that is wrong.

use syn::visit::Visit;
use syn::{Attribute, Type};

use crate::case::{type_text, unraw};
use crate::error::{Errors, at, over};
use crate::model::{Param, Role, ToolFn, is_tool_attr, is_toolkit_mark, last_segment_is};

/// Types, named by their last path segment, that are plainly no struct of fields, with what
/// each is: read from a call, an `#[input]` of one of them is never its object of fields. (A
/// map is one, and `serde_json::Value` takes one; a type the macro cannot see through is
/// refused when the registry is made, its schema taking no object.)
const NOT_AN_INPUT: [(&str, &str); 23] = [
    ("u8", "a number"),
    ("u16", "a number"),
    ("u32", "a number"),
    ("u64", "a number"),
    ("u128", "a number"),
    ("usize", "a number"),
    ("i8", "a number"),
    ("i16", "a number"),
    ("i32", "a number"),
    ("i64", "a number"),
    ("i128", "a number"),
    ("isize", "a number"),
    ("f32", "a number"),
    ("f64", "a number"),
    ("bool", "a truth value"),
    ("char", "a text"),
    ("String", "a text"),
    ("str", "a text"),
    ("Vec", "a list"),
    ("VecDeque", "a list"),
    ("HashSet", "a list"),
    ("BTreeSet", "a list"),
    ("Option", "an optional value"),
];

/// Names of the prelude's types, which the struct `#[tool]` names after a free fn (`fn
/// result` → `struct Result`) would hide in the fn's whole module. (A name the module imports,
/// such as tool-core's `Context`, clashes only where it is imported, which rustc reports.)
const HIDDEN_BY_STRUCT: [&str; 5] = ["Result", "Option", "Vec", "String", "Box"];

/// Every mistake of `tool`'s parameters and signature taken together.
pub fn whole(tool: &ToolFn) -> crate::error::Result<()> {
    let mut errors = Errors::default();
    if let syn::Safety::Unsafe(unsafety) = &tool.func.sig.safety {
        errors.push(at(
            unsafety,
            "a tool cannot be an `unsafe fn`: its caller is a model, which can promise \
             nothing; make the fn safe, with the `unsafe` block it needs inside",
        ));
    }
    let second = (tool.func.attrs.iter()).find(|attr| is_tool_attr(attr) && !is_toolkit_mark(attr));
    if let Some(second) = second {
        errors.push(over(
            &second.meta,
            "`#[tool]` is written twice on this fn; keep one, with every option in it",
        ));
    }
    let contexts: Vec<&Param> = (tool.params.iter())
        .filter(|param| param.role == Role::Context)
        .collect();
    if let Some(second) = contexts.get(1) {
        errors.push(at(
            &second.arg,
            "a tool takes the context once; remove this parameter and use the first",
        ));
    }
    for param in &tool.params {
        for attr in (param.arg_attrs()).filter(|attr| attr.path().is_ident("cfg")) {
            errors.push(over(
                &attr.meta,
                "`#[cfg]` cannot go on a tool parameter: the tool's fields are read whatever \
                 is compiled; make the parameter an `Option`, or write the tool twice, each \
                 under its `#[cfg]`",
            ));
        }
        if param.role == Role::Context {
            let attrs = param.input_attr.iter().chain(param.field_attrs.iter());
            for attr in attrs.filter(|attr| !attr.path().is_ident("doc")) {
                errors.push(over(
                    &attr.meta,
                    "the context is injected, not read from the call, so this attribute says \
                     nothing of it; take it off",
                ));
            }
        }
        if param.role == Role::Input {
            errors.handle(input_type(param, tool));
        }
        let read = matches!(param.role, Role::Field | Role::Input);
        if let Some(self_type) = first_within(&param.ty, self_type).filter(|_| read) {
            errors.push(at(
                &self_type,
                "`Self` cannot name a tool parameter's type: the parameter becomes a field of the \
                 tool's own input struct, where `Self` is that struct; write the type's name",
            ));
        }
    }
    errors.handle(wire_names(tool));
    if !tool.in_toolkit {
        // A name of the prelude's is said once, as the type it hides.
        if errors.handle(struct_name(tool)).is_some() {
            errors.handle(signature_clash(tool));
        }
    }
    errors.finish()
}

/// The first type of a free fn's signature (a parameter's, the output's, within either) named
/// bare as the struct `#[tool]` names after the fn (`fn weather(..) -> Weather`): the two
/// names clash in the module. An `#[input]` of that name is said by [`input_type`].
fn signature_clash(tool: &ToolFn) -> crate::error::Result<()> {
    let Some(ty) = clashing_type(tool) else {
        return Ok(());
    };
    let generated = tool.struct_ident().to_string();
    let ident = unraw(&tool.func.sig.ident);
    let keep = keep_name(tool);
    // A tool named apart from its fn is best given that name, whose struct is another.
    let instead = match &tool.attr.name {
        Some(name) if name.value() != ident && crate::case::is_lower_snake_case(&name.value()) => {
            name.value()
        }
        _ => format!("{ident}_get"),
    };
    Err(at(
        &ty,
        format!(
            "`#[tool]` names this tool's struct `{generated}`, after the fn, and this type has \
             that name too, so the two would clash; rename the fn (`{instead}`, say){keep}"
        ),
    ))
}

/// [`signature_clash`]'s type, if there is one.
fn clashing_type(tool: &ToolFn) -> Option<syn::TypePath> {
    let generated = tool.struct_ident().to_string();
    let named = |ty: &Type| match ty {
        Type::Path(path)
            if path.qself.is_none()
                && path.path.leading_colon.is_none()
                && path.path.segments.len() == 1
                && path.path.segments[0].ident == generated =>
        {
            Some(path.clone())
        }
        _ => None,
    };
    let params = (tool.params.iter())
        .filter(|param| param.role != Role::Receiver)
        .filter(|param| !(param.role == Role::Input && is_local(&param.ty, &generated)))
        .map(|param| &param.ty);
    let output = match &tool.func.sig.output {
        syn::ReturnType::Type(_, ty) => Some(&**ty),
        syn::ReturnType::Default => None,
    };
    params.chain(output).find_map(|ty| first_within(ty, named))
}

/// An `#[input]` whose type is plainly no struct (`u64`, `Vec<_>`, `Option<_>`), or is the
/// struct `#[tool]` names after the fn.
fn input_type(param: &Param, tool: &ToolFn) -> crate::error::Result<()> {
    let ty = strip_groups(&param.ty);
    let plain = match ty {
        Type::Tuple(tuple) if tuple.elems.is_empty() => Some("no value"),
        Type::Tuple(_) | Type::Array(_) | Type::Slice(_) => Some("a list"),
        _ => NOT_AN_INPUT
            .iter()
            .find(|(name, _)| names_std_type(ty, name))
            .map(|(_, what)| *what),
    };
    if let Some(what) = plain {
        let fix = match last_segment_is(ty, "Option") {
            true => {
                "make the struct's fields optional instead, or take it as a field of its \
                     own: drop `#[input]`"
            }
            false => {
                "to take one value, drop `#[input]`: the parameter becomes a field of its \
                      name"
            }
        };
        return Err(at(
            ty,
            format!(
                "`#[input]` takes a struct (or enum) whose fields are the call's arguments, and \
                 `{}` is {what}, which a call's object of fields never is: {fix}",
                type_text(ty)
            ),
        ));
    }
    let generated = tool.struct_ident().to_string();
    if !tool.in_toolkit && is_local(ty, &generated) {
        return Err(at(
            ty,
            format!(
                "`#[tool]` names this tool's struct `{generated}`, after the fn, and the input \
                 has that name too; rename the input (`{generated}Args`, say)"
            ),
        ));
    }
    Ok(())
}

/// Two fields read from one name of the call's object (a parameter renamed with
/// `#[serde(rename = "...")]` to another's name): no call could be read.
fn wire_names(tool: &ToolFn) -> crate::error::Result<()> {
    let mut errors = Errors::default();
    let mut seen: Vec<String> = Vec::new();
    for param in tool.fields() {
        let Some(ident) = &param.ident else { continue };
        let said = crate::model::rules::of(&param.field_attrs);
        if said.unnamed {
            continue;
        }
        let name = said.rename.unwrap_or_else(|| unraw(ident));
        if seen.contains(&name) {
            errors.push(at(
                &param.arg,
                format!(
                    "two parameters are read from the call's field `{name}`, so no call could \
                     give both; rename one (`#[serde(rename = \"...\")]`)"
                ),
            ));
        }
        seen.push(name);
    }
    errors.finish()
}

/// Whether the struct `#[tool]` would name after a free fn clashes with a name in its module:
/// a type of the prelude it would hide, the `#[input]`'s type, or a type in its signature. A tool with errors then
/// leaves no stand-in of that name, which would add errors of its own.
pub fn struct_clashes(tool: &ToolFn) -> bool {
    let generated = tool.struct_ident().to_string();
    !tool.in_toolkit
        && (HIDDEN_BY_STRUCT.contains(&generated.as_str())
            || (tool.whole_input()).is_some_and(|input| is_local(&input.ty, &generated))
            || clashing_type(tool).is_some())
}

/// Whether `ty` is the bare name `name` (`NoteWrite`, not `args::NoteWrite`): only such a type
/// clashes with a struct of that name beside it.
fn is_local(ty: &Type, name: &str) -> bool {
    match strip_groups(ty) {
        Type::Path(path) => path.qself.is_none() && path.path.is_ident(name),
        _ => false,
    }
}

/// Whether `ty` names the standard type `name`: bare (`Vec<u8>`), or through `std`, `alloc` or
/// `core` (`std::vec::Vec<u8>`). A type of the user's of that name elsewhere is theirs.
fn names_std_type(ty: &Type, name: &str) -> bool {
    let Type::Path(path) = ty else { return false };
    let segments = &path.path.segments;
    let std_path = (segments.first()).is_some_and(|first| {
        ["std", "alloc", "core"]
            .iter()
            .any(|root| first.ident == root)
    });
    path.qself.is_none() && last_segment_is(ty, name) && (segments.len() == 1 || std_path)
}

/// What a fix renaming the fn adds, where the tool's name is the fn's: how to keep it.
fn keep_name(tool: &ToolFn) -> String {
    match &tool.attr.name {
        Some(_) => String::new(),
        None => format!(
            " and keep the tool's name with `#[tool(name = {:?})]`",
            tool.name
        ),
    }
}

/// A free fn whose struct would hide a type of the prelude in its module.
fn struct_name(tool: &ToolFn) -> crate::error::Result<()> {
    let ident = &tool.func.sig.ident;
    let generated = tool.struct_ident().to_string();
    if !HIDDEN_BY_STRUCT.contains(&generated.as_str()) {
        return Ok(());
    }
    let keep = keep_name(tool);
    Err(at(
        ident,
        format!(
            "`#[tool]` names the struct it makes after the fn, `{generated}`, which would hide \
             `{generated}` in this module; rename the fn (`{}_tool`, say){keep}",
            unraw(ident)
        ),
    ))
}

/// `ty` without the invisible groups a `macro_rules!` expansion leaves around it.
fn strip_groups(ty: &Type) -> &Type {
    match ty {
        Type::Group(group) => strip_groups(&group.elem),
        Type::Paren(paren) => strip_groups(&paren.elem),
        other => other,
    }
}

/// The first type within `ty` (itself included, outermost first) that `pick` takes: a
/// reference (`Option<&str>`) or an `impl Trait`, which no parameter read from JSON can be.
pub fn first_within<T>(ty: &Type, pick: impl Fn(&Type) -> Option<T>) -> Option<T> {
    struct Finder<T, P> {
        pick: P,
        found: Option<T>,
    }
    impl<'ast, T, P: Fn(&Type) -> Option<T>> Visit<'ast> for Finder<T, P> {
        fn visit_type(&mut self, ty: &'ast Type) {
            if self.found.is_none() {
                self.found = (self.pick)(ty);
            }
            syn::visit::visit_type(self, ty);
        }
    }
    let mut finder = Finder { pick, found: None };
    finder.visit_type(ty);
    finder.found
}

/// `Self`, or a path through it (`Self::Item`), as a type.
fn self_type(ty: &Type) -> Option<syn::Ident> {
    match ty {
        Type::Path(path) if path.qself.is_none() => (path.path.segments.first())
            .filter(|segment| segment.ident == "Self")
            .map(|segment| segment.ident.clone()),
        _ => None,
    }
}

/// The first path in `ty` through the `anyhow` crate (`anyhow::Result<T>`, `Result<T,
/// anyhow::Error>`), at its `anyhow`.
pub fn anyhow_within(ty: &Type) -> Option<syn::Ident> {
    struct Finder(Option<syn::Ident>);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_path(&mut self, path: &'ast syn::Path) {
            if let Some(first) = path.segments.first()
                && first.ident == "anyhow"
                && path.segments.len() > 1
            {
                self.0.get_or_insert_with(|| first.ident.clone());
            }
            syn::visit::visit_path(self, path);
        }
    }
    let mut finder = Finder(None);
    finder.visit_type(ty);
    finder.0
}

impl Param {
    /// The attributes left on the parameter itself (not a field's or `#[input]`).
    fn arg_attrs(&self) -> impl Iterator<Item = &Attribute> {
        let attrs = match &self.arg {
            syn::FnArg::Typed(typed) => typed.attrs.as_slice(),
            syn::FnArg::Receiver(receiver) => receiver.attrs.as_slice(),
        };
        attrs.iter()
    }
}
