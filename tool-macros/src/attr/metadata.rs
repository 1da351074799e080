//! The `icon` and `meta` options of `#[tool(...)]`, which MCP advertises as the tool's `icons`
//! and `_meta`: read, checked against MCP's rules with an error at the token at fault, and
//! written as builder calls on the tool's definition.
//!
//! ```text
//! #[tool(icon = "https://example.com/note.svg")]
//! #[tool(icon(src = "https://example.com/note.png", mime_type = "image/png",
//!             sizes = ["48x48", "96x96"], theme = "dark"))]
//! #[tool(meta("com.example/category" = "notes", "com.example/rank" = 2))]
//! ```
//!
//! Both options may be written any number of times. The rules are those `tool_core`'s MCP
//! export checks for definitions written by hand (its `providers::mcp_meta` module); a
//! proc-macro crate is built before `tool_core`, so they are written here again.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{Expr, Lit, LitStr, Meta, Token};

use crate::attr::syntax::{Item, items, known_names, list_option, string};
use crate::error::{Errors, at, err_at};

/// What an icon option's error ends with.
const ICON_HELP: &str = "write `icon = \"https://example.com/note.svg\"`, or \
                         `icon(src = \"...\", mime_type = \"image/png\", sizes = [\"48x48\"], \
                         theme = \"dark\")`";

/// What a meta option's error ends with.
const META_HELP: &str = "write `meta(\"com.example/category\" = \"notes\")`";

/// One `icon = "..."` or `icon(...)`.
#[derive(Debug)]
pub struct IconAttr {
    /// Its source: a web URL or a `data:` URI.
    pub src: String,
    /// Its MIME type, if given.
    pub mime_type: Option<String>,
    /// Its sizes, each `WxH` or `any`.
    pub sizes: Vec<String>,
    /// The background it is drawn for, if given.
    pub theme: Option<Theme>,
}

/// The background an icon is drawn for.
#[derive(Debug, Clone, Copy)]
pub enum Theme {
    Light,
    Dark,
}

impl IconAttr {
    /// Reads `icon = "..."` or `icon(...)`.
    pub fn from_meta(item: &Meta) -> crate::error::Result<Self> {
        match item {
            Meta::NameValue(name_value) => {
                let Some(src) = string(&name_value.value) else {
                    return err_at(
                        &name_value.value,
                        format!("an icon is its URL as a string; {ICON_HELP}"),
                    );
                };
                check_src(src)?;
                Ok(IconAttr {
                    src: src.value(),
                    mime_type: None,
                    sizes: Vec::new(),
                    theme: None,
                })
            }
            Meta::List(list) => Self::from_fields(list),
            Meta::Path(path) => err_at(path, format!("`icon` needs a source; {ICON_HELP}")),
        }
    }

    /// `icon(src = "...", mime_type = "...", sizes = [...], theme = "...")`, every mistake
    /// reported.
    fn from_fields(list: &syn::MetaList) -> crate::error::Result<Self> {
        let items = items(list.tokens.clone())?;
        let mut errors = Errors::default();
        let mut src = None;
        let mut mime_type = None;
        let mut sizes = Vec::new();
        let mut theme = None;
        let mut seen: Vec<String> = Vec::new();
        for item in &items {
            let Item::Option(Meta::NameValue(field)) = item else {
                errors.push(at(
                    &item.span(),
                    format!("the parts of an icon are written `key = value`; {ICON_HELP}"),
                ));
                continue;
            };
            let key = field
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            if seen.contains(&key) {
                errors.push(at(
                    &field.path,
                    format!("`{key}` is written twice; keep one"),
                ));
                continue;
            }
            seen.push(key.clone());
            let text = || match string(&field.value) {
                Some(text) => Ok(text),
                None => err_at(
                    &field.value,
                    format!("`{key}` takes a string: write `{key} = \"...\"`"),
                ),
            };
            match key.as_str() {
                "src" => {
                    src = errors.handle(text().and_then(|text| {
                        check_src(text)?;
                        Ok(text.value())
                    }))
                }
                "mime_type" => {
                    mime_type = errors.handle(text().and_then(|text| {
                        if is_image_mime_type(&text.value()) {
                            Ok(text.value())
                        } else {
                            err_at(
                                text,
                                "an icon's MIME type is an image type: write one such as \
                                 `mime_type = \"image/png\"` or `\"image/svg+xml\"`",
                            )
                        }
                    }))
                }
                "sizes" => sizes = errors.handle(read_sizes(&field.value)).unwrap_or_default(),
                "theme" => {
                    theme = errors.handle(text().and_then(|text| match text.value().as_str() {
                        "light" => Ok(Theme::Light),
                        "dark" => Ok(Theme::Dark),
                        _ => err_at(
                            text,
                            "an icon's theme is the background it is drawn for: write \
                             `theme = \"light\"` or `theme = \"dark\"`",
                        ),
                    }))
                }
                _ => errors.push(at(
                    &field.path,
                    format!(
                        "an icon has no part `{}`; {}",
                        field.path.to_token_stream(),
                        known_names(&key, &["src", "mime_type", "sizes", "theme"], "parts")
                    ),
                )),
            }
        }
        if src.is_none() && !seen.iter().any(|key| key == "src") {
            errors.push(at(
                &list.path,
                format!("this icon has no `src`: write `src = \"https://...\"` in it; {ICON_HELP}"),
            ));
        }
        errors.finish()?;
        Ok(IconAttr {
            src: src.unwrap_or_default(),
            mime_type,
            sizes,
            theme,
        })
    }
}

