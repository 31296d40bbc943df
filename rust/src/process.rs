//! Actions that may stop part-way for a decision. Each such action is a frame: a small state
//! machine that either finishes or asks a question. The run loop answers the question from the
//! forced answer, the script or the policy, or stops with the decision pending; `Game::answer`
//! resumes it. Everything a stopped action needs lives in its frame, so a paused game can be
//! cloned, serialised and resumed anywhere.

use serde::{Deserialize, Serialize};

use crate::ability::ActivateProc;
use crate::actions::discard::DiscardProc;
use crate::actions::mill::MillProc;
use crate::actions::scry::ScryProc;
use crate::actions::search::SearchProc;
use crate::casting::CastProc;
use crate::decision::{Choice, Decision};
use crate::effect::EffectProc;
use crate::error::{Error, Result};
use crate::game::{Game, Progress};
use crate::legend::LegendRuleProc;
use crate::play::PriorityProc;
use crate::stack::ResolveProc;
use crate::trigger::TriggerProc;
use crate::turn::AdvanceProc;

#[cfg(test)]
thread_local! {
    /// Set by tests to have the goldfish's decisions that an action could answer where they
    /// are asked ([`Game::goldfish_answer_at_once`], [`Game::targets_or_choice`]) asked instead,
    /// to compare the two.
    pub(crate) static GOLDFISH_ASKS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Frame {
    Discard(DiscardProc),
    Search(SearchProc),
    Scry(Box<ScryProc>),
    Advance(AdvanceProc),
    Resolve(ResolveProc),
    Effect(Box<EffectProc>),
    Cast(Box<CastProc>),
    Priority(Box<PriorityProc>),
    Activate(Box<ActivateProc>),
    Triggers(Box<TriggerProc>),
    LegendRule(LegendRuleProc),
    Mill(MillProc),
    OpeningHand(crate::game::OpeningHandProc),
}

/// A frame's box kept for the next frame of its kind, which would otherwise allocate one on
/// most actions. Not part of the game: a clone or a loaded game starts without one.
pub(crate) struct Spare<T>(Option<Box<T>>);

impl<T> Default for Spare<T> {
    fn default() -> Self {
        Spare(None)
    }
}

impl<T> Spare<T> {
    /// `value`, boxed in the kept box if there is one.
    pub(crate) fn boxed(&mut self, value: T) -> Box<T> {
        match self.0.take() {
            Some(mut b) => {
                *b = value;
                b
            }
            None => Box::new(value),
        }
    }

    /// Keeps `b` (what it holds is dropped when it is next used).
    pub(crate) fn keep(&mut self, b: Box<T>) {
        self.0 = Some(b);
    }
}

impl<T> Clone for Spare<T> {
    fn clone(&self) -> Self {
        Spare::default()
    }
}

impl<T> std::fmt::Debug for Spare<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Spare")
    }
}

/// What a frame did with one step.
pub(crate) enum Step {
    Done,
    /// The frame (in its new state) needs this decision answered before its next step.
    Ask(Frame, Decision),
    /// The action is illegal (CR 733); the frame changed nothing before failing.
    Fail(Error),
}

impl Frame {
    /// Steps a frame its maker would push for the run loop to step next: the same, without
    /// the round trip through the stack.
    pub(crate) fn take_over(self, game: &mut Game) -> Step {
        if game.outcome.is_some() {
            game.frames.push(self); // the run loop drops it with the rest (CR 104.1)
            return Step::Done;
        }
        self.step(game)
    }

    fn step(self, game: &mut Game) -> Step {
        match self {
            Frame::Discard(p) => p.step(game),
            Frame::Search(p) => p.step(game),
            Frame::Scry(p) => p.step(game),
            Frame::Advance(p) => p.step(game),
            Frame::Resolve(p) => p.step(game),
            Frame::Effect(p) => p.step(game),
            Frame::Cast(p) => p.step(game),
            Frame::Priority(p) => p.step(game),
            Frame::Activate(p) => p.step(game),
            Frame::Triggers(p) => p.step(game),
            Frame::LegendRule(p) => p.step(game),
            Frame::Mill(p) => p.step(game),
            Frame::OpeningHand(p) => p.step(game),
        }
    }
}

