//! Triggered abilities (CR 603): matching events against the trigger conditions of the
//! permanents (and, for "when you cycle this card" and "when this dies", of the card itself),
//! waiting until a player would receive priority, then going on the stack in APNAP order with
//! each player ordering their own and choosing their targets (CR 603.3b, d). Delayed triggered
//! abilities (CR 603.7) live here too.

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::ability::AbilityRef;
use crate::card::CardType;
use crate::decision::{Answer, Choice, Decision, Purpose};
use crate::event::Event;
use crate::game::Game;
use crate::object::{CastInfo, ObjId};
use crate::process::{Frame, Step};
use crate::rules::{DelayedWhen, Effect, TargetSpec, Trigger};
use crate::target::TargetRef;
use crate::turn::Step as TurnStep;

/// Something that happened that triggered abilities may be waiting for (CR 603.2).
#[derive(Clone, Copy, Debug)]
pub(crate) enum TriggerEvent<'a> {
    /// A card was cycled; `card` is the slot of the card where it went.
    Cycled { card: u32 },
    /// A card was discarded; `hidden` when it went to a hidden zone instead (CR 701.9c).
    Discarded { player: u8, card: u32, hidden: bool },
    /// A permanent entered the battlefield.
    Entered { slot: u32 },
    /// A player scried (CR 701.22).
    Scried { player: u8 },
    /// A permanent became untapped.
    Untapped { slot: u32 },
    /// Cards went from `player`'s library to their graveyard together.
    LibraryToGraveyard { player: u8, cards: &'a [ObjId] },
    /// A step began (CR 500).
    StepBegan { step: TurnStep },
}

/// Kinds of [`TriggerEvent`], one bit each, so that sets of them are masks.
pub(crate) mod kind {
    pub const CYCLED: u16 = 1;
    pub const DISCARDED: u16 = 1 << 1;
    pub const ENTERED: u16 = 1 << 2;
    pub const SCRIED: u16 = 1 << 3;
    pub const UNTAPPED: u16 = 1 << 4;
    pub const LIBRARY_TO_GRAVEYARD: u16 = 1 << 5;
    pub const STEP_BEGAN: u16 = 1 << 6;
    /// A land entered (an event of kind [`ENTERED`] too).
    pub const LAND_ENTERED: u16 = 1 << 7;
}

impl TriggerEvent<'_> {
    /// Its [`kind`]s, as far as the event itself tells: a permanent entering may be a land
    /// ([`Game::hears`] looks).
    fn kind(&self) -> u16 {
        match self {
            TriggerEvent::Cycled { .. } => kind::CYCLED,
            TriggerEvent::Discarded { .. } => kind::DISCARDED,
            TriggerEvent::Entered { .. } => kind::ENTERED | kind::LAND_ENTERED,
            TriggerEvent::Scried { .. } => kind::SCRIED,
            TriggerEvent::Untapped { .. } => kind::UNTAPPED,
            TriggerEvent::LibraryToGraveyard { .. } => kind::LIBRARY_TO_GRAVEYARD,
            TriggerEvent::StepBegan { .. } => kind::STEP_BEGAN,
        }
    }
}

/// The kinds of event a permanent with this definition could trigger on: with no permanent
/// waiting for a kind, [`Game::fire`] needn't look at permanents for it.
pub(crate) fn listens_to(def: &crate::card::CardDef) -> u16 {
    def.rules.triggers.iter().fold(0, |kinds, t| kinds | waits_for(&t.when))
}

/// The kinds of event a permanent's triggered ability waiting for `when` triggers on: the
/// only ones [`Game::matches`] looks at for it.
fn waits_for(when: &Trigger) -> u16 {
    match when {
        Trigger::PlayerCycles => kind::CYCLED,
        Trigger::CycleOrDiscard { .. } | Trigger::OpponentDiscards { .. } => kind::DISCARDED,
        // Both are heard only from permanents of the entering one's controller (its own
        // entering; a land entering under your control), which is all `Game::hears` asks: a
        // trigger on another player's permanent entering needs a kind of its own.
        Trigger::EntersBattlefield => kind::ENTERED,
        Trigger::Landfall => kind::LAND_ENTERED,
        Trigger::YouScry => kind::SCRIED,
        Trigger::PermanentUntaps => kind::UNTAPPED,
        Trigger::PutIntoYourGraveyardFromLibrary { .. } => kind::LIBRARY_TO_GRAVEYARD,
        Trigger::BeginningOf { .. } => kind::STEP_BEGAN,
        // Not matched against events on the battlefield: a dying permanent looks back in
        // time (`fire_dies`), a cycled card triggers from where it went (`fire_cycle`).
        Trigger::Dies | Trigger::CycleThis => 0,
    }
}

