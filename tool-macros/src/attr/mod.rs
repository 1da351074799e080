//! The options of `#[tool(...)]` and `#[toolkit(...)]`: each checked for its form, with errors in
//! terms of the options, then read. The `icon` and `meta` options, which only MCP advertises, are
//! read in `metadata`; what every option shares, in `syntax`.

pub mod metadata;
mod require;
pub mod syntax;
mod task;
mod timeout;
mod words;

use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned;
use syn::{Lit, LitStr, Meta};

pub use self::require::Require;
use self::syntax::{Item, known_names};
pub use self::task::TaskAttr;
pub use self::timeout::Timeout;
pub use self::words::{Scopes, Tags, check_scopes, check_tags};
use crate::error::{Errors, Result, at, err_at};

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
/// Mistakes of form (an unknown option, with a did-you-mean when a known one is near, an option
/// written twice, a flag with a value, a string option without a string) are reported in terms
/// of the options, and the items at fault are left out, so that only known options, each
/// written in its form, are read.
///
/// Returns the options read from the items of good form (the defaults if any of those is
/// refused), so that the fn can still be checked, and the errors, if any.
pub fn read(args: TokenStream) -> (ToolAttr, Option<syn::Error>) {
    read_checked(args, &TOOL_OPTIONS, ToolAttr::from_options)
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

/// Checks the form of each option, then reads those of good form with `read_options`.
fn read_checked<A: Default>(
    args: TokenStream,
    options: &Options,
    read_options: fn(&[Meta]) -> Result<A>,
) -> (A, Option<syn::Error>) {
    let items = match syntax::items(args) {
        Ok(items) => items,
        Err(error) => return (A::default(), Some(error)),
    };
    let mut errors = Errors::default();
    let mut seen = Vec::new();
    let good: Vec<Meta> = items
        .into_iter()
        .filter_map(|item| errors.handle(check_form(item, &mut seen, options)))
        .collect();
    let attr = errors.handle(read_options(&good));
    (attr.unwrap_or_default(), errors.finish().err())
}

/// Checks the form of one option: a known one, written once, a flag alone, a string option with
/// a string. Returns the option.
fn check_form(item: Item, seen: &mut Vec<String>, options: &Options) -> Result<Meta> {
    let meta = match item {
        Item::Option(meta) => meta,
        Item::Literal(lit) => {
            let name = match &lit {
                Lit::Str(text) => text.value(),
                _ => options.example.to_owned(),
            };
            return err_at(
                &lit,
                format!(
                    "options are written `key = value`: for the {}'s name, write \
                     `name = {name:?}`",
                    options.what
                ),
            );
        }
        Item::Unreadable { key: path, .. } => {
            let key = path.get_ident().map(ToString::to_string);
            return err_at(
                &path,
                format!(
                    "the value of `{}` is not one an option takes: write a string, a number \
                     or a list in parentheses",
                    key.as_deref().unwrap_or("this option")
                ),
            );
        }
    };
    let key = known_option(meta.path(), options)?;
    if seen.contains(&key) && !REPEATABLE.contains(&key.as_str()) {
        return err_at(meta.path(), format!("`{key}` is written twice; keep one"));
    }
    seen.push(key.clone());
    if options.flags.contains(&key.as_str()) && !matches!(meta, Meta::Path(_)) {
        let span: &dyn Spanned = match &meta {
            Meta::NameValue(name_value) => &name_value.value,
            _ => &meta,
        };
        return err_at(
            span,
            format!("`{key}` is a flag: write `{key}` alone to set it, or leave it out"),
        );
    }
    if options.strings.contains(&key.as_str()) {
        let value = match &meta {
            Meta::NameValue(name_value) => Some(&name_value.value),
            _ => None,
        };
        if value.and_then(syntax::string).is_none() {
            let span: &dyn Spanned = match value {
                Some(value) => value,
                None => &meta,
            };
            return err_at(
                span,
                format!("`{key}` takes a string: write `{key} = \"...\"`"),
            );
        }
    }
    Ok(meta)
}

/// The option `path` names, or an error that it names none of `options`, suggesting the option
/// nearest its last segment if that is within two edits: `readonlyy` and `tool_core::readonly`
/// both get "did you mean `readonly`?".
fn known_option(path: &syn::Path, options: &Options) -> Result<String> {
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
    Err(at(
        path,
        format!("`#[{}]` has no option `{key}`; {known}", options.what),
    ))
}

/// `#[tool(...)]` as written.
#[derive(Debug, Default)]
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
    /// `timeout = "5s"`.
    pub timeout: Option<Timeout>,
    /// `icon = "https://..."` or `icon(src = "...", ...)`, any number of times.
    pub icon: Vec<metadata::IconAttr>,
    /// `meta("com.example/key" = value, ...)`, any number of times.
    pub meta: Vec<metadata::MetaAttr>,
    /// `tags("notes", "write")`, any number of times.
    pub tags: Vec<Tags>,
    /// `scopes("notes:write")`, any number of times: the OAuth scopes a caller's token needs.
    pub scopes: Vec<Scopes>,
}

