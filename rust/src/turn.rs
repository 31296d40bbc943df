//! Turn structure (CR 500–514) and priority (CR 117): steps in order, turn-based actions,
//! mana emptying between steps, and passing priority until the top of the stack resolves or
//! the step ends.

use serde::{Deserialize, Serialize};

use crate::actions::discard::DiscardMode;
use crate::error::{illegal, invalid, Result};
use crate::event::Event;
use crate::game::{Game, Progress};
use crate::process::{Frame, Step as FrameStep};
use crate::zone::ZoneKind;

/// Actions within one step after which that step is taken to be a loop of mandatory actions
/// that can't end (CR 104.4b: "whenever you scry, scry 1" on its own). No real step comes near:
/// resolving 64,000 triggered abilities with two players takes about 128,000.
pub const LOOP_ACTIONS: u64 = 1_000_000;

/// The steps of a turn, in order (CR 500.1). Main phases have no steps; they are listed as
/// steps here for simplicity.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// Untap step (CR 502): the active player's permanents untap; nobody gets priority.
    Untap,
    /// Upkeep step (CR 503): no turn-based actions; "at the beginning of your upkeep" triggers.
    Upkeep,
    /// Draw step (CR 504): the active player draws a card, then gets priority. The starting player of a
    /// two-player game skips it on their first turn (CR 103.8a).
    Draw,
    /// The first, precombat main phase (CR 505.1).
    PrecombatMain,
    /// Beginning of combat step (CR 507).
    BeginCombat,
    /// Declare attackers step (CR 508).
    DeclareAttackers,
    /// Declare blockers step (CR 509); skipped when no creatures attack (CR 508.8).
    DeclareBlockers,
    /// Combat damage step (CR 510); skipped when no creatures attack (CR 508.8).
    CombatDamage,
    /// End of combat step (CR 511).
    EndCombat,
    /// The second, postcombat main phase (CR 505.1).
    PostcombatMain,
    /// End step (CR 513): "at the beginning of the end step" triggers.
    End,
    /// Cleanup step (CR 514): discard to hand size, damage wears off, "until end of turn" effects end.
    Cleanup,
}

impl Step {
    /// Every step in turn order; a step's index here is `step as usize`.
    pub const ALL: [Step; 12] = [
        Step::Untap,
        Step::Upkeep,
        Step::Draw,
        Step::PrecombatMain,
        Step::BeginCombat,
        Step::DeclareAttackers,
        Step::DeclareBlockers,
        Step::CombatDamage,
        Step::EndCombat,
        Step::PostcombatMain,
        Step::End,
        Step::Cleanup,
    ];

    /// The snake_case name the Python API and messages use ("untap", "precombat_main", ...); also its serde form.
    pub fn name(self) -> &'static str {
        match self {
            Step::Untap => "untap",
            Step::Upkeep => "upkeep",
            Step::Draw => "draw",
            Step::PrecombatMain => "precombat_main",
            Step::BeginCombat => "begin_combat",
            Step::DeclareAttackers => "declare_attackers",
            Step::DeclareBlockers => "declare_blockers",
            Step::CombatDamage => "combat_damage",
            Step::EndCombat => "end_combat",
            Step::PostcombatMain => "postcombat_main",
            Step::End => "end",
            Step::Cleanup => "cleanup",
        }
    }

    /// The step named `s` (as given by [`Step::name`]); an invalid-argument error for any other string.
    pub fn parse(s: &str) -> Result<Step> {
        Step::ALL.into_iter().find(|x| x.name() == s).ok_or_else(|| invalid(format!("unknown step {s:?} (steps: {})", Step::ALL.map(Step::name).join(", "))))
    }

    /// True in either main phase, where the active player may take sorcery-speed actions if the stack is empty (CR 117.1a, 505.6a).
    pub fn is_main(self) -> bool {
        matches!(self, Step::PrecombatMain | Step::PostcombatMain)
    }

    /// A step with no turn-based action (unlike the untap, draw, combat damage and cleanup
    /// steps: CR 502, 504.1, 510.2, 514): its beginning only empties mana pools and triggers
    /// abilities. (The precombat main's, lore counters on Sagas, CR 505.4, has no card in the
    /// engine yet. Declaring attackers, CR 508.1, is one, but with no combat in the engine yet
    /// nobody attacks: the declare attackers step leaves this list when combat arrives.)
    /// Listed rather than excluded, so a step that gains one is left out.
    pub(crate) fn begins_quietly(self) -> bool {
        matches!(self, Step::Upkeep | Step::PrecombatMain | Step::BeginCombat | Step::DeclareAttackers | Step::EndCombat | Step::PostcombatMain | Step::End)
    }

    /// The step that begins after this one within a turn; `None` after cleanup. Without
    /// attacking creatures (combat arrives later) the declare blockers and combat damage steps
    /// are skipped (CR 508.8): they don't begin at all.
    fn next(self) -> Option<Step> {
        // Looked up: asked several times a step.
        const NEXT: [Option<Step>; Step::ALL.len()] = {
            let mut next = [None; Step::ALL.len()];
            let mut i = 0;
            while i + 1 < Step::ALL.len() {
                next[i] = match Step::ALL[i + 1] {
                    Step::DeclareBlockers | Step::CombatDamage => Some(Step::EndCombat),
                    s => Some(s),
                };
                i += 1;
            }
            next
        };
        NEXT[self as usize]
    }
}

/// Moving the game to the next step that gives priority, doing turn-based actions on the way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct AdvanceProc {
    /// Set while the cleanup discard (CR 514.1) is being chosen.
    discarding: bool,
}

impl AdvanceProc {
    pub(crate) fn new() -> AdvanceProc {
        AdvanceProc { discarding: false }
    }

