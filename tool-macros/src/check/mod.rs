//! Every mistake `#[tool]` and `#[toolkit]` can see in an item, each an error at the token that
//! is wrong, saying what to write instead. All are reported at once. The rules a field's
//! `#[schemars(...)]` declares are held to its type in `rules`.

mod params;

pub use params::{first_within, struct_clashes};
mod rules;

use syn::spanned::Spanned;
use syn::{Pat, Type};

use crate::case::type_text;
use crate::error::{Errors, at, err_at};
use crate::model::{Role, ToolFn};

/// The longest tool name: the strictest provider limit (OpenAI's and Anthropic's; MCP allows
/// 128).
pub const MAX_NAME_LEN: usize = 64;

/// Checks a tool fn; every error found, or `Ok`.
pub fn tool(tool: &ToolFn) -> crate::error::Result<()> {
    let mut errors = Errors::default();
    let from = match tool.attr.name {
        Some(_) => NameFrom::ToolOption,
        None => NameFrom::ToolFn,
    };
    if let Err(error) = name(&tool.name, from) {
        errors.push(at(&tool.name_span, error));
    }
    errors.handle(description(tool));
    if let (None, Some(timeout)) = (&tool.func.sig.asyncness, &tool.attr.timeout) {
        errors.push(at(
            &timeout.1,
            "a plain `fn` runs to its end once called, so a `timeout` cannot stop it: make it \
             an `async fn` that awaits what it waits on, or take `timeout` out",
        ));
    }
    errors.handle(meta_keys(&tool.attr.meta));
    errors.handle(crate::attr::check_tags(&tool.attr.tags));
    errors.handle(crate::attr::check_scopes(&tool.attr.scopes));
    if let (true, true) = (
        tool.attr.readonly.is_present(),
        tool.attr.destructive.is_present(),
    ) {
        errors.push(at(
            &tool.attr.destructive.span(),
            "a tool cannot be both `readonly` and `destructive`; keep the one that is true",
        ));
    }
    let generics = &tool.func.sig.generics;
    let lifetimes_only =
        (generics.params.iter()).all(|param| matches!(param, syn::GenericParam::Lifetime(_)));
    if !generics.params.is_empty() && lifetimes_only && generics.where_clause.is_none() {
        errors.push(at(
            &generic_span(generics),
            "a tool takes no lifetime parameters: its parameters are owned, and the context \
             is borrowed for the call; drop them, and write `&Context`",
        ));
    } else if !generics.params.is_empty() || generics.where_clause.is_some() {
        errors.push(at(
            &generic_span(generics),
            "a tool cannot be generic: its input schema is built from concrete types; \
                 replace the type parameters with concrete types",
        ));
    }
    errors.handle(params::whole(tool));
    for param in &tool.params {
        if let Err(error) = parameter(param, tool.in_toolkit) {
            errors.push(error);
        }
        if param.role == Role::Field {
            errors.handle(rules::field_rules(param));
        }
    }
    let inputs: Vec<_> = tool
        .params
        .iter()
        .filter(|param| param.role == Role::Input)
        .collect();
    if let Some(second) = inputs.get(1) {
        errors.push(at(
            &second.input_attr.span(),
            "a tool takes at most one `#[input]` struct; put these fields in one struct",
        ));
    }
    if let Some(input) = inputs.first() {
        for field in tool.fields() {
            errors.push(at(
                &field.arg.span(),
                "with an `#[input]` struct, that struct is the whole input; move this \
                     parameter into it as a field",
            ));
        }
        if let Some(attr) = &input.input_attr
            && !matches!(attr.meta, syn::Meta::Path(_))
        {
            errors.push(at(
                &attr.meta.span(),
                "write `#[input]` alone, with nothing after it",
            ));
        }
    }
    if let Some(anyhow) = (tool.output.ty.as_ref())
        .filter(|_| !cfg!(feature = "anyhow"))
        .and_then(params::anyhow_within)
    {
        errors.push(at(
            &anyhow,
            "returning anyhow's errors needs tool-core's `anyhow` feature, which is off: turn \
             it on, `tool-core = { version = \"0.1\", features = [\"anyhow\"] }`",
        ));
    }
    if let Some(impl_trait) = tool.output.ty.as_ref().and_then(find_impl_trait) {
        errors.push(at(
            &impl_trait.span(),
            "a tool cannot return `impl Trait`: its output schema is built from the \
                 concrete type; name the type",
        ));
    }
    errors.finish()
}

