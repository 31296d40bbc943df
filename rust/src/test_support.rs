//! What the crate's tests share: the built-in example's deck lists, the built-in card data
//! with a test's own cards added, and whole games played two ways to compare.

use crate::card::CardDb;
use crate::game::{Game, Setup};
use crate::policy::Policy;

/// A deck list: each name as many times as given.
pub(crate) fn deck(parts: &[(&str, usize)]) -> Vec<String> {
    parts.iter().flat_map(|&(n, k)| std::iter::repeat_n(n.to_string(), k)).collect()
}

/// The example decks' lists (`mtgsim.EXAMPLE_DECKS`): a Fractured Sanity mill deck against a
/// creature deck.
pub(crate) fn example_decks() -> Vec<Vec<String>> {
    vec![
        deck(&[
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
        deck(&[("Forest", 12), ("Plains", 12), ("Grizzly Bears", 8), ("Savannah Lions", 8), ("Joraga Warcaller", 8), ("Hill Giant", 4), ("Walking Corpse", 4), ("Ornithopter", 4)]),
    ]
}

/// The built-in cards and these.
pub(crate) fn builtin_and(cards: impl IntoIterator<Item = serde_json::Value>) -> CardDb {
    let mut file: serde_json::Value = serde_json::from_str(include_str!("../data/cards.json")).unwrap();
    file["cards"].as_array_mut().unwrap().extend(cards);
    CardDb::from_json(&file.to_string()).unwrap()
}

/// The game of `seed` between `decks`, each player by the goldfish, first-option or random
/// policy (chosen by the seed), recording its events or not, played to its end or turn 30
/// twice: with `way(true)` set before it, then with `way(false)` (a test-only switch between
/// two ways of doing the same thing, left off after).
pub(crate) fn played_both_ways(decks: &[Vec<String>], seed: u64, recording: bool, way: impl Fn(bool)) -> [Game; 2] {
    let policies = [Policy::Goldfish, Policy::First, Policy::Random];
    let players = [policies[seed as usize % 3], policies[seed as usize / 3 % 3]];
    [true, false].map(|on| {
        way(on);
        let mut g = Game::from_decks_played_by(decks, seed, &Setup::default(), CardDb::builtin(), &players).unwrap();
        g.set_recording(recording);
        while !g.is_over() && g.turn < 30 {
            g.play_one().unwrap();
        }
        way(false);
        g
    })
}