    /// One step of the frame: the advance, which always finishes the step (what it waits
    /// for, the cleanup discard, it pushes).
    pub(crate) fn step(self, g: &mut Game) -> FrameStep {
        self.advance(g);
        FrameStep::Done
    }

    /// Back from the cleanup discard: finishes the cleanup step, and unless someone gets
    /// priority in it, goes on to the next turn. Out of line: a hand seldom holds more than
    /// the maximum.
    #[cold]
    #[inline(never)]
    fn after_discard(mut self, g: &mut Game) {
        self.discarding = false;
        if g.finish_cleanup() {
            return;
        }
        g.start_turn();
        self.advance(g);
    }

    /// Pushes the cleanup discard of `count` cards by `active` (CR 514.1) with this frame
    /// beneath it, to finish the cleanup step once it is done. Out of line: a hand seldom
    /// holds more than the maximum.
    #[cold]
    #[inline(never)]
    fn discard_down(mut self, g: &mut Game, active: u8, count: u32) {
        self.discarding = true;
        g.frames.push(Frame::Advance(self));
        g.push_discard(active, count, DiscardMode::Choose, false);
    }

    /// Moves the game on to the next step that gives priority, or pushes the cleanup discard
    /// with this frame beneath it to finish once it is done.
    pub(crate) fn advance(self, g: &mut Game) {
        loop {
            if self.discarding {
                return self.after_discard(g);
            }
            // Players who got priority in a cleanup step pass into another cleanup step
            // (CR 514.3a).
            let again = g.step == Step::Cleanup;
            let next = if again { Some(Step::Cleanup) } else { g.step.next() };
            if next == Some(Step::Draw) {
                return g.begin_draw_step();
            }
            g.empty_mana_pools();
            let Some(next) = next else {
                g.start_turn();
                continue;
            };
            if next.begins_quietly() {
                g.begin_quiet_step(next);
                return;
            }
            g.step = next;
            g.log.push_with(|| Event::StepBegan { turn: g.turn, step: next, active: g.active });
            // "At the beginning of ..." (CR 603.2). A cleanup step that follows one in which
            // players got priority (CR 514.3a) doesn't trigger them again: an ability that
            // triggers at every cleanup would otherwise never let the turn end.
            if !again {
                g.fire(crate::trigger::TriggerEvent::StepBegan { step: next });
            }
            match next {
                Step::Untap | Step::Draw => unreachable!("the untap step begins a turn; the draw step is begun above"),
                Step::DeclareBlockers | Step::CombatDamage => unreachable!("skipped (Step::next)"),
                Step::Cleanup => {
                    let active = g.active;
                    let hand = g.players[active as usize].hand.len();
                    let max = g.max_hand_size(active);
                    g.priority = None;
                    if let Some(max) = max.filter(|&m| hand > m) {
                        // CR 514.1: discard down to the maximum hand size.
                        self.discard_down(g, active, (hand - max) as u32);
                        return;
                    }
                    if g.finish_cleanup() {
                        return;
                    }
                    g.start_turn();
                    // The untap step ends with the mana pools emptied as the cleanup step began:
                    // nothing since has made mana (nobody got priority). The upkeep begins.
                    #[cfg(test)]
                    assert!(g.players.iter().all(|p| p.pool == crate::payment::ManaPool::EMPTY), "mana made in an untap step");
                    g.begin_quiet_step(Step::Upkeep);
                    return;
                }
                // A step with a turn-based action the engine doesn't do yet (none today: a
                // step that begins quietly is begun above): its active player gets priority.
                _ => {
                    g.priority_to(g.active);
                    return;
                }
            }
        }
    }
}

impl Game {
    /// The current step of the turn (main phases count as steps here).
    pub fn step(&self) -> Step {
        self.step
    }

    /// The player who has priority, if any (nobody during untap and cleanup).
    pub fn priority_player(&self) -> Option<usize> {
        self.priority.map(usize::from)
    }

    /// The player with priority passes (CR 117.3d). When every player in the game has passed
    /// in succession, the top object of the stack resolves (CR 117.4, 608), or, with an empty
    /// stack, the step ends and the game moves to the next step that gives priority.
    pub fn pass_priority(&mut self) -> Result<Progress> {
        self.ensure_idle()?;
        // The pass and the work it starts are one action: if that fails, the pass is undone too.
        self.undoable(|g| g.pass_and_go_on())
    }

    /// A pass and what it starts (a resolution or the next step), without an undo of its own:
    /// the actions made of several passes undo once, around all of them.
    fn pass_and_go_on(&mut self) -> Result<Progress> {
        match self.pass_inner()? {
            Some(frame) => self.perform(frame),
            // The next player is about to receive priority: state-based actions first (CR
            // 117.5, 704.3). Every action checked them as it finished; only setup since then
            // (cards put onto the battlefield) may have made one apply.
            None if self.unchecked_setup => {
                self.check_state_based_actions();
                self.settle()
            }
            None => Ok(Progress::Done(Vec::new())),
        }
    }

    /// The pass itself; returns the work it starts (a resolution or the next step), if any.
    pub(crate) fn pass_inner(&mut self) -> Result<Option<Frame>> {
        let p = self.priority.ok_or_else(|| illegal("no player has priority now"))?;
        let all_passed = self.pass_by(p);
        Ok(all_passed.then(|| if self.stack.is_empty() { Frame::Advance(AdvanceProc::new()) } else { Frame::Resolve(crate::stack::ResolveProc::new()) }))
    }

    /// `p`, who has priority, passes (CR 117.3d): priority goes to the next player, or, when
    /// every player has passed in succession (CR 117.4), to nobody — true then, and the top of
    /// the stack resolves or the step ends. Always inlined: most actions of a game are passes
    /// made here, and a call costs a good part of one.
    #[inline(always)]
    pub(crate) fn pass_by(&mut self, p: u8) -> bool {
        self.passes += 1;
        self.log.push_with(|| Event::PassedPriority { player: p });
        if self.passes as usize >= self.live_players() {
            self.passes = 0;
            self.priority = None;
            return true;
        }
        self.priority = Some(self.next_live_player(p));
        false
    }

