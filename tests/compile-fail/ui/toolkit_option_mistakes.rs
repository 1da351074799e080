use tool_core::{tool, toolkit};

struct Notes;

// Each mistake of form in `#[toolkit(...)]` is reported in terms of the option.
#[toolkit("note")]
impl Notes {
    /// Reads a note.
    #[tool(readonly)]
    async fn note_read(&self, id: u64) -> String {
        id.to_string()
    }
}

struct Files;

#[toolkit(name = file)]
impl Files {
    /// Reads a file.
    #[tool(readonly)]
    async fn file_read(&self, path: String) -> String {
        path
    }
}

struct Webs;

#[toolkit(name = "web", name = "webs")]
impl Webs {
    /// Searches the web.
    #[tool(readonly)]
    async fn web_search(&self, query: String) -> String {
        query
    }
}

fn main() {}