/// `sizes = "48x48"`, `sizes = "48x48 96x96"` (as HTML writes them) or
/// `sizes = ["48x48", "96x96"]`, each `WxH` or `any`.
fn read_sizes(value: &Expr) -> crate::error::Result<Vec<String>> {
    const HELP: &str = "write sizes as `sizes = [\"48x48\", \"96x96\"]`, each `WxH` in pixels \
                        or `\"any\"` for a scalable image";
    let texts: Vec<&LitStr> = match value {
        Expr::Array(array) => {
            let mut texts = Vec::new();
            for element in &array.elems {
                match string(element) {
                    Some(text) => texts.push(text),
                    None => return err_at(element, HELP),
                }
            }
            texts
        }
        other => match string(other) {
            Some(text) => vec![text],
            None => return err_at(other, HELP),
        },
    };
    let mut sizes = Vec::new();
    for text in texts {
        let value = text.value();
        for size in value.split_whitespace() {
            if !is_size(size) {
                return err_at(text, format!("{size:?} is not a size; {HELP}"));
            }
            sizes.push(size.to_owned());
        }
        if value.trim().is_empty() {
            return err_at(text, HELP);
        }
    }
    Ok(sizes)
}

/// Refuses an icon source MCP clients should not load: it must be an `https:` or `http:` URL
/// with a host, or a `data:` URI of base64 image data.
fn check_src(src: &LitStr) -> crate::error::Result<()> {
    const WHAT: &str = "write an `https://` URL, such as \"https://example.com/note.svg\", or a \
                        `data:image/...;base64,...` URI";
    let text = src.value();
    let lower = text.to_ascii_lowercase();
    let problem = if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        Some("an icon's source has no spaces or control characters".to_owned())
    } else if let Some(rest) = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
    {
        let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
        host.is_empty().then(|| "this URL has no host".to_owned())
    } else if let Some(rest) = lower.strip_prefix("data:") {
        let start = text.len() - rest.len();
        data_uri_problem(&text[start..])
    } else {
        Some(format!(
            "{text:?} is not a URL an MCP client may load an icon from (a relative path, \
             `file:` and other schemes are not)"
        ))
    };
    match problem {
        Some(problem) => err_at(src, format!("{problem}; {WHAT}")),
        None => Ok(()),
    }
}

/// What is wrong with the part of a `data:` URI after `data:`, if anything.
fn data_uri_problem(rest: &str) -> Option<String> {
    let Some((media, data)) = rest.split_once(',') else {
        return Some("this data URI has no `,` before its data".to_owned());
    };
    let Some(media) = media.strip_suffix(";base64") else {
        return Some(
            "an icon's data URI holds base64 data, with `;base64` before the `,` (as in \
             `data:image/png;base64,iVBORw0KGgo=`)"
                .into(),
        );
    };
    let mime_type = media.split(';').next().unwrap_or_default();
    if !is_image_mime_type(mime_type) {
        return Some(format!(
            "this data URI's type {mime_type:?} is not an image type"
        ));
    }
    let base64 = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=');
    if data.is_empty() || !data.chars().all(base64) {
        return Some("this data URI's data is not base64 text".to_owned());
    }
    None
}

/// `image/` and a subtype of the characters MIME tokens have (`png`, `svg+xml`).
fn is_image_mime_type(mime_type: &str) -> bool {
    mime_type
        .to_ascii_lowercase()
        .strip_prefix("image/")
        .is_some_and(|subtype| {
            !subtype.is_empty()
                && subtype
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "!#$&^_.+-".contains(c))
        })
}

