//! The game state: players, zones, the object table, the generator, answering arrangements,
//! the pending decision and the event log — one plain struct, cheap to clone (card definitions
//! are shared) and serialisable.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::card::{CardDb, CardDef};
use crate::counters::{validate_kind, Counters};
use crate::decision::{Answer, Decision};
use crate::error::{illegal, invalid, Error, Result};
use crate::event::{Event, EventLog, LossReason};
use crate::object::{ObjId, Object, ObjectKind};
use crate::payment::ManaPool;
use crate::policy::{Policy, Seat};
use crate::process::Frame;
use crate::rng::{derive_seed, Rng};
use crate::stack::StackItem;
use crate::turn::Step;
use crate::zone::{Position, Zone, ZoneKind};

/// The most players a game may have.
pub const MAX_PLAYERS: usize = 16;
/// The largest count any single action accepts (cards, life, counters); larger is a mistake.
pub const MAX_COUNT: i64 = 1_000_000;

/// One player's state. Piles are stored bottom first, so the top card is the last element.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// Life total (CR 119); 0 or less loses the game at the next state-based check (CR 704.5a).
    pub life: i32,
    /// Counters on the player (CR 122), e.g. poison: ten or more loses the game (CR 704.5c).
    pub counters: Counters,
    /// The library as object slots (see [`ObjId::slot`]), bottom first: the top card is last.
    pub library: Vec<u32>,
    /// The hand as object slots, in the order the cards arrived.
    pub hand: Vec<u32>,
    /// The graveyard as object slots, bottom first: the most recent card is last.
    pub graveyard: Vec<u32>,
    /// Cards this player owns that are outside the game (CR 400.11), as object slots.
    pub outside: Vec<u32>,
    /// Set by a draw from an empty library, until state-based actions look (CR 704.5b).
    pub drew_from_empty: bool,
    /// Mana in the player's mana pool (CR 106.4); it empties between steps (CR 500.5).
    pub pool: ManaPool,
    /// Why the player lost the game (CR 104.3), once they have; `None` while they are still in it.
    pub lost: Option<LossReason>,
    /// Has left a multiplayer game that went on (CR 800.4a).
    #[serde(default)]
    pub left: bool,
    /// The number of this player's most recent turn (0 before their first), for summoning
    /// sickness (CR 302.6).
    #[serde(default)]
    pub last_turn: u32,
    /// What this player has done so far, for simulation results.
    #[serde(default)]
    pub stats: PlayerStats,
}

/// Beginning the game with cards from opening hands on the battlefield (CR 103.6a): each
/// player in turn order, from the starting player, chooses which of theirs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct OpeningHandProc {
    player: u8,
    asked: bool,
}

impl OpeningHandProc {
    /// See [`crate::process::Frame::check_stored`]: who chooses next, counted from the
    /// starting player.
    pub(crate) fn check_stored(&self, c: &crate::process::Stored) -> std::result::Result<(), String> {
        c.player(c.g.starting_player)?;
        let n = c.g.players.len();
        c.ensure(self.player as usize + usize::from(self.asked) <= n, || format!("has {} players chosen in a {n}-player game", self.player))?;
        c.waits(self.asked, |choice| matches!(choice, crate::decision::Choice::Cards { .. }))
    }

    pub(crate) fn step(mut self, g: &mut Game) -> crate::process::Step {
        let n = g.players.len() as u8;
        while self.player < n {
            let p = (g.starting_player + self.player) % n;
            if self.asked {
                self.asked = false;
                let crate::decision::Answer::Cards { cards } = g.take_answer() else { unreachable!("validated") };
                for c in cards {
                    let from = g.objects[c.slot() as usize].zone;
                    let card = g.move_slot(c.slot(), ZoneKind::Battlefield, Position::Top);
                    g.entered_battlefield(c.slot());
                    let to = g.objects[c.slot() as usize].zone;
                    g.log.push_with(|| Event::Moved { from_id: c, card, from, to });
                }
                self.player += 1;
                continue;
            }
            let options: Vec<ObjId> = g.players[p as usize].hand.iter().filter(|&&s| g.def_of_slot(s).rules.begin_on_battlefield).map(|&s| g.id_of(s)).collect();
            if options.is_empty() {
                self.player += 1;
                continue;
            }
            self.asked = true;
            let max = options.len() as u32;
            let d = crate::decision::Decision { player: p, purpose: crate::decision::Purpose::BeginOnBattlefield, choice: crate::decision::Choice::Cards { options, min: 0, max } };
            return crate::process::Step::Ask(crate::process::Frame::OpeningHand(self), d);
        }
        g.begin_first_upkeep(); // its triggers go on the stack as the run loop ends
        crate::process::Step::Done
    }
}

/// Counts kept per player as the game goes (cheap: a few integer additions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerStats {
    /// Cards this player milled (from their own library).
    pub milled: u32,
    /// Spells cast.
    pub spells: u32,
    /// Kicker costs paid (multikicker counts each time).
    pub kicks: u32,
    /// Cards cycled (typecycling included).
    pub cycles: u32,
    /// Lands played.
    pub lands: u32,
}

/// `to` made a copy of `from` in its own allocation (what `clone_from` does); an empty
/// `from`, as most of a simulation template's lists are, only clears `to`, without the calls
/// that copy nothing.
#[inline(always)]
fn copy_into<T: Clone>(to: &mut Vec<T>, from: &Vec<T>) {
    if from.is_empty() {
        to.clear();
    } else {
        to.clone_from(from);
    }
}

impl Clone for PlayerState {
    /// Each vector allocated at its exact size (cheaper than growing empty ones).
    fn clone(&self) -> Self {
        PlayerState {
            life: self.life,
            counters: self.counters.clone(),
            library: self.library.clone(),
            hand: self.hand.clone(),
            graveyard: self.graveyard.clone(),
            outside: self.outside.clone(),
            drew_from_empty: self.drew_from_empty,
            pool: self.pool,
            lost: self.lost,
            left: self.left,
            last_turn: self.last_turn,
            stats: self.stats,
        }
    }

    /// Field by field, so resetting a game between batch repetitions reuses every allocation.
    fn clone_from(&mut self, src: &Self) {
        self.life = src.life;
        self.counters.clone_from(&src.counters);
        copy_into(&mut self.library, &src.library);
        copy_into(&mut self.hand, &src.hand);
        copy_into(&mut self.graveyard, &src.graveyard);
        copy_into(&mut self.outside, &src.outside);
        self.drew_from_empty = src.drew_from_empty;
        self.pool.clone_from(&src.pool);
        self.lost = src.lost;
        self.left = src.left;
        self.last_turn = src.last_turn;
        self.stats = src.stats;
    }
}

impl PlayerState {
    /// Why a player still in the game loses to a state-based action now, if they do: 0 or less
    /// life (CR 704.5a), an attempted draw from an empty library (704.5b), ten or more poison
    /// counters (704.5c).
    fn loss_reason(&self) -> Option<LossReason> {
        if self.life <= 0 {
            Some(LossReason::Life)
        } else if self.drew_from_empty {
            Some(LossReason::EmptyLibrary)
        } else if !self.counters.is_empty() && self.counters.get("poison") >= 10 {
            Some(LossReason::Poison)
        } else {
            None
        }
    }

    fn new(life: i32) -> PlayerState {
        PlayerState {
            life,
            counters: Counters::default(),
            library: Vec::new(),
            hand: Vec::new(),
            graveyard: Vec::new(),
            outside: Vec::new(),
            drew_from_empty: false,
            pool: ManaPool::default(),
            lost: None,
            left: false,
            last_turn: 0,
            stats: PlayerStats::default(),
        }
    }
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winner, or nobody when the game is a draw (CR 104.4a).
    pub winners: Vec<u8>,
    /// Every player who lost, with the reason, in the order they lost.
    pub losers: Vec<(u8, LossReason)>,
}

/// The result of an action that may stop for a decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Finished; the objects the action produced or found (new ids).
    Done(Vec<ObjId>),
    /// Stopped at a decision no built-in policy or script answers: see [`Game::pending`].
    Paused,
}

/// Options for [`Game::from_decks`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Each player's starting life total (CR 103.4; 20 by default); must be from 1 to [`MAX_COUNT`].
    pub starting_life: i32,
    /// Cards each player draws for their opening hand (CR 103.5; 7 by default).
    pub hand_size: u32,
}

impl Default for Setup {
    fn default() -> Self {
        Setup { starting_life: 20, hand_size: 7 }
    }
}

/// The permanents on the battlefield that the hot scans look for, each list in battlefield
/// order (the order triggers are queued, state-based actions apply and payments tap in). Most
/// permanents are lands with nothing but a mana ability, which only the mana scans visit.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct BattlefieldIndex {
    /// Creatures and planeswalkers, by their printed types (state-based actions).
    pub creatures: IndexList,
    /// Permanents with triggered abilities.
    pub triggers: IndexList,
    /// Permanents with static abilities.
    pub statics: IndexList,
    /// Permanents with activated abilities other than mana abilities (what a player with
    /// priority looks over).
    pub activated: IndexList,
    /// Creatures and planeswalkers that aren't [`Object::STURDY`]: those state-based actions
    /// must look at even when no damage, counter or effect could have changed them.
    pub fragile: IndexList,
    /// Permanents with a mana ability, by controller (what paying and counting mana look
    /// over: only the payer's own). By seat, the unseated empty: looked over on every payment
    /// and untap step, which a list's length check would cost.
    pub mana: [IndexList; MAX_PLAYERS],
    /// How many players the game has: the seats [`BattlefieldIndex::mana`] and the counts by
    /// seat use.
    pub players: usize,
    /// What each player's mana sources on their list give now, counted as they come and go
    /// and tap and untap, so that counting a player's supply needn't walk their list. By
    /// seat, the unseated left at zero: read on every count of a supply, which a list's length
    /// check would cost.
    pub untapped_mana: [UntappedMana; MAX_PLAYERS],
    /// How many tapped permanents each player controls, so that the untap step stops looking
    /// once it has untapped them all.
    pub tapped: [u32; MAX_PLAYERS],
    /// The kinds of event ([`crate::trigger::kind`]) the triggered abilities of each player's
    /// permanents wait for, by controller: an event no permanent waits for needn't be matched
    /// against any. By seat, as [`BattlefieldIndex::untapped_mana`].
    pub listening: [u16; MAX_PLAYERS],
    /// [`BattlefieldIndex::listening`] of all players, or-ed together.
    pub listening_any: u16,
    /// The kinds of static ability ([`crate::rules::static_kind`]) the permanents have: a
    /// replacement no permanent makes needn't be looked for.
    pub static_kinds: u16,
}

/// A player's mana sources counted by type: the untapped ones that give one mana of fixed
/// types per tap and aren't creatures (lands, mostly: nothing else decides whether they can
/// be tapped), and how many others there are, which only a walk over the list can count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct UntappedMana {
    /// Untapped plain sources making one type, by that type (W, U, B, R, G, C).
    pub by_type: [u32; 6],
    /// Untapped plain sources offering a choice of types.
    pub choosing: u32,
    /// Sources that aren't plain, tapped or not (creatures, several mana per tap, none).
    pub others: u32,
}

impl UntappedMana {
    /// Whether `o`, a mana source, is plain: counted here while untapped.
    fn plain(o: &Object) -> bool {
        o.flags & Object::CREATURE_OR_PLANESWALKER == 0 && !o.one_mana.is_empty()
    }

    /// Counts the source `o` in (`by` 1) or out (`by` -1), as it is now.
    fn count(&mut self, o: &Object, by: i32) {
        if !UntappedMana::plain(o) {
            self.others = self.others.wrapping_add_signed(by);
        } else if !o.tapped {
            self.count_untapped(o, by);
        }
    }

    /// Counts the plain source `o`, untapped, in or out.
    #[inline]
    fn count_untapped(&mut self, o: &Object, by: i32) {
        match o.one_mana.first() {
            Some(t) if o.one_mana.len() == 1 => self.by_type[t.index()] = self.by_type[t.index()].wrapping_add_signed(by),
            _ => self.choosing = self.choosing.wrapping_add_signed(by),
        }
    }
}

/// Inline up to a typical battlefield's worth, so that cloning a game allocates nothing more
/// for its index.
pub(crate) type IndexList = smallvec::SmallVec<[u32; 8]>;

impl Clone for BattlefieldIndex {
    fn clone(&self) -> Self {
        BattlefieldIndex {
            creatures: self.creatures.clone(),
            triggers: self.triggers.clone(),
            statics: self.statics.clone(),
            activated: self.activated.clone(),
            fragile: self.fragile.clone(),
            mana: self.mana.clone(),
            players: self.players,
            untapped_mana: self.untapped_mana,
            tapped: self.tapped,
            listening: self.listening,
            listening_any: self.listening_any,
            static_kinds: self.static_kinds,
        }
    }

    /// List by list, so batch and simulation resets keep any allocations. A simulation's
    /// template has an empty battlefield: an empty list is only cleared, without the call
    /// that copies nothing; and the per-player counts, as long as the template's, are
    /// copied over in place.
    fn clone_from(&mut self, src: &Self) {
        #[inline(always)]
        fn copy_list(to: &mut IndexList, from: &IndexList) {
            to.clear();
            if !from.is_empty() {
                to.extend_from_slice(from);
            }
        }
        copy_list(&mut self.creatures, &src.creatures);
        copy_list(&mut self.triggers, &src.triggers);
        copy_list(&mut self.statics, &src.statics);
        copy_list(&mut self.activated, &src.activated);
        copy_list(&mut self.fragile, &src.fragile);
        // The seats past the players', empty and zero in both when they have as many players,
        // needn't be copied then.
        let players = if self.players == src.players { src.players } else { MAX_PLAYERS };
        self.untapped_mana[..players].copy_from_slice(&src.untapped_mana[..players]);
        for (to, from) in self.mana[..players].iter_mut().zip(&src.mana[..players]) {
            copy_list(to, from);
        }
        self.players = src.players;
        self.tapped = src.tapped;
        self.listening = src.listening;
        self.listening_any = src.listening_any;
        self.static_kinds = src.static_kinds;
    }
}

impl BattlefieldIndex {
    /// An empty index for a game of `players` players.
    fn new(players: usize) -> Self {
        BattlefieldIndex { players, ..Default::default() }
    }

    fn rebuild(&mut self, battlefield: &[u32], objects: &[Object], defs: &[Arc<CardDef>]) {
        self.creatures.clear();
        self.triggers.clear();
        self.statics.clear();
        self.activated.clear();
        self.fragile.clear();
        self.mana.iter_mut().for_each(|list| list.clear());
        self.untapped_mana = Default::default();
        self.tapped = [0; MAX_PLAYERS];
        self.listening = [0; MAX_PLAYERS];
        self.listening_any = 0;
        self.static_kinds = 0;
        for &s in battlefield {
            self.push(s, &objects[s as usize], defs);
        }
    }

    /// A permanent put after the others on the battlefield.
    fn push(&mut self, s: u32, o: &Object, defs: &[Arc<CardDef>]) {
        self.edit(o, |list| list.push(s));
        self.count_mana_and_taps(o, 1);
        if o.flags & (Object::HAS_TRIGGERS | Object::HAS_STATICS) != 0 {
            self.note_abilities(o, defs);
        }
    }

    /// A permanent put before the others on the battlefield.
    fn push_front(&mut self, s: u32, o: &Object, defs: &[Arc<CardDef>]) {
        self.edit(o, |list| list.insert(0, s));
        self.count_mana_and_taps(o, 1);
        if o.flags & (Object::HAS_TRIGGERS | Object::HAS_STATICS) != 0 {
            self.note_abilities(o, defs);
        }
    }

    /// A permanent that left the battlefield. An object's flags never change while it is
    /// there, and its controller only through [`Game::set_controller`], so they name the lists
    /// it is in.
    fn remove(&mut self, s: u32, objects: &[Object], defs: &[Arc<CardDef>]) {
        let o = &objects[s as usize];
        self.edit(o, |list| {
            if let Some(i) = list.iter().rposition(|&x| x == s) {
                list.remove(i);
            }
        });
        self.count_mana_and_taps(o, -1);
        if o.flags & (Object::HAS_TRIGGERS | Object::HAS_STATICS) != 0 {
            self.renote_abilities(objects, defs);
        }
    }

    /// Adds the kinds of event the triggered abilities of the permanent `o` wait for to its
    /// controller's [`BattlefieldIndex::listening`], and the kinds of its static abilities to
    /// [`BattlefieldIndex::static_kinds`]. Out of line: most permanents have neither.
    #[inline(never)]
    fn note_abilities(&mut self, o: &Object, defs: &[Arc<CardDef>]) {
        let def = &defs[o.def as usize];
        self.note_listening(o.controller, def);
        self.static_kinds |= crate::rules::StaticAbility::kinds_of(&def.rules.statics);
    }

    /// Adds what the triggered abilities of a permanent with this definition wait for to
    /// `controller`'s [`BattlefieldIndex::listening`].
    fn note_listening(&mut self, controller: u8, def: &CardDef) {
        let kinds = crate::trigger::listens_to(def);
        self.listening[controller as usize] |= kinds;
        self.listening_any |= kinds;
    }

