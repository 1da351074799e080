//! The options of `#[tool(...)]` and `#[toolkit(...)]`: each checked for its form, with errors in
//! terms of the options, then read with darling. The `icon` and `meta` options, which only MCP
//! advertises, are read in `metadata`; what every option shares, in `syntax`.

pub mod metadata;
mod require;
pub mod syntax;
mod task;
mod words;

use std::time::Duration;

use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::util::Flag;
use proc_macro2::TokenStream;
use syn::spanned::Spanned;
use syn::{Lit, LitStr, Meta};

pub use self::require::Require;
use self::syntax::{error, known_names, literal};
pub use self::task::TaskAttr;
pub use self::words::{Scopes, Tags, check_scopes, check_tags};

/// The options that are flags, written alone.
const FLAGS: [&str; 6] = [
    "readonly",
    "destructive",
    "idempotent",
    "open_world",
    "allow_any",
    "lenient",
];

/// The options that may be written more than once, each adding to the others.
const REPEATABLE: [&str; 4] = ["icon", "meta", "tags", "scopes"];

/// The options whose value is a string.
const STRINGS: [&str; 4] = ["name", "title", "summary", "description"];

/// Reads `#[tool(...)]`.
///
/// Mistakes of form, which darling would report in its own terms ("Duplicate field", "Unexpected
/// type `bool`", "Unexpected meta-item format `literal`"), are reported here in terms of the
/// options, and the items at fault are left out so that darling does not report them again.
/// Unknown options are among them, each with a did-you-mean when a known option is near, so
/// darling is given only known options, each written in its form, to read.
///
/// Returns the options read from the items of good form (the defaults if darling refuses
/// them), so that the fn can still be checked, and the errors, if any.
pub fn read(args: TokenStream) -> (ToolAttr, Option<darling::Error>) {
    read_checked(args, &TOOL_OPTIONS)
}

/// What `check_form` knows of an attribute's options.
struct Options {
    /// The options that are flags.
    flags: &'static [&'static str],
    /// The options whose value is a string.
    strings: &'static [&'static str],
    /// What the `name` option names, for the message about a bare literal.
    what: &'static str,
    /// A name to suggest when the bare literal is not a string.
    example: &'static str,
    /// The options that are neither flags nor strings.
    others: &'static [&'static str],
}

const TOOL_OPTIONS: Options = Options {
    flags: &FLAGS,
    strings: &STRINGS,
    what: "tool",
    example: "note_write",
    others: &["task", "timeout", "icon", "meta", "tags", "scopes"],
};

const TOOLKIT_OPTIONS: Options = Options {
    flags: &[],
    strings: &["name"],
    what: "toolkit",
    example: "note",
    others: &["scopes", "require"],
};

/// Checks the form of each option, then reads those of good form with darling.
fn read_checked<A: FromMeta + Default>(
    args: TokenStream,
    options: &Options,
) -> (A, Option<darling::Error>) {
    let items = match NestedMeta::parse_meta_list(args) {
        Ok(items) => items,
        Err(error) => return (A::default(), Some(error.into())),
    };
    let mut errors = darling::Error::accumulator();
    let mut seen = Vec::new();
    let items: Vec<NestedMeta> = items
        .into_iter()
        .filter(|item| {
            errors
                .handle(check_form(item, &mut seen, options))
                .is_some()
        })
        .collect();
    let attr = errors.handle(A::from_list(&items));
    (attr.unwrap_or_default(), errors.finish().err())
}