/// `any`, or `WxH` of whole numbers above zero.
fn is_size(size: &str) -> bool {
    let positive = |n: &str| {
        !n.is_empty()
            && n.chars().all(|c| c.is_ascii_digit())
            && !n.trim_start_matches('0').is_empty()
    };
    size == "any"
        || size
            .split_once('x')
            .is_some_and(|(width, height)| positive(width) && positive(height))
}

/// One `meta(...)`: its entries, in order.
#[derive(Debug)]
pub struct MetaAttr {
    /// Its entries, in order.
    pub entries: Vec<MetaEntry>,
}

/// One `"key" = value` of a `meta(...)`.
#[derive(Debug)]
pub struct MetaEntry {
    /// The key.
    pub key: String,
    /// Where the key was written.
    pub key_span: Span,
    /// The value, as the code of a `serde_json::Value`.
    pub value: TokenStream,
}

/// `"key" = value` or `key = value`, as written.
struct RawEntry {
    key: String,
    key_span: Span,
    value: Expr,
}

impl Parse for RawEntry {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let (key, key_span) = if input.peek(LitStr) {
            let key: LitStr = input.parse()?;
            (key.value(), key.span())
        } else if input.peek(syn::Ident) {
            let key: syn::Ident = input.parse()?;
            (crate::case::unraw(&key), key.span())
        } else {
            return Err(input.error("a `_meta` entry is `\"key\" = value`"));
        };
        if !input.peek(Token![=]) {
            return Err(syn::Error::new(
                key_span,
                format!("write `=` and a value after the key `{key}`"),
            ));
        }
        input.parse::<Token![=]>()?;
        let value: Expr = input.parse()?;
        Ok(RawEntry {
            key,
            key_span,
            value,
        })
    }
}

impl MetaAttr {
    /// Reads one `meta(...)`.
    pub fn from_meta(item: &Meta) -> crate::error::Result<Self> {
        let raw = list_option::<RawEntry>(item, "its `\"key\" = value` entries", META_HELP)?;
        let mut errors = Errors::default();
        let mut entries = Vec::new();
        for entry in raw {
            if let Some(problem) = meta_key_problem(&entry.key) {
                errors.push(at(&entry.key_span, problem));
                continue;
            }
            if let Some(value) = errors.handle(meta_value(&entry.value)) {
                entries.push(MetaEntry {
                    key: entry.key,
                    key_span: entry.key_span,
                    value,
                });
            }
        }
        errors.finish_with(MetaAttr { entries })
    }
}

