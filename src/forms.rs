//! Reading what players type: rolls, dice, goals, clock lengths, experiment numbers.
//!
//! Every parser says what is wrong ([`FormError`], data the page words in its language,
//! `crate::say::form_error`) instead of failing, and none of them touches the game: the
//! caller applies a value only when every field of a form is good.

use score_engine::entry::words;
pub use score_engine::entry::{experiment, numbers, whole, Entry, EntryError, MAX_EXPERIMENT, MIN_EXPERIMENT};
use score_engine::rules::{
    Preset, Rules, RulesError, MAX_CLOCK_SECS, MAX_DICE, MAX_GOAL, MAX_NAME, MIN_CLOCK_SECS, MIN_DICE, MIN_GOAL,
};

/// What is wrong with a form's field, as data.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FormError {
    /// A number, a list of them, or a roll.
    Entry(EntryError),
    /// Too few or too many dice (`MIN_DICE..=MAX_DICE` wanted).
    DiceCount(usize),
    /// A link's preset that isn't one.
    NotPreset(String),
    /// Rules out of range.
    Rules(Vec<RulesError>),
    /// Too few or too many players (2 to 8 wanted).
    Players(usize),
    /// A player's name too long (`MAX_NAME` at most).
    NameTooLong(String),
    /// A name given twice.
    NameTwice(String),
}

impl From<EntryError> for FormError {
    fn from(e: EntryError) -> FormError {
        FormError::Entry(e)
    }
}

impl std::fmt::Display for FormError {
    /// Its English words (the page words it in its own language).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::say::form_error(self, &score_i18n::Catalog::english()))
    }
}

/// A clock's length in seconds, within the range the rules allow.
pub fn clock_secs(text: &str, what: Entry) -> Result<u32, FormError> {
    Ok(whole(text, what, MIN_CLOCK_SECS.into(), MAX_CLOCK_SECS.into())? as u32)
}

/// Dice sides such as "6, 6, 12, 20".
pub fn dice(text: &str) -> Result<Vec<u32>, FormError> {
    let n = words(text).count();
    if !(MIN_DICE..=MAX_DICE).contains(&n) {
        return Err(FormError::DiceCount(n));
    }
    Ok(words(text).map(|w| whole(w, Entry::Sides, 2, 100).map(|s| s as u32)).collect::<Result<_, _>>()?)
}

/// A goal in the rules' range.
pub fn goal(text: &str) -> Result<i64, FormError> {
    Ok(whole(text, Entry::Goal, MIN_GOAL, MAX_GOAL)?)
}

/// A roll typed by hand, checked against the dice: the faces, sorted, must fit the sides, sorted.
pub fn roll_for(text: &str, dice: &[u32]) -> Result<Vec<i64>, FormError> {
    let roll = numbers(text, dice.len(), dice.len(), 1, 100)?;
    Ok(score_engine::roll::arrange_or_explain(&roll, dice)?)
}

/// A shared roll from a link's query (`?preset=score&dice=6,6,12,20&roll=2,5,12,12&goal=20`).
///
/// `Ok(None)` when the link carries no roll; `Err` with the reason when it
/// carries one that cannot be played.
///
/// A link sets the dice, goal (and a preset's operators) and the roll; the player's own
/// clocks and strict mode, from `mine`, stay (RULES §6).
pub fn link(query: &str, mine: &Rules) -> Result<Option<(Rules, Vec<i64>)>, FormError> {
    let pairs: Vec<(&str, &str)> = query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').unwrap_or((p, "")))
        .collect();
    let get = |k: &str| pairs.iter().find(|(key, _)| *key == k).map(|(_, v)| v.replace("%2C", ",").replace("%2c", ","));
    let Some(roll_text) = get("roll") else {
        return Ok(None);
    };
    let mut rules = match get("preset") {
        None => Rules::default(),
        Some(p) => Rules::preset(Preset::from_key(&p).ok_or(FormError::NotPreset(p))?),
    };
    if let Some(d) = get("dice") {
        rules.dice = dice(&d)?;
    }
    if let Some(g) = get("goal") {
        rules.goal = goal(&g)?;
    }
    rules.score_secs = mine.score_secs;
    rules.impossible_secs = mine.impossible_secs;
    rules.strict = mine.strict;
    rules.validate().map_err(FormError::Rules)?;
    let roll = roll_for(&roll_text, &rules.dice)?;
    Ok(Some((rules, roll)))
}

/// A link into a class room: `?room=CODE` (the code as the link has it: checked when the
/// page joins, so a bad one is shown in the join form with a sentence, not dropped), with
/// `#host=TOKEN` on the host link that opens the room as its host on a second screen. The
/// token is in the fragment, which a browser never sends: no request line, server log,
/// proxy log or Referer holds it. (A link of an older build, `&host=TOKEN`, still opens.)
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoomLink {
    /// The room's code, as given (empty: the page's own room, or the forms).
    pub code: String,
    /// The host token of a host link.
    pub host: Option<String>,
}