    /// Works [`BattlefieldIndex::listening`] and [`BattlefieldIndex::static_kinds`] out again
    /// from the permanents with such abilities (after one left or changed controller: a union
    /// can't be taken apart).
    fn renote_abilities(&mut self, objects: &[Object], defs: &[Arc<CardDef>]) {
        self.listening = [0; MAX_PLAYERS];
        self.listening_any = 0;
        for i in 0..self.triggers.len() {
            let o = &objects[self.triggers[i] as usize];
            self.note_listening(o.controller, &defs[o.def as usize]);
        }
        self.static_kinds = self.statics.iter().fold(0, |kinds, &s| kinds | crate::rules::StaticAbility::kinds_of(&defs[objects[s as usize].def as usize].rules.statics));
    }

    /// Counts the permanent `o` in or out of its controller's [`BattlefieldIndex::tapped`], if
    /// it is tapped, and [`UntappedMana`], if it is a mana source.
    // Inlined: on every permanent's arrival and departure, which a call costs more than this.
    #[inline(always)]
    fn count_mana_and_taps(&mut self, o: &Object, by: i32) {
        if o.tapped {
            self.tapped[o.controller as usize] = self.tapped[o.controller as usize].wrapping_add_signed(by);
        }
        if o.flags & Object::HAS_MANA != 0 {
            self.untapped_mana[o.controller as usize].count(o, by);
        }
    }

    /// Lists again the mana sources `p` controls (after a change of control: rare, and the
    /// list must keep battlefield order).
    fn refile_mana(&mut self, p: u8, battlefield: &[u32], objects: &[Object]) {
        let list = &mut self.mana[p as usize];
        list.clear();
        list.extend(battlefield.iter().copied().filter(|&s| objects[s as usize].flags & Object::HAS_MANA != 0 && objects[s as usize].controller == p));
        let mut count = UntappedMana::default();
        for &s in list.iter() {
            count.count(&objects[s as usize], 1);
        }
        self.untapped_mana[p as usize] = count;
    }

    /// Applies `f` to each list a permanent belongs in.
    fn edit(&mut self, o: &Object, mut f: impl FnMut(&mut IndexList)) {
        let flags = o.flags;
        if flags & Object::CREATURE_OR_PLANESWALKER != 0 {
            f(&mut self.creatures);
            if flags & Object::STURDY == 0 {
                f(&mut self.fragile);
            }
        }
        if flags & Object::HAS_TRIGGERS != 0 {
            f(&mut self.triggers);
        }
        if flags & Object::HAS_STATICS != 0 {
            f(&mut self.statics);
        }
        if flags & Object::ACTIVATED != 0 {
            f(&mut self.activated);
        }
        if flags & Object::HAS_MANA != 0 {
            f(&mut self.mana[o.controller as usize]);
        }
    }
}

/// A game of Magic.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Game {
    /// The definitions this game's objects use; shared between clones.
    pub(crate) defs: Arc<Vec<Arc<CardDef>>>,
    pub(crate) objects: Vec<Object>,
    pub(crate) players: Vec<PlayerState>,
    pub(crate) battlefield: Vec<u32>,
    /// The battlefield sorted for the scans that run on every event, priority and check:
    /// derived, so rebuilt at each change of the battlefield and never saved.
    #[serde(skip)]
    pub(crate) indexed: BattlefieldIndex,
    pub(crate) stack: Vec<u32>,
    pub(crate) exile: Vec<u32>,
    pub(crate) command: Vec<u32>,
    pub(crate) seed: u64,
    pub(crate) rng: Rng,
    pub(crate) active: u8,
    pub(crate) turn: u32,
    pub(crate) step: Step,
    pub(crate) starting_player: u8,
    /// Who has priority (CR 117); nobody between steps.
    pub(crate) priority: Option<u8>,
    /// Players who have passed in succession (CR 117.4).
    pub(crate) passes: u8,
    /// Priority actions taken through the play loop of a recorded game, asked or not (a pass
    /// that was the only choice counts too; a cancelled one doesn't): where a replay must stand.
    #[serde(default)]
    pub(crate) actions_taken: u64,
    /// Lands the active player has played this turn (CR 305.2).
    pub(crate) lands_played: u8,
    /// What each spell on the stack was cast with, parallel to `stack` (bottom first).
    pub(crate) stack_items: Vec<StackItem>,
    /// Stickers on objects (CR 123), by slot: kept across public zones, lost in hidden ones.
    pub(crate) stickers: Vec<(u32, Box<str>)>,
    pub(crate) seats: Vec<Seat>,
    pub(crate) strict: bool,
    /// Work in progress: actions stopped part-way, innermost last.
    pub(crate) frames: Vec<Frame>,
    pub(crate) pending: Option<Decision>,
    /// The answer the frame on top of `frames` is about to consume.
    pub(crate) answer: Option<Answer>,
    /// What the current action produced, handed back when it finishes.
    pub(crate) output: Vec<ObjId>,
    pub(crate) log: EventLog,
    pub(crate) outcome: Option<Outcome>,
    /// A reused buffer for listing mana sources while paying (not part of the state).
    #[serde(skip)]
    pub(crate) source_buf: Vec<crate::payment::ManaSource>,
    /// The box of the last priority frame that finished, for the next one.
    #[serde(skip)]
    pub(crate) spare_priority: crate::process::Spare<crate::play::PriorityProc>,
    /// The same for activations.
    #[serde(skip)]
    pub(crate) spare_activate: crate::process::Spare<crate::ability::ActivateProc>,
    /// The same for scries.
    #[serde(skip)]
    pub(crate) spare_scry: crate::process::Spare<crate::actions::scry::ScryProc>,
    /// The same for instructions being followed.
    #[serde(skip)]
    pub(crate) spare_effect: crate::process::Spare<crate::effect::EffectProc>,
    /// Whether finished actions hand back what they produced; batch runs, which ignore it,
    /// turn this off so the buffer is reused instead of handed over.
    #[serde(skip)]
    pub(crate) discard_output: bool,
    /// Played by the engine alone (bulk runs): nothing outside it changes the game between
    /// actions, so a state checked once stays checked until an action changes it. No seat
    /// has a script, the game isn't strict, and an error ends the run (so actions keep
    /// nothing for undoing them).
    #[serde(skip)]
    pub(crate) unattended: bool,
    /// In unattended play, the action just taken changed nothing the state-based actions look
    /// at since they were last checked — a pass that only handed priority on, or one that began
    /// a step with no turn-based action (`Step::begins_quietly`) — so the check is skipped
    /// once (it would find what it found then: nothing).
    #[serde(skip)]
    pub(crate) quiet_pass: bool,
    /// Cards were put onto the battlefield by setup (`add_cards`) since state-based actions
    /// were last checked: a pass checks them before the next player receives priority.
    /// (Every action checks them itself; a loaded game is checked once, to be safe.)
    #[serde(skip, default = "crate::policy::yes")]
    pub(crate) unchecked_setup: bool,
    /// The last state-based check found nothing to do, and nothing it reads has changed
    /// since, so the next check would find nothing again (CR 704.3) and stops at once. Cleared
    /// by every change that could make one apply: a life total, a player's or an object's
    /// counters, drawing from an empty library, a loss, damage, an "until end of turn" effect,
    /// a control change, and any card entering or leaving a battlefield or graveyard (a
    /// characteristic-defining toughness may count a graveyard).
    #[serde(skip)]
    pub(crate) sba_quiet: bool,
    /// Damage may be marked on a permanent: dealt since damage last wore off (CR 514.2), so
    /// state-based actions look at every creature, not only the fragile ones. (A loaded game
    /// looks until its next cleanup, to be safe.)
    #[serde(skip, default = "crate::policy::yes")]
    pub(crate) damage_marked: bool,
    /// The [`Object::flags`] of every definition in `defs`, or-ed together: what no card of
    /// this game has (flashback, say) needn't be looked for (derived from `defs`).
    #[serde(skip)]
    pub(crate) def_flags: u16,
    /// Delayed triggered abilities not yet triggered (CR 603.7).
    #[serde(default)]
    pub(crate) delayed: Vec<crate::trigger::Delayed>,
    /// Triggered abilities waiting to be put on the stack (CR 603.3).
    #[serde(default)]
    pub(crate) pending_triggers: Vec<crate::trigger::PendingTrigger>,
    /// Counters on objects (CR 122), by slot; few objects ever have any.
    pub(crate) object_counters: Vec<(u32, Counters)>,
    /// Players who have lost, in the order they lost.
    pub(crate) losers: Vec<(u8, LossReason)>,
    /// "Triggers only once each turn" abilities that triggered this turn.
    #[serde(default)]
    pub(crate) triggered_this_turn: Vec<(ObjId, u16)>,
    /// Planeswalkers whose loyalty ability was activated this turn (CR 606.3).
    #[serde(default)]
    pub(crate) loyalty_activated: Vec<ObjId>,
    /// "Until end of turn" effects (CR 514.2 ends them).
    #[serde(default)]
    pub(crate) until_end_of_turn: Vec<crate::continuous::UntilEndOfTurn>,
    /// A legendary permanent entered since the legend rule last looked (CR 704.5j).
    #[serde(default)]
    pub(crate) legendary_entered: bool,
    /// A selection in progress at the pending decision, made one legal action at a time.
    #[serde(default)]
    pub(crate) partial: Vec<crate::legal::LegalAction>,
    /// By slot: the players who know what the object is while it is in a hidden zone, as
    /// bits (see `observe.rs`); slots beyond the end are known to nobody.
    #[serde(default)]
    pub(crate) known: Vec<u16>,
    /// By player: how many cards in their library someone knows (an upper bound, so a shuffle
    /// with none known skips forgetting them). Not saved: a loaded game assumes the most.
    #[serde(skip, default = "crate::observe::unknown_counts")]
    pub(crate) known_in_library: [u32; MAX_PLAYERS],
    /// By player: how many instants and flash cards (lands aside) their hand holds, so that
    /// outside their sorcery timing a player with none is seen to have nothing to cast
    /// without looking over the hand. Derived: follows every change to a hand (see
    /// [`Game::zone_slots_mut`]'s callers), and is rebuilt on load.
    #[serde(skip)]
    pub(crate) fast_in_hand: [u16; MAX_PLAYERS],
    /// By player: the least mana an instant or flash card in their hand costs (`u32::MAX`
    /// with none), so that whether they could pay for one is seen without looking over the
    /// hand. Derived, and kept as [`Game::fast_in_hand`] is.
    #[serde(skip, default = "no_fast_cards")]
    pub(crate) fast_least_in_hand: [u32; MAX_PLAYERS],
    /// By player: how many cards with activated abilities (mana abilities aside) their hand
    /// holds, so that a player with none has theirs looked for on their permanents alone.
    /// Derived, and kept as [`Game::fast_in_hand`] is.
    #[serde(skip)]
    pub(crate) activated_in_hand: [u16; MAX_PLAYERS],
    /// The decks, seed and setup of a game made by [`Game::from_decks`], for replays.
    #[serde(default)]
    pub(crate) origin: Option<Arc<crate::replay::Origin>>,
    /// Every decision's answer so far, in order, while the log records (see `replay.rs`).
    #[serde(default)]
    pub(crate) history: Arc<Vec<(u8, Answer)>>,
    /// A decision was answered while the log was off: the history misses it, so the game
    /// can't be replayed.
    #[serde(default)]
    pub(crate) unrecorded: bool,
}

impl Game {
    /// An empty game with `num_players` players at 20 life, for building positions.
    pub fn new(num_players: usize, seed: u64) -> Result<Game> {
        if !(2..=MAX_PLAYERS).contains(&num_players) {
            return Err(invalid(format!("a game needs 2 to {MAX_PLAYERS} players, not {num_players}")));
        }
        Ok(Game {
            defs: Arc::new(Vec::new()),
            objects: Vec::new(),
            players: (0..num_players).map(|p| PlayerState { last_turn: u32::from(p == 0), ..PlayerState::new(20) }).collect(),
            battlefield: Vec::new(),
            indexed: BattlefieldIndex::new(num_players),
            stack: Vec::new(),
            exile: Vec::new(),
            command: Vec::new(),
            seed,
            rng: Rng::new(seed),
            active: 0,
            turn: 1,
            step: Step::PrecombatMain,
            starting_player: 0,
            priority: Some(0),
            passes: 0,
            actions_taken: 0,
            lands_played: 0,
            stack_items: Vec::new(),
            stickers: Vec::new(),
            seats: (0..num_players).map(|p| Seat { policy: Policy::Random, script: Default::default(), rng: Rng::new(derive_seed(seed, 1 + p as u64)), auto_pay: true }).collect(),
            strict: false,
            frames: Vec::new(),
            pending: None,
            answer: None,
            output: Vec::new(),
            log: EventLog { recording: true, events: Default::default() },
            outcome: None,
            object_counters: Vec::new(),
            pending_triggers: Vec::new(),
            def_flags: 0,
            delayed: Vec::new(),
            source_buf: Vec::new(),
            spare_priority: Default::default(),
            spare_activate: Default::default(),
            spare_scry: Default::default(),
            spare_effect: Default::default(),
            discard_output: false,
            unattended: false,
            quiet_pass: false,
            damage_marked: false,
            unchecked_setup: false,
            sba_quiet: false,
            losers: Vec::new(),
            triggered_this_turn: Vec::new(),
            loyalty_activated: Vec::new(),
            until_end_of_turn: Vec::new(),
            legendary_entered: false,
            partial: Vec::new(),
            known: Vec::new(),
            known_in_library: [0; MAX_PLAYERS],
            fast_in_hand: [0; MAX_PLAYERS],
            fast_least_in_hand: no_fast_cards(),
            activated_in_hand: [0; MAX_PLAYERS],
            origin: None,
            history: Arc::default(),
            unrecorded: false,
        })
    }

    /// A game started from deck lists (card names): each library is the deck, shuffled in
    /// player order by the game's generator, then each player in turn order draws a hand.
    /// Player 0 starts.
    pub fn from_decks(decks: &[Vec<String>], seed: u64, setup: &Setup, db: &CardDb) -> Result<Game> {
        Game::from_decks_played_by(decks, seed, setup, db, &[])
    }

    /// [`Game::from_decks`] with the first players' policies set before the deal, so they
    /// answer the opening-hand choices (CR 103.6) as a simulation's players do.
    pub fn from_decks_played_by(decks: &[Vec<String>], seed: u64, setup: &Setup, db: &CardDb, policies: &[Policy]) -> Result<Game> {
        let mut game = Game::unshuffled(decks, setup, db)?;
        if policies.len() > decks.len() {
            return Err(invalid(format!("{} policies for {} decks: give at most one per player", policies.len(), decks.len())));
        }
        for (p, &policy) in policies.iter().enumerate() {
            game.set_policy(p, policy)?;
        }
        game.deal(seed, setup)?;
        game.origin = Some(Arc::new(crate::replay::Origin { decks: decks.to_vec(), seed, setup: setup.clone() }));
        Ok(game)
    }

    /// The decks as libraries in list order, nothing shuffled or drawn yet: what
    /// [`Game::deal`] starts each game from (simulations build it once).
    pub fn unshuffled(decks: &[Vec<String>], setup: &Setup, db: &CardDb) -> Result<Game> {
        let mut game = Game::new(decks.len(), 0)?;
        if setup.starting_life <= 0 || setup.starting_life as i64 > MAX_COUNT {
            return Err(invalid(format!("starting life must be from 1 to {MAX_COUNT}, not {}", setup.starting_life)));
        }
        check_count(setup.hand_size.into(), "hand size")?;
        // Checked before any card is made: a deck of tens of millions of cards ran the process
        // out of memory, which aborts it.
        if let Some((p, deck)) = decks.iter().enumerate().find(|(_, d)| d.len() as i64 > MAX_COUNT) {
            return Err(invalid(format!("deck {p} has {} cards; a deck has at most {MAX_COUNT}", deck.len())));
        }
        for p in &mut game.players {
            p.life = setup.starting_life;
        }
        for (p, deck) in decks.iter().enumerate() {
            let names: Vec<&str> = deck.iter().map(String::as_str).collect();
            game.add_cards(p, ZoneKind::Library, &names, Position::Bottom, db)?;
        }
        Ok(game)
    }