impl Frame {
    /// Checks a loaded frame before the game is accepted: every player, object, card definition
    /// and instruction it names exists, its counts fit its card, and it waits for an answer
    /// exactly when it is the frame that asked `asked`, the decision waiting (`None` for the
    /// frames beneath). Stepping a frame trusts all of this.
    pub(crate) fn check_stored(&self, g: &Game, asked: Option<&Decision>) -> std::result::Result<(), String> {
        let c = |what: &str| Stored { g, what: format!("the paused {what}"), asked };
        match self {
            Frame::Discard(p) => p.check_stored(&c("discard")),
            Frame::Search(p) => p.check_stored(&c("search")),
            Frame::Scry(p) => p.check_stored(&c("scry")),
            Frame::Advance(_) => c("turn advance").waits(false, |_| true),
            Frame::Resolve(p) => p.check_stored(&c("resolution")),
            Frame::Effect(p) => p.check_stored(&c("effect")),
            Frame::Cast(p) => p.check_stored(&c("cast")),
            Frame::Priority(p) => p.check_stored(&c("priority")),
            Frame::Activate(p) => p.check_stored(&c("activation")),
            Frame::Triggers(p) => p.check_stored(&c("trigger ordering")),
            Frame::LegendRule(p) => p.check_stored(&c("legend rule")),
            Frame::Mill(p) => p.check_stored(&c("mill")),
            Frame::OpeningHand(p) => p.check_stored(&c("opening hand")),
        }
    }
}

/// A loaded frame, or another part of a loaded game, being checked (see [`Frame::check_stored`]):
/// the game, what is checked (for messages: "the paused scry", "stack item 0"), and the decision
/// waiting if it is a frame and the one that asked it.
pub(crate) struct Stored<'a> {
    pub(crate) g: &'a Game,
    what: String,
    pub(crate) asked: Option<&'a Decision>,
}

impl<'a> Stored<'a> {
    /// Checks `what`, a part of `g` that isn't a frame (and so asked no decision).
    pub(crate) fn new(g: &'a Game, what: String) -> Stored<'a> {
        Stored { g, what, asked: None }
    }

    /// `Ok` if `ok`, else the error `why` (what is checked is said first).
    pub(crate) fn ensure(&self, ok: bool, why: impl FnOnce() -> String) -> std::result::Result<(), String> {
        if ok {
            Ok(())
        } else {
            Err(format!("{} {}", self.what, why()))
        }
    }

    pub(crate) fn player(&self, p: u8) -> std::result::Result<(), String> {
        let n = self.g.players.len();
        self.ensure((p as usize) < n, || format!("names player {p} in a {n}-player game"))
    }

    /// Each of `players` (an `Option` gives none or one) is one the game has.
    pub(crate) fn players(&self, players: impl IntoIterator<Item = u8>) -> std::result::Result<(), String> {
        players.into_iter().try_for_each(|p| self.player(p))
    }

    /// `index` is one of the `n` abilities of its `kind` ("activated", "triggered") the card has.
    pub(crate) fn ability(&self, kind: &str, index: usize, n: usize) -> std::result::Result<(), String> {
        self.ensure(index < n, || format!("is {kind} ability {index} of a card with {n}"))
    }

    pub(crate) fn slot(&self, s: u32) -> std::result::Result<(), String> {
        let n = self.g.objects.len();
        self.ensure((s as usize) < n, || format!("names slot {s}, and the game has {n} objects"))
    }

    pub(crate) fn slots<'s>(&self, slots: impl IntoIterator<Item = &'s u32>) -> std::result::Result<(), String> {
        slots.into_iter().try_for_each(|&s| self.slot(s))
    }

    pub(crate) fn objects<'s>(&self, ids: impl IntoIterator<Item = &'s crate::object::ObjId>) -> std::result::Result<(), String> {
        ids.into_iter().try_for_each(|id| self.slot(id.slot()))
    }

    pub(crate) fn targets<'s>(&self, targets: impl IntoIterator<Item = &'s crate::target::TargetRef>) -> std::result::Result<(), String> {
        targets.into_iter().try_for_each(|t| match *t {
            crate::target::TargetRef::Object(id) => self.slot(id.slot()),
            crate::target::TargetRef::Player(p) => self.player(p),
        })
    }

    pub(crate) fn def(&self, d: u32) -> std::result::Result<(), String> {
        let n = self.g.defs.len();
        self.ensure((d as usize) < n, || format!("names card definition {d}, and the game has {n}"))
    }

    /// The frame waits for an answer (`waiting`) exactly when it asked the decision waiting,
    /// and that decision's choice is of a kind it takes (`takes`).
    pub(crate) fn waits(&self, waiting: bool, takes: impl FnOnce(&Choice) -> bool) -> std::result::Result<(), String> {
        match self.asked {
            None => self.ensure(!waiting, || "waits for an answer, but another action is paused above it".into()),
            Some(d) => {
                self.ensure(waiting, || format!("doesn't wait for the {} decision asked", d.purpose.name()))?;
                self.ensure(takes(&d.choice), || format!("can't take an answer to the {} decision asked", d.purpose.name()))
            }
        }
    }
}

