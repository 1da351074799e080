//! The options of `#[tool(...)]`, read with darling.

use std::time::Duration;

use darling::util::Flag;
use darling::FromMeta;
use syn::{Lit, LitStr};

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
    /// `timeout = "5s"` or `timeout = 5000`.
    pub timeout: Option<Timeout>,
}

/// A timeout option: a string with a unit or an integer of milliseconds.
#[derive(Debug)]
pub struct Timeout(pub Duration);

impl FromMeta for Timeout {
    fn from_value(value: &Lit) -> darling::Result<Self> {
        const HELP: &str =
            "write the timeout as \"250ms\", \"5s\", \"2m\" or \"1h\", or as an integer of milliseconds";
        let duration = match value {
            Lit::Int(int) => int
                .base10_parse::<u64>()
                .ok()
                .map(Duration::from_millis),
            Lit::Str(text) => parse_duration(&text.value()),
            _ => None,
        };
        match duration {
            Some(duration) if !duration.is_zero() => Ok(Timeout(duration)),
            Some(_) => Err(darling::Error::custom("a timeout must be longer than zero").with_span(value)),
            None => Err(darling::Error::custom(format!("unreadable timeout; {HELP}")).with_span(value)),
        }
    }
}

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
