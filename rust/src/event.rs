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
    /// The snake_case name the Python API and the event log use ("life", "empty_library", ...); also its serde form.
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
        /// The player who drew.
        player: u8,
        /// The card, as the new object in their hand.
        card: ObjId,
    },
    /// CR 121.4: a draw attempted from an empty library.
    DrewFromEmptyLibrary {
        /// The player who tried to draw; they lose at the next state-based action check (CR 704.5b).
        player: u8,
    },
    /// CR 701.17: one batch of milled cards, where they are now (top card of the library first).
    Milled {
        /// The player whose library was milled.
        player: u8,
        /// The new objects, in the graveyard or wherever a replacement effect put them (CR 614.6).
        cards: Vec<ObjId>,
    },
    /// CR 701.9: one card discarded. `by` is the player who chose it (none for a random discard).
    Discarded {
        /// The player whose hand it was.
        player: u8,
        /// The new object: in the graveyard, where a replacement sent it, or on top of the library (CR 701.9c).
        card: ObjId,
        /// Who chose the card (another player may, CR 701.9b); `None` when nobody did: at random, or named by the effect.
        by: Option<u8>,
        /// Whether the card was chosen at random (CR 701.9b).
        random: bool,
    },
    /// CR 701.24: a library shuffled.
    Shuffled {
        /// The player whose library it is.
        player: u8,
    },
    /// CR 701.23: `player` searched `library`'s library and found these cards (ids in the library).
    Searched {
        /// The player who searched.
        player: u8,
        /// The player whose library was searched.
        library: u8,
        /// The cards found, as they were in the library (each then gets a `Moved` event if it leaves).
        found: Vec<ObjId>,
    },
    /// CR 701.20: cards shown to all players.
    Revealed {
        /// The player who revealed them.
        player: u8,
        /// The cards, where they are (revealing moves nothing, CR 701.20b).
        cards: Vec<ObjId>,
    },
    /// CR 701.22: a completed scry; `looked` may be fewer than the number scried (701.22d).
    Scried {
        /// The player who scried.
        player: u8,
        /// N in "scry N".
        amount: u32,
        /// How many cards they looked at: N, or the whole library if it had fewer.
        looked: u32,
        /// How many of those went to the bottom; the rest stayed on top.
        to_bottom: u32,
    },
    /// A card moved between zones and became `card`; `from_id` is the object it was.
    Moved {
        /// The object before the move (that id finds nothing now, CR 400.7).
        from_id: ObjId,
        /// The new object (a token that left the battlefield has ceased to exist, CR 111.7).
        card: ObjId,
        /// The zone it left.
        from: Zone,
        /// The zone it went to.
        to: Zone,
    },
    /// A player's life total changed (CR 119.3): life lost or gained, damage, a paid cost, or set directly.
    LifeChanged {
        /// Whose life total.
        player: u8,
        /// The life total before.
        from: i32,
        /// The life total after.
        to: i32,
    },
    /// Counters put on or removed from a player (CR 122.1), e.g. poison or ticket counters.
    PlayerCountersChanged {
        /// The player.
        player: u8,
        /// The kind of counter ("poison", "ticket").
        counter: String,
        /// How many were put on (positive) or removed (negative).
        delta: i64,
    },
    /// Counters put on or removed from an object (CR 122.1, 122.6).
    ObjectCountersChanged {
        /// The object, as it is now.
        card: ObjId,
        /// The kind of counter ("loyalty", "+1/+1").
        counter: String,
        /// How many were put on (positive) or removed (negative).
        delta: i64,
    },
    /// A player lost the game (CR 104.3).
    PlayerLost {
        /// The player who lost.
        player: u8,
        /// Why they lost.
        reason: LossReason,
    },
    /// The game ended (CR 104.1).
    GameOver {
        /// The players who hadn't lost; empty if all the remaining players lost at once, a draw (CR 104.4a).
        winners: Vec<u8>,
    },
    /// A step began (CR 500).
    StepBegan {
        /// The game's turn number, from 1 for the first turn.
        turn: u32,
        /// The step that began.
        step: Step,
        /// The active player, whose turn it is (CR 102.1).
        active: u8,
    },
    /// CR 117.3d.
    PassedPriority {
        /// The player who passed.
        player: u8,
    },
    /// Mana added to a pool by a mana ability (CR 106.4, 605); `source` was tapped for it.
    ManaAdded {
        /// The player whose mana pool it went to: the source's controller.
        player: u8,
        /// The permanent tapped for it.
        source: ObjId,
        /// The mana as symbols, e.g. "{G}" or "{C}{C}" (CR 107.4).
        mana: String,
    },
    /// A land played (CR 305.1): the new object on the battlefield.
    LandPlayed {
        /// The player who played it.
        player: u8,
        /// The land, as the new object on the battlefield.
        card: ObjId,
    },
    /// A spell became cast (CR 601.2i): the spell on the stack and the choices it was cast with.
    SpellCast {
        /// The caster.
        player: u8,
        /// The spell on the stack.
        spell: ObjId,
        /// Times each kicker printed on the card (\[A\], \[B\]) was paid; multikicker can count more than 1 (CR 702.33c).
        kicks: [u16; 2],
        /// Times kickers granted by other objects (sticker kicker) were paid (CR 702.33h).
        granted_kicks: u16,
        /// The value chosen for X (CR 107.3); 0 without X.
        x: u32,
        /// The chosen targets, every "target" of the spell in order, in one list (CR 601.2c).
        targets: Vec<TargetRef>,
    },
    /// A ticket counter from sticker kicker and, if chosen, a sticker (CR 702.33h, 123).
    StickerPut {
        /// The caster, who put the sticker on.
        player: u8,
        /// The spell on the stack that got it.
        card: ObjId,
        /// The sticker's name.
        sticker: String,
    },
    /// An activated ability was activated (CR 602.2): the ability object on the stack.
    AbilityActivated {
        /// The player who activated it.
        player: u8,
        /// The object whose ability it is, by its id when activated (a cycled card has a new id since).
        source: ObjId,
        /// The ability on the stack.
        ability: ObjId,
        /// Whether it is a cycling or typecycling ability (CR 702.29).
        cycling: bool,
    },
    /// A card was cycled (CR 702.29): `card` is where it went.
    Cycled {
        /// The player who cycled it.
        player: u8,
        /// The discarded card, as the new object (in the graveyard, or where a replacement sent it).
        card: ObjId,
    },
    /// A triggered ability was put on the stack (CR 603.3).
    AbilityTriggered {
        /// The ability's controller (CR 603.3a).
        player: u8,
        /// The object whose ability it is, by its id when it triggered.
        source: ObjId,
        /// The ability on the stack.
        ability: ObjId,
    },
    /// A card was conjured (a new card from outside the game).
    Conjured {
        /// The player who conjured it, its owner.
        player: u8,
        /// The new card, in the zone it was conjured into.
        card: ObjId,
    },
    /// A token was created on the battlefield (CR 111.2).
    TokenCreated {
        /// The player who created it: its owner and controller (CR 111.2).
        player: u8,
        /// The token on the battlefield.
        token: ObjId,
    },
    /// A player won the game because an effect says so (CR 104.2b).
    PlayerWon {
        /// The winner.
        player: u8,
    },
    /// A copy of `spell` was put on the stack (CR 707.10).
    SpellCopied {
        /// The spell copied.
        spell: ObjId,
        /// The copy on the stack (it wasn't cast, CR 707.10).
        copy: ObjId,
        /// The copy's controller, who also owns it (CR 707.10).
        controller: u8,
    },
    /// A spell or ability resolved (CR 608); `card` is where its card went, if anywhere.
    Resolved {
        /// The spell or ability as it was on the stack.
        spell: ObjId,
        /// The card as the new object (a permanent, or in the graveyard or exile); `None` when nothing is left
        /// (an ability, or a copy that ceased to exist; a copy of a permanent spell is a token now, CR 707.10f).
        card: Option<ObjId>,
    },
    /// A triggered ability whose intervening "if" was false as it would resolve: removed from
    /// the stack, it did nothing (CR 603.4).
    Removed {
        /// The ability as it was on the stack.
        ability: ObjId,
    },
    /// A spell didn't resolve because all its targets were illegal (CR 608.2b).
    Fizzled {
        /// The spell or ability as it was on the stack.
        spell: ObjId,
        /// The card as the new object (in the graveyard, or exile for flashback); `None` for an ability or a copy.
        card: Option<ObjId>,
    },
    /// A spell was countered (CR 701.6) and went to its owner's graveyard (`card`).
    Countered {
        /// The spell as it was on the stack.
        spell: ObjId,
        /// The card as the new object (in the graveyard, or exile for flashback); `None` for an ability or a copy.
        card: Option<ObjId>,
    },
    /// Damage dealt (CR 120) by `source` to a player or object.
    DamageDealt {
        /// The object that dealt it.
        source: ObjId,
        /// The player or permanent dealt it.
        target: TargetRef,
        /// How much; never 0 (CR 120.8).
        amount: u32,
    },
    /// A permanent put into its owner's graveyard by a state-based action or destroyed.
    Died {
        /// The new object in the graveyard (a token's id finds nothing: it ceased to exist, CR 704.5d).
        card: ObjId,
        /// The permanent it was.
        from_id: ObjId,
    },
}

/// The game's record of events.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventLog {
    /// Whether events are recorded: on for a new game, off for bulk simulation (Python `Game.recording`).
    pub recording: bool,
    /// Shared between clones until one of them records more (search clones constantly).
    pub events: std::sync::Arc<Vec<Event>>,
}

impl EventLog {
    /// Records the event built by `make` only when recording, so bulk runs never build it.
    /// Always inlined: where it isn't, a call is made only to find the log off.
    #[inline(always)]
    pub fn push_with(&mut self, make: impl FnOnce() -> Event) {
        if self.recording {
            std::sync::Arc::make_mut(&mut self.events).push(make());
        }
    }
}