impl RoomLink {
    /// The address's query for this room: its code, never the host token.
    pub fn query(&self) -> String {
        format!("?room={}", self.code)
    }
}

/// The class-room link in the address's `query` and `fragment`, if the query has a `room`
/// parameter (`?room` alone opens the room's forms). Only letters and digits are kept, and
/// at most 64 of them (a code with none is kept as written, up to 20 characters, for the form
/// to say it isn't one).
pub fn room_link(query: &str, fragment: &str) -> Option<RoomLink> {
    let param_in = |part: &str, lead: char, name: &str| {
        part.trim_start_matches(lead).split('&').find_map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (k == name).then(|| v.chars().filter(char::is_ascii_alphanumeric).take(64).collect::<String>())
        })
    };
    let param = |name: &str| param_in(query, '?', name);
    let code = param("room")?.to_ascii_uppercase();
    // A link whose code has no letter or digit at all (`?room=!!!`) keeps what it said, so
    // the room's form can say it isn't a code instead of dropping it without a word.
    let code = if code.is_empty() {
        let raw = query.trim_start_matches('?').split('&').find_map(|p| p.strip_prefix("room=")).unwrap_or_default();
        raw.chars().filter(|c| !c.is_control() && !c.is_whitespace() && *c != '<' && *c != '>').take(20).collect()
    } else {
        code
    };
    let host = param_in(fragment, '#', "host").or_else(|| param("host")).filter(|h| !h.is_empty());
    Some(RoomLink { code, host })
}

impl RoomLink {
    /// The host link for room `code`: the token in the fragment.
    pub fn host_link(code: &str, host: &str) -> String {
        format!("?room={code}#host={host}")
    }
}

/// The query that [`link`] reads back to exactly this roll.
pub fn link_query(rules: &Rules, roll: &[i64]) -> String {
    let list = |v: Vec<String>| v.join(",");
    let mut q = String::from("?");
    if let Some(p) = rules.matches_preset() {
        q += &format!("preset={}&", p.key());
    }
    q += &format!(
        "dice={}&roll={}&goal={}",
        list(rules.dice.iter().map(ToString::to_string).collect()),
        list(roll.iter().map(ToString::to_string).collect()),
        rules.goal
    );
    q
}

/// `text` in lower case, by Unicode's rules. In the browser, the browser's own: Rust's
/// would bring its case tables into the page's wasm (7 KB of its gzip).
fn lowercase(text: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        String::from(js_sys::JsString::from(text).to_lower_case())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        text.to_lowercase()
    }
}