impl ToolAttr {
    /// Reads options of good form (`check_form`'s), every value's mistake reported.
    fn from_options(options: &[Meta]) -> Result<Self> {
        let mut attr = ToolAttr::default();
        let mut errors = Errors::default();
        for option in options {
            let text = || string(option).map(LitStr::value);
            match option_key(option).as_str() {
                "name" => attr.name = string(option).cloned(),
                "title" => attr.title = text(),
                "summary" => attr.summary = text(),
                "description" => attr.description = text(),
                "readonly" => attr.readonly = Flag::at(option),
                "destructive" => attr.destructive = Flag::at(option),
                "idempotent" => attr.idempotent = Flag::at(option),
                "open_world" => attr.open_world = Flag::at(option),
                "allow_any" => attr.allow_any = Flag::at(option),
                "lenient" => attr.lenient = Flag::at(option),
                "task" => attr.task = errors.handle(TaskAttr::from_meta(option)),
                "timeout" => attr.timeout = errors.handle(Timeout::from_meta(option)),
                "icon" => attr
                    .icon
                    .extend(errors.handle(metadata::IconAttr::from_meta(option))),
                "meta" => attr
                    .meta
                    .extend(errors.handle(metadata::MetaAttr::from_meta(option))),
                "tags" => attr.tags.extend(errors.handle(Tags::from_meta(option))),
                "scopes" => attr.scopes.extend(errors.handle(Scopes::from_meta(option))),
                _ => {}
            }
        }
        errors.finish_with(attr)
    }
}

/// A flag option, such as `readonly`: where it was written, if it was.
#[derive(Debug, Default, Clone, Copy)]
pub struct Flag(Option<Span>);

impl Flag {
    /// The flag written as `option`.
    fn at(option: &Meta) -> Self {
        Flag(Some(option.path().span()))
    }

    /// Whether the flag was written.
    pub fn is_present(&self) -> bool {
        self.0.is_some()
    }

    /// Where the flag was written (the call site if it was not).
    pub fn span(&self) -> Span {
        self.0.unwrap_or_else(Span::call_site)
    }
}

/// The key of an option of good form: one identifier.
fn option_key(option: &Meta) -> String {
    option
        .path()
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default()
}

/// The string an option's value is, if it is one.
fn string(option: &Meta) -> Option<&LitStr> {
    match option {
        Meta::NameValue(name_value) => syntax::string(&name_value.value),
        _ => None,
    }
}

/// `#[toolkit(...)]` as written.
#[derive(Debug, Default)]
pub struct ToolkitAttr {
    /// `name = "note"`.
    pub name: Option<LitStr>,
    /// `scopes("notes:read")`, any number of times: scopes every tool of the toolkit needs,
    /// before its own.
    pub scopes: Vec<Scopes>,
    /// `require(title, hints)`: what every tool of the toolkit must say.
    pub require: Option<Require>,
}

impl ToolkitAttr {
    /// Reads options of good form (`check_form`'s), every value's mistake reported.
    fn from_options(options: &[Meta]) -> Result<Self> {
        let mut attr = ToolkitAttr::default();
        let mut errors = Errors::default();
        for option in options {
            match option_key(option).as_str() {
                "name" => attr.name = string(option).cloned(),
                "scopes" => attr.scopes.extend(errors.handle(Scopes::from_meta(option))),
                "require" => attr.require = errors.handle(Require::from_meta(option)),
                _ => {}
            }
        }
        errors.finish_with(attr)
    }
}

/// Reads `#[toolkit(...)]`, its mistakes of form reported like those of `#[tool(...)]`; the
/// options, and the error for any that are wrong.
pub fn read_toolkit(args: TokenStream) -> (ToolkitAttr, Option<syn::Error>) {
    read_checked(args, &TOOLKIT_OPTIONS, ToolkitAttr::from_options)
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
    fn messages(error: Option<syn::Error>) -> Vec<String> {
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
    fn a_value_that_is_no_expression_is_refused_at_its_key_and_the_rest_still_read() {
        let (attr, error) = read(quote!(name = pub(crate), readonly, title = "Notes"));
        assert_eq!(
            messages(error),
            [
                "the value of `name` is not one an option takes: write a string, a number or a \
              list in parentheses"
            ]
        );
        assert!(attr.readonly.is_present());
        assert_eq!(attr.title.as_deref(), Some("Notes"));
        assert!(attr.name.is_none());
    }

    #[test]
    fn a_keyword_is_an_unknown_option_not_a_parse_error() {
        assert_eq!(
            tool_errors(quote!(type = "x")),
            [format!(
                "`#[tool]` has no option `type`; {TOOL_OPTION_LIST}"
            )]
        );
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
        assert!(matches!(syntax::literal(&grouped), Some(Lit::Str(text)) if text.value() == "5s"));
        assert!(syntax::literal(&syn::parse_quote!(FIVE_SECONDS)).is_none());
    }
}
