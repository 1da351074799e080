//! Finding tools by what they do: [`Registry::search`] ranks a registry's tools (a scoped
//! view's granted ones only) by how well their name, title, description, tags and fields match
//! a query.
//!
//! The ranking is BM25 (see `index`). The index is made once for the tools a registry holds, when first searched, and again only
//! after they change, as exports are; a scoped view searches the same index and keeps only
//! what its grants let through.

use super::Registry;
use crate::tool::definition::ToolDefinition;

/// One tool a search found, best first.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct SearchHit {
    /// What the tool advertises.
    pub definition: ToolDefinition,
    /// How well it matched, by BM25: higher is better; comparable only within one search.
    pub score: f32,
}

impl Registry {
    /// The tools (of a scoped view: the granted ones only) that match `query` best, at most
    /// `limit` of them, best first, by BM25 over each tool's name, title, description, tags,
    /// and its fields' names and descriptions. A tool that shares no word with the query is
    /// not listed, so an empty list means: try other words.
    ///
    /// The index is made when the registry is first searched and again only after its tools
    /// change; a search reads it without waiting on one another.
    ///
    // Without the feature, the example is the compile error the feature's absence promises.
    #[cfg_attr(feature = "search", doc = "```")]
    #[cfg_attr(not(feature = "search"), doc = "```compile_fail")]
    /// use tool_core::{Registry, tool};
    ///
    /// /// Writes a note to the notebook.
    /// #[tool(tags("notes"))]
    /// async fn note_write(text: String) -> String { text }
    ///
    /// /// Reads the weather forecast for a city.
    /// #[tool]
    /// async fn weather(city: String) -> String { city }
    ///
    /// let registry = Registry::builder().tool(NoteWrite).tool(Weather).build().unwrap();
    /// let found = registry.search("write a note", 5);
    /// assert_eq!(found[0].definition.name, "note_write");
    /// assert!(found.iter().all(|each| each.definition.name != "weather"));
    /// ```
    ///
    /// Needs the `search` feature; without it, a call of this is a compile error naming the
    /// feature.
    #[cfg_attr(docsrs, doc(cfg(feature = "search")))]
    pub fn search<Q>(&self, query: &Q, limit: usize) -> Vec<SearchHit>
    where
        Q: AsRef<str> + crate::features::SearchFeature + ?Sized,
    {
        self.hits(query.as_ref(), limit)
    }

    /// What [`Registry::search`] answers (and a `tool_search` call lists).
    #[cfg(feature = "search")]
    pub(super) fn hits(&self, query: &str, limit: usize) -> Vec<SearchHit> {
        let catalog = self.catalog();
        catalog
            .search_index()
            .positions(query)
            .into_iter()
            .filter(|&(position, _)| {
                position < catalog.definitions.len() && self.permits(&catalog, position)
            })
            .take(limit)
            .map(|(position, score)| SearchHit {
                definition: catalog.definitions[position].clone(),
                score,
            })
            .collect()
    }

    /// Without the `search` feature there is no index, and nothing asks for hits: searching
    /// and deferred loading are compile errors naming the feature.
    #[cfg(not(feature = "search"))]
    pub(super) fn hits(&self, _query: &str, _limit: usize) -> Vec<SearchHit> {
        Vec::new()
    }
}
