//! The rules a field's `#[schemars(...)]` declares, held to the field's type: a bound that
//! cannot apply to it (which schemars would drop without a word), a literal pattern the
//! registry's `regex` cannot read, an `extend` keyword the registry cannot check.

use crate::error::{Errors, at};

/// Holds each rule a field's `#[schemars(...)]` gives it to what its type's schema can take
/// (schemars drops one that cannot apply, so a model is never told it and the user never
/// learns), reads each literal pattern as the registry will, and refuses a keyword `extend`
/// adds that the registry could not check. A type the tokens do not tell (a type of the
/// user's, an alias) is left to the registry, which checks the schema itself when it is made.
pub(super) fn field_rules(param: &crate::model::Param) -> crate::error::Result<()> {
    use crate::model::rules::{RuleKind, Shape};
    let Some(ident) = &param.ident else {
        return Ok(());
    };
    let field = crate::model::rules::of(&param.field_attrs);
    let outer = if field.schema_elsewhere {
        Shape::Unknown
    } else {
        crate::model::rules::shape(&param.ty)
    };
    let name = crate::case::unraw(ident);
    let mut errors = Errors::default();
    for alias in &field.aliases {
        let shown = field.rename.as_deref().unwrap_or(&name);
        errors.push(at(
            alias,
            format!(
                "`alias` gives this field a second name that its schema does not show: a model \
                 is never told of it, and the registry may refuse it as an unknown field; take \
                 it out (to every caller the field is `{shown}`)"
            ),
        ));
    }
    for rule in &field.rules {
        match &rule.kind {
            RuleKind::Format(format) if format == "ip" => {
                errors.push(at(
                    &rule.span,
                    "`ip` writes the format `ip`, which is no standard format, so no model is \
                     told what it means and the registry cannot check it on text: write `ipv4` or \
                     `ipv6`, or give the parameter the type `std::net::IpAddr`, which reads either",
                ));
                continue;
            }
            RuleKind::Pattern(_) | RuleKind::Contains if !cfg!(feature = "patterns") => {
                errors.push(at(
                    &rule.span,
                    format!(
                        "`{}` is checked with tool-core's `patterns` feature, which is off: turn \
                         it on, `tool-core = {{ version = \"0.1\", features = [\"patterns\"] }}`",
                        rule.kind.written()
                    ),
                ));
                continue;
            }
            RuleKind::Pattern(Some(pattern)) => {
                if let Err(problem) = readable_pattern(&pattern.value()) {
                    errors.push(at(
                        &pattern.span(),
                        format!(
                            "the registry reads patterns with the `regex` crate, which cannot \
                             read this one ({problem}): write it without look-around or \
                             backreferences, and check what they checked in the handler, \
                             saying so in the description"
                        ),
                    ));
                }
            }
            RuleKind::Extend(key) => {
                if !is_understood(&key.value()) {
                    errors.push(at(
                        &key.span(),
                        format!(
                            "`{}` is not a keyword the registry can check, so a model would be \
                             told a rule nobody enforces; take it out (and check it in the \
                             handler, saying so in the description), or name it `x-...` if it \
                             only annotates",
                            key.value()
                        ),
                    ));
                }
                continue;
            }
            _ => {}
        }
        let (shape, ty, whose) = if rule.inner {
            match &outer {
                Shape::List(Some(item)) => (
                    crate::model::rules::shape(item),
                    &**item,
                    format!("`{name}`'s items are"),
                ),
                Shape::List(None) | Shape::Unknown => continue,
                other => {
                    errors.push(at(
                        &rule.span,
                        format!(
                            "`inner(..)` bounds the items of a list, and `{name}` is {}: write \
                             `{}` without `inner(..)`",
                            other.said(&param.ty),
                            rule.kind.written()
                        ),
                    ));
                    continue;
                }
            }
        } else {
            (outer.clone(), &param.ty, format!("`{name}` is"))
        };
        if let Some(problem) = misfit(&rule.kind, &shape, &shape.said(ty), &whose) {
            errors.push(at(&rule.span, problem));
        }
    }
    errors.finish()
}

