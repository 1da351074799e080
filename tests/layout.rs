//! The library crates' layout shows their architecture: imports run one way. Read from the
//! sources' own paths (`use crate::...`, `super::...` and paths written inline), each file of
//! tool-core, tool-macros and tool-mcp takes names only from files below it: no two files
//! reach each other, directly or around a loop, and none takes a crate-internal name through
//! `lib.rs`'s re-exports instead of from the module that defines it. A module's own file
//! (`registry/mod.rs`) declaring and re-exporting its children is what makes it their parent,
//! not an import. No library file is over 600 lines.
//!
//! The paths are read as text, after comments and string literals are blanked out, so a path
//! in a doc comment is no import.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The library crates, by folder.
const CRATES: [&str; 3] = ["tool-core", "tool-macros", "tool-mcp"];

/// The longest a library file may be.
const MAX_LINES: usize = 600;

/// One crate's source files, each by its module path (`["registry", "call"]`).
struct Crate {
    files: BTreeMap<Vec<String>, PathBuf>,
}

impl Crate {
    fn read(folder: &Path) -> Crate {
        let src = folder.join("src");
        let mut files = BTreeMap::new();
        let mut stack = vec![src.clone()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("src/ reads") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if path.extension().is_none_or(|ext| ext != "rs") {
                    continue;
                }
                let relative = path.strip_prefix(&src).expect("under src/");
                let mut module: Vec<String> = relative
                    .iter()
                    .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_owned())
                    .collect();
                if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                    module.pop();
                }
                files.insert(module, path);
            }
        }
        Crate { files }
    }

    /// The file a path from module `from` names (the deepest module its segments reach), and
    /// how many of the path's segments lead there.
    fn file_of(&self, from: &[String], path: &[String]) -> Option<(Vec<String>, usize)> {
        let mut module: Vec<String> = Vec::new();
        let mut used = 0;
        let mut segments = path.iter().peekable();
        match segments.peek().map(|s| s.as_str()) {
            Some("crate") => {
                segments.next();
                used += 1;
            }
            Some("super" | "self") => {
                module = from.to_vec();
                while let Some(segment) = segments.peek() {
                    match segment.as_str() {
                        "super" => {
                            module.pop();
                        }
                        "self" => {}
                        _ => break,
                    }
                    segments.next();
                    used += 1;
                }
            }
            // A child module named bare, as a `use` in its parent may.
            Some(first)
                if self
                    .files
                    .contains_key(&[from, &[first.to_owned()]].concat()) =>
            {
                module = from.to_vec();
            }
            _ => return None,
        }
        for segment in segments {
            let mut deeper = module.clone();
            deeper.push(segment.clone());
            if self.files.contains_key(&deeper) {
                module = deeper;
                used += 1;
            } else {
                break;
            }
        }
        Some((module, used))
    }

    /// The file that defines what `path`, written in module `from`, names: a name a module
    /// re-exports (`pub use self::builder::RegistryBuilder`) is followed to where it comes
    /// from. Also whether it was reached through the crate root's re-exports.
    fn defining_file(
        &self,
        from: &[String],
        path: &[String],
        uses: &BTreeMap<Vec<String>, Vec<(String, Vec<String>)>>,
    ) -> Option<(Vec<String>, bool)> {
        let (mut module, mut used) = self.file_of(from, path)?;
        let mut path = path.to_vec();
        let mut through_root = false;
        for _ in 0..8 {
            let Some(item) = path.get(used) else {
                break;
            };
            let Some((_, source)) = uses
                .get(&module)
                .and_then(|exports| exports.iter().find(|(name, _)| name == item))
            else {
                break;
            };
            if module.is_empty() {
                through_root = true;
            }
            let Some((next, next_used)) = self.file_of(&module, source) else {
                break;
            };
            let mut rest = source.clone();
            rest.extend(path[used + 1..].iter().cloned());
            path = rest;
            module = next;
            used = next_used;
        }
        Some((module, through_root))
    }
}

