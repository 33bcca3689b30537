//! Reads `locales/en.toml`, the catalog every language is held to, and writes a `Key` for
//! each text (in the file's order), pointing at the text's name, its English forms and the
//! placeholders it fills: a text the game asks for that the English catalog lacks is a
//! compile error, and the English words are compiled in.

use std::fmt::Write as _;

fn camel(key: &str) -> String {
    key.split('_').map(|w| w[..1].to_uppercase() + &w[1..]).collect()
}

/// The `{name}` placeholders of a text, in order, each once; a brace that opens no
/// placeholder (a stray `{` or `}`, `{}`, `{a b}`) stops the build.
fn places(key: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        assert!(!rest[..open].contains('}'), "locales/en.toml: {key}: a }} with no {{");
        let close = rest[open..].find('}').unwrap_or_else(|| panic!("locales/en.toml: {key}: a {{ with no }}"));
        let name = rest[open + 1..open + close].to_string();
        assert!(
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
            "locales/en.toml: {key}: “{{{name}}}” is no placeholder (lowercase words joined by _)"
        );
        if !found.contains(&name) {
            found.push(name);
        }
        rest = &rest[open + close + 1..];
    }
    assert!(!rest.contains('}'), "locales/en.toml: {key}: a }} with no {{");
    found
}

include!("file_entries.rs");

fn main() {
    println!("cargo:rerun-if-changed=locales/en.toml");
    let text = std::fs::read_to_string("locales/en.toml").expect("locales/en.toml");
    let table: toml::Table = text.parse().expect("locales/en.toml is TOML");
    let mut out = String::new();
    let mut keys = Vec::new();
    for (key, value) in &table {
        assert!(
            !key.is_empty() && key.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
            "locales/en.toml: a key is lowercase words joined by _: “{key}”"
        );
        let forms: Vec<(String, String)> = match value {
            toml::Value::String(s) => vec![(String::new(), s.clone())],
            toml::Value::Table(t) => {
                let forms: Vec<(String, String)> = t
                    .iter()
                    .map(|(form, v)| (form.clone(), v.as_str().expect("a plural form is a text").to_string()))
                    .collect();
                for (form, _) in &forms {
                    assert!(
                        ["one", "other"].contains(&form.as_str()),
                        "locales/en.toml: {key}.{form}: English has one and other"
                    );
                }
                assert!(forms.iter().any(|(f, _)| f == "other"), "locales/en.toml: {key} needs an `other` form");
                forms
            }
            _ => panic!("locales/en.toml: {key} is a text or a table of plural forms"),
        };
        // Every brace opens a placeholder (the page reads them from the words).
        for (_, t) in &forms {
            places(key, t);
        }
        keys.push((key.clone(), forms));
    }
    // Each key is one string, its name and English forms (`name␞form␟words␞…`, `␞␟words`
    // for a plain text), and nothing else: a module links the words of the keys it uses and
    // no others (the page links none of the room's, the room module none of the Rules view's),
    // and no table of pointers beside them. The placeholders are read from the words.
    writeln!(out, "#[allow(non_upper_case_globals)]\nimpl Key {{").unwrap();
    for (key, forms) in &keys {
        let spec: String = std::iter::once(key.clone())
            .chain(forms.iter().map(|(f, t)| {
                assert!(!t.contains(['\u{1e}', '\u{1f}']), "locales/en.toml: {key}: a control character");
                format!("\u{1e}{f}\u{1f}{t}")
            }))
            .collect();
        writeln!(out, "    /// `{key}`\n    pub const {}: Key = Key({spec:?});", camel(key)).unwrap();
    }
    writeln!(
        out,
        "\n    /// Every key, in the catalog's order (what links it links every text: for the test\n    /// run, the server and the command line).\n    pub const ALL: [Key; {}] = [{}];\n}}",
        keys.len(),
        keys.iter().map(|(k, _)| format!("Key::{}", camel(k))).collect::<Vec<_>>().join(", ")
    )
    .unwrap();
    // The other languages, compiled in only for what has no fetch (the server's download, the
    // command line's worksheets): the page fetches them.
    if std::env::var_os("CARGO_FEATURE_BUILTIN").is_some() {
        writeln!(out, "\n/// A language's entries as its catalog file has them (`key`, `key.form`).").unwrap();
        writeln!(out, "fn builtin_texts(code: &str) -> &'static [(&'static str, &'static str)] {{\n    match code {{")
            .unwrap();
        // Every catalog file but English's (compiled in above), by its name: a new language's
        // file is compiled in without a change here.
        println!("cargo:rerun-if-changed=locales");
        let mut files: Vec<std::path::PathBuf> = std::fs::read_dir("locales")
            .expect("locales/")
            .filter_map(|f| Some(f.ok()?.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "toml") && p.file_stem().is_some_and(|s| s != "en"))
            .collect();
        files.sort();
        for path in files {
            println!("cargo:rerun-if-changed={}", path.display());
            let code = path.file_stem().and_then(|s| s.to_str()).expect("a catalog file's name is its code");
            let entries = file_entries(&path);
            let list = entries.iter().map(|(e, t)| format!("({e:?}, {t:?})")).collect::<Vec<_>>().join(", ");
            writeln!(out, "        {code:?} => &[{list}],").unwrap();
        }
        writeln!(out, "        _ => &[],\n    }}\n}}").unwrap();
    }
    let dest = std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("keys.rs");
    std::fs::write(dest, out).expect("write keys.rs");
}
