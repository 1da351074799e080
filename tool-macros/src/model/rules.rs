//! The validation rules a parameter's `#[schemars(...)]` attributes give its field (`range`,
//! `length`, `regex`, `contains`, the formats, `inner(...)` of each, and `extend` keywords),
//! read from the tokens with their spans, and what the parameter's type says of the schema it
//! will have (a number, text, a list, ...), where its tokens say it.
//!
//! schemars writes a bound only where the schema's type can take it, and drops it without a
//! word elsewhere (`range` on a `String`): `check` holds each rule to the type, so the user
//! learns when building what a model would never have been told. This module only reads;
//! what it cannot read (a malformed attribute) it skips, since schemars and serde report that
//! themselves.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, LitStr, Type};

use crate::model::last_segment_is;

/// One rule, as written.
pub struct Rule {
    /// What it bounds.
    pub kind: RuleKind,
    /// Where it was written: the rule's name.
    pub span: Span,
    /// Whether it is inside `inner(...)`, so it bounds the items of a list.
    pub inner: bool,
}

/// What a rule bounds.
pub enum RuleKind {
    /// `range(...)`: a number's value.
    Range,
    /// `length(...)`: the length of text or a list.
    Length,
    /// `regex(pattern = ...)` or `pattern(...)`, with the pattern when it is a literal.
    Pattern(Option<LitStr>),
    /// `contains(...)`: text holding a substring.
    Contains,
    /// `email`, `url`, `ip`, `ipv4`, `ipv6`: a format of text.
    Format(String),
    /// A keyword `extend("...")` adds to the schema.
    Extend(LitStr),
}

impl RuleKind {
    /// The rule as the user wrote it, for messages.
    pub fn written(&self) -> String {
        match self {
            RuleKind::Range => "range(..)".to_owned(),
            RuleKind::Length => "length(..)".to_owned(),
            RuleKind::Pattern(_) => "regex(..)".to_owned(),
            RuleKind::Contains => "contains(..)".to_owned(),
            RuleKind::Format(name) => name.clone(),
            RuleKind::Extend(key) => format!("extend({:?} = ..)", key.value()),
        }
    }

    /// The JSON Schema types the rule applies to (any of them), as schemars decides where it
    /// writes the rule; `None` for an `extend` keyword, which schemars writes anywhere.
    pub fn needs(&self) -> Option<&'static [&'static str]> {
        match self {
            RuleKind::Range => Some(&["number", "integer"]),
            RuleKind::Length => Some(&["string", "array"]),
            RuleKind::Pattern(_) | RuleKind::Contains | RuleKind::Format(_) => Some(&["string"]),
            RuleKind::Extend(_) => None,
        }
    }
}

/// What a parameter's `#[serde]` and `#[schemars]` attributes say of its field.
#[derive(Default)]
pub struct FieldRules {
    /// Its rules, in order.
    pub rules: Vec<Rule>,
    /// The name serde reads it by, when renamed.
    pub rename: Option<String>,
    /// Whether its schema is not its type's (`with`, `schema_with`) or is merged into the
    /// input's (`flatten`), so its type says nothing of it.
    pub schema_elsewhere: bool,
    /// Where each `alias = ".."` of its `#[serde]` is: a name serde reads that no schema shows.
    pub aliases: Vec<proc_macro2::Span>,
    /// Whether serde reads it from no field of a name of its own (`flatten`, `skip`,
    /// `skip_deserializing`).
    pub unnamed: bool,
    /// Whether serde reads it by a fn of the user's (`with`, `deserialize_with`), which may
    /// see a `null` the type alone would not.
    pub read_by_fn: bool,
    /// Whether an attribute may name a fn of the field's type (`default`, `with`, an
    /// `example`), or says what serde or schemars make of it beyond a name and a rule (`bound`,
    /// `flatten`, `skip`, anything not known here): such a field keeps its concrete type in the
    /// input struct, where the others are generic.
    pub own_type: bool,
}

/// What a parameter's `#[serde(...)]` may say and its field still be generic: names.
const GENERIC_SERDE: [&str; 2] = ["rename", "alias"];

