//! What every option's reading shares: the items of an option list as written, a literal (and
//! a string) seen through the invisible groups of `macro_rules!`, the list of names an unknown
//! one is told of (with the nearest suggested), and an option's list of items in parentheses.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::parse::discouraged::Speculative;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{
    Expr, Ident, Lit, LitBool, LitStr, MacroDelimiter, Meta, MetaList, MetaNameValue, Path, Token,
    token,
};

use crate::error::{Result, err_at};

/// One item of an option list, such as `#[tool(...)]`'s, as written: an option as syn's `Meta`,
/// but with any word as its key (`type = ...` is an unknown option, not a parse error), and a
/// literal alone or a value that is no expression kept too, so that each gets an error in terms
/// of the options rather than a parser's.
pub enum Item {
    /// `readonly`, `name = "note_write"`, `tags("notes")`.
    Option(Meta),
    /// `"note_write"`, written alone.
    Literal(Lit),
    /// `name = pub(crate)`: a key and a value that is no expression, up to the next comma.
    Unreadable {
        /// The key.
        key: Path,
        /// The `=`.
        eq: Token![=],
        /// What follows the `=`.
        value: TokenStream,
    },
}

/// The items of an option list, in order.
pub fn items(tokens: TokenStream) -> syn::Result<Vec<Item>> {
    Punctuated::<Item, Token![,]>::parse_terminated
        .parse2(tokens)
        .map(|items| items.into_iter().collect())
}

impl Parse for Item {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        // `true = ...` is a key, however odd, not a literal.
        if input.peek(Lit) && !(input.peek(LitBool) && input.peek2(Token![=])) {
            return input.parse().map(Item::Literal);
        }
        let path = input.call(key_path)?;
        if input.peek(token::Paren) || input.peek(token::Bracket) || input.peek(token::Brace) {
            let group: Group = input.parse()?;
            let span = group.delim_span();
            let delimiter = match group.delimiter() {
                Delimiter::Parenthesis => MacroDelimiter::Paren(token::Paren(span)),
                Delimiter::Bracket => MacroDelimiter::Bracket(token::Bracket(span)),
                _ => MacroDelimiter::Brace(token::Brace(span)),
            };
            let tokens = group.stream();
            return Ok(Item::Option(Meta::List(MetaList {
                path,
                delimiter,
                tokens,
            })));
        }
        if !input.peek(Token![=]) {
            return Ok(Item::Option(Meta::Path(path)));
        }
        let eq_token: Token![=] = input.parse()?;
        let ahead = input.fork();
        if let Ok(value) = ahead.parse::<Expr>()
            && (ahead.is_empty() || ahead.peek(Token![,]))
        {
            input.advance_to(&ahead);
            return Ok(Item::Option(Meta::NameValue(MetaNameValue {
                path,
                eq_token,
                value,
            })));
        }
        let value = input.step(|cursor| {
            let mut rest = *cursor;
            let mut value = TokenStream::new();
            while let Some((token, next)) = rest.token_tree() {
                if matches!(&token, TokenTree::Punct(punct) if punct.as_char() == ',') {
                    break;
                }
                value.extend([token]);
                rest = next;
            }
            Ok((value, rest))
        })?;
        Ok(Item::Unreadable {
            key: path,
            eq: eq_token,
            value,
        })
    }
}

/// An option's key: a path whose segments may be keywords (`type = ...` is an unknown option,
/// not a parse error).
fn key_path(input: ParseStream<'_>) -> syn::Result<Path> {
    let mut path = Path {
        leading_colon: input.parse()?,
        segments: Punctuated::new(),
    };
    loop {
        path.segments.push_value(Ident::parse_any(input)?.into());
        if !input.peek(Token![::]) {
            return Ok(path);
        }
        path.segments.push_punct(input.parse()?);
    }
}

impl ToTokens for Item {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Item::Option(meta) => meta.to_tokens(tokens),
            Item::Literal(lit) => lit.to_tokens(tokens),
            Item::Unreadable { key, eq, value } => {
                key.to_tokens(tokens);
                eq.to_tokens(tokens);
                value.to_tokens(tokens);
            }
        }
    }
}

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

/// The literal an option's value is, seen through the invisible groups of `macro_rules!`.
pub fn literal(expr: &Expr) -> Option<&Lit> {
    match expr {
        Expr::Lit(lit) => Some(&lit.lit),
        Expr::Group(group) => literal(&group.expr),
        _ => None,
    }
}

/// The string literal an option's value is, if it is one.
pub fn string(expr: &Expr) -> Option<&LitStr> {
    match literal(expr) {
        Some(Lit::Str(text)) => Some(text),
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
) -> Result<Punctuated<T, Token![,]>> {
    let key = item.path().to_token_stream();
    let list = match item {
        Meta::List(list) => list,
        Meta::NameValue(name_value) => {
            return err_at(
                &name_value.value,
                format!("`{key}` takes {items} in parentheses, not a value; {help}"),
            );
        }
        Meta::Path(path) => {
            return err_at(
                path,
                format!("`{key}` needs {items} in parentheses; {help}"),
            );
        }
    };
    let read = list
        .parse_args_with(syn::punctuated::Punctuated::<T, syn::Token![,]>::parse_terminated)
        .or_else(|problem| err_at(&problem.span(), format!("{problem}; {help}")))?;
    if read.is_empty() {
        return err_at(&list.path, format!("this `{key}(...)` is empty; {help}"));
    }
    Ok(read)
}
