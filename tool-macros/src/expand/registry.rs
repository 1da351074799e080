//! `registry![a, b, c]`: the composed `Registry`, whose tool names are checked when the crate
//! is checked (or built), and whose schemas are checked when it runs.

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

/// `registry![a, b, c]`: a `Registry` of toolkits and tools, whose tool names are checked to be
/// unique when the crate is checked (or, for entries whose type the macro cannot read, built),
/// and whose schemas are checked when it runs.
///
/// An entry whose type the macro can read from its tokens (see [`named_type`]) is compared
/// with the other such entries in a constant outside any generic code, which `cargo check`
/// evaluates; the comparisons that involve any other entry live in a constant of the generic
/// fn that takes the entries, which only code generation (`cargo build`) evaluates. Each pair
/// of entries is compared once, so one repeat is one error.
pub fn registry(input: TokenStream) -> crate::error::Result<TokenStream> {
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
        quote!(<#ty as ::tool_core::tool::Toolkit>::TOOL_NAMES)
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
        fn __compose<#(#generics: ::tool_core::tool::Toolkit),*>(#(#values: #types),*) -> ::tool_core::registry::Registry {
            #(#built)*
            ::tool_core::__private::registry_from_toolkits(::std::vec![
                #((<#types as ::tool_core::tool::Toolkit>::NAME, ::tool_core::tool::Toolkit::into_tools(#values))),*
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
            let constructor = path.segments.pop()?;
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
}
