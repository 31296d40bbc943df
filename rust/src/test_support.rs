//! What the crate's tests share: the built-in example's deck lists, and the built-in card
//! data with a test's own cards added.

use crate::card::CardDb;

/// The example decks' lists (`mtgsim.EXAMPLE_DECKS`): a Fractured Sanity mill deck against a
/// creature deck.
pub(crate) fn example_decks() -> Vec<Vec<String>> {
    let list = |parts: &[(&str, usize)]| parts.iter().flat_map(|&(n, k)| std::iter::repeat_n(n.to_string(), k)).collect();
    vec![
        list(&[
            ("Island", 20),
            ("Swamp", 4),
            ("Fractured Sanity", 4),
            ("Glimpse the Unthinkable", 4),
            ("Maddening Cacophony", 4),
            ("Lórien Revealed", 4),
            ("Joint Exploration", 4),
            ("Monstrous War-Leech", 4),
            ("Ruin Crab", 4),
            ("Bruvac the Grandiloquent", 2),
            ("Jace, Wielder of Mysteries", 2),
            ("Street Wraith", 4),
        ]),
        list(&[("Forest", 12), ("Plains", 12), ("Grizzly Bears", 8), ("Savannah Lions", 8), ("Joraga Warcaller", 8), ("Hill Giant", 4), ("Walking Corpse", 4), ("Ornithopter", 4)]),
    ]
}

/// The built-in cards and these.
pub(crate) fn builtin_and(cards: impl IntoIterator<Item = serde_json::Value>) -> CardDb {
    let mut file: serde_json::Value = serde_json::from_str(include_str!("../data/cards.json")).unwrap();
    file["cards"].as_array_mut().unwrap().extend(cards);
    CardDb::from_json(&file.to_string()).unwrap()
}