/// A tool without a description: a model reads it to choose the tool and to call it well, and
/// a tool advertised without one is a tool a model guesses at.
fn description(tool: &ToolFn) -> crate::error::Result<()> {
    // A doc the compiler writes (`#[doc = include_str!("note.md")]`) is not seen here.
    let unread = crate::model::doc_parts(&tool.func.attrs)
        .any(|part| matches!(part, crate::model::DocPart::Unread(_)));
    let unread = unread && tool.attr.description.is_none();
    if unread || !tool.description().trim().is_empty() {
        return Ok(());
    }
    // A `cfg_attr` the macro sees is not expanded yet (one inside a `#[toolkit]` block, or
    // after `#[tool]`): the doc it writes would be left out of what is advertised.
    if let Some(cfg_attr) = tool.func.attrs.iter().find(|attr| writes_doc(attr)) {
        return Err(at(
            &cfg_attr.meta,
            "a doc written under `cfg_attr` here is not expanded before the macro reads the \
             tool, so the tool would be advertised without it: write the description as a \
             `///` doc comment, or `#[tool(description = \"...\")]`",
        ));
    }
    let what = match &tool.attr.description {
        Some(_) => {
            "`description` is empty: say what the tool does, or take the option out and \
                    write a `///` doc comment on the fn"
        }
        None => {
            "a tool needs a description, which a model reads to choose it and to call it \
                 well: write a `///` doc comment on the fn saying what it does (or \
                 `#[tool(description = \"...\")]`)"
        }
    };
    Err(at(&tool.func.sig.ident, what))
}

/// Whether `attr` is a `cfg_attr` that writes a doc (`#[cfg_attr(feature = "x", doc = "..")]`).
fn writes_doc(attr: &syn::Attribute) -> bool {
    attr.path().is_ident("cfg_attr")
        && attr
            .parse_args_with(
                syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|list| list.iter().skip(1).any(|meta| meta.path().is_ident("doc")))
}

/// Refuses a `_meta` key set twice across a tool's `meta(...)` options, at the second.
fn meta_keys(meta: &[crate::attr::metadata::MetaAttr]) -> crate::error::Result<()> {
    let mut errors = Errors::default();
    let mut seen: Vec<&str> = Vec::new();
    for entry in meta.iter().flat_map(|attr| &attr.entries) {
        if seen.contains(&entry.key.as_str()) {
            errors.push(at(
                &entry.key_span,
                format!("the `_meta` key {:?} is set twice; keep one", entry.key),
            ));
        }
        seen.push(&entry.key);
    }
    errors.finish()
}

/// Where a name was written, for what an error about it tells the user to write.
#[derive(Clone, Copy)]
pub enum NameFrom {
    /// `#[tool(name = "...")]`.
    ToolOption,
    /// The tool fn's identifier.
    ToolFn,
    /// `#[toolkit(name = "...")]`.
    ToolkitOption,
    /// The name of the toolkit's type.
    ToolkitType,
}

impl NameFrom {
    /// `tool` or `toolkit`.
    fn what(self) -> &'static str {
        match self {
            NameFrom::ToolOption | NameFrom::ToolFn => "tool",
            NameFrom::ToolkitOption | NameFrom::ToolkitType => "toolkit",
        }
    }

    /// What to write to name it `name`.
    fn fix(self, name: &str) -> String {
        match self {
            NameFrom::ToolOption | NameFrom::ToolkitOption => format!("write `name = {name:?}`"),
            NameFrom::ToolFn => format!("rename the fn, or write `name = {name:?}`"),
            NameFrom::ToolkitType => format!("write `#[toolkit(name = {name:?})]`"),
        }
    }
}

/// Tool names, and toolkit names, are lower snake case, 1 to 64 characters, so every provider
/// accepts them. The error is what to say at the name.
pub fn name(name: &str, from: NameFrom) -> Result<(), String> {
    let what = from.what();
    if name.is_empty() {
        let example = match from {
            NameFrom::ToolOption | NameFrom::ToolFn => "`name = \"note_write\"`",
            NameFrom::ToolkitOption => "`name = \"note\"`",
            NameFrom::ToolkitType => "`#[toolkit(name = \"note\")]`",
        };
        return Err(format!(
            "a {what} name cannot be empty; write a lower snake case name such as {example}"
        ));
    }
    if name.chars().count() > MAX_NAME_LEN {
        let how = match from {
            NameFrom::ToolOption | NameFrom::ToolkitOption => "write a shorter one",
            NameFrom::ToolFn => "rename the fn, or write a shorter one",
            NameFrom::ToolkitType => "write a shorter one with `#[toolkit(name = \"...\")]`",
        };
        return Err(format!(
            "this {what} name is {} characters long; names are limited to {MAX_NAME_LEN}, the \
             strictest provider limit: {how}",
            name.chars().count()
        ));
    }
    if !crate::case::is_lower_snake_case(name) {
        return Err(format!(
            "{what} names are lower snake case (letters a-z, digits, single underscores, \
             starting with a letter): {}",
            from.fix(&crate::case::suggested_name(name))
        ));
    }
    Ok(())
}