/// Why `kind` cannot apply to a value of this shape, and what to write instead.
fn misfit(
    kind: &crate::model::rules::RuleKind,
    shape: &crate::model::rules::Shape,
    said: &str,
    whose: &str,
) -> Option<String> {
    use crate::model::rules::{RuleKind, Shape};
    let written = kind.written();
    Some(match (kind, shape) {
        (_, Shape::Unknown) => return None,
        (RuleKind::Range, Shape::Number) => return None,
        (RuleKind::Range, Shape::Text) => format!(
            "`range(..)` bounds a number, and {whose} {said}: for its length in characters \
             write `length(min = .., max = ..)`"
        ),
        (RuleKind::Range, Shape::List(_)) => format!(
            "`range(..)` bounds a number, and {whose} {said}: for how many items it holds write \
             `length(min = .., max = ..)`, or to bound each item `inner(range(..))`"
        ),
        (RuleKind::Length, Shape::Text | Shape::List(_)) => return None,
        (RuleKind::Length, Shape::Number) => format!(
            "`length(..)` bounds the length of text or a list, and {whose} {said}: for its value \
             write `range(min = .., max = ..)`"
        ),
        (RuleKind::Pattern(_) | RuleKind::Contains | RuleKind::Format(_), Shape::Text) => {
            return None;
        }
        (RuleKind::Pattern(_) | RuleKind::Contains | RuleKind::Format(_), Shape::List(_)) => {
            format!(
                "`{written}` checks text, and {whose} {said}: to check each item write `inner({written})`"
            )
        }
        (RuleKind::Range, _) => format!(
            "`range(..)` bounds a number, and {whose} {said}, which it cannot bound: take it out"
        ),
        (RuleKind::Length, _) => format!(
            "`length(..)` bounds the length of text or a list, and {whose} {said}, which it \
             cannot bound: take it out"
        ),
        (RuleKind::Pattern(_) | RuleKind::Contains | RuleKind::Format(_), _) => format!(
            "`{written}` checks text, and {whose} {said}, which it cannot check: take it out"
        ),
        (RuleKind::Extend(_), _) => return None,
    })
}

/// Whether the registry's checker reads `pattern` (it reads patterns with the `regex` crate,
/// whose syntax `regex-syntax` is): `Err` with what it cannot read.
#[cfg(feature = "patterns")]
fn readable_pattern(pattern: &str) -> Result<(), String> {
    match regex_syntax::Parser::new().parse(pattern) {
        Ok(_) => Ok(()),
        Err(regex_syntax::Error::Parse(error)) => Err(error.kind().to_string()),
        Err(regex_syntax::Error::Translate(error)) => Err(error.kind().to_string()),
        Err(error) => Err(error.to_string()),
    }
}

/// Without tool-core's `patterns` feature no pattern gets this far (see `field_rules`).
#[cfg(not(feature = "patterns"))]
fn readable_pattern(_pattern: &str) -> Result<(), String> {
    Ok(())
}

/// The keywords the registry enforces, and those that constrain nothing, as `tool-core`'s
/// `schema::keywords` lists them (a proc-macro crate cannot share that list); `x-...` are
/// annotations.
const UNDERSTOOD: [&str; 39] = [
    "$ref",
    "allOf",
    "anyOf",
    "oneOf",
    "enum",
    "const",
    "type",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "prefixItems",
    "items",
    "properties",
    "additionalProperties",
    "patternProperties",
    "required",
    "minProperties",
    "maxProperties",
    "$schema",
    "$id",
    "$comment",
    "$defs",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "nullable",
];

fn is_understood(keyword: &str) -> bool {
    UNDERSTOOD.contains(&keyword) || keyword.starts_with("x-")
}
