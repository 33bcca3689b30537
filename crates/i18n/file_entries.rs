// A catalog file's entries, read by the build (`build.rs`, to compile languages in) and by
// the locales test alike: `key` for a text, `key.form` for each plural form, in file order.

/// The entries of the catalog file at `path`; a file that isn't one stops with why.
fn file_entries(path: &std::path::Path) -> Vec<(String, String)> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{shown}: {e}"));
    let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{shown} is not TOML: {e}"));
    let mut out = Vec::new();
    for (key, value) in table {
        match value {
            toml::Value::String(s) => out.push((key, s)),
            toml::Value::Table(forms) => {
                for (form, v) in forms {
                    let words = v.as_str().unwrap_or_else(|| panic!("{shown}: {key}.{form} is not a text"));
                    out.push((format!("{key}.{form}"), words.to_string()));
                }
            }
            other => panic!("{shown}: {key} is {other:?}, not a text"),
        }
    }
    out
}
