//! Typed game events (GUIDE §3: every action goes through events). The log is what a user
//! reads; later, triggered abilities match the same events. Recording can be switched off for
//! bulk simulation.

use serde::{Deserialize, Serialize};

use crate::object::ObjId;
use crate::zone::Zone;

/// Why a player lost (CR 104.3, 704.5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossReason {
    /// CR 704.5a: 0 or less life.
    Life,
    /// CR 704.5b: attempted to draw from an empty library.
    EmptyLibrary,
    /// CR 704.5c: ten or more poison counters.
    Poison,
    /// CR 104.3a: conceded.
    Conceded,
}

impl LossReason {
    pub fn name(self) -> &'static str {
        match self {
            LossReason::Life => "life",
            LossReason::EmptyLibrary => "empty_library",
            LossReason::Poison => "poison",
            LossReason::Conceded => "conceded",
        }
    }
}

/// One thing that happened. Card ids are those of the objects after the event (the new objects,
/// CR 400.7) unless a field says otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// CR 121.1: one card drawn.
    Drew { player: u8, card: ObjId },
    /// CR 121.4: a draw attempted from an empty library.
    DrewFromEmptyLibrary { player: u8 },
    /// CR 701.17: one batch of milled cards, where they are now (top card of the library first).
    Milled { player: u8, cards: Vec<ObjId> },
    /// CR 701.9: one card discarded. `by` is the player who chose it (none for a random discard).
    Discarded { player: u8, card: ObjId, by: Option<u8>, random: bool },
    /// CR 701.24: a library shuffled.
    Shuffled { player: u8 },
    /// CR 701.23: `player` searched `library`'s library and found these cards (ids in the library).
    Searched { player: u8, library: u8, found: Vec<ObjId> },
    /// CR 701.20: cards shown to all players.
    Revealed { player: u8, cards: Vec<ObjId> },
    /// CR 701.22: a completed scry; `looked` may be fewer than the number scried (701.22d).
    Scried { player: u8, amount: u32, looked: u32, to_bottom: u32 },
    /// A card moved between zones and became `card`; `from_id` is the object it was.
    Moved { from_id: ObjId, card: ObjId, from: Zone, to: Zone },
    LifeChanged { player: u8, from: i32, to: i32 },
    PlayerCountersChanged { player: u8, counter: String, delta: i64 },
    ObjectCountersChanged { card: ObjId, counter: String, delta: i64 },
    PlayerLost { player: u8, reason: LossReason },
    GameOver { winners: Vec<u8> },
}

/// The game's record of events.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventLog {
    pub recording: bool,
    pub events: Vec<Event>,
}

impl EventLog {
    /// Records the event built by `make` only when recording, so bulk runs never build it.
    #[inline]
    pub fn push_with(&mut self, make: impl FnOnce() -> Event) {
        if self.recording {
            self.events.push(make());
        }
    }
}