    /// The step ends, after every player passed with an empty stack (CR 117.4, 500.2): the
    /// game moves to the next step that gives priority, as a whole action. Its first part
    /// can't fail, so it runs outside frames (what the advance frame would do, stepped at once).
    /// With `unseen` ([`Game::goldfish_pass_unseen`]), a next step of this turn that begins
    /// quietly, isn't a main phase (or is the postcombat one, with `passes_again`) and triggers
    /// nothing ends as it began, and the game goes on to the one after. With `on` too, so do
    /// the next turn's upkeep and draw step, when the simulation would play on from them and
    /// nobody has an instant or flash card to look at; true with the progress if play went on
    /// into a new turn so.
    pub(crate) fn end_step(&mut self, unseen: bool, passes_again: bool, mut on: Option<&mut crate::play::PlayOn>) -> Result<(Progress, bool)> {
        if !self.unattended || self.unchecked_setup {
            let progress = self.perform_from(|g| AdvanceProc::new().advance(g))?;
            return Ok((progress, false));
        }
        // Unattended: the action as `perform_from` would do it, with a next step of this turn
        // that has no turn-based action begun without the advance frame. (A cleanup step,
        // where players got priority, has no next: another cleanup step follows, CR 514.3a.)
        self.output.clear();
        let turn = self.turn;
        let mut played_on = false;
        loop {
            let mut next = self.step.next().filter(|s| s.begins_quietly());
            if next.is_some() {
                self.empty_mana_pools();
                // Steps it would end at once (below) with nothing triggering as they began are
                // passed through: a beginning would leave only an event the log, `unseen`,
                // doesn't record, and priority, which its end takes back. Nothing between them
                // fills a mana pool, so emptying them once does for all.
                // So is the postcombat main phase when the active goldfish passed in the
                // precombat one with nothing done since (`passes_again`: it would pass again
                // without looking, see `Game::play_inner`): the others, who passed after it
                // there, find all they would look at as it was then, but for mana pools
                // emptied, and pass again too.
                if unseen && self.turn == turn && self.frames.is_empty() {
                    // Most often all of them, from the beginning of combat to the end step: at
                    // once, when nothing listens to a step's beginning and no delayed trigger
                    // waits for the end step's.
                    if passes_again && next == Some(Step::BeginCombat) && self.step_beginning_unheard(Step::End) {
                        (self.step, next) = (Step::End, None);
                    }
                    while let Some(s) = next.filter(|&s| (!s.is_main() || (s == Step::PostcombatMain && passes_again)) && self.step_beginning_unheard(s)) {
                        self.step = s;
                        next = s.next().filter(|s| s.begins_quietly());
                    }
                }
            }
            match next {
                Some(next) => self.begin_quiet_step(next),
                // Most often after a new turn's upkeep: the draw step follows, begun at once
                // as the advance would find and begin it.
                None if self.step == Step::Upkeep => self.begin_draw_step(),
                None => AdvanceProc::new().advance(self),
            }
            // The state-based actions were checked as the pass began, finding nothing (CR
            // 117.5). A step with no turn-based action changes nothing the check looks at as
            // it begins — it empties mana pools and triggers abilities, which wait. Nor does a
            // new turn's untap step, reached only when the cleanup step's own check found
            // nothing (CR 514.3a). So the check before the next priority is skipped, and with
            // no trigger, no legend rule and no frame waiting, so is the rest of the run.
            if !self.step.begins_quietly() || !self.frames.is_empty() {
                // A draw from an empty library clears the quiet mark: the run checks then.
                let progress = self.run_unless_idle()?;
                // After the draw and the check it needs (CR 504.1, 117.5), the draw step's
                // round, as the simulation's loop would go on to make it; not with what
                // triggered put on the stack.
                if !(unseen && self.step == Step::Draw && progress != Progress::Paused && self.stack.is_empty() && self.new_turn_passes_unseen(&mut on)) {
                    return Ok((progress, played_on));
                }
                (self.passes, self.priority) = (0, None);
                continue;
            }
            let waiting = !self.pending_triggers.is_empty() || self.legendary_entered;
            self.quiet_pass = waiting; // as the run would leave it, having skipped the check
            if waiting {
                return self.run().map(|progress| (progress, played_on));
            }
            // Every player passed in the step that ended, and all they would look at is as it
            // was then, but for mana pools emptied: in a step of this turn outside their
            // sorcery timing they would pass again. So its round is made at once, leaving
            // nobody with priority, as its last pass would (CR 117.4).
            if !unseen || self.step.is_main() {
                return Ok((Progress::Done(Vec::new()), played_on));
            }
            if self.turn != turn && !played_on {
                if !self.new_turn_passes_unseen(&mut on) {
                    return Ok((Progress::Done(Vec::new()), false));
                }
                played_on = true;
            }
            (self.passes, self.priority) = (0, None);
        }
    }

    /// Whether, in a new turn's upkeep or draw step begun within [`Game::end_step`] with
    /// nothing waiting, the simulation playing `on` would go on (its check, made here as its
    /// loop would make it: it stops if the cleanup step's check ended the game) and every
    /// player would pass without looking: untapping and drawing may have made an instant
    /// castable that wasn't when they last passed, so none may be able to pay for one now.
    #[inline(always)]
    fn new_turn_passes_unseen(&self, on: &mut Option<&mut crate::play::PlayOn>) -> bool {
        self.no_fast_card_affordable()
            && self.frames.is_empty()
            && self.pending_triggers.is_empty()
            && !self.legendary_entered
            && on.as_mut().is_some_and(|on| !on.reached(self) && !on.one_too_many(self))
    }