/// A triggered ability waiting to be put on the stack (CR 603.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingTrigger {
    /// Who controls the ability: its source's controller when it triggered (CR 603.3a), or
    /// the delayed trigger's controller (CR 603.7d-e).
    pub controller: u8,
    /// The source's slot and the object it was when the ability triggered.
    pub source: u32,
    /// The source's object id when it triggered; the slot may hold a new object later (CR 400.7).
    pub source_id: ObjId,
    /// Which of the source's triggered abilities this is (index into its definition's
    /// `rules.triggers`); 0 for a delayed trigger, which carries its own `delayed`.
    pub index: u16,
    /// How the source was cast, for intervening "if it was kicked" clauses (CR 603.4).
    #[serde(default)]
    pub cast: CastInfo,
    /// For a delayed trigger: what it does and what it knows.
    #[serde(default)]
    pub delayed: Option<Box<DelayedFired>>,
    /// The object the event was about ("that permanent", "that card"), and its controller
    /// then (last known information, CR 608.2h).
    #[serde(default)]
    pub triggering: Option<ObjId>,
    /// The controller of `triggering` when the ability triggered (`None` for delayed triggers).
    #[serde(default)]
    pub triggering_controller: Option<u8>,
}

/// A delayed triggered ability waiting for its moment (CR 603.7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delayed {
    /// Who controls it: the controller of the spell or ability that created it, as that
    /// resolved (CR 603.7d-e).
    pub controller: u8,
    /// The event it waits for; it triggers only the next time that happens (CR 603.7b).
    pub when: DelayedWhen,
    /// The instructions it carries out when it triggers and resolves.
    pub effects: Vec<Effect>,
    /// The definition of the card whose ability created it, and that object: its source
    /// (CR 603.7d-e).
    pub def: u32,
    /// The slot of that source object.
    pub source: u32,
    /// The source's object id when the delayed trigger was created.
    pub source_id: ObjId,
    /// How the creating spell was cast ("if this spell wasn't kicked").
    pub cast: CastInfo,
    /// The objects the creating resolution remembered (such as a conjured duplicate), passed on
    /// to `effects`.
    pub remembered: Vec<ObjId>,
    /// When it was created.
    pub turn: u32,
    /// The step it was created in: one created during an end step waits for the next end step
    /// (CR 513.2).
    pub step: TurnStep,
}

/// A delayed trigger that has triggered: its instructions and context.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DelayedFired {
    /// The delayed trigger's instructions.
    pub effects: Vec<Effect>,
    /// The definition of the card whose ability created the delayed trigger.
    pub def: u32,
    /// How the creating spell was cast.
    pub cast: CastInfo,
    /// The objects the creating resolution remembered.
    pub remembered: Vec<ObjId>,
    /// The object whose event made it trigger (the spell, for "when you next cast"), if any.
    pub triggering: Option<ObjId>,
}

impl PendingTrigger {
    /// Checks a loaded trigger waiting to be put on the stack (see [`Game::load_json`]): the
    /// players and objects it names exist, and its ability is one its source's card has.
    pub(crate) fn check_stored(&self, c: &crate::process::Stored) -> std::result::Result<(), String> {
        c.player(self.controller)?;
        c.slot(self.source)?;
        c.objects([&self.source_id].into_iter().chain(&self.triggering))?;
        c.players(self.triggering_controller)?;
        match &self.delayed {
            Some(d) => d.check_stored(c),
            None => c.ability("triggered", self.index as usize, c.g.def_of_slot(self.source).rules.triggers.len()),
        }
    }
}

impl Delayed {
    /// Checks a loaded delayed trigger (see [`Game::load_json`]): the players, objects and
    /// card definition it names exist.
    pub(crate) fn check_stored(&self, c: &crate::process::Stored) -> std::result::Result<(), String> {
        c.player(self.controller)?;
        c.def(self.def)?;
        c.slot(self.source)?;
        c.objects([&self.source_id].into_iter().chain(&self.remembered))
    }
}

impl DelayedFired {
    /// Checks what a loaded delayed trigger that fired knows (see [`Game::load_json`]).
    pub(crate) fn check_stored(&self, c: &crate::process::Stored) -> std::result::Result<(), String> {
        c.def(self.def)?;
        c.objects(self.remembered.iter().chain(&self.triggering))
    }
}

impl Game {
    /// Matches an event against the triggered abilities of the permanents on the battlefield
    /// (CR 603.2, 603.6a: a permanent that just entered sees its own entering).
    #[inline]
    pub(crate) fn fire(&mut self, ev: TriggerEvent) {
        // No permanent waits for this kind of event: the usual case, on every event.
        if self.hears(&ev) {
            self.fire_on_battlefield(ev);
        }
    }

