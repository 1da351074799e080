//! Large outputs as artifacts: an output bigger than a set size is kept in a store, and the
//! model is shown a preview, the size and a handle, with which it reads the rest in parts
//! through the `artifact_read` tool (see
//! [`Registry::with_artifacts`](crate::Registry::with_artifacts)).
//!
//! A model's context is small and costly; a tool that returns a whole log or table would fill
//! it with text the model mostly does not need, and the provider may cut it anyway. Kept as an
//! artifact, the output costs a preview until the model asks for more, and only the parts it
//! asks for.
//!
//! Text and structured (JSON) outputs are kept; content blocks (images, audio, links) are left
//! as they are, since they are not read by the byte. A structured output's value is not cut:
//! it becomes a [`Content::Structured`] block, whose text (what a model reads) is the preview
//! and whose value stays whole, so MCP still sends it as the result's `structuredContent`,
//! which a client checks against the tool's output schema and which a tool that has one must
//! return. Only the model's text is shortened; a program reading the structured value gets
//! all of it. This holds for structured output of a tool without an output schema too (JSON
//! it builds by hand): its value is as much the tool's answer, and MCP writes the two alike.
//! A value that is not an object, which MCP 2025-11-25's `structuredContent` cannot be,
//! reaches that revision's clients as the preview alone, as it reached them as its JSON text
//! alone; 2026-07-28's take it whole.
//!
//! An artifact can be read only by the caller whose call made it
//! ([`Context::caller`](crate::Context::caller)), through a handle drawn at random, and only
//! until it expires. The store is [`MemoryStore`] unless another [`ArtifactStore`] is given
//! (one shared by several processes, for instance).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use crate::call::context::Context;
use crate::outcome::content::Content;
use crate::outcome::output::Output;
use crate::outcome::refusal::{Line, Refusal, code};

/// How long an artifact is kept unless told otherwise: ten minutes, long enough for a model to
/// read it over the next turns of a conversation.
pub const DEFAULT_ARTIFACT_TTL: Duration = Duration::from_secs(600);

/// How many bytes of an artifact the model is shown at first, unless told otherwise.
pub const DEFAULT_PREVIEW_BYTES: usize = 1024;

/// A kept output.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Artifact {
    /// The output's text (for structured output, its JSON text).
    pub text: Arc<str>,
    /// The tool whose output it is.
    pub tool: String,
    /// The caller whose call made it; only this caller may read it.
    pub caller: Option<String>,
    /// When it stops being readable.
    pub expires: SystemTime,
}

impl Artifact {
    /// Whether it has expired at `now`.
    pub fn is_expired(&self, now: SystemTime) -> bool {
        now >= self.expires
    }
}

/// Where artifacts are kept. A store may forget an artifact early (to bound its memory); a
/// model reading it then hears it has expired.
pub trait ArtifactStore: Send + Sync + 'static {
    /// Keeps `artifact` under `handle`, a fresh random text.
    fn put(&self, handle: String, artifact: Artifact);
    /// The artifact kept under `handle`, if any; an expired one may be returned (the registry
    /// checks) or not.
    fn get(&self, handle: &str) -> Option<Artifact>;
}

/// Artifacts in this process's memory; expired ones are removed whenever one is added.
#[derive(Debug, Default)]
pub struct MemoryStore {
    kept: Mutex<HashMap<String, Artifact>>,
}

impl ArtifactStore for MemoryStore {
    fn put(&self, handle: String, artifact: Artifact) {
        let now = SystemTime::now();
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.retain(|_, kept| !kept.is_expired(now));
        kept.insert(handle, artifact);
    }

    fn get(&self, handle: &str) -> Option<Artifact> {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.get(handle).cloned()
    }
}

/// When outputs become artifacts, how long they are kept, and where.
///
/// ```
/// use std::time::Duration;
/// use tool_core::{Artifacts, Registry};
///
/// let artifacts = Artifacts::over(16 * 1024).ttl(Duration::from_secs(300));
/// let registry = Registry::builder()
///     .toolkit(artifacts.reader())
///     .build()
///     .unwrap()
///     .with_artifacts(artifacts);
/// assert_eq!(registry.names(), ["artifact_read"]);
/// ```
#[derive(Clone)]
pub struct Artifacts {
    threshold: usize,
    preview: usize,
    ttl: Duration,
    store: Arc<dyn ArtifactStore>,
}

impl std::fmt::Debug for Artifacts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Artifacts")
            .field("threshold", &self.threshold)
            .field("preview", &self.preview)
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}

