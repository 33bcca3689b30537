//! Every language's catalog file (`locales/<code>.toml`) is whole: each text of the game,
//! each plural form the language needs, and the placeholders English fills. A key missing
//! in any language fails the test run.

use score_i18n::{check, Lang, Texts};

include!("../file_entries.rs");

/// A catalog file's entries: `key`, or `key.form` for a plural form.
fn entries(path: &std::path::Path) -> Texts {
    file_entries(path).into_iter().collect()
}

#[test]
fn every_languages_catalog_is_whole() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    let mut seen = Vec::new();
    for file in std::fs::read_dir(&dir).unwrap() {
        let path = file.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let code = path.file_stem().and_then(|s| s.to_str()).unwrap().to_string();
        let lang =
            Lang::ALL.into_iter().find(|l| l.code() == code).unwrap_or_else(|| panic!("{code}.toml: no such language"));
        let problems = check(lang, &entries(&path));
        assert!(problems.is_empty(), "locales/{code}.toml: {problems:#?}");
        seen.push(lang);
    }
    assert!(seen.contains(&Lang::En), "locales/en.toml is read");
}
