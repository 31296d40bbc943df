//! Following a spell's or ability's instructions in order (CR 608.2c): the interpreter of the
//! effect vocabulary in `rules.rs`. Instructions that need a player's choice hand over to the
//! action frames (scry, discard, search) and the interpreter continues after them.

use serde::{Deserialize, Serialize};

use crate::ability::AbilityRef;
use crate::actions::discard::DiscardMode;
use crate::actions::search::SearchSpec;
use crate::decision::{Answer, Choice, Decision, Purpose};
use crate::event::Event;
use crate::filter::CardFilter;
use crate::game::Game;
use crate::object::{CastInfo, ObjId};
use crate::process::{Frame, Step};
use crate::rules::{Amount, Condition, Dynamic, Effect, Who};
use crate::target::TargetRef;
use crate::zone::{Position, ZoneKind};

/// What the instructions of one resolving spell or ability know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EffectCtx {
    pub controller: u8,
    /// The slot of the spell's card (or the ability's source).
    pub source: u32,
    pub source_id: ObjId,
    pub cast: CastInfo,
    pub targets: Vec<Vec<TargetRef>>,
    /// Which chosen targets were still legal as resolution began (CR 608.2b).
    pub legal: Vec<Vec<bool>>,
    /// The cards this resolution milled, as the objects they became (CR 701.17c).
    #[serde(default)]
    pub milled: Vec<ObjId>,
    /// The spell that triggered this ability ("that spell").
    #[serde(default)]
    pub triggering: Option<ObjId>,
    /// Objects the instructions remember ("the duplicate").
    #[serde(default)]
    pub remembered: Vec<ObjId>,
}

/// A position in a card's instruction tree: the root list, then (index of an `If`, branch).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct EffectProc {
    def: u32,
    root: Root,
    path: Vec<(u16, bool)>,
    pc: u16,
    /// Waiting for the choice of a card to put from hand (the instruction at `pc - 1`).
    choosing: bool,
    ctx: EffectCtx,
}

/// Which of a card's instruction lists runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Root {
    Spell,
    AsEnters,
    Mode(u16),
    Ability(AbilityRef),
    /// A delayed triggered ability's own instructions (CR 603.7).
    Inline(Vec<Effect>),
}

impl EffectProc {
    pub(crate) fn spell(def: u32, ctx: EffectCtx) -> EffectProc {
        EffectProc { def, root: Root::Spell, path: Vec::new(), pc: 0, choosing: false, ctx }
    }

    pub(crate) fn mode(def: u32, mode: u16, ctx: EffectCtx) -> EffectProc {
        EffectProc { def, root: Root::Mode(mode), path: Vec::new(), pc: 0, choosing: false, ctx }
    }

    pub(crate) fn ability(def: u32, ability: AbilityRef, ctx: EffectCtx) -> EffectProc {
        EffectProc { def, root: Root::Ability(ability), path: Vec::new(), pc: 0, choosing: false, ctx }
    }

    pub(crate) fn inline(def: u32, effects: Vec<Effect>, ctx: EffectCtx) -> EffectProc {
        EffectProc { def, root: Root::Inline(effects), path: Vec::new(), pc: 0, choosing: false, ctx }
    }

    pub(crate) fn as_enters(def: u32, ctx: EffectCtx) -> EffectProc {
        EffectProc { def, root: Root::AsEnters, path: Vec::new(), pc: 0, choosing: false, ctx }
    }

    fn list<'a>(&'a self, g: &'a Game) -> &'a [Effect] {
        let rules = &g.defs[self.def as usize].rules;
        let mut list: &[Effect] = match &self.root {
            Root::Spell => &rules.spell,
            Root::AsEnters => &rules.as_enters,
            Root::Mode(m) => &rules.modes[*m as usize].effects,
            Root::Ability(AbilityRef::Activated(i)) => &rules.activated[*i as usize].effects,
            Root::Ability(AbilityRef::Triggered(i)) => &rules.triggers[*i as usize].effects,
            Root::Ability(AbilityRef::Delayed) => &[],
            Root::Inline(effects) => effects,
        };
        for &(i, branch) in &self.path {
            match &list[i as usize] {
                Effect::If { then, otherwise, .. } => list = if branch { then } else { otherwise },
                _ => unreachable!("paths only go through `If`"),
            }
        }
        list
    }

