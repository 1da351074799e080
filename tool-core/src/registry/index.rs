//! The search index of a catalog's tools: BM25, from the `bm25` crate, over each tool's
//! name, title, description, tags and its fields' names and descriptions.
//!
//! `bm25` is a small, maintained, dependency-light in-memory BM25 engine whose default
//! tokenizer normalises Unicode, drops English stop words and stems (`writes`, `writing` and
//! `write` meet), which is what matching a model's words to tool descriptions needs.
//! `tantivy` ranks with BM25 too, but brings an on-disk index, segment merging and many more
//! crates, for catalogues of thousands of short documents that fit in memory many times over.

use std::fmt::Write as _;

use bm25::{DefaultTokenizer, Embedder, EmbedderBuilder, Language, Scorer, Tokenizer};
use serde_json::Value;

use crate::tool::definition::ToolDefinition;

/// The BM25 index of a catalog's tools, each document keyed by the tool's position.
///
/// The crate's embedder and scorer are used rather than its `SearchEngine`, which keeps a copy
/// of every document's text and clones the text of each match: a search here needs positions.
/// Texts are tokenized (normalised, stop words dropped, stemmed) once, by `words`, and handed
/// to the embedder as words, since fitting the embedder to a corpus would tokenize it a second
/// time to learn the average length.
pub(super) struct SearchIndex {
    words: DefaultTokenizer,
    embedder: Embedder<u32, Tokenized>,
    scorer: Scorer<u32>,
}

/// Text already tokenized, its words separated by spaces.
#[derive(Default)]
struct Tokenized;

impl Tokenizer for Tokenized {
    fn tokenize(&self, text: &str) -> Vec<String> {
        text.split(' ')
            .filter(|word| !word.is_empty())
            .map(str::to_owned)
            .collect()
    }
}

impl SearchIndex {
    /// The index of these tools.
    pub(super) fn new(definitions: &[ToolDefinition]) -> SearchIndex {
        let words = DefaultTokenizer::new(Language::English);
        let mut total = 0usize;
        let texts: Vec<String> = definitions
            .iter()
            .map(|definition| {
                let tokens = words.tokenize(&text_of(definition));
                total += tokens.len();
                tokens.join(" ")
            })
            .collect();
        // BM25 divides by the average length; any positive value does when there are no
        // words at all.
        let average = if total == 0 {
            1.0
        } else {
            total as f32 / texts.len() as f32
        };
        let embedder = EmbedderBuilder::<u32, Tokenized>::with_avgdl(average).build();
        let mut scorer = Scorer::new();
        for (position, text) in texts.iter().enumerate() {
            if let Ok(id) = u32::try_from(position) {
                scorer.upsert(&id, embedder.embed(text));
            }
        }
        SearchIndex {
            words,
            embedder,
            scorer,
        }
    }

    /// The positions of the tools matching `query`, best first, ties in insertion order.
    pub(super) fn positions(&self, query: &str) -> Vec<(usize, f32)> {
        let query = self.words.tokenize(&split_words(query)).join(" ");
        let query = self.embedder.embed(&query);
        let mut found: Vec<(usize, f32)> = self
            .scorer
            .matches(&query)
            .into_iter()
            .map(|hit| (hit.id as usize, hit.score))
            .collect();
        found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        found
    }
}

/// The words a tool is found by: its name (split at `_`), title, description,
/// tags, and its fields' names (split too) and descriptions.
fn text_of(definition: &ToolDefinition) -> String {
    let mut text = String::new();
    text.push_str(&split_words(&definition.name));
    for part in [definition.title.as_deref(), Some(&definition.description)]
        .into_iter()
        .flatten()
    {
        text.push(' ');
        text.push_str(part);
    }
    for tag in &definition.tags {
        let _ = write!(text, " {}", split_words(tag));
    }
    if let Some(properties) = definition
        .input_schema
        .get("properties")
        .and_then(Value::as_object)
    {
        for (field, property) in properties {
            let _ = write!(text, " {}", split_words(field));
            if let Some(description) = property.get("description").and_then(Value::as_str) {
                text.push(' ');
                text.push_str(description);
            }
        }
    }
    text
}

/// `text` with `_`, `-`, `.` and `/` as spaces, so that `note_write` is found by `note` and by
/// `write`: a Unicode word boundary does not fall at `_`.
fn split_words(text: &str) -> String {
    text.chars()
        .map(|c| {
            if matches!(c, '_' | '-' | '.' | '/') {
                ' '
            } else {
                c
            }
        })
        .collect()
}