    /// Gives the game, and each player's policy, fresh generators from `seed` (the game's from
    /// `seed`, player p's from `derive_seed(seed, 1 + p)`), as a new deal does.
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.rng = Rng::new(seed);
        for (p, seat) in self.seats.iter_mut().enumerate() {
            seat.rng = Rng::new(derive_seed(seed, 1 + p as u64));
        }
    }

    /// Starts the game with this seed: the game's and the players' generators seeded, each
    /// library shuffled in player order, then each player in turn order draws a hand; the
    /// first turn begins in its upkeep (nothing to untap, CR 103.8). Cards that may begin the
    /// game on the battlefield (Leyline of the Void) are then offered to their owners, the
    /// starting player first (CR 103.6a): a decision their policies answer, or that is left
    /// pending for a manual player.
    pub fn deal(&mut self, seed: u64, setup: &Setup) -> Result<()> {
        self.reseed(seed);
        let recording = self.log.recording;
        self.log.recording = false; // setup is not part of the game's history
        for p in 0..self.players.len() {
            self.shuffle_library(p as u8);
        }
        self.log.recording = recording;
        for p in 0..self.players.len() {
            self.draw_hand(p as u8, setup.hand_size);
        }
        self.step = Step::Upkeep;
        self.check_state_based_actions();
        // CR 103.6: actions taken with cards in opening hands, the starting player first.
        // Asked of the game's few card definitions first: usually none has such an action.
        let any = self.defs.iter().any(|d| d.rules.begin_on_battlefield) && self.players.iter().any(|st| st.hand.iter().any(|&s| self.def_of_slot(s).rules.begin_on_battlefield));
        if any {
            // Begins the first upkeep when the last opening-hand choice is made (which a manual
            // player may leave pending).
            self.perform(crate::process::Frame::OpeningHand(OpeningHandProc { player: 0, asked: false }))?;
        } else {
            self.begin_first_upkeep();
            self.settle()?;
        }
        Ok(())
    }

    /// The first upkeep begins (CR 103.8): what began the game on the battlefield triggers
    /// "at the beginning of your upkeep" (CR 603.2b), to go on the stack before the first priority.
    fn begin_first_upkeep(&mut self) {
        if self.outcome.is_none() {
            let (turn, active) = (self.turn, self.active);
            self.log.push_with(|| Event::StepBegan { turn, step: Step::Upkeep, active });
            self.fire(crate::trigger::TriggerEvent::StepBegan { step: Step::Upkeep });
        }
    }

    // ----- inspection --------------------------------------------------------------------

    /// The number of players the game began with, counting those who have lost or left.
    pub fn num_players(&self) -> usize {
        self.players.len()
    }

    /// The seed the generators were last seeded from ([`Game::new`], [`Game::reseed`] or a deal).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The active player: the player whose turn it is (CR 102.1).
    pub fn active_player(&self) -> usize {
        self.active as usize
    }

    /// The turn number: 1 for the game's first turn, counting every player's turns.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Sets whose turn it is, for building positions (APNAP order and "your turn" read it); the
    /// turn number and step stay as they are.
    pub fn set_active_player(&mut self, player: usize) -> Result<()> {
        self.ensure_idle()?;
        self.active = self.check_live_player(player)?; // a player who left takes no more turns (CR 800.4a)
        Ok(())
    }

    /// A player's state (also after they lost or left); an error if there is no such player.
    pub fn player(&self, player: usize) -> Result<&PlayerState> {
        self.check_player(player).map(|p| &self.players[p as usize])
    }

    /// A player's life total (CR 119); an error if there is no such player.
    pub fn life(&self, player: usize) -> Result<i32> {
        Ok(self.player(player)?.life)
    }

    /// The objects in a zone. Libraries, graveyards and the stack are listed top first; other
    /// zones in the order the objects arrived. `player` names whose zone for library, hand, graveyard and
    /// outside the game, and is ignored for the shared zones.
    pub fn zone(&self, player: usize, kind: ZoneKind) -> Result<Vec<ObjId>> {
        let p = self.check_player(player)?;
        let slots = self.zone_slots(Zone { kind, player: p });
        let ids = slots.iter().map(|&s| self.id_of(s));
        Ok(if matches!(kind, ZoneKind::Library | ZoneKind::Graveyard | ZoneKind::Stack) { ids.rev().collect() } else { ids.collect() })
    }

    /// How many objects are in a zone, without listing them; `player` as for [`Game::zone`].
    pub fn zone_len(&self, player: usize, kind: ZoneKind) -> Result<usize> {
        let p = self.check_player(player)?;
        Ok(self.zone_slots(Zone { kind, player: p }).len())
    }

    /// The object with this id, if it still exists as that object.
    pub fn object(&self, id: ObjId) -> Result<&Object> {
        self.slot_of(id).map(|s| &self.objects[s as usize])
    }

    /// The printed characteristics of the object.
    pub fn card(&self, id: ObjId) -> Result<&Arc<CardDef>> {
        let o = self.object(id)?;
        Ok(&self.defs[o.def as usize])
    }

    /// The counters on an object (CR 122).
    pub fn counters(&self, id: ObjId) -> Result<Option<&Counters>> {
        let slot = self.slot_of(id)?;
        Ok(self.object_counters.iter().find(|(s, _)| *s == slot).map(|(_, c)| c))
    }

    /// The names of the stickers on an object (CR 123).
    pub fn stickers_on(&self, id: ObjId) -> Vec<String> {
        self.stickers.iter().filter(|(s, _)| *s == id.slot()).map(|(_, n)| n.to_string()).collect()
    }

    /// The printed characteristics of the card behind an id, even if that object has since
    /// changed zones and become a new object — for reading logs, never for rules decisions.
    pub fn card_behind(&self, id: ObjId) -> Result<&Arc<CardDef>> {
        match self.objects.get(id.slot() as usize) {
            Some(o) if id.generation() <= o.generation => Ok(&self.defs[o.def as usize]),
            _ => Err(Error::NoSuchObject(id.0.into())),
        }
    }

    /// The decision the game is stopped at, if any: until it is answered ([`Game::answer`] or
    /// [`Game::take`]) every other action is refused.
    pub fn pending(&self) -> Option<&Decision> {
        self.pending.as_ref()
    }

    /// How the game ended; `None` while it goes on.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Whether the game has ended (CR 104); every action is then refused.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The events logged since the log was last cleared, oldest first (none while recording is off).
    pub fn events(&self) -> &[Event] {
        &self.log.events
    }

    /// Empties the event log; whether it records is unchanged.
    pub fn clear_events(&mut self) {
        self.log.events = Default::default();
    }

    /// Whether the event log records (see [`Game::set_recording`]).
    pub fn recording(&self) -> bool {
        self.log.recording
    }

    /// Turns the event log on or off (off for bulk simulation: events are then never built).
    pub fn set_recording(&mut self, on: bool) {
        self.log.recording = on;
    }

    // ----- answering arrangements ---------------------------------------------------------

    /// The built-in policy that answers `player`'s decisions once their script is used up.
    pub fn policy(&self, player: usize) -> Result<Policy> {
        Ok(self.seats[self.check_player(player)? as usize].policy)
    }

    /// Sets the policy that answers `player`'s decisions once their script is used up
    /// ([`Policy::Manual`]: nobody does, and the game pauses at them).
    pub fn set_policy(&mut self, player: usize, policy: Policy) -> Result<()> {
        let p = self.check_player(player)?;
        self.seats[p as usize].policy = policy;
        Ok(())
    }

    /// Queues answers for `player`'s next decisions; they are used before the policy.
    pub fn script(&mut self, player: usize, answers: Vec<Answer>) -> Result<()> {
        let p = self.check_player(player)?;
        self.seats[p as usize].script.extend(answers);
        Ok(())
    }

    /// Scripted answers not yet used.
    pub fn script_len(&self, player: usize) -> Result<usize> {
        Ok(self.seats[self.check_player(player)? as usize].script.len())
    }

    /// Drops `player`'s scripted answers not yet used; their policy answers from then on.
    pub fn clear_script(&mut self, player: usize) -> Result<()> {
        let p = self.check_player(player)?;
        self.seats[p as usize].script.clear();
        Ok(())
    }

    /// Whether `player`'s mana costs are paid automatically (else the sources are a decision).
    pub fn set_auto_pay(&mut self, player: usize, on: bool) -> Result<()> {
        let p = self.check_player(player)?;
        self.seats[p as usize].auto_pay = on;
        Ok(())
    }

    /// Whether `player`'s mana costs are paid automatically (the default), rather than by
    /// choosing the sources to tap as a decision.
    pub fn auto_pay(&self, player: usize) -> Result<bool> {
        Ok(self.seats[self.check_player(player)? as usize].auto_pay)
    }

    /// Whether strict mode is on (see [`Game::set_strict`]).
    pub fn strict(&self) -> bool {
        self.strict
    }

    /// In strict mode every decision must come from a script; anything else is an error.
    pub fn set_strict(&mut self, on: bool) {
        self.strict = on;
    }

    // ----- building positions -------------------------------------------------------------

    /// Puts new cards, by name, into a zone. `owner` owns them (and the per-player zone is
    /// theirs). Names are listed top first: with `Top` the first name ends on top, with
    /// `Bottom` the last name ends at the bottom.
    pub fn add_cards(&mut self, owner: usize, kind: ZoneKind, names: &[&str], pos: Position, db: &CardDb) -> Result<Vec<ObjId>> {
        self.ensure_idle()?;
        // A player who left owns nothing in the game any more (CR 800.4a).
        let owner = self.check_live_player(owner)?;
        if kind == ZoneKind::Stack {
            return Err(illegal("cards can't be put onto the stack directly; they get there by being cast"));
        }
        // A name the database doesn't know may still be a card this game already has (a game
        // loaded from a snapshot keeps its own definitions).
        let defs = names.iter().map(|n| db.get(n).cloned().or_else(|e| self.defs.iter().find(|d| *d.name == **n && !d.token).cloned().ok_or(e))).collect::<Result<Vec<_>>>()?;
        if let Some(t) = defs.iter().find(|d| d.token) {
            return Err(invalid(format!("{} is a token: tokens are created by effects (CR 111.2), not added as cards", t.name)));
        }
        // Setting up checks nothing; the next time a player receives priority does.
        self.unchecked_setup |= kind == ZoneKind::Battlefield;
        // The tokens these cards create, so effects find their definitions in the game.
        let mut tokens = Vec::new();
        for def in &defs {
            for name in crate::card::token_names(&def.rules) {
                let token = db.get(&name).map_err(|_| invalid(format!("{} creates a {name:?} token, and no token definition by that name is in the card database", def.name)))?;
                tokens.push(token.clone());
            }
        }
        for t in &tokens {
            self.def_index(t);
        }
        let zone = Zone { kind, player: owner };
        let mut ids = Vec::with_capacity(defs.len());
        let mut slots = Vec::with_capacity(defs.len());
        for def in &defs {
            let def = self.def_index(def);
            let slot = self.new_object(def, owner, zone, ObjectKind::default(), false);
            slots.push(slot);
            ids.push(ObjId::new(slot, 0));
        }
        if kind == ZoneKind::Battlefield {
            self.legendary_entered |= defs.iter().any(|d| d.supertypes.contains(crate::card::Supertype::Legendary));
        }
        let pile = matches!(kind, ZoneKind::Library | ZoneKind::Graveyard);
        self.edit_zone(zone, |v| match (pile, pos) {
            // Piles are stored bottom first: the first-listed name ends nearest the top.
            (true, Position::Top) => v.extend(slots.iter().rev()),
            (true, Position::Bottom) => {
                v.splice(0..0, slots.iter().rev().copied());
            }
            // Other zones list in arrival order: the names arrive in the order given.
            (false, Position::Top) => v.extend_from_slice(&slots),
            (false, Position::Bottom) => {
                v.splice(0..0, slots.iter().copied());
            }
        });
        Ok(ids)
    }

    /// Sets a player's life total, for building positions: not a gain or loss of life, so
    /// nothing triggers. State-based actions are checked after, so 0 or less loses (CR 704.5a).
    pub fn set_life(&mut self, player: usize, life: i64) -> Result<()> {
        self.ensure_idle()?;
        let p = self.check_live_player(player)?;
        if life.abs() > MAX_COUNT {
            return Err(invalid(format!("life {life} is out of range (±{MAX_COUNT})")));
        }
        let from = self.players[p as usize].life;
        self.players[p as usize].life = life as i32;
        self.sba_quiet = false;
        self.log.push_with(|| Event::LifeChanged { player: p, from, to: life as i32 });
        self.check_state_based_actions();
        Ok(())
    }

    /// Adds (positive) or removes (negative) counters on a player; removing more than there
    /// are is an error and removes nothing.
    pub fn change_player_counters(&mut self, player: usize, kind: &str, delta: i64) -> Result<()> {
        self.ensure_idle()?;
        let p = self.check_live_player(player)?;
        validate_kind(kind)?;
        check_count(delta.abs(), "counter change")?;
        self.sba_quiet = false;
        let counters = &mut self.players[p as usize].counters;
        if delta >= 0 {
            counters.add(kind, delta as u32);
        } else {
            counters.remove(kind, (-delta) as u32)?;
        }
        self.log.push_with(|| Event::PlayerCountersChanged { player: p, counter: kind.to_string(), delta });
        self.check_state_based_actions();
        Ok(())
    }

    /// Adds or removes counters on an object (CR 122).
    pub fn change_object_counters(&mut self, id: ObjId, kind: &str, delta: i64) -> Result<()> {
        self.ensure_idle()?;
        let slot = self.slot_of(id)?;
        validate_kind(kind)?;
        check_count(delta.abs(), "counter change")?;
        if delta >= 0 {
            self.put_counters(slot, kind, delta as u32)?;
        } else {
            self.remove_counters_from(slot, kind, (-delta) as u32)?;
        }
        self.check_state_based_actions();
        Ok(())
    }

    /// The counters on the object in `slot`, if it has any.
    pub(crate) fn counters_on(&self, slot: u32) -> Option<&Counters> {
        self.object_counters.iter().find(|(s, _)| *s == slot).map(|(_, c)| c)
    }

    /// Puts counters on an object (CR 122.6).
    pub(crate) fn put_counters(&mut self, slot: u32, kind: &str, n: u32) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        let found = self.object_counters.iter_mut().find(|(s, _)| *s == slot);
        // More loyalty, or +1/+1 counters where no -1/-1 counter is to annihilate them (CR
        // 704.5q), only add to what the checks look at: none of them applies for it.
        let harmless = kind == "loyalty" || (kind == "+1/+1" && found.as_ref().is_none_or(|(_, c)| !c.has(crate::counters::Known::MinusOne)));
        self.sba_quiet &= harmless;
        match found {
            Some((_, c)) => c.add(kind, n),
            None => {
                let mut c = Counters::default();
                c.add(kind, n);
                self.object_counters.push((slot, c));
            }
        }
        let card = self.id_of(slot);
        self.log.push_with(|| Event::ObjectCountersChanged { card, counter: kind.to_string(), delta: n as i64 });
        Ok(())
    }

    /// Removes exactly `n` counters, or none if there are fewer.
    pub(crate) fn remove_counters_from(&mut self, slot: u32, kind: &str, n: u32) -> Result<()> {
        let i = self.object_counters.iter().position(|(s, _)| *s == slot);
        let have = i.map_or(0, |i| self.object_counters[i].1.get(kind));
        if have < n {
            return Err(Error::CannotPay(format!("only {have} {kind} counter(s), not {n}")));
        }
        if let Some(i) = i {
            self.sba_quiet = false;
            self.object_counters[i].1.remove(kind, n)?;
            if self.object_counters[i].1.is_empty() {
                self.object_counters.swap_remove(i);
            }
        }
        let card = self.id_of(slot);
        self.log.push_with(|| Event::ObjectCountersChanged { card, counter: kind.to_string(), delta: -(n as i64) });
        Ok(())
    }

    /// Adds counters to a player without the caller-facing checks (effects and costs).
    pub(crate) fn give_player_counters(&mut self, p: u8, kind: &str, n: u32) {
        self.players[p as usize].counters.add(kind, n);
        self.sba_quiet = false;
        self.log.push_with(|| Event::PlayerCountersChanged { player: p, counter: kind.to_string(), delta: n as i64 });
    }

    /// Gains or loses life (CR 119).
    pub(crate) fn change_life(&mut self, p: u8, delta: i64) {
        let from = self.players[p as usize].life;
        // Amounts are u32 and life an i32: added in 64 bits, so no amount flips its sign.
        let to = (i64::from(from) + delta).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        self.players[p as usize].life = to;
        self.sba_quiet &= to > 0; // only 0 or less life makes a player lose (CR 704.5a)
        self.log.push_with(|| Event::LifeChanged { player: p, from, to });
    }

    /// Taps or untaps a permanent.
    pub fn set_tapped(&mut self, id: ObjId, tapped: bool) -> Result<()> {
        self.ensure_idle()?;
        let slot = self.expect_in(id, ZoneKind::Battlefield)?;
        self.tap_slot(slot, tapped);
        Ok(())
    }

    /// The player concedes (CR 104.3a).
    /// A player may concede at any time (CR 104.3a), even while a decision is pending.
    /// Another player's decision stays pending, and the action goes on without the player who
    /// left (CR 800.4a). So does another player's spell or ability that was waiting on the
    /// leaver to discard, search, scry, order or target their triggers, or order the
    /// replacements of their mill: that choice is skipped. A spell or ability another player
    /// is casting or activating whose choice has nothing legal left (its only possible targets
    /// left with the leaver) is reversed, as if never proposed (CR 601.2, 733).
    /// Otherwise, if the decision was the leaver's, the action in progress stops where it is
    /// (what it already did stays done).
    pub fn concede(&mut self, player: usize) -> Result<()> {
        if self.outcome.is_some() {
            return Err(Error::GameOver);
        }
        let p = self.check_live_player(player)?;
        self.lose(p, LossReason::Conceded);
        if self.frames.is_empty() && self.pending.is_none() {
            self.check_state_based_actions();
        } else {
            // Mid-action, the player leaves (or the game ends) at once, but state-based actions
            // wait until a player would receive priority (CR 704.3): a permanent the action is
            // still shaping (a creature whose "as this enters" mill is being ordered) isn't
            // judged half-made.
            self.losers_leave();
        }
        // Whether the action in progress (a cast, an activation, a resolution) is the leaver's.
        let theirs = self.frames.iter().any(|f| match f {
            Frame::Resolve(r) => r.resolving().is_some_and(|s| self.objects[s as usize].controller == p),
            Frame::Effect(e) => e.controller() == p,
            Frame::Cast(c) => c.caster() == p,
            Frame::Activate(a) => a.player() == p,
            _ => false,
        });
        let their_decision = self.pending.as_ref().is_some_and(|d| d.player == p);
        // Their choice within another player's spell or ability (a discard, a search, a scry,
        // ordering or targeting their triggers, ordering their mill's replacements) is skipped, and that goes on without them (CR 800.4a):
        // those steps pass over a player who left.
        let mill_order = self.pending.as_ref().is_some_and(|d| d.purpose == crate::decision::Purpose::OrderReplacements);
        let skippable = match self.frames.last() {
            Some(Frame::Discard(_) | Frame::Search(_) | Frame::Triggers(_) | Frame::Scry(_)) => true,
            // Ordering the replacements of their own mill (CR 616.1): they left with their library.
            Some(Frame::Mill(_) | Frame::Effect(_)) => mill_order,
            _ => false,
        } && !self.needs_snapshot();
        // Another player's decision that what the leaver owned may have been part of (CR 800.4a)
        // is asked afresh, or not at all if nothing is left to choose: a mill order (the
        // replacements of their permanents are gone, CR 616.1), triggered abilities' order or
        // targets (theirs left the stack), a discard they were to make, the legend rule (their
        // legendary permanent left), a search of their library.
        let reask = !their_decision
            && self.pending.is_some()
            && !self.needs_snapshot()
            && match self.frames.last() {
                Some(Frame::Mill(_) | Frame::Effect(_)) => mill_order,
                Some(Frame::Triggers(_) | Frame::Discard(_) | Frame::LegendRule(_)) => true,
                // A search of the leaver's library ends (asking afresh would leave nothing to find).
                Some(Frame::Search(s)) => s.lost_a_player(self),
                _ => false,
            };
        if self.outcome.is_none() && ((their_decision && !theirs && skippable) || reask) {
            match self.frames.last_mut() {
                Some(Frame::Triggers(t)) => t.withdraw_question(), // their abilities left the stack
                Some(Frame::Scry(s)) => s.withdraw_question(),
                Some(Frame::Discard(d)) => d.withdraw_question(),
                Some(Frame::LegendRule(l)) => l.withdraw_question(),
                Some(Frame::Mill(m)) if reask => m.reask(),
                Some(Frame::Mill(m)) => m.withdraw_question(),
                Some(Frame::Effect(e)) if reask => e.reask_mill_order(),
                Some(Frame::Effect(e)) => e.withdraw_mill_order(),
                _ => {}
            }
            self.pending = None;
            self.partial.clear();
            self.answer = None;
            let progress = self.run();
            self.output.clear();
            return progress.map(|_| ());
        }
        if self.outcome.is_none() && !their_decision {
            // Any other decision of another player's goes on without the objects and players
            // that left (a target, a creature to sacrifice, a card to find): they aren't offered.
            if let Some(mut d) = self.pending.take() {
                d.drop_departed(|id| self.slot_of(id).is_ok(), |q| self.players[q as usize].lost.is_none());
                let stuck = d.unanswerable();
                self.pending = Some(d);
                // A spell being cast or an ability being activated whose choice has nothing
                // legal left (its only targets left the game) can't be completed: the game
                // goes back to before it was proposed (CR 601.2, 733). Nothing of it has
                // happened yet (the card moves and the costs are paid at the end).
                if stuck {
                    let _ = self.cancel();
                }
            }
        }
        if self.outcome.is_some() || their_decision {
            // The game is over, or the work in progress waited on the leaver for something that
            // can't be skipped: it stops where it is (what it already did stays done).
            self.frames.clear();
            self.pending = None;
            self.partial.clear();
            self.answer = None;
            self.output.clear();
            // The game goes on (CR 800.4a): if it stopped mid-resolution, the active player
            // (or the next one still in the game, 800.4j) receives priority, as after any
            // resolution (CR 117.3b).
            if self.outcome.is_none() && self.priority.is_none() {
                self.check_state_based_actions(); // CR 704.3: a player is about to receive priority
                if self.outcome.is_none() {
                    self.give_priority(self.active);
                }
            }
        }
        Ok(())
    }

    // ----- decisions ----------------------------------------------------------------------

    /// Checks a "pay_mana" answer against the cost of the spell or ability being paid for
    /// (`None` if nothing is being paid for).
    pub(crate) fn check_payment(&self, cards: &[ObjId]) -> Option<Result<()>> {
        match self.frames.last()? {
            Frame::Cast(c) => Some(c.check_payment(self, cards)),
            Frame::Activate(a) => Some(a.check_payment(self, cards)),
            Frame::Effect(e) => e.check_payment(self, cards),
            _ => None,
        }
    }

    /// Answers the pending decision and carries on. A wrong answer is an error and changes
    /// nothing; the decision stays pending. So does an answer the action then fails with
    /// (modes whose costs can't be paid): the player answers again, or cancels the cast or
    /// activation. (Outside strict mode, one chosen as a priority action is undone instead,
    /// and its player chooses again without it: see `Frame::Priority`'s retry.)
    pub fn answer(&mut self, answer: Answer) -> Result<Progress> {
        let decision = self.pending.as_ref().ok_or(Error::NoDecisionPending)?;
        let answer = decision.coerce(answer);
        decision.validate(&answer)?;
        if let (crate::decision::Purpose::PayMana, Answer::Cards { cards }) = (decision.purpose, &answer) {
            self.check_payment(cards).unwrap_or(Ok(()))?;
        }
        let player = decision.player;
        // An answer that lets the action go on to fail (modes whose costs can't be paid) is
        // refused: the action is back where it was, waiting for this decision (CR 733). Without
        // a snapshot only the work in progress changed before the failure, so keep that.
        // Only priority, casting and activation frames fail, so only their work is kept.
        let may_fail = self.frames.iter().any(|f| matches!(f, Frame::Priority(_) | Frame::Cast(_) | Frame::Activate(_)));
        let waiting = (may_fail && !self.needs_snapshot()).then(|| (self.frames.clone(), self.pending.clone(), self.partial.clone()));
        self.undoable(|g| {
            g.record_answer(player, &answer);
            g.pending = None;
            g.partial.clear();
            g.answer = Some(answer);
            g.run()
        })
        .inspect_err(|_| {
            if let Some((frames, pending, partial)) = waiting {
                (self.frames, self.pending, self.partial) = (frames, pending, partial);
            }
        })
    }

    /// Starts an action made of frames and runs it as far as it goes.
    pub(crate) fn perform(&mut self, frame: Frame) -> Result<Progress> {
        // Pushed before `undoable` so that the frame is moved once; a failed action takes it
        // back off (a snapshot holds it too).
        let depth = self.frames.len();
        self.frames.push(frame);
        self.perform_from(|_| {}).inspect_err(|_| self.frames.truncate(depth))
    }

    /// Runs an action as [`Game::perform`] runs its frame, its first part (`start`, which
    /// can't fail) done outside frames: what it puts out is the action's output.
    pub(crate) fn perform_from(&mut self, start: impl FnOnce(&mut Game)) -> Result<Progress> {
        self.undoable(|g| {
            g.output.clear();
            start(g);
            g.run()
        })
    }

    /// Runs an action, undoing all of it if it fails (CR 733). Errors part-way come only from
    /// scripts and strict mode, and both keep a snapshot (boxed, so that carrying none costs
    /// nothing on every action).
    pub(crate) fn undoable<T>(&mut self, action: impl FnOnce(&mut Game) -> Result<T>) -> Result<T> {
        if self.unattended {
            // A simulation's game: an error ends the run and the game with it, so there is
            // nothing to keep for undoing (and no script or strict mode to fail part-way).
            debug_assert!(!self.needs_snapshot() && !self.log.recording, "unattended games have no scripts, aren't strict and don't record");
            return action(self);
        }
        let snapshot = self.needs_snapshot().then(|| Box::new(self.clone()));
        let mark = self.history.len();
        // Random players' generators, which answering the action's decisions may draw from
        // (an empty list, which allocates nothing, in games without a random player).
        let random = |s: &Seat| s.policy == Policy::Random;
        let generators: Vec<(usize, Rng)> = match snapshot {
            // Looked for before collecting: an empty collect still costs a pass of the iterator machinery.
            None if self.seats.iter().any(random) => self.seats.iter().enumerate().filter(|(_, s)| random(s)).map(|(p, s)| (p, s.rng.clone())).collect(),
            _ => Vec::new(),
        };
        action(self).inspect_err(|_| self.restore(snapshot, mark, generators))
    }

    /// Keeps an answer for replays while the log records; else marks the game as one that
    /// can't be replayed.
    pub(crate) fn record_answer(&mut self, player: u8, answer: &Answer) {
        if self.log.recording {
            Arc::make_mut(&mut self.history).push((player, answer.clone()));
        } else {
            self.unrecorded = true;
        }
    }

    pub(crate) fn needs_snapshot(&self) -> bool {
        self.strict || self.seats.iter().any(|s| !s.script.is_empty())
    }

    /// Undoes a failed action. Frames fail only before they change anything (a cast that
    /// can't be paid fails before the card moves), so without a snapshot dropping the work
    /// in progress, and putting back what random players drew for its decisions, is enough.
    fn restore(&mut self, snapshot: Option<Box<Game>>, history_len: usize, generators: Vec<(usize, Rng)>) {
        match snapshot {
            Some(s) => *self = *s,
            None => {
                if self.history.len() > history_len {
                    Arc::make_mut(&mut self.history).truncate(history_len); // the answers given for it are undone too
                }
                for (p, rng) in generators {
                    self.seats[p].rng = rng;
                }
                self.frames.clear();
                self.pending = None;
                self.answer = None;
                self.output.clear();
            }
        }
    }

    /// Whether `p`'s next "choose cards" decision would be answered by taking the first
    /// options in order (no script, not strict, a first-option policy), so an action may pick
    /// them itself without building the decision — the same answer, without the allocation.
    pub(crate) fn takes_first_options(&self, p: u8) -> bool {
        let seat = &self.seats[p as usize];
        // While the log records, every answer is recorded for replays, so decisions are made.
        !self.strict && !self.log.recording && seat.script.is_empty() && matches!(seat.policy, Policy::First | Policy::Goldfish)
    }

    /// The answer for a decision from the script, then (outside strict mode) the policy.
    pub(crate) fn auto_answer(&mut self, d: &Decision) -> Result<Option<Answer>> {
        let seat = &mut self.seats[d.player as usize];
        if let Some(a) = seat.script.pop_front() {
            let a = d.coerce(a);
            d.validate(&a)?;
            return Ok(Some(a));
        }
        if self.strict {
            return Err(Error::Unscripted(d.to_string()));
        }
        if seat.policy == Policy::Goldfish {
            if let Some(a) = self.goldfish_answer(d) {
                return Ok(Some(a));
            }
        }
        let seat = &mut self.seats[d.player as usize];
        Ok(seat.policy.answer(d, &mut seat.rng))
    }

    /// Whether `p`'s decisions are answered by `policy` itself now: no script waiting, not
    /// strict. Actions may then work out that policy's answer without building the decision.
    pub(crate) fn answers_itself(&self, p: u8, policy: Policy) -> bool {
        let seat = &self.seats[p as usize];
        // While the log records, every answer is recorded for replays, so decisions are made.
        // (Unattended play has no scripts, no strict mode and no recording.)
        seat.policy == policy && (self.unattended || (!self.strict && !self.log.recording && seat.script.is_empty()))
    }

    // ----- state-based actions (CR 704) ---------------------------------------------------

    /// Performs the state-based actions (CR 704.5: losing, permanents put into graveyards,
    /// counters annihilating), all at once and again until none applies (CR 704.3), and ends
    /// the game when at most one player remains (CR 104.2a, 104.4a). Returns whether any was
    /// performed. (The legend rule, which asks a decision, is applied apart.)
    // Inlined: it runs before every priority and usually stops at its first test, which a
    // call would cost more than; the check itself is apart.
    #[inline]
    pub fn check_state_based_actions(&mut self) -> bool {
        self.unchecked_setup = false;
        #[cfg(test)]
        assert!(!self.sba_quiet || self.outcome.is_some() || !self.clone().perform_state_based_actions(), "a change left state-based actions marked quiet");
        if self.sba_quiet || self.outcome.is_some() {
            return false;
        }
        self.check_since_changed()
    }

    /// [`Game::check_state_based_actions`] after something changed since the last check found
    /// nothing.
    #[inline(never)]
    fn check_since_changed(&mut self) -> bool {
        // Having found nothing, a check finds nothing again until something changes.
        let performed = !self.nothing_to_check() && self.perform_state_based_actions();
        self.sba_quiet = !performed;
        performed
    }

    /// [`Game::check_state_based_actions`] once something may apply: apart, so that the
    /// check that usually finds nothing stays a small function.
    #[inline(never)]
    pub(crate) fn perform_state_based_actions(&mut self) -> bool {
        // CR 704.3: repeat until none apply.
        let mut performed = false;
        // Only creatures, planeswalkers and counters are looked at (CR 704.5f-i, 704.5q).
        while (!self.indexed.creatures.is_empty() || !self.object_counters.is_empty()) && self.permanent_sbas() {
            performed = true;
        }
        for p in 0..self.players.len() {
            let st = &mut self.players[p];
            if st.lost.is_some() {
                continue;
            }
            let reason = st.loss_reason();
            st.drew_from_empty = false;
            if let Some(r) = reason {
                self.lose(p as u8, r);
                performed = true;
            }
        }
        if self.live_players() >= 2 {
            if !self.losers_leave() {
                return performed;
            }
            // CR 704.3: what left with them may make another state-based action apply.
            let again = self.check_state_based_actions();
            return performed || again;
        }
        self.losers_leave();
        true
    }

    /// Whether no state-based action could apply now, found without the bookkeeping of
    /// performing them: nobody at 0 life, drawing from an empty library or at 10 poison; no
    /// loser still to leave; and no permanent that could die or annihilate counters — the
    /// check that runs before every priority, when nothing usually applies.
    fn nothing_to_check(&self) -> bool {
        // Usually each player has life, drew nothing from an empty library and has no counters,
        // nobody has lost, and no permanent has counters or is fragile: a few loads tell.
        self.players.iter().all(|st| (st.life > 0 && !st.drew_from_empty && st.counters.is_empty()) || st.lost.is_some() || st.loss_reason().is_none())
            && ((self.losers.is_empty() && self.players.len() >= 2) || (self.live_players() >= 2 && self.losers_have_left()))
            && (self.battlefield.is_empty() || (self.nothing_shrinks() && self.no_counters_or_fragile_permanents()) || self.no_permanent_dies_or_annihilates())
    }

    /// Whether no permanent has counters and none is fragile: then, with nothing shrinking,
    /// no permanent-related state-based action can apply, without the walks below.
    fn no_counters_or_fragile_permanents(&self) -> bool {
        self.object_counters.is_empty() && self.indexed.fragile.is_empty()
    }

    /// Whether the permanent-related state-based actions (CR 704.5f, g, i, q) would find
    /// nothing to do, decided as they decide it but without their bookkeeping: nothing
    /// shrinks, no counters but +1/+1 on a sturdy creature, no -1/-1 counter anywhere (so none
    /// annihilate), and each fragile creature or planeswalker is one they would pass over — a
    /// creature with only gains and a positive base toughness, a planeswalker with loyalty.
    /// Apart, so that the usual check without counters or fragile permanents stays small.
    #[inline(never)]
    fn no_permanent_dies_or_annihilates(&self) -> bool {
        use crate::card::CardType;
        use crate::counters::Known;
        // The counters are walked once, each fragile permanent's with the rest: a look-up per
        // fragile permanent would walk them again for each.
        self.nothing_shrinks()
            && self.object_counters.iter().all(|(s, c)| {
                let flags = self.objects[*s as usize].flags;
                if flags & Object::STURDY != 0 {
                    return c.only(Known::PlusOne);
                }
                if c.has(Known::MinusOne) {
                    return false;
                }
                if flags & Object::CREATURE_OR_PLANESWALKER == 0 {
                    return true;
                }
                let def = self.def_of_slot(*s);
                (!def.is(CardType::Creature) || c.only(Known::PlusOne)) && (!def.is(CardType::Planeswalker) || c.get("loyalty") != 0)
            })
            && self.indexed.fragile.iter().all(|&s| {
                let def = self.def_of_slot(s);
                (!def.is(CardType::Creature) || (self.objects[s as usize].damage == 0 && self.base_toughness_positive(s)))
                    && (!def.is(CardType::Planeswalker) || self.counters_on(s).is_some())
            })
    }

    /// The players who have lost leave: in a multiplayer game that goes on, with everything
    /// they own (CR 800.4a); with fewer than two players still in it, the game is over
    /// (CR 104.2a). True if anyone left or the game ended.
    fn losers_leave(&mut self) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        if self.live_players() >= 2 {
            // Usually nobody has lost since the last check: nothing to allocate or look at.
            if self.losers_have_left() {
                return false;
            }
            let left: Vec<u8> = self.losers.iter().map(|&(p, _)| p).filter(|&p| !self.players[p as usize].left).collect();
            self.pass_priority_on_leaving();
            for p in left {
                self.leave_game(p);
            }
            return true;
        }
        let winners: Vec<u8> = (0..self.players.len() as u8).filter(|&p| self.players[p as usize].lost.is_none()).collect();
        let losers = self.losers.clone();
        self.log.push_with(|| Event::GameOver { winners: winners.clone() });
        self.outcome = Some(Outcome { winners, losers });
        true
    }

    /// Every player who has lost has left the game: nobody is still to leave.
    fn losers_have_left(&self) -> bool {
        self.losers.iter().all(|&(p, _)| self.players[p as usize].left)
    }

    /// CR 800.4a: players leaving while others go on. If one of them had priority, it passes
    /// to the next player in turn order who's still in the game; a pass made by one of them no
    /// longer counts toward everyone having passed in succession (CR 117.4), as only the
    /// players still in the game must pass. Called before the leavers are marked as gone.
    fn pass_priority_on_leaving(&mut self) {
        let Some(holder) = self.priority else { return };
        let n = self.players.len();
        let gone = |g: &Game, q: usize| g.players[q].lost.is_some();
        // The players who passed since the last action are the `passes` players before the
        // holder in turn order among those in the game until now (the ones leaving included).
        let mut still_passed: u8 = 0;
        let mut q = holder as usize;
        let mut counted = 0;
        while counted < self.passes as usize {
            q = (q + n - 1) % n;
            if q == holder as usize {
                break;
            }
            if self.players[q].left {
                continue; // left earlier: never part of this run of passes
            }
            counted += 1;
            if !gone(self, q) {
                still_passed += 1;
            }
        }
        self.passes = still_passed;
        if gone(self, holder as usize) {
            self.priority = Some(self.next_live_player(holder));
        }
    }

    /// CR 800.4a: every object the player owns leaves the game (it goes outside the game, so
    /// no card is lost to the count), and objects they control but don't own are exiled.
    fn leave_game(&mut self, p: u8) {
        self.players[p as usize].left = true;
        for slot in 0..self.objects.len() as u32 {
            let o = self.objects[slot as usize];
            if o.kind == ObjectKind::Ceased {
                continue;
            }
            if (o.owner == p || o.controller == p) && o.zone.kind == ZoneKind::Stack {
                self.take_stack_item(slot);
            }
            if o.owner == p && o.kind != ObjectKind::Card {
                self.cease(slot); // copies, abilities and tokens just stop existing
            } else if o.owner == p && o.zone.kind != ZoneKind::Outside {
                self.move_slot(slot, ZoneKind::Outside, Position::Top);
            } else if o.owner != p && o.controller == p && o.zone.kind == ZoneKind::Battlefield {
                self.move_slot(slot, ZoneKind::Exile, Position::Top);
            }
        }
    }

    fn lose(&mut self, p: u8, reason: LossReason) {
        self.players[p as usize].lost = Some(reason);
        self.losers.push((p, reason));
        self.sba_quiet = false;
        self.log.push_with(|| Event::PlayerLost { player: p, reason });
    }

    // ----- internal helpers ---------------------------------------------------------------

    pub(crate) fn check_player(&self, player: usize) -> Result<u8> {
        if player < self.players.len() {
            Ok(player as u8)
        } else {
            Err(Error::NoSuchPlayer { player: player as i64, max: self.players.len() - 1 })
        }
    }

    /// A player who is still in the game.
    pub(crate) fn check_live_player(&self, player: usize) -> Result<u8> {
        let p = self.check_player(player)?;
        if self.players[p as usize].lost.is_some() {
            return Err(Error::PlayerLeft(player));
        }
        Ok(p)
    }

    /// Actions need a game that is neither over nor waiting for an answer.
    pub(crate) fn ensure_idle(&self) -> Result<()> {
        if self.outcome.is_some() {
            return Err(Error::GameOver);
        }
        if let Some(d) = &self.pending {
            return Err(Error::DecisionPending(d.to_string()));
        }
        Ok(())
    }

    #[inline]
    pub(crate) fn id_of(&self, slot: u32) -> ObjId {
        ObjId::new(slot, self.objects[slot as usize].generation)
    }

    pub(crate) fn slot_of(&self, id: ObjId) -> Result<u32> {
        self.live_slot(id).ok_or_else(|| Error::NoSuchObject(id.0.into()))
    }

    /// The slot of `id` while that object exists: [`Game::slot_of`] for a test, with no error
    /// to build and drop.
    #[inline]
    pub(crate) fn live_slot(&self, id: ObjId) -> Option<u32> {
        match self.objects.get(id.slot() as usize) {
            Some(o) if o.generation == id.generation() && o.kind != ObjectKind::Ceased => Some(id.slot()),
            _ => None,
        }
    }

    /// The slot of `id`, which must be in a zone of this kind.
    pub(crate) fn expect_in(&self, id: ObjId, kind: ZoneKind) -> Result<u32> {
        let slot = self.slot_of(id)?;
        let o = &self.objects[slot as usize];
        if o.zone.kind != kind {
            return Err(Error::WrongZone { id: id.0, name: self.defs[o.def as usize].name.to_string(), actual: o.zone.to_string(), expected: kind.name().to_string() });
        }
        Ok(slot)
    }

    pub(crate) fn def_of_slot(&self, slot: u32) -> &CardDef {
        &self.defs[self.objects[slot as usize].def as usize]
    }

    /// The table index of a definition, adding it to this game's table if new.
    /// The index of the game's definition with this name (tokens are added with the cards
    /// that create them).
    pub(crate) fn def_index_by_name(&self, name: &str) -> Option<u32> {
        self.defs.iter().position(|d| *d.name == *name).map(|i| i as u32)
    }

    /// The player wins the game (CR 104.2b): everyone else loses, and the game is over.
    pub(crate) fn win(&mut self, p: u8) {
        if self.outcome.is_some() {
            return;
        }
        self.log.push_with(|| Event::PlayerWon { player: p });
        for q in 0..self.players.len() as u8 {
            if q != p && self.players[q as usize].lost.is_none() {
                self.lose(q, LossReason::OpponentWon);
            }
        }
        // CR 104.1: the game ends at once; nothing the winner did earlier (a draw from an empty
        // library, 0 life) is looked at by state-based actions any more.
        let losers = self.losers.clone();
        self.log.push_with(|| Event::GameOver { winners: vec![p] });
        self.outcome = Some(Outcome { winners: vec![p], losers });
    }

    fn def_index(&mut self, def: &Arc<CardDef>) -> u32 {
        if let Some(i) = self.defs.iter().position(|d| Arc::ptr_eq(d, def) || **d == **def) {
            return i as u32;
        }
        Arc::make_mut(&mut self.defs).push(def.clone());
        self.def_flags |= Object::flags_of(def);
        (self.defs.len() - 1) as u32
    }

    pub(crate) fn zone_slots(&self, z: Zone) -> &Vec<u32> {
        match z.kind {
            ZoneKind::Library => &self.players[z.player as usize].library,
            ZoneKind::Hand => &self.players[z.player as usize].hand,
            ZoneKind::Graveyard => &self.players[z.player as usize].graveyard,
            ZoneKind::Outside => &self.players[z.player as usize].outside,
            ZoneKind::Battlefield => &self.battlefield,
            ZoneKind::Stack => &self.stack,
            ZoneKind::Exile => &self.exile,
            ZoneKind::Command => &self.command,
        }
    }

    /// Changes the cards in a zone that may be the battlefield. The battlefield changes only
    /// through here, [`Game::push_to_zone`], [`Game::put_in_zone`] and
    /// [`Game::take_from_zone`], so its index follows every change.
    pub(crate) fn edit_zone<R>(&mut self, z: Zone, edit: impl FnOnce(&mut Vec<u32>) -> R) -> R {
        let r = edit(self.zone_slots_mut(z));
        match z.kind {
            ZoneKind::Battlefield => {
                self.reindex_battlefield();
                self.sba_quiet = false;
            }
            ZoneKind::Graveyard => self.sba_quiet &= !self.toughness_counts_graveyards(),
            ZoneKind::Hand => {
                self.recount_hand(z.player);
            }
            _ => {}
        }
        r
    }

    /// Puts an object after the others in a zone. On the battlefield the index grows by it
    /// rather than being rebuilt: creating many tokens one by one stays linear.
    #[inline(always)] // on every draw: a call costs more than its body
    pub(crate) fn push_to_zone(&mut self, z: Zone, slot: u32) {
        // The counts first: the push may grow a vector, after which the object is looked up
        // anew.
        // Each zone pushed to directly: where the zone is known (a draw, a cast, a permanent
        // entering) only its own push is left, with no call to find its vector.
        match z.kind {
            ZoneKind::Battlefield => {
                let o = &self.objects[slot as usize];
                self.sba_quiet &= !Object::sba_watched_entering(o.flags);
                self.indexed.push(slot, o, &self.defs);
                self.battlefield.push(slot);
            }
            ZoneKind::Hand => {
                self.count_in_hand(z.player, slot, true);
                self.players[z.player as usize].hand.push(slot);
            }
            ZoneKind::Graveyard => {
                self.sba_quiet &= !self.toughness_counts_graveyards();
                self.players[z.player as usize].graveyard.push(slot);
            }
            ZoneKind::Stack => self.stack.push(slot),
            _ => self.zone_slots_mut(z).push(slot),
        }
    }

    /// Puts an object first or last in a zone; on the battlefield the index follows it
    /// without a rebuild.
    #[inline(always)] // one caller, itself inlined on every move
    fn put_in_zone(&mut self, z: Zone, slot: u32, pos: Position) {
        match pos {
            Position::Top => self.push_to_zone(z, slot),
            Position::Bottom => {
                self.zone_slots_mut(z).insert(0, slot);
                match z.kind {
                    ZoneKind::Battlefield => {
                        let o = &self.objects[slot as usize];
                        self.sba_quiet &= !Object::sba_watched_entering(o.flags);
                        self.indexed.push_front(slot, o, &self.defs);
                    }
                    ZoneKind::Hand => self.count_in_hand(z.player, slot, true),
                    ZoneKind::Graveyard => self.sba_quiet &= !self.toughness_counts_graveyards(),
                    _ => {}
                }
            }
        }
    }

    /// Takes an object out of the zone it is in, and says which zone that was; on the
    /// battlefield the index follows it without a rebuild.
    #[inline(always)] // on every move: a call costs the typecycle path more than its body
    pub(crate) fn take_from_zone(&mut self, slot: u32) -> Zone {
        let z = self.objects[slot as usize].zone;
        // A hand and the stack are found inline: most moves not from a library (whose draws
        // and mills take their own path) are casts and lands played from a hand, and spells
        // leaving the stack, where a call to find the zone cost more than the rest.
        // Most moves take the top card, which is the last element; but from a hand the
        // policies play and cast the first card that will do, so a hand is looked over from
        // the front. One already taken (a token ceasing as it leaves, say) changes nothing
        // more.
        let found = match z.kind {
            ZoneKind::Hand => {
                let v = &mut self.players[z.player as usize].hand;
                v.iter().position(|&s| s == slot).map(|i| (v, i))
            }
            ZoneKind::Stack => self.stack.iter().rposition(|&s| s == slot).map(|i| (&mut self.stack, i)),
            _ => {
                let v = self.zone_slots_mut(z);
                v.iter().rposition(|&s| s == slot).map(|i| (v, i))
            }
        };
        let Some((v, i)) = found else { return z };
        // The top one popped: `remove` would shift nothing, through a call that copies nothing.
        if i + 1 == v.len() {
            v.pop();
        } else {
            v.remove(i);
        }
        match z.kind {
            ZoneKind::Battlefield => {
                self.sba_quiet &= !Object::sba_watched_leaving(self.objects[slot as usize].flags);
                self.indexed.remove(slot, &self.objects, &self.defs);
            }
            ZoneKind::Hand => self.count_in_hand(z.player, slot, false),
            ZoneKind::Graveyard => self.sba_quiet &= !self.toughness_counts_graveyards(),
            _ => {}
        }
        z
    }

    /// Gives `p` control of the object in `slot` (CR 108.4). Past its making (and
    /// [`Object::become_new`], which runs out of every zone) an object's controller changes
    /// only here, so the mana sources indexed by controller follow it.
    // Inlined: every spell cast and permanent entering sets its controller, usually its
    // owner, already its controller; the change itself is apart.
    #[inline]
    pub(crate) fn set_controller(&mut self, slot: u32, p: u8) {
        if self.objects[slot as usize].controller != p {
            self.change_controller(slot, p);
        }
    }

    /// [`Game::set_controller`] to a player other than the controller.
    #[inline(never)]
    fn change_controller(&mut self, slot: u32, p: u8) {
        let o = &mut self.objects[slot as usize];
        let was = o.controller;
        o.controller = p;
        self.sba_quiet = false;
        if o.zone.kind == ZoneKind::Battlefield && o.tapped {
            self.indexed.tapped[was as usize] -= 1;
            self.indexed.tapped[p as usize] += 1;
        }
        if o.zone.kind == ZoneKind::Battlefield && o.flags & Object::HAS_MANA != 0 {
            for c in [was, p] {
                self.indexed.refile_mana(c, &self.battlefield, &self.objects);
            }
        }
        let o = &self.objects[slot as usize];
        if o.zone.kind == ZoneKind::Battlefield && o.flags & Object::HAS_TRIGGERS != 0 {
            self.indexed.renote_abilities(&self.objects, &self.defs);
        }
    }

    /// Taps or untaps the object in `slot`. Past its making (and [`Object::become_new`], which
    /// runs out of every zone) an object's tapped state changes only here, so the mana its
    /// controller can count ([`UntappedMana`]) and their count of tapped permanents follow it —
    /// and in its twins, which must keep the same counts: the automatic payment's
    /// `Game::tap_plain_for_payment` (cost.rs) and the untap step's
    /// [`Game::untap_permanents_of`].
    #[inline(always)]
    pub(crate) fn tap_slot(&mut self, slot: u32, tapped: bool) {
        let o = &mut self.objects[slot as usize];
        if o.tapped == tapped {
            return;
        }
        o.tapped = tapped;
        let o = &self.objects[slot as usize];
        if o.zone.kind == ZoneKind::Battlefield {
            let by = if tapped { 1 } else { -1 };
            let count = &mut self.indexed.tapped[o.controller as usize];
            *count = count.wrapping_add_signed(by);
            if o.flags & Object::HAS_MANA != 0 && UntappedMana::plain(o) {
                self.indexed.untapped_mana[o.controller as usize].count_untapped(o, -by);
            }
        }
    }

    /// An instant or flash card that isn't a land (see [`Game::fast_in_hand`]).
    #[inline(always)]
    fn fast(flags: u16) -> bool {
        flags & (Object::FAST | Object::LAND) == Object::FAST
    }

    /// [`Game::fast_in_hand`] for `p`, counted over their hand.
    pub(crate) fn count_fast_in_hand(&self, p: u8) -> u16 {
        self.players[p as usize].hand.iter().filter(|&&s| Game::fast(self.objects[s as usize].flags)).count() as u16
    }

    /// [`Game::fast_least_in_hand`] for `p`, found over their hand.
    pub(crate) fn count_fast_least_in_hand(&self, p: u8) -> u32 {
        let hand = &self.players[p as usize].hand;
        hand.iter().filter(|&&s| Game::fast(self.objects[s as usize].flags)).map(|&s| self.def_of_slot(s).least_mana).min().unwrap_or(u32::MAX)
    }

    /// Counts the card in `slot` into (`arrives`) or out of `p`'s kept hand counts,
    /// [`Game::fast_in_hand`], [`Game::fast_least_in_hand`] and [`Game::activated_in_hand`]
    /// (the card not yet in the hand as it arrives, already out of it as it departs). Inlined:
    /// on every draw.
    #[inline(always)]
    fn count_in_hand(&mut self, p: u8, slot: u32, arrives: bool) {
        let f = self.objects[slot as usize].flags;
        let (fast, activated) = (u16::from(Game::fast(f)), u16::from(f & Object::ACTIVATED != 0));
        if arrives {
            self.fast_in_hand[p as usize] += fast;
            self.activated_in_hand[p as usize] += activated;
        } else {
            self.fast_in_hand[p as usize] -= fast;
            self.activated_in_hand[p as usize] -= activated;
        }
        if fast != 0 {
            let least = if arrives { self.fast_least_in_hand[p as usize].min(self.def_of_slot(slot).least_mana) } else { self.count_fast_least_in_hand(p) };
            self.fast_least_in_hand[p as usize] = least;
        }
    }

    /// Recounts `p`'s kept hand counts over their hand (after an edit of it, or a load).
    pub(crate) fn recount_hand(&mut self, p: u8) {
        self.fast_in_hand[p as usize] = self.count_fast_in_hand(p);
        self.fast_least_in_hand[p as usize] = self.count_fast_least_in_hand(p);
        self.activated_in_hand[p as usize] = self.count_activated_in_hand(p);
    }

    /// [`Game::activated_in_hand`] for `p`, counted over their hand.
    pub(crate) fn count_activated_in_hand(&self, p: u8) -> u16 {
        self.players[p as usize].hand.iter().filter(|&&s| self.objects[s as usize].flags & Object::ACTIVATED != 0).count() as u16
    }

    /// Rebuilds the derived battlefield index (after a change, or a restore from a snapshot).
    pub(crate) fn reindex_battlefield(&mut self) {
        let players = self.players.len();
        if self.indexed.players != players {
            self.indexed = BattlefieldIndex::new(self.players.len()); // a snapshot loaded
        }
        self.indexed.rebuild(&self.battlefield, &self.objects, &self.defs);
    }

    /// Whether the battlefield index is what the battlefield makes it (see `check_invariants`).
    pub(crate) fn battlefield_index_is_current(&self) -> bool {
        let mut fresh = BattlefieldIndex::new(self.players.len());
        fresh.rebuild(&self.battlefield, &self.objects, &self.defs);
        fresh == self.indexed
    }

    fn zone_slots_mut(&mut self, z: Zone) -> &mut Vec<u32> {
        match z.kind {
            ZoneKind::Library => &mut self.players[z.player as usize].library,
            ZoneKind::Hand => &mut self.players[z.player as usize].hand,
            ZoneKind::Graveyard => &mut self.players[z.player as usize].graveyard,
            ZoneKind::Outside => &mut self.players[z.player as usize].outside,
            ZoneKind::Battlefield => &mut self.battlefield,
            ZoneKind::Stack => &mut self.stack,
            ZoneKind::Exile => &mut self.exile,
            ZoneKind::Command => &mut self.command,
        }
    }

    /// Takes a card out of its zone and puts it into `to` as a new object (CR 400.7). Cards go
    /// to their owner's library, hand and graveyard (CR 400.3). Returns the new id.
    pub(crate) fn move_slot(&mut self, slot: u32, to: ZoneKind, pos: Position) -> ObjId {
        self.take_from_zone(slot);
        self.place(slot, to, pos)
    }

    /// [`Game::move_slot`] inlined, for where the destination is known (a spell cast, a land
    /// played, a permanent spell resolving: the most common moves after draws), so that what
    /// can't apply there folds away. Not to a graveyard, where replacement effects may send
    /// the card elsewhere ([`Game::place`]).
    #[inline(always)]
    pub(crate) fn move_slot_inline(&mut self, slot: u32, to: ZoneKind, pos: Position) -> ObjId {
        debug_assert!(to != ZoneKind::Graveyard, "a move to a graveyard goes through place");
        let from = self.take_from_zone(slot);
        self.place_exactly_inline(slot, from, to, pos)
    }

    /// Moves a card discarded to pay a cycling cost to the graveyard: replacements that spare
    /// cycled cards ("and it wasn't cycled") don't apply.
    pub(crate) fn move_slot_cycled(&mut self, slot: u32) -> ObjId {
        let to = self.graveyard_destination(slot, true);
        self.take_from_zone(slot);
        self.place_exactly(slot, to, Position::Top)
    }

    /// Puts a card that is in no zone's vector into `to` as a new object; one bound for a
    /// graveyard goes where replacement effects send it (CR 614).
    pub(crate) fn place(&mut self, slot: u32, to: ZoneKind, pos: Position) -> ObjId {
        let to = if to == ZoneKind::Graveyard { self.graveyard_destination(slot, false) } else { to };
        self.place_exactly(slot, to, pos)
    }

    /// [`Game::place`] with no replacement effects applied.
    fn place_exactly(&mut self, slot: u32, to: ZoneKind, pos: Position) -> ObjId {
        let from = self.objects[slot as usize].zone;
        self.place_exactly_inline(slot, from, to, pos)
    }

    /// [`Game::place_exactly`], inlined where the destination is known (a draw, the most
    /// common move), so that what can't apply there folds away; `from` is the zone the card
    /// was in, which a draw knows without looking. Everywhere inlined, it costs the other
    /// moves more than it saves.
    #[inline(always)]
    pub(crate) fn place_exactly_inline(&mut self, slot: u32, from: Zone, to: ZoneKind, pos: Position) -> ObjId {
        // Counters are usually on a permanent or two: the move looks for the card among them
        // rather than calling out to drop none.
        if self.object_counters.iter().any(|&(s, _)| s == slot) || !self.stickers.is_empty() {
            self.drop_marks(slot, to);
        }
        if self.objects[slot as usize].kind == ObjectKind::Token && to != ZoneKind::Battlefield {
            // CR 111.7, 704.5d: a token that leaves the battlefield ceases to exist (at once,
            // here; nothing in the engine looks at it in between).
            self.cease(slot);
            return self.id_of(slot);
        }
        let o = &mut self.objects[slot as usize];
        debug_assert_eq!(o.zone, from);
        let owner = o.owner;
        let zone = Zone { kind: to, player: owner };
        o.become_new(zone);
        let id = ObjId::new(slot, o.generation);
        self.put_in_zone(zone, slot, pos);
        self.learn_on_move(slot, from, to, owner);
        id
    }

    /// What a card changing zones loses: its counters (CR 122.2), and its stickers unless it
    /// goes to a public zone (CR 123.5). Out of line: most games have neither.
    #[cold]
    #[inline(never)]
    fn drop_marks(&mut self, slot: u32, to: ZoneKind) {
        self.drop_counters(slot);
        if !to.is_public() {
            self.stickers.retain(|(s, _)| *s != slot);
        }
    }

    /// The object in `slot` loses its counters, if it has any (CR 122.2). (No state-based
    /// action can follow: a permanent whose counters matter is watched as it leaves.)
    pub(crate) fn drop_counters(&mut self, slot: u32) {
        self.object_counters.retain(|(s, _)| *s != slot);
    }

    /// Whether a creature's toughness may count the cards in a graveyard: one with a
    /// characteristic-defining toughness (a fragile one) is on the battlefield, so a card
    /// entering or leaving a graveyard may change what state-based actions find.
    pub(crate) fn toughness_counts_graveyards(&self) -> bool {
        self.indexed.fragile.iter().any(|&s| self.def_of_slot(s).rules.power_toughness.is_some())
    }

    /// A new object (generation 0, owned and controlled by `owner`) at the end of the object
    /// table, recorded as in `zone` (the caller puts it into the zone's list). Returns its slot.
    pub(crate) fn new_object(&mut self, def: u32, owner: u8, zone: Zone, kind: ObjectKind, tapped: bool) -> u32 {
        let flags = Object::flags_of(&self.defs[def as usize]);
        self.new_object_flagged(def, flags, owner, zone, kind, tapped)
    }

    /// [`Game::new_object`] with its definition's flags already known.
    pub(crate) fn new_object_flagged(&mut self, def: u32, flags: u16, owner: u8, zone: Zone, kind: ObjectKind, tapped: bool) -> u32 {
        let slot = self.objects.len() as u32;
        let one_mana = Object::one_mana_of(&self.defs[def as usize]);
        self.objects.push(Object { def, generation: 0, owner, controller: owner, zone, tapped, damage: 0, cast: Default::default(), kind, flags, one_mana, entered: 0 });
        slot
    }

    /// What happens to any permanent as it enters, however it enters (CR 614.1c, 614.12):
    /// "enters tapped"; a planeswalker's printed loyalty (CR 306.5b); "enters with counters"
    /// (counting kicks or X it was cast with, none if it wasn't cast); "as this enters"
    /// instructions, which run next, before anything else happens. Call it once the permanent
    /// has its controller and what it was cast with: its "enters" triggers and others'
    /// landfall see it (CR 603.6a).
    pub(crate) fn entered_battlefield(&mut self, slot: u32) {
        self.entered(slot, true);
    }

    /// A resolving spell entered the battlefield; its "as this enters" instructions have run.
    pub(crate) fn entered_battlefield_after_as_enters(&mut self, slot: u32) {
        self.entered(slot, false);
    }

    /// Inlined (on every land played and permanent spell resolving): most permanents'
    /// entering is only their triggers, and a call costs more than the rest of it.
    #[inline(always)]
    fn entered(&mut self, slot: u32, as_enters: bool) {
        let o = &mut self.objects[slot as usize];
        o.entered = self.turn;
        // Most permanents' entering is only their triggers: their card needn't be looked at.
        if o.flags & Object::ENTRY != 0 {
            self.entry_happens(slot, as_enters);
        }
        self.fire(crate::trigger::TriggerEvent::Entered { slot });
    }

    /// What the card of a permanent entering makes happen to it (see [`Game::entered`]).
    #[inline(never)]
    fn entry_happens(&mut self, slot: u32, as_enters: bool) {
        let entry = self.def_of_slot(slot).entry;
        self.legendary_entered |= entry.legendary;
        if entry.tapped {
            self.tap_slot(slot, true);
        }
        if entry.loyalty > 0 {
            let _ = self.put_counters(slot, "loyalty", entry.loyalty);
        }
        if entry.replaced {
            self.enters_with_counters_and_as_enters(slot, as_enters);
        }
    }

    /// A permanent goes from the battlefield to its owner's graveyard (a state-based action, a
    /// sacrifice, the legend rule); if it gets there it died (CR 700.4) and its "when this
    /// dies" triggers, looking back at what it was (CR 603.10a).
    pub(crate) fn put_into_graveyard_from_battlefield(&mut self, slot: u32) -> ObjId {
        let from_id = self.id_of(slot);
        let (controller, owner, from) = (self.objects[slot as usize].controller, self.objects[slot as usize].owner, self.objects[slot as usize].zone);
        let goes_to = self.graveyard_destination(slot, false);
        let card = self.move_slot(slot, ZoneKind::Graveyard, Position::Top);
        if goes_to == ZoneKind::Graveyard {
            self.log.push_with(|| Event::Died { card, from_id });
            self.fire_dies(slot, controller);
        } else {
            // A replacement sent it elsewhere (exile): a move, not a death (CR 700.4). Where it
            // went, even for a token that then ceased to exist (CR 111.7).
            let to = Zone { kind: goes_to, player: owner };
            self.log.push_with(|| Event::Moved { from_id, card, from, to });
        }
        card
    }

    /// Sacrifices a permanent (CR 701.21a).
    pub(crate) fn sacrifice(&mut self, slot: u32) -> ObjId {
        self.put_into_graveyard_from_battlefield(slot)
    }

    /// A permanent untaps; "whenever a permanent becomes untapped" sees it.
    pub(crate) fn untap(&mut self, slot: u32) {
        if self.objects[slot as usize].tapped {
            self.untap_tapped(slot);
        }
    }

    /// [`Game::untap`] of a permanent known to be tapped. Inlined: the untap step's scan,
    /// which found it tapped, calls it for each.
    #[inline(always)]
    pub(crate) fn untap_tapped(&mut self, slot: u32) {
        self.tap_slot(slot, false);
        self.fire(crate::trigger::TriggerEvent::Untapped { slot });
    }

    /// The untap step's untapping (CR 502.3): each of `p`'s tapped permanents untaps, in
    /// battlefield order. Untapping only queues what it triggers, so the battlefield stays as
    /// it is and one pass over it does, stopping once the count of `p`'s tapped permanents
    /// says none is left. With no permanent waiting for an untap, nothing is queued, and each
    /// untap is [`Game::tap_slot`]'s with what it would look up each time looked up once, in
    /// whatever order is quickest.
    #[inline(always)]
    pub(crate) fn untap_permanents_of(&mut self, p: u8) {
        let mut left = self.indexed.tapped[p as usize];
        if left == 0 {
            return;
        }
        if self.listens(crate::trigger::kind::UNTAPPED) {
            for k in 0..self.battlefield.len() {
                let s = self.battlefield[k];
                let o = &self.objects[s as usize];
                if o.controller == p && o.tapped {
                    self.untap_tapped(s);
                    if self.indexed.tapped[p as usize] == 0 {
                        return;
                    }
                }
            }
            return;
        }
        // Most tapped permanents are mana sources, tapped to pay: `p`'s own list of them,
        // shorter than the battlefield, is looked over first, and the battlefield only for
        // what is left. With nothing listening, the order in which they untap leaves no trace.
        let index = &mut self.indexed;
        let mana = &mut index.untapped_mana[p as usize];
        for &s in &index.mana[p as usize] {
            let o = &mut self.objects[s as usize];
            if !o.tapped {
                continue;
            }
            o.tapped = false;
            if UntappedMana::plain(o) {
                mana.count_untapped(o, 1);
            }
            left -= 1;
            if left == 0 {
                break;
            }
        }
        if left != 0 {
            for &s in &self.battlefield {
                let o = &mut self.objects[s as usize];
                if o.controller != p || !o.tapped {
                    continue;
                }
                // Not a mana source, all of which are untapped now.
                o.tapped = false;
                left -= 1;
                if left == 0 {
                    break;
                }
            }
        }
        index.tapped[p as usize] = left;
    }

    /// The creature hasn't been under its controller's control continuously since their most
    /// recent turn began (CR 302.6). Permanents put onto the battlefield while setting up a
    /// position count as having been there from the start.
    pub(crate) fn summoning_sick(&self, slot: u32) -> bool {
        let o = &self.objects[slot as usize];
        o.entered != 0 && o.entered >= self.players[o.controller as usize].last_turn
    }

    /// A creature whose {T} and {Q} abilities — mana abilities included — can't be activated
    /// yet (CR 302.6); other permanents never are.
    pub(crate) fn sick_creature(&self, slot: u32) -> bool {
        self.def_of_slot(slot).is(crate::card::CardType::Creature) && self.summoning_sick(slot)
    }

    /// A copy of this game whose card definitions no other game shares, for a batch thread
    /// to reset its games from. Its games then count references to definitions no other
    /// thread touches: a reference count two threads change moves its cache line between the
    /// cores on every change, which (one clone per resolution) was measurable on two workers.
    pub(crate) fn thread_copy(&self) -> Game {
        let mut g = self.clone();
        g.defs = Arc::new(self.defs.iter().map(|d| Arc::new(CardDef::clone(d))).collect());
        g
    }

    /// Replaces this game's state with a copy of `src`, reusing this game's allocations
    /// (the fast reset that batch runs use between repetitions).
    pub fn reset_from(&mut self, src: &Game) {
        // The shared parts are usually the very same: then copying them would only count
        // references up and down.
        fn share<T>(to: &mut Arc<T>, from: &Arc<T>) {
            if !Arc::ptr_eq(to, from) {
                *to = from.clone();
            }
        }
        share(&mut self.defs, &src.defs);
        self.def_flags = src.def_flags;
        copy_into(&mut self.objects, &src.objects);
        self.players.clone_from(&src.players);
        copy_into(&mut self.battlefield, &src.battlefield);
        self.indexed.clone_from(&src.indexed);
        copy_into(&mut self.stack, &src.stack);
        copy_into(&mut self.exile, &src.exile);
        copy_into(&mut self.command, &src.command);
        self.seed = src.seed;
        self.rng.clone_from(&src.rng);
        self.active = src.active;
        self.turn = src.turn;
        self.step = src.step;
        self.starting_player = src.starting_player;
        self.priority = src.priority;
        self.passes = src.passes;
        self.unchecked_setup = src.unchecked_setup;
        self.sba_quiet = src.sba_quiet;
        self.damage_marked = src.damage_marked;
        self.actions_taken = src.actions_taken;
        self.lands_played = src.lands_played;
        copy_into(&mut self.stack_items, &src.stack_items);
        copy_into(&mut self.stickers, &src.stickers);
        self.seats.clone_from(&src.seats);
        self.strict = src.strict;
        copy_into(&mut self.frames, &src.frames);
        self.pending.clone_from(&src.pending);
        self.answer.clone_from(&src.answer);
        copy_into(&mut self.output, &src.output);
        self.log.recording = src.log.recording;
        share(&mut self.log.events, &src.log.events);
        self.outcome.clone_from(&src.outcome);
        copy_into(&mut self.object_counters, &src.object_counters);
        copy_into(&mut self.pending_triggers, &src.pending_triggers);
        copy_into(&mut self.delayed, &src.delayed);
        copy_into(&mut self.losers, &src.losers);
        copy_into(&mut self.triggered_this_turn, &src.triggered_this_turn);
        copy_into(&mut self.loyalty_activated, &src.loyalty_activated);
        copy_into(&mut self.until_end_of_turn, &src.until_end_of_turn);
        self.legendary_entered = src.legendary_entered;
        copy_into(&mut self.partial, &src.partial);
        copy_into(&mut self.known, &src.known);
        self.known_in_library = src.known_in_library;
        self.fast_in_hand = src.fast_in_hand;
        self.fast_least_in_hand = src.fast_least_in_hand;
        self.activated_in_hand = src.activated_in_hand;
        self.origin.clone_from(&src.origin);
        share(&mut self.history, &src.history);
        self.unrecorded = src.unrecorded;
    }
}