    pub(crate) fn step(mut self, g: &mut Game) -> Step {
        if self.choosing {
            self.choosing = false;
            let Answer::Cards { cards } = g.take_answer() else { unreachable!("validated against a Cards decision") };
            let tapped = match self.list(g)[self.pc as usize - 1] {
                Effect::PutFromHand { tapped, .. } => tapped,
                _ => {
                    // Milled cards into hand.
                    for c in cards {
                        let from = g.objects[c.slot() as usize].zone;
                        let card = g.move_slot(c.slot(), ZoneKind::Hand, Position::Top);
                        let to = g.objects[c.slot() as usize].zone;
                        g.log.push_with(|| Event::Moved { from_id: c, card, from, to });
                    }
                    return self.step(g);
                }
            };
            for c in cards {
                let from = g.objects[c.slot() as usize].zone;
                let card = g.move_slot(c.slot(), ZoneKind::Battlefield, Position::Top);
                g.entered_battlefield(c.slot());
                let o = &mut g.objects[c.slot() as usize];
                o.controller = self.ctx.controller;
                o.tapped |= tapped;
                let to = o.zone;
                g.log.push_with(|| Event::Moved { from_id: c, card, from, to });
            }
        }
        loop {
            let list = self.list(g);
            let Some(effect) = list.get(self.pc as usize).cloned() else { return Step::Done };
            self.pc += 1;
            match self.apply(g, effect) {
                None => continue,
                Some(Pending::Frame(frame)) => {
                    g.frames.push(Frame::Effect(Box::new(self)));
                    g.frames.push(frame);
                    return Step::Done;
                }
                Some(Pending::Branch(branch)) => {
                    let mut inner = EffectProc { def: self.def, root: self.root.clone(), path: self.path.clone(), pc: 0, choosing: false, ctx: self.ctx.clone() };
                    inner.path.push((self.pc - 1, branch));
                    g.frames.push(Frame::Effect(Box::new(self)));
                    g.frames.push(Frame::Effect(Box::new(inner)));
                    return Step::Done;
                }
                Some(Pending::Ask(d)) => {
                    self.choosing = true;
                    return Step::Ask(Frame::Effect(Box::new(self)), d);
                }
            }
        }
    }

    /// Does one instruction; says what must happen before the next one.
    fn apply(&mut self, g: &mut Game, effect: Effect) -> Option<Pending> {
        // The few things instructions read from the context are `Copy`: no per-instruction clone.
        let (controller, source_id, cast, triggering) = (self.ctx.controller, self.ctx.source_id, self.ctx.cast, self.ctx.triggering);
        match effect {
            Effect::Draw { who, count } => {
                for p in self.players(g, who) {
                    for _ in 0..self.amount(g, &count, p) {
                        g.draw_one(p);
                    }
                }
                None
            }
            Effect::Mill { who, count } => {
                // Simultaneous: each amount is read before anyone mills (CR 101.4).
                let amounts: Vec<(u8, u32)> = self.players(g, who).into_iter().map(|p| (p, self.amount(g, &count, p))).collect();
                for (p, n) in amounts {
                    let milled = g.mill_cards(p, n);
                    self.ctx.milled.extend(milled);
                }
                None
            }
            Effect::MilledToHand { filter, count } => {
                let filter = CardFilter::parse(&filter).expect("validated when the card was loaded");
                // Only milled cards still where they went, in a public zone (CR 701.17c).
                let options: Vec<ObjId> = self
                    .ctx
                    .milled
                    .iter()
                    .copied()
                    .filter(|&id| g.object(id).is_ok_and(|o| o.zone.kind.is_public()) && filter.matches(g.def_of_slot(id.slot())))
                    .collect();
                if options.is_empty() {
                    return None;
                }
                Some(Pending::Ask(Decision { player: self.ctx.controller, purpose: Purpose::PutFromMilled, choice: Choice::Cards { options, min: 0, max: count } }))
            }
            Effect::Scry { who, count } => {
                let players = self.players(g, who);
                let n = players.first().map_or(0, |&p| self.amount(g, &count, p));
                g.scry_frame(players, n).map(Pending::Frame)
            }
            Effect::Discard { who, count, random } => {
                let mode = if random { DiscardMode::Random } else { DiscardMode::Choose };
                // Several players discarding: each frame in turn, the active player's first.
                let players = self.players(g, who);
                for &p in players.iter().rev().skip(1) {
                    let n = self.amount(g, &count, p);
                    g.push_discard(p, n, mode);
                }
                let first = *players.first()?;
                let n = self.amount(g, &count, first);
                Some(Pending::Frame(g.discard_frame(first, n, mode)))
            }
            Effect::Search { who, filter, count, to, reveal, shuffle, optional } => {
                let filter = CardFilter::parse(&filter).expect("validated when the card was loaded");
                let p = *self.players(g, who).first()?;
                let spec = SearchSpec { filter, max: count, to, reveal, shuffle, optional };
                Some(Pending::Frame(g.search_frame(p, p, spec)))
            }
            Effect::Shuffle { who } => {
                for p in self.players(g, who) {
                    g.shuffle_library(p);
                }
                None
            }
            Effect::Counter { target } => {
                for t in self.legal_targets(target) {
                    if let TargetRef::Object(id) = t {
                        g.counter_spell(id.slot());
                    }
                }
                None
            }
            Effect::Damage { target, amount } => {
                for t in self.legal_targets(target) {
                    let n = self.amount(g, &amount, controller);
                    g.deal_damage(source_id, t, n);
                }
                None
            }
            Effect::LoseLife { who, ref amount } | Effect::GainLife { who, ref amount } => {
                let sign = if matches!(effect, Effect::GainLife { .. }) { 1 } else { -1 };
                for p in self.players(g, who) {
                    let n = self.amount(g, amount, p) as i32;
                    g.change_life(p, sign * n);
                }
                None
            }
            Effect::PutFromHand { filter, optional, count, .. } => {
                let filter = CardFilter::parse(&filter).expect("validated when the card was loaded");
                let hand = &g.players[controller as usize].hand;
                let options: Vec<ObjId> = hand.iter().filter(|&&s| filter.matches(g.def_of_slot(s))).map(|&s| g.id_of(s)).collect();
                if options.is_empty() {
                    return None;
                }
                let min = if optional { 0 } else { 1 };
                Some(Pending::Ask(Decision { player: controller, purpose: Purpose::PutFromHand, choice: Choice::Cards { options, min, max: count } }))
            }
            Effect::If { cond, .. } => Some(Pending::Branch(self.holds(g, &cond))),
            Effect::Delayed { when, effects } => {
                g.delayed.push(crate::ability::Delayed {
                    controller,
                    when,
                    effects,
                    def: self.def,
                    cast,
                    remembered: self.ctx.remembered.clone(),
                    turn: g.turn,
                    step: g.step,
                });
                None
            }
            Effect::ConjureDuplicate => {
                if let Some(spell) = triggering {
                    // The spell's card as printed: its definition (a copy has its card's too).
                    let def = g.objects[spell.slot() as usize].def;
                    let card = g.conjure(def, controller, ZoneKind::Hand);
                    self.ctx.remembered.push(card);
                }
                None
            }
            Effect::DiscardRemembered => {
                for &id in &self.ctx.remembered {
                    let still_in_hand = g.object(id).is_ok_and(|o| o.zone.kind == ZoneKind::Hand);
                    if still_in_hand {
                        let owner = g.objects[id.slot() as usize].owner;
                        g.discard_cards(owner, &[id.slot()]);
                    }
                }
                None
            }
        }
    }

