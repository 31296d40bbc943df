//! Typed game events (GUIDE §3: every action goes through events). The log is what a user
//! reads; later, triggered abilities match the same events. Recording can be switched off for
//! bulk simulation.

use serde::{Deserialize, Serialize};

use crate::object::ObjId;
use crate::target::TargetRef;
use crate::turn::Step;
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
    /// Another player won the game by an effect (CR 104.2b), which ends it for everyone.
    OpponentWon,
}

impl LossReason {
    pub fn name(self) -> &'static str {
        match self {
            LossReason::Life => "life",
            LossReason::EmptyLibrary => "empty_library",
            LossReason::Poison => "poison",
            LossReason::Conceded => "conceded",
            LossReason::OpponentWon => "opponent_won",
        }
    }
}

/// One thing that happened. Card ids are those of the objects after the event (the new objects,
/// CR 400.7) unless a field says otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// CR 121.1: one card drawn.
    Drew {
        player: u8,
        card: ObjId,
    },
    /// CR 121.4: a draw attempted from an empty library.
    DrewFromEmptyLibrary {
        player: u8,
    },
    /// CR 701.17: one batch of milled cards, where they are now (top card of the library first).
    Milled {
        player: u8,
        cards: Vec<ObjId>,
    },
    /// CR 701.9: one card discarded. `by` is the player who chose it (none for a random discard).
    Discarded {
        player: u8,
        card: ObjId,
        by: Option<u8>,
        random: bool,
    },
    /// CR 701.24: a library shuffled.
    Shuffled {
        player: u8,
    },
    /// CR 701.23: `player` searched `library`'s library and found these cards (ids in the library).
    Searched {
        player: u8,
        library: u8,
        found: Vec<ObjId>,
    },
    /// CR 701.20: cards shown to all players.
    Revealed {
        player: u8,
        cards: Vec<ObjId>,
    },
    /// CR 701.22: a completed scry; `looked` may be fewer than the number scried (701.22d).
    Scried {
        player: u8,
        amount: u32,
        looked: u32,
        to_bottom: u32,
    },
    /// A card moved between zones and became `card`; `from_id` is the object it was.
    Moved {
        from_id: ObjId,
        card: ObjId,
        from: Zone,
        to: Zone,
    },
    LifeChanged {
        player: u8,
        from: i32,
        to: i32,
    },
    PlayerCountersChanged {
        player: u8,
        counter: String,
        delta: i64,
    },
    ObjectCountersChanged {
        card: ObjId,
        counter: String,
        delta: i64,
    },
    PlayerLost {
        player: u8,
        reason: LossReason,
    },
    GameOver {
        winners: Vec<u8>,
    },
    /// A step began (CR 500).
    StepBegan {
        turn: u32,
        step: Step,
        active: u8,
    },
    /// CR 117.3d.
    PassedPriority {
        player: u8,
    },
    /// Mana added to a pool by a mana ability (CR 106.4, 605); `source` was tapped for it.
    ManaAdded {
        player: u8,
        source: ObjId,
        mana: String,
    },
    /// A land played (CR 305.1): the new object on the battlefield.
    LandPlayed {
        player: u8,
        card: ObjId,
    },
    /// A spell became cast (CR 601.2i): the spell on the stack and the choices it was cast with.
    SpellCast {
        player: u8,
        spell: ObjId,
        kicks: [u16; 2],
        granted_kicks: u16,
        x: u32,
        targets: Vec<TargetRef>,
    },
    /// A ticket counter from sticker kicker and, if chosen, a sticker (CR 702.33h, 123).
    StickerPut {
        player: u8,
        card: ObjId,
        sticker: String,
    },
    /// An activated ability was activated (CR 602.2): the ability object on the stack.
    AbilityActivated {
        player: u8,
        source: ObjId,
        ability: ObjId,
        cycling: bool,
    },
    /// A card was cycled (CR 702.29): `card` is where it went.
    Cycled {
        player: u8,
        card: ObjId,
    },
    /// A triggered ability was put on the stack (CR 603.3).
    AbilityTriggered {
        player: u8,
        source: ObjId,
        ability: ObjId,
    },
    /// A card was conjured (a new card from outside the game).
    Conjured {
        player: u8,
        card: ObjId,
    },
    /// A token was created on the battlefield (CR 111.2).
    TokenCreated {
        player: u8,
        token: ObjId,
    },
    /// A player won the game because an effect says so (CR 104.2b).
    PlayerWon {
        player: u8,
    },
    /// A copy of `spell` was put on the stack (CR 707.10).
    SpellCopied {
        spell: ObjId,
        copy: ObjId,
        controller: u8,
    },
    /// A spell or ability resolved (CR 608); `card` is where its card went, if anywhere.
    Resolved {
        spell: ObjId,
        card: Option<ObjId>,
    },
    /// A spell didn't resolve because all its targets were illegal (CR 608.2b).
    Fizzled {
        spell: ObjId,
        card: Option<ObjId>,
    },
    /// A spell was countered (CR 701.6) and went to its owner's graveyard (`card`).
    Countered {
        spell: ObjId,
        card: Option<ObjId>,
    },
    /// Damage dealt (CR 120) by `source` to a player or object.
    DamageDealt {
        source: ObjId,
        target: TargetRef,
        amount: u32,
    },
    /// A permanent put into its owner's graveyard by a state-based action or destroyed.
    Died {
        card: ObjId,
        from_id: ObjId,
    },
}

/// The game's record of events.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventLog {
    pub recording: bool,
    /// Shared between clones until one of them records more (search clones constantly).
    pub events: std::sync::Arc<Vec<Event>>,
}

impl EventLog {
    /// Records the event built by `make` only when recording, so bulk runs never build it.
    #[inline]
    pub fn push_with(&mut self, make: impl FnOnce() -> Event) {
        if self.recording {
            std::sync::Arc::make_mut(&mut self.events).push(make());
        }
    }
}
