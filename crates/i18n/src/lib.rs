//! Score's words in the classroom's languages.
//!
//! Every text a person reads or hears has a [`Key`]; its English words are in
//! `locales/en.toml` and compiled in (a key the game asks for that the file lacks is a
//! compile error). Another language is one file, `locales/<code>.toml`, that a translator
//! edits without knowing Rust; the page fetches it (as JSON) when the language is chosen,
//! and [`check`] holds it to the English catalog: a key missing, a plural form the language
//! needs, or a placeholder dropped or invented is a problem the test run fails on. At run
//! time a text missing, or with the wrong placeholders, is read in English, never as a blank.
//!
//! Numbers, names, rolls and expressions are filled into a text by name (`{goal}`), and in a
//! right-to-left language each is isolated (U+2066 or U+2068 … U+2069), so `2 5 12 12` and `2‖(12 − 12)`
//! stay left to right inside Arabic words.

/// A text of the game, by its key in the catalog files (`locales/*.toml`): `Key::HelpTitle`
/// is `help_title`. It holds its name and English forms as one string (`name␞form␟words…`,
/// a plain text's form empty), so a module links only the words of the keys it uses.
#[derive(Clone, Copy)]
pub struct Key(&'static str);

impl Key {
    /// Its name in the catalog files.
    pub fn name(self) -> &'static str {
        self.0.split('\u{1e}').next().unwrap_or_default()
    }

    /// Its English forms: `("", text)` for a plain text, else `(form, text)` per plural form.
    pub fn english(self) -> impl Iterator<Item = (&'static str, &'static str)> + Clone {
        self.0.split('\u{1e}').skip(1).map(|form| form.split_once('\u{1f}').unwrap_or(("", form)))
    }

    /// Whether it is a plain text (not counted).
    fn plain(self) -> bool {
        self.english().any(|(form, _)| form.is_empty())
    }

    /// Its English words as a plain text (of a counted one, its last form: `other`).
    fn plain_english(self) -> Option<&'static str> {
        self.english_form("").or_else(|| self.english().last().map(|(_, t)| t))
    }

    /// Its English words for the plural form `form` (`""` for a plain text).
    fn english_form(self, form: &str) -> Option<&'static str> {
        self.english().find(|(f, _)| *f == form).map(|(_, t)| t)
    }

    /// The placeholders its English words fill (a name twice, if two forms fill it).
    pub fn places(self) -> impl Iterator<Item = &'static str> + Clone {
        self.english().flat_map(|(_, text)| Places(text))
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        std::ptr::eq(self.0, other.0) || self.0 == other.0
    }
}

impl Eq for Key {}

impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The `{name}` placeholders of a text, in order.
#[derive(Clone, Copy)]
struct Places<'a>(&'a str);

impl<'a> Iterator for Places<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let open = self.0.find('{')?;
        let Some(close) = self.0[open..].find('}') else {
            self.0 = "";
            return None;
        };
        let name = &self.0[open + 1..open + close];
        self.0 = &self.0[open + close + 1..];
        Some(name)
    }
}

include!(concat!(env!("OUT_DIR"), "/keys.rs"));

/// A language Score speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    En,
    /// Spanish.
    Es,
    /// French.
    Fr,
    /// German.
    De,
    /// Portuguese (Brazil).
    PtBr,
    /// Arabic, written right to left.
    Ar,
}

/// How a page writes multiplication and division: many classrooms write `·` and `:` where
/// others write `×` and `÷`. The game's texts, its expressions and its working are written
/// with `×` and `÷`; [`Ops::write`] writes them the classroom's way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ops {
    /// `×` and `÷`.
    Cross,
    /// `·` and `:`.
    Dot,
}

impl Ops {
    /// Both ways, in the setting's order.
    pub const ALL: [Ops; 2] = [Ops::Cross, Ops::Dot];

    /// As it is kept and sent (`cross`, `dot`).
    pub const fn code(self) -> &'static str {
        match self {
            Ops::Cross => "cross",
            Ops::Dot => "dot",
        }
    }

    /// The way a code names; none for anything else.
    pub fn from_code(code: &str) -> Option<Ops> {
        Ops::ALL.into_iter().find(|o| o.code() == code.trim())
    }

    /// The two signs, as the setting shows them ("× ÷", "· :").
    pub const fn signs(self) -> &'static str {
        match self {
            Ops::Cross => "× ÷",
            Ops::Dot => "· :",
        }
    }

    /// `text` (an operator, an expression, a step of working, a sentence of the rules) with
    /// `×` and `÷` written this way. Nothing else changes: a fraction stays `4/5`. Borrowed
    /// where nothing changes (every text the page shows passes through here).
    pub fn write(self, text: &str) -> std::borrow::Cow<'_, str> {
        match self {
            Ops::Dot if text.contains(['×', '÷']) => text.replace('×', "·").replace('÷', ":").into(),
            _ => text.into(),
        }
    }
}