/// Counts given by callers must be sane.
/// [`Game::fast_least_in_hand`] with no instant or flash card in any hand.
fn no_fast_cards() -> [u32; MAX_PLAYERS] {
    [u32::MAX; MAX_PLAYERS]
}

pub(crate) fn check_count(n: i64, what: &str) -> Result<u32> {
    if n < 0 {
        return Err(invalid(format!("{what} must not be negative (got {n})")));
    }
    if n > MAX_COUNT {
        return Err(invalid(format!("{what} of {n} is out of range (at most {MAX_COUNT})")));
    }
    Ok(n as u32)
}

#[cfg(test)]
mod first_upkeep_tests {
    use crate::{Answer, CardDb, Game, Policy, Position, Progress, ZoneKind};

    // A manual player may leave the opening-hand choice pending: the first upkeep begins only
    // once it is answered, so what they put onto the battlefield is there when it begins.
    #[test]
    fn the_first_upkeep_begins_after_a_pending_opening_hand_choice() {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        g.add_cards(0, ZoneKind::Library, &["Leyline of the Void"; 10], Position::Top, db).unwrap();
        g.add_cards(1, ZoneKind::Library, &["Island"; 10], Position::Top, db).unwrap();
        g.set_policy(0, Policy::Manual).unwrap();
        g.deal(1, &crate::game::Setup::default()).unwrap();
        let d = g.pending().expect("player 0 chooses what begins on the battlefield").clone();
        assert!(!g.events().iter().any(|e| matches!(e, crate::Event::StepBegan { .. })));
        let crate::decision::Choice::Cards { options, .. } = d.choice else { panic!("a cards choice") };
        assert!(matches!(g.answer(Answer::Cards { cards: options }).unwrap(), Progress::Done(_)));
        assert!(g.events().iter().any(|e| matches!(e, crate::Event::StepBegan { turn: 1, .. })));
    }
}