    /// Every player passes in turn, from the one with priority, until the top object of the
    /// stack has resolved (or the game stops for a decision or ends).
    pub fn resolve_top(&mut self) -> Result<Progress> {
        self.ensure_idle()?;
        if self.stack.is_empty() {
            return Err(illegal("the stack is empty"));
        }
        let top = self.id_of(*self.stack.last().expect("not empty"));
        // Several passes, each its own action; one that fails undoes them all (CR 733).
        self.undoable(|g| loop {
            let progress = g.pass_and_go_on()?;
            let gone = g.live_slot(top).is_none_or(|s| g.objects[s as usize].zone.kind != ZoneKind::Stack);
            if progress == Progress::Paused || gone || g.is_over() || g.priority.is_none() {
                return Ok(progress);
            }
        })
    }

    /// Every player passes with an empty stack until the game reaches the next `step` (later
    /// this turn, or next turn's if it is now in that step or past it). Stops early for a
    /// decision or the end of the game.
    pub fn advance_to(&mut self, step: Step) -> Result<Progress> {
        self.ensure_idle()?;
        if !self.stack.is_empty() {
            return Err(illegal("the stack isn't empty: resolve it (or pass priority) before moving to another step"));
        }
        if matches!(step, Step::Untap | Step::Cleanup | Step::DeclareBlockers | Step::CombatDamage) {
            return Err(invalid(format!("the game never stops in the {} step without combat or a decision", step.name())));
        }
        let (start_step, start_turn) = (self.step, self.turn);
        let mut left = false;
        self.passing_on(false, |g| {
            left |= g.step != start_step || g.turn != start_turn;
            left && g.step == step
        })
    }

    /// Everyone passes (with `resolve_whole`, an object on the stack is passed on until it has
    /// resolved) until `reached` holds, the game stops for a decision, or it ends. A step that
    /// goes on for [`LOOP_ACTIONS`] passes (or resolutions) is a loop of mandatory actions
    /// (CR 104.4b): an error, and the game is as it was before.
    fn passing_on(&mut self, resolve_whole: bool, mut reached: impl FnMut(&Game) -> bool) -> Result<Progress> {
        // The position to go back to after a loop, without the event log and the replay
        // record (which only grow, and are cut back instead): holding them would make the
        // first event logged copy the whole log.
        let mut before = Box::new(self.clone());
        (before.log.events, before.history) = Default::default();
        let (events, answers) = (self.log.events.len(), self.history.len());
        let mut looped = false;
        let (mut at, mut passes) = ((self.turn, self.step), 0u64);
        let progress = self.undoable(|g| loop {
            if reached(g) {
                return Ok(Progress::Done(Vec::new()));
            }
            if (g.turn, g.step) != at {
                (at, passes) = ((g.turn, g.step), 0);
            }
            passes += 1;
            if passes > LOOP_ACTIONS {
                looped = true;
                return Err(illegal(format!(
                    "the {} step of turn {} didn't end after {LOOP_ACTIONS} actions: a loop of mandatory actions (CR 104.4b); nothing was done",
                    g.step.name(),
                    g.turn
                )));
            }
            let progress = if resolve_whole && !g.stack.is_empty() { g.resolve_top()? } else { g.pass_and_go_on()? };
            if progress == Progress::Paused || g.is_over() {
                return Ok(progress);
            }
        });
        if looped {
            let (mut log, mut history) = (std::mem::take(&mut self.log.events), std::mem::take(&mut self.history));
            std::sync::Arc::make_mut(&mut log).truncate(events);
            std::sync::Arc::make_mut(&mut history).truncate(answers);
            *self = *before;
            (self.log.events, self.history) = (log, history);
        }
        progress
    }

    /// Ends the turn: passes through the remaining steps to the next turn's upkeep.
    pub fn next_turn(&mut self) -> Result<Progress> {
        let turn = self.turn;
        self.ensure_idle()?;
        self.passing_on(true, |g| g.turn != turn && g.step == Step::Upkeep)
    }

    /// A player receives priority: first waiting triggered abilities go on the stack
    /// (CR 117.5, 603.3).
    pub(crate) fn give_priority(&mut self, p: u8) {
        self.priority = Some(self.live_or_next(p));
        self.passes = 0;
        self.flush_triggers();
    }

    /// Inside a frame: `p` is to receive priority once the work in progress is finished. The
    /// run loop then checks state-based actions and puts waiting triggered abilities on the
    /// stack, in that order (CR 117.5), before anyone acts. Inlined: it ends every resolution,
    /// and with everyone in the game (each player who lost is listed among the losers) it is
    /// `p` without a look at `p`.
    #[inline(always)]
    pub(crate) fn priority_to(&mut self, p: u8) {
        self.priority = Some(if self.losers.is_empty() { p } else { self.live_or_next(p) });
        self.passes = 0;
    }

    /// `p`, or if `p` has left the game the next player in turn order still in it: priority
    /// that would go to an active player who left goes there instead (CR 800.4j).
    fn live_or_next(&self, p: u8) -> u8 {
        if self.players[p as usize].lost.is_none() {
            p
        } else {
            self.next_live_player(p)
        }
    }

    pub(crate) fn live_players(&self) -> usize {
        // Each player who has lost is listed once among the losers (a stored invariant).
        self.players.len() - self.losers.len()
    }

    /// The next player in turn order who is still in the game.
    pub(crate) fn next_live_player(&self, p: u8) -> u8 {
        let n = self.players.len() as u8;
        if self.losers.is_empty() {
            // Everyone is in the game (each loser is listed among the losers).
            return if p + 1 == n { 0 } else { p + 1 };
        }
        let mut q = p;
        loop {
            // Wrapped by a compare, not `% n`: a division on every pass costs more.
            q = if q + 1 == n { 0 } else { q + 1 };
            if self.players[q as usize].lost.is_none() || q == p {
                return q;
            }
        }
    }