/// A plural form, by the count a text speaks of (CLDR's categories).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plural {
    Zero,
    One,
    Two,
    Few,
    Many,
    Other,
}

impl Plural {
    /// Its name in the catalog files.
    pub const fn name(self) -> &'static str {
        match self {
            Plural::Zero => "zero",
            Plural::One => "one",
            Plural::Two => "two",
            Plural::Few => "few",
            Plural::Many => "many",
            Plural::Other => "other",
        }
    }
}

impl Lang {
    /// Every language, in the picker's order.
    pub const ALL: [Lang; 6] = [Lang::En, Lang::Es, Lang::Fr, Lang::De, Lang::PtBr, Lang::Ar];

    /// Its code: the catalog's file name, `lang` on the page, `?lang=` in a link.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Es => "es",
            Lang::Fr => "fr",
            Lang::De => "de",
            Lang::PtBr => "pt-BR",
            Lang::Ar => "ar",
        }
    }

    /// Its name in itself, as the picker shows it.
    pub const fn own_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Es => "Español",
            Lang::Fr => "Français",
            Lang::De => "Deutsch",
            Lang::PtBr => "Português (Brasil)",
            Lang::Ar => "العربية",
        }
    }

    /// How its classrooms write multiplication and division, until a player chooses: German
    /// schools write `·` and `:`; the others here mostly `×` and `÷`.
    pub const fn ops(self) -> Ops {
        match self {
            Lang::De => Ops::Dot,
            _ => Ops::Cross,
        }
    }

    /// Whether it is written right to left.
    pub const fn rtl(self) -> bool {
        matches!(self, Lang::Ar)
    }

    /// `tenths` (e.g. of a second) as a decimal with one digit after the mark this language
    /// writes: 3.4 in English (and in Arabic written with these digits), 3,4 in the others.
    pub fn tenths(self, tenths: u64) -> String {
        format!("{}{}{}", tenths / 10, self.decimal_mark(), tenths % 10)
    }

    /// The decimal mark this language writes: `.` in English (and in Arabic written with
    /// these digits), `,` in the others.
    pub const fn decimal_mark(self) -> char {
        match self {
            Lang::En | Lang::Ar => '.',
            Lang::Es | Lang::Fr | Lang::De | Lang::PtBr => ',',
        }
    }

    /// What groups thousands: `,` in English and Arabic, `.` in German, Spanish and
    /// Portuguese, a narrow no-break space in French.
    pub const fn group_mark(self) -> &'static str {
        match self {
            Lang::En | Lang::Ar => ",",
            Lang::Es | Lang::De | Lang::PtBr => ".",
            Lang::Fr => "\u{202F}",
        }
    }

    /// A whole number with its thousands grouped: 2,359 in English, 2.359 in German.
    pub fn grouped(self, n: u64) -> String {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push_str(self.group_mark());
            }
            out.push(c);
        }
        out
    }

    /// `x` to `places` decimals (up to 6), rounded half away from zero, with this language's
    /// marks: 4.41 in English, 4,41 in French; the whole part grouped. Whole-number
    /// formatting instead of the float formatter, whose code a page would carry for this alone.
    pub fn fixed(self, x: f64, places: u32) -> String {
        let scale = 10u64.pow(places.min(6));
        // `as` saturates (and takes NaN to 0): a silly input gives a silly number, never a panic.
        let n = (x * scale as f64).round() as i64;
        let sign = if n < 0 { "-" } else { "" };
        let n = n.unsigned_abs();
        let whole = self.grouped(n / scale);
        if scale == 1 {
            format!("{sign}{whole}")
        } else {
            let width = places.min(6) as usize;
            format!("{sign}{whole}{}{:0width$}", self.decimal_mark(), n % scale)
        }
    }

    /// The language of a code as browsers and links write it (`es`, `es-MX`, `pt-br`,
    /// `pt_BR`, `ar-EG`): its own, or the one sharing its main subtag. Portuguese of
    /// anywhere is Brazil's, the only Portuguese here.
    pub fn from_code(code: &str) -> Option<Lang> {
        let main = code.trim().split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.code().split('-').next() == Some(main.as_str()))
    }

    /// The first of a browser's languages (in its order of preference) that Score speaks.
    pub fn first_of<'a>(preferred: impl IntoIterator<Item = &'a str>) -> Option<Lang> {
        preferred.into_iter().find_map(Lang::from_code)
    }

    /// The plural forms its catalog gives a counted text.
    pub const fn forms(self) -> &'static [Plural] {
        match self {
            Lang::Ar => &[Plural::Zero, Plural::One, Plural::Two, Plural::Few, Plural::Many, Plural::Other],
            _ => &[Plural::One, Plural::Other],
        }
    }

    /// Whether the plural form `form` stands for one count only (English "one" is 1; Arabic
    /// "zero", "one" and "two" are 0, 1 and 2), so its words may leave the count out ("a
    /// second"). French and Portuguese "one" is 0 and 1: it keeps the count.
    pub const fn exact(self, form: Plural) -> bool {
        match self {
            Lang::En | Lang::De | Lang::Es => matches!(form, Plural::One),
            Lang::Fr | Lang::PtBr => false,
            Lang::Ar => matches!(form, Plural::Zero | Plural::One | Plural::Two),
        }
    }

    /// The plural form for the count `n` (CLDR's rules for whole numbers; the `many` of
    /// Spanish, French and Portuguese, for millions, is left out: the game counts less).
    pub const fn plural(self, n: u64) -> Plural {
        match self {
            Lang::En | Lang::De | Lang::Es => {
                if n == 1 {
                    Plural::One
                } else {
                    Plural::Other
                }
            }
            // French and Brazilian Portuguese: 0 and 1 are singular.
            Lang::Fr | Lang::PtBr => {
                if n <= 1 {
                    Plural::One
                } else {
                    Plural::Other
                }
            }
            Lang::Ar => match (n, n % 100) {
                (0, _) => Plural::Zero,
                (1, _) => Plural::One,
                (2, _) => Plural::Two,
                (_, 3..=10) => Plural::Few,
                (_, 11..=99) => Plural::Many,
                _ => Plural::Other,
            },
        }
    }
}

