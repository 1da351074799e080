//! A tool's `icons` and `_meta` in its MCP definition, and the rules MCP sets for them: an
//! icon's `src` is an `https:`/`http:` URL or a `data:` URI of base64 image data, and a `_meta`
//! key is an optional reverse-DNS prefix and a name, the prefixes MCP keeps for itself left out.
//!
//! `#[tool]` checks the same rules when the crate is built (`tool-macros`' `metadata` module,
//! which cannot share this code: a proc-macro crate is built before this one); this check
//! catches definitions written by hand, when the registry is built.

use serde_json::{Map, Value};

use super::{ExportError, Provider};
use crate::tool::definition::{Icon, ToolDefinition};

/// Adds the tool's `icons` and `_meta` to its `tools/list` entry, if it has any, or says which
/// one MCP would refuse.
pub(super) fn insert(
    definition: &ToolDefinition,
    entry: &mut Map<String, Value>,
) -> Result<(), ExportError> {
    let refused = |path: String, problem: String| ExportError {
        tool: definition.name.clone(),
        provider: Some(Provider::Mcp),
        path,
        problem,
    };
    for (index, icon) in definition.icons.iter().enumerate() {
        if let Some(problem) = icon_problem(icon) {
            return Err(refused(format!("(icons)[{index}]"), problem));
        }
    }
    for key in definition.meta.keys() {
        if let Some(problem) = meta_key_problem(key) {
            return Err(refused(format!("(_meta).{key}"), problem));
        }
    }
    if !definition.icons.is_empty() {
        let icons = definition.icons.iter().map(icon_json).collect();
        entry.insert("icons".into(), Value::Array(icons));
    }
    if !definition.meta.is_empty() || !definition.tags.is_empty() {
        let mut meta = definition.meta.clone();
        // MCP has no field of its own for tags; a `tags` entry the tool set itself is kept.
        if !definition.tags.is_empty() && !meta.contains_key("tags") {
            let tags = definition.tags.iter().cloned().map(Value::String).collect();
            meta.insert("tags".into(), Value::Array(tags));
        }
        entry.insert("_meta".into(), Value::Object(meta));
    }
    Ok(())
}

/// An icon as MCP writes it: `src`, and `mimeType`, `sizes` and `theme` when set.
fn icon_json(icon: &Icon) -> Value {
    // Serializing a struct of strings cannot fail; `Null` is never reached.
    serde_json::to_value(icon).unwrap_or(Value::Null)
}

/// What is wrong with an icon, if anything.
fn icon_problem(icon: &Icon) -> Option<String> {
    if let Some(problem) = src_problem(&icon.src) {
        return Some(problem);
    }
    if let Some(mime_type) = &icon.mime_type
        && !is_image_mime_type(mime_type)
    {
        return Some(format!(
            "the MIME type {mime_type:?} is not an image type; write one such as \"image/png\" \
             or \"image/svg+xml\""
        ));
    }
    icon.sizes
        .iter()
        .find(|size| !is_size(size))
        .map(|size| format!("the size {size:?} is not `WxH` or `any`; write one such as \"48x48\""))
}

/// What is wrong with an icon's `src`, if anything: it must be an `https:` or `http:` URL with
/// a host, or a `data:` URI of base64 image data, without spaces or control characters.
fn src_problem(src: &str) -> Option<String> {
    const WHAT: &str = "write an `https://` URL or a `data:image/...;base64,...` URI";
    if src.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Some(format!(
            "an icon's src has no spaces or control characters; {WHAT}"
        ));
    }
    let lower = src.to_ascii_lowercase();
    if let Some(rest) = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
    {
        let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
        return host
            .is_empty()
            .then(|| format!("the icon URL {src:?} has no host; {WHAT}"));
    }
    if let Some(rest) = src
        .get("data:".len()..)
        .filter(|_| lower.starts_with("data:"))
    {
        let Some((media, data)) = rest.split_once(',') else {
            return Some(format!("this data URI has no `,` before its data; {WHAT}"));
        };
        let Some(media) = media.strip_suffix(";base64") else {
            return Some(
                "an icon's data URI holds base64 data: write `;base64` before the `,`, as in \
                 `data:image/png;base64,...`"
                    .to_owned(),
            );
        };
        let mime_type = media.split(';').next().unwrap_or_default();
        if !is_image_mime_type(mime_type) {
            return Some(format!(
                "this data URI's type {mime_type:?} is not an image type; {WHAT}"
            ));
        }
        let base64 = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=');
        if data.is_empty() || !data.chars().all(base64) {
            return Some(format!("this data URI's data is not base64 text; {WHAT}"));
        }
        return None;
    }
    Some(format!(
        "{src:?} is not an icon MCP clients may load; {WHAT}"
    ))
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

/// What is wrong with a `_meta` key, if anything, by MCP's key rules.
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
        if let Some(label) = labels.iter().find(|label| !is_label(label)) {
            return Some(format!(
                "the prefix label {label:?} must start with a letter, end with a letter or \
                 digit, and hold only letters, digits and `-`; {WHAT}"
            ));
        }
        if is_reserved(&labels) {
            return Some(format!(
                "the prefix `{prefix}/` is reserved for MCP itself; use a reverse-DNS prefix of \
                 your own, such as \"com.example/\""
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
            "the name {name:?} must start and end with a letter or digit and hold only letters, \
             digits, `-`, `_` and `.` (one `/` ends the prefix); {WHAT}"
        ));
    }
    None
}

/// A prefix label: a letter, then letters, digits and `-`, ending in a letter or digit.
fn is_label(label: &str) -> bool {
    let mut chars = label.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && label
            .chars()
            .last()
            .is_some_and(|c| c.is_ascii_alphanumeric())
        && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// Whether MCP keeps a prefix for itself: 2025-11-25 and later reserve those whose second label
/// is `modelcontextprotocol` or `mcp` (`io.modelcontextprotocol/`); 2025-06-18 reserved those
/// with either as any label but the last (`tools.mcp.com/`). A key of either kind would be
/// read as MCP's by some peer, so both are refused.
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
            "a/b",
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
            "com.example-/x",
            "com.example/a/b",
            "io.modelcontextprotocol/x",
            "dev.mcp/x",
            "com.MCP.tools/x",
            "mcp.dev/x",
            "/x",
            "with space",
        ] {
            assert!(meta_key_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn icons_are_urls_or_base64_images_of_image_types_and_sizes() {
        for good in [
            Icon::new("https://example.com/note.svg"),
            Icon::new("HTTP://localhost:8000/n.png"),
            Icon::new("data:image/png;base64,iVBORw0KGgo="),
            Icon::new("https://example.com/n.png")
                .with_mime_type("image/svg+xml")
                .with_sizes(["48x48", "any"]),
        ] {
            assert_eq!(icon_problem(&good), None, "{good:?}");
        }
        for bad in [
            Icon::new("note.svg"),
            Icon::new("file:///etc/passwd"),
            Icon::new("javascript:alert(1)"),
            Icon::new("https:///path"),
            Icon::new("https://example.com/a b.png"),
            Icon::new("data:image/png,rawbytes"),
            Icon::new("data:text/html;base64,PGgxPg=="),
            Icon::new("data:image/png;base64,"),
            Icon::new("data:image/png;base64,not base64!"),
            Icon::new("https://example.com/n.png").with_mime_type("text/plain"),
            Icon::new("https://example.com/n.png").with_sizes(["48"]),
            Icon::new("https://example.com/n.png").with_sizes(["0x48"]),
        ] {
            assert!(icon_problem(&bad).is_some(), "{bad:?}");
        }
    }
}
