//! Every language's catalog file (`locales/<code>.toml`) is whole: each text of the game,
//! each plural form the language needs, and the placeholders English fills. A key missing
//! in any language fails the test run.

use score_i18n::{check, Lang, Texts};

/// A catalog file's entries: `key`, or `key.form` for a plural form.
fn entries(path: &std::path::Path) -> Texts {
    let text = std::fs::read_to_string(path).unwrap();
    let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{} is not TOML: {e}", path.display()));
    let mut out = Vec::new();
    for (key, value) in table {
        match value {
            toml::Value::String(s) => {
                out.push((key, s));
            }
            toml::Value::Table(forms) => {
                for (form, v) in forms {
                    let words = v.as_str().unwrap_or_else(|| panic!("{key}.{form} is not a text"));
                    out.push((format!("{key}.{form}"), words.to_string()));
                }
            }
            other => panic!("{}: {key} is {other:?}, not a text", path.display()),
        }
    }
    out.into_iter().collect()
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
