//! Every function of the library, read from the C headers at test time (the entries of the
//! function table when the headers have one), is called by the safe crate or listed in the
//! README's "Left out" section.
use std::collections::BTreeSet;
use std::path::Path;

fn names_in(text: &str, open: &str, close: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(open) {
        rest = &rest[i + open.len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() && rest[name.len()..].trim_start().starts_with(close) {
            out.push(name);
        }
    }
    out
}

/// The functions declared with NG_API.
fn declared(headers: &str) -> Vec<String> {
    headers
        .split(';')
        .filter_map(|decl| {
            let at = decl.find("NG_API ")?;
            let decl = &decl[at..];
            let open = decl.find('(')?;
            let start = decl[..open].rfind("ng_")?;
            Some(decl[start + 3..open].trim().to_string())
        })
        .collect()
}

#[test]
fn every_function_is_reachable_or_left_out() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../include/nanograph");
    let dir = match std::fs::read_dir(&root) {
        Ok(dir) => dir,
        Err(_) => {
            eprintln!("SKIPPED: the C headers are not next to this binding");
            return;
        }
    };
    let mut headers = String::new();
    for e in dir {
        let p = e.unwrap().path();
        if p.extension().map_or(false, |x| x == "h") {
            headers += &std::fs::read_to_string(p).unwrap();
        }
    }
    let names: Vec<String> = match headers.find("typedef struct ng_api {") {
        Some(i) => {
            let body = &headers[i..i + headers[i..].find("} ng_api_t").unwrap()];
            names_in(body, "(*", ')')
        }
        None => declared(&headers),
    };
    let names: BTreeSet<String> = names.into_iter().collect();
    let mut src = String::new();
    for e in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("src")).unwrap() {
        src += &std::fs::read_to_string(e.unwrap().path()).unwrap();
    }
    let used: BTreeSet<String> = names_in(&src, "sys::ng_", '(')
        .into_iter()
        .chain(names_in(&src, "sys::ng_", ')'))
        .chain(names_in(&src, "sys::ng_", ','))
        .collect();
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    let section = readme.split("## Left out").nth(1).unwrap_or("");
    let section = section.split("\n## ").next().unwrap();
    let left_out: BTreeSet<String> = names_in(section, "| `ng_", '`').into_iter().collect();
    let missing: Vec<_> = names
        .iter()
        .filter(|n| !used.contains(*n) && !left_out.contains(*n))
        .collect();
    assert!(
        missing.is_empty(),
        "not called by the binding nor listed under 'Left out' in bindings/rust/README.md: {:?}",
        missing
    );
    let both: Vec<_> = names
        .iter()
        .filter(|n| used.contains(*n) && left_out.contains(*n))
        .collect();
    assert!(
        both.is_empty(),
        "called by the binding but listed as left out: {:?}",
        both
    );
    assert!(
        names.len() > 100,
        "only {} functions found in the headers",
        names.len()
    );
}
