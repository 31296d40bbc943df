//! Playing the game out: the player with priority chooses an action — pass, play a land, cast
//! a spell (CR 117.1) — as a decision, answered by their policy, a script, a Python callback
//! or the caller. Used to run whole turns and games.

use serde::{Deserialize, Serialize};

use crate::casting::CastOptions;
use crate::decision::{Answer, Choice, Decision, Purpose};
use crate::error::{invalid, Result};
use crate::game::{Game, Progress};
use crate::object::ObjId;
use crate::process::{Frame, Step};
use crate::turn::Step as TurnStep;

/// Something the player with priority can do.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum PriorityAction {
    /// Pass priority (CR 117.3d).
    Pass,
    /// Play this land (CR 305.1).
    PlayLand {
        /// The land card in the player's hand.
        card: ObjId,
    },
    /// Cast this spell from hand, or from the graveyard with flashback or where a permission
    /// allows (CR 601, 702.34); its own choices follow as decisions.
    Cast {
        /// The card to cast, in the player's hand or graveyard.
        card: ObjId,
    },
    /// Activate ability `index` of `source` (CR 602), cycling included; its choices follow as
    /// decisions.
    Activate {
        /// The card in hand or permanent whose ability it is.
        source: ObjId,
        /// Which of its card's activated abilities: an index into `rules.activated` (mana abilities aside).
        index: u16,
    },
}

/// What a player could pay with now, found once while looking over the spells they could
/// cast from their hand: the most mana they could make in all (`None` if a static ability of
/// theirs reduces spell costs, so that a cost might come below its least mana), the mana by
/// type from their pool and untapped sources (`None` if a source could make more than one
/// type, which counting can't settle), and whether no static ability of theirs changes what
/// their spells cost.
pub(crate) struct Supply {
    most: Option<u32>,
    by_type: Option<[u64; 6]>,
    /// All the mana of `by_type` (when it is given).
    total: u64,
    plain_costs: bool,
}

/// Where a [`Game::play`] started, to tell when it has got where it was going.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlayState {
    turn: u32,
    step: TurnStep,
    left_step: bool,
}

impl PlayState {
    /// Notes `g`'s turn and step now, as the start [`Game::reached`] measures from.
    pub fn new(g: &Game) -> PlayState {
        PlayState { turn: g.turn, step: g.step, left_step: false }
    }
}

/// A simulation's play that nothing watches but the turn limit (no stop condition, no
/// measure taken as play goes): where it is in its count of actions per step, which it keeps
/// as the simulation's loop would between its calls of [`Game::play_one`], so that play may
/// go on within one call.
pub(crate) struct PlayOn {
    /// Play stops when this turn has begun (or the game is over).
    until_turn: u32,
    /// The turn and step the actions are counted in, and how many were begun there.
    at: (u32, TurnStep),
    actions: u64,
}

impl PlayOn {
    /// Play from `g` as it is now until turn `until_turn` begins.
    pub fn new(g: &Game, until_turn: u32) -> PlayOn {
        PlayOn { until_turn, at: (g.turn, g.step), actions: 0 }
    }

    /// Whether the game is over or the turn limit reached.
    #[inline(always)]
    pub fn reached(&self, g: &Game) -> bool {
        g.is_over() || g.turn_begun(self.until_turn)
    }

    /// Counts an action about to begin; whether it is one too many for its step: a loop of
    /// mandatory actions (CR 104.4b), where play stops.
    #[inline(always)]
    pub fn one_too_many(&mut self, g: &Game) -> bool {
        if (g.turn, g.step) != self.at {
            (self.at, self.actions) = ((g.turn, g.step), 0);
        }
        self.actions += 1;
        self.actions > crate::turn::LOOP_ACTIONS
    }
}

/// When [`Game::play`] stops (besides a decision nobody inside the engine answers).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Until {
    /// The game ends.
    GameOver,
    /// The turn now in progress ends (the game is at the next turn's upkeep).
    EndOfTurn,
    /// The game reaches turn `n`'s upkeep (or ends).
    Turn(u32),
    /// The game reaches the next time this step begins.
    Step(TurnStep),
}