impl Game {
    /// Runs frames until all are finished (then performs state-based actions) or one waits
    /// for an answer nobody inside the engine gives.
    pub(crate) fn run(&mut self) -> Result<Progress> {
        loop {
            while !self.frames.is_empty() {
                if self.outcome.is_some() {
                    self.frames.clear(); // the game is over: nothing more happens (CR 104.1)
                    break;
                }
                // Popped only to be stepped: a frame is moved as few times as can be.
                let frame = self.frames.pop().expect("not empty");
                let step = frame.step(self);
                if self.handle_step(step)? {
                    return Ok(Progress::Paused);
                }
            }
            // CR 117.5: before a player receives priority, state-based actions (the legend
            // rule among them, which asks which permanent to keep), then triggers.
            if !std::mem::take(&mut self.quiet_pass) {
                self.check_state_based_actions();
            }
            if self.outcome.is_none() && self.legendary_entered {
                if self.legend_rule_applies() {
                    self.frames.push(Frame::LegendRule(LegendRuleProc::new()));
                    continue;
                }
                self.legendary_entered = false;
            }
            if let Some(p) = self.priority {
                if !self.pending_triggers.is_empty() {
                    self.give_priority(p); // what the action triggered goes on the stack (CR 603.3)
                    if !self.frames.is_empty() {
                        continue; // ordering and targets to choose
                    }
                }
            }
            break;
        }
        Ok(self.hand_over_output())
    }

    /// [`Game::run`], without running it when it would find nothing to do: no frame, trigger
    /// or legend rule waiting, the setup checked, and state-based actions marked quiet (a
    /// check would find nothing, CR 117.5). What the run would leave is made here.
    #[inline(always)]
    pub(crate) fn run_unless_idle(&mut self) -> Result<Progress> {
        if self.frames.is_empty() && self.sba_quiet && !self.unchecked_setup && self.pending_triggers.is_empty() && !self.legendary_entered {
            // The check skipped would have found nothing: as `check_state_based_actions`
            // asserts of a quiet mark where it runs, here where it doesn't.
            #[cfg(test)]
            assert!(self.outcome.is_some() || !self.clone().perform_state_based_actions(), "a change left state-based actions marked quiet");
            self.quiet_pass = false;
            return Ok(self.hand_over_output());
        }
        self.run()
    }

    /// What a finished run hands back: the action's output, or nothing when batch runs
    /// discard it (the buffer kept for reuse).
    #[inline(always)]
    fn hand_over_output(&mut self) -> Progress {
        if self.discard_output {
            self.output.clear();
            return Progress::Done(Vec::new());
        }
        Progress::Done(std::mem::take(&mut self.output))
    }

    /// [`Game::run`] after the caller took a step itself, of a frame it would otherwise have
    /// pushed for the run loop to step first: the loop goes on from that step's outcome, and
    /// isn't run when it would find nothing to do (see [`Game::run_unless_idle`]).
    #[inline(always)]
    pub(crate) fn run_after_unless_idle(&mut self, step: Step) -> Result<Progress> {
        if self.handle_step(step)? {
            return Ok(Progress::Paused);
        }
        self.run_unless_idle()
    }

    /// What the run loop does with the outcome of a frame's step; true if the game stops
    /// with a decision pending.
    #[inline(always)]
    fn handle_step(&mut self, step: Step) -> Result<bool> {
        match step {
            Step::Done => {}
            Step::Fail(e) => self.retry_or_fail(e)?,
            Step::Ask(frame, decision) => return self.take_up(frame, decision),
        }
        Ok(false)
    }