    /// Whether a permanent could trigger on `ev`: one waiting for its kind. A permanent
    /// entering is heard only by its controller's permanents (its own "when this enters",
    /// their landfall), and by those waiting for a land only if it is one.
    #[inline]
    fn hears(&self, ev: &TriggerEvent) -> bool {
        match *ev {
            TriggerEvent::Entered { slot } => {
                let o = &self.objects[slot as usize];
                let kinds = if o.flags & crate::object::Object::LAND != 0 { kind::ENTERED | kind::LAND_ENTERED } else { kind::ENTERED };
                self.indexed.listening[o.controller as usize] & kinds != 0
            }
            _ => self.listens(ev.kind()),
        }
    }

    /// Whether a permanent could trigger on an event of this [`kind`] (what [`Game::fire`]
    /// asks first): without one, an event needn't list what it was about.
    #[inline]
    pub(crate) fn listens(&self, kind: u16) -> bool {
        self.indexed.listening_any & kind != 0
    }

    // Kept out of line, so that `fire`, on every event, is only its test.
    #[inline(never)]
    fn fire_on_battlefield(&mut self, ev: TriggerEvent) {
        let about = match ev {
            TriggerEvent::Cycled { card, .. } | TriggerEvent::Discarded { card, .. } => Some(card),
            TriggerEvent::Entered { slot } | TriggerEvent::Untapped { slot } => Some(slot),
            _ => None,
        };
        let triggering = about.map(|a| self.id_of(a));
        // This runs for every event: it reads only the permanents that have triggered
        // abilities, and queues each match as it is found, since queuing changes neither them
        // nor anything a match reads.
        for k in 0..self.indexed.triggers.len() {
            let s = self.indexed.triggers[k];
            let (def, controller) = (self.objects[s as usize].def as usize, self.objects[s as usize].controller);
            for i in 0..self.defs[def].rules.triggers.len() {
                if self.matches(&self.defs[def].rules.triggers[i].when, s, controller, &ev) {
                    self.queue_trigger(s, i, controller, triggering);
                }
            }
        }
    }

    /// Whether a triggered ability waiting for `when` triggers on `ev`.
    fn matches(&self, when: &Trigger, s: u32, you: u8, ev: &TriggerEvent) -> bool {
        // The kinds of event it waits for are those `fire` lets through: no other can match.
        if waits_for(when) & ev.kind() == 0 {
            return false;
        }
        match (when, *ev) {
            (Trigger::PlayerCycles, TriggerEvent::Cycled { .. }) => true,
            (Trigger::CycleOrDiscard { another }, TriggerEvent::Discarded { player, card, .. }) => player == you && !(*another && card == s),
            (Trigger::OpponentDiscards { filter }, TriggerEvent::Discarded { player, card, hidden }) => {
                // CR 701.9c: a card discarded into a hidden zone has no characteristics.
                player != you && !hidden && filter.matches(self.def_of_slot(card))
            }
            (Trigger::EntersBattlefield, TriggerEvent::Entered { slot }) => slot == s,
            (Trigger::Landfall, TriggerEvent::Entered { slot }) => self.objects[slot as usize].controller == you && self.def_of_slot(slot).is(CardType::Land),
            (Trigger::YouScry, TriggerEvent::Scried { player }) => player == you,
            (Trigger::PermanentUntaps, TriggerEvent::Untapped { .. }) => true,
            (Trigger::PutIntoYourGraveyardFromLibrary { filter }, TriggerEvent::LibraryToGraveyard { player, cards }) => {
                let f = filter;
                player == you && cards.iter().any(|&c| self.object(c).is_ok_and(|o| o.zone.kind == crate::zone::ZoneKind::Graveyard) && f.matches(self.def_of_slot(c.slot())))
            }
            (Trigger::BeginningOf { step, yours }, TriggerEvent::StepBegan { step: now }) => *step == now && (!yours || self.active == you),
            _ => false,
        }
    }

    /// Queues ability `index` of the object in `source` unless an intervening "if" is false
    /// (CR 603.4) or a "once each turn" ability already triggered this turn.
    pub(crate) fn queue_trigger(&mut self, source: u32, index: usize, controller: u8, triggering: Option<ObjId>) {
        let source_id = self.id_of(source);
        let (def, cast) = (self.objects[source as usize].def, self.objects[source as usize].cast);
        let t = &self.defs[def as usize].rules.triggers[index];
        if t.condition.as_ref().is_some_and(|c| !self.intervening_if(c, controller, &cast)) {
            return;
        }
        if t.once_each_turn {
            let key = (source_id, index as u16);
            if self.triggered_this_turn.contains(&key) {
                return;
            }
            self.triggered_this_turn.push(key);
        }
        let triggering_controller = triggering.and_then(|t| self.object(t).ok()).map(|o| o.controller);
        self.pending_triggers.push(PendingTrigger { controller, source, source_id, index: index as u16, cast, delayed: None, triggering, triggering_controller });
    }

    /// An intervening "if" clause (CR 603.4): about how the source was cast, or about the game.
    pub(crate) fn intervening_if(&self, c: &crate::rules::Condition, controller: u8, cast: &CastInfo) -> bool {
        match c {
            crate::rules::Condition::YourLibraryEmpty => self.players[controller as usize].library.is_empty(),
            other => crate::stack::condition_on_cast(other, cast),
        }
    }