/// `text` as HTML (text or an attribute's value), for the pages the server and the command
/// line write with the catalog's words.
pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The language a page starts in, from what it knows, first that applies: a link's
/// `?lang=` (someone sent this page in a language), the reader's own choice kept from an
/// earlier visit, the room's language (a student who never chose starts in the teacher's),
/// the browser's languages in their order, else English. A code Score doesn't speak is
/// passed over, never an error.
pub fn choose(link: Option<&str>, chosen: Option<&str>, room: Option<Lang>, browser: &[&str]) -> Lang {
    link.and_then(Lang::from_code)
        .or_else(|| chosen.and_then(Lang::from_code))
        .or(room)
        .or_else(|| Lang::first_of(browser.iter().copied()))
        .unwrap_or(Lang::En)
}

/// What is wrong with a language's catalog, key by key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A text of the game the catalog lacks (`key`, or `key.form` for a plural form).
    Missing(String),
    /// A key (or form) the game has no use for: a typo, or a text since removed.
    Unknown(String),
    /// A placeholder the text drops: the game's value would not be shown.
    Dropped { key: String, place: String },
    /// A placeholder the game does not fill: it would show as `{name}`.
    Invented { key: String, place: String },
}

/// The catalog's entries a key needs in `lang`: `key` for a plain text, `key.form` for each
/// plural form the language has (with whether that form may leave the count out).
fn entries(key: Key, lang: Lang) -> Vec<(String, bool)> {
    if key.plain() {
        vec![(key.name().to_string(), false)]
    } else {
        lang.forms().iter().map(|&f| (format!("{}.{}", key.name(), f.name()), lang.exact(f))).collect()
    }
}

/// Whether `name` is a placeholder's name: lowercase words joined by `_`.
fn is_place(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
}

/// A placeholder a language's words get wrong.
#[derive(PartialEq)]
enum Misfit<'a> {
    /// One of the key's that the words leave out.
    Dropped(&'static str),
    /// One the words have that the game does not fill (or no placeholder's name).
    Invented(&'a str),
}

/// The placeholders `text`, a language's words for `key`, gets wrong: each it drops (a form
/// for one count, `exact`, may leave out the count `{n}`), then each the game does not fill.
/// None (and nothing allocated) for words that fit, as a page reads them.
fn misfits(key: Key, exact: bool, text: &str) -> Vec<Misfit<'_>> {
    // Dropped unless found, or the count a form for one count may leave out.
    let dropped = key.places().filter(|p| !(Places(text).any(|f| f == *p) || (*p == "n" && exact)));
    let invented = Places(text).filter(|p| !is_place(p) || !key.places().any(|k| k == *p));
    let mut all: Vec<Misfit> = Vec::new();
    for misfit in dropped.map(Misfit::Dropped).chain(invented.map(Misfit::Invented)) {
        // A placeholder two English forms fill is dropped once.
        if !all.contains(&misfit) {
            all.push(misfit);
        }
    }
    all
}

/// A catalog's entries (`key`, or `key.form` for a plural form) and their words, sorted
/// by entry: looked up by binary search (no hash map in the page for a few hundred texts).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Texts(Vec<(String, String)>);

impl Texts {
    /// The words of `entry`, if the catalog has it.
    pub fn get(&self, entry: &str) -> Option<&str> {
        let at = self.0.binary_search_by(|(e, _)| e.as_str().cmp(entry)).ok()?;
        Some(self.0[at].1.as_str())
    }

    /// Whether it has `entry`.
    pub fn has(&self, entry: &str) -> bool {
        self.get(entry).is_some()
    }
}