#[cfg(test)]
thread_local! {
    /// Set by tests to leave every decision of a chosen cast to the run loop, to compare the two.
    pub(crate) static FRAMED_CASTS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PriorityProc {
    options: Vec<PriorityAction>,
    /// Set while the chosen action runs above this frame: if it turns out illegal (a cost
    /// that can't be paid after the choices made), it is reversed and the player, who keeps
    /// priority (CR 733.2), chooses again without it.
    #[serde(default)]
    running: Option<PriorityAction>,
    /// Actions already tried and reversed at this priority.
    #[serde(default)]
    failed: Vec<PriorityAction>,
    /// The goldfish's action, when it was worked out before this frame began.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    chosen: Option<PriorityAction>,
    /// How many answers the game had recorded when the decision was asked: a cancelled
    /// action takes the answer that chose it back out of the record too.
    #[serde(default)]
    asked_at: usize,
}

impl PriorityProc {
    pub(crate) fn new() -> PriorityProc {
        PriorityProc { options: Vec::new(), running: None, failed: Vec::new(), chosen: None, asked_at: 0 }
    }

    /// See [`crate::process::Frame::check_stored`]: the actions name objects the game has, and
    /// while it waits its options are the decision's (the answer is an index into them).
    pub(crate) fn check_stored(&self, c: &crate::process::Stored) -> std::result::Result<(), String> {
        let actions = self.options.iter().chain(&self.running).chain(&self.failed).chain(&self.chosen);
        c.objects(actions.filter_map(|a| match a {
            PriorityAction::Pass => None,
            PriorityAction::PlayLand { card } | PriorityAction::Cast { card } => Some(card),
            PriorityAction::Activate { source, .. } => Some(source),
        }))?;
        c.waits(!self.options.is_empty(), |choice| matches!(choice, Choice::Actions { options } if *options == self.options))
    }

    pub(crate) fn step(mut self: Box<Self>, g: &mut Game) -> Step {
        if self.running.is_some() {
            g.spare_priority.keep(self);
            return Step::Done; // the chosen action finished
        }
        if !self.options.is_empty() {
            let Answer::Action { index } = g.take_answer() else { unreachable!("validated") };
            let action = self.options[index as usize];
            self.options.clear();
            return self.take(g, action);
        }
        let Some(p) = g.priority else { return Step::Done };
        if let Some(action) = self.chosen.take() {
            return self.take(g, action);
        }
        if g.answers_itself(p, crate::policy::Policy::Goldfish) {
            // The goldfish's choice, worked out without listing every action first.
            let action = g.goldfish_action(p, |a| !self.failed.contains(a));
            return self.take(g, action);
        }
        let mut options = g.priority_actions(p);
        options.retain(|a| !self.failed.contains(a));
        let d = Decision { player: p, purpose: Purpose::Priority, choice: Choice::Actions { options: options.clone() } };
        self.options = options;
        self.asked_at = g.history.len();
        Step::Ask(Frame::Priority(self), d)
    }

    /// Takes the chosen action; what it starts runs above this frame.
    fn take(mut self: Box<Self>, g: &mut Game, action: PriorityAction) -> Step {
        if let PriorityAction::Cast { card } = action {
            return self.cast(g, card);
        }
        match g.start_action(action) {
            Ok(Some(frame)) => {
                self.running = Some(action);
                g.frames.push(Frame::Priority(self));
                g.frames.push(frame);
                Step::Done
            }
            Ok(None) => Step::Done,
            Err(e) => Step::Fail(e),
        }
    }

    /// Casts `card`, chosen at this priority (see [`PriorityProc::cast_over`]).
    fn cast(self: Box<Self>, g: &mut Game, card: crate::object::ObjId) -> Step {
        PriorityProc::cast_over(g, card, |_| self)
    }

    /// Casts `card`, chosen at the priority of the frame `frame` gives: the cast's first step
    /// is taken here, as the run loop would take it next from a frame pushed above the
    /// priority frame (the same step, the same outcome for the loop to handle). The cast's
    /// frame is boxed only if it waits for a decision, and the priority frame goes beneath it
    /// only then or if it fails (to take the choice back, CR 733.2): a cast done at once leaves
    /// it nothing to do but be popped.
    fn cast_over(g: &mut Game, card: crate::object::ObjId, frame: impl FnOnce(&mut Game) -> Box<PriorityProc>) -> Step {
        // Most casts announce nothing and are paid in place: done at once, no cast set up.
        if g.cast_plainly(card) {
            g.actions_taken += 1;
            return Step::Done;
        }
        let flashback = g.slot_of(card).is_ok_and(|slot| g.casts_with_flashback(slot));
        // Worked on where `cast_proc` put it (a cast is large to move), and freed by hand there
        // once done (`CastProc::release`).
        let mut made = g.cast_proc(card, CastOptions { flashback, ..Default::default() }).map(std::mem::ManuallyDrop::new);
        let Ok(cast) = &mut made else { return Step::Fail(made.expect_err("not made")) };
        g.actions_taken += 1;
        let depth = g.frames.len();
        let mut outcome = cast.advance(g);
        // A decision answered at once (by the caster's policy, say) is answered here, as the
        // run loop would answer it before stepping the cast again: the cast goes on unboxed,
        // with no priority frame beneath it.
        while let Ok(Some(d)) = &outcome {
            #[cfg(test)]
            if FRAMED_CASTS.with(std::cell::Cell::get) {
                break;
            }
            let Some(answer) = g.answer_at_once(d) else { break };
            g.answer = Some(answer);
            outcome = cast.advance(g);
        }
        if !matches!(outcome, Ok(None)) {
            let mut frame = frame(g);
            frame.running = Some(PriorityAction::Cast { card });
            g.frames.insert(depth, Frame::Priority(frame));
        }
        match outcome {
            Ok(None) => {
                cast.release();
                Step::Done
            }
            Ok(Some(d)) => Step::Ask(Frame::Cast(Box::new(std::mem::ManuallyDrop::into_inner(made.expect("made")))), d),
            Err(e) => {
                cast.release();
                Step::Fail(e)
            }
        }
    }

    /// How many answers were recorded before the one that chose the action running above
    /// this frame; `None` if none is running.
    pub(crate) fn answers_before_running(&self) -> Option<usize> {
        self.running.map(|_| self.asked_at)
    }

    /// The action running above this frame failed: it is reversed, and the player chooses
    /// again. `None` if this frame wasn't running one.
    pub(crate) fn retry(mut self: Box<Self>) -> Option<Box<PriorityProc>> {
        let action = self.running.take()?;
        self.failed.push(action);
        Some(self)
    }
}

impl Game {
    /// The actions the player with priority can take now: pass first, then the lands they may
    /// play, then the spells they may cast and can pay for (unkicked) from their hand, then
    /// those from their graveyard (with flashback, or by a permission), then the activated
    /// abilities they could activate. Casting a graveyard card uses a permission when one
    /// applies and flashback otherwise.
    pub fn priority_actions(&self, p: u8) -> Vec<PriorityAction> {
        let mut out = vec![PriorityAction::Pass];
        self.visit_priority_actions(p, Some(&|_| true), |a| {
            out.push(a);
            false
        });
        out
    }

    /// Calls `visit` with each action `p` may take now besides passing, in the order of
    /// [`Game::priority_actions`], until it returns true. Each is worked out only when reached,
    /// so a policy that takes the first of a kind stops early. Activated abilities are visited
    /// only if `considers` is given, and only those it accepts are worked out.
    pub(crate) fn visit_priority_actions(&self, p: u8, considers: Option<&dyn Fn(&crate::rules::ActivatedAbility) -> bool>, mut visit: impl FnMut(PriorityAction) -> bool) {
        if self.priority != Some(p) || self.is_over() {
            return;
        }
        let sorcery_time = self.step.is_main() && self.active == p && self.stack.is_empty();
        let hand = &self.players[p as usize].hand;
        use crate::object::Object;
        let flags = |s: u32| self.objects[s as usize].flags;
        if sorcery_time && self.lands_played == 0 {
            for &s in hand {
                if flags(s) & Object::LAND != 0 && visit(PriorityAction::PlayLand { card: self.id_of(s) }) {
                    return;
                }
            }
        }
        // Outside sorcery timing only instants and flash cards are cast: in a game with none,
        // no card in hand or graveyard need be looked at.
        let any_castable = sorcery_time || self.def_flags & Object::FAST != 0;
        // What `p` could pay with, found once, when first needed.
        let mut supply: Option<Supply> = None;
        for &slot in if any_castable { hand.as_slice() } else { &[] } {
            // Lands aren't cast; outside sorcery timing only instants and flash cards are.
            if flags(slot) & Object::LAND != 0 || !(sorcery_time || flags(slot) & Object::FAST != 0) {
                continue;
            }
            let def = self.def_of_slot(slot);
            let supply = supply.get_or_insert_with(|| self.supply(p));
            if supply.most.is_some_and(|most| def.least_mana > most) {
                continue; // more than all the mana they could make, whatever it costs exactly
            }
            // Most cards: no target or discard to find, and their own cost (no static changing
            // it; a card in hand is never cast with flashback) counted against the supply —
            // what `could_cast` comes to for them, without the call.
            let counted = match (supply.plain_costs, &supply.by_type, &def.plain_needs_alone) {
                (true, Some(have), Some(needs)) => needs.covered_by(have, supply.total),
                _ => self.could_cast(p, slot, Some(supply)),
            };
            if counted && visit(PriorityAction::Cast { card: self.id_of(slot) }) {
                return;
            }
        }
        // Cards they may cast from their graveyard: with flashback, or by a permission.
        let permission =
            any_castable && self.def_flags & Object::GRAVEYARD_PERMISSION != 0 && self.statics().any(|(_, st)| matches!(st, crate::rules::StaticAbility::CastFromGraveyard { .. }));
        let graveyard: &[u32] = if any_castable && (permission || self.def_flags & Object::FLASHBACK != 0) { &self.players[p as usize].graveyard } else { &[] };
        for &slot in graveyard {
            let f = flags(slot);
            if f & Object::LAND != 0 || !(sorcery_time || f & Object::FAST != 0) || !(f & Object::FLASHBACK != 0 || permission) {
                continue;
            }
            if (f & Object::FLASHBACK != 0 || self.may_cast_from_graveyard(p, self.def_of_slot(slot)))
                && self.could_cast(p, slot, None)
                && visit(PriorityAction::Cast { card: self.id_of(slot) })
            {
                return;
            }
        }
        // Activated abilities they could begin and pay for: cycling in hand, permanents', and
        // (only if some card has one) those that work from a graveyard, exile or the command zone.
        // A hand with no such card (counted as it changes) isn't looked over.
        let Some(considers) = considers else { return };
        // Each zone is walked in a loop of its own, the others only when some card has such
        // an ability: a chain of iterators over them cost more to set up than it walked.
        let hand_activated: &[u32] = if self.activated_in_hand[p as usize] != 0 { hand } else { &[] };
        for &slot in hand_activated {
            if self.visit_activated_of(p, slot, considers, &mut visit) {
                return;
            }
        }
        for &slot in &self.indexed.activated {
            if self.visit_activated_of(p, slot, considers, &mut visit) {
                return;
            }
        }
        if self.def_flags & Object::ACTIVATED_ELSEWHERE != 0 {
            for &slot in [&self.players[p as usize].graveyard, &self.exile, &self.command].into_iter().flatten() {
                if self.visit_activated_of(p, slot, considers, &mut visit) {
                    return;
                }
            }
        }
    }

    /// [`Game::visit_priority_actions`] for the activated abilities of the object in `slot`:
    /// true once `visit` has had enough.
    #[inline(always)]
    fn visit_activated_of(&self, p: u8, slot: u32, considers: &dyn Fn(&crate::rules::ActivatedAbility) -> bool, visit: &mut impl FnMut(PriorityAction) -> bool) -> bool {
        let o = &self.objects[slot as usize];
        if o.flags & crate::object::Object::ACTIVATED == 0 {
            return false; // a card in hand without one (the permanents listed all have one)
        }
        // An ability that works from another zone (a planeswalker's in hand, a cycling
        // creature's on the battlefield) is refused for its zone first: not asked about.
        for (i, a) in self.def_of_slot(slot).rules.activated.iter().enumerate() {
            if a.zone == o.zone.kind && considers(a) && self.could_activate(p, slot, i) && visit(PriorityAction::Activate { source: self.id_of(slot), index: i as u16 }) {
                return true;
            }
        }
        false
    }

    /// Whether `p`, outside their sorcery timing, has no card [`Game::visit_priority_actions`]
    /// would look at to cast: no instant or flash card in hand, and no card in the game with
    /// flashback or a permission to cast from a graveyard.
    pub(crate) fn nothing_to_cast_outside_sorcery_timing(&self, p: u8) -> bool {
        self.nothing_cast_from_graveyards() && self.fast_in_hand[p as usize] == 0
    }

    /// Whether no player could pay for an instant or flash card in their hand now (true when
    /// none holds one): outside their sorcery timing, with nothing cast from graveyards, a
    /// goldfish would then pass without looking further — each such card costs more mana
    /// than all its holder could make, the first test [`Game::visit_priority_actions`] passes
    /// it over by.
    #[inline(always)]
    pub(crate) fn no_fast_card_affordable(&self) -> bool {
        self.fast_in_hand == [0; crate::game::MAX_PLAYERS] || self.fast_cards_unaffordable()
    }

    /// [`Game::no_fast_card_affordable`] when someone holds an instant or flash card.
    #[inline(never)]
    fn fast_cards_unaffordable(&self) -> bool {
        (0..self.players.len()).all(|q| self.fast_in_hand[q] == 0 || self.most_mana(q as u8).is_some_and(|most| self.fast_least_in_hand[q] > most))
    }

    /// [`Supply::most`] for `p`, without the count by type where the kept count answers.
    #[inline(always)]
    fn most_mana(&self, p: u8) -> Option<u32> {
        match self.counted_supply(p) {
            Some(counted) => Some(crate::payment::supply_counted_total(&self.players[p as usize].pool, counted).min(u32::MAX as u64) as u32),
            None => self.supply_walked(p).most,
        }
    }

    /// Whether no card in the game has flashback or a permission to cast from a graveyard (a
    /// conjured card may bring one).
    #[inline(always)]
    fn nothing_cast_from_graveyards(&self) -> bool {
        use crate::object::Object;
        self.def_flags & (Object::FLASHBACK | Object::GRAVEYARD_PERMISSION) == 0
    }

    /// What `p` could pay with now (see [`Supply`]).
    fn supply(&self, p: u8) -> Supply {
        match self.counted_supply(p) {
            Some(counted) => {
                let (total, by_type) = crate::payment::supply_counted(&self.players[p as usize].pool, counted);
                Supply { most: Some(total.min(u32::MAX as u64) as u32), by_type, total, plain_costs: true }
            }
            None => self.supply_walked(p),
        }
    }

    /// `p`'s untapped sources as counted, when with their pool they are all `p` could pay
    /// with: most often no card of the game changes what spells cost and `p`'s sources are
    /// all counted as they come and go, so the count is the answer, with no walk to set up.
    #[inline(always)]
    fn counted_supply(&self, p: u8) -> Option<&crate::game::UntappedMana> {
        let counted = &self.indexed.untapped_mana[p as usize];
        (self.def_flags & crate::object::Object::COST_STATIC == 0 && counted.others == 0).then_some(counted)
    }

    /// [`Game::supply`] when a static ability may change spell costs or a source must be
    /// looked at.
    #[inline(never)]
    fn supply_walked(&self, p: u8) -> Supply {
        // One pass over their static abilities for both (what `plain_costs` finds alone), if
        // any card of the game has one changing what spells cost.
        let (mut reduces, mut changes) = (false, false);
        if self.def_flags & crate::object::Object::COST_STATIC != 0 {
            self.for_each_static(p, |st| {
                reduces |= matches!(st, crate::rules::StaticAbility::CostReduction { .. });
                changes |= crate::cost::changes_spell_costs(st);
            });
        }
        let (total, by_type) = self.count_supply(p, None);
        Supply { most: (!reduces).then(|| total.min(u32::MAX as u64) as u32), by_type, total, plain_costs: !changes }
    }

    /// Whether no static ability of `p`'s changes what their spells cost.
    fn plain_costs(&self, p: u8) -> bool {
        self.def_flags & crate::object::Object::COST_STATIC == 0 || !self.static_sources(p).any(|s| self.def_of_slot(s).rules.statics.iter().any(crate::cost::changes_spell_costs))
    }

    /// Whether `p` could cast the card in `slot` now as far as targets and costs go (unkicked,
    /// with no X): required targets exist, an additional discard can be made, the cost paid.
    fn could_cast(&self, p: u8, slot: u32, supply: Option<&Supply>) -> bool {
        let def = self.def_of_slot(slot);
        let required_targets_exist =
            def.rules.targets.iter().filter(|t| t.required_unkicked() && !t.up_to && t.mode.is_none()).all(|t| self.has_target_options(t, p, None, t.count));
        if !(required_targets_exist && self.additional_discard_payable(p, slot)) {
            return false;
        }
        // Counted against the supply found once for all the cards looked at, when it can be.
        let have = supply.and_then(|s| s.by_type.as_ref());
        // Unless a static ability of the owner's changes spell costs or it is cast with
        // flashback, the cost is the card's own, worked out once (what `total_cost_of` gives).
        // The supply is only given for cards in `p`'s hand, which are `p`'s own.
        let owner = self.objects[slot as usize].owner;
        let plain = supply.map_or_else(|| self.plain_costs(owner), |s| s.plain_costs);
        let (p, cost) = if plain && !self.casts_with_flashback(slot) {
            let Some(symbols) = &def.plain_cost else { return false };
            if let (Some(have), Some((need, generic))) = (have, &def.plain_needs) {
                return crate::payment::fits(need, *generic, have);
            }
            (owner, crate::payment::CostToPay { symbols: symbols.clone(), x: 0, life_available: self.players[owner as usize].life as i64 })
        } else {
            let Ok(found) = self.total_cost_of(self.id_of(slot), &[], 0) else { return false };
            found
        };
        match have.and_then(|have| crate::payment::covered(&cost, have)) {
            Some(payable) => payable,
            None => self.can_pay_mana(p, &cost, None),
        }
    }

    /// The player with priority takes `action`, not a cast (what their priority frame does
    /// with it): the frame of the work it starts, if it runs above the priority frame.
    /// Inlined into its two callers: its own frame set up and torn down around what it calls
    /// cost more than its body.
    #[inline(always)]
    fn start_action(&mut self, action: PriorityAction) -> Result<Option<Frame>> {
        let frame = self.take_action(action)?;
        self.actions_taken += 1;
        if frame.is_none() {
            // Priority just moved on.
            self.quiet_pass = action == PriorityAction::Pass && self.unattended;
        }
        Ok(frame)
    }

    /// The goldfish's action other than a pass (see [`Game::resolve_by_last_pass`]), worked
    /// out before any frame, taken in unattended play with nothing waiting: what its priority
    /// frame would do, but with the frame made only if the action runs work above it (a land
    /// is played at once, CR 305.1). An action that fails fails as it would under the frame,
    /// which has nothing beneath it to retry.
    fn perform_chosen(&mut self, action: PriorityAction) -> Result<Progress> {
        debug_assert!(action != PriorityAction::Pass, "a goldfish's pass is made in play_inner or by resolve_by_last_pass");
        self.undoable(|g| {
            g.output.clear();
            if let PriorityAction::Cast { card } = action {
                // As its frame would cast it, the frame made only if the cast needs it.
                let step = PriorityProc::cast_over(g, card, |g| g.spare_priority.boxed(PriorityProc::new()));
                return g.run_after_unless_idle(step);
            }
            if let PriorityAction::PlayLand { card } = action {
                // Played at once (CR 305.1): what start_action does with it, without its dispatch,
                // nor its checks: the goldfish chose it where `visit_priority_actions` offers a
                // land only if it may be played now.
                #[cfg(test)]
                assert!(g.playable_land(card).is_ok(), "the goldfish chose a land it may not play");
                let p = g.priority.expect("the goldfish has priority");
                g.land_played(p, card.slot());
                (g.actions_taken, g.quiet_pass) = (g.actions_taken + 1, false);
                return g.run_unless_idle();
            }
            if let Some(frame) = g.start_action(action)? {
                // The priority frame waits beneath the action to take the choice back if it
                // fails (CR 733.2).
                let priority = g.spare_priority.boxed(PriorityProc { running: Some(action), ..PriorityProc::new() });
                g.frames.push(Frame::Priority(priority));
                g.frames.push(frame);
            }
            g.run()
        })
    }

    /// The goldfish `p`'s pass, the last of a round with the stack not empty, taken in
    /// unattended play with nothing waiting: the top of the stack resolves (CR 117.4, 608.1).
    /// What a priority frame would do with such a pass, without the general action's
    /// dispatch: its resolution frame goes alone, as a resolution never fails back to a
    /// priority frame. (Not counted in `actions_taken`, which only a recorded game needs.)
    fn resolve_by_last_pass(&mut self, p: u8) -> Result<Progress> {
        debug_assert!(self.priority == Some(p) && self.unattended && !self.stack.is_empty());
        self.output.clear();
        let all_passed = self.pass_by(p);
        debug_assert!(all_passed, "the last pass of a round");
        // Its frame, stepped here rather than pushed for the run loop to pop at once (as
        // `Frame::take_over` would, but for this one kind).
        if self.outcome.is_some() {
            self.frames.push(Frame::Resolve(crate::stack::ResolveProc::new()));
            return self.run(); // the run loop drops it with the rest (CR 104.1)
        }
        let step = crate::stack::ResolveProc::new().step(self);
        self.run_after_unless_idle(step)
    }

    /// Carries out a chosen priority action other than a cast; returns the work it starts.
    /// (A cast's first step is taken by its priority frame itself, unboxed: see
    /// `PriorityProc::cast`, where both callers send casts.)
    fn take_action(&mut self, action: PriorityAction) -> Result<Option<Frame>> {
        match action {
            PriorityAction::Pass => self.pass_inner(),
            PriorityAction::PlayLand { card } => self.play_land_inner(card).map(|_| None),
            PriorityAction::Cast { .. } => Err(invalid("a cast is taken by its priority frame (PriorityProc::cast)")),
            PriorityAction::Activate { source, index } => self.activate_frame(source, index as usize, Default::default()).map(Some),
        }
    }

    /// Plays the game on: whoever has priority chooses an action (their policy, script or
    /// callback answers; a manual player stops the game with the decision pending) until
    /// `until` is reached, the game ends, or `max_actions` actions have been taken.
    pub fn play(&mut self, until: Until, max_actions: u64) -> Result<Progress> {
        self.ensure_idle()?;
        if let Until::Step(s) = until {
            if matches!(s, TurnStep::Untap | TurnStep::Cleanup | TurnStep::DeclareBlockers | TurnStep::CombatDamage) {
                return Err(invalid(format!("the game never stops in the {} step without combat or a decision", s.name())));
            }
        }
        // A play that fails part-way is undone whole, not just its last action.
        self.undoable(|g| g.play_actions(until, max_actions))
    }

    fn play_actions(&mut self, until: Until, max_actions: u64) -> Result<Progress> {
        let mut state = PlayState::new(self);
        for _ in 0..max_actions {
            if self.reached(until, &mut state) {
                return Ok(Progress::Done(Vec::new()));
            }
            if self.play_one()? == Progress::Paused {
                return Ok(Progress::Paused);
            }
        }
        Ok(Progress::Done(Vec::new()))
    }

    /// Whether turn `n` (or a later one) has begun: play got past its untap step, where nobody
    /// acts.
    #[inline(always)]
    fn turn_begun(&self, n: u32) -> bool {
        self.turn >= n && self.step >= TurnStep::Upkeep
    }

    /// Whether a play started at `state` has got to `until` (or the game is over).
    pub fn reached(&self, until: Until, state: &mut PlayState) -> bool {
        state.left_step |= self.step != state.step || self.turn != state.turn;
        self.is_over()
            || match until {
                Until::GameOver => false,
                Until::EndOfTurn => self.turn > state.turn,
                Until::Turn(n) => self.turn_begun(n),
                Until::Step(s) => state.left_step && self.step == s,
            }
    }

    /// The player with priority takes one action chosen by their policy (or stops the game
    /// with the decision pending). In unattended play, goldfish passes that change nothing a
    /// simulation's conditions look at are made in the same call, up to and with the next
    /// action that may.
    pub fn play_one(&mut self) -> Result<Progress> {
        self.play_inner(None)
    }

    /// [`Game::play_one`] for a simulation that watches nothing but the turn limit: after each
    /// action play goes on within the call, as the simulation's loop would call again, until
    /// `on` says play stops, a decision is pending, or nobody has priority.
    pub(crate) fn play_on(&mut self, on: &mut PlayOn) -> Result<Progress> {
        self.play_inner(Some(on))
    }

    fn play_inner(&mut self, mut on: Option<&mut PlayOn>) -> Result<Progress> {
        self.ensure_idle()?;
        let Some(mut p) = self.priority else {
            return Err(invalid("nobody has priority, so the game can't go on from here"));
        };
        let mut turn = self.turn;
        // Checked as play begins and after each step change: a pass changes none of it.
        let mut settled = self.unattended_and_settled();
        let all_goldfish = self.seats.iter().all(|s| s.policy == crate::policy::Policy::Goldfish);
        let mut unseen = self.goldfish_pass_unseen(all_goldfish);
        let mut passed_precombat = false;
        'play: loop {
            let progress = 'action: {
                // Unattended, a goldfish's pass is made without a frame, and play goes on until
                // something a simulation's conditions could see may change: priority moves on
                // and nothing else changes (CR 117.3d); when the last player passes with an
                // empty stack the step ends (CR 117.4, 500.2), and a next step of the same turn
                // with no turn-based action only empties mana pools and triggers abilities
                // (which stop this). So the caller checks its conditions once, after, seeing
                // what it would have seen before each of these passes.
                // (Whatever this call ends with clears the output first: a pass puts out nothing.)
                if settled && self.rest_of_round_passes_unseen(p, unseen) {
                    // Every player still to pass this round would pass without looking.
                    if !self.stack.is_empty() {
                        // All but the last pass at once, and the last one's pass resolves the top
                        // of the stack (CR 117.4, 608.1).
                        while self.passes as usize + 1 < self.live_players() {
                            self.pass_by(p);
                            p = self.priority.expect("passed to the next player");
                        }
                        break 'action self.resolve_by_last_pass(p)?;
                    }
                    // The round is made at once, leaving nobody with priority, as its last pass
                    // would.
                    (self.passes, self.priority) = (0, None);
                } else {
                    if !self.answers_itself(p, crate::policy::Policy::Goldfish) {
                        break 'action self.perform(Frame::Priority(Box::new(PriorityProc::new())))?;
                    }
                    // The active goldfish who passed in its precombat main phase passes again in
                    // its postcombat one when play got there within this call and no action was
                    // taken between: only quiet steps began in between, with nothing triggering
                    // (that would have stopped this), so all it looks at is as it was, but for
                    // mana pools emptied — and less mana makes nothing castable that wasn't.
                    let again = passed_precombat && p == self.active && self.step == TurnStep::PostcombatMain && self.stack.is_empty();
                    let action = if again { PriorityAction::Pass } else { self.goldfish_action(p, |_| true) };
                    passed_precombat |= settled && action == PriorityAction::Pass && p == self.active && self.step == TurnStep::PrecombatMain && self.stack.is_empty();
                    if !settled {
                        // Worked out once: the frame takes it as chosen.
                        break 'action self.perform(Frame::Priority(Box::new(PriorityProc { chosen: Some(action), ..PriorityProc::new() })))?;
                    }
                    if action != PriorityAction::Pass {
                        break 'action self.perform_chosen(action)?;
                    }
                    let last = self.passes as usize + 1 >= self.live_players();
                    if !last {
                        self.pass_by(p);
                        p = self.priority.expect("passed to the next player");
                        continue 'play;
                    }
                    if !self.stack.is_empty() {
                        break 'action self.resolve_by_last_pass(p)?;
                    }
                    // The priority frame would only wait beneath the next step's work, which
                    // casts nothing and so never fails back to it.
                    self.pass_by(p);
                }
                let (progress, played_on) = self.end_step(unseen, passed_precombat, on.as_deref_mut())?;
                if played_on {
                    // The simulation's loop would have gone on from the new turn's upkeep (it
                    // checked as it would): as then.
                    (turn, passed_precombat) = (self.turn, false);
                }
                settled = self.unattended_and_settled();
                match self.priority {
                    Some(next) if progress != Progress::Paused && self.turn == turn && self.step.begins_quietly() && settled => p = next,
                    // A simulation that watches only the turn limit would call again: play goes
                    // on as it would then (the check below, made here).
                    Some(next) if progress != Progress::Paused && settled && on.as_mut().is_some_and(|on| !on.reached(self) && !on.one_too_many(self)) => {
                        (p, turn, passed_precombat) = (next, self.turn, false);
                    }
                    _ => break 'action progress,
                }
                continue 'play;
            };
            // Where play_one returns: play goes on if the simulation's loop would call again.
            let Some(on) = &mut on else { return Ok(progress) };
            let next = match self.priority {
                Some(next) if progress != Progress::Paused && self.pending.is_none() && !on.reached(self) && !on.one_too_many(self) => next,
                _ => return Ok(progress),
            };
            (p, turn, settled, passed_precombat) = (next, self.turn, self.unattended_and_settled(), false);
            unseen = self.goldfish_pass_unseen(all_goldfish);
        }
    }

    /// Whether, all players being goldfish, none looks at anything when it passes outside its
    /// sorcery timing for a reason that lasts while no action is taken: nothing is cast from
    /// graveyards ([`Game::nothing_cast_from_graveyards`]), and the log doesn't record the
    /// passes. Instants and flash cards in hand are counted
    /// apart, since a draw may bring one.
    fn goldfish_pass_unseen(&self, all_goldfish: bool) -> bool {
        all_goldfish && self.nothing_cast_from_graveyards() && !self.log.recording
    }

    /// Whether each player still to pass in this round of passes, from `p` (who has priority),
    /// would pass without looking, given `unseen` ([`Game::goldfish_pass_unseen`]): none could
    /// pay for an instant or flash card ([`Game::no_fast_card_affordable`]), and none still to
    /// pass is in their sorcery timing: nobody is while the stack holds something (CR 307.1);
    /// with an empty stack, outside a main phase, or the active player in one having passed
    /// already.
    #[inline(always)]
    fn rest_of_round_passes_unseen(&self, p: u8, unseen: bool) -> bool {
        unseen && (!self.stack.is_empty() || !self.step.is_main() || (p != self.active && self.passes as usize + 1 == self.live_players())) && self.no_fast_card_affordable()
    }

    /// An unattended run with no work in progress, the game going on, no trigger waiting to go
    /// on the stack and no legend rule to apply.
    fn unattended_and_settled(&self) -> bool {
        self.unattended && self.frames.is_empty() && self.outcome.is_none() && self.pending_triggers.is_empty() && !self.legendary_entered
    }
}