    /// A card was cycled: its own "when you cycle this card", wherever it went (CR 702.29c),
    /// then permanents' "whenever a player cycles".
    /// `hidden`: the card went to a hidden zone instead of the graveyard, where it has no
    /// characteristics (CR 701.9c), so no abilities of its own to trigger.
    pub(crate) fn fire_cycle(&mut self, player: u8, card_slot: u32, hidden: bool) {
        if !hidden {
            self.queue_own_triggers(card_slot, &Trigger::CycleThis, player);
        }
        self.fire(TriggerEvent::Cycled { card: card_slot });
    }

    /// A card was discarded: "whenever you cycle or discard" (once per discard, so once per
    /// cycle, CR 702.29d) and "whenever an opponent discards".
    pub(crate) fn fire_discard(&mut self, player: u8, card_slot: u32, hidden: bool) {
        self.fire(TriggerEvent::Discarded { player, card: card_slot, hidden });
    }

    /// A permanent died (CR 700.4): its own "when this dies", looking back in time at the
    /// permanent it was (CR 603.10a). `controller` is who controlled it then.
    pub(crate) fn fire_dies(&mut self, card_slot: u32, controller: u8) {
        self.queue_own_triggers(card_slot, &Trigger::Dies, controller);
    }

    /// Queues the card's own abilities that trigger on `when` ("when you cycle this card",
    /// "when this dies"), read by index rather than by a clone of the definition.
    #[inline]
    fn queue_own_triggers(&mut self, card_slot: u32, when: &Trigger, controller: u8) {
        if self.objects[card_slot as usize].flags & crate::object::Object::HAS_TRIGGERS != 0 {
            self.queue_matching_own_triggers(card_slot, when, controller);
        }
    }

    // Out of line, as for `fire_on_battlefield`.
    #[inline(never)]
    fn queue_matching_own_triggers(&mut self, card_slot: u32, when: &Trigger, controller: u8) {
        let def = self.objects[card_slot as usize].def as usize;
        for i in 0..self.defs[def].rules.triggers.len() {
            if self.defs[def].rules.triggers[i].when == *when {
                self.queue_trigger(card_slot, i, controller, None);
            }
        }
    }

    /// Puts waiting triggered abilities on the stack, the active player's first (APNAP,
    /// CR 603.3b). A player with several orders them, and targets are chosen as each goes on
    /// the stack (CR 603.3d): both are decisions, asked by a [`TriggerProc`] pushed here.
    pub(crate) fn flush_triggers(&mut self) {
        if self.pending_triggers.is_empty() || self.is_over() {
            return;
        }
        let mut waiting = std::mem::take(&mut self.pending_triggers);
        // One ability (the usual case): nothing to sort or to order, no groups to make.
        if waiting.len() == 1 {
            let t = waiting.pop().expect("one waiting");
            let targeted = self.place_trigger(t).filter(|&(_, has_targets)| has_targets);
            if self.pending_triggers.is_empty() {
                self.pending_triggers = waiting; // empty: its room kept for the next ones
            }
            self.passes = 0; // a new object on the stack: the round of passing starts over
            if let Some((slot, _)) = targeted {
                self.frames.push(TriggerProc::frame(Vec::new(), vec![slot]));
            }
            return;
        }
        let n = self.players.len() as u8;
        let active = self.active;
        // Stable: trigger order kept.
        waiting.sort_by_key(|t| (t.controller + n - active) % n);
        // Each ability put on the stack, with its controller: one player's come together.
        let mut placed: SmallVec<[(u8, u32); 4]> = SmallVec::new();
        let mut with_targets: Vec<u32> = Vec::new();
        for t in waiting.drain(..) {
            let controller = t.controller;
            if let Some((slot, has_targets)) = self.place_trigger(t) {
                placed.push((controller, slot));
                if has_targets {
                    with_targets.push(slot);
                }
            }
        }
        if self.pending_triggers.is_empty() {
            self.pending_triggers = waiting; // empty: its room kept for the next ones
        }
        // A player with more than one orders them.
        let mut groups: Vec<Vec<u32>> = placed.chunk_by(|a, b| a.0 == b.0).filter(|run| run.len() > 1).map(|run| run.iter().map(|&(_, s)| s).collect()).collect();
        self.passes = 0; // new objects on the stack: the round of passing starts over
        if with_targets.is_empty() {
            self.order_at_once(&mut groups);
        }
        if !groups.is_empty() || !with_targets.is_empty() {
            groups.reverse(); // popped from the end: the active player's group first
            self.frames.push(TriggerProc::frame(groups, with_targets));
        }
    }