    /// The players an instruction names, in APNAP order.
    fn players(&self, g: &Game, who: Who) -> Vec<u8> {
        let c = self.ctx.controller;
        let mut v = match who {
            Who::You => vec![c],
            Who::EachOpponent => return g.opponents_of(c),
            Who::EachPlayer => (0..g.players.len() as u8).filter(|&p| g.players[p as usize].lost.is_none()).collect(),
            Who::Target(i) => self
                .legal_targets(i)
                .map(|t| match t {
                    TargetRef::Player(p) => p,
                    TargetRef::Object(id) => g.objects[id.slot() as usize].controller,
                })
                .collect(),
        };
        v.retain(|&p| g.players[p as usize].lost.is_none());
        g.apnap(&mut v);
        v
    }

    /// The chosen targets for target `i` that were legal as resolution began.
    fn legal_targets(&self, i: usize) -> impl Iterator<Item = TargetRef> + '_ {
        let chosen = self.ctx.targets.get(i).map(Vec::as_slice).unwrap_or(&[]);
        let legal = self.ctx.legal.get(i).map(Vec::as_slice).unwrap_or(&[]);
        chosen.iter().zip(legal).filter(|(_, &ok)| ok).map(|(&t, _)| t)
    }

    /// A number, read now, for the affected player `p`.
    fn amount(&self, g: &Game, a: &Amount, p: u8) -> u32 {
        match a {
            Amount::Fixed(n) => *n,
            Amount::Dynamic(Dynamic::X) => self.ctx.cast.x,
            Amount::Dynamic(Dynamic::Kicks) => self.ctx.cast.printed_kicks(),
            Amount::Dynamic(Dynamic::HalfLibraryRoundedUp) => (g.players[p as usize].library.len() as u32).div_ceil(2),
            Amount::Dynamic(Dynamic::CountersOnSource(kind)) => g.counters_on(self.ctx.source).map_or(0, |c| c.get(kind)),
        }
    }

    fn holds(&self, g: &Game, c: &Condition) -> bool {
        match c {
            Condition::TargetKicked(i) => self.legal_targets(*i).any(|t| match t {
                TargetRef::Object(id) => g.objects[id.slot() as usize].cast.kicked(),
                TargetRef::Player(_) => false,
            }),
            other => crate::stack::condition_on_cast(other, &self.ctx.cast),
        }
    }
}

enum Pending {
    /// Run this frame, then carry on.
    Frame(Frame),
    /// Run the `then` (true) or `else` branch of the `If` just read, then carry on.
    Branch(bool),
    /// Ask this, then finish the instruction just read (put a card from hand).
    Ask(Decision),
}
