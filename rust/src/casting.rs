//! Casting spells (CR 601) and playing lands (CR 305, 116.2a).
//!
//! The caster's choices are gathered first — kicker (how many times, for each kicker ability),
//! X, targets (kicked-only targets only if kicked, CR 702.33g) — then the total cost is locked
//! in and paid, and only then does the card move to the stack and become cast (601.2i). A cast
//! that turns out illegal at any step is thus undone by dropping it: nothing had changed
//! (CR 733). Each choice not given up front is a decision for the caster.

use serde::{Deserialize, Serialize};

use crate::card::{CardDef, CardType};
use crate::cost::{cannot_pay, total_cost};
use crate::decision::{Answer, Choice, Decision, Purpose};
use crate::error::{illegal, invalid, Error, Result};
use crate::event::Event;
use crate::game::{Game, Progress};
use crate::mana::ManaSymbol;
use crate::object::{CastInfo, ObjId};
use crate::payment::{max_affordable, solve, solve_with, CostToPay, Payment};
use crate::process::{Frame, Step};
use crate::rules::{KickedRequirement, Kicker};
use crate::stack::StackItem;
use crate::target::TargetRef;
use crate::zone::{Position, ZoneKind};

/// The most times a multikicker may be announced, and the largest X offered.
pub(crate) const MAX_ANNOUNCED: u32 = 64;

/// Choices made up front; any left `None` becomes a decision for the caster.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CastOptions {
    /// Times to pay each kicker ability: the printed ones in order (\[A\], \[B\]), then any granted
    /// (sticker kicker). 0 or 1 for an ordinary kicker; any number for multikicker.
    pub kicks: Option<Vec<u32>>,
    /// The value announced for X (CR 601.2b, 107.3a); only a cost with X may take more than 0.
    pub x: Option<u32>,
    /// The chosen targets for each "target" of the spell, in order.
    pub targets: Option<Vec<Vec<TargetRef>>>,
    /// The mana sources to tap (explicit payment); automatic if `None`.
    pub payment: Option<Vec<ObjId>>,
    /// Cast without paying its mana cost (additional costs such as kicker may still be paid).
    pub without_paying: bool,
    /// Cast from the graveyard with flashback, paying the flashback cost (CR 702.34).
    pub flashback: bool,
    /// Put a sticker on the spell if sticker kicker is paid (CR 702.33h): one for each sticker
    /// kicker paid, as each gives its own ticket counter and "you may put a sticker".
    pub sticker: Option<bool>,
    /// The modes to choose, by index (CR 700.2).
    pub modes: Option<Vec<u32>>,
    /// The card to discard for an additional "discard a card" cost (CR 601.2b).
    pub discard: Option<ObjId>,
}

/// Which cost the spell is cast for (CR 601.2b, 118.9): read from its card when needed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum BaseCost {
    ManaCost,
    Flashback,
    /// "Without paying its mana cost".
    Free,
}

impl BaseCost {
    /// CR 202.1b, 118.6: a card with no mana cost (not even {0}) can't be cast by paying it;
    /// only an alternative cost (flashback, "without paying its mana cost") casts it.
    /// Inlined (on every cast), its error made apart.
    #[inline(always)]
    fn check_payable(self, def: &crate::card::CardDef) -> Result<()> {
        if matches!(self, BaseCost::ManaCost) && def.mana_cost.is_empty() {
            return Err(no_mana_cost(def));
        }
        Ok(())
    }

    fn symbols(self, def: &crate::card::CardDef) -> &[ManaSymbol] {
        match self {
            BaseCost::ManaCost => def.mana_cost.symbols(),
            BaseCost::Flashback => def.rules.flashback.as_ref().map_or(&[], |c| c.symbols()),
            BaseCost::Free => &[],
        }
    }
}

/// Why a card with no mana cost can't be cast by paying it (see `BaseCost::check_payable`).
#[cold]
fn no_mana_cost(def: &CardDef) -> Error {
    Error::CannotPay(format!("{} has no mana cost, which is an unpayable cost (CR 202.1b, 118.6): it can be cast only without paying its mana cost", def.name))
}

/// Checks how many times each kicker ability is to be paid: no more numbers than the spell
/// has kicker abilities, each non-multikicker paid at most once (CR 702.33c), each count in
/// range. Shared by the cast and [`Game::cost_of`], so a price is quoted only for a legal cast.
fn check_kicks<'a>(name: &str, kickers: impl Iterator<Item = &'a Kicker>, count: usize, kicks: &[u32]) -> Result<()> {
    if kicks.len() > count {
        return Err(invalid(format!("{name} has {count} kicker abilit{} here, not {}", if count == 1 { "y" } else { "ies" }, kicks.len())));
    }
    for (i, (&n, kicker)) in kicks.iter().zip(kickers).enumerate() {
        if n > 1 && !kicker.multi {
            return Err(invalid(format!("kicker {i} can be paid at most once (only multikicker repeats, CR 702.33c)")));
        }
        if n > MAX_ANNOUNCED {
            return Err(invalid(format!("{n} kicks is out of range (at most {MAX_ANNOUNCED})")));
        }
    }
    Ok(())
}

/// The printed cost with spree modes' costs added: each is an additional cost (CR 702.172a),
/// part of the total that increases and reductions apply to (CR 601.2f). Borrowed when no mode
/// adds anything.
fn with_mode_costs<'a>(printed: &'a [ManaSymbol], modes: impl Iterator<Item = &'a crate::mana::ManaCost>) -> std::borrow::Cow<'a, [ManaSymbol]> {
    let mut modes = modes.peekable();
    if modes.peek().is_none() {
        return std::borrow::Cow::Borrowed(printed);
    }
    std::borrow::Cow::Owned(printed.iter().chain(modes.flat_map(|c| c.symbols())).copied().collect())
}

/// A spree spell needs at least one mode, and so its additional cost: the cheapest
/// (CR 702.172a). `None` for any other spell.
fn cheapest_spree_mode(def: &CardDef) -> Option<&crate::mana::ManaCost> {
    let spree = def.rules.choose.is_some_and(|[min, _]| min > 0) && def.rules.modes.iter().all(|m| m.cost.is_some());
    def.rules.modes.iter().filter_map(|m| m.cost.as_ref()).filter(|_| spree).min_by_key(|c| c.mana_value())
}

/// What casting the card by its mana cost costs with nothing added or changed — no kicks, X
/// as 0, no cost increase or reduction (CR 601.2f) — which is what [`Game::total_cost_of`]
/// gives when no static ability changes it; worked out once per definition. `None` for a card
/// with no mana cost, which can't be cast by paying it (CR 118.6).
pub(crate) fn plain_total_cost(def: &CardDef) -> Option<crate::payment::Symbols> {
    BaseCost::ManaCost.check_payable(def).ok()?;
    Some(total_cost(&with_mode_costs(def.mana_cost.symbols(), cheapest_spree_mode(def).into_iter()), std::iter::empty(), &[], 0, 0, 0))
}

/// Why an automatic payment fails.
const NOT_ENOUGH_MANA: &str = "not enough untapped mana sources and mana in the pool";

/// Where a cast's step stops: done (`None`), waiting for the answer to a decision, or failed.
pub(crate) type Advance = Result<Option<Decision>>;