fn parameter(param: &crate::model::Param, in_toolkit: bool) -> crate::error::Result<()> {
    if let syn::FnArg::Receiver(receiver) = &param.arg {
        if in_toolkit {
            match &receiver.kind {
                syn::ReceiverKind::Reference(_, _, None) if receiver.mutability.is_none() => {
                    return Ok(());
                }
                syn::ReceiverKind::Reference(_, _, Some(mutability)) => {
                    return err_at(
                        mutability,
                        "a tool method takes `&self`, not `&mut self`: calls run concurrently \
                         and share the toolkit, so keep what changes behind a lock (a `Mutex` \
                         field, say)",
                    );
                }
                _ => {}
            }
            return err_at(
                &receiver.self_token,
                "a tool method takes `&self`: the toolkit's tools share one value, which none \
                 of them can own; write `&self`",
            );
        }
        return err_at(
            &receiver.self_token,
            "`#[tool]` on a method belongs in a `#[toolkit]` impl block: write `#[toolkit]` above \
             this `impl` block, or make the tool a free fn, without `self`",
        );
    }
    let syn::FnArg::Typed(typed) = &param.arg else {
        return Ok(());
    };
    // The context and the `#[input]` are handed to the fn by place: they need no name.
    if param.ident.is_none() && param.role == Role::Field {
        return match &*typed.pat {
            Pat::Wild(wild) => err_at(
                wild,
                "name this parameter: its name is the field a caller sends, such as `count: u8`",
            ),
            pat => err_at(
                pat,
                "a tool parameter needs a plain name, which becomes its field: name it, as in \
                 `point: (u8, u8)`, and take it apart inside the fn",
            ),
        };
    }
    if param.role == Role::Context {
        if let Type::Reference(syn::TypeReference {
            mutability: Some(mutability),
            ..
        }) = &param.ty
        {
            return err_at(
                mutability,
                "the context is shared by the host: take it as `&Context`",
            );
        }
        return Ok(());
    }
    if let Some(impl_trait) = find_impl_trait(&param.ty) {
        return err_at(
            &impl_trait,
            "`impl Trait` cannot be a tool parameter: a parameter is read from JSON, so it \
             needs a concrete type that implements `Deserialize` and `JsonSchema`",
        );
    }
    let reference = params::first_within(&param.ty, |ty| match ty {
        Type::Reference(found) => Some(found.clone()),
        _ => None,
    });
    if let Some(reference) = reference {
        return err_at(
            &reference,
            "a tool parameter is read from JSON, so it must be owned: write `String` for \
             `&str`, `Vec<T>` for `&[T]`; only `&Context` is injected by reference",
        );
    }
    let read_by_fn = crate::model::rules::of(&param.field_attrs).read_by_fn;
    if let Some(inner) = option_in_option(&param.ty).filter(|_| !read_by_fn) {
        return err_at(
            &inner,
            "a call's `null` counts as a field left out, so `Option<Option<T>>` cannot tell the \
             two apart: the inner `Option` is never `None`; take `Option<T>`, or an enum of \
             what each case means (`Keep`, `Clear`, `Set(T)`)",
        );
    }
    Ok(())
}