    /// The orders of `groups` (APNAP order, active player's first) given at once, as the
    /// [`TriggerProc`] asking them would have them answered (`Game::answer_at_once`: forced,
    /// or the policy's, recorded as `take_up` records): no target is to be chosen, which the
    /// frame would ask between two players' orders, so nothing comes between. The first group
    /// whose order a script, strict mode or nobody inside the engine gives, and those after
    /// it, are left to the frame.
    fn order_at_once(&mut self, groups: &mut Vec<Vec<u32>>) {
        #[cfg(test)]
        if FRAMED_TRIGGER_ORDERS.with(std::cell::Cell::get) {
            return;
        }
        let mut answered = 0;
        for group in groups.iter() {
            let player = self.objects[group[0] as usize].controller;
            let options = group.iter().map(|&s| self.id_of(s)).collect();
            let decision = Decision { player, purpose: Purpose::OrderTriggers, choice: Choice::Order { options } };
            let Some(Answer::Cards { cards }) = self.answer_at_once(&decision) else { break };
            // Kept as put on the stack (the goldfish's and first option's order) needs no move.
            if !cards.iter().map(|c| c.slot()).eq(group.iter().copied()) {
                reorder(self, group, &cards);
            }
            answered += 1;
        }
        groups.drain(..answered);
    }

    /// Puts the waiting ability `t` on the stack, unless its controller has left the game:
    /// its slot there, and whether it has targets to choose.
    #[inline(always)]
    fn place_trigger(&mut self, t: PendingTrigger) -> Option<(u32, bool)> {
        if self.players[t.controller as usize].lost.is_some() {
            return None;
        }
        let id = match &t.delayed {
            // A delayed trigger's source is the card whose ability created it.
            Some(d) => self.put_ability_object(t.controller, d.def, t.source, t.source_id, AbilityRef::Delayed),
            None => self.put_ability_object(t.controller, self.objects[t.source as usize].def, t.source, t.source_id, AbilityRef::Triggered(t.index)),
        };
        let item = self.stack_items.last_mut().expect("just pushed");
        item.delayed = t.delayed;
        item.triggering = t.triggering;
        item.triggering_controller = t.triggering_controller;
        self.objects[id.slot() as usize].cast = t.cast;
        let has_targets = !self.ability_targets(id.slot()).is_empty();
        self.log.push_with(|| Event::AbilityTriggered { player: t.controller, source: t.source_id, ability: id });
        Some((id.slot(), has_targets))
    }