/// Every path a source names from `crate`, `super` or `self`, with the braces of `use` lists
/// expanded, from code with its comments and literals blanked out.
fn paths_in(source: &str) -> Vec<Vec<String>> {
    let tokens = code_tokens(source);
    let mut paths = Vec::new();
    let mut index = 0;
    while index < tokens.len() {
        let token = tokens[index].as_str();
        let starts = matches!(token, "crate" | "super" | "self")
            && tokens.get(index + 1).is_some_and(|next| next == "::")
            && (index == 0 || tokens[index - 1] != "::");
        if starts {
            let (found, next) = path_at(&tokens, index, Vec::new());
            paths.extend(found);
            index = next;
        } else {
            index += 1;
        }
    }
    paths
}

/// The tokens of a source's code: comments and literals blanked out, and its test modules
/// (`#[cfg(test)] mod tests { ... }`) left out, since tests may reach anywhere.
fn code_tokens(source: &str) -> Vec<String> {
    let all = tokens(&blank_comments_and_strings(source));
    let mut kept = Vec::with_capacity(all.len());
    let mut index = 0;
    while index < all.len() {
        let is_test_module = all[index..].starts_with(&[
            "#".to_owned(),
            "[".to_owned(),
            "cfg".to_owned(),
            "(".to_owned(),
            "test".to_owned(),
            ")".to_owned(),
            "]".to_owned(),
            "mod".to_owned(),
        ]);
        if is_test_module {
            let mut depth = 0;
            while index < all.len() {
                match all[index].as_str() {
                    "{" => depth += 1,
                    "}" => {
                        depth -= 1;
                        if depth == 0 {
                            index += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                index += 1;
            }
            continue;
        }
        kept.push(all[index].clone());
        index += 1;
    }
    kept
}

/// What each `use` of a source brings in: the name it is known by here (its alias, or its
/// last segment) and the path it was taken from.
fn uses_in(source: &str) -> Vec<(String, Vec<String>)> {
    let tokens = code_tokens(source);
    let mut found = Vec::new();
    for (index, token) in tokens.iter().enumerate() {
        if token == "use" {
            use_tree(&tokens, index + 1, Vec::new(), &mut found);
        }
    }
    found
}

/// Reads one `use` tree from `tokens[start]` into `found`; the index after it.
fn use_tree(
    tokens: &[String],
    start: usize,
    prefix: Vec<String>,
    found: &mut Vec<(String, Vec<String>)>,
) -> usize {
    let mut path = prefix;
    let mut index = start;
    while let Some(token) = tokens.get(index) {
        match token.as_str() {
            "{" => {
                index += 1;
                while tokens.get(index).is_some_and(|token| token != "}") {
                    if tokens[index] == "," {
                        index += 1;
                    } else {
                        index = use_tree(tokens, index, path.clone(), found);
                    }
                }
                return index + 1;
            }
            "::" => index += 1,
            word if is_word(word) => {
                path.push(word.to_owned());
                index += 1;
                if tokens.get(index).is_some_and(|token| token == "as") {
                    let alias = tokens.get(index + 1).cloned().unwrap_or_default();
                    found.push((alias, path));
                    return index + 2;
                }
                if tokens.get(index).is_none_or(|token| token != "::") {
                    let name = match word {
                        "self" => path.iter().rev().nth(1).cloned().unwrap_or_default(),
                        _ => word.to_owned(),
                    };
                    if word == "self" {
                        path.pop();
                    }
                    found.push((name, path));
                    return index;
                }
            }
            _ => return index + 1,
        }
    }
    index
}

/// The paths of a path (or `use` tree) starting at `tokens[start]`, after `prefix`, and the
/// index after it.
fn path_at(tokens: &[String], start: usize, prefix: Vec<String>) -> (Vec<Vec<String>>, usize) {
    let mut path = prefix;
    let mut index = start;
    loop {
        match tokens.get(index).map(String::as_str) {
            Some("{") => {
                let mut found = Vec::new();
                index += 1;
                while tokens.get(index).is_some_and(|token| token != "}") {
                    if tokens[index] == "," {
                        index += 1;
                        continue;
                    }
                    let (inner, next) = path_at(tokens, index, path.clone());
                    found.extend(inner);
                    index = next;
                }
                return (found, index + 1);
            }
            Some(word) if is_word(word) => {
                if word != "self" || path.is_empty() {
                    path.push(word.to_owned());
                }
                index += 1;
                if tokens.get(index).is_some_and(|token| token == "::") {
                    index += 1;
                    continue;
                }
                return (vec![path], index);
            }
            _ => return (vec![path], index + 1),
        }
    }
}

fn is_word(token: &str) -> bool {
    token.chars().all(|c| c.is_alphanumeric() || c == '_') && !token.is_empty()
}

/// Words, `::`, and every other character as a token of its own.
fn tokens(code: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let mut index = 0;
    while index < chars.len() {
        let c = chars[index];
        if c.is_alphanumeric() || c == '_' {
            let start = index;
            while index < chars.len() && (chars[index].is_alphanumeric() || chars[index] == '_') {
                index += 1;
            }
            tokens.push(chars[start..index].iter().collect());
        } else if c == ':' && chars.get(index + 1) == Some(&':') {
            tokens.push("::".to_owned());
            index += 2;
        } else {
            if !c.is_whitespace() {
                tokens.push(c.to_string());
            }
            index += 1;
        }
    }
    tokens
}

/// The source with `//` and `/* */` comments, string and char literals replaced by spaces.
fn blank_comments_and_strings(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut index = 0;
    while index < chars.len() {
        let c = chars[index];
        let next = chars.get(index + 1).copied();
        if c == '/' && next == Some('/') {
            while index < chars.len() && chars[index] != '\n' {
                index += 1;
            }
        } else if c == '/' && next == Some('*') {
            index += 2;
            while index + 1 < chars.len() && !(chars[index] == '*' && chars[index + 1] == '/') {
                index += 1;
            }
            index += 2;
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && is_raw_start(&chars, index)
        {
            let mut hashes = 0;
            index += 1;
            while chars.get(index) == Some(&'#') {
                hashes += 1;
                index += 1;
            }
            index += 1;
            loop {
                if index >= chars.len() {
                    break;
                }
                if chars[index] == '"'
                    && (0..hashes).all(|h| chars.get(index + 1 + h) == Some(&'#'))
                {
                    index += 1 + hashes;
                    break;
                }
                index += 1;
            }
            out.push(' ');
        } else if c == '"' {
            index += 1;
            while index < chars.len() && chars[index] != '"' {
                if chars[index] == '\\' {
                    index += 1;
                }
                index += 1;
            }
            index += 1;
            out.push(' ');
        } else if c == '\''
            && (chars.get(index + 2) == Some(&'\'')
                || (next == Some('\\') && chars[index + 2..].iter().take(10).any(|&c| c == '\'')))
        {
            // A char literal, not a lifetime.
            index += 1;
            while index < chars.len() && chars[index] != '\'' {
                if chars[index] == '\\' {
                    index += 1;
                }
                index += 1;
            }
            index += 1;
            out.push(' ');
        } else {
            out.push(c);
            index += 1;
        }
    }
    out
}

fn is_raw_start(chars: &[char], index: usize) -> bool {
    let before_is_word =
        index > 0 && (chars[index - 1].is_alphanumeric() || chars[index - 1] == '_');
    if before_is_word {
        return false;
    }
    let mut at = index + 1;
    while chars.get(at) == Some(&'#') {
        at += 1;
    }
    chars.get(at) == Some(&'"')
}

/// What the layout check found in one crate.
#[derive(Default)]
struct Findings {
    /// Each import through `lib.rs`: the file and the path.
    through_root: Vec<String>,
    /// Each loop, as the files in it.
    loops: Vec<Vec<String>>,
    /// Each file over the limit.
    long: Vec<String>,
}

fn check(name: &str) -> Findings {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("a workspace");
    let krate = Crate::read(&root.join(name));
    let mut findings = Findings::default();
    let sources: BTreeMap<Vec<String>, String> = krate
        .files
        .iter()
        .map(|(module, file)| {
            let source = std::fs::read_to_string(file).expect("a source reads");
            (module.clone(), source)
        })
        .collect();
    let uses: BTreeMap<Vec<String>, Vec<(String, Vec<String>)>> = sources
        .iter()
        .map(|(module, source)| (module.clone(), uses_in(source)))
        .collect();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    let shown = |module: &[String]| format!("{name}::{}", module.join("::"));
    for (module, source) in &sources {
        let file = &krate.files[module];
        let lines = source.lines().count();
        if lines > MAX_LINES {
            findings
                .long
                .push(format!("{} ({lines} lines)", file.display()));
        }
        if module.is_empty() {
            continue;
        }
        for path in paths_in(source) {
            if path.get(1).is_some_and(|segment| segment == "__private") {
                continue;
            }
            let Some((target, through_root)) = krate.defining_file(module, &path, &uses) else {
                continue;
            };
            if through_root {
                findings
                    .through_root
                    .push(format!("{}: {}", file.display(), path.join("::")));
            }
            // A module's own file reaching into its children is their parent, not an import.
            if target.starts_with(module) {
                continue;
            }
            edges.entry(module.clone()).or_default().insert(target);
        }
    }
    for component in strongly_connected(&edges) {
        if component.len() > 1 {
            findings
                .loops
                .push(component.iter().map(|module| shown(module)).collect());
        }
    }
    findings
}

/// Tarjan's strongly connected components of a graph of modules.
fn strongly_connected(
    edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
) -> Vec<Vec<Vec<String>>> {
    struct State<'a> {
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on_stack: BTreeSet<&'a Vec<String>>,
        components: Vec<Vec<Vec<String>>>,
    }
    fn visit<'a>(state: &mut State<'a>, node: &'a Vec<String>) {
        let next = state.index.len();
        state.index.insert(node, next);
        state.low.insert(node, next);
        state.stack.push(node);
        state.on_stack.insert(node);
        if let Some(targets) = state.edges.get(node) {
            for target in targets {
                if !state.index.contains_key(target) {
                    visit(state, target);
                    let low = state.low[node].min(state.low[target]);
                    state.low.insert(node, low);
                } else if state.on_stack.contains(target) {
                    let low = state.low[node].min(state.index[target]);
                    state.low.insert(node, low);
                }
            }
        }
        if state.low[node] == state.index[node] {
            let mut component = Vec::new();
            while let Some(top) = state.stack.pop() {
                state.on_stack.remove(top);
                component.push(top.clone());
                if top == node {
                    break;
                }
            }
            state.components.push(component);
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for node in edges.keys() {
        if !state.index.contains_key(node) {
            visit(&mut state, node);
        }
    }
    state.components
}

#[test]
fn library_files_import_one_way_never_through_the_crate_root_and_stay_short() {
    let mut problems = Vec::new();
    for name in CRATES {
        let findings = check(name);
        for found in findings.through_root {
            problems.push(format!("takes a name through lib.rs: {found}"));
        }
        for found in findings.loops {
            problems.push(format!("an import loop: {}", found.join(" -> ")));
        }
        for found in findings.long {
            problems.push(format!("over {MAX_LINES} lines: {found}"));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn the_reader_sees_paths_as_the_compiler_does() {
    let source = r#"
        use crate::registry::{self, call::{cut_after, shortened}, Registry};
        use super::tool::Tool; // use crate::not::this
        /* crate::nor::this */
        fn f() { let _ = "crate::nor::this"; crate::refusal::code::INTERNAL; let c = 'a'; }
    "#;
    let paths: Vec<String> = paths_in(source)
        .iter()
        .map(|path| path.join("::"))
        .collect();
    assert_eq!(
        paths,
        [
            "crate::registry",
            "crate::registry::call::cut_after",
            "crate::registry::call::shortened",
            "crate::registry::Registry",
            "super::tool::Tool",
            "crate::refusal::code::INTERNAL",
        ]
    );
    let mut edges = BTreeMap::new();
    let module = |name: &str| vec![name.to_owned()];
    edges.insert(module("a"), BTreeSet::from([module("b")]));
    edges.insert(module("b"), BTreeSet::from([module("c")]));
    edges.insert(module("c"), BTreeSet::from([module("a")]));
    edges.insert(module("d"), BTreeSet::from([module("a")]));
    let loops: Vec<usize> = strongly_connected(&edges)
        .iter()
        .map(Vec::len)
        .filter(|&len| len > 1)
        .collect();
    assert_eq!(loops, [3]);
}