impl FromIterator<(String, String)> for Texts {
    /// The entries, sorted; of an entry given twice, the last.
    fn from_iter<I: IntoIterator<Item = (String, String)>>(entries: I) -> Texts {
        // Sorted by insertion: a catalog file comes sorted (the build writes it so), which is
        // one pass; the page links no general sort for this alone.
        let mut all: Vec<(String, String)> = Vec::new();
        for entry in entries {
            let at = all.iter().rposition(|(e, _)| *e <= entry.0).map_or(0, |i| i + 1);
            match all.get_mut(at.wrapping_sub(1)) {
                Some(before) if before.0 == entry.0 => *before = entry,
                _ => all.insert(at, entry),
            }
        }
        Texts(all)
    }
}

/// Everything wrong with `texts`, a catalog for `lang`: every key of the game with each form
/// the language needs, and the same placeholders as English (a plural form may leave out the
/// count, `{n}`, as "one" often does).
pub fn check(lang: Lang, texts: &Texts) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut known: Vec<String> = Vec::new();
    for key in Key::ALL {
        for (entry, exact) in entries(key, lang) {
            match texts.get(&entry) {
                None => problems.push(Problem::Missing(entry.clone())),
                Some(text) => problems.extend(misfits(key, exact, text).into_iter().map(|m| match m {
                    Misfit::Dropped(place) => Problem::Dropped { key: entry.clone(), place: place.to_string() },
                    Misfit::Invented(place) => Problem::Invented { key: entry.clone(), place: place.to_string() },
                })),
            }
            known.push(entry);
        }
    }
    let unknown = texts.0.iter().filter(|(e, _)| !known.contains(e));
    problems.extend(unknown.map(|(e, _)| Problem::Unknown(e.clone())));
    problems
}

/// The words of one language, with English wherever the language's catalog has none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalog {
    lang: Lang,
    texts: Texts,
    ops: Ops,
}

/// A value filled into a text.
pub type Fill<'a> = (&'a str, &'a str);

impl Catalog {
    /// English, compiled in.
    pub fn english() -> Catalog {
        Catalog { lang: Lang::En, texts: Texts::default(), ops: Ops::Cross }
    }

    /// `lang`'s catalog from its entries (as its file, read as JSON, gives them). A text it
    /// lacks, or whose placeholders are wrong (a value that would not be shown, or a `{name}`
    /// shown as written), is read in English: each text is held to its key when it is read,
    /// so a page links the words and placeholders of the keys it shows, not of every key.
    /// What is wrong with a whole catalog is [`check`]'s to say (the test run does).
    pub fn from_texts(lang: Lang, texts: Texts) -> Catalog {
        Catalog { lang, texts, ops: lang.ops() }
    }

    /// The same words, writing multiplication and division `ops`' way (none: the language's).
    pub fn with_ops(mut self, ops: Option<Ops>) -> Catalog {
        self.set_ops(ops);
        self
    }

    /// Writes multiplication and division `ops`' way from now on (none: the language's);
    /// whether that changed how it writes them.
    pub fn set_ops(&mut self, ops: Option<Ops>) -> bool {
        let ops = ops.unwrap_or(self.lang.ops());
        std::mem::replace(&mut self.ops, ops) != ops
    }

    /// How it writes multiplication and division.
    pub fn ops(&self) -> Ops {
        self.ops
    }

    /// `text` (an operator, an expression, working) with its signs written [`Catalog::ops`]' way.
    pub fn signs(&self, text: &str) -> String {
        self.ops.write(text).into_owned()
    }

    /// `lang`'s catalog as compiled in (with the `builtin` feature: the server and the command
    /// line, which fetch nothing). The files are held whole by the test run.
    #[cfg(feature = "builtin")]
    pub fn builtin(lang: Lang) -> Catalog {
        if lang == Lang::En {
            return Catalog::english();
        }
        let texts = builtin_texts(lang.code()).iter().map(|(e, t)| ((*e).to_string(), (*t).to_string())).collect();
        Catalog::from_texts(lang, texts)
    }

    /// The pseudo-locale, for tests only: English's plural rules, every text bracketed and
    /// about 40 % longer, its letters accented (so a word that did not come from the catalog
    /// shows as plain English, and a box too tight for a longer language overflows).
    pub fn pseudo() -> Catalog {
        let mut texts = Vec::new();
        for key in Key::ALL {
            for (form, english) in key.english() {
                let entry = if form.is_empty() { key.name().to_string() } else { format!("{}.{form}", key.name()) };
                texts.push((entry, pseudo_words(english)));
            }
        }
        Catalog { lang: Lang::En, texts: texts.into_iter().collect(), ops: Ops::Cross }
    }

    /// Its language.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The words of `key`, its placeholders filled from `fill`.
    pub fn text(&self, key: Key, fill: &[Fill]) -> String {
        self.filled(self.text_words(key), fill)
    }