/// Player names for a match: 2 to 8, one per line, 1 to 20 characters, no two alike.
pub fn player_names(text: &str) -> Result<Vec<String>, FormError> {
    let names: Vec<String> = text.lines().map(str::trim).filter(|l| !l.is_empty()).map(String::from).collect();
    if !(2..=8).contains(&names.len()) {
        return Err(FormError::Players(names.len()));
    }
    if let Some(n) = names.iter().find(|n| n.chars().count() > MAX_NAME) {
        return Err(FormError::NameTooLong(n.clone()));
    }
    let folded: Vec<String> = names.iter().map(|n| lowercase(n)).collect();
    for (i, n) in names.iter().enumerate() {
        if folded[..i].contains(&folded[i]) {
            return Err(FormError::NameTwice(n.clone()));
        }
    }
    Ok(names)
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_room_link_keeps_its_code_as_given_and_a_host_link_its_token() {
        let link = |q: &str| {
            let (q, f) = q.split_once('#').map_or((q, String::new()), |(q, f)| (q, format!("#{f}")));
            room_link(q, &f).map(|l| (l.code, l.host))
        };
        // Pins a bug: the host link carried its token in the query, so every request for it
        // wrote the token into the server's and any proxy's access log.
        assert_eq!(RoomLink::host_link("XGBE7K", "00ff"), "?room=XGBE7K#host=00ff");
        assert_eq!(link(&RoomLink::host_link("XGBE7K", "00ff")), Some(("XGBE7K".into(), Some("00ff".into()))));
        assert_eq!(link("?room=abc234"), Some(("ABC234".into(), None)));
        assert_eq!(link("?x=1&room=XGBE7K&host=00ff"), Some(("XGBE7K".into(), Some("00ff".into()))));
        // A bad code is kept (the join form shows it, with why), but only letters and digits.
        assert_eq!(link("?room=ABC"), Some(("ABC".into(), None)));
        assert_eq!(link("?room=<script>"), Some(("SCRIPT".into(), None)));
        assert_eq!(link("?room"), Some((String::new(), None)));
        assert_eq!(link("?room=&host="), Some((String::new(), None)));
        assert_eq!(link("?roomy=ABC234"), None);
        // A "code" with no letter or digit is kept as written, for the form to say why.
        assert_eq!(link("?room=!!!"), Some(("!!!".into(), None)));
        assert_eq!(link(""), None);
        assert_eq!(room_link("?room=abc234", "#host=ff").unwrap().query(), "?room=ABC234");
    }

    use super::*;

    #[test]
    fn rolls_must_fit_the_dice() {
        assert_eq!(roll_for("2 5 12 12", &[6, 6, 12, 20]), Ok(vec![2, 5, 12, 12]));
        // Regression: each face goes on a die that can show it, not on the die typed in its place.
        assert_eq!(roll_for("20, 1, 1, 1", &[6, 6, 12, 20]), Ok(vec![1, 1, 1, 20]));
        assert_eq!(roll_for("12 12 2 5", &[20, 6, 12, 6]), Ok(vec![12, 2, 12, 5]));
        assert_eq!(
            roll_for("7 7 7 1", &[6, 6, 12, 20]).unwrap_err().to_string(),
            "7 7 7 1 can't be rolled with d6 d6 d12 d20."
        );
        assert_eq!(roll_for("1 2 3", &[6, 6, 12, 20]).unwrap_err().to_string(), "Enter 4 numbers (you entered 3).");
        assert!(roll_for("1 2 x 4", &[6, 6, 12, 20]).unwrap_err().to_string().contains("“x”"));
    }

    #[test]
    fn experiment_input_is_checked() {
        let (n, g) = experiment("9 9 9 9", "20");
        assert_eq!((n, g), (Ok(vec![9, 9, 9, 9]), Ok(20)));
        let (n, g) = experiment("9 9", "abc");
        assert!(n.is_err() && g.is_err());
        let (n, _) = experiment("1 2 3 4 5 6 7", "1");
        assert!(n.is_err());
        let (n, _) = experiment("1 2 999999", "1");
        assert!(n.unwrap_err().to_string().contains("from -9999 to 99999"));
    }

    #[test]
    fn links_round_trip_and_bad_links_say_why() {
        let link = |q: &str| link(q, &Rules::default());
        let rules = Rules::default();
        let q = link_query(&rules, &[2, 5, 12, 12]);
        assert_eq!(q, "?preset=score&dice=6,6,12,20&roll=2,5,12,12&goal=20");
        assert_eq!(link(&q), Ok(Some((rules, vec![2, 5, 12, 12]))));
        let t = Rules::preset(Preset::TwentyFour);
        assert_eq!(link(&link_query(&t, &[3, 3, 8, 8])), Ok(Some((t, vec![3, 3, 8, 8]))));
        assert_eq!(link("?dice=6%2C6%2C12%2C20&roll=1%2C1%2C1%2C4"), Ok(Some((Rules::default(), vec![1, 1, 1, 4]))));
        assert_eq!(link(""), Ok(None));
        assert_eq!(link("?utm=x"), Ok(None));
        assert!(link("?roll=9,9,9,9").unwrap_err().to_string().contains("can't be rolled"));
        // Pins a bug: a link reset the player's clocks and strict mode to the defaults.
        let mine = Rules { score_secs: 45, impossible_secs: 90, strict: true, ..Rules::default() };
        let (got, _) = super::link(&q, &mine).unwrap().unwrap();
        assert_eq!((got.score_secs, got.impossible_secs, got.strict), (45, 90, true));
        assert_eq!((got.dice, got.goal), (Rules::default().dice, 20));
        assert!(link("?roll=1,2,3,4&goal=huge").is_err());
        assert!(link("?roll=1,2,3,4&preset=chess").is_err());
        assert!(link("?roll=1,2&dice=6,6").is_err());
    }

    #[test]
    fn player_names_are_checked() {
        assert_eq!(player_names("Ana\n Ben \n\nCy"), Ok(vec!["Ana".into(), "Ben".into(), "Cy".into()]));
        assert!(player_names("Ana").unwrap_err().to_string().contains("2 to 8"));
        assert!(player_names("Ana\nana").unwrap_err().to_string().contains("twice"));
        assert!(player_names("Émile\nÉMILE").unwrap_err().to_string().contains("twice"));
        assert!(player_names("Ana\nAbcdefghijklmnopqrstuvwxyz").unwrap_err().to_string().contains("20 characters"));
    }

    #[test]
    fn dice_and_goal() {
        assert_eq!(dice("6,6,12,20"), Ok(vec![6, 6, 12, 20]));
        assert!(dice("6 6").unwrap_err().to_string().contains("3 to 6 dice"));
        assert_eq!(dice("6 6 1").unwrap_err().to_string(), "Each die's sides must be from 2 to 100.");
        assert_eq!(goal(" −5 "), Ok(-5));
        assert!(goal("10000").is_err());
    }
}