/// What a parameter's `#[schemars(...)]` may say and its field still be generic: names, words
/// for a model, and rules that schemars adds to the schema its type gives.
const GENERIC_SCHEMARS: [&str; 16] = [
    "rename",
    "title",
    "description",
    "range",
    "length",
    "regex",
    "pattern",
    "contains",
    "email",
    "url",
    "ip",
    "ipv4",
    "ipv6",
    "inner",
    "extend",
    "required",
];

/// Reads the rules of a field's attributes.
pub fn of(attrs: &[Attribute]) -> FieldRules {
    let mut field = FieldRules::default();
    for attr in attrs {
        let read = if attr.path().is_ident("schemars") {
            attr.parse_nested_meta(|meta| read_schemars(meta, &mut field, false))
        } else if attr.path().is_ident("serde") {
            attr.parse_nested_meta(|meta| read_serde(meta, &mut field))
        } else {
            Ok(())
        };
        // What could not be read is not known to leave the type alone.
        field.own_type |= read.is_err();
    }
    field
}

fn read_schemars(
    meta: syn::meta::ParseNestedMeta<'_>,
    field: &mut FieldRules,
    inner: bool,
) -> syn::Result<()> {
    let span = meta.path.span();
    let name = meta
        .path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default();
    field.own_type |= !GENERIC_SCHEMARS.contains(&name.as_str());
    let kind = match name.as_str() {
        "range" => Some(RuleKind::Range),
        "length" => Some(RuleKind::Length),
        "contains" => Some(RuleKind::Contains),
        "email" | "url" | "ip" | "ipv4" | "ipv6" => Some(RuleKind::Format(name.clone())),
        "regex" => {
            let mut pattern = None;
            meta.parse_nested_meta(|nested| {
                if nested.path.is_ident("pattern") {
                    pattern = literal(&nested.value()?.parse::<Expr>()?);
                } else {
                    skip(&nested)?;
                }
                Ok(())
            })?;
            field.rules.push(Rule {
                kind: RuleKind::Pattern(pattern),
                span,
                inner,
            });
            return Ok(());
        }
        "pattern" => {
            let content;
            syn::parenthesized!(content in meta.input);
            let pattern = literal(&content.parse::<Expr>()?);
            field.rules.push(Rule {
                kind: RuleKind::Pattern(pattern),
                span,
                inner,
            });
            return Ok(());
        }
        "inner" => {
            return meta.parse_nested_meta(|nested| read_schemars(nested, field, true));
        }
        "extend" => {
            let content;
            syn::parenthesized!(content in meta.input);
            while !content.is_empty() {
                let key: LitStr = content.parse()?;
                content.parse::<syn::Token![=]>()?;
                // A value in JSON's syntax (`{"const": 1}`), which is no Rust expression.
                while !content.is_empty() && !content.peek(syn::Token![,]) {
                    content.parse::<proc_macro2::TokenTree>()?;
                }
                field.rules.push(Rule {
                    kind: RuleKind::Extend(key),
                    span,
                    inner,
                });
                if content.is_empty() {
                    break;
                }
                content.parse::<syn::Token![,]>()?;
            }
            return Ok(());
        }
        "with" | "schema_with" => {
            field.schema_elsewhere = true;
            None
        }
        "rename" => {
            if let Some(name) = literal(&meta.value()?.parse::<Expr>()?) {
                field.rename.get_or_insert(name.value());
            }
            return Ok(());
        }
        _ => None,
    };
    if let Some(kind) = kind {
        field.rules.push(Rule { kind, span, inner });
    }
    skip(&meta)
}