    /// This language's words for `key` at `entry`, if it has them and they fill the key's
    /// placeholders (`exact`: a form for one count, which may leave the count out).
    fn own(&self, key: Key, entry: &str, exact: bool) -> Option<&str> {
        self.texts.get(entry).filter(|text| misfits(key, exact, text).is_empty())
    }

    /// The words of a plain text (of a counted one, its `other` form).
    fn text_words(&self, key: Key) -> &str {
        let own = self.own(key, key.name(), false);
        own.or_else(|| key.plain_english()).unwrap_or_default()
    }

    /// The words of `key` on either side of its placeholder `place` (the others filled from
    /// `fill`), for a page that shows that value in its own element (a goal in bold): its
    /// words before and after it, wherever the language puts it.
    pub fn around(&self, key: Key, place: &str, fill: &[Fill]) -> (String, String) {
        let words = self.text_words(key);
        let mark = format!("{{{place}}}");
        match words.split_once(&mark) {
            Some((before, after)) => (self.filled(before, fill), self.filled(after, fill)),
            None => (self.filled(words, fill), String::new()),
        }
    }

    /// The words of `key` for the count `n` (its plural form), `{n}` and the placeholders
    /// of `fill` filled in.
    pub fn count(&self, key: Key, n: u64, fill: &[Fill]) -> String {
        let form = self.lang.plural(n);
        let own = self.own(key, &format!("{}.{}", key.name(), form.name()), self.lang.exact(form));
        let english = Lang::En.plural(n).name();
        let english = key.english_form(english).or_else(|| key.english_form("other"));
        // A plain text asked for with a count: its words, the count filled if it has {n}.
        let plain = || self.text_words(key);
        let words = own.or(english).unwrap_or_else(plain);
        let n = n.to_string();
        let mut all: Vec<Fill> = vec![("n", n.as_str())];
        all.extend_from_slice(fill);
        self.filled(words, &all)
    }

    /// `words` with each `{name}` replaced by its value (isolated in a right-to-left
    /// language); a name without a value is left as written. The words' own × and ÷ (the
    /// rules' "+ − × ÷") are written [`Catalog::ops`]' way; a value is filled as given (an
    /// expression among them is written with [`Catalog::signs`] first: a name is left alone).
    fn filled(&self, words: &str, fill: &[Fill]) -> String {
        let words = self.ops.write(words);
        let mut out = String::with_capacity(words.len() + 16);
        let mut rest = &*words;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let Some(close) = rest[open..].find('}') else {
                rest = &rest[open..];
                break;
            };
            let name = &rest[open + 1..open + close];
            match fill.iter().find(|(n, _)| *n == name) {
                // A value with letters (a name) takes its own direction (FSI); numbers, rolls
                // and expressions (−2, 2 5 12 12, 2‖(12 − 12)) read left to right (LRI), or
                // an Arabic line would show −2 as 2−.
                Some((_, value)) if self.lang.rtl() => {
                    let named = value.chars().any(char::is_alphabetic);
                    out.push(if named { '\u{2068}' } else { '\u{2066}' });
                    out.push_str(value);
                    out.push('\u{2069}');
                }
                Some((_, value)) => out.push_str(value),
                None => out.push_str(&rest[open..open + close + 1]),
            }
            rest = &rest[open + close + 1..];
        }
        out.push_str(rest);
        out
    }
}