    /// CR 514.2: damage wears off and "until end of turn" effects end. Then, if state-based
    /// actions happen or abilities trigger, the active player gets priority in this cleanup step
    /// (CR 514.3a): true if so. Inlined: once a turn, and the call cost a good part of it.
    #[inline(always)]
    fn finish_cleanup(&mut self) -> bool {
        // Damage wears off (CR 514.2). None is marked unless the flag says it may be.
        if self.damage_marked {
            for &s in &self.battlefield {
                self.objects[s as usize].damage = 0;
            }
            self.damage_marked = false;
        }
        self.end_until_end_of_turn();
        // CR 514.3a: state-based actions performed or triggers waiting: the active player gets
        // priority, and another cleanup step follows.
        let performed = self.check_state_based_actions();
        if (!performed && self.pending_triggers.is_empty()) || self.is_over() {
            return false;
        }
        self.give_priority(self.active);
        true
    }

    /// The first turn's skipped draw step (CR 103.8a) leaves no trace in the log. Out of
    /// line: once a game. (An empty log, shared with the game it was copied from, isn't
    /// copied to take nothing out.)
    #[cold]
    #[inline(never)]
    fn unlog_first_draw_step(&mut self) {
        if !self.log.events.is_empty() {
            std::sync::Arc::make_mut(&mut self.log.events).retain(|e| !matches!(e, Event::StepBegan { step: Step::Draw, turn: 1, .. }));
        }
    }

    /// Mana empties at the end of each step and phase (CR 500.5). Several times a turn, so the
    /// usual two-player game empties both pools without a loop, whose setup costs more than
    /// the stores; others by index (an iterator's unrolled loop costs more still).
    fn empty_mana_pools(&mut self) {
        use crate::payment::ManaPool;
        if let [a, b] = &mut self.players[..] {
            (a.pool, b.pool) = (ManaPool::EMPTY, ManaPool::EMPTY);
            return;
        }
        for p in 0..self.players.len() {
            self.players[p].pool = ManaPool::EMPTY;
        }
    }

    /// The upkeep ends, mana pools emptied (CR 500.5), and the draw step begins: the active
    /// player draws (CR 504.1), "at the beginning of the draw step" abilities trigger
    /// (CR 603.2) and the active player is to receive priority (CR 504.2). Out of line: the
    /// advance and the unattended end of an upkeep begin it alike.
    #[inline(never)]
    fn begin_draw_step(&mut self) {
        self.empty_mana_pools();
        self.step = Step::Draw;
        self.log.push_with(|| Event::StepBegan { turn: self.turn, step: Step::Draw, active: self.active });
        // CR 103.8a, 614.10: in a two-player game the starting player skips the draw step of
        // their first turn — it doesn't happen at all, and the game goes on to the precombat
        // main phase. In other multiplayer games nobody skips it (103.8c).
        if self.turn == 1 && self.active == self.starting_player && self.players.len() == 2 {
            self.unlog_first_draw_step();
            return AdvanceProc::new().advance(self);
        }
        let active = self.active;
        self.draw_one_inline(active);
        self.fire(crate::trigger::TriggerEvent::StepBegan { step: Step::Draw });
        self.priority_to(active);
    }

    /// `next`, a step of this turn with no turn-based action ([`Step::begins_quietly`]),
    /// begins: "at the beginning of" abilities trigger (CR 603.2; the end step's delayed ones
    /// too, CR 513.1), and the active player is to receive priority (CR 117.3a).
    #[inline(always)] // about seven times a turn: the call cost a good part of its body
    fn begin_quiet_step(&mut self, next: Step) {
        self.step = next;
        self.log.push_with(|| Event::StepBegan { turn: self.turn, step: next, active: self.active });
        self.fire(crate::trigger::TriggerEvent::StepBegan { step: next });
        if next == Step::End {
            self.fire_end_step();
        }
        self.priority_to(self.active);
    }

    /// A new turn for the next player: untap step (CR 502), then upkeep. Inlined into the
    /// advance, its only caller: once a turn, and the call cost a good part of it.
    #[inline(always)]
    fn start_turn(&mut self) {
        self.active = self.next_live_player(self.active);
        self.turn += 1;
        self.lands_played = 0;
        self.triggered_this_turn.clear();
        self.loyalty_activated.clear();
        self.players[self.active as usize].last_turn = self.turn;
        // Usually none waits: asked here, so that the inlined turn start holds no retain.
        if !self.delayed.is_empty() {
            self.expire_delayed();
        }
        self.step = Step::Untap;
        self.log.push_with(|| Event::StepBegan { turn: self.turn, step: Step::Untap, active: self.active });
        let active = self.active;
        // "At the beginning of the untap step" triggers (CR 603.2); then the active player's
        // permanents untap (CR 502.3). What these trigger waits for the upkeep, since nobody
        // gets priority in the untap step (CR 502.4).
        self.fire(crate::trigger::TriggerEvent::StepBegan { step: Step::Untap });
        self.untap_permanents_of(active);
    }
}

#[cfg(test)]
mod unattended_tests {
    use crate::event::LossReason;
    use crate::game::Setup;
    use crate::play::PlayOn;
    use crate::test_support::{builtin_and, example_decks};
    use crate::{CardDb, Game, Policy, Position, Step, ZoneKind};