fn read_serde(meta: syn::meta::ParseNestedMeta<'_>, field: &mut FieldRules) -> syn::Result<()> {
    field.own_type |= !(GENERIC_SERDE.iter()).any(|name| meta.path.is_ident(name));
    if meta.path.is_ident("flatten") {
        field.schema_elsewhere = true;
        field.unnamed = true;
    } else if meta.path.is_ident("skip") || meta.path.is_ident("skip_deserializing") {
        field.unnamed = true;
    } else if meta.path.is_ident("with") || meta.path.is_ident("deserialize_with") {
        field.read_by_fn = true;
    } else if meta.path.is_ident("alias") {
        field.aliases.push(meta.path.span());
    } else if meta.path.is_ident("rename") {
        if meta.input.peek(syn::Token![=]) {
            if let Some(name) = literal(&meta.value()?.parse::<Expr>()?) {
                field.rename = Some(name.value());
            }
            return Ok(());
        }
        // `rename(deserialize = "...")`: the name the arguments use.
        return meta.parse_nested_meta(|nested| {
            if nested.path.is_ident("deserialize")
                && let Some(name) = literal(&nested.value()?.parse::<Expr>()?)
            {
                field.rename = Some(name.value());
                return Ok(());
            }
            skip(&nested)
        });
    }
    skip(&meta)
}

/// Passes over what follows a name: `= value`, `(...)`, or nothing.
fn skip(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        content.parse::<proc_macro2::TokenStream>()?;
    }
    Ok(())
}

fn literal(expr: &Expr) -> Option<LitStr> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) => Some(text.clone()),
        _ => None,
    }
}

/// What a type's schema is, where its tokens say it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// An integer or a float.
    Number,
    /// A string.
    Text,
    /// A list of items, of this type when it is known.
    List(Option<Box<Type>>),
    /// `true` or `false`.
    Bool,
    /// An object of entries.
    Map,
    /// Anything else: a type of the user's, an alias; only its schema will tell.
    Unknown,
}

impl Shape {
    /// The shape, in words for a message: "a number (`u8`)".
    pub fn said(&self, ty: &Type) -> String {
        let ty = crate::case::type_text(ty);
        match self {
            Shape::Number => format!("a number (`{ty}`)"),
            Shape::Text => format!("text (`{ty}`)"),
            Shape::List(_) => format!("a list (`{ty}`)"),
            Shape::Bool => format!("a `{ty}`"),
            Shape::Map => format!("a map (`{ty}`)"),
            Shape::Unknown => format!("a `{ty}`"),
        }
    }
}

/// The shape of `ty`'s schema, seen through `Option` and `Box`, by its last path segment.
pub fn shape(ty: &Type) -> Shape {
    let ty = unwrapped(ty);
    if let Type::Array(array) = ty {
        return Shape::List(Some(array.elem.clone()));
    }
    let Type::Path(path) = ty else {
        return Shape::Unknown;
    };
    let Some(last) = path.path.segments.last() else {
        return Shape::Unknown;
    };
    let argument = type_argument(last, 0);
    match last.ident.to_string().as_str() {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64" | "i128"
        | "isize" | "f32" | "f64" | "NonZero" | "NonZeroU8" | "NonZeroU16" | "NonZeroU32"
        | "NonZeroU64" | "NonZeroU128" | "NonZeroUsize" | "NonZeroI8" | "NonZeroI16"
        | "NonZeroI32" | "NonZeroI64" | "NonZeroI128" | "NonZeroIsize" => Shape::Number,
        "String" | "str" | "char" | "PathBuf" => Shape::Text,
        "bool" => Shape::Bool,
        "Vec" | "VecDeque" | "HashSet" | "BTreeSet" | "LinkedList" | "BinaryHeap" | "IndexSet" => {
            Shape::List(argument.cloned().map(Box::new))
        }
        "HashMap" | "BTreeMap" | "IndexMap" => Shape::Map,
        _ => Shape::Unknown,
    }
}

/// `T` of `Option<T>` and `Box<T>`, as many times as it is wrapped.
fn unwrapped(ty: &Type) -> &Type {
    match ty {
        Type::Group(group) => unwrapped(&group.elem),
        Type::Paren(paren) => unwrapped(&paren.elem),
        Type::Path(path) if last_segment_is(ty, "Option") || last_segment_is(ty, "Box") => path
            .path
            .segments
            .last()
            .and_then(|last| type_argument(last, 0))
            .map_or(ty, unwrapped),
        _ => ty,
    }
}