/// `words` as the pseudo-locale writes them: "[Hów tö pláý ~~~~]", placeholders kept.
fn pseudo_words(words: &str) -> String {
    let mut out = String::from("[");
    let mut in_place = false;
    let mut letters: usize = 0;
    for c in words.chars() {
        match c {
            '{' => in_place = true,
            '}' => in_place = false,
            _ => {}
        }
        let accented = match c {
            _ if in_place => c,
            'a' => 'á',
            'e' => 'é',
            'i' => 'í',
            'o' => 'ö',
            'u' => 'ü',
            'y' => 'ý',
            'A' => 'Å',
            'E' => 'É',
            'O' => 'Ö',
            _ => c,
        };
        if !in_place && c.is_alphabetic() {
            letters += 1;
        }
        out.push(accented);
    }
    // The padding comes in words of five, so it wraps as a longer language's words do.
    let pad = (letters * 2).div_ceil(5);
    for i in 0..pad {
        if i % 5 == 0 {
            out.push(' ');
        }
        out.push('~');
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiplication_and_division_are_written_the_classrooms_way() {
        assert_eq!(Ops::Dot.write("(6 ÷ 3) × 4 − 2/3 = 22/3"), "(6 : 3) · 4 − 2/3 = 22/3");
        assert_eq!(Ops::Cross.write("(6 ÷ 3) × 4"), "(6 ÷ 3) × 4");
        assert_eq!(Ops::Dot.write("9‖9 + 1"), "9‖9 + 1");
        for ops in Ops::ALL {
            assert_eq!(Ops::from_code(ops.code()), Some(ops));
        }
        assert_eq!(Ops::from_code("slash"), None);
        // The language's way until a player chooses; a choice outlasts a change of language.
        assert_eq!(Catalog::english().ops(), Ops::Cross);
        assert_eq!(Catalog::from_texts(Lang::De, Texts::default()).ops(), Ops::Dot);
        assert_eq!(Catalog::from_texts(Lang::De, Texts::default()).with_ops(Some(Ops::Cross)).ops(), Ops::Cross);
        assert_eq!(Catalog::from_texts(Lang::Fr, Texts::default()).with_ops(None).ops(), Ops::Cross);
        let dot = Catalog::from_texts(Lang::Fr, Texts::default()).with_ops(Some(Ops::Dot));
        assert_eq!(dot.signs("4 × 5"), "4 · 5");
        // A text's own signs are written that way; a value filled in is left as given.
        assert!(dot.text(Key::Rules24Game, &[]).contains("+ − · :"), "{}", dot.text(Key::Rules24Game, &[]));
        assert_eq!(dot.text(Key::HintTry, &[("a", "×"), ("op", "÷"), ("b", "2")]), "Hint: try × ÷ 2.");
    }

    #[test]
    fn a_decimal_is_written_with_the_languages_mark() {
        assert_eq!(Lang::En.tenths(34), "3.4");
        assert_eq!(Lang::De.tenths(34), "3,4");
        assert_eq!(Lang::Fr.tenths(120), "12,0");
        assert_eq!(Lang::Ar.tenths(5), "0.5");
    }

    // Pins a bug: the impossible rolls' summary printed "2,359" and "4.41 %" in every
    // language (German reads 2.359 as two and a bit).
    #[test]
    fn numbers_are_written_with_the_languages_marks() {
        assert_eq!(Lang::En.grouped(2359), "2,359");
        assert_eq!(Lang::De.grouped(2359), "2.359");
        assert_eq!(Lang::Fr.grouped(1234567), "1\u{202F}234\u{202F}567");
        assert_eq!(Lang::En.grouped(999), "999");
        assert_eq!(Lang::En.grouped(0), "0");
        assert_eq!(Lang::De.fixed(4.4155, 2), "4,42");
        assert_eq!(Lang::PtBr.fixed(1234.56, 1), "1.234,6");
        assert_eq!(Lang::Ar.fixed(4.41, 2), "4.41");
        // The digits are the float formatter's, whatever the language.
        for (x, places) in
            [(0.0, 2), (4.4155, 2), (0.09259, 2), (13.04, 1), (234.56, 1), (-2.5, 1), (7.0, 0), (99.999, 2)]
        {
            assert_eq!(Lang::En.fixed(x, places), format!("{x:.*}", places as usize), "{x} to {places}");
        }
        assert_eq!(Lang::En.fixed(-0.004, 2), "0.00");
        assert_eq!(Lang::En.fixed(f64::NAN, 1), "0.0");
    }

    #[test]
    fn of_an_entry_given_twice_the_last_is_kept() {
        let texts: Texts = [("b", "1"), ("a", "2"), ("b", "3"), ("c", "4"), ("b", "5")]
            .map(|(e, t)| (e.to_string(), t.to_string()))
            .into_iter()
            .collect();
        assert_eq!((texts.get("a"), texts.get("b"), texts.get("c")), (Some("2"), Some("5"), Some("4")));
        assert_eq!(texts.0.len(), 3);
        // In any order, every entry is found: sorted, reversed, shuffled.
        let names: Vec<String> = (0..50).map(|i| format!("k{:02}", (i * 37) % 50)).collect();
        let mut sorted = names.clone();
        sorted.sort();
        let reversed: Vec<String> = sorted.iter().rev().cloned().collect();
        for order in [names, sorted, reversed] {
            let texts: Texts = order.iter().map(|e| (e.clone(), e.to_uppercase())).collect();
            assert!(texts.0.windows(2).all(|w| w[0].0 < w[1].0));
            assert!(order.iter().all(|e| texts.get(e) == Some(e.to_uppercase().as_str())));
        }
    }

    #[test]
    fn a_text_splits_around_the_value_a_page_shows_apart() {
        let en = Catalog::english();
        assert_eq!(en.around(Key::Tagline, "goal", &[]), ("Make ".to_string(), " from the dice.".to_string()));
        let ar = Texts::from_iter([("tagline".to_string(), "اصنع {goal} من النرد.".to_string())]);
        let ar = Catalog::from_texts(Lang::Ar, ar);
        assert_eq!(ar.around(Key::Tagline, "goal", &[]), ("اصنع ".to_string(), " من النرد.".to_string()));
    }

    fn map(pairs: &[(&str, &str)]) -> Texts {
        pairs.iter().map(|(k, v)| ((*k).to_string(), (*v).to_string())).collect()
    }

    /// A whole catalog for `lang`, as pairs: each entry the English words marked with the language.
    fn whole(lang: Lang) -> Vec<(String, String)> {
        let mut texts = Vec::new();
        for key in Key::ALL {
            for (entry, _) in entries(key, lang) {
                let english = key.plain_english().unwrap();
                texts.push((entry, format!("[{}] {english}", lang.code())));
            }
        }
        texts
    }

    /// `pairs` without `entry`, with `more` after.
    fn edit(pairs: Vec<(String, String)>, without: &[&str], more: &[(&str, &str)]) -> Texts {
        let kept = pairs.into_iter().filter(|(e, _)| !without.contains(&e.as_str()));
        kept.chain(more.iter().map(|(k, v)| ((*k).to_string(), (*v).to_string()))).collect()
    }

    #[test]
    fn english_fills_its_placeholders_and_counts_in_its_plural_forms() {
        let en = Catalog::english();
        assert_eq!(
            en.text(Key::HelpRed, &[("goal", "20")]),
            "Each move's result comes back red, marked ◆. The goal, 20, only counts when a move with a red number makes it."
        );
        assert!(en.count(Key::HelpClaims, 30, &[]).contains("(30 seconds to make it)"));
        assert!(en.count(Key::HelpClaims, 1, &[]).contains("(1 second to make it)"));
        assert_eq!(en.text(Key::GotIt, &[]), "Got it");
    }

    #[test]
    fn a_whole_catalog_has_no_problems_and_a_text_it_lacks_is_read_in_english() {
        for lang in Lang::ALL {
            assert_eq!(check(lang, &whole(lang).into_iter().collect()), vec![], "{lang:?}");
        }
        let texts = edit(whole(Lang::Fr), &["got_it"], &[]);
        assert_eq!(check(Lang::Fr, &texts), vec![Problem::Missing("got_it".into())]);
        let fr = Catalog::from_texts(Lang::Fr, texts);
        assert_eq!(fr.text(Key::GotIt, &[]), "Got it");
        assert_eq!(fr.text(Key::HelpTitle, &[]), "[fr] How to play");
        // A text whose placeholders are wrong is read in English, its values shown.
        let texts = edit(whole(Lang::De), &["help_red"], &[("help_red", "Das Ziel.")]);
        assert_eq!(check(Lang::De, &texts), vec![Problem::Dropped { key: "help_red".into(), place: "goal".into() }]);
        let de = Catalog::from_texts(Lang::De, texts);
        assert!(de.text(Key::HelpRed, &[("goal", "20")]).contains("The goal, 20,"));
        // A plain text asked for with a count is its words, never blank.
        assert_eq!(Catalog::english().count(Key::HelpTitle, 3, &[]), "How to play");
    }

    #[test]
    fn a_missing_form_a_dropped_or_invented_placeholder_and_an_unknown_key_are_each_found() {
        let texts = edit(
            whole(Lang::Ar),
            &["help_claims.few", "help_red", "help_move"],
            &[("help_red", "الهدف"), ("help_move", "{moves}"), ("help_titel", "?")],
        );
        let problems = check(Lang::Ar, &texts);
        assert!(problems.contains(&Problem::Missing("help_claims.few".into())), "{problems:?}");
        assert!(problems.contains(&Problem::Dropped { key: "help_red".into(), place: "goal".into() }));
        assert!(problems.contains(&Problem::Invented { key: "help_move".into(), place: "moves".into() }));
        assert!(problems.contains(&Problem::Unknown("help_titel".into())));
        // A form for one count may leave the count out ("un segundo"), never another value,
        // and a form for many counts (French "one" is 0 and 1) keeps it.
        let one = edit(whole(Lang::Es), &["help_claims.one"], &[("help_claims.one", "Un segundo.")]);
        assert_eq!(check(Lang::Es, &one), vec![]);
        let other = edit(whole(Lang::Es), &["help_claims.other"], &[("help_claims.other", "Segundos.")]);
        assert_eq!(
            check(Lang::Es, &other),
            vec![Problem::Dropped { key: "help_claims.other".into(), place: "n".into() }]
        );
        let fr = edit(whole(Lang::Fr), &["help_claims.one"], &[("help_claims.one", "Une seconde.")]);
        assert_eq!(check(Lang::Fr, &fr), vec![Problem::Dropped { key: "help_claims.one".into(), place: "n".into() }]);
        let ar = edit(whole(Lang::Ar), &["help_claims.two"], &[("help_claims.two", "ثانيتان")]);
        assert_eq!(check(Lang::Ar, &ar), vec![]);
        // A name that is no placeholder's ({} or {a b}) is found too.
        let odd = edit(whole(Lang::De), &["got_it"], &[("got_it", "OK {}")]);
        assert_eq!(check(Lang::De, &odd), vec![Problem::Invented { key: "got_it".into(), place: String::new() }]);
        // An entry given twice: the last is kept.
        let twice = map(&[("got_it", "a"), ("got_it", "b")]);
        assert_eq!(twice.get("got_it"), Some("b"));
    }

    #[test]
    fn the_pseudo_locale_brackets_and_lengthens_every_text_and_keeps_its_placeholders() {
        let pseudo = Catalog::pseudo();
        assert_eq!(pseudo.text(Key::GotIt, &[]), "[Göt ít ~~]");
        let red = pseudo.text(Key::HelpRed, &[("goal", "20")]);
        assert!(red.starts_with("[Éách mövé's") && red.contains(" 20, ") && red.ends_with("~]"), "{red}");
        let english = Catalog::english().text(Key::HelpRed, &[("goal", "20")]);
        assert!(red.chars().count() * 10 >= english.chars().count() * 13, "about 40 % longer: {red}");
        // The padding wraps like words: no run of it longer than five.
        assert!(!red.contains("~~~~~~"), "{red}");
        assert!(pseudo.count(Key::HelpClaims, 30, &[]).contains("(30 "));
        assert_eq!(check(Lang::En, &pseudo.texts), vec![]);
    }

    #[test]
    fn a_right_to_left_language_isolates_what_it_fills_in() {
        let ar = Catalog::from_texts(Lang::Ar, map(&[("help_red", "الهدف {goal} فقط")]));
        assert_eq!(ar.text(Key::HelpRed, &[("goal", "20")]), "الهدف \u{2066}20\u{2069} فقط");
        let es = Catalog::from_texts(Lang::Es, map(&[("help_red", "La meta, {goal}.")]));
        assert_eq!(es.text(Key::HelpRed, &[("goal", "20")]), "La meta, 20.");
    }

    #[test]
    fn each_language_counts_in_its_own_plural_forms() {
        let forms = |lang: Lang, ns: &[u64]| ns.iter().map(|&n| lang.plural(n).name()).collect::<Vec<_>>();
        assert_eq!(forms(Lang::En, &[0, 1, 2]), ["other", "one", "other"]);
        assert_eq!(forms(Lang::Fr, &[0, 1, 2]), ["one", "one", "other"]);
        assert_eq!(forms(Lang::PtBr, &[0, 1, 2]), ["one", "one", "other"]);
        assert_eq!(
            forms(Lang::Ar, &[0, 1, 2, 3, 10, 11, 99, 100, 102, 103, 111]),
            ["zero", "one", "two", "few", "few", "many", "many", "other", "other", "few", "many"]
        );
        let ar = Catalog::from_texts(
            Lang::Ar,
            map(&[
                ("help_claims.few", "{n} ثوان"),
                ("help_claims.many", "{n} ثانية"),
                ("help_claims.other", "{n} ثانية"),
            ]),
        );
        assert_eq!(ar.count(Key::HelpClaims, 5, &[]), "\u{2066}5\u{2069} ثوان");
        assert_eq!(ar.count(Key::HelpClaims, 30, &[]), "\u{2066}30\u{2069} ثانية");
        // A name takes its own direction; a signed number reads left to right.
        let line = Texts::from_iter([("outcome".to_string(), "{name} {points}: {why}".to_string())]);
        let line = Catalog::from_texts(Lang::Ar, line);
        assert_eq!(
            line.text(Key::Outcome, &[("name", "بن"), ("points", "−2"), ("why", "…")]),
            "\u{2068}بن\u{2069} \u{2066}−2\u{2069}: \u{2066}…\u{2069}"
        );
    }

    #[test]
    fn a_page_starts_in_the_links_language_then_its_readers_then_the_rooms_then_the_browsers() {
        let browser = ["nl-NL", "de-DE", "en"];
        assert_eq!(choose(Some("fr"), Some("es"), Some(Lang::Ar), &browser), Lang::Fr);
        assert_eq!(choose(None, Some("es"), Some(Lang::Ar), &browser), Lang::Es);
        assert_eq!(choose(None, None, Some(Lang::Ar), &browser), Lang::Ar);
        assert_eq!(choose(None, None, None, &browser), Lang::De);
        assert_eq!(choose(None, None, None, &["nl"]), Lang::En);
        // A code Score doesn't speak (a typo in a link, a stored value from elsewhere) is passed over.
        assert_eq!(choose(Some("xx"), Some("<script>"), None, &["pt-PT"]), Lang::PtBr);
    }

    #[test]
    fn a_language_is_found_from_a_browsers_or_a_links_code() {
        assert_eq!(Lang::from_code("es-MX"), Some(Lang::Es));
        assert_eq!(Lang::from_code("pt_PT"), Some(Lang::PtBr));
        assert_eq!(Lang::from_code("AR-eg"), Some(Lang::Ar));
        assert_eq!(Lang::from_code("nl"), None);
        assert_eq!(Lang::first_of(["nl-BE", "fr-BE", "en"]), Some(Lang::Fr));
        assert_eq!(Lang::first_of(["nl"]), None);
        for lang in Lang::ALL {
            assert_eq!(Lang::from_code(lang.code()), Some(lang));
        }
    }
}