/// The `serde_json::Value` a `_meta` value is: a string, number or boolean literal, or a list
/// of them in `[...]`.
fn meta_value(value: &Expr) -> crate::error::Result<TokenStream> {
    const HELP: &str = "a `_meta` value is a string, number or boolean literal, or a list of \
                        them in `[...]`, such as `\"notes\"`, `2`, `true` or `[\"a\", \"b\"]`";
    let json = quote!(::tool_core::__private::serde_json::Value);
    let number = |lit: &Lit, negative: bool| -> Option<TokenStream> {
        let sign = if negative { "-" } else { "" };
        match lit {
            Lit::Int(int) => {
                let digits = format!("{sign}{}", int.base10_digits());
                if let Ok(signed) = digits.parse::<i64>() {
                    Some(quote!(#json::from(#signed)))
                } else {
                    digits
                        .parse::<u64>()
                        .ok()
                        .map(|unsigned| quote!(#json::from(#unsigned)))
                }
            }
            Lit::Float(float) => format!("{sign}{}", float.base10_digits())
                .parse::<f64>()
                .ok()
                .filter(|float| float.is_finite())
                .map(|float| quote!(#json::from(#float))),
            _ => None,
        }
    };
    let written = match value {
        Expr::Group(group) => return meta_value(&group.expr),
        Expr::Lit(lit) => match &lit.lit {
            Lit::Str(text) => Some(quote!(#json::from(#text))),
            Lit::Bool(flag) => Some(quote!(#json::from(#flag))),
            other => number(other, false),
        },
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => match &**expr {
            Expr::Lit(lit) => number(&lit.lit, true),
            _ => None,
        },
        Expr::Array(array) => {
            let mut elements = Vec::new();
            for element in &array.elems {
                elements.push(meta_value(element)?);
            }
            Some(quote!(#json::Array(::std::vec![#(#elements),*])))
        }
        _ => None,
    };
    match written {
        Some(written) => Ok(written),
        None => err_at(value, HELP),
    }
}

/// What is wrong with a `_meta` key by MCP's key rules, if anything: an optional prefix of
/// dot-separated labels and a `/`, then a name.
fn meta_key_problem(key: &str) -> Option<String> {
    const WHAT: &str = "write a key such as \"com.example/category\"";
    if key.is_empty() {
        return Some(format!("a `_meta` key cannot be empty; {WHAT}"));
    }
    let (prefix, name) = match key.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if let Some(prefix) = prefix {
        let labels: Vec<&str> = prefix.split('.').collect();
        if labels.iter().any(|label| label.is_empty()) {
            return Some(format!(
                "the `_meta` prefix `{prefix}/` has an empty label (a dot at an end, or two \
                 dots); {WHAT}"
            ));
        }
        if let Some(label) = labels.iter().find(|label| !is_label(label)) {
            return Some(format!(
                "the label `{label}` of the `_meta` prefix `{prefix}/` must start with a \
                 letter, end with a letter or digit and hold only letters, digits and `-`; \
                 {WHAT}"
            ));
        }
        if is_reserved(&labels) {
            return Some(format!(
                "the `_meta` prefix `{prefix}/` is reserved for MCP itself; use a reverse-DNS \
                 prefix of your own, such as \"com.example/{name}\""
            ));
        }
    }
    let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let inner = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    // A name may be empty after a prefix (`com.example/`), as MCP's key rules allow.
    let name_ok = (name.is_empty() && prefix.is_some())
        || (edge(name.chars().next()) && edge(name.chars().last()) && name.chars().all(inner));
    if !name_ok {
        return Some(format!(
            "a `_meta` key's name {name:?} must start and end with a letter or digit and hold \
             only letters, digits, `-`, `_` and `.` (one `/` ends the prefix); {WHAT}"
        ));
    }
    None
}

/// A prefix label: a letter, then letters, digits and `-`, ending in a letter or digit.
fn is_label(label: &str) -> bool {
    label
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && label
            .chars()
            .last()
            .is_some_and(|c| c.is_ascii_alphanumeric())
        && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// Whether MCP keeps a prefix for itself: 2025-11-25 and later reserve those whose second label
/// is `modelcontextprotocol` or `mcp`; 2025-06-18 reserved those with either as any label but
/// the last. A key of either kind would be read as MCP's by some peer.
fn is_reserved(labels: &[&str]) -> bool {
    let reserved = |label: &&str| {
        label.eq_ignore_ascii_case("modelcontextprotocol") || label.eq_ignore_ascii_case("mcp")
    };
    labels.get(1).is_some_and(reserved)
        || labels
            .split_last()
            .is_some_and(|(_, before)| before.iter().any(reserved))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_keys_follow_mcp_s_key_rules() {
        for good in [
            "category",
            "com.example/category",
            "com.example/",
            "com.example-inc/ui.color_2",
            "com.example.mcp/x",
        ] {
            assert_eq!(meta_key_problem(good), None, "{good}");
        }
        for bad in [
            "",
            "-category",
            "category_",
            "com..example/x",
            "1com.example/x",
            "com.example/a/b",
            "io.modelcontextprotocol/x",
            "dev.mcp/x",
            "mcp.dev/x",
            "/x",
        ] {
            assert!(meta_key_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn icon_sources_are_web_urls_or_base64_images() {
        let check = |src: &str| check_src(&LitStr::new(src, Span::call_site())).is_ok();
        for good in [
            "https://example.com/note.svg",
            "http://localhost:8000/n.png",
            "data:image/png;base64,iVBORw0KGgo=",
        ] {
            assert!(check(good), "{good}");
        }
        for bad in [
            "note.svg",
            "file:///etc/passwd",
            "javascript:alert(1)",
            "https:///path",
            "https://example.com/a b.png",
            "data:image/png,raw",
            "data:text/html;base64,PGgxPg==",
            "data:image/png;base64,",
        ] {
            assert!(!check(bad), "{bad}");
        }
    }

    #[test]
    fn sizes_are_w_x_h_or_any() {
        assert!(["48x48", "any", "1x1"].iter().all(|size| is_size(size)));
        assert!(
            !["48", "0x48", "48X48", "x48", ""]
                .iter()
                .any(|size| is_size(size))
        );
    }
}
