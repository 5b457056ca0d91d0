//! A test that the top-level modules of `src/` do not import each other in a circle.
//!
//! Each top-level module (`src/x.rs` with everything under `src/x/`) depends on the modules its code
//! names as `crate::y` (in a `use` or a path, grouped `use crate::{y, z}` included). Test code is left
//! out (files declared under `#[cfg(test)] mod`, and items marked `#[cfg(test)]`), and so are
//! comments: a test may reach anywhere, and a doc link is not a dependency. The graph of what is left
//! must have no cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One edge of the graph: `from` names `to` at `place` (a file and line).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Edge {
    to: String,
    place: String,
}

/// The modules each module names, with one place where it does.
type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// The source with comments, string and character literals and `#[cfg(test)]` items blanked out
/// (newlines kept, so that line numbers still hold).
fn code_only(text: &str) -> String {
    let plain = without_literals(text);
    let mut out = String::with_capacity(plain.len());
    let mut rest = plain.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let len = test_item_len(&rest[at..]);
        out.extend(rest[at..at + len].chars().map(blank));
        rest = &rest[at + len..];
    }
    out.push_str(rest);
    out
}

/// A character blanked: a newline stays, anything else becomes a space.
fn blank(c: char) -> char {
    if c == '\n' {
        '\n'
    } else {
        ' '
    }
}

/// The source with its comments and literals blanked out.
fn without_literals(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let len = if rest.starts_with("//") {
            rest.find('\n').unwrap_or(rest.len())
        } else if rest.starts_with("/*") {
            rest.find("*/").map_or(rest.len(), |end| end + 2)
        } else if let Some(raw) = rest.strip_prefix("r#\"") {
            raw.find("\"#").map_or(rest.len(), |end| end + 5)
        } else if c == '"' {
            quoted_len(rest, '"')
        } else if c == '\''
            && (rest[1..].starts_with('\\') || rest[1..].chars().nth(1) == Some('\''))
        {
            quoted_len(rest, '\'')
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        };
        out.extend(rest[..len].chars().map(blank));
        rest = &rest[len..];
    }
    out
}

/// The length of the literal at the start of `rest`, which opens and closes with `quote`.
fn quoted_len(rest: &str, quote: char) -> usize {
    let mut escaped = false;
    for (at, c) in rest.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            c if c == quote => return at + 1,
            _ => {}
        }
    }
    rest.len()
}

/// How long the `#[cfg(test)]` item at the start of `rest` is: up to its first `;` when that comes
/// before any `{`, otherwise to the brace that closes its first `{`.
fn test_item_len(rest: &str) -> usize {
    let mut depth = 0usize;
    for (at, c) in rest.char_indices() {
        match c {
            ';' if depth == 0 => return at + 1,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return at + 1;
                }
            }
            _ => {}
        }
    }
    rest.len()
}

/// The names of the modules a file declares under `#[cfg(test)]` without a body (`mod tests;`).
fn test_modules(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        let item = &rest[at + "#[cfg(test)]".len()..];
        let item = &item[..test_item_len(item)];
        let words: Vec<&str> = item.split_whitespace().collect();
        if let [.., "mod", name] = words.as_slice() {
            if let Some(name) = name.strip_suffix(';') {
                names.push(name.to_string());
            }
        }
        rest = &rest[at + 1..];
    }
    names
}

/// The top-level modules named by `crate::` paths in `code`, each with the line it is first named on.
fn named_modules(code: &str, modules: &BTreeSet<String>) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    for (index, line) in code.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            let before = line.len() - rest.len() + at;
            let after = &rest[at + "crate::".len()..];
            // `mycrate::x` is not `crate::x`.
            let word_start = before == 0
                || !line.as_bytes()[before - 1].is_ascii_alphanumeric()
                    && line.as_bytes()[before - 1] != b'_';
            if word_start {
                for name in path_heads(after, code, index) {
                    if modules.contains(&name) {
                        found.push((name, index + 1));
                    }
                }
            }
            rest = after;
        }
    }
    found
}

/// The first segment after `crate::`, or with a group (`crate::{a, b::c}`) the first segment of each
/// of its members; a group may run over several lines, so it is read from the whole `code`.
fn path_heads(after: &str, code: &str, line: usize) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    if !after.starts_with('{') {
        return vec![ident(after)];
    }
    let start: usize = code.lines().take(line).map(|l| l.len() + 1).sum::<usize>()
        + code.lines().nth(line).map_or(0, |l| l.len() - after.len());
    let group = &code[start + 1..];
    let mut heads = Vec::new();
    let mut depth = 0usize;
    let mut expect_head = true;
    let mut at = 0;
    while at < group.len() {
        let c = group[at..].chars().next().unwrap_or(' ');
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => expect_head = true,
            c if c.is_ascii_alphabetic() || c == '_' => {
                let word = ident(&group[at..]);
                if expect_head && depth == 0 {
                    heads.push(word.clone());
                    expect_head = false;
                }
                at += word.len();
                continue;
            }
            _ => {}
        }
        at += c.len_utf8();
    }
    heads
}