/// Checks the form of one option: a known one, written once, a flag alone, a string option with
/// a string.
fn check_form(item: &NestedMeta, seen: &mut Vec<String>, options: &Options) -> darling::Result<()> {
    let meta = match item {
        NestedMeta::Meta(meta) => meta,
        NestedMeta::Lit(lit) => {
            let name = match lit {
                Lit::Str(text) => text.value(),
                _ => options.example.to_owned(),
            };
            return error(
                format!(
                    "options are written `key = value`: for the {}'s name, write \
                     `name = {name:?}`",
                    options.what
                ),
                lit,
            );
        }
        NestedMeta::NameValueInvalidExpr(invalid) => {
            let key = invalid.path.get_ident().map(ToString::to_string);
            return error(
                format!(
                    "the value of `{}` is not one an option takes: write a string, a number \
                     or a list in parentheses",
                    key.as_deref().unwrap_or("this option")
                ),
                &invalid.path,
            );
        }
    };
    let key = known_option(meta.path(), options)?;
    if seen.contains(&key) && !REPEATABLE.contains(&key.as_str()) {
        return error(format!("`{key}` is written twice; keep one"), meta.path());
    }
    seen.push(key.clone());
    if options.flags.contains(&key.as_str()) && !matches!(meta, Meta::Path(_)) {
        let span: &dyn Spanned = match meta {
            Meta::NameValue(name_value) => &name_value.value,
            _ => meta,
        };
        return error(
            format!("`{key}` is a flag: write `{key}` alone to set it, or leave it out"),
            span,
        );
    }
    if options.strings.contains(&key.as_str()) {
        let value = match meta {
            Meta::NameValue(name_value) => Some(&name_value.value),
            _ => None,
        };
        if !matches!(value.and_then(literal), Some(Lit::Str(_))) {
            let span: &dyn Spanned = match value {
                Some(value) => value,
                None => meta,
            };
            return error(
                format!("`{key}` takes a string: write `{key} = \"...\"`"),
                span,
            );
        }
    }
    Ok(())
}

/// The option `path` names, or an error that it names none of `options`, suggesting the option
/// nearest its last segment if that is within two edits: `readonlyy` and `tool_core::readonly`
/// both get "did you mean `readonly`?".
fn known_option(path: &syn::Path, options: &Options) -> darling::Result<String> {
    let segments: Vec<String> = path
        .segments
        .iter()
        .map(|segment| segment.ident.to_string())
        .collect();
    let key = segments.join("::");
    let known: Vec<&str> = options
        .strings
        .iter()
        .chain(options.flags)
        .chain(options.others)
        .copied()
        .collect();
    if known.contains(&key.as_str()) {
        return Ok(key);
    }
    let last = segments.last().map_or("", String::as_str);
    let known = known_names(last, &known, "options");
    Err(darling::Error::custom(format!(
        "`#[{}]` has no option `{key}`; {known}",
        options.what
    ))
    .with_span(path))
}

/// `#[tool(...)]` as written.
#[derive(Debug, Default, FromMeta)]
pub struct ToolAttr {
    /// `name = "note_write"`.
    pub name: Option<LitStr>,
    /// `title = "..."`.
    pub title: Option<String>,
    /// `summary = "..."`.
    pub summary: Option<String>,
    /// `description = "..."`.
    pub description: Option<String>,
    /// `readonly`.
    pub readonly: Flag,
    /// `destructive`.
    pub destructive: Flag,
    /// `idempotent`.
    pub idempotent: Flag,
    /// `open_world`.
    pub open_world: Flag,
    /// `allow_any`: fields of no single type (`serde_json::Value`) are allowed.
    pub allow_any: Flag,
    /// `lenient`: the tool forgives the slips models make most, whatever the registry says.
    pub lenient: Flag,
    /// `task`: a call may run as a task (started, watched, cancelled, its result read later);
    /// `task = "required"`: over MCP it runs only as one; `task = "after_input"`: over MCP it
    /// asks for its input first.
    pub task: Option<TaskAttr>,
    /// `timeout = "5s"` or `timeout = 5000`.
    pub timeout: Option<Timeout>,
    /// `icon = "https://..."` or `icon(src = "...", ...)`, any number of times.
    #[darling(multiple)]
    pub icon: Vec<metadata::IconAttr>,
    /// `meta("com.example/key" = value, ...)`, any number of times.
    #[darling(multiple)]
    pub meta: Vec<metadata::MetaAttr>,
    /// `tags("notes", "write")`, any number of times.
    #[darling(multiple)]
    pub tags: Vec<Tags>,
    /// `scopes("notes:write")`, any number of times: the OAuth scopes a caller's token needs.
    #[darling(multiple)]
    pub scopes: Vec<Scopes>,
}

/// A timeout option: a string with a unit or an integer of milliseconds.
#[derive(Debug)]
pub struct Timeout(pub Duration);

const TIMEOUT_HELP: &str =
    "write the timeout as \"250ms\", \"5s\", \"2m\" or \"1h\", or as an integer of milliseconds";