    /// The target specifications of the ability on the stack in `slot`.
    pub(crate) fn ability_targets(&self, slot: u32) -> &[TargetSpec] {
        let Some(item) = self.stack_items.iter().rev().find(|it| it.slot == slot) else { return &[] };
        let Some((ability, _, _)) = item.ability else { return &[] };
        let rules = &self.defs[self.objects[slot as usize].def as usize].rules;
        match ability {
            AbilityRef::Activated(i) => &rules.activated[i as usize].targets,
            AbilityRef::Triggered(i) => &rules.triggers[i as usize].targets,
            AbilityRef::Delayed => &[],
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Set by tests to leave every order of triggered abilities to the frame, to compare the two.
    pub(crate) static FRAMED_TRIGGER_ORDERS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Ordering one player's simultaneous triggers, then choosing targets for those that have any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TriggerProc {
    /// Each player's abilities still to order (more than one each), next group last.
    groups: Vec<Vec<u32>>,
    /// The abilities (slots, bottom of the stack first) whose targets are still to choose.
    with_targets: Vec<u32>,
    /// Which target of the first ability in `with_targets` is next.
    next_target: usize,
    chosen: Vec<Vec<TargetRef>>,
    asked: bool,
}

impl TriggerProc {
    /// The frame that asks for these orders (`groups`, the next last) and then these targets.
    fn frame(groups: Vec<Vec<u32>>, with_targets: Vec<u32>) -> Frame {
        Frame::Triggers(Box::new(TriggerProc { groups, with_targets, next_target: 0, chosen: Vec::new(), asked: false }))
    }

    /// Player by player in APNAP order, each orders their abilities and then chooses their
    /// targets, so a player orders knowing the targets already chosen (CR 603.3b, 603.3d).
    pub(crate) fn step(mut self: Box<Self>, g: &mut Game) -> Step {
        loop {
            // Abilities leave the stack only while a decision waits (their controller left the
            // game); looked at once the answer in hand is used, not before.
            self.forget_gone(g);
            // Resumed: the answer says what was asked (a game saved by an earlier version may
            // have asked the orders first); else APNAP order decides what comes next.
            let ordering = match (&g.answer, self.asked) {
                (Some(answer), true) => matches!(answer, Answer::Cards { .. }),
                _ => self.ordering_next(g),
            };
            if ordering {
                let group = self.groups.last().expect("a group to order");
                if self.asked {
                    self.asked = false;
                    let Answer::Cards { cards } = g.take_answer() else { unreachable!("validated") };
                    reorder(g, group, &cards);
                    self.groups.pop();
                    // The ids changed order: keep the target queue in stack order too.
                    self.with_targets.sort_by_key(|&s| g.stack.iter().position(|&x| x == s));
                    continue;
                }
                let player = g.objects[group[0] as usize].controller;
                let options = group.iter().map(|&s| g.id_of(s)).collect();
                self.asked = true;
                return Step::Ask(Frame::Triggers(self), Decision { player, purpose: Purpose::OrderTriggers, choice: Choice::Order { options } });
            }
            let Some(&slot) = self.with_targets.first() else { return Step::Done };
            let specs = g.ability_targets(slot).to_vec();
            let controller = g.objects[slot as usize].controller;
            if self.asked {
                self.asked = false;
                let Answer::Targets { targets } = g.take_answer() else { unreachable!("validated") };
                self.chosen.push(targets);
                self.next_target += 1;
            }
            if self.next_target >= specs.len() {
                let targets = std::mem::take(&mut self.chosen);
                if let Some(item) = g.stack_items.iter_mut().rev().find(|it| it.slot == slot) {
                    item.targets = targets;
                }
                self.with_targets.remove(0);
                self.next_target = 0;
                continue;
            }
            let Ok(choice) = g.target_choice(&specs[self.next_target], controller) else {
                // CR 603.3d: without legal targets it is removed from the stack.
                g.take_stack_item(slot);
                g.cease(slot);
                self.chosen.clear();
                self.with_targets.remove(0);
                self.next_target = 0;
                continue;
            };
            self.asked = true;
            let d = Decision { player: controller, purpose: Purpose::Targets { index: self.next_target as u8 }, choice };
            return Step::Ask(Frame::Triggers(self), d);
        }
    }

    /// See [`crate::process::Frame::check_stored`]: an order asked is of the last group, whose
    /// abilities are together on the stack (they are put back in place in the order chosen).
    pub(crate) fn check_stored(&self, c: &crate::process::Stored) -> std::result::Result<(), String> {
        let g = c.g;
        c.slots(self.groups.iter().flatten().chain(&self.with_targets))?;
        c.ensure(self.groups.iter().all(|group| !group.is_empty()), || "has an empty group of abilities to order".into())?;
        c.ensure(self.chosen.len() == self.next_target, || format!("has {} targets chosen for its target {}", self.chosen.len(), self.next_target))?;
        let together = |group: &Vec<u32>, options: &Vec<ObjId>| {
            let (mut group, mut asked) = (group.clone(), options.iter().map(|o| o.slot()).collect::<Vec<_>>());
            let at: Option<Vec<usize>> = group.iter().map(|s| g.stack.iter().position(|x| x == s)).collect();
            let Some(mut at) = at else { return false };
            group.sort_unstable();
            asked.sort_unstable();
            at.sort_unstable();
            group == asked && at.windows(2).all(|w| w[1] == w[0] + 1) && at.iter().all(|&i| g.stack_items.get(i).is_some_and(|it| it.slot == g.stack[i]))
        };
        c.waits(self.asked, |choice| match choice {
            Choice::Order { options } => self.groups.last().is_some_and(|group| together(group, options)),
            Choice::Targets { .. } => !self.with_targets.is_empty(),
            _ => false,
        })
    }

    /// The question asked is withdrawn (the player it was asked of left the game): the next
    /// step works out afresh what to ask, and of whom.
    pub(crate) fn withdraw_question(&mut self) {
        self.asked = false;
    }

    /// Abilities that left the stack while a decision waited (their controller left the game,
    /// CR 800.4a) are neither ordered nor given targets; a group left with one isn't ordered.
    fn forget_gone(&mut self, g: &Game) {
        if self.asked {
            return; // the answer in hand refers to what was asked
        }
        let on_stack = |s: &u32| g.stack.contains(s);
        if !self.with_targets.iter().all(on_stack) || !self.groups.iter().flatten().all(on_stack) {
            if self.with_targets.first().is_some_and(|s| !on_stack(s)) {
                self.next_target = 0;
                self.chosen.clear();
            }
            self.with_targets.retain(on_stack);
            for group in &mut self.groups {
                group.retain(on_stack);
            }
            self.groups.retain(|group| group.len() > 1);
        }
    }

    /// Whether the next thing to do is ordering a group: its player comes no later in APNAP
    /// order than the controller of the next ability needing targets (a player orders before
    /// choosing their own targets; the stack, bottom first, is in APNAP order).
    fn ordering_next(&self, g: &Game) -> bool {
        let Some(group) = self.groups.last() else { return false };
        let Some(&next) = self.with_targets.first() else { return true };
        if self.next_target > 0 {
            return false; // in the middle of one ability's targets
        }
        let n = g.players.len();
        let apnap = |slot: u32| (g.objects[slot as usize].controller as usize + n - g.active as usize) % n;
        apnap(group[0]) <= apnap(next)
    }
}

/// Puts the abilities of `group` (contiguous on the stack) in the chosen order, first chosen
/// lowest.
fn reorder(g: &mut Game, group: &[u32], order: &[ObjId]) {
    let start = g.stack.iter().position(|s| group.contains(s)).expect("on the stack");
    let items: Vec<_> = order
        .iter()
        .map(|id| {
            let i = g.stack_items.iter().position(|it| it.slot == id.slot()).expect("on the stack");
            g.stack_items[i].clone()
        })
        .collect();
    for (k, item) in items.into_iter().enumerate() {
        g.stack[start + k] = item.slot;
        g.stack_items[start + k] = item;
    }
}

impl Game {
    /// Delayed triggers waiting for `you next cast an instant or sorcery spell this turn`.
    pub(crate) fn fire_spell_cast(&mut self, caster: u8, spell: ObjId) {
        if self.delayed.is_empty() {
            return;
        }
        let def = self.def_of_slot(spell.slot());
        let instant_or_sorcery = def.is(CardType::Instant) || def.is(CardType::Sorcery);
        let mut i = 0;
        while i < self.delayed.len() {
            let d = &self.delayed[i];
            if d.when == DelayedWhen::YouNextCastInstantOrSorceryThisTurn && d.controller == caster && d.turn == self.turn && instant_or_sorcery {
                let d = self.delayed.remove(i); // it triggers only once (CR 603.7b)
                self.fire_delayed(d, Some(spell));
            } else {
                i += 1;
            }
        }
    }

    /// Whether nothing would trigger as `step` begins: no permanent's "at the beginning of"
    /// ability could (CR 603.2), nor, at an end step, a delayed one (CR 513.1).
    #[inline(always)]
    pub(crate) fn step_beginning_unheard(&self, step: TurnStep) -> bool {
        !self.listens(kind::STEP_BEGAN) && (step != TurnStep::End || self.delayed.is_empty())
    }

    /// The beginning of the end step: delayed triggers waiting for it (CR 513.1), then
    /// permanents' "at the beginning of the end step".
    pub(crate) fn fire_end_step(&mut self) {
        let mut i = 0;
        while i < self.delayed.len() {
            let d = &self.delayed[i];
            // CR 513.2: one created during this end step waits for the next one.
            let created_now = d.turn == self.turn && d.step == TurnStep::End;
            let due = match d.when {
                DelayedWhen::BeginningOfYourNextEndStep => d.controller == self.active,
                DelayedWhen::BeginningOfNextEndStep => true,
                DelayedWhen::YouNextCastInstantOrSorceryThisTurn => false,
            };
            if due && !created_now {
                let d = self.delayed.remove(i);
                self.fire_delayed(d, None);
            } else {
                i += 1;
            }
        }
    }

    /// "This turn" delayed triggers expire when the turn ends.
    pub(crate) fn expire_delayed(&mut self) {
        let turn = self.turn;
        self.delayed.retain(|d| !(d.when == DelayedWhen::YouNextCastInstantOrSorceryThisTurn && d.turn < turn));
    }

    fn fire_delayed(&mut self, d: Delayed, triggering: Option<ObjId>) {
        let (source, source_id) = (d.source, d.source_id);
        let cast = d.cast;
        let fired = DelayedFired { effects: d.effects, def: d.def, cast: d.cast, remembered: d.remembered, triggering };
        // "That spell's controller" is read as it triggers, as for any other trigger.
        let triggering_controller = triggering.and_then(|t| self.object(t).ok()).map(|o| o.controller);
        self.pending_triggers.push(PendingTrigger {
            controller: d.controller,
            source,
            source_id,
            index: 0,
            cast,
            delayed: Some(Box::new(fired)),
            triggering,
            triggering_controller,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::TriggerEvent;
    use crate::{CardDb, Game, ObjId, Position, ZoneKind};

    /// What `fire` queues for each permanent entering, checked against matching every
    /// permanent, and how many triggers that is in all.
    fn queued_as_by_matching_all(g: &mut Game, entering: &[ObjId]) -> usize {
        let mut total = 0;
        for id in entering {
            let ev = TriggerEvent::Entered { slot: id.slot() };
            g.pending_triggers.clear();
            g.fire(ev);
            let heard = std::mem::take(&mut g.pending_triggers);
            g.fire_on_battlefield(ev);
            assert_eq!(heard, g.pending_triggers, "{id:?} entering");
            total += heard.len();
        }
        g.pending_triggers.clear();
        total
    }

    // CR 603.2, 603.6a: a permanent entering is matched against the permanents only when one
    // of its controller's waits for it (landfall for a land, its own "when this enters"), and
    // what each player's permanents wait for follows them entering (first or last), leaving
    // and changing control; skipping the rest queues what matching them all would.
    #[test]
    fn an_entering_permanent_is_matched_whenever_one_of_its_controllers_permanents_waits_for_it() {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        let mine = g.add_cards(0, ZoneKind::Battlefield, &["Ruin Crab", "Island", "Grizzly Bears"], Position::Top, db).unwrap();
        let theirs = g.add_cards(1, ZoneKind::Battlefield, &["Forest", "Temple of Malady"], Position::Top, db).unwrap();
        let all: Vec<ObjId> = mine.iter().chain(&theirs).copied().collect();
        let crab = mine[0].slot();
        // The Island (the Crab's landfall) and the Temple (its own entering).
        assert_eq!(queued_as_by_matching_all(&mut g, &all), 2);
        g.set_controller(crab, 1);
        assert!(g.battlefield_index_is_current());
        // The Forest and the Temple (the Crab's landfall, now theirs) and the Temple itself.
        assert_eq!(queued_as_by_matching_all(&mut g, &all), 3);
        g.move_slot(crab, ZoneKind::Graveyard, Position::Top);
        assert!(g.battlefield_index_is_current());
        assert_eq!(queued_as_by_matching_all(&mut g, &all), 1);
        let crab = g.move_slot(crab, ZoneKind::Battlefield, Position::Bottom);
        assert!(g.battlefield_index_is_current());
        let all: Vec<ObjId> = [crab].iter().chain(&all[1..]).copied().collect();
        assert_eq!(queued_as_by_matching_all(&mut g, &all), 2);
        // What a player's permanents wait for, changed behind the index's back, is caught.
        g.objects[crab.slot() as usize].controller = 1;
        assert!(g.check_invariants().is_err());
    }

    // CR 603.3b: a player's simultaneous triggered abilities ordered at once by their policy
    // (several Ruin Crabs hearing one land) leave every game as the trigger frame asking the
    // order does — the same answers recorded (or the game marked unrecorded), the same stack,
    // events and state — for goldfish, first-option and random players, recording or not; and
    // an order nobody inside the engine gives (a manual player), or a script's, waits in the
    // same frames either way.
    #[test]
    fn an_order_of_triggers_given_at_once_leaves_the_game_as_the_frame_asking_it() {
        use crate::test_support::deck;
        let decks = [
            deck(&[("Island", 22), ("Ruin Crab", 22), ("Glimpse the Unthinkable", 8), ("Fractured Sanity", 8)]),
            deck(&[("Forest", 22), ("Ruin Crab", 16), ("Grizzly Bears", 22)]),
        ];
        let set = |framed: bool| super::FRAMED_TRIGGER_ORDERS.with(|c| c.set(framed));
        let mut ordered = 0;
        for seed in 0..48 {
            let games = crate::test_support::played_both_ways(&decks, seed, seed % 2 == 0, set);
            assert_eq!(games[0].save_json(), games[1].save_json(), "seed {seed}");
            assert_eq!(games[0].events(), games[1].events(), "seed {seed}");
            assert!(games[0].history == games[1].history && games[0].unrecorded == games[1].unrecorded, "seed {seed}");
            // Orders given: two abilities of one player's triggered together, in the log.
            let triggered = |e: &crate::event::Event| match e {
                crate::event::Event::AbilityTriggered { player, .. } => Some(*player),
                _ => None,
            };
            ordered += games[0].events().windows(2).filter(|w| triggered(&w[0]).is_some() && triggered(&w[0]) == triggered(&w[1])).count();
        }
        assert!(ordered > 100, "{ordered}");
        // A manual player's two Crabs hear a land: the order waits, or a script gives it (the
        // abilities the other way round), in the same frames either way.
        let mut script = None;
        for scripted in [false, true] {
            let games = [true, false].map(|framed| {
                set(framed);
                let db = CardDb::builtin();
                let mut g = Game::new(2, 1).unwrap();
                g.add_cards(0, ZoneKind::Battlefield, &["Ruin Crab", "Ruin Crab"], Position::Top, db).unwrap();
                let land = g.add_cards(0, ZoneKind::Hand, &["Island"], Position::Top, db).unwrap()[0];
                g.set_policy(0, crate::policy::Policy::Manual).unwrap();
                g.set_recording(true);
                if scripted {
                    g.script(0, vec![crate::decision::Answer::Cards { cards: script.clone().unwrap() }]).unwrap();
                }
                g.play_land(land).unwrap();
                set(false);
                g
            });
            assert_eq!(games[0].save_json(), games[1].save_json(), "scripted: {scripted}");
            match games[0].pending() {
                Some(crate::decision::Decision { choice: crate::decision::Choice::Order { options }, .. }) if !scripted => {
                    script = Some(options.iter().rev().copied().collect::<Vec<ObjId>>());
                }
                None if scripted => assert_eq!(games[0].stack, script.iter().flatten().map(|id| id.slot()).collect::<Vec<u32>>()),
                other => panic!("scripted: {scripted}: {other:?}"),
            }
        }
    }
}