impl std::fmt::Display for PriorityAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PriorityAction::Pass => f.write_str("pass"),
            PriorityAction::PlayLand { card } => write!(f, "play land {}", card.0),
            PriorityAction::Cast { card } => write!(f, "cast {}", card.0),
            PriorityAction::Activate { source, index } => write!(f, "activate ability {index} of {}", source.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::card::CardDb;
    use crate::game::Game;
    use crate::policy::Policy;
    use crate::zone::{Position, ZoneKind};

    #[test]
    fn the_most_mana_counted_is_the_supplys() {
        // What the round of passes counts as the most mana a player could make (from the kept
        // count where it answers) is what the goldfish's look finds in their supply: on random
        // boards of basic lands and a land with a choice, some tapped, mana in the pool, and
        // now and then a source that isn't plain or a card changing what spells cost.
        let db = CardDb::builtin();
        let mut rng = crate::rng::Rng::new(0x3057);
        const NAMES: [&str; 7] = ["Plains", "Island", "Swamp", "Mountain", "Forest", "Wastes", "Canyon Slough"];
        let mut counted = 0;
        for round in 0..400 {
            let mut g = Game::new(2, 1).unwrap();
            let names: Vec<&str> = (0..rng.below(9)).map(|_| NAMES[rng.below(7) as usize]).collect();
            for land in g.add_cards(0, ZoneKind::Battlefield, &names, Position::Top, db).unwrap() {
                if rng.below(4) == 0 {
                    g.set_tapped(land, true).unwrap();
                }
            }
            for _ in 0..rng.below(3) {
                g.players[0].pool.add(crate::payment::ManaType::ALL[rng.below(6) as usize], 1);
            }
            match round % 5 {
                3 => drop(g.add_cards(0, ZoneKind::Battlefield, &["Everflowing Chalice"], Position::Top, db).unwrap()),
                4 => drop(g.add_cards(0, ZoneKind::Battlefield, &["The Water Crystal"], Position::Top, db).unwrap()),
                _ => counted += 1,
            }
            assert_eq!(g.most_mana(0), g.supply(0).most, "{names:?}");
        }
        assert!(counted > 0);
    }

    #[test]
    fn the_spells_offered_are_those_the_general_test_finds_castable() {
        // What the priority actions offer to cast from hand (counted against the supply, by the
        // card's own cost when nothing could change it) is what `could_cast` finds working the
        // cost out and asking the payment solver: for every built-in card, alone in hand (an
        // additional discard has nothing to discard) or with an Island, with none to seven lands
        // untapped, with and without The Water Crystal (blue spells cost {1} less). Counterspell
        // and Ertai's Trickery have no spell to target; Unexpected Windfall needs a discard.
        let db = CardDb::builtin();
        let names: Vec<String> = db.iter().filter(|d| !d.token && !d.is(crate::card::CardType::Land)).map(|d| d.name.to_string()).collect();
        let (mut offered, mut refused) = (0, 0);
        for crystal in [false, true] {
            for untapped in 0..=7 {
                for with_island in [false, true] {
                    for name in &names {
                        let mut g = Game::new(2, 1).unwrap();
                        g.set_recording(false);
                        let lands = g.add_cards(0, ZoneKind::Battlefield, &["Mountain", "Island", "Mountain", "Island", "Swamp", "Forest", "Plains"], Position::Top, db).unwrap();
                        for (i, &land) in lands.iter().enumerate() {
                            g.set_tapped(land, i >= untapped).unwrap();
                        }
                        if crystal {
                            g.add_cards(0, ZoneKind::Battlefield, &["The Water Crystal"], Position::Top, db).unwrap();
                        }
                        if with_island {
                            g.add_cards(0, ZoneKind::Hand, &["Island"], Position::Top, db).unwrap();
                        }
                        let card = g.add_cards(0, ZoneKind::Hand, &[name.as_str()], Position::Top, db).unwrap()[0];
                        assert!(g.step.is_main() && g.active == 0 && g.stack.is_empty() && g.priority == Some(0));
                        let expected = g.could_cast(0, card.slot(), None);
                        let actions = g.priority_actions(0);
                        assert_eq!(actions.contains(&super::PriorityAction::Cast { card }), expected, "{name}, {untapped} untapped, crystal: {crystal}, island: {with_island}");
                        if expected {
                            offered += 1;
                        } else {
                            refused += 1;
                        }
                    }
                }
            }
        }
        assert!(offered > 0 && refused > 0);
    }

    #[test]
    fn a_chosen_cast_answered_at_once_leaves_the_game_as_the_run_loop_answering_it() {
        // CR 601.2b–c: a chosen cast whose decisions (a target, a kick, a multikick) are answered
        // at once, where it was begun, leaves every game as the run loop answering them above
        // its priority frame does — the same answers recorded (or the game marked unrecorded),
        // the same events and state — for goldfish, first-option and random players, recording
        // or not; and a decision nobody inside the engine answers (a manual caster), or one a
        // script answers, waits in the same frames either way.
        let db = CardDb::builtin();
        use crate::test_support::deck;
        let decks = [
            deck(&[
                ("Island", 14),
                ("Swamp", 5),
                ("Forest", 5),
                ("Glimpse the Unthinkable", 8),
                ("Maddening Cacophony", 8),
                ("Monstrous War-Leech", 8),
                ("Joint Exploration", 8),
                ("Smuggler's Surprise", 4),
            ]),
            deck(&[("Forest", 14), ("Plains", 10), ("Joraga Warcaller", 12), ("Glimpse the Unthinkable", 4), ("Swamp", 4), ("Island", 4), ("Grizzly Bears", 12)]),
        ];
        let mut answered = 0;
        for seed in 0..72 {
            let games = crate::test_support::played_both_ways(&decks, seed, seed % 2 == 0, |framed| super::FRAMED_CASTS.with(|c| c.set(framed)));
            assert_eq!(games[0].save_json(), games[1].save_json(), "seed {seed}");
            assert_eq!(games[0].events(), games[1].events(), "seed {seed}");
            assert!(games[0].history == games[1].history && games[0].unrecorded == games[1].unrecorded, "seed {seed}");
            answered += games[0]
                .history
                .iter()
                .filter(|(_, a)| matches!(a, crate::decision::Answer::Targets { .. } | crate::decision::Answer::YesNo { .. } | crate::decision::Answer::Number { .. }))
                .count();
        }
        assert!(answered > 100, "{answered}");
        // A manual caster, or a scripted one, chooses to cast Glimpse the Unthinkable: its target
        // waits, or the script answers it, in the same frames either way.
        for scripted in [false, true] {
            let games = [true, false].map(|framed| {
                super::FRAMED_CASTS.with(|c| c.set(framed));
                let mut g = Game::new(2, 1).unwrap();
                g.add_cards(0, ZoneKind::Battlefield, &["Island", "Swamp"], Position::Top, db).unwrap();
                let card = g.add_cards(0, ZoneKind::Hand, &["Glimpse the Unthinkable"], Position::Top, db).unwrap()[0];
                g.set_policy(0, Policy::Manual).unwrap();
                g.set_recording(true);
                assert_eq!(g.play_one().unwrap(), crate::game::Progress::Paused);
                let Some(crate::decision::Decision { choice: crate::decision::Choice::Actions { options }, .. }) = g.pending() else { panic!() };
                let index = options.iter().position(|a| *a == super::PriorityAction::Cast { card }).unwrap() as u32;
                if scripted {
                    g.script(0, vec![crate::decision::Answer::Targets { targets: vec![crate::target::TargetRef::Player(0)] }]).unwrap();
                }
                let progress = g.answer(crate::decision::Answer::Action { index }).unwrap();
                super::FRAMED_CASTS.with(|c| c.set(false));
                (progress, g)
            });
            assert_eq!(games[0].0, games[1].0, "scripted: {scripted}");
            assert_eq!(games[0].1.save_json(), games[1].1.save_json(), "scripted: {scripted}");
            assert_eq!(games[0].1.pending().is_some(), !scripted);
        }
    }

    #[test]
    fn a_cast_that_cant_be_paid_after_its_choices_is_taken_back() {
        // CR 733.2, 601.2h: Smuggler's Surprise ({G}, spree) looks castable with two lands, by
        // its cheapest mode; the goldfish chooses its first mode (+{2}), which two lands can't
        // pay. The cast is reversed and the goldfish chooses again, and passes: framed or
        // unattended, the game goes on as if the cast was never begun.
        for unattended in [false, true] {
            let db = CardDb::builtin();
            let mut g = Game::new(2, 1).unwrap();
            g.set_recording(false);
            g.unattended = unattended;
            let lands = g.add_cards(0, ZoneKind::Battlefield, &["Forest", "Island"], Position::Top, db).unwrap();
            let hand = g.add_cards(0, ZoneKind::Hand, &["Smuggler's Surprise"], Position::Top, db).unwrap();
            g.set_policy(0, Policy::Goldfish).unwrap();
            g.set_policy(1, Policy::Goldfish).unwrap();
            g.play_one().unwrap();
            assert_eq!(g.zone(0, ZoneKind::Hand).unwrap(), hand, "unattended: {unattended}");
            assert!(lands.iter().all(|&l| !g.objects[l.slot() as usize].tapped), "unattended: {unattended}");
            assert!(g.stack.is_empty() && g.priority != Some(0), "unattended: {unattended}");
        }
    }
}