impl Artifacts {
    /// Keeps outputs of more than `bytes` bytes in memory for
    /// [`DEFAULT_ARTIFACT_TTL`], showing the first [`DEFAULT_PREVIEW_BYTES`] (at most `bytes`).
    /// `artifact_read` hands out at most `bytes` bytes at a time.
    pub fn over(bytes: usize) -> Artifacts {
        Artifacts {
            threshold: bytes.max(1),
            preview: DEFAULT_PREVIEW_BYTES.min(bytes),
            ttl: DEFAULT_ARTIFACT_TTL,
            store: Arc::new(MemoryStore::default()),
        }
    }

    /// Shows the first `bytes` bytes (at most the threshold) of an artifact with its handle.
    pub fn preview_bytes(mut self, bytes: usize) -> Artifacts {
        self.preview = bytes.min(self.threshold);
        self
    }

    /// Keeps artifacts for `ttl`; one past what the clock can say (`Duration::MAX`) keeps
    /// them for as long as it can.
    pub fn ttl(mut self, ttl: Duration) -> Artifacts {
        self.ttl = ttl;
        self
    }

    /// Keeps artifacts in `store` rather than in memory.
    pub fn store(mut self, store: impl ArtifactStore) -> Artifacts {
        self.store = Arc::new(store);
        self
    }

    /// The toolkit of the `artifact_read` tool, which reads these artifacts: add it to the
    /// registry (and grant it to the callers that get artifacts).
    pub fn reader(&self) -> ArtifactReader {
        ArtifactReader {
            artifacts: self.clone(),
        }
    }

    /// Keeps `output` as an artifact if it is over the threshold, and puts in its place what
    /// the model is shown (for structured output, a structured block of the whole value with
    /// that text); the line that gives the handle, if it kept it.
    pub(crate) fn keep(&self, output: &mut Output, tool: &str, ctx: &Context) -> Option<Line> {
        let size = match output {
            Output::Text(text) => text.len(),
            Output::Json(json) => json.get().len(),
            _ => return None,
        };
        // `artifact_read`'s parts are at most the threshold before JSON escaping; keeping them
        // again would send the model round in circles.
        if size <= self.threshold || tool == READ_TOOL {
            return None;
        }
        let (text, value) = match output {
            Output::Text(text) => (std::mem::take(text), None),
            Output::Json(json) => (json.get().to_owned(), serde_json::from_str(json.get()).ok()),
            _ => return None,
        };
        let handle = format!("artifact-{}", uuid::Uuid::new_v4().simple());
        let preview = &text[..text.floor_char_boundary(self.preview)];
        let shown = format!(
            "the output is {size} bytes, more than the {} shown at once; it is kept for {:?} \
             as artifact `{handle}`: read more with {READ_TOOL} {{\"handle\": \"{handle}\", \
             \"offset\": {}}}. Its first {} bytes:\n{preview}",
            self.threshold,
            self.ttl,
            preview.len(),
            preview.len(),
        );
        let artifact = Artifact {
            text: text.into(),
            tool: tool.to_owned(),
            caller: ctx.caller().map(str::to_owned),
            expires: expiry(SystemTime::now(), self.ttl),
        };
        self.store.put(handle.clone(), artifact);
        tracing::debug!(tool, %handle, size, "kept a large output as an artifact");
        *output = match value {
            Some(value) => Output::Content(vec![Content::structured(value, shown)]),
            None => Output::Text(shown),
        };
        Some(Line::new("artifact", [handle, size.to_string()]))
    }

    fn read(
        &self,
        handle: &str,
        offset: usize,
        length: Option<usize>,
        ctx: &Context,
    ) -> Result<Part, Refusal> {
        let unknown = || {
            Refusal::new(
                code::UNKNOWN_ARTIFACT,
                format!(
                    "there is no artifact `{}` for this caller; it may have expired (artifacts \
                     are kept for {:?}): call the tool that made it again",
                    crate::outcome::shorten::shortened(handle),
                    self.ttl
                ),
            )
        };
        let artifact = self.store.get(handle).ok_or_else(unknown)?;
        if artifact.is_expired(SystemTime::now()) || artifact.caller.as_deref() != ctx.caller() {
            return Err(unknown());
        }
        let text = &artifact.text;
        let size = text.len();
        let start = text.floor_char_boundary(offset);
        let wanted = length.unwrap_or(self.threshold).min(self.threshold);
        let mut end = text.floor_char_boundary(start.saturating_add(wanted));
        if end == start && start < size {
            // A part shorter than one character still moves on by one character.
            end = start + text[start..].chars().next().map_or(0, char::len_utf8);
        }
        Ok(Part {
            text: text[start..end].to_owned(),
            offset: start,
            next_offset: (end < size).then_some(end),
            size,
        })
    }
}