    /// A frame's step failed with `e`. An action a player chose with priority turned out
    /// illegal: reversed (its frames change nothing before they fail), and the player chooses
    /// again (CR 733.2). Anything else: the caller's action fails. Out of the run loop: rare.
    #[cold]
    #[inline(never)]
    fn retry_or_fail(&mut self, e: Error) -> Result<()> {
        let retry = match self.frames.last() {
            Some(Frame::Priority(p)) if !self.strict => p.clone().retry(),
            _ => None,
        };
        match retry {
            Some(p) => {
                self.frames.pop();
                self.frames.push(Frame::Priority(p));
                Ok(())
            }
            None => Err(e),
        }
    }

    /// A frame's step asked `decision`: the frame waits above the others for its answer,
    /// given at once when forced or by an automatic answerer; true if the game stops with it
    /// pending. Out of the run loop: few steps ask, and the loop is lighter without it.
    #[inline(never)]
    fn take_up(&mut self, frame: Frame, decision: Decision) -> Result<bool> {
        self.frames.push(frame);
        let answer = match decision.forced_answer() {
            Some(a) => Some(a),
            None => {
                let a = self.auto_answer(&decision)?;
                if let Some(a) = &a {
                    self.record_answer(decision.player, a);
                }
                a
            }
        };
        match answer {
            Some(a) => self.answer = Some(a),
            None => {
                self.partial.clear(); // a new decision: nothing picked yet
                self.pending = Some(decision);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The answer [`Game::take_up`] gives `decision` at once, given by an action that goes on
    /// without waiting in a frame: forced, or its player's policy's (recorded as there). `None`
    /// where a script or strict mode would answer it (either may fail the action) or nobody
    /// inside the engine does: the action then waits in its frame for take_up.
    pub(crate) fn answer_at_once(&mut self, decision: &Decision) -> Option<crate::decision::Answer> {
        if let Some(a) = decision.forced_answer() {
            return Some(a);
        }
        if self.strict || !self.seats[decision.player as usize].script.is_empty() {
            return None;
        }
        // (With no script and not strict, the policy's answer never fails.)
        let a = self.auto_answer(decision).ok().flatten()?;
        self.record_answer(decision.player, &a);
        Some(a)
    }

    /// Steps `frame`, one its maker would push for the run loop to step next, and steps it
    /// again each time it asks a decision [`Game::answer_at_once`] answers, as the run loop
    /// would at once (`take_up`, then the frame popped again with nothing stepped between).
    /// Returns its last step: done, failed, or a decision left for the run loop (unanswered at
    /// once, or the game over, which the loop drops it for, CR 104.1).
    pub(crate) fn step_answering_at_once(&mut self, frame: Frame) -> Step {
        let mut step = frame.step(self);
        while let Step::Ask(frame, decision) = step {
            let answer = if self.outcome.is_none() { self.answer_at_once(&decision) } else { None };
            let Some(answer) = answer else { return Step::Ask(frame, decision) };
            self.answer = Some(answer);
            step = frame.step(self);
        }
        step
    }

    /// The answer the goldfish `d.player` gives `d` when it answers itself (see
    /// [`Game::answers_itself`]): what `take_up` (or [`Game::answer_at_once`]) answers it with —
    /// forced, or else the goldfish's, recorded as there — given where it is asked, so the
    /// action goes on at once. `Err` with the decision otherwise: it is asked.
    pub(crate) fn goldfish_answer_at_once(&mut self, d: Decision) -> std::result::Result<crate::decision::Answer, Decision> {
        #[cfg(test)]
        if GOLDFISH_ASKS.with(std::cell::Cell::get) {
            return Err(d);
        }
        if !self.answers_itself(d.player, crate::policy::Policy::Goldfish) {
            return Err(d);
        }
        // The goldfish answers whatever it is asked, so this is always an answer.
        self.answer_at_once(&d).ok_or(d)
    }

    /// After an action done outside frames: what would happen before a player next receives
    /// priority (state-based actions, the legend rule, triggers), which may ask decisions.
    pub(crate) fn settle(&mut self) -> Result<Progress> {
        if self.frames.is_empty() && self.pending_triggers.is_empty() && !self.legend_rule_applies() {
            return Ok(Progress::Done(Vec::new()));
        }
        let output = std::mem::take(&mut self.output);
        let progress = self.run();
        self.output = output;
        progress
    }

    /// The answer a resumed frame consumes; the run loop always sets it before resuming.
    pub(crate) fn take_answer(&mut self) -> crate::decision::Answer {
        self.answer.take().expect("a frame resumes only with an answer")
    }
}