    // Unattended play skips the state-based check after a step begins that changes nothing
    // it looks at; the draw step isn't one. A player who draws from an empty library loses in
    // the draw step itself, before anyone acts (CR 117.5, 704.5b).
    #[test]
    fn a_draw_from_an_empty_library_loses_in_the_draw_step_when_unattended() {
        let decks = vec![vec!["Island".to_string(); 8], vec!["Island".to_string(); 20]];
        let mut g = Game::from_decks_played_by(&decks, 1, &Setup::default(), CardDb::builtin(), &[Policy::Goldfish, Policy::Goldfish]).unwrap();
        g.set_recording(false);
        g.unattended = true;
        g.check_state_based_actions();
        while !g.is_over() {
            g.play_one().unwrap();
        }
        assert_eq!((g.turn, g.step), (5, Step::Draw)); // the last card drawn on turn 3
        assert_eq!(g.outcome().unwrap().losers, vec![(0, LossReason::EmptyLibrary)]);
    }

    // Turn order passes over a player who has lost (CR 800.4a), from any seat, however many
    // remain; with nobody out it is the next seat. Priority that would go to a player who left
    // goes to the next one still in the game (CR 800.4j); with nobody out, to that player.
    // (Mutation caught: priority given to the player named though they lost.)
    #[test]
    fn the_next_player_skips_those_who_have_lost() {
        let mut g = Game::new(4, 1).unwrap();
        let priority_to = |g: &mut Game, p: u8| {
            g.priority_to(p);
            g.priority
        };
        assert_eq!([0, 1, 2, 3].map(|p| g.next_live_player(p)), [1, 2, 3, 0]);
        assert_eq!([0, 1, 2, 3].map(|p| priority_to(&mut g, p)), [0, 1, 2, 3].map(Some));
        g.concede(1).unwrap();
        assert_eq!([0, 2, 3].map(|p| g.next_live_player(p)), [2, 3, 0]);
        assert_eq!([0, 1, 2, 3].map(|p| priority_to(&mut g, p)), [0, 2, 2, 3].map(Some));
        g.concede(0).unwrap();
        assert_eq!([2, 3].map(|p| g.next_live_player(p)), [3, 2]);
        assert_eq!([0, 1, 2, 3].map(|p| priority_to(&mut g, p)), [2, 2, 2, 3].map(Some));
    }

    // Unattended, goldfish passes are made without frames, several to a call, through steps
    // where everyone just passes; the games are the ones the frames play, action for action.
    #[test]
    fn unattended_goldfish_games_are_the_games_played_through_frames() {
        let mut delayed_seen = false;
        for (decks, seeds) in [(example_decks(), 0..60), (astral_slide_decks(), 0..40)] {
            for seed in seeds {
                same_games_through_frames(CardDb::builtin(), &decks, seed, |g| delayed_seen |= !g.delayed.is_empty());
            }
        }
        // The second pair's games return creatures Astral Slide exiled "at the beginning of
        // the next end step": a step that begins quietly with a delayed trigger to fire.
        assert!(delayed_seen);
    }

    // A simulation that watches only the turn limit plays on across turns within one call,
    // making a new turn's upkeep and draw-step rounds of passes at once when nobody has an
    // instant or flash card in hand to look at. Its games stop at the limit, where the frames'
    // games are: the example's mill deck holds Joint Exploration, an instant the goldfish casts
    // in those steps when it can, drawn or kept. A third deck's card triggers in the draw step,
    // putting its ability on the stack there, to resolve before that step's round ends.
    #[test]
    fn a_simulation_playing_on_across_turns_plays_the_games_the_frames_play() {
        let db = builtin_and([courier("Draw-Step Courier", "draw", "draw step")]);
        let mut courier_decks = example_decks();
        courier_decks[0].splice(0..6, std::iter::repeat_n("Draw-Step Courier".to_string(), 6));
        for (decks, seeds) in [(example_decks(), 0..30), (astral_slide_decks(), 0..15), (courier_decks, 0..15)] {
            for seed in seeds {
                for limit in [4, 9, 41] {
                    let mut games = [false, true].map(|unattended| {
                        let mut g = Game::from_decks_played_by(&decks, seed, &Setup::default(), &db, &[Policy::Goldfish, Policy::Goldfish]).unwrap();
                        g.set_recording(false);
                        g.unattended = unattended;
                        g.check_state_based_actions();
                        g
                    });
                    while !(games[0].is_over() || games[0].turn >= limit && games[0].step == Step::Upkeep) {
                        games[0].play_one().unwrap();
                    }
                    let mut on = PlayOn::new(&games[1], limit);
                    while !(games[1].is_over() || on.reached(&games[1])) {
                        games[1].play_on(&mut on).unwrap();
                    }
                    let seen = games.each_ref().map(|g| {
                        let zones = g.players.iter().map(|p| (p.life, p.hand.clone(), p.library.clone(), p.graveyard.clone())).collect::<Vec<_>>();
                        (g.turn, g.step, g.outcome().cloned(), zones, g.battlefield.clone(), g.exile.clone())
                    });
                    assert_eq!(seen[1], seen[0], "seed {seed}, limit {limit}");
                }
            }
        }
    }

    /// A cycling deck with Astral Slide against the example's creatures.
    fn astral_slide_decks() -> Vec<Vec<String>> {
        let list = |parts: &[(&str, usize)]| parts.iter().flat_map(|&(n, k)| std::iter::repeat_n(n.to_string(), k)).collect();
        let slide = list(&[
            ("Plains", 16),
            ("Island", 14),
            ("Astral Slide", 4),
            ("Street Wraith", 4),
            ("Lórien Revealed", 4),
            ("Savannah Lions", 8),
            ("Ornithopter", 6),
            ("Fractured Sanity", 4),
        ]);
        vec![slide, example_decks().swap_remove(1)]
    }