#[cfg(test)]
mod entering_tests {
    use crate::{CardDb, Entering, Game, Position, ZoneKind};

    // Each thing that happens as a permanent enters happens for a card with only that one
    // (CR 614.1c, 614.12, 306.5b, 704.5j): none is passed over as an entry with nothing to do.
    #[test]
    fn each_entry_fact_alone_is_done_as_the_permanent_enters() {
        let db = CardDb::from_json(
            r#"{"format": "mtgsim-cards", "version": 1, "cards": [
                {"name": "Plain Walker", "mana_cost": "{3}", "type_line": "Planeswalker — Test", "loyalty": " 3"},
                {"name": "Slow Land", "type_line": "Land", "rules": {"enters_tapped": true}},
                {"name": "Charged Rock", "mana_cost": "{1}", "type_line": "Artifact", "rules": {"enters_with_counters": [{"counter": "charge", "count": 2}]}},
                {"name": "Milling Rock", "mana_cost": "{1}", "type_line": "Artifact", "rules": {"as_enters": [{"mill": {"count": 1}}]}},
                {"name": "Lone Legend", "mana_cost": "{1}", "type_line": "Legendary Artifact"}
            ]}"#,
        )
        .unwrap();
        let mut g = Game::new(2, 1).unwrap();
        g.add_cards(0, ZoneKind::Library, &["Slow Land"; 3], Position::Top, &db).unwrap();
        let names = ["Plain Walker", "Slow Land", "Charged Rock", "Milling Rock", "Lone Legend"];
        let hand = g.add_cards(0, ZoneKind::Hand, &names, Position::Top, &db).unwrap();
        let enter = |g: &mut Game, i: usize| g.move_object(hand[i], ZoneKind::Battlefield, Position::Top, Entering::default()).unwrap().slot();
        let (walker, land, rock) = (enter(&mut g, 0), enter(&mut g, 1), enter(&mut g, 2));
        enter(&mut g, 3);
        // (The record's " 3" is accepted as 3 when the card is read, so it enters with 3.)
        assert_eq!(g.counters_on(walker).map(|c| c.get("loyalty")), Some(3));
        assert!(g.objects[land as usize].tapped);
        assert_eq!(g.counters_on(rock).map(|c| c.get("charge")), Some(2));
        assert_eq!(g.players[0].library.len(), 2);
        g.legendary_entered = false;
        enter(&mut g, 4);
        assert!(g.legendary_entered);
    }
}