impl FromMeta for Timeout {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        let value = match item {
            Meta::NameValue(name_value) => &name_value.value,
            _ => {
                return Err(darling::Error::custom(format!(
                    "`timeout` takes a value, such as `timeout = \"5s\"`; {TIMEOUT_HELP}"
                ))
                .with_span(item));
            }
        };
        match literal(value) {
            Some(lit) => Self::from_value(lit),
            None => Err(darling::Error::custom(format!(
                "a timeout is written as a literal; {TIMEOUT_HELP}"
            ))
            .with_span(value)),
        }
    }

    fn from_value(value: &Lit) -> darling::Result<Self> {
        const HELP: &str = TIMEOUT_HELP;
        let duration = match value {
            Lit::Int(int) => int.base10_parse::<u64>().ok().map(Duration::from_millis),
            Lit::Str(text) => parse_duration(&text.value()),
            _ => None,
        };
        match duration {
            Some(duration) if !duration.is_zero() => Ok(Timeout(duration)),
            Some(_) => {
                Err(darling::Error::custom("a timeout must be longer than zero").with_span(value))
            }
            None => {
                Err(darling::Error::custom(format!("unreadable timeout; {HELP}")).with_span(value))
            }
        }
    }
}

/// A duration written as a whole number and a unit (`250ms`, `5s`, `2m` or `2min`, `1h`), spaces
/// allowed around and between; `None` for anything else, a number without a unit and one whose
/// milliseconds overflow a `u64` included.
fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_digit())?;
    let (number, unit) = text.split_at(split);
    let number: u64 = number.parse().ok()?;
    let millis = match unit.trim() {
        "ms" => number,
        "s" => number.checked_mul(1_000)?,
        "m" | "min" => number.checked_mul(60_000)?,
        "h" => number.checked_mul(3_600_000)?,
        _ => return None,
    };
    Some(Duration::from_millis(millis))
}

/// `#[toolkit(...)]` as written.
#[derive(Debug, Default, FromMeta)]
pub struct ToolkitAttr {
    /// `name = "note"`.
    pub name: Option<LitStr>,
    /// `scopes("notes:read")`, any number of times: scopes every tool of the toolkit needs,
    /// before its own.
    #[darling(multiple)]
    pub scopes: Vec<Scopes>,
    /// `require(title, hints)`: what every tool of the toolkit must say.
    pub require: Option<Require>,
}