/// Every `.rs` file of the crate's top-level module `name` (its file and its folder), with test-only
/// files left out.
fn module_files(src: &Path, name: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let file = src.join(format!("{name}.rs"));
    let folder = src.join(name);
    let mut pending = Vec::new();
    if file.is_file() {
        pending.push((file, folder.clone()));
    }
    let root = folder.join("mod.rs");
    if root.is_file() {
        pending.push((root, folder));
    }
    while let Some((file, children)) = pending.pop() {
        let text = std::fs::read_to_string(&file).expect("a source file reads");
        let tests = test_modules(&without_literals(&text));
        let code = code_only(&text);
        for child in declared_modules(&code) {
            if tests.contains(&child) {
                continue;
            }
            let beside = children.join(format!("{child}.rs"));
            let inside = children.join(&child).join("mod.rs");
            if beside.is_file() {
                pending.push((beside, children.join(&child)));
            } else if inside.is_file() {
                pending.push((inside, children.join(&child)));
            }
        }
        files.push(file);
    }
    files.sort();
    files
}

/// The modules `code` declares without a body (`mod x;`, `pub mod x;`, `pub(crate) mod x;`).
fn declared_modules(code: &str) -> Vec<String> {
    let words: Vec<&str> = code.split_whitespace().collect();
    words
        .windows(2)
        .filter(|pair| pair[0] == "mod")
        .filter_map(|pair| pair[1].strip_suffix(';'))
        .map(str::to_string)
        .collect()
}

/// The crate's graph of top-level modules, read from `src`.
fn graph_of(src: &Path) -> Graph {
    let mut modules = BTreeSet::new();
    for entry in std::fs::read_dir(src).expect("src/ lists") {
        let path = entry.expect("an entry of src/").path();
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let rust = path.extension().is_some_and(|e| e == "rs");
        if (rust || path.join("mod.rs").is_file()) && !["lib", "main"].contains(&name) {
            modules.insert(name.to_string());
        }
    }
    // A folder beside its file (`src/x.rs` and `src/x/`) is one module; folders with no Rust root
    // (`bin`, `web`) are not modules of the library.
    let mut graph = Graph::new();
    for name in &modules {
        let edges = graph.entry(name.clone()).or_default();
        for file in module_files(src, name) {
            let text = std::fs::read_to_string(&file).expect("a source file reads");
            for (to, line) in named_modules(&code_only(&text), &modules) {
                if &to != name {
                    let place = format!("{}:{line}", file.display());
                    edges.entry(to).or_insert(place);
                }
            }
        }
    }
    graph
}

/// A cycle of the graph, as the edges that make it, if there is one.
fn cycle(graph: &Graph) -> Option<Vec<(String, Edge)>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        graph: &Graph,
        node: &str,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<(String, Edge)>,
    ) -> Option<Vec<(String, Edge)>> {
        marks.insert(node.to_string(), Mark::Open);
        for (to, place) in graph.get(node).into_iter().flatten() {
            path.push((
                node.to_string(),
                Edge {
                    to: to.clone(),
                    place: place.clone(),
                },
            ));
            match marks.get(to) {
                Some(Mark::Open) => {
                    let start = path.iter().position(|(from, _)| from == to).unwrap_or(0);
                    return Some(path[start..].to_vec());
                }
                Some(Mark::Done) => {}
                None => {
                    if let Some(found) = visit(graph, to, marks, path) {
                        return Some(found);
                    }
                }
            }
            path.pop();
        }
        marks.insert(node.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in graph.keys() {
        if !marks.contains_key(node) {
            if let Some(found) = visit(graph, node, &mut marks, &mut Vec::new()) {
                return Some(found);
            }
        }
    }
    None
}

#[test]
fn the_top_level_modules_import_each_other_in_no_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = graph_of(&src);
    for module in ["catalog", "table", "routing", "server", "settings"] {
        assert!(graph.contains_key(module), "{module} is read");
    }
    assert!(graph["server"].contains_key("routing"), "{graph:?}");
    if let Some(found) = cycle(&graph) {
        let words: Vec<String> = found
            .iter()
            .map(|(from, edge)| format!("{from} -> {} ({})", edge.to, edge.place))
            .collect();
        panic!(
            "the top-level modules import each other in a circle:\n{}",
            words.join("\n")
        );
    }
}

#[test]
fn a_circle_is_found_and_test_code_and_comments_are_not_read() {
    let modules: BTreeSet<String> = ["a", "b", "c"].map(String::from).into();
    let code = code_only(
        "use crate::{a::X, b::{Y, Z}};\n\
         // crate::c in a comment\n\
         let s = \"crate::c in a string\";\n\
         #[cfg(test)]\nmod tests {\n    use crate::c::W;\n}\n\
         fn f() -> mycrate::c::V { crate::a::g() }\n",
    );
    let named = named_modules(&code, &modules);
    assert_eq!(
        named,
        [
            ("a".to_string(), 1),
            ("b".to_string(), 1),
            ("a".to_string(), 8)
        ]
    );
    assert_eq!(
        test_modules("#[cfg(test)]\nmod tests;\n#[cfg(test)]\npub(crate) mod scripts_tests;"),
        ["tests", "scripts_tests"]
    );
    let edge = |to: &str| (to.to_string(), format!("{to}.rs:1"));
    let mut graph: Graph = [
        ("a".to_string(), [edge("b")].into()),
        ("b".to_string(), [edge("c")].into()),
        ("c".to_string(), BTreeMap::new()),
    ]
    .into();
    assert_eq!(cycle(&graph), None);
    graph.get_mut("c").unwrap().extend([edge("a")]);
    let found = cycle(&graph).expect("a -> b -> c -> a");
    let froms: Vec<&str> = found.iter().map(|(from, _)| from.as_str()).collect();
    assert_eq!(froms, ["a", "b", "c"]);
    assert_eq!(found[2].1.to, "a");
}