    /// Plays one game three ways, turn by turn: unattended one call at a time, through frames
    /// (showing `watch` the game after each of its actions), and unattended playing on within
    /// each call as a simulation that watches nothing does.
    fn same_games_through_frames(db: &CardDb, decks: &[Vec<String>], seed: u64, mut watch: impl FnMut(&Game)) {
        let mut games = [true, false, true].map(|unattended| {
            let mut g = Game::from_decks_played_by(decks, seed, &Setup::default(), db, &[Policy::Goldfish, Policy::Goldfish]).unwrap();
            g.set_recording(false);
            g.unattended = unattended;
            g.check_state_based_actions();
            g
        });
        // Turn by turn, each game is where the others are.
        while !games[1].is_over() && games[1].turn < 40 {
            let turn = games[1].turn + 1;
            for (i, g) in games.iter_mut().enumerate() {
                // Played on up to this turn's upkeep, the limit of the third.
                let mut on = PlayOn::new(g, turn);
                while !(g.is_over() || (g.turn == turn && g.step == Step::Upkeep)) {
                    if i == 2 {
                        g.play_on(&mut on).unwrap();
                    } else {
                        g.play_one().unwrap();
                    }
                    // What triggered is on the stack before anyone has priority (CR 117.5).
                    assert!(g.is_over() || g.pending_triggers.is_empty(), "seed {seed}");
                    if !g.unattended {
                        watch(g);
                    }
                }
            }
            let seen = games.each_ref().map(|g| {
                (
                    g.turn,
                    g.step,
                    g.outcome().cloned(),
                    g.players.iter().map(|p| (p.life, p.hand.len(), p.library.len(), p.graveyard.len())).collect::<Vec<_>>(),
                    g.battlefield.len(),
                    g.exile.len(),
                )
            });
            assert_eq!(seen[0], seen[1], "seed {seed}");
            assert_eq!(seen[2], seen[1], "seed {seed}, played on");
        }
    }

    // Unattended, the goldfish who passed in its precombat main passes again in its
    // postcombat main without looking, but only when nothing happened in between: here a
    // card draws at the beginning of each combat, and what it draws may be played or cast in
    // the postcombat main. The games are still the ones the frames play.
    #[test]
    fn what_happens_between_the_main_phases_is_seen_in_the_second() {
        let db = builtin_and([serde_json::json!({
            "name": "Combat Courier",
            "mana_cost": "{1}",
            "type_line": "Artifact",
            "oracle_text": "At the beginning of each combat, draw a card.",
            "rules": {"triggers": [{"when": {"beginning_of": {"step": "begin_combat", "yours": false}}, "effects": [{"draw": {"count": 1}}]}]},
        })]);
        let mut decks = example_decks();
        decks[0].splice(0..6, std::iter::repeat_n("Combat Courier".to_string(), 6));
        let (mut drawn_in_combat, mut played_in_second_main) = (0, 0);
        for seed in 0..40 {
            let mut last = (0, Step::Untap, 0, 0);
            same_games_through_frames(&db, &decks, seed, |g| {
                let now = (g.turn, g.step, g.stack.len(), g.players[g.active as usize].hand.len());
                drawn_in_combat += usize::from(now.1 == Step::BeginCombat && now.2 == 0 && (last.1, last.2) == (Step::BeginCombat, 1));
                played_in_second_main += usize::from(now.1 == Step::PostcombatMain && (now.0, now.1) == (last.0, last.1) && now.3 < last.3);
                last = now;
            });
        }
        // The couriers' draws resolved, and the goldfish played a land or cast a spell in
        // postcombat mains.
        assert!(drawn_in_combat > 20 && played_in_second_main > 20, "{drawn_in_combat} {played_in_second_main}");
    }

    /// A test artifact named `name`: "At the beginning of your `step_text`, draw a card."
    fn courier(name: &str, step: &str, step_text: &str) -> serde_json::Value {
        serde_json::json!({
            "name": name,
            "mana_cost": "{1}",
            "type_line": "Artifact",
            "oracle_text": format!("At the beginning of your {step_text}, draw a card."),
            "rules": {"triggers": [{"when": {"beginning_of": {"step": step, "yours": true}}, "effects": [{"draw": {"count": 1}}]}]},
        })
    }

    // CR 514.3a, 502, 503: a cleanup step in which nobody gets priority ends the turn; the
    // next begins with its untap step, then its upkeep, whose beginning is logged and triggers
    // "at the beginning of your upkeep" (CR 603.2), to go on the stack before the first
    // priority. (Mutation caught: the upkeep begun without its event and triggers.)
    #[test]
    fn the_upkeep_after_a_cleanup_step_begins_with_its_triggers() {
        let db = builtin_and([courier("Upkeep Courier", "upkeep", "upkeep")]);
        let decks = vec![vec!["Island".to_string(); 40], vec!["Island".to_string(); 40]];
        let mut g = Game::from_decks(&decks, 1, &Setup::default(), &db).unwrap();
        g.add_cards(0, ZoneKind::Battlefield, &["Upkeep Courier"], Position::Top, &db).unwrap();
        for turn in 2..=3 {
            g.next_turn().unwrap();
            assert_eq!((g.turn, g.step), (turn, Step::Upkeep));
            assert!(g.events().iter().any(|e| matches!(e, crate::Event::StepBegan { turn: t, step: Step::Upkeep, .. } if *t == turn)));
            assert_eq!(g.stack.len(), usize::from(turn == 3), "turn {turn}");
        }
    }