/// Reads `#[toolkit(...)]`, its mistakes of form reported like those of `#[tool(...)]`; the
/// options, and the error for any that are wrong.
pub fn read_toolkit(args: TokenStream) -> (ToolkitAttr, Option<darling::Error>) {
    read_checked(args, &TOOLKIT_OPTIONS)
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use syn::Expr;

    use super::*;

    /// How an unknown-option error of `#[tool]` ends.
    const TOOL_OPTION_LIST: &str = "its options are `name`, `title`, `summary`, `description`, \
                                    `readonly`, `destructive`, `idempotent`, `open_world`, \
                                    `allow_any`, `lenient`, `task`, `timeout`, `icon`, `meta`, \
                                    `tags`, `scopes`";

    /// The messages of an attribute's errors, in order.
    fn messages(error: Option<darling::Error>) -> Vec<String> {
        error.into_iter().flatten().map(|e| e.to_string()).collect()
    }

    fn tool_errors(args: TokenStream) -> Vec<String> {
        messages(read(args).1)
    }

    #[test]
    fn unknown_option_suggests_the_nearest_within_two_edits() {
        let cases = [
            ("nmae", Some("name")),
            ("readonlyy", Some("readonly")),
            ("idempotnet", Some("idempotent")),
            ("openworld", Some("open_world")),
            ("timout", Some("timeout")),
            ("cache", None),
            ("descr", None),
        ];
        for (written, suggestion) in cases {
            let key: syn::Ident = syn::parse_str(written).unwrap();
            let hint = match suggestion {
                Some(option) => format!("did you mean `{option}`? "),
                None => String::new(),
            };
            let expected = format!("`#[tool]` has no option `{written}`; {hint}{TOOL_OPTION_LIST}");
            assert_eq!(tool_errors(quote!(#key)), [expected], "{written}");
        }
    }

    #[test]
    fn toolkit_unknown_option_suggests_name() {
        assert_eq!(
            messages(read_toolkit(quote!(nmae = "note")).1),
            [
                "`#[toolkit]` has no option `nmae`; did you mean `name`? its options are `name`, `scopes`, `require`"
            ]
        );
    }

    #[test]
    fn option_written_as_a_path_is_unknown_with_its_last_segment_suggested() {
        assert_eq!(
            tool_errors(quote!(tool_core::readonly, a::nmae = "note_write")),
            [
                format!(
                    "`#[tool]` has no option `tool_core::readonly`; did you mean `readonly`? \
                     {TOOL_OPTION_LIST}"
                ),
                format!(
                    "`#[tool]` has no option `a::nmae`; did you mean `name`? {TOOL_OPTION_LIST}"
                ),
            ]
        );
    }

    #[test]
    fn parse_duration_reads_a_whole_number_and_a_unit() {
        let cases: [(&str, Option<u64>); 20] = [
            ("250ms", Some(250)),
            ("5s", Some(5_000)),
            ("2m", Some(120_000)),
            ("2min", Some(120_000)),
            ("5h", Some(18_000_000)),
            ("0s", Some(0)),
            (" 5s ", Some(5_000)),
            ("5 s", Some(5_000)),
            ("18446744073709551615ms", Some(u64::MAX)),
            ("", None),
            ("   ", None),
            ("5", None),
            ("5000", None),
            ("s", None),
            ("-1s", None),
            ("+1s", None),
            ("1.5s", None),
            ("5S", None),
            ("5 parsecs", None),
            ("99999999999999999999s", None),
        ];
        for (text, millis) in cases {
            assert_eq!(
                parse_duration(text),
                millis.map(Duration::from_millis),
                "{text:?}"
            );
        }
    }

    #[test]
    fn parse_duration_refuses_a_unit_that_overflows_the_milliseconds() {
        for text in ["18446744073709552s", "307445734561826m", "5124095576031h"] {
            assert_eq!(parse_duration(text), None, "{text:?}");
        }
        assert_eq!(
            parse_duration("5124095576030h"),
            Some(Duration::from_millis(5_124_095_576_030 * 3_600_000))
        );
    }

    #[test]
    fn timeout_is_an_integer_of_milliseconds_or_a_string_with_a_unit() {
        let read = |lit: Lit| Timeout::from_value(&lit).map(|timeout| timeout.0);
        assert_eq!(
            read(syn::parse_quote!(5000)).ok(),
            Some(Duration::from_secs(5))
        );
        assert_eq!(
            read(syn::parse_quote!("5s")).ok(),
            Some(Duration::from_secs(5))
        );
        let refused = |lit: Lit| read(lit).unwrap_err().to_string();
        assert_eq!(
            refused(syn::parse_quote!(0)),
            "a timeout must be longer than zero"
        );
        assert_eq!(
            refused(syn::parse_quote!("0ms")),
            "a timeout must be longer than zero"
        );
        for lit in [
            syn::parse_quote!("5"),
            syn::parse_quote!(1.5),
            syn::parse_quote!(true),
            syn::parse_quote!(99999999999999999999),
        ] {
            assert_eq!(refused(lit), format!("unreadable timeout; {TIMEOUT_HELP}"));
        }
    }

    #[test]
    fn known_names_suggest_the_nearest_within_two_edits() {
        let parts = ["src", "mime_type", "sizes", "theme"];
        assert_eq!(
            known_names("thme", &parts, "parts"),
            "did you mean `theme`? its parts are `src`, `mime_type`, `sizes`, `theme`"
        );
        assert_eq!(
            known_names("colour", &parts, "parts"),
            "its parts are `src`, `mime_type`, `sizes`, `theme`"
        );
    }

    #[test]
    fn a_repeated_tag_is_refused_at_each_repeat_and_case_makes_another_tag() {
        let repeats = |args: TokenStream| {
            let (attr, error) = read(args);
            assert!(error.is_none(), "{error:?}");
            messages(check_tags(&attr.tags).err())
        };
        let repeat = "the tag \"notes\" is already given; drop this repeat";
        assert_eq!(repeats(quote!(tags("notes", "notes"))), [repeat]);
        assert_eq!(
            repeats(quote!(tags("notes"), tags("read", "notes"))),
            [repeat]
        );
        assert_eq!(
            repeats(quote!(tags("notes", "notes"), tags("notes"))),
            [repeat, repeat]
        );
        assert!(repeats(quote!(tags("notes", "Notes", "read"), tags("write"))).is_empty());
    }

    #[test]
    fn literal_is_seen_through_invisible_groups() {
        let lit: Expr = syn::parse_quote!("5s");
        let grouped = Expr::Group(syn::ExprGroup {
            attrs: Vec::new(),
            group_token: Default::default(),
            expr: Box::new(lit.clone()),
        });
        assert!(matches!(literal(&grouped), Some(Lit::Str(text)) if text.value() == "5s"));
        assert!(literal(&syn::parse_quote!(FIVE_SECONDS)).is_none());
    }
}
