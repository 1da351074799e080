//! What every option's reading shares: an error at a token, a literal seen through the
//! invisible groups of `macro_rules!`, the list of names an unknown one is told of (with the
//! nearest suggested), and an option's list of items in parentheses.

use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{Expr, Lit, Meta};

/// What ends an error about an unknown name: a did-you-mean for the known name within two edits
/// of `name`, if one is, then the known names, as in "did you mean `name`? its options are
/// `name`, `title`". `kind` is what the known names are.
pub fn known_names(name: &str, known: &[&str], kind: &str) -> String {
    let guess = known
        .iter()
        .map(|option| (strsim::levenshtein(option, name), *option))
        .filter(|(distance, _)| *distance <= 2)
        .min();
    let hint = guess.map_or_else(String::new, |(_, option)| {
        format!("did you mean `{option}`? ")
    });
    let list = known
        .iter()
        .map(|option| format!("`{option}`"))
        .collect::<Vec<_>>()
        .join(", ");
    format!("{hint}its {kind} are {list}")
}

/// An error that says `message` at `span`, for the option readers and the checks.
pub fn error<T>(message: impl std::fmt::Display, span: &dyn Spanned) -> darling::Result<T> {
    Err(darling::Error::custom(message).with_span(&span.span()))
}

/// The literal an option's value is, seen through the invisible groups of `macro_rules!`.
pub fn literal(expr: &Expr) -> Option<&Lit> {
    match expr {
        Expr::Lit(lit) => Some(&lit.lit),
        Expr::Group(group) => literal(&group.expr),
        _ => None,
    }
}

/// The items of a list option such as `tags(...)` or `meta(...)`, each read by `T`, or an error
/// at the token at fault, ending with `help`: the option written alone, with `= value`, with
/// an item `T` cannot read, or with nothing in its parentheses. `items` says what goes in them.
pub fn list_option<T: syn::parse::Parse>(
    item: &Meta,
    items: &str,
    help: &str,
) -> darling::Result<syn::punctuated::Punctuated<T, syn::Token![,]>> {
    let key = item.path().to_token_stream();
    let list = match item {
        Meta::List(list) => list,
        Meta::NameValue(name_value) => {
            return error(
                format!("`{key}` takes {items} in parentheses, not a value; {help}"),
                &name_value.value,
            );
        }
        Meta::Path(path) => {
            return error(
                format!("`{key}` needs {items} in parentheses; {help}"),
                path,
            );
        }
    };
    let read = list
        .parse_args_with(syn::punctuated::Punctuated::<T, syn::Token![,]>::parse_terminated)
        .or_else(|problem| error(format!("{problem}; {help}"), &problem.span()))?;
    if read.is_empty() {
        return error(format!("this `{key}(...)` is empty; {help}"), &list.path);
    }
    Ok(read)
}