/// The name of the tool that reads artifacts.
const READ_TOOL: &str = "artifact_read";

/// When an artifact kept at `now` for `ttl` expires: as late as the clock can say when `ttl`
/// is past it, where `SystemTime`'s `+` would panic.
fn expiry(now: SystemTime, mut ttl: Duration) -> SystemTime {
    loop {
        match now.checked_add(ttl) {
            Some(at) => return at,
            None => ttl /= 2,
        }
    }
}

/// A part of an artifact, as `artifact_read` returns it.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Part {
    /// The part's text.
    pub text: String,
    /// Where it starts, in bytes of the artifact.
    pub offset: usize,
    /// Where the next part starts; absent at the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<usize>,
    /// The artifact's size in bytes.
    pub size: usize,
}

/// The toolkit of the built-in `artifact_read` tool; made by [`Artifacts::reader`].
#[derive(Debug)]
pub struct ArtifactReader {
    artifacts: Artifacts,
}

#[tool_core_macros::toolkit(name = "artifacts")]
impl ArtifactReader {
    /// Reads a part of a large output kept as an artifact: `length` bytes (at most the size
    /// shown when it was kept) from `offset`; the answer's `next_offset` is where the next
    /// part starts.
    #[tool_core_macros::tool(readonly)]
    async fn artifact_read(
        &self,
        ctx: &Context,
        /// The artifact's handle, as the output that made it gave it.
        handle: String,
        /// Where to start, in bytes (0 unless given).
        offset: Option<usize>,
        /// How many bytes to read.
        length: Option<usize>,
    ) -> Result<Part, Refusal> {
        self.artifacts
            .read(&handle, offset.unwrap_or(0), length, ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn previews_and_parts_end_at_char_boundaries() {
        // `é` is two bytes: a cut at an odd byte falls back to the char before it.
        let artifacts = Artifacts::over(5).preview_bytes(3);
        let ctx = Context::new();
        let mut output = Output::Text("éééé".repeat(2));
        let line = artifacts.keep(&mut output, "t", &ctx).unwrap();
        let handle = line.cells[0].clone();
        assert!(
            output.as_text().ends_with("Its first 2 bytes:\né"),
            "{}",
            output.as_text()
        );
        let part = artifacts.read(&handle, 3, Some(5), &ctx).unwrap();
        assert_eq!(
            (part.text.as_str(), part.offset, part.next_offset),
            ("éé", 2, Some(6))
        );
        let part = artifacts.read(&handle, 15, Some(1), &ctx).unwrap();
        assert_eq!(
            (part.text.as_str(), part.offset, part.next_offset),
            ("é", 14, None)
        );
    }

    #[test]
    fn a_time_to_live_past_the_clock_keeps_an_artifact_as_long_as_it_can() {
        let artifacts = Artifacts::over(1).ttl(Duration::MAX);
        let ctx = Context::new();
        let mut output = Output::Text("kept".to_owned());
        let line = artifacts.keep(&mut output, "t", &ctx).unwrap();
        let part = artifacts.read(&line.cells[0], 0, None, &ctx).unwrap();
        assert_eq!(part.text, "k");
        let far = SystemTime::now() + Duration::from_secs(1 << 30);
        assert!(expiry(SystemTime::now(), Duration::MAX) > far);
    }

    #[test]
    fn structured_output_keeps_its_value_whole_beside_the_preview() {
        let artifacts = Artifacts::over(10).preview_bytes(4);
        let ctx = Context::new();
        let value = serde_json::json!({"rows": [1, 2, 3, 4, 5]});
        let mut output = Output::json(&value).unwrap();
        let line = artifacts.keep(&mut output, "t", &ctx).unwrap();
        let Output::Content(blocks) = &output else {
            panic!("{output:?}");
        };
        let [Content::Structured { value: kept, text }] = blocks.as_slice() else {
            panic!("{blocks:?}");
        };
        assert_eq!(kept, &value);
        assert!(text.ends_with("Its first 4 bytes:\n{\"ro"), "{text}");
        assert_eq!(output.as_text(), text.as_str());
        let part = artifacts.read(&line.cells[0], 0, None, &ctx).unwrap();
        assert_eq!(part.text, r#"{"rows":[1"#);
    }
}