#[cfg(test)]
mod counter_tests {
    use crate::{CardDb, Entering, Game, Position, ZoneKind};

    // CR 122.2: a card that changes zones leaves its counters behind, whichever way it moves
    // (drawn, played as a land, moved by an effect); another's stay on it. A move looks for
    // the card among the objects with counters before dropping any. (Mutation caught: the
    // look never finding the card.)
    #[test]
    fn a_card_that_changes_zones_loses_its_counters_and_others_keep_theirs() {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        g.set_recording(false);
        g.add_cards(0, ZoneKind::Library, &["Island"; 3], Position::Top, db).unwrap();
        let top = g.id_of(*g.players[0].library.last().unwrap());
        let land = g.add_cards(0, ZoneKind::Hand, &["Forest"], Position::Top, db).unwrap()[0];
        let [bears, kept] = g.add_cards(0, ZoneKind::Battlefield, &["Grizzly Bears", "Everflowing Chalice"], Position::Top, db).unwrap()[..] else { unreachable!() };
        for id in [top, land, bears, kept] {
            g.change_object_counters(id, "charge", 2).unwrap();
        }
        let moved =
            [g.draw(0, 1).unwrap()[0].slot(), g.play_land(land).unwrap().slot(), g.move_object(bears, ZoneKind::Graveyard, Position::Top, Entering::default()).unwrap().slot()];
        for slot in moved {
            assert!(g.counters_on(slot).is_none(), "slot {slot}");
        }
        assert_eq!(g.counters_on(kept.slot()).map(|c| c.get("charge")), Some(2));
        assert_eq!(g.object_counters.len(), 1);
    }
}