/// The inner `Option` of an `Option<Option<T>>`, if `ty` is one.
fn option_in_option(ty: &Type) -> Option<Type> {
    let Type::Path(path) = ty else { return None };
    if !crate::model::last_segment_is(ty, "Option") {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &path.path.segments.last()?.arguments else {
        return None;
    };
    match args.args.first()? {
        syn::GenericArgument::Type(inner) if crate::model::last_segment_is(inner, "Option") => {
            Some(inner.clone())
        }
        _ => None,
    }
}

fn find_impl_trait(ty: &Type) -> Option<syn::TypeImplTrait> {
    params::first_within(ty, |ty| match ty {
        Type::ImplTrait(found) => Some(found.clone()),
        _ => None,
    })
}

/// Where a generic fn's error points: at its first generic parameter, else at its `where`.
fn generic_span(generics: &syn::Generics) -> proc_macro2::Span {
    match (generics.params.first(), &generics.where_clause) {
        (Some(param), _) => param.span(),
        (None, Some(where_clause)) => where_clause.where_token.span,
        (None, None) => generics.span(),
    }
}

/// What `#[toolkit(require(..))]` asks of `tool` that it does not say, each an error at the
/// tool's name.
fn required(
    require: crate::attr::Require,
    tool: &crate::model::ToolFn,
) -> crate::error::Result<()> {
    let mut errors = Errors::default();
    if require.title && tool.attr.title.is_none() {
        errors.push(at(
            &tool.name_span,
            "this toolkit requires a title of each tool (`require(title)`): add \
                 `title = \"...\"` to this tool's `#[tool(...)]`",
        ));
    }
    let says = tool.attr.readonly.is_present() || tool.attr.destructive.is_present();
    if require.hints && !says {
        errors.push(at(
            &tool.name_span,
            "this toolkit requires each tool to say whether it changes anything \
                 (`require(hints)`): add `readonly` or `destructive` to this tool's `#[tool(...)]`",
        ));
    }
    errors.finish()
}

/// Checks a toolkit: its name, its impl block, and every tool, including that no two tools
/// share a name (the error is at the second) and that each says what the toolkit requires.
pub fn toolkit(toolkit: &crate::model::Toolkit) -> crate::error::Result<()> {
    let mut errors = Errors::default();
    let from = if toolkit.explicit_name {
        NameFrom::ToolkitOption
    } else {
        NameFrom::ToolkitType
    };
    if let Err(error) = name(&toolkit.name, from) {
        errors.push(at(&toolkit.name_span, error));
    }
    let item = &toolkit.item;
    if let Some((path, _)) = &item.trait_ {
        let self_ty = &item.self_ty;
        errors.push(at(
            &path.span(),
            format!(
                "`#[toolkit]` goes on an inherent impl block, not on a trait impl: move the tool \
                 methods into `impl {} {{ ... }}` and put `#[toolkit]` on that",
                type_text(self_ty)
            ),
        ));
    }
    let lifetimes_only =
        (item.generics.params.iter()).all(|param| matches!(param, syn::GenericParam::Lifetime(_)));
    if !item.generics.params.is_empty() && lifetimes_only {
        errors.push(at(
            &generic_span(&item.generics),
            "a toolkit's state is kept by the registry for as long as it serves, so it cannot \
             borrow: own what it holds (`String` for `&'a str`, an `Arc` for what is shared) \
             and drop the lifetime",
        ));
    } else if !item.generics.params.is_empty() || item.generics.where_clause.is_some() {
        errors.push(at(
            &generic_span(&item.generics),
            "a toolkit cannot be generic: its tools' schemas are built from concrete types; \
                 put `#[toolkit]` on an impl for a concrete type",
        ));
    }
    if toolkit.tools.is_empty() {
        errors.push(at(
            &item.self_ty.span(),
            "this toolkit has no tools: mark its tool methods with `#[tool]`",
        ));
    }
    let mut seen: Vec<&str> = Vec::new();
    for tool in &toolkit.tools {
        errors.handle(self::tool(tool));
        errors.handle(required(toolkit.require, tool));
        if seen.contains(&tool.name.as_str()) {
            errors.push(at(
                &tool.name_span,
                format!(
                    "this toolkit already has a tool named `{}`; give this one another name \
                     with `#[tool(name = \"...\")]`",
                    tool.name
                ),
            ));
        }
        seen.push(&tool.name);
    }
    errors.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(name_to_check: &str, from: NameFrom) -> String {
        name(name_to_check, from).unwrap_err().to_string()
    }

    #[test]
    fn a_good_name_passes_from_anywhere() {
        for from in [
            NameFrom::ToolOption,
            NameFrom::ToolFn,
            NameFrom::ToolkitOption,
            NameFrom::ToolkitType,
        ] {
            assert!(name("note_write2", from).is_ok());
            assert!(name(&"n".repeat(MAX_NAME_LEN), from).is_ok());
        }
    }

    #[test]
    fn a_bad_name_is_told_how_to_fix_where_it_was_written() {
        let rule = "names are lower snake case (letters a-z, digits, single underscores, starting \
                    with a letter)";
        assert_eq!(
            message("NoteWrite", NameFrom::ToolOption),
            format!("tool {rule}: write `name = \"note_write\"`")
        );
        assert_eq!(
            message("noteWrite", NameFrom::ToolFn),
            format!("tool {rule}: rename the fn, or write `name = \"note_write\"`")
        );
        assert_eq!(
            message("HTTPNotes", NameFrom::ToolkitType),
            format!("toolkit {rule}: write `#[toolkit(name = \"http_notes\")]`")
        );
    }

    #[test]
    fn an_empty_or_long_name_says_so() {
        assert_eq!(
            message("", NameFrom::ToolkitOption),
            "a toolkit name cannot be empty; write a lower snake case name such as \
             `name = \"note\"`"
        );
        assert_eq!(
            message(&"n".repeat(MAX_NAME_LEN + 1), NameFrom::ToolFn),
            "this tool name is 65 characters long; names are limited to 64, the strictest \
             provider limit: rename the fn, or write a shorter one"
        );
    }

    #[test]
    fn type_text_is_written_as_a_user_would() {
        let ty: Type = syn::parse_quote!(&'a crate::Store<Vec<u8>, String>);
        assert_eq!(type_text(&ty), "&'a crate::Store<Vec<u8>, String>");
    }
}