/// Why paying stopped short.
enum PayStop {
    Fail(Error),
    /// The player pays by hand: which of these sources to tap.
    Ask(Vec<ObjId>),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Stage {
    Modes,
    Kicker(usize),
    X,
    Targets(usize),
    /// The card to discard for an additional cost (CR 601.2b; paid at 601.2h).
    Discard,
    Pay,
    Sticker,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct CastProc {
    caster: u8,
    card: ObjId,
    /// The card's definition index: its printed kicker abilities come first ...
    def: u32,
    printed_kickers: usize,
    /// ... then kicker abilities other objects grant it (sticker kicker).
    granted: Vec<Kicker>,
    /// Inline: a spell has a kicker or two, and a cast pays them without allocating.
    kicks: smallvec::SmallVec<[u32; 2]>,
    /// Chosen modes as bits.
    modes: u16,
    x: u32,
    targets: Vec<Vec<TargetRef>>,
    base: BaseCost,
    /// Whether the base cost (mana cost or alternative cost) holds an {X}.
    has_x: bool,
    increase: u32,
    reduction: u32,
    opts: CastOptions,
    stage: Stage,
    /// Waiting for the answer to the decision of `stage`.
    asked: bool,
    /// The spell once it is on the stack.
    spell: Option<ObjId>,
    /// The card to discard for an additional cost.
    #[serde(default)]
    discard: crate::actions::discard::DiscardCost,
    /// How many answers the game had recorded when the cast began: a cancelled cast takes
    /// its own back out of the record (nothing happened, CR 733).
    #[serde(default)]
    history_len: usize,
}

impl Game {
    /// The player with priority casts `card` (CR 601.2). Returns the spell on the stack, or
    /// `Paused` at a decision; an illegal cast changes nothing.
    pub fn cast(&mut self, card: ObjId, opts: CastOptions) -> Result<Progress> {
        self.ensure_idle()?;
        let frame = Frame::Cast(Box::new(self.cast_proc(card, opts)?));
        self.perform(frame)
    }

    /// Checks that the cast may begin (CR 601.3) and sets it up; nothing changes yet.
    /// Inlined: a priority action's cast (`PriorityProc::cast_over`, most casts) gives the
    /// default options but flashback, whose checks then fold away, and the cast is built
    /// where it is then worked on.
    #[inline(always)]
    pub(crate) fn cast_proc(&self, card: ObjId, opts: CastOptions) -> Result<CastProc> {
        let caster = self.priority.ok_or_else(|| illegal("nobody has priority, so no spell can be cast now (CR 117)"))?;
        let slot = self.slot_of(card)?;
        let o = self.objects[slot as usize];
        let def = &self.defs[o.def as usize];
        let from = if opts.flashback { ZoneKind::Graveyard } else { ZoneKind::Hand };
        // A permission ("you may cast ... from your graveyard") lets a graveyard card be cast
        // for its mana cost (CR 601.2a).
        let permitted = !opts.flashback && o.zone.kind == ZoneKind::Graveyard && o.owner == caster && self.may_cast_from_graveyard(caster, def);
        if (o.zone.kind != from || o.owner != caster) && !permitted {
            let what = if opts.flashback { "graveyard" } else { "hand" };
            return Err(illegal(format!("player {caster} has priority and can cast only from their own {what}; {} is in {}", def.name, o.zone)));
        }
        refuse_land(def)?;
        let fast = def.is(CardType::Instant) || def.rules.flash;
        let sorcery_timing = self.step.is_main() && self.active == caster && self.stack.is_empty();
        if !fast && !sorcery_timing {
            return Err(illegal(format!(
                "{} can be cast only in its controller's main phase with an empty stack (CR 307.1); now: {} of player {}'s turn, {} on the stack",
                def.name,
                self.step.name(),
                self.active,
                self.stack.len()
            )));
        }
        if let Some(x) = opts.x {
            crate::game::check_count(i64::from(x), "X")?;
        }
        if opts.without_paying && opts.flashback {
            return Err(illegal("flashback and \"without paying its mana cost\" are both alternative costs; a spell can use only one (CR 118.9a, 601.2b)"));
        }
        let base = if opts.without_paying {
            BaseCost::Free
        } else if opts.flashback {
            if def.rules.flashback.is_none() {
                return Err(illegal(format!("{} has no flashback", def.name)));
            }
            BaseCost::Flashback
        } else {
            BaseCost::ManaCost
        };
        base.check_payable(def)?;
        // (A match on the variant: `contains` compares whole symbols, through a call.)
        let has_x = base.symbols(def).iter().any(|s| matches!(s, ManaSymbol::X));
        let (granted, increase, reduction) = self.spell_cost_statics(caster, def);
        let printed_kickers = def.rules.kicker.len();
        let kicker_count = printed_kickers + granted.len();
        if let Some(k) = &opts.kicks {
            check_kicks(&def.name, def.rules.kicker.iter().chain(&granted), kicker_count, k)?;
        }
        if opts.x.is_some_and(|x| x > 0) && !has_x {
            // X may be in a kicker cost ("Kicker {X}"): then it is announced if that kicker is
            // paid (CR 601.2b), which may still be asked.
            let x_kickers: Vec<bool> = def.rules.kicker.iter().chain(&granted).map(|k| k.cost.symbols().contains(&ManaSymbol::X)).collect();
            let x_kick_paid = opts.kicks.as_ref().map(|k| k.iter().zip(&x_kickers).any(|(&n, &x)| x && n > 0));
            if opts.without_paying && !x_kickers.contains(&true) {
                return Err(invalid("X is 0 for a spell cast without paying its mana cost (CR 107.3b)"));
            }
            if !x_kickers.contains(&true) {
                return Err(invalid(format!("{} has no X in its cost", def.name)));
            }
            if x_kick_paid == Some(false) {
                return Err(invalid(format!("the X of {} is in its kicker cost, which isn't paid, so X is 0 (CR 601.2b)", def.name)));
            }
        }
        if let Some(t) = &opts.targets {
            if t.len() > def.rules.targets.len() {
                return Err(invalid(format!("{} has {} target(s), not {}", def.name, def.rules.targets.len(), t.len())));
            }
        }
        // A choice the spell doesn't offer is a mistake to report, not to drop.
        if opts.modes.is_some() && def.rules.modes.is_empty() {
            return Err(invalid(format!("{} has no modes to choose (CR 700.2)", def.name)));
        }
        if opts.discard.is_some() && def.rules.additional_discard.is_none() {
            return Err(invalid(format!("{} has no additional cost to discard a card", def.name)));
        }
        if opts.sticker == Some(true) {
            let sticker_kickers: Vec<bool> = def.rules.kicker.iter().chain(&granted).map(|k| k.sticker).collect();
            let kicked = opts.kicks.as_ref().map(|k| k.iter().zip(&sticker_kickers).any(|(&n, &s)| s && n > 0));
            if !sticker_kickers.contains(&true) || kicked == Some(false) {
                return Err(invalid(format!("a sticker goes only on a spell whose sticker kicker is paid (CR 702.33h); {} is cast without one", def.name)));
            }
        }
        // Nothing to announce: the stages that would find so are skipped.
        let stage = if def.no_announcements && !has_x && granted.is_empty() { Stage::Pay } else { Stage::Modes };
        let proc = CastProc {
            caster,
            card,
            def: o.def,
            printed_kickers,
            granted,
            kicks: smallvec::SmallVec::new(),
            modes: 0,
            x: 0,
            targets: Vec::new(),
            base,
            has_x,
            increase,
            reduction,
            opts,
            stage,
            asked: false,
            spell: None,
            history_len: self.history.len(),
            discard: Default::default(),
        };
        Ok(proc)
    }

    /// The active player plays a land from their hand (CR 305.1): a special action, once per
    /// turn, in their main phase with an empty stack (305.2, 116.2a). Returns the new
    /// permanent. Putting a land onto the battlefield by an effect is not playing it.
    pub fn play_land(&mut self, card: ObjId) -> Result<ObjId> {
        self.ensure_idle()?;
        self.undoable(|g| {
            let new = g.play_land_inner(card)?;
            g.check_state_based_actions();
            g.settle()?; // its triggers go on the stack before priority (CR 116.3, 117.5)
            Ok(new)
        })
    }

    pub(crate) fn play_land_inner(&mut self, card: ObjId) -> Result<ObjId> {
        let (p, slot) = self.playable_land(card)?;
        Ok(self.land_played(p, slot))
    }

    /// The player with priority and the slot of `card`, if they may play it as their land now
    /// (CR 305.1, 305.2, 116.2a); the error saying why not otherwise.
    pub(crate) fn playable_land(&self, card: ObjId) -> Result<(u8, u32)> {
        let p = self.priority.ok_or_else(|| illegal("nobody has priority now"))?;
        let slot = self.slot_of(card)?;
        let o = self.objects[slot as usize];
        let name = &self.def_of_slot(slot).name;
        if o.zone.kind != ZoneKind::Hand || o.owner != p {
            return Err(illegal(format!("player {p} can play only a land from their own hand; {name} is in {}", o.zone)));
        }
        if !self.def_of_slot(slot).is(CardType::Land) {
            return Err(illegal(format!("{name} is not a land")));
        }
        if !(self.step.is_main() && self.active == p && self.stack.is_empty()) {
            return Err(illegal("a land can be played only in its owner's main phase with an empty stack (CR 305.2, 116.2a)"));
        }
        if self.lands_played >= 1 {
            return Err(illegal(format!("player {p} has already played a land this turn (CR 305.2)")));
        }
        Ok((p, slot))
    }

    /// `p` plays the land in `slot`, which [`Game::playable_land`] found they may play now:
    /// it enters the battlefield, and counts as their land this turn. Returns the new
    /// permanent. Out of line, as the whole play was: the goldfish's play calls it directly.
    #[inline(never)]
    pub(crate) fn land_played(&mut self, p: u8, slot: u32) -> ObjId {
        let new = self.move_slot_inline(slot, ZoneKind::Battlefield, Position::Top);
        self.entered_battlefield(slot);
        self.lands_played += 1;
        self.players[p as usize].stats.lands += 1;
        self.passes = 0;
        self.log.push_with(|| Event::LandPlayed { player: p, card: new });
        new
    }

    /// Cancels a cast or an activation that is waiting for one of its decisions: nothing
    /// happened (CR 733). (An activation changes nothing until its costs are paid, all at
    /// once, at its end.)
    pub fn cancel(&mut self) -> Result<()> {
        let cast = self.frames.iter().find_map(|f| match f {
            Frame::Cast(p) if p.spell.is_none() => Some(p.history_len),
            Frame::Activate(a) => Some(a.history_len),
            _ => None,
        });
        let Some(mut history_len) = cast.filter(|_| self.pending.is_some()) else {
            return Err(illegal("no cast or activation is waiting for a decision, so there is nothing to cancel"));
        };
        // Chosen as a priority action: that choice is undone too (the player still has
        // priority), so a replay of the record never meets it.
        if let Some(before) = self.frames.iter().find_map(|f| if let Frame::Priority(p) = f { p.answers_before_running() } else { None }) {
            history_len = history_len.min(before);
            self.actions_taken = self.actions_taken.saturating_sub(1); // it was counted as it began
        }
        if self.history.len() > history_len {
            std::sync::Arc::make_mut(&mut self.history).truncate(history_len);
        }
        self.frames.clear();
        self.pending = None;
        self.partial.clear();
        self.answer = None;
        self.output.clear();
        Ok(())
    }
}

impl CastProc {
    /// The player casting the spell.
    pub(crate) fn caster(&self) -> u8 {
        self.caster
    }

    /// Frees what the cast holds, where it was worked on and kept from being dropped: most
    /// casts end holding no allocation, and the drop's walk over its lists costs more than the
    /// test.
    #[inline(always)]
    pub(crate) fn release(&mut self) {
        if !self.unallocated() {
            self.free();
        }
    }

    /// Whether the cast holds no allocation, so that dropping it would free nothing. Each field
    /// is named, so that a new one must be weighed here and in [`CastProc::free`].
    #[inline(always)]
    fn unallocated(&self) -> bool {
        let CastProc {
            caster: _,
            card: _,
            def: _,
            printed_kickers: _,
            granted,
            kicks,
            modes: _,
            x: _,
            targets,
            base: _,
            has_x: _,
            increase: _,
            reduction: _,
            opts,
            stage: _,
            asked: _,
            spell: _,
            discard: _,
            history_len: _,
        } = self;
        let CastOptions { kicks: given_kicks, x: _, targets: given_targets, payment, without_paying: _, flashback: _, sticker: _, modes, discard: _ } = opts;
        fn capacity<T>(v: &Option<Vec<T>>) -> usize {
            v.as_ref().map_or(0, Vec::capacity)
        }
        // (The capacities or-ed: one test rather than a branch for each.)
        let capacities = granted.capacity() | targets.capacity() | capacity(given_kicks) | capacity(given_targets) | capacity(payment) | capacity(modes);
        capacities == 0 && !kicks.spilled()
    }

    /// Frees what the cast holds, in place (moved out whole to be dropped, it would be copied
    /// first): afterwards it holds no allocation.
    #[inline(never)]
    fn free(&mut self) {
        self.granted = Vec::new();
        self.kicks = smallvec::SmallVec::new();
        self.targets = Vec::new();
        self.opts = CastOptions::default();
    }

    /// The card's name and the cost of kicker ability `i`, for describing the choice.
    pub(crate) fn kicker_description(&self, g: &Game, i: usize) -> (String, String) {
        let name = g.defs[self.def as usize].name.to_string();
        let cost = self.kicker(g, i).map_or_else(|| "its kicker cost".to_string(), |k| k.cost.to_string());
        (name, cost)
    }

    /// Kicker ability `i`: printed ones first, then granted ones.
    fn kicker<'a>(&'a self, g: &'a Game, i: usize) -> Option<&'a Kicker> {
        g.defs[self.def as usize].rules.kicker.get(i).or_else(|| self.granted.get(i - self.printed_kickers.min(i)))
    }

    fn kicker_count(&self) -> usize {
        self.printed_kickers + self.granted.len()
    }

    /// How many {X} the total cost holds with the kicks announced: the base cost's, and each
    /// paid kicker's once per payment ("Kicker {X}", CR 107.3, 601.2b).
    fn x_symbols(&self, g: &Game) -> u32 {
        let count = |symbols: &[ManaSymbol]| symbols.iter().filter(|&&s| s == ManaSymbol::X).count() as u32;
        let base = if self.has_x { count(self.base.symbols(&g.defs[self.def as usize])) } else { 0 };
        base + (0..self.kicker_count()).zip(&self.kicks).map(|(i, &n)| n * self.kicker(g, i).map_or(0, |k| count(k.cost.symbols()))).sum::<u32>()
    }

    /// Cast for its mana cost with no modes, no kicks, X as 0 and no increase or reduction:
    /// nothing is added or changed (CR 601.2f), so the total is the definition's plain cost.
    fn plain(&self, def: &CardDef, kicks: &[u32], x: u32) -> bool {
        self.base == BaseCost::ManaCost && def.rules.modes.is_empty() && x == 0 && self.increase == 0 && self.reduction == 0 && kicks.iter().all(|&n| n == 0)
    }

    fn cost_to_pay(&self, g: &Game, kicks: &[u32], x: u32) -> CostToPay {
        let def = &g.defs[self.def as usize];
        let life_available = g.players[self.caster as usize].life as i64;
        if self.plain(def, kicks, x) {
            if let Some(symbols) = &def.plain_cost {
                return CostToPay { symbols: crate::payment::Symbols::from_slice(symbols), x: 0, life_available };
            }
        }
        let kickers = def.rules.kicker.iter().chain(&self.granted);
        let chosen = def.rules.modes.iter().enumerate().filter(|(m, _)| self.modes & (1 << m) != 0).filter_map(|(_, mode)| mode.cost.as_ref());
        let base = with_mode_costs(self.base.symbols(def), chosen);
        let symbols = total_cost(&base, kickers, kicks, x, self.increase, self.reduction);
        CostToPay { symbols, x: 0, life_available }
    }

    /// See [`Frame::check_stored`]: the card and its definition exist, and what has been
    /// announced — kicks, then targets, one per ability in order — is what the stage reached.
    pub(crate) fn check_stored(&self, c: &crate::process::Stored) -> std::result::Result<(), String> {
        c.player(self.caster)?;
        c.objects(std::iter::once(&self.card).chain(&self.spell))?;
        c.ensure(self.spell.is_some() || c.g.live_slot(self.card).is_some(), || format!("casts object {}, which has left its zone", self.card.0))?;
        c.def(self.def)?;
        let rules = &c.g.defs[self.def as usize].rules;
        let printed = rules.kicker.len();
        c.ensure(self.printed_kickers == printed, || format!("counts {} printed kickers, and its card has {printed}", self.printed_kickers))?;
        let (kickers, targets) = (self.kicker_count(), rules.targets.len());
        let (kicks, chosen) = match self.stage {
            Stage::Modes => (0, 0),
            Stage::Kicker(i) => (i, 0),
            Stage::X => (kickers, 0),
            Stage::Targets(i) => (kickers, i),
            Stage::Discard | Stage::Pay | Stage::Sticker => (kickers, targets),
        };
        let consistent = kicks <= kickers && self.kicks.len() == kicks && chosen <= targets && (self.targets.len() == chosen || self.spell.is_some());
        c.ensure(consistent, || format!("is at {:?} with {} kicks of {kickers} kickers and {} of {targets} targets", self.stage, self.kicks.len(), self.targets.len()))?;
        self.discard.check_stored(c, self.stage == Stage::Discard)?;
        let discarding = self.discard.waiting();
        c.waits(self.asked || discarding, |choice| match (self.stage, choice) {
            _ if discarding => !self.asked && matches!(choice, Choice::Cards { .. }),
            (Stage::Modes, Choice::Modes { .. }) | (Stage::Kicker(_), Choice::YesNo | Choice::Number { .. }) | (Stage::X, Choice::Number { .. }) => true,
            (Stage::Targets(_), Choice::Targets { .. }) | (Stage::Pay, Choice::Cards { .. }) | (Stage::Sticker, Choice::YesNo) => true,
            _ => false,
        })
    }

    fn ask(&mut self, purpose: Purpose, choice: Choice) -> Advance {
        self.asked = true;
        Ok(Some(Decision { player: self.caster, purpose, choice }))
    }

    pub(crate) fn step(mut self: Box<Self>, g: &mut Game) -> Step {
        match self.advance(g) {
            Ok(None) => Step::Done,
            Ok(Some(d)) => Step::Ask(Frame::Cast(self), d),
            Err(e) => Step::Fail(e),
        }
    }

    /// Goes on with the cast until it is done, waits for the answer to a decision, or fails:
    /// what [`CastProc::step`] does, for a cast not yet boxed into a frame.
    pub(crate) fn advance(&mut self, g: &mut Game) -> Advance {
        loop {
            match self.stage {
                // CR 601.2b: the modes come first.
                Stage::Modes => {
                    let rules = &g.defs[self.def as usize].rules;
                    let count = rules.modes.len() as u32;
                    if count == 0 {
                        self.stage = Stage::Kicker(0);
                        continue;
                    }
                    let [min, max] = rules.choose.unwrap_or([1, 1]);
                    let chosen: Vec<u32> = if self.asked {
                        self.asked = false;
                        let Answer::Modes { modes } = g.take_answer() else { unreachable!("validated") };
                        modes
                    } else if let Some(m) = self.opts.modes.clone() {
                        let d = Decision { player: self.caster, purpose: Purpose::Modes, choice: Choice::Modes { count, min, max: max.min(count) } };
                        d.validate(&Answer::Modes { modes: m.clone() })?;
                        m
                    } else {
                        return self.ask(Purpose::Modes, Choice::Modes { count, min, max: max.min(count) });
                    };
                    self.modes = chosen.iter().fold(0, |bits, &m| bits | (1 << m));
                    self.stage = Stage::Kicker(0);
                }
                // CR 601.2b: announce the kicker costs to pay.
                Stage::Kicker(i) if i >= self.kicker_count() => self.stage = Stage::X,
                Stage::Kicker(i) => {
                    if self.asked {
                        self.asked = false;
                        let n = match g.take_answer() {
                            Answer::YesNo { yes } => yes as u32,
                            Answer::Number { n } => n,
                            _ => unreachable!("validated"),
                        };
                        self.kicks.push(n);
                        self.stage = Stage::Kicker(i + 1);
                        continue;
                    }
                    if i == 0 {
                        if let Some(mut given) = self.opts.kicks.take() {
                            given.resize(self.kicker_count(), 0);
                            self.kicks = given.into();
                            self.stage = Stage::X;
                            continue;
                        }
                    }
                    // Offer only what can be paid along with what is already announced.
                    // The game's reused buffer: listing the sources allocates nothing. For one
                    // kick they are listed only when counting them can't decide.
                    let mut sources = std::mem::take(&mut g.source_buf);
                    sources.clear();
                    let kicker = self.kicker(g, i).expect("i < kicker_count");
                    let multi = kicker.multi;
                    let cap = if multi { MAX_ANNOUNCED } else { 1 };
                    let pool = &g.players[self.caster as usize].pool;
                    let mut max = if multi {
                        let base = self.cost_to_pay(g, &self.kicks, 0);
                        // Counted (the supply found as `max_affordable` would count it, without
                        // listing the sources) where counting decides it.
                        let (total, by_type) = g.count_supply(self.caster, None);
                        by_type.and_then(|have| crate::payment::max_affordable_counted(&base, kicker.cost.symbols(), total, &have, cap)).unwrap_or_else(|| {
                            g.fill_mana_sources(self.caster, &mut sources);
                            max_affordable(&base, kicker.cost.symbols(), pool, &sources, cap)
                        })
                    } else {
                        // Paid once at most: `max_affordable` answers 1 exactly when the cost with
                        // the kick can be paid (which needs the cost without it payable, and as
                        // much mana or life as the kick takes), so only that is asked. With
                        // nothing announced yet changing the cost, it is the card's plain cost,
                        // counted with its definition: the kick's count is added to that.
                        let def = &g.defs[self.def as usize];
                        let counted = match (self.plain(def, &self.kicks, 0), def.plain_needs, crate::payment::simple_needs(kicker.cost.symbols(), 0)) {
                            (true, Some((need, generic)), Some((kick, kick_generic))) => {
                                g.count_supply(self.caster, None).1.map(|have| crate::payment::fits(&std::array::from_fn(|t| need[t] + kick[t]), generic + kick_generic, &have))
                            }
                            _ => None,
                        };
                        let payable = counted.unwrap_or_else(|| {
                            let mut base = self.cost_to_pay(g, &self.kicks, 0);
                            base.symbols.extend_from_slice(kicker.cost.symbols());
                            g.mana_payable_counted(self.caster, &base.symbols, base.x, None).unwrap_or_else(|| {
                                g.fill_mana_sources(self.caster, &mut sources);
                                crate::payment::can_pay(&base, pool, sources.iter().cloned())
                            })
                        });
                        u32::from(payable)
                    };
                    if self.reduction > 0 {
                        if sources.is_empty() {
                            g.fill_mana_sources(self.caster, &mut sources);
                        }
                        // What of a reduction the rest of the cost's generic part can't use
                        // reduces the kicker's (CR 601.2f): count on while the total is payable.
                        let mut kicks = self.kicks.clone();
                        kicks.push(0);
                        while max < cap {
                            kicks[i] = max + 1;
                            if crate::payment::solve(&self.cost_to_pay(g, &kicks, 0), pool, &sources).is_none() {
                                break;
                            }
                            max += 1;
                        }
                    }
                    g.source_buf = sources;
                    let index = i as u8;
                    if max == 0 {
                        self.kicks.push(0);
                        self.stage = Stage::Kicker(i + 1);
                        continue;
                    }
                    let (purpose, choice) = if multi { (Purpose::Multikicker { index }, Choice::Number { min: 0, max }) } else { (Purpose::Kicker { index }, Choice::YesNo) };
                    match g.goldfish_answer_at_once(Decision { player: self.caster, purpose, choice }) {
                        // Taken as the answer to the question asked is taken, above.
                        Ok(Answer::YesNo { yes }) => self.kicks.push(u32::from(yes)),
                        Ok(Answer::Number { n }) => self.kicks.push(n),
                        Ok(_) => unreachable!("a kick is answered yes or no, or with a number"),
                        Err(d) => return self.ask(d.purpose, d.choice),
                    }
                    self.stage = Stage::Kicker(i + 1);
                }
                // CR 601.2b: announce X.
                Stage::X => {
                    if self.asked {
                        self.asked = false;
                        let Answer::Number { n } = g.take_answer() else { unreachable!("validated") };
                        self.x = n;
                    } else if (!self.has_x && self.kicks.iter().all(|&n| n == 0)) || self.x_symbols(g) == 0 {
                        // (No X in the base cost and no kicker paid: no X to count.)
                        if self.opts.x.is_some_and(|x| x > 0) {
                            let name = &g.defs[self.def as usize].name;
                            return Err(invalid(format!("the X of {name} is in its kicker cost, which isn't paid, so X is 0 (CR 601.2b)")));
                        }
                        self.x = 0;
                    } else if let Some(x) = self.opts.x {
                        self.x = x;
                    } else {
                        let mut sources = std::mem::take(&mut g.source_buf);
                        g.fill_mana_sources(self.caster, &mut sources);
                        let pool = &g.players[self.caster as usize].pool;
                        let base = self.cost_to_pay(g, &self.kicks, 0);
                        // Each X in the total cost (the mana cost's, and a paid kicker's each time
                        // it is paid) adds X mana.
                        let per_x = [ManaSymbol::Generic(self.x_symbols(g))];
                        let mut max = max_affordable(&base, &per_x, pool, &sources, MAX_ANNOUNCED);
                        // As for kickers: a reduction's unused part reduces what X adds.
                        while self.reduction > 0 && max < MAX_ANNOUNCED && crate::payment::solve(&self.cost_to_pay(g, &self.kicks, max + 1), pool, &sources).is_some() {
                            max += 1;
                        }
                        g.source_buf = sources;
                        return self.ask(Purpose::ChooseX, Choice::Number { min: 0, max });
                    }
                    self.stage = Stage::Targets(0);
                }
                // CR 601.2c: choose targets; kicked-only targets only if kicked (702.33g).
                Stage::Targets(i) => {
                    if i >= g.defs[self.def as usize].rules.targets.len() {
                        self.stage = Stage::Discard;
                        continue;
                    }
                    let def = g.defs[self.def as usize].clone();
                    let spec = &def.rules.targets[i];
                    if self.asked {
                        self.asked = false;
                        let Answer::Targets { targets } = g.take_answer() else { unreachable!("validated") };
                        self.targets.push(targets);
                        self.stage = Stage::Targets(i + 1);
                        continue;
                    }
                    let kicked_enough = spec.required_unkicked()
                        || match spec.if_kicked {
                            Some(KickedRequirement::With(k)) => self.kicks.get(k).is_some_and(|&n| n > 0),
                            _ => self.kicks[..self.printed_kickers].iter().any(|&k| k > 0),
                        };
                    let mode_chosen = spec.mode.is_none_or(|m| self.modes & (1 << m) != 0);
                    if !(kicked_enough && mode_chosen) {
                        if self.opts.targets.as_ref().and_then(|t| t.get(i)).is_some_and(|t| !t.is_empty()) {
                            return Err(invalid(if !mode_chosen {
                                format!("target {i} of {} belongs to a mode that wasn't chosen (CR 700.2)", def.name)
                            } else {
                                format!(
                                    "target {i} of {} exists only if it is kicked{}, and it isn't (CR 702.33g)",
                                    def.name,
                                    match spec.if_kicked {
                                        Some(KickedRequirement::With(k)) => format!(" with kicker {}", (b'A' + k as u8) as char),
                                        _ => String::new(),
                                    }
                                )
                            }));
                        }
                        self.targets.push(Vec::new());
                        self.stage = Stage::Targets(i + 1);
                        continue;
                    }
                    let given = self.opts.targets.as_ref().and_then(|t| t.get(i));
                    let choice = match g.targets_or_choice(spec, self.caster, given.is_none()) {
                        Ok(Ok(targets)) => {
                            self.targets.push(targets);
                            self.stage = Stage::Targets(i + 1);
                            continue;
                        }
                        Ok(Err(c)) => c,
                        Err(n) => return Err(illegal(format!("{} needs {} legal target(s) for target {i} and there are {n} (CR 601.2c)", def.name, spec.count))),
                    };
                    let Some(given) = given else { return self.ask(Purpose::Targets { index: i as u8 }, choice) };
                    let d = Decision { player: self.caster, purpose: Purpose::Targets { index: i as u8 }, choice };
                    d.validate(&Answer::Targets { targets: given.clone() })?;
                    self.targets.push(given.clone());
                    self.stage = Stage::Targets(i + 1);
                }
                Stage::Discard => {
                    if g.defs[self.def as usize].rules.additional_discard.is_none() {
                        self.stage = Stage::Sticker;
                        continue;
                    }
                    let def = g.defs[self.def as usize].clone();
                    let filter = def.rules.additional_discard.as_ref().expect("checked above");
                    if let Some(d) = self.discard.step(g, self.caster, filter, self.card.slot(), self.opts.discard, &def.name)? {
                        return Ok(Some(d));
                    }
                    self.stage = Stage::Sticker;
                }
                // CR 601.2f–h: lock in the total cost and pay it.
                Stage::Pay => {
                    if !self.asked && self.opts.payment.is_none() && g.seats[self.caster as usize].auto_pay {
                        // Paid automatically (what `pay_outcome` finds then). A plain cost was
                        // counted by type with its definition, so its symbols aren't copied and
                        // counted again; any other (kicked, say) is counted from its total. Where
                        // counting decides the payment (as `solve` first tries), the sources
                        // aren't listed (most often), nor the payment built: it is paid as found.
                        let def = &g.defs[self.def as usize];
                        let worked_out = (!self.plain(def, &self.kicks, self.x)).then(|| self.cost_to_pay(g, &self.kicks, self.x));
                        let counted = match &worked_out {
                            None => def.plain_needs,
                            Some(cost) => crate::payment::simple_needs(&cost.symbols, cost.x),
                        };
                        let paid = match counted.and_then(|(need, generic)| g.pay_counted_in_place(self.caster, &need, generic)) {
                            Some(true) => return self.paid(g),
                            Some(false) => None,
                            None => {
                                let mut sources = std::mem::take(&mut g.source_buf);
                                g.fill_mana_sources(self.caster, &mut sources);
                                let cost = worked_out.unwrap_or_else(|| self.cost_to_pay(g, &self.kicks, self.x));
                                let paid = solve(&cost, &g.players[self.caster as usize].pool, &sources);
                                g.source_buf = sources;
                                paid
                            }
                        };
                        // By reference: a payment is large to move.
                        let Some(payment) = &paid else {
                            return Err(cannot_pay(&self.cost_to_pay(g, &self.kicks, self.x).symbols, NOT_ENOUGH_MANA));
                        };
                        return self.pay(g, payment);
                    }
                    let pool = g.players[self.caster as usize].pool;
                    let mut sources = std::mem::take(&mut g.source_buf);
                    g.fill_mana_sources(self.caster, &mut sources);
                    let cost = self.cost_to_pay(g, &self.kicks, self.x);
                    let outcome = self.pay_outcome(g, &cost, &pool, &sources);
                    // Worked out only when the player is asked (this is every cast's path).
                    let min = if matches!(outcome, Err(PayStop::Ask(_))) { crate::payment::fewest_sources(&cost, &pool, &sources) } else { 0 };
                    g.source_buf = sources;
                    // By reference: a payment is large to move.
                    let payment = match outcome {
                        Ok(ref p) => p,
                        Err(PayStop::Fail(e)) => return Err(e),
                        Err(PayStop::Ask(options)) => {
                            let max = options.len() as u32;
                            return self.ask(Purpose::PayMana, Choice::Cards { options, min, max });
                        }
                    };
                    return self.pay(g, payment);
                }
                // Whether to put a sticker on the spell, chosen with the other announcements
                // so that the whole cost is paid at once (CR 601.2h).
                Stage::Sticker => {
                    if self.asked {
                        self.asked = false;
                        let Answer::YesNo { yes } = g.take_answer() else { unreachable!("validated") };
                        self.opts.sticker = Some(yes);
                    } else if self.sticker_kicked(g) && self.opts.sticker.is_none() {
                        return self.ask(Purpose::Sticker, Choice::YesNo);
                    }
                    self.stage = Stage::Pay;
                }
            }
        }
    }

    /// Pays the total cost's mana with `payment` and finishes the cast.
    fn pay(&mut self, g: &mut Game, payment: &Payment) -> Advance {
        g.execute_payment(self.caster, payment);
        self.paid(g)
    }

    /// With the total cost's mana paid, pays the rest of it and finishes the cast.
    fn paid(&mut self, g: &mut Game) -> Advance {
        self.commit(g);
        // CR 702.33h: each sticker kicker paid imposes its own additional cost: a ticket
        // counter, and a sticker if the caster chose to put one.
        for _ in 0..self.sticker_kickers_paid(g) {
            g.give_player_counters(self.caster, "ticket", 1);
            self.put_sticker(g, self.opts.sticker == Some(true));
        }
        self.finish(g)
    }

    /// The payment: the caller's chosen sources, an explicit-payment decision, or automatic.
    fn pay_outcome(&mut self, g: &mut Game, cost: &CostToPay, pool: &crate::payment::ManaPool, sources: &[crate::payment::ManaSource]) -> std::result::Result<Payment, PayStop> {
        let chosen: Option<Vec<u64>> = if self.asked {
            self.asked = false;
            let Answer::Cards { cards } = g.take_answer() else { unreachable!("validated") };
            Some(cards.iter().map(|c| c.0).collect())
        } else {
            self.opts.payment.as_ref().map(|v| v.iter().map(|c| c.0).collect())
        };
        match chosen {
            Some(ids) => solve_with(cost, pool, sources, &ids).map_err(|why| PayStop::Fail(cannot_pay(&cost.symbols, &why))),
            // Auto-pay off: the player picks the sources — when some pick pays; an unpayable
            // cost fails now rather than asking a decision no answer satisfies.
            None if !g.seats[self.caster as usize].auto_pay && !sources.is_empty() && solve(cost, pool, sources).is_some() => {
                Err(PayStop::Ask(sources.iter().map(|s| ObjId(s.id)).collect()))
            }
            None => solve(cost, pool, sources).ok_or_else(|| PayStop::Fail(cannot_pay(&cost.symbols, NOT_ENOUGH_MANA))),
        }
    }

    fn sticker_kicked(&self, g: &Game) -> bool {
        self.sticker_kickers_paid(g) > 0
    }

    /// How many sticker kicker abilities (printed, or granted as by Wicker Picker) are paid.
    fn sticker_kickers_paid(&self, g: &Game) -> usize {
        self.kicks.iter().enumerate().filter(|&(i, &n)| n > 0 && self.kicker(g, i).is_some_and(|k| k.sticker)).count()
    }

    /// Checks a "pay_mana" answer before it is accepted: the chosen sources must pay the cost.
    pub(crate) fn check_payment(&self, g: &Game, cards: &[ObjId]) -> Result<()> {
        let cost = self.cost_to_pay(g, &self.kicks, self.x);
        let ids: Vec<u64> = cards.iter().map(|c| c.0).collect();
        solve_with(&cost, &g.players[self.caster as usize].pool, &g.mana_sources(self.caster), &ids)
            .map(|_| ())
            .map_err(|why| Error::InvalidAnswer { decision: "pay_mana".into(), reason: why })
    }

    /// The card moves to the stack with its choices, and the discard cost is paid.
    fn commit(&mut self, g: &mut Game) {
        let mut cast = CastInfo { x: self.x, flashback: self.opts.flashback, modes: self.modes, ..CastInfo::default() };
        for (i, &n) in self.kicks.iter().enumerate() {
            if i < self.printed_kickers.min(2) {
                cast.kicks[i] = n as u16;
            } else {
                cast.granted_kicks += n as u16;
            }
        }
        let spell = g.put_spell_on_stack(self.card.slot(), self.caster, cast, std::mem::take(&mut self.targets));
        self.spell = Some(spell);
        if let Some(d) = self.discard.card {
            g.discard_one(self.caster, d.slot(), Some(self.caster), false, self.discard.hidden, false);
        }
    }

    fn put_sticker(&self, g: &mut Game, yes: bool) {
        let Some(spell) = self.spell else { return };
        if yes {
            g.stickers.push((spell.slot(), "sticker".into()));
            let p = self.caster;
            g.log.push_with(|| Event::StickerPut { player: p, card: spell, sticker: "sticker".into() });
        }
    }

    /// CR 601.2i: the spell becomes cast; its caster gets priority.
    fn finish(&self, g: &mut Game) -> Advance {
        g.spell_became_cast(self.caster, self.spell.expect("committed"));
        Ok(None)
    }
}

impl Game {
    /// A priority action's cast of `card` whose card announces nothing (see
    /// `CardDef::plain_cast`) or no kick it can't afford (`CardDef::plain_unless_kicked`,
    /// `affords_no_kick`), from its owner's hand, with no cost changed and automatic
    /// payment: what [`CastProc`] does for it — the same checks (CR 601.2a, 307.1), the plain
    /// cost paid in place as its `Pay` stage pays it (601.2f–h), the same move to the stack
    /// and the spell becoming cast (601.2i) — without setting a cast up. False, with nothing
    /// changed, for any other cast, or one whose payment counting can't decide or can't pay:
    /// the caller casts it by the general path.
    #[inline(always)]
    pub(crate) fn cast_plainly(&mut self, card: ObjId) -> bool {
        let Some(caster) = self.priority else { return false };
        let Ok(slot) = self.slot_of(card) else { return false };
        let o = self.objects[slot as usize];
        let def = &self.defs[o.def as usize];
        let fast = def.is(CardType::Instant) || def.rules.flash;
        let sorcery_timing = self.step.is_main() && self.active == caster && self.stack.is_empty();
        let plain = (def.plain_cast || def.plain_unless_kicked) && o.zone.kind == ZoneKind::Hand && o.owner == caster && self.def_flags & crate::object::Object::COST_STATIC == 0;
        let Some((need, generic)) = def.plain_needs.filter(|_| plain && (fast || sorcery_timing) && self.seats[caster as usize].auto_pay) else { return false };
        if def.plain_unless_kicked && !self.affords_no_kick(caster, def) {
            return false;
        }
        if self.pay_counted_in_place(caster, &need, generic) != Some(true) {
            return false;
        }
        let spell = self.put_spell_on_stack(slot, caster, CastInfo::default(), Vec::new());
        self.spell_became_cast(caster, spell);
        true
    }

    /// Whether counting `caster`'s mana decides that no kicker of `def` can be paid once along
    /// with its plain cost (`CardDef::kicked_needs`): what the `Kicker` stage finds by
    /// counting, for each kicker in turn with none announced before it, when it offers no kick.
    fn affords_no_kick(&self, caster: u8, def: &CardDef) -> bool {
        let Some(have) = self.count_supply(caster, None).1 else { return false };
        def.kicked_needs.iter().all(|(need, generic)| !crate::payment::fits(need, *generic, &have))
    }

    /// The card in `slot` moves to the stack as `caster`'s spell, cast with `cast` and
    /// targeting `targets` (CR 601.2a, 601.2c).
    fn put_spell_on_stack(&mut self, slot: u32, caster: u8, cast: CastInfo, targets: Vec<Vec<TargetRef>>) -> ObjId {
        let spell = self.move_slot_inline(slot, ZoneKind::Stack, Position::Top);
        self.set_controller(slot, caster);
        self.objects[slot as usize].cast = cast;
        self.stack_items.push(StackItem { slot, controller: caster, targets, ability: None, delayed: None, sacrificed_power: 0, triggering: None, triggering_controller: None });
        spell
    }

    /// CR 601.2i: `spell`, on the stack with its cost paid, becomes cast; its caster gets
    /// priority.
    fn spell_became_cast(&mut self, p: u8, spell: ObjId) {
        let cast = self.objects[spell.slot() as usize].cast;
        let st = &mut self.players[p as usize].stats;
        st.spells += 1;
        st.kicks += cast.total_kicks();
        // The targets went onto the stack with the spell (`put_spell_on_stack`).
        let items = &self.stack_items;
        let targets = || items.iter().rev().find(|it| it.slot == spell.slot()).map_or_else(Vec::new, |it| it.targets.iter().flatten().copied().collect());
        self.log.push_with(|| Event::SpellCast { player: p, spell, kicks: cast.kicks, granted_kicks: cast.granted_kicks, x: cast.x, targets: targets() });
        self.fire_spell_cast(p, spell); // CR 601.2i: "when you cast" triggers see it now
        self.priority_to(p);
        self.output.push(spell);
    }
}

impl Game {
    /// The total cost of casting `card` now with these kicks and X (CR 601.2f), and whether
    /// `p`'s untapped sources and pool could pay it — without casting anything. For a spree
    /// spell it includes its cheapest mode's cost, since at least one mode must be chosen. A
    /// graveyard card with flashback is costed for its flashback cost, unless a permission lets
    /// it be cast from there for its mana cost.
    pub fn cost_of(&self, card: ObjId, kicks: &[u32], x: u32) -> Result<(Vec<ManaSymbol>, bool)> {
        // Priced only where it could be cast from (CR 601.2a), as `cast` refuses the rest.
        let slot = self.slot_of(card)?;
        let o = self.objects[slot as usize];
        let def = &self.defs[o.def as usize];
        let from_graveyard = o.zone.kind == ZoneKind::Graveyard && (self.casts_with_flashback(slot) || self.may_cast_from_graveyard(o.owner, def));
        if o.zone.kind != ZoneKind::Hand && !from_graveyard {
            return Err(illegal(format!(
                "{} is in {}: a spell is cast from its owner's hand, or from their graveyard with flashback or a permission, so it has no cost to cast there",
                def.name, o.zone
            )));
        }
        refuse_land(def)?;
        let (p, cost) = self.total_cost_of(card, kicks, x)?;
        // The whole total cost (CR 601.2f), its additional "discard a card" included.
        let payable = self.additional_discard_payable(p, card.slot()) && self.can_pay_mana(p, &cost, None);
        Ok((cost.symbols.into_vec(), payable))
    }

    /// The total cost of casting `card` now (see [`Game::cost_of`]), and who would pay it.
    pub(crate) fn total_cost_of(&self, card: ObjId, kicks: &[u32], x: u32) -> Result<(u8, CostToPay)> {
        let slot = self.slot_of(card)?;
        let p = self.objects[slot as usize].owner;
        let def = &self.defs[self.objects[slot as usize].def as usize];
        crate::game::check_count(i64::from(x), "X")?;
        let (granted, up, down) = self.spell_cost_statics(p, def);
        check_kicks(&def.name, def.rules.kicker.iter().chain(&granted), def.rules.kicker.len() + granted.len(), kicks)?;
        let base = if self.casts_with_flashback(slot) { BaseCost::Flashback } else { BaseCost::ManaCost };
        base.check_payable(def)?;
        let printed = base.symbols(def);
        let x_kick_paid = def.rules.kicker.iter().chain(&granted).zip(kicks).any(|(k, &n)| n > 0 && k.cost.symbols().contains(&ManaSymbol::X));
        if x > 0 && !printed.contains(&ManaSymbol::X) && !x_kick_paid {
            let x_kicker = def.rules.kicker.iter().chain(&granted).any(|k| k.cost.symbols().contains(&ManaSymbol::X));
            return Err(invalid(if x_kicker {
                format!("the X of {} is in its kicker cost, which isn't paid, so X is 0 (CR 601.2b)", def.name)
            } else {
                format!("{} has no X in its cost", def.name)
            }));
        }
        let symbols = total_cost(&with_mode_costs(printed, cheapest_spree_mode(def).into_iter()), def.rules.kicker.iter().chain(&granted), kicks, x, up, down);
        Ok((p, CostToPay { symbols, x: 0, life_available: self.players[p as usize].life as i64 }))
    }

    /// Whether `p` has a card to discard for the spell's additional "discard a card" cost,
    /// other than the spell itself (true when it has no such cost).
    pub(crate) fn additional_discard_payable(&self, p: u8, slot: u32) -> bool {
        let def = self.def_of_slot(slot);
        def.rules.additional_discard.as_ref().is_none_or(|f| self.players[p as usize].hand.iter().any(|&s| s != slot && f.matches(self.def_of_slot(s))))
    }

    /// Whether the card in `slot`, cast as a priority action, is cast with flashback (CR
    /// 702.34a): it is in its owner's graveyard, has flashback, and no permission lets it be
    /// cast from there for its mana cost (a permission, when one applies, is used instead;
    /// [`Game::cast`] with `flashback` chooses explicitly).
    pub(crate) fn casts_with_flashback(&self, slot: u32) -> bool {
        let o = &self.objects[slot as usize];
        let def = self.def_of_slot(slot);
        // A permission is for the mana cost, which a card without one can't pay (CR 118.6).
        o.zone.kind == ZoneKind::Graveyard && o.flags & crate::object::Object::FLASHBACK != 0 && (def.mana_cost.is_empty() || !self.may_cast_from_graveyard(o.owner, def))
    }

    /// Whether the spell or permanent was kicked (CR 702.33d), and how: Ertai's Trickery and
    /// other cards ask this of other objects.
    pub fn kicked(&self, id: ObjId) -> Result<bool> {
        Ok(self.object(id)?.cast.kicked())
    }
}

/// Lands are played, not cast (CR 305.9): refused by `cast` and `cost_of` alike.
fn refuse_land(def: &CardDef) -> Result<()> {
    if def.is(CardType::Land) {
        return Err(illegal(format!("{} is a land: lands are played, not cast (CR 305.9)", def.name)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::CardDb;
    use crate::policy::Policy;

    fn game(lands: &[&str], hand: &[&str]) -> (Game, Vec<ObjId>) {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        g.add_cards(0, ZoneKind::Battlefield, lands, Position::Top, db).unwrap();
        let hand = g.add_cards(0, ZoneKind::Hand, hand, Position::Top, db).unwrap();
        g.set_policy(0, Policy::First).unwrap();
        g.set_policy(1, Policy::First).unwrap();
        (g, hand)
    }

    #[test]
    fn multikicker_count_reaches_enters_with_counters() {
        // CR 702.33c, 614.1c: Everflowing Chalice kicked 3 times enters with 3 charge counters.
        let (mut g, hand) = game(&["Island"; 6], &["Everflowing Chalice"]);
        let Progress::Done(spell) = g.cast(hand[0], CastOptions { kicks: Some(vec![3]), ..Default::default() }).unwrap() else { panic!() };
        assert_eq!(g.cast_info(spell[0]).unwrap().kicks, [3, 0]);
        g.resolve_top().unwrap();
        let chalice = *g.zone(0, ZoneKind::Battlefield).unwrap().last().unwrap();
        assert_eq!(g.counters(chalice).unwrap().unwrap().get("charge"), 3);
        assert_eq!(g.cast_info(chalice).unwrap().printed_kicks(), 3); // CR 400.7d
    }

    #[test]
    fn unpayable_cast_changes_nothing() {
        // CR 601.2h, 733: kicking four times needs {8}; six Islands can't pay it.
        let (mut g, hand) = game(&["Island"; 6], &["Everflowing Chalice"]);
        let before = g.save_json();
        let err = g.cast(hand[0], CastOptions { kicks: Some(vec![4]), ..Default::default() }).unwrap_err();
        assert!(matches!(err, Error::CannotPay(_)), "{err}");
        assert_eq!(g.save_json(), before);
    }

    #[test]
    fn plain_cost_is_the_total_cost_with_nothing_changing_it() {
        // The cost worked out once per definition must be what `total_cost_of` gives for an
        // unkicked cast from hand with X as 0 and no static abilities, and its count by type
        // what counting that cost finds: for every built-in card.
        let db = CardDb::builtin();
        let names: Vec<String> = db.iter().filter(|d| !d.token).map(|d| d.name.to_string()).collect();
        let mut g = Game::new(2, 1).unwrap();
        for name in &names {
            let card = g.add_cards(0, ZoneKind::Hand, &[name.as_str()], Position::Top, db).unwrap()[0];
            let def = g.def_of_slot(card.slot());
            let total = g.total_cost_of(card, &[], 0).ok().map(|(_, cost)| cost.symbols);
            assert_eq!(def.plain_needs, total.as_ref().and_then(|s| crate::payment::simple_needs(s, 0)), "{name}");
            assert_eq!(def.plain_cost, total, "{name}");
        }
    }

    #[test]
    fn a_plain_cast_leaves_the_game_as_the_general_cast() {
        // CR 601.2: a cast taken at once by `cast_plainly` leaves the game as the general cast
        // (`cast_proc`, then its stages) leaves it — the same payment, the same spell on the
        // stack, the same events and output — for every built-in card, from either player's
        // hand or a graveyard, in a main phase or not, its caster active or not, auto-pay on
        // or off, a cost-changing permanent there or not, over any lands and pool; and where
        // it declines, nothing has changed. A card whose only announcement is kicker is cast
        // plainly only where no kick is offered (CR 601.2b).
        let db = CardDb::builtin();
        let names: Vec<&str> = db.iter().filter(|d| !d.token).map(|d| &*d.name).collect();
        // Half the rounds cast a card that announces nothing.
        let plain_names: Vec<&str> = db.iter().filter(|d| !d.token && (d.plain_cast || d.plain_unless_kicked)).map(|d| &*d.name).collect();
        let lands = ["Island", "Swamp", "Forest", "Plains", "Mountain", "Wastes", "Canyon Slough", "Everflowing Chalice"];
        let mut rng = crate::rng::Rng::new(0x5eed);
        let (mut plain, mut general, mut unkicked) = (0, 0, 0);
        for round in 0..4000 {
            let mut g = Game::new(2, round).unwrap();
            let field: Vec<&str> = (0..rng.below(16)).map(|_| lands[rng.below(if round % 8 == 2 { 8 } else { 6 }) as usize]).collect();
            for id in g.add_cards(0, ZoneKind::Battlefield, &field, Position::Top, db).unwrap() {
                if rng.below(3) == 0 {
                    g.set_tapped(id, true).unwrap();
                }
            }
            if rng.below(10) == 0 {
                g.add_cards(0, ZoneKind::Battlefield, &["Wicker Picker"], Position::Top, db).unwrap();
            }
            for _ in 0..rng.below(3) {
                g.players[0].pool.add(crate::payment::ManaType::ALL[rng.below(6) as usize], 1);
            }
            let pick = if round % 2 == 0 { &plain_names } else { &names };
            let name = pick[rng.below(pick.len() as u64) as usize];
            let (owner, zone) = match rng.below(10) {
                0 => (1, ZoneKind::Hand),
                1 => (0, ZoneKind::Graveyard),
                _ => (0, ZoneKind::Hand),
            };
            let card = g.add_cards(owner, zone, &[name], Position::Top, db).unwrap()[0];
            if rng.below(8) == 0 {
                g.step = crate::turn::Step::Upkeep;
            }
            if rng.below(8) == 0 {
                g.active = 1;
            }
            if rng.below(10) == 0 {
                g.set_auto_pay(0, false).unwrap();
            }
            let before = g.save_json();
            let mut fast = g.clone();
            if fast.cast_plainly(card) {
                plain += 1;
                unkicked += usize::from(db.get(name).unwrap().plain_unless_kicked);
                let outcome = g.cast_proc(card, CastOptions::default()).and_then(|mut cast| cast.advance(&mut g));
                assert!(matches!(outcome, Ok(None)), "{name}: {outcome:?}");
            } else {
                general += 1;
                assert_eq!(fast.save_json(), before, "{name}");
            }
            assert_eq!(fast.save_json(), g.save_json(), "{name} {field:?}");
            assert!(fast.indexed == g.indexed && fast.output == g.output && fast.log == g.log && fast.priority == g.priority, "{name} {field:?}");
        }
        assert!(plain > 500 && general > 500 && unkicked > 50, "{plain} cast plainly ({unkicked} with kicker), {general} not");
    }

    #[test]
    fn a_cast_with_nothing_to_announce_pays_at_once_as_the_stages_would_find() {
        // CR 601.2b–c, 601.2f: a cast that goes straight to its total cost (its card announces
        // nothing, no X, no kicker granted) stops where walking every stage from the modes
        // would — the same decision, the same game, the same cast left — for every built-in
        // card and an X spell and an X flashback, from hand and graveyard, with and without a
        // granted kicker, with no kicks given or none.
        let db = crate::test_support::builtin_and([
            serde_json::json!({"name": "X Draw", "mana_cost": "{X}{U}", "type_line": "Sorcery", "oracle_text": "Draw X cards.", "rules": {"spell": [{"draw": {"count": 1}}]}}),
            serde_json::json!({"name": "X Flashback", "mana_cost": "{U}", "type_line": "Sorcery", "oracle_text": "Draw a card.\nFlashback {X}{U}", "rules": {"spell": [{"draw": {"count": 1}}]}}),
        ]);
        assert!(db.get("X Flashback").unwrap().rules.flashback.as_ref().is_some_and(|c| c.symbols().contains(&ManaSymbol::X)));
        let lands: Vec<&str> = ["Plains", "Island", "Swamp", "Mountain", "Forest", "Wastes"].repeat(4);
        let (mut skipped, mut walked) = (0, 0);
        for def in db.iter().filter(|d| !d.token && !d.is(CardType::Land)) {
            for (granted, flashback, kicks) in [(false, false, None), (true, false, None), (false, true, None), (false, false, Some(vec![]))] {
                let mut g = Game::new(2, 1).unwrap();
                g.add_cards(0, ZoneKind::Battlefield, &lands, Position::Top, &db).unwrap();
                g.add_cards(1, ZoneKind::Battlefield, &["Grizzly Bears"], Position::Top, &db).unwrap();
                g.add_cards(0, ZoneKind::Hand, &["Island"], Position::Top, &db).unwrap();
                if granted {
                    g.add_cards(0, ZoneKind::Battlefield, &["Wicker Picker"], Position::Top, &db).unwrap();
                }
                let zone = if flashback { ZoneKind::Graveyard } else { ZoneKind::Hand };
                let card = g.add_cards(0, zone, &[&*def.name], Position::Top, &db).unwrap()[0];
                let opts = CastOptions { flashback, kicks, ..Default::default() };
                let Ok(mut fast) = g.cast_proc(card, opts.clone()) else { continue };
                if fast.stage != Stage::Pay {
                    walked += 1;
                    continue;
                }
                skipped += 1;
                let mut slow = fast.clone();
                (slow.stage, slow.opts) = (Stage::Modes, opts);
                let mut h = g.clone();
                let (a, b) = (fast.advance(&mut g), slow.advance(&mut h));
                assert_eq!(format!("{a:?}"), format!("{b:?}"), "{}", def.name);
                assert_eq!(g.save_json(), h.save_json(), "{}", def.name);
                assert_eq!(fast, slow, "{}", def.name);
            }
        }
        assert!(skipped > 20 && walked > 20, "{skipped} {walked}");
    }

    /// A two-player game where player 0 has fewer than `most_lands` lands drawn at random —
    /// basics and Wastes, and every third round Canyon Slough too, a land with a choice that
    /// counting can't settle — about a quarter of them tapped, and up to two mana of random
    /// types in their pool: the boards the automatic payment tests below are tried on. Returns
    /// the lands' names and ids.
    fn random_mana_board(rng: &mut crate::rng::Rng, round: usize, most_lands: u64, db: &CardDb) -> (Game, Vec<&'static str>, Vec<ObjId>) {
        const NAMES: [&str; 7] = ["Plains", "Island", "Swamp", "Mountain", "Forest", "Wastes", "Canyon Slough"];
        let mut g = Game::new(2, 1).unwrap();
        let kinds = if round % 3 == 0 { 7 } else { 6 };
        let names: Vec<&'static str> = (0..rng.below(most_lands)).map(|_| NAMES[rng.below(kinds) as usize]).collect();
        let lands = g.add_cards(0, ZoneKind::Battlefield, &names, Position::Top, db).unwrap();
        for &land in &lands {
            if rng.below(4) == 0 {
                g.set_tapped(land, true).unwrap();
            }
        }
        for _ in 0..rng.below(3) {
            g.players[0].pool.add(crate::payment::ManaType::ALL[rng.below(6) as usize], 1);
        }
        (g, names, lands)
    }

    #[test]
    fn a_kicked_cast_paid_automatically_pays_what_the_solver_finds() {
        // CR 601.2f–h, 702.33: a kicked spell's total cost, paid automatically, taps the
        // sources and leaves the pool as the payment `solve` finds for it from the listed
        // sources does — counted and paid in place where counting decides it, solved where a
        // land has a choice — and a cost they can't pay casts nothing: for every built-in card
        // with kicker, kicked once (twice for a multikicker), whichever lands are untapped and
        // whatever the pool holds.
        let db = CardDb::builtin();
        let kicked: Vec<&std::sync::Arc<CardDef>> = db.iter().filter(|d| !d.token && !d.rules.kicker.is_empty()).collect();
        let mut rng = crate::rng::Rng::new(0x6b1c);
        let (mut paid, mut refused) = (0, 0);
        for round in 0..600 {
            let def = kicked[round % kicked.len()];
            let (mut g, _, lands) = random_mana_board(&mut rng, round, 11, db);
            g.set_policy(0, Policy::First).unwrap();
            g.set_policy(1, Policy::First).unwrap();
            let card = g.add_cards(0, ZoneKind::Hand, &[&*def.name], Position::Top, db).unwrap()[0];
            let kicks = vec![if def.rules.kicker[0].multi { 2 } else { 1 }];
            let mut expected = g.clone();
            let (_, cost) = expected.total_cost_of(card, &kicks, 0).unwrap();
            let payment = solve(&cost, &expected.players[0].pool, &expected.mana_sources(0));
            let before = g.save_json();
            let cast = g.cast(card, CastOptions { kicks: Some(kicks), ..Default::default() });
            match payment {
                Some(payment) => {
                    cast.unwrap_or_else(|e| panic!("{}: {e}", def.name));
                    expected.execute_payment(0, &payment);
                    let tapped = |g: &Game| lands.iter().map(|l| g.objects[l.slot() as usize].tapped).collect::<Vec<_>>();
                    assert_eq!(tapped(&g), tapped(&expected), "{} {lands:?}", def.name);
                    assert_eq!(g.players[0].pool, expected.players[0].pool, "{}", def.name);
                    paid += 1;
                }
                None => {
                    assert!(matches!(cast, Err(Error::CannotPay(_))), "{}: {cast:?}", def.name);
                    assert_eq!(g.save_json(), before, "{}", def.name);
                    refused += 1;
                }
            }
        }
        assert!(paid > 100 && refused > 100, "{paid} {refused}");
    }

    #[test]
    fn a_kick_is_offered_exactly_when_the_cost_with_it_can_be_paid() {
        // CR 601.2b, 702.33: the caster is asked whether to kick a spell (kicker, not
        // multikicker) exactly when its total cost with the kick can be paid — counted where
        // counting decides it, solved where a land has a choice: for every built-in card with
        // kicker, whichever lands are untapped and whatever the pool holds, with and without
        // The Water Crystal (blue spells cost {1} less).
        let db = CardDb::builtin();
        let kicked: Vec<&std::sync::Arc<CardDef>> = db.iter().filter(|d| !d.token && d.rules.kicker.first().is_some_and(|k| !k.multi)).collect();
        let mut rng = crate::rng::Rng::new(0x0ff3);
        let (mut offered, mut not) = (0, 0);
        for round in 0..600 {
            let def = kicked[round % kicked.len()];
            let (mut g, lands, _) = random_mana_board(&mut rng, round, 11, db);
            g.set_policy(0, Policy::Manual).unwrap();
            if round % 5 == 0 {
                g.add_cards(0, ZoneKind::Battlefield, &["The Water Crystal"], Position::Top, db).unwrap();
            }
            let card = g.add_cards(0, ZoneKind::Hand, &[&*def.name], Position::Top, db).unwrap()[0];
            let (p, with_kick) = g.total_cost_of(card, &[1], 0).unwrap();
            let expected = g.can_pay_mana(p, &with_kick, None);
            let cast = g.cast(card, CastOptions::default());
            let asked = g.pending().is_some_and(|d| matches!(d.purpose, Purpose::Kicker { index: 0 }));
            assert_eq!(asked, expected, "{} {lands:?} {cast:?} {:?}", def.name, g.pending());
            if asked {
                offered += 1;
            } else {
                not += 1;
            }
        }
        assert!(offered > 100 && not > 100, "{offered} {not}");
    }

    #[test]
    fn the_multikicker_offered_is_the_most_the_listed_sources_afford() {
        // CR 601.2b, 702.33c: a multikicker spell offers as many kicks as its cost with them
        // can be paid — the supply counted, where counting decides it, as `max_affordable`
        // finds from the listed sources — and none is asked about when not one can be: for
        // every built-in card with multikicker, whichever lands are untapped and whatever the
        // pool holds.
        let db = CardDb::builtin();
        let kicked: Vec<&std::sync::Arc<CardDef>> = db.iter().filter(|d| !d.token && d.rules.kicker.first().is_some_and(|k| k.multi)).collect();
        let mut rng = crate::rng::Rng::new(0x3a11);
        let (mut offered, mut not) = (0, 0);
        for round in 0..600 {
            let def = kicked[round % kicked.len()];
            let (mut g, lands, _) = random_mana_board(&mut rng, round, 13, db);
            g.set_policy(0, Policy::Manual).unwrap();
            let card = g.add_cards(0, ZoneKind::Hand, &[&*def.name], Position::Top, db).unwrap()[0];
            let (p, base) = g.total_cost_of(card, &[], 0).unwrap();
            let expected = max_affordable(&base, def.rules.kicker[0].cost.symbols(), &g.players[p as usize].pool, &g.mana_sources(p), MAX_ANNOUNCED);
            let cast = g.cast(card, CastOptions::default());
            let max = match g.pending() {
                Some(Decision { purpose: Purpose::Multikicker { index: 0 }, choice: Choice::Number { max, .. }, .. }) => *max,
                _ => 0,
            };
            assert_eq!(max, expected, "{} {lands:?} {cast:?}", def.name);
            if max > 0 {
                offered += 1;
            } else {
                not += 1;
            }
        }
        assert!(offered > 100 && not > 50, "{offered} {not}");
    }

    #[test]
    fn a_cast_is_unallocated_exactly_until_a_list_it_holds_allocates_and_after_its_release() {
        // A priority action's cast is freed by hand, only if it holds an allocation: each list
        // that can hold one must count, and its release must free them all. Mutations caught:
        // any list left out of `unallocated` or of `free`.
        let (g, hand) = game(&["Island"; 2], &["Maddening Cacophony"]);
        let fresh = || g.cast_proc(hand[0], CastOptions::default()).unwrap();
        assert!(fresh().unallocated());
        let allocations: [fn(&mut CastProc); 7] = [
            |c| c.granted.push(Kicker { cost: crate::mana::ManaCost::parse("{1}").unwrap(), multi: false, sticker: true }),
            |c| c.kicks.extend([1; 3]),
            |c| c.targets.push(Vec::new()),
            |c| c.opts.kicks = Some(vec![1]),
            |c| c.opts.targets = Some(vec![Vec::new()]),
            |c| c.opts.payment = Some(vec![ObjId(0)]),
            |c| c.opts.modes = Some(vec![0]),
        ];
        for (i, allocate) in allocations.iter().enumerate() {
            let mut c = fresh();
            allocate(&mut c);
            assert!(!c.unallocated(), "{i}");
            c.release();
            assert!(c.unallocated(), "{i}");
        }
    }

    #[test]
    fn sorcery_timing_needs_main_phase_and_empty_stack() {
        // CR 307.1
        let (mut g, hand) = game(&["Island"; 2], &["Maddening Cacophony"]);
        g.pass_priority().unwrap(); // player 1 has priority now
        assert!(matches!(g.cast(hand[0], CastOptions::default()), Err(Error::IllegalAction(_))));
    }
}