#[cfg(test)]
mod life_tests {
    use crate::Game;

    // Life is an i32 and amounts u32: a change is added in 64 bits and saturates, so no
    // amount turns a loss into a gain (CR 119.3, 120.3a).
    #[test]
    fn a_life_change_saturates_rather_than_wrapping() {
        let mut g = Game::new(2, 1).unwrap();
        g.change_life(0, -i64::from(u32::MAX));
        assert_eq!(g.life(0).unwrap(), i32::MIN);
        g.change_life(1, i64::from(u32::MAX));
        g.change_life(1, i64::from(u32::MAX));
        assert_eq!(g.life(1).unwrap(), i32::MAX);
    }
}

#[cfg(test)]
mod battlefield_index_tests {
    use super::BattlefieldIndex;
    use crate::{CardDb, Entering, Game, ObjId, Position, ZoneKind};

    // A game reset from another (a batch's reset between games) is that game: its index list
    // by list and count by count, and all it saves, whether either battlefield, zone or list
    // is empty or holds more of a kind than an index list keeps inline. (Mutations caught: an
    // index list, a zone or a game's list left as it was when the other's is empty; the
    // per-player counts left as they were.)
    #[test]
    fn a_reset_copies_the_game_whatever_either_holds() {
        let db = CardDb::builtin();
        let empty = Game::new(2, 1).unwrap();
        let mut lands = Game::new(2, 1).unwrap();
        lands.add_cards(0, ZoneKind::Battlefield, &["Island"; 10], Position::Top, db).unwrap();
        lands.add_cards(1, ZoneKind::Battlefield, &["Forest", "Plains"], Position::Top, db).unwrap();
        let mut mixed = Game::new(2, 1).unwrap();
        mixed.add_cards(1, ZoneKind::Battlefield, &["Ruin Crab", "Grizzly Bears", "Bruvac the Grandiloquent", "Swamp"], Position::Top, db).unwrap();
        let tapped = mixed.add_cards(0, ZoneKind::Battlefield, &["Walking Corpse", "Island"], Position::Top, db).unwrap();
        mixed.set_tapped(tapped[1], true).unwrap();
        let decks = vec![["Island", "Fractured Sanity", "Ruin Crab"].repeat(10).iter().map(|s| s.to_string()).collect::<Vec<_>>(), vec!["Forest".to_string(); 30]];
        let policies = [crate::Policy::Goldfish, crate::Policy::Goldfish];
        let mut played = Game::from_decks_played_by(&decks, 5, &crate::game::Setup::default(), db, &policies).unwrap();
        while played.turn < 7 && !played.is_over() {
            played.play_one().unwrap();
        }
        assert!(!played.players[0].graveyard.is_empty() && !played.players[1].hand.is_empty());
        let games = [empty, lands, mixed, played];
        for src in &games {
            for dst in &games {
                let mut g = dst.clone();
                g.reset_from(src);
                assert_eq!(g.indexed, src.indexed);
                assert!(g.battlefield_index_is_current());
                assert_eq!(g.save_json(), src.save_json());
            }
        }
    }

    // The count of each player's untapped plain mana sources follows tapping and untapping,
    // entering tapped, leaving, and changes of control, and is what a walk over their sources
    // counts; a source that isn't plain (Everflowing Chalice) sends the count back to the walk.
    // So does each player's count of tapped permanents, which the untap step stops by.
    // (Mutations caught: a tapped permanent's change of control left uncounted; an untap
    // left uncounted.)
    #[test]
    fn the_untapped_mana_count_follows_taps_moves_and_control() {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        let cards = g.add_cards(0, ZoneKind::Battlefield, &["Island", "Island", "Swamp", "Canyon Slough"], Position::Top, db).unwrap();
        let (island, slough) = (cards[0], cards[3]);
        // The supply as the walk over the list counts it (a source set aside that is none).
        let walked = |g: &Game, p: u8| g.count_supply(p, Some(u32::MAX));
        let check = |g: &Game, by_type: [u32; 6], choosing: u32, others: u32| {
            let counted = g.indexed.untapped_mana[0];
            assert_eq!((counted.by_type, counted.choosing, counted.others), (by_type, choosing, others));
            assert!(g.battlefield_index_is_current());
            for p in 0..2 {
                assert_eq!(g.count_supply(p, None), walked(g, p));
            }
        };
        check(&g, [0, 2, 1, 0, 0, 0], 1, 0);
        g.set_tapped(island, true).unwrap();
        g.set_tapped(island, true).unwrap(); // already tapped: counted once
        check(&g, [0, 1, 1, 0, 0, 0], 1, 0);
        g.untap(island.slot());
        check(&g, [0, 2, 1, 0, 0, 0], 1, 0);
        // Leaving untapped, coming back tapped, then untapping.
        let gone = g.move_object(slough, ZoneKind::Graveyard, Position::Top, Entering::default()).unwrap();
        check(&g, [0, 2, 1, 0, 0, 0], 0, 0);
        let back = g.move_object(gone, ZoneKind::Battlefield, Position::Top, Entering { tapped: true, ..Default::default() }).unwrap();
        check(&g, [0, 2, 1, 0, 0, 0], 0, 0);
        g.untap(back.slot());
        check(&g, [0, 2, 1, 0, 0, 0], 1, 0);
        // Control of an untapped Island goes to the other player, and comes back tapped.
        g.set_controller(island.slot(), 1);
        check(&g, [0, 1, 1, 0, 0, 0], 1, 0);
        assert_eq!(g.indexed.untapped_mana[1].by_type, [0, 1, 0, 0, 0, 0]);
        g.set_tapped(island, true).unwrap();
        g.set_controller(island.slot(), 0);
        check(&g, [0, 1, 1, 0, 0, 0], 1, 0);
        assert_eq!(g.indexed.tapped[..2], [1, 0], "the Island");
        // A source that isn't plain: the supply is walked again, and still agrees.
        g.add_cards(0, ZoneKind::Battlefield, &["Everflowing Chalice"], Position::Top, db).unwrap();
        check(&g, [0, 1, 1, 0, 0, 0], 1, 1);
        let loaded = Game::load_json(&g.save_json()).unwrap();
        assert!(loaded.indexed == g.indexed);
    }

    // Each player's mana sources stay in battlefield order (the order payments tap in) through
    // a change of control, a permanent entering under another player's control, and a save and
    // load; the invariant check sees a controller changed behind the index's back.
    #[test]
    fn the_mana_sources_by_controller_follow_control_and_a_load() {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        let mine = g.add_cards(0, ZoneKind::Battlefield, &["Island", "Forest", "Swamp"], Position::Top, db).unwrap();
        let theirs = g.add_cards(1, ZoneKind::Battlefield, &["Plains"], Position::Top, db).unwrap();
        let source_slots = |g: &Game, p: u8| g.mana_sources(p).iter().map(|s| ObjId(s.id).slot()).collect::<Vec<u32>>();
        let (island, forest, swamp, plains) = (mine[0].slot(), mine[1].slot(), mine[2].slot(), theirs[0].slot());
        g.set_controller(forest, 1);
        assert_eq!((&g.indexed.mana[0][..], &g.indexed.mana[1][..]), (&[island, swamp][..], &[forest, plains][..]));
        assert_eq!(source_slots(&g, 1), [forest, plains]);
        g.check_invariants().unwrap();
        let grave = g.move_object(mine[0], ZoneKind::Graveyard, Position::Top, Entering::default()).unwrap();
        let back = g.move_object(grave, ZoneKind::Battlefield, Position::Top, Entering { controller: Some(1), ..Default::default() }).unwrap();
        assert_eq!((&g.indexed.mana[0][..], &g.indexed.mana[1][..]), (&[swamp][..], &[forest, plains, back.slot()][..]));
        g.check_invariants().unwrap();
        let loaded = Game::load_json(&g.save_json()).unwrap();
        assert!(loaded.indexed == g.indexed);
        assert_eq!(source_slots(&loaded, 1), [forest, plains, back.slot()]);
        g.objects[swamp as usize].controller = 1;
        assert!(g.check_invariants().is_err());
    }

    // A card in a library is as a new object is, wherever it came from, and milling moves it
    // to the graveyard as one; a card in a library marked otherwise breaks the invariants, and
    // a snapshot holding one isn't loaded. Mutation caught: `Object::is_fresh` not looking at
    // the tapped state (the check then passes the tapped library card).
    #[test]
    fn a_card_in_a_library_is_fresh_and_milled_as_a_new_object() {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        g.add_cards(0, ZoneKind::Library, &["Island"; 3], Position::Top, db).unwrap();
        let bears = g.add_cards(0, ZoneKind::Hand, &["Grizzly Bears"], Position::Top, db).unwrap()[0];
        let bears = g.move_object(bears, ZoneKind::Battlefield, Position::Top, Entering { controller: Some(1), tapped: true }).unwrap();
        g.objects[bears.slot() as usize].damage = 1;
        g.move_object(bears, ZoneKind::Library, Position::Top, Entering::default()).unwrap();
        g.check_invariants().unwrap();
        let milled = g.mill_cards(0, 4);
        assert_eq!(milled.len(), 4);
        assert!(milled.iter().all(|id| {
            let o = &g.objects[id.slot() as usize];
            o.is_fresh() && o.zone == crate::zone::Zone { kind: ZoneKind::Graveyard, player: 0 } && o.generation == id.generation()
        }));
        g.check_invariants().unwrap();
        let back = g.move_object(milled[0], ZoneKind::Library, Position::Top, Entering::default()).unwrap();
        g.objects[back.slot() as usize].tapped = true;
        assert!(g.check_invariants().is_err());
        assert!(Game::load_json(&g.save_json()).is_err());
    }

    // The index follows each permanent arriving first or last and leaving from anywhere, and
    // stays what a rebuild from the battlefield makes it.
    #[test]
    fn the_index_follows_each_move_as_a_rebuild_would() {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        let names = [
            "Island",
            "Grizzly Bears",
            "Ruin Crab",
            "Jace, Wielder of Mysteries",
            "Bruvac the Grandiloquent",
            "Joraga Warcaller",
            "Walking Corpse",
            "Ornithopter",
            "Rest in Peace",
        ];
        let ids = g.add_cards(0, ZoneKind::Battlefield, &names, Position::Top, db).unwrap();
        let slots: Vec<u32> = ids.iter().map(|id| id.slot()).collect();
        assert!(g.battlefield_index_is_current());
        for (i, &s) in slots.iter().enumerate() {
            g.move_slot(s, ZoneKind::Graveyard, Position::Top);
            assert!(g.battlefield_index_is_current());
            let pos = if i % 2 == 0 { Position::Bottom } else { Position::Top };
            g.move_slot(s, ZoneKind::Battlefield, pos);
            assert!(g.battlefield_index_is_current());
            assert!(!g.indexed.creatures.is_empty() && !g.indexed.statics.is_empty());
        }
        for &s in slots.iter().skip(1).step_by(2) {
            g.cease(s);
            assert!(g.battlefield_index_is_current());
        }
        for &s in slots.iter().step_by(2) {
            g.move_slot(s, ZoneKind::Exile, Position::Top);
            assert!(g.battlefield_index_is_current());
        }
        assert!(g.indexed == BattlefieldIndex::new(2));
    }

    // The counts of instants and flash cards, and of cards with activated abilities, in each
    // hand follow cards arriving first or last, leaving, and a hand reordered as a whole, as
    // counts over the hand would.
    #[test]
    fn the_hand_counts_follow_each_hand() {
        use crate::zone::Zone;
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        let ids = g
            .add_cards(0, ZoneKind::Library, &["Joint Exploration", "Island", "Fractured Sanity", "Mystical Tutor", "Joint Exploration", "Fractured Sanity"], Position::Top, db)
            .unwrap();
        // Mystical Tutor costs less than Joint Exploration: it leaving makes the least cost rise.
        let counted = |g: &Game| [0, 1].map(|p| (g.count_fast_in_hand(p), g.count_fast_least_in_hand(p), g.count_activated_in_hand(p)));
        let kept = |g: &Game| [0, 1].map(|p| (g.fast_in_hand[p as usize], g.fast_least_in_hand[p as usize], g.activated_in_hand[p as usize]));
        for (i, id) in ids.iter().enumerate() {
            let pos = if i % 2 == 0 { Position::Bottom } else { Position::Top };
            g.move_slot(id.slot(), ZoneKind::Hand, pos);
            assert_eq!(kept(&g), counted(&g));
        }
        assert_eq!(kept(&g)[0], (3, 1, 2));
        g.edit_zone(Zone { kind: ZoneKind::Hand, player: 0 }, |v| v.reverse());
        assert_eq!(kept(&g), counted(&g));
        g.check_invariants().unwrap();
        for id in &ids {
            g.move_slot(id.slot(), ZoneKind::Graveyard, Position::Top);
            assert_eq!(kept(&g), counted(&g));
        }
        assert_eq!(kept(&g)[0], (0, u32::MAX, 0));
        // A count that disagrees with the hand is caught.
        g.fast_in_hand[1] = 1;
        assert!(g.check_invariants().is_err());
        g.fast_in_hand[1] = 0;
        g.fast_least_in_hand[1] = 2;
        assert!(g.check_invariants().is_err());
        g.fast_least_in_hand[1] = u32::MAX;
        g.activated_in_hand[1] = 1;
        assert!(g.check_invariants().is_err());
    }