/// The `index`th type argument of a path segment as written (`u8` of `Vec<u8>`), if it has one.
pub fn type_argument(segment: &syn::PathSegment, index: usize) -> Option<&Type> {
    let syn::PathArguments::AngleBracketed(args) = &segment.arguments else {
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

#[cfg(test)]
mod tests {
    use syn::parse_quote;

    use super::*;

    #[test]
    fn shapes_are_read_through_option_and_box() {
        assert_eq!(shape(&parse_quote!(u8)), Shape::Number);
        assert_eq!(
            shape(&parse_quote!(Option<std::num::NonZeroU32>)),
            Shape::Number
        );
        assert_eq!(shape(&parse_quote!(Option<Box<String>>)), Shape::Text);
        assert_eq!(
            shape(&parse_quote!(Vec<u8>)),
            Shape::List(Some(Box::new(parse_quote!(u8))))
        );
        assert_eq!(
            shape(&parse_quote!([String; 3])),
            Shape::List(Some(Box::new(parse_quote!(String))))
        );
        assert_eq!(shape(&parse_quote!(HashMap<String, u8>)), Shape::Map);
        assert_eq!(shape(&parse_quote!(bool)), Shape::Bool);
        assert_eq!(shape(&parse_quote!(Slug)), Shape::Unknown);
        assert_eq!(shape(&parse_quote!(&str)), Shape::Unknown);
    }

    #[test]
    fn rules_are_read_with_what_they_bound() {
        let field: syn::ItemFn = parse_quote! {
            fn f(
                #[schemars(range(min = 1), regex(pattern = r"^a"), description = "x")]
                #[schemars(inner(length(max = 3)), extend("contains" = {"const": 1}), email)]
                #[serde(rename(deserialize = "tag_name"))]
                tag: String,
            ) {}
        };
        let syn::FnArg::Typed(param) = &field.sig.inputs[0] else {
            unreachable!()
        };
        let rules = of(&param.attrs);
        let written: Vec<(String, bool)> = rules
            .rules
            .iter()
            .map(|rule| (rule.kind.written(), rule.inner))
            .collect();
        assert_eq!(
            written,
            [
                ("range(..)".to_owned(), false),
                ("regex(..)".to_owned(), false),
                ("length(..)".to_owned(), true),
                ("extend(\"contains\" = ..)".to_owned(), false),
                ("email".to_owned(), false),
            ]
        );
        let RuleKind::Pattern(Some(pattern)) = &rules.rules[1].kind else {
            panic!("the pattern is a literal")
        };
        assert_eq!(pattern.value(), "^a");
        assert_eq!(rules.rename.as_deref(), Some("tag_name"));
        assert!(!rules.schema_elsewhere);
        // Names and rules leave the field generic.
        assert!(!rules.own_type);
    }

    #[test]
    fn a_field_keeps_its_type_where_an_attribute_may_name_a_fn_of_it() {
        let own_type = |attr: syn::Attribute| of(&[attr]).own_type;
        assert!(!own_type(parse_quote!(#[serde(rename = "at")])));
        assert!(!own_type(parse_quote!(#[serde(alias = "at")])));
        assert!(!own_type(
            parse_quote!(#[schemars(title = "T", length(max = 3))])
        ));
        assert!(!own_type(parse_quote!(#[doc = " A point."])));
        for attr in [
            parse_quote!(#[serde(default)]),
            parse_quote!(#[serde(rename = "at", default = "origin")]),
            parse_quote!(#[serde(with = "points")]),
            parse_quote!(#[serde(deserialize_with = "point")]),
            parse_quote!(#[serde(flatten)]),
            parse_quote!(#[serde(bound(deserialize = "T: Clone"))]),
            parse_quote!(#[schemars(with = "String")]),
            parse_quote!(#[schemars(example = origin())]),
            // What cannot be read is not known to leave the type alone.
            parse_quote!(#[serde(rename = )]),
        ] {
            assert!(own_type(attr));
        }
    }
}