    // CR 502.3: the untap step untaps each of the active player's tapped permanents. Its one
    // pass (with nothing waiting for an untap, the lookups made once for all) leaves what
    // untapping each in turn does: the same permanents untapped, the same counts of tapped
    // permanents and untapped mana of each kind; with Mesmeric Orb waiting, the same triggers
    // queued in the same order. (Mutations caught: the untapped mana not counted back in; the
    // pass stopped one untap early; the Orb's listening not asked.)
    #[test]
    fn the_untap_step_untaps_as_untapping_each_permanent_in_turn_does() {
        let db = builtin_and([
            serde_json::json!({"name": "Elvish Mystic", "mana_cost": "{G}", "type_line": "Creature — Elf Druid", "oracle_text": "{T}: Add {G}.", "power": "1", "toughness": "1", "rules": {"mana": [{"produce": ["G"]}]}}),
        ]);
        let names = ["Island", "Forest", "Canyon Slough", "Everflowing Chalice", "Grizzly Bears", "Elvish Mystic", "Mesmeric Orb"];
        let mut rng = crate::rng::Rng::new(0x502);
        let (mut untapped, mut queued) = (0, 0);
        for round in 0..2000 {
            let mut g = Game::new(2, 1).unwrap();
            let kinds = if round % 4 == 3 { names.len() } else { names.len() - 1 }; // the Orb one round in four
            for _ in 0..rng.below(16) {
                let name = names[rng.below(kinds as u64) as usize];
                let id = g.add_cards(rng.below(2) as usize, ZoneKind::Battlefield, &[name], Position::Top, &db).unwrap()[0];
                if rng.below(2) == 0 {
                    g.set_tapped(id, true).unwrap();
                }
            }
            let p = rng.below(2) as u8;
            let mut each = g.clone();
            for k in 0..each.battlefield.len() {
                let s = each.battlefield[k];
                if each.objects[s as usize].controller == p && each.objects[s as usize].tapped {
                    each.untap_tapped(s);
                    untapped += 1;
                }
            }
            g.untap_permanents_of(p);
            queued += each.pending_triggers.len();
            assert_eq!(g.save_json(), each.save_json(), "round {round}");
            assert!(g.indexed == each.indexed && g.battlefield_index_is_current(), "round {round}");
        }
        assert!(untapped > 3000 && queued > 300, "{untapped} {queued}");
    }

    // A land played unattended is followed by the state-based check before anyone next has
    // priority (CR 117.5), as under its priority frame: a land that is a 0/0 creature is in
    // its owner's graveyard when the play returns (CR 704.5f). (Mutation caught: the check
    // skipped after the play, as after a quiet pass.)
    #[test]
    fn a_land_played_unattended_is_followed_by_the_state_based_check() {
        let db =
            builtin_and([serde_json::json!({"name": "Hollow Arbor", "mana_cost": "", "type_line": "Land Creature — Dryad", "oracle_text": "", "power": "0", "toughness": "0"})]);
        let decks = vec![vec!["Hollow Arbor".to_string(); 40], vec!["Island".to_string(); 40]];
        let mut g = Game::from_decks_played_by(&decks, 1, &Setup::default(), &db, &[Policy::Goldfish, Policy::Goldfish]).unwrap();
        g.set_recording(false);
        g.unattended = true;
        g.check_state_based_actions();
        while g.turn < 8 {
            g.play_one().unwrap();
            assert!(g.battlefield.iter().all(|&s| g.objects[s as usize].owner != 0), "turn {}, {:?}", g.turn, g.step);
        }
        assert_eq!(g.players[0].graveyard.len(), 4); // played on turns 1, 3, 5 and 7
    }

    // The postcombat main phase is passed through only when the active goldfish passed in
    // the precombat one within the same play, nothing done since: one who passed by hand
    // before the play began is asked again there, and plays the land it held back (CR 305.1,
    // 505.1). Framed or unattended, the same. (Mutation caught: the postcombat main passed
    // through whoever made the precombat pass.)
    #[test]
    fn a_goldfish_that_passed_outside_the_play_is_asked_in_its_postcombat_main() {
        for unattended in [false, true] {
            let db = CardDb::builtin();
            let mut g = Game::new(2, 1).unwrap();
            g.set_recording(false);
            for p in 0..2 {
                g.set_policy(p, Policy::Goldfish).unwrap();
                g.add_cards(p, crate::zone::ZoneKind::Library, &["Island"; 10], crate::zone::Position::Top, db).unwrap();
            }
            g.add_cards(0, crate::zone::ZoneKind::Hand, &["Forest"], crate::zone::Position::Top, db).unwrap();
            g.unattended = unattended;
            g.check_state_based_actions();
            assert_eq!((g.turn, g.step, g.active, g.priority), (1, Step::PrecombatMain, 0, Some(0)));
            g.pass_priority().unwrap();
            assert_eq!(g.priority, Some(1), "unattended: {unattended}");
            // (The Forest is a new object once played, CR 400.7: found as player 0's permanent.)
            let played = |g: &Game| g.battlefield.iter().any(|&s| g.objects[s as usize].owner == 0);
            while g.turn == 1 && !played(&g) {
                g.play_one().unwrap();
            }
            assert!(played(&g), "unattended: {unattended}");
            assert_eq!((g.turn, g.step), (1, Step::PostcombatMain), "unattended: {unattended}");
        }
    }

    // A card with flashback in a graveyard may be cast outside its owner's sorcery timing, so
    // a round of passes isn't made at once then: the goldfish looks, and casts it in other
    // steps. The games are still the ones the frames play.
    #[test]
    fn a_flashback_card_in_a_graveyard_is_looked_at_in_every_round() {
        let db = builtin_and([serde_json::json!({
            "name": "Second Look",
            "mana_cost": "{U}",
            "type_line": "Instant",
            "oracle_text": "Draw a card.\nFlashback {U}",
            "rules": {"spell": [{"draw": {"count": 1}}], "flashback": "{U}"},
        })]);
        let mut decks = example_decks();
        decks[0].splice(0..6, std::iter::repeat_n("Second Look".to_string(), 6));
        let mut flashed_back_outside_main = 0;
        for seed in 0..40 {
            same_games_through_frames(&db, &decks, seed, |g| {
                let top_flashed_back = g.stack.last().is_some_and(|&s| g.objects[s as usize].cast.flashback);
                flashed_back_outside_main += usize::from(top_flashed_back && !g.step.is_main());
            });
        }
        assert!(flashed_back_outside_main > 20, "{flashed_back_outside_main}");
    }
}