    // A basic land's one mana a tap is cached on its object, rebuilt when a saved game loads
    // (it isn't saved), and a cache that disagrees with the card is caught.
    #[test]
    fn the_one_mana_cache_is_the_cards_and_survives_a_load() {
        use crate::payment::{ManaType, ManaTypes};
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        let ids = g.add_cards(0, ZoneKind::Battlefield, &["Island", "Everflowing Chalice"], Position::Top, db).unwrap();
        let cached = |g: &Game| ids.iter().map(|id| g.objects[id.slot() as usize].one_mana).collect::<Vec<_>>();
        let island = ManaTypes::single(ManaType::Color(crate::mana::Color::Blue));
        assert_eq!(cached(&g), [island, ManaTypes::default()]); // the Chalice makes one per counter
        let mut loaded = Game::load_json(&g.save_json()).unwrap();
        assert_eq!(cached(&loaded), cached(&g));
        loaded.objects[ids[0].slot() as usize].one_mana = ManaTypes::default();
        assert!(loaded.check_invariants().is_err());
    }
}

#[cfg(test)]
mod state_based_action_tests {
    use crate::{CardDb, Game, ObjId, Position, ZoneKind};

    /// The quick "nothing to check" answer for `g`, checked against performing the
    /// state-based actions on a copy: when it says nothing applies, nothing may happen.
    fn nothing_to_check(g: &Game) -> bool {
        let quick = g.nothing_to_check();
        assert!(!quick || !g.clone().perform_state_based_actions(), "the quick check passed over a state-based action");
        quick
    }

    // A planeswalker and a creature whose toughness an ability defines are looked at on every
    // check; the quick check passes over them only while neither dies and no counters
    // annihilate on them (CR 704.5f, 704.5i, 704.5q).
    #[test]
    fn the_quick_check_passes_over_fragile_permanents_only_while_they_survive() {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        let spell = g.add_cards(0, ZoneKind::Graveyard, &["Lórien Revealed"], Position::Top, db).unwrap()[0];
        let permanents = g.add_cards(0, ZoneKind::Battlefield, &["Jace, Wielder of Mysteries", "Monstrous War-Leech"], Position::Top, db).unwrap();
        let (jace, leech) = (permanents[0].slot(), permanents[1].slot());
        assert!(!nothing_to_check(&g)); // Jace put there without loyalty would die (704.5i)
        g.put_counters(jace, "loyalty", 4).unwrap();
        assert!(nothing_to_check(&g)); // a 5/5 Leech, Jace with loyalty
        g.put_counters(leech, "+1/+1", 2).unwrap();
        assert!(nothing_to_check(&g)); // +1/+1 counters only add
        g.put_counters(leech, "charge", 1).unwrap();
        assert!(!nothing_to_check(&g)); // a fragile creature with other counters is looked at
        g.remove_counters_from(leech, "charge", 1).unwrap();
        assert!(nothing_to_check(&g));
        g.remove_counters_from(jace, "loyalty", 4).unwrap();
        assert!(!nothing_to_check(&g)); // Jace with no loyalty dies (704.5i)
        g.put_counters(jace, "charge", 1).unwrap();
        assert!(!nothing_to_check(&g)); // other counters aren't loyalty
        g.remove_counters_from(jace, "charge", 1).unwrap();
        g.put_counters(jace, "loyalty", 1).unwrap();
        g.put_counters(jace, "-1/-1", 1).unwrap();
        g.put_counters(jace, "+1/+1", 1).unwrap();
        assert!(!nothing_to_check(&g)); // they annihilate (704.5q)
        g.remove_counters_from(jace, "-1/-1", 1).unwrap();
        assert!(nothing_to_check(&g));
        g.remove_counters_from(leech, "+1/+1", 2).unwrap();
        g.move_slot(spell.slot(), ZoneKind::Exile, Position::Top);
        assert!(!nothing_to_check(&g)); // the Leech is 0/0 with nothing of value in the graveyard (704.5f)
        assert!(g.check_state_based_actions());
        assert_eq!(g.battlefield.len(), 1);
        assert!(nothing_to_check(&g));
    }

    /// Checks state-based actions in `g` until a check finds nothing (so the next one is
    /// skipped unless something changes), makes `change`, and says whether the next check
    /// performs any.
    #[track_caller]
    fn applies_after(g: &mut Game, change: impl FnOnce(&mut Game)) -> bool {
        while g.check_state_based_actions() {}
        assert!(g.sba_quiet);
        change(g);
        g.check_state_based_actions()
    }

    // A check after one that found nothing is skipped only while nothing it reads has
    // changed: each kind of change that can make a state-based action apply is seen, and
    // the action performed (CR 704.3; 704.5a-c, f-g, i).
    #[test]
    fn each_change_that_can_make_a_state_based_action_apply_is_seen() {
        use crate::continuous::UntilEndOfTurn;
        use crate::target::TargetRef;
        use crate::ObjId;
        let db = CardDb::builtin();
        // A 2/2 Grizzly Bears on player 0's battlefield, and 20 cards in each library.
        let bears = || {
            let mut g = Game::new(2, 1).unwrap();
            for p in 0..2 {
                g.add_cards(p, ZoneKind::Library, &["Island"; 20], Position::Top, db).unwrap();
            }
            let slot = g.add_cards(0, ZoneKind::Battlefield, &["Grizzly Bears"], Position::Top, db).unwrap()[0].slot();
            (g, slot)
        };
        let shrink = |g: &Game, slot: u32, toughness: i32| UntilEndOfTurn { object: g.id_of(slot), power: 0, toughness, keywords: Vec::new() };
        let (mut g, _) = bears();
        assert!(applies_after(&mut g, |g| g.change_life(0, -20)) && g.players[0].lost.is_some()); // 704.5a
        let (mut g, _) = bears();
        applies_after(&mut g, |g| g.set_life(1, 0).unwrap()); // which checks itself
        assert!(g.players[1].lost.is_some());
        let (mut g, _) = bears();
        assert!(applies_after(&mut g, |g| g.give_player_counters(1, "poison", 10)) && g.players[1].lost.is_some()); // 704.5c
        let (mut g, _) = bears();
        applies_after(&mut g, |g| g.change_player_counters(1, "poison", 10).unwrap());
        assert!(g.players[1].lost.is_some());
        let (mut g, _) = bears();
        g.players[1].library.clear();
        assert!(applies_after(&mut g, |g| assert!(g.draw_one(1).is_none())) && g.players[1].lost.is_some()); // 704.5b
        let (mut g, b) = bears();
        assert!(applies_after(&mut g, |g| g.deal_damage(ObjId(0), TargetRef::Object(g.id_of(b)), 2)) && g.battlefield.is_empty()); // 704.5g
        let (mut g, b) = bears();
        assert!(applies_after(&mut g, |g| g.put_counters(b, "-1/-1", 2).unwrap()) && g.battlefield.is_empty()); // 704.5f
        let (mut g, b) = bears();
        g.put_counters(b, "+1/+1", 1).unwrap();
        g.deal_damage(ObjId(0), TargetRef::Object(g.id_of(b)), 2);
        assert!(applies_after(&mut g, |g| g.remove_counters_from(b, "+1/+1", 1).unwrap()) && g.battlefield.is_empty());
        let (mut g, b) = bears();
        assert!(applies_after(&mut g, |g| g.add_until_end_of_turn(shrink(g, b, -2))) && g.battlefield.is_empty());
        let (mut g, b) = bears();
        g.put_counters(b, "-1/-1", 2).unwrap();
        g.add_until_end_of_turn(shrink(&g, b, 2));
        assert!(applies_after(&mut g, |g| g.end_until_end_of_turn()) && g.battlefield.is_empty());
        // A creature entering (first or last) as a 0/0, and one whose toughness counts its
        // controller's graveyard: that graveyard losing its card, or control changing.
        let (mut g, _) = bears();
        assert!(applies_after(&mut g, |g| _ = g.add_cards(0, ZoneKind::Battlefield, &["Monstrous War-Leech"], Position::Top, db).unwrap()) && g.battlefield.len() == 1);
        for pos in [Position::Top, Position::Bottom] {
            let (mut g, _) = bears();
            let leech = g.add_cards(0, ZoneKind::Hand, &["Monstrous War-Leech"], Position::Top, db).unwrap()[0].slot();
            assert!(applies_after(&mut g, |g| _ = g.move_slot(leech, ZoneKind::Battlefield, pos)) && g.battlefield.len() == 1);
        }
        let leech_and = |graveyard: &str| {
            let (mut g, _) = bears();
            let card = g.add_cards(0, ZoneKind::Graveyard, &[graveyard], Position::Top, db).unwrap()[0].slot();
            let leech = g.add_cards(0, ZoneKind::Battlefield, &["Monstrous War-Leech"], Position::Top, db).unwrap()[0].slot();
            (g, card, leech)
        };
        let (mut g, card, _) = leech_and("Lórien Revealed");
        assert!(applies_after(&mut g, |g| _ = g.move_slot(card, ZoneKind::Exile, Position::Top)) && g.battlefield.len() == 1);
        let (mut g, _, leech) = leech_and("Lórien Revealed");
        assert!(applies_after(&mut g, |g| g.set_controller(leech, 1)) && g.battlefield.len() == 1);
        // A permanent whose static ability makes another creature bigger leaving: Joraga
        // Warcaller with a +1/+1 counter makes the other a 2/2, which has 1 damage.
        let (mut g, _) = bears();
        let elves = g.add_cards(0, ZoneKind::Battlefield, &["Joraga Warcaller"; 2], Position::Top, db).unwrap();
        g.put_counters(elves[0].slot(), "+1/+1", 1).unwrap();
        g.deal_damage(ObjId(0), TargetRef::Object(elves[1]), 1);
        assert!(applies_after(&mut g, |g| _ = g.move_slot(elves[0].slot(), ZoneKind::Hand, Position::Top)) && g.battlefield.len() == 1);
        // A player losing (conceding) in a game that goes on: they leave it (CR 800.4a).
        let mut g = Game::new(3, 1).unwrap();
        applies_after(&mut g, |g| g.lose(2, crate::LossReason::Conceded));
        assert!(g.players[2].left);
    }

    // A sturdy creature (Grizzly Bears, Ornithopter) entering (first or last) or leaving can't
    // make a state-based action apply: it comes with no damage or counters and survives the
    // checks (CR 704.5f-g), so a quiet check stays quiet, and a check finds nothing. Nor can
    // one with a static ability that only adds to others (the Warcaller's "+1/+1 for each")
    // or touches no permanent (Bruvac's) entering. A fragile one (the War-Leech, Jace)
    // entering ends it (and leaving: see below).
    // Mutations caught: sturdy creatures watched again (the quiet kept), any creature taken as
    // sturdy (the Leech, Jace).
    #[test]
    fn a_sturdy_creature_coming_or_going_keeps_a_quiet_check() {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        g.add_cards(0, ZoneKind::Library, &["Island"; 5], Position::Top, db).unwrap();
        let names = ["Grizzly Bears", "Ornithopter", "Joraga Warcaller", "Bruvac the Grandiloquent", "Monstrous War-Leech", "Jace, Wielder of Mysteries"];
        let cards = g.add_cards(0, ZoneKind::Hand, &names, Position::Top, db).unwrap();
        let quiet = |g: &mut Game| {
            while g.check_state_based_actions() {}
            assert!(g.sba_quiet);
        };
        let mut entered = Vec::new();
        for (card, pos) in [(cards[0], Position::Top), (cards[1], Position::Bottom), (cards[2], Position::Top), (cards[3], Position::Bottom)] {
            quiet(&mut g);
            entered.push(g.move_slot(card.slot(), ZoneKind::Battlefield, pos));
            assert!(g.sba_quiet && !g.clone().perform_state_based_actions(), "{}", g.def_of_slot(card.slot()).name);
        }
        g.move_slot(entered[0].slot(), ZoneKind::Graveyard, Position::Top); // the Bears
        assert!(g.sba_quiet && !g.clone().perform_state_based_actions());
        for card in &cards[4..] {
            quiet(&mut g);
            g.move_slot(card.slot(), ZoneKind::Battlefield, Position::Top);
            assert!(!g.sba_quiet, "{}", g.def_of_slot(card.slot()).name);
        }
    }

    // CR 704.5a, 704.5i, 704.5q: life lost down to 1, life gained, loyalty added and +1/+1
    // counters on a permanent without -1/-1 counters make no state-based action apply: a quiet
    // check stays quiet. Life down to 0, a -1/-1 counter, a +1/+1 counter where a -1/-1 one
    // is, other counters, and loyalty removed end it.
    // Mutations caught: any life change kept quiet; +1/+1 counters kept quiet beside -1/-1.
    #[test]
    fn only_changes_that_could_make_a_check_apply_end_a_quiet_spell() {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        let [bears, giant, jace]: [ObjId; 3] =
            g.add_cards(0, ZoneKind::Battlefield, &["Grizzly Bears", "Hill Giant", "Jace, Wielder of Mysteries"], Position::Top, db).unwrap().try_into().unwrap();
        g.put_counters(jace.slot(), "loyalty", 3).unwrap();
        let quiet = |g: &mut Game| {
            while g.check_state_based_actions() {}
            assert!(g.sba_quiet);
        };
        let kept = |g: &mut Game, change: &dyn Fn(&mut Game)| {
            quiet(g);
            change(g);
            assert!(g.sba_quiet && !g.clone().perform_state_based_actions());
        };
        kept(&mut g, &|g| g.change_life(0, -19));
        kept(&mut g, &|g| g.change_life(0, 5));
        kept(&mut g, &|g| g.put_counters(jace.slot(), "loyalty", 1).unwrap());
        kept(&mut g, &|g| g.put_counters(bears.slot(), "+1/+1", 2).unwrap());
        let ended = |g: &mut Game, change: &dyn Fn(&mut Game)| {
            quiet(g);
            change(g);
            assert!(!g.sba_quiet);
        };
        // The Giant's -1/-1 counter stays (3/3 becomes 2/2): the +1/+1 counter put beside it
        // annihilates with it.
        ended(&mut g, &|g| g.put_counters(giant.slot(), "-1/-1", 1).unwrap());
        ended(&mut g, &|g| g.put_counters(giant.slot(), "+1/+1", 1).unwrap());
        ended(&mut g, &|g| g.put_counters(bears.slot(), "charge", 1).unwrap());
        ended(&mut g, &|g| g.remove_counters_from(jace.slot(), "loyalty", 1).unwrap());
        ended(&mut g, &|g| g.change_life(1, -20));
        assert!(g.check_state_based_actions() && g.is_over());
    }

    // Changes that no card of the pool can yet show mattering still end a quiet spell: a card
    // entering a graveyard (first, last, or milled) while a creature's toughness counts one
    // (today's only such count, the Leech's, can only rise), and a permanent with a static
    // ability adding to others' power and toughness leaving (the Warcaller's bonus goes with
    // it). Cards going to a graveyard with no such creature around keep it, and so does a
    // permanent whose static ability touches no permanent (Bruvac) leaving.
    #[test]
    fn zone_changes_that_could_matter_end_a_quiet_spell() {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        g.add_cards(0, ZoneKind::Library, &["Island"; 5], Position::Top, db).unwrap();
        let hand = g.add_cards(0, ZoneKind::Hand, &["Lórien Revealed"; 3], Position::Top, db).unwrap();
        let quiet = |g: &mut Game| {
            while g.check_state_based_actions() {}
            assert!(g.sba_quiet);
        };
        quiet(&mut g);
        g.move_slot(hand[0].slot(), ZoneKind::Graveyard, Position::Top);
        g.mill_top(0, 1, false);
        assert!(g.sba_quiet);
        let leech = g.add_cards(0, ZoneKind::Battlefield, &["Monstrous War-Leech"], Position::Top, db).unwrap()[0].slot();
        for pos in [Position::Top, Position::Bottom] {
            quiet(&mut g);
            g.move_slot(hand[pos as usize + 1].slot(), ZoneKind::Graveyard, pos);
            assert!(!g.sba_quiet);
        }
        quiet(&mut g);
        g.mill_top(0, 1, false);
        assert!(!g.sba_quiet);
        quiet(&mut g);
        g.add_cards(0, ZoneKind::Graveyard, &["Island"], Position::Top, db).unwrap();
        assert!(!g.sba_quiet);
        g.move_slot(leech, ZoneKind::Exile, Position::Top);
        let warcaller = g.add_cards(0, ZoneKind::Battlefield, &["Joraga Warcaller"], Position::Top, db).unwrap()[0].slot();
        quiet(&mut g);
        g.take_from_zone(warcaller);
        assert!(!g.sba_quiet);
        // A static ability touching no permanent (Bruvac's) goes with nothing they look at.
        let bruvac = g.add_cards(0, ZoneKind::Battlefield, &["Bruvac the Grandiloquent"], Position::Top, db).unwrap()[0].slot();
        quiet(&mut g);
        g.take_from_zone(bruvac);
        assert!(g.sba_quiet && !g.clone().perform_state_based_actions());
    }
}
