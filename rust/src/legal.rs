//! Legal actions for front ends and agents: the pending decision answered one small step at a
//! time — one card, target or mode picked per step, "done" to finish a selection — each step a
//! [`LegalAction`] with a readable text and a stable integer code in a fixed [`ActionSpace`].
//! A selection in progress is part of the game (it clones, saves and replays with it); when it
//! is complete the whole answer goes to the decision as if given at once (GUIDE §4).

use serde::{Deserialize, Serialize};

use crate::decision::{Answer, Choice, Decision, Purpose};
use crate::error::{illegal, invalid, Error, Result};
use crate::game::{Game, Progress};
use crate::object::ObjId;
use crate::play::PriorityAction;
use crate::process::Frame;
use crate::target::TargetRef;

/// One step toward answering the pending decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LegalAction {
    /// With priority: pass, play a land, cast a spell or activate an ability.
    Priority {
        /// The action taken, one of those the decision offers.
        action: PriorityAction,
    },
    /// Answer "yes" to a yes/no decision, e.g. to kick the spell, to search, to do what "may" allows.
    Yes,
    /// Answer "no" to a yes/no decision.
    No,
    /// Answer a number decision (the value of X, times to pay multikicker) with `n`.
    Number {
        /// The number chosen, within the decision's bounds.
        n: u32,
    },
    /// Add a card (or object target) to the selection: cards to choose, targets, the next card
    /// of an order, or the next card on top of the library when scrying.
    Pick {
        /// The card or object chosen, by its current id.
        object: ObjId,
    },
    /// Add a player to the targets.
    PickPlayer {
        /// Index of the targeted player.
        player: u8,
    },
    /// Add a mode (CR 700.2).
    PickMode {
        /// Index of the mode, from 0 in printed order (described as 1-based: "choose mode 1").
        mode: u32,
    },
    /// Scry: put this card next on the bottom (CR 701.22a).
    Bottom {
        /// The scried card put on the bottom.
        object: ObjId,
    },
    /// Finish a selection that has at least its minimum.
    Done,
}

/// A fixed numbering of every action a game configuration can offer, so agents see the same
/// action space at every decision and a boolean mask of the legal ones.
///
/// Layout (N = `slots`, P = `players`): 0 done, 1 yes, 2 no, 3 pass; then pick object slot s
/// (`4 + s`), put slot s on the bottom (`4 + N + s`), play land from slot s (`4 + 2N + s`), cast
/// slot s (`4 + 3N + s`), activate ability i of slot s (`4 + 4N + s*4 + i`, i < 4); then pick
/// player p, mode m (m < 16), number n (n <= 64). Objects are numbered by slot: a card keeps its
/// slot all game (CR 400.7 changes only its generation); tokens and abilities get new slots, so
/// `slots` needs room beyond the decks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ActionSpace {
    /// Object slots the space has codes for (N in the layout): a slot beyond them can't be encoded.
    pub slots: u32,
    /// Players in the game (P in the layout).
    pub players: u8,
}

impl ActionSpace {
    /// Activated abilities per object that have codes: ability indices 0 to 3.
    pub const ABILITIES: u32 = 4;
    /// Modes that have codes: mode indices 0 to 15.
    pub const MODES: u32 = 16;
    /// Numbers 0 to 64: the largest X or multikicker count offered is 64 (`MAX_ANNOUNCED`).
    pub const NUMBERS: u32 = crate::casting::MAX_ANNOUNCED + 1;
    const FIXED: u32 = 4;

    /// For `g`: its objects now plus `extra` slots for tokens and abilities to come.
    pub fn for_game(g: &Game, extra: u32) -> ActionSpace {
        ActionSpace { slots: g.objects.len() as u32 + extra, players: g.players.len() as u8 }
    }

    /// The number of codes.
    pub fn size(&self) -> usize {
        (Self::FIXED + self.slots * (4 + Self::ABILITIES) + self.players as u32 + Self::MODES + Self::NUMBERS) as usize
    }

    fn base_player(&self) -> u32 {
        Self::FIXED + self.slots * (4 + Self::ABILITIES)
    }

    /// The code of an action; an error if this space has no room for it (a slot beyond
    /// `slots`, an ability index, mode or number beyond the limits).
    pub fn encode(&self, a: &LegalAction) -> Result<u32> {
        let n = self.slots;
        let slot = |id: ObjId| -> Result<u32> {
            if id.slot() < n {
                Ok(id.slot())
            } else {
                Err(invalid(format!("object slot {} is beyond this action space's {n} slots (make the space with more extra slots)", id.slot())))
            }
        };
        Ok(match *a {
            LegalAction::Done => 0,
            LegalAction::Yes => 1,
            LegalAction::No => 2,
            LegalAction::Priority { action: PriorityAction::Pass } => 3,
            LegalAction::Pick { object } => Self::FIXED + slot(object)?,
            LegalAction::Bottom { object } => Self::FIXED + n + slot(object)?,
            LegalAction::Priority { action: PriorityAction::PlayLand { card } } => Self::FIXED + 2 * n + slot(card)?,
            LegalAction::Priority { action: PriorityAction::Cast { card } } => Self::FIXED + 3 * n + slot(card)?,
            LegalAction::Priority { action: PriorityAction::Activate { source, index } } => {
                if index as u32 >= Self::ABILITIES {
                    return Err(invalid(format!("ability index {index} is beyond the action space's {} per object", Self::ABILITIES)));
                }
                Self::FIXED + 4 * n + slot(source)? * Self::ABILITIES + index as u32
            }
            LegalAction::PickPlayer { player } => {
                if player >= self.players {
                    return Err(invalid(format!("player {player} is beyond this action space's {} players", self.players)));
                }
                self.base_player() + player as u32
            }
            LegalAction::PickMode { mode } if mode < Self::MODES => self.base_player() + self.players as u32 + mode,
            LegalAction::Number { n: k } if k < Self::NUMBERS => self.base_player() + self.players as u32 + Self::MODES + k,
            LegalAction::PickMode { mode } => return Err(invalid(format!("mode {mode} is beyond the action space's {} modes", Self::MODES))),
            LegalAction::Number { n: k } => return Err(invalid(format!("number {k} is beyond the action space's numbers 0 to {}", Self::NUMBERS - 1))),
        })
    }

    /// The action a code names in `g` (objects by their current generation in their slot).
    pub fn decode(&self, code: u32, g: &Game) -> Result<LegalAction> {
        let n = self.slots;
        if code as usize >= self.size() {
            return Err(invalid(format!("action code {code} is out of range (the space has {} codes)", self.size())));
        }
        let id = |s: u32| -> Result<ObjId> {
            if (s as usize) < g.objects.len() {
                Ok(g.id_of(s))
            } else {
                Err(invalid(format!("action code {code} names object slot {s}, which this game doesn't have")))
            }
        };
        let p = self.base_player();
        Ok(match code {
            0 => LegalAction::Done,
            1 => LegalAction::Yes,
            2 => LegalAction::No,
            3 => LegalAction::Priority { action: PriorityAction::Pass },
            c if c < Self::FIXED + n => LegalAction::Pick { object: id(c - Self::FIXED)? },
            c if c < Self::FIXED + 2 * n => LegalAction::Bottom { object: id(c - Self::FIXED - n)? },
            c if c < Self::FIXED + 3 * n => LegalAction::Priority { action: PriorityAction::PlayLand { card: id(c - Self::FIXED - 2 * n)? } },
            c if c < Self::FIXED + 4 * n => LegalAction::Priority { action: PriorityAction::Cast { card: id(c - Self::FIXED - 3 * n)? } },
            c if c < p => {
                let k = c - Self::FIXED - 4 * n;
                LegalAction::Priority { action: PriorityAction::Activate { source: id(k / Self::ABILITIES)?, index: (k % Self::ABILITIES) as u16 } }
            }
            c if c < p + self.players as u32 => {
                let player = c - p;
                if player as usize >= g.num_players() {
                    return Err(invalid(format!("action code {code} names player {player}, which this game doesn't have (it has {})", g.num_players())));
                }
                LegalAction::PickPlayer { player: player as u8 }
            }
            c if c < p + self.players as u32 + Self::MODES => LegalAction::PickMode { mode: c - p - self.players as u32 },
            c => LegalAction::Number { n: c - p - self.players as u32 - Self::MODES },
        })
    }
}

impl Game {
    /// The steps the deciding player may take now at the pending decision (given the
    /// selection made so far). An error if no decision is pending.
    pub fn legal_actions(&self) -> Result<Vec<LegalAction>> {
        let d = self.pending.as_ref().ok_or(Error::NoDecisionPending)?;
        let picked = &self.partial;
        let taken = |a: &LegalAction| picked.contains(a);
        let count = picked.len() as u32;
        let mut out = Vec::new();
        // A selection of `min..=max` from `options`: any option not yet taken while there is
        // room, and "done" once the minimum is met.
        let mut select = |options: Vec<LegalAction>, min: u32, max: u32| {
            if count < max {
                out.extend(options.into_iter().filter(|a| !taken(a)));
            }
            if count >= min {
                out.push(LegalAction::Done);
            }
        };
        match &d.choice {
            Choice::Actions { options } => out.extend(options.iter().map(|&action| LegalAction::Priority { action })),
            Choice::YesNo => out.extend([LegalAction::Yes, LegalAction::No]),
            Choice::Number { min, max } => out.extend((*min..=*max).map(|n| LegalAction::Number { n })),
            Choice::Cards { options, min, max } => {
                select(options.iter().map(|&object| LegalAction::Pick { object }).collect(), *min, *max);
                // Paying mana by hand: "done" only once the chosen sources (and the pool) pay.
                if d.purpose == Purpose::PayMana && out.last() == Some(&LegalAction::Done) {
                    let chosen: Vec<ObjId> = picked.iter().filter_map(|a| if let LegalAction::Pick { object } = a { Some(*object) } else { None }).collect();
                    if self.check_payment(&chosen).is_some_and(|r| r.is_err()) {
                        out.pop();
                    }
                }
            }
            Choice::Targets { options, min, max } => select(options.iter().map(|&t| target_action(t)).collect(), *min, *max),
            Choice::Modes { count: modes, min, max } => select((0..*modes).map(|mode| LegalAction::PickMode { mode }).collect(), *min, *max),
            // Every one placed; the last is placed by itself (see `take`).
            Choice::Order { options } => out.extend(options.iter().map(|&object| LegalAction::Pick { object }).filter(|a| !taken(a))),
            Choice::Scry { cards } => {
                for &object in cards {
                    if !taken(&LegalAction::Pick { object }) && !taken(&LegalAction::Bottom { object }) {
                        out.push(LegalAction::Pick { object });
                        out.push(LegalAction::Bottom { object });
                    }
                }
            }
        }
        Ok(out)
    }

    /// Takes one step at the pending decision. When the answer is complete it is given (the
    /// game goes on as with [`Game::answer`]); until then the selection so far is kept. An
    /// action that isn't legal now is an error and changes nothing.
    pub fn take(&mut self, action: LegalAction) -> Result<Progress> {
        let legal = self.legal_actions()?;
        if !legal.contains(&action) {
            return Err(illegal(format!(
                "{} is not a legal action now (the legal ones: {})",
                self.describe(&action),
                legal.iter().map(|a| self.describe(a)).collect::<Vec<_>>().join("; ")
            )));
        }
        // Worked out from the decision in place; only the selection kept changes the game here.
        let d = self.pending.as_ref().expect("checked");
        let answer = match (&d.choice, action) {
            (Choice::Actions { options }, LegalAction::Priority { action }) => Ok(Answer::Action { index: options.iter().position(|&o| o == action).expect("legal") as u32 }),
            (Choice::YesNo, a) => Ok(Answer::YesNo { yes: a == LegalAction::Yes }),
            (Choice::Number { .. }, LegalAction::Number { n }) => Ok(Answer::Number { n }),
            (_, LegalAction::Done) => Ok(self.selection_answer(d, &self.partial)),
            (choice, a) => {
                let mut sel = self.partial.clone();
                sel.push(a);
                let complete = match choice {
                    Choice::Cards { options, max, .. } => sel.len() as u32 >= *max || sel.len() == options.len(),
                    Choice::Targets { options, max, .. } => sel.len() as u32 >= *max || sel.len() == options.len(),
                    Choice::Modes { count, max, .. } => sel.len() as u32 >= *max || sel.len() as u32 == *count,
                    // The last card of an order has one place left: placed with it.
                    Choice::Order { options } => sel.len() + 1 >= options.len(),
                    Choice::Scry { cards } => sel.len() == cards.len(),
                    _ => unreachable!("whole answers are handled above"),
                };
                if complete {
                    if let Choice::Order { options } = choice {
                        if let Some(&last) = options.iter().find(|&&o| !sel.contains(&LegalAction::Pick { object: o })) {
                            sel.push(LegalAction::Pick { object: last });
                        }
                    }
                    Ok(self.selection_answer(d, &sel))
                } else {
                    Err(sel) // not finished: the selection so far
                }
            }
        };
        match answer {
            Err(sel) => {
                self.partial = sel;
                Ok(Progress::Paused)
            }
            Ok(a) => {
                // The answer and the play after it are one action: if the play fails part-way
                // (a bad scripted answer, strict mode), the answer is undone too (CR 733).
                let snapshot = self.needs_snapshot().then(|| Box::new(self.clone()));
                let partial = std::mem::take(&mut self.partial);
                self.answer(a)
                    .and_then(|_| {
                        // Play on to the next decision nobody inside the engine answers (or the end).
                        if self.pending.is_none() && !self.is_over() && self.priority.is_some() {
                            return self.play(crate::play::Until::GameOver, u64::MAX);
                        }
                        Ok(if self.pending.is_some() { Progress::Paused } else { Progress::Done(Vec::new()) })
                    })
                    .inspect_err(|_| match snapshot {
                        Some(s) => *self = *s,
                        None => self.partial = partial,
                    })
            }
        }
    }

    /// The answer a finished selection makes.
    fn selection_answer(&self, d: &Decision, sel: &[LegalAction]) -> Answer {
        let objects = |f: fn(&LegalAction) -> Option<ObjId>| sel.iter().filter_map(f).collect::<Vec<ObjId>>();
        let pick = |a: &LegalAction| if let LegalAction::Pick { object } = a { Some(*object) } else { None };
        match &d.choice {
            Choice::Cards { .. } | Choice::Order { .. } => Answer::Cards { cards: objects(pick) },
            Choice::Targets { .. } => Answer::Targets {
                targets: sel
                    .iter()
                    .filter_map(|a| match *a {
                        LegalAction::Pick { object } => Some(TargetRef::Object(object)),
                        LegalAction::PickPlayer { player } => Some(TargetRef::Player(player)),
                        _ => None,
                    })
                    .collect(),
            },
            Choice::Modes { .. } => {
                let mut modes: Vec<u32> = sel.iter().filter_map(|a| if let LegalAction::PickMode { mode } = a { Some(*mode) } else { None }).collect();
                modes.sort_unstable();
                Answer::Modes { modes }
            }
            Choice::Scry { .. } => Answer::Scry { top: objects(pick), bottom: objects(|a| if let LegalAction::Bottom { object } = a { Some(*object) } else { None }) },
            _ => unreachable!("not a selection"),
        }
    }

    /// The selection made so far at the pending decision.
    pub fn selection(&self) -> &[LegalAction] {
        &self.partial
    }

    /// A readable text for an action at the pending decision: "cast Fractured Sanity",
    /// "kick Monstrous War-Leech with {U}", "put Island on the bottom".
    pub fn describe(&self, a: &LegalAction) -> String {
        // Texts are shown to the deciding player: a card they can't see stays unnamed, unless
        // the decision itself shows it to them (a search looks through the library, CR 701.23a).
        let viewer = self.pending.as_ref().map(|d| d.player);
        let offered = |id: ObjId| match self.pending.as_ref().map(|d| &d.choice) {
            Some(Choice::Cards { options, .. }) => options.contains(&id),
            Some(Choice::Scry { cards }) => cards.contains(&id),
            Some(Choice::Targets { options, .. }) => options.contains(&TargetRef::Object(id)),
            _ => false,
        };
        let name = |id: ObjId| match self.slot_of(id) {
            Ok(s) if viewer.is_none_or(|p| self.sees(p, s)) || offered(id) => self.def_of_slot(s).name.to_string(),
            Ok(_) => "a hidden card".to_string(),
            Err(_) => format!("object {}", id.0),
        };
        let purpose = self.pending.as_ref().map(|d| d.purpose);
        match *a {
            LegalAction::Priority { action } => match action {
                PriorityAction::Pass => "pass priority".into(),
                PriorityAction::PlayLand { card } => format!("play {}", name(card)),
                PriorityAction::Cast { card } => format!("cast {}", name(card)),
                PriorityAction::Activate { source, index } => {
                    let cycling = self.slot_of(source).ok().and_then(|s| self.def_of_slot(s).rules.activated.get(index as usize)).is_some_and(|x| x.cycling);
                    if cycling {
                        format!("cycle {}", name(source))
                    } else {
                        format!("activate ability {index} of {}", name(source))
                    }
                }
            },
            LegalAction::Yes | LegalAction::No => {
                let yes = *a == LegalAction::Yes;
                match purpose {
                    Some(Purpose::Kicker { index }) => {
                        let (spell, cost) = self.kicker_being_decided(index as usize);
                        if yes {
                            format!("kick {spell} with {cost}")
                        } else {
                            format!("don't kick {spell}")
                        }
                    }
                    Some(Purpose::MaySearch) => (if yes { "search" } else { "don't search" }).into(),
                    Some(Purpose::Sticker) => (if yes { "put a sticker on the spell" } else { "don't put a sticker on the spell" }).into(),
                    Some(Purpose::May) => (if yes { "do it" } else { "don't" }).into(),
                    _ => (if yes { "yes" } else { "no" }).into(),
                }
            }
            LegalAction::Number { n } => match purpose {
                Some(Purpose::Multikicker { .. }) => format!("pay multikicker {n} time(s)"),
                Some(Purpose::ChooseX) => format!("X = {n}"),
                _ => format!("choose {n}"),
            },
            LegalAction::Pick { object } => match purpose {
                Some(Purpose::Scry) => format!("put {} on top", name(object)),
                Some(Purpose::Discard { .. }) => format!("discard {}", name(object)),
                Some(Purpose::Search) => format!("find {}", name(object)),
                Some(Purpose::Targets { .. }) => format!("target {}", name(object)),
                Some(Purpose::PayMana) => format!("tap {} for mana", name(object)),
                Some(Purpose::CostChoice) => format!("pay with {}", name(object)),
                Some(Purpose::LegendRule) => format!("keep {}", name(object)),
                Some(Purpose::OrderTriggers | Purpose::OrderReplacements) => format!("next: {}", name(object)),
                _ => format!("choose {}", name(object)),
            },
            LegalAction::PickPlayer { player } => format!("target player {player}"),
            LegalAction::PickMode { mode } => format!("choose mode {}", u64::from(mode) + 1),
            LegalAction::Bottom { object } => format!("put {} on the bottom", name(object)),
            LegalAction::Done => "done".into(),
        }
    }

    /// The spell being cast and the cost of kicker ability `index`, for a kicker decision.
    fn kicker_being_decided(&self, index: usize) -> (String, String) {
        for f in self.frames.iter().rev() {
            if let Frame::Cast(c) = f {
                let (name, cost) = c.kicker_description(self, index);
                return (name, cost);
            }
        }
        ("the spell".into(), "its kicker cost".into())
    }

    /// Whether the codes of `space` are a mask of the legal actions now.
    pub fn action_mask(&self, space: &ActionSpace) -> Result<Vec<bool>> {
        let mut mask = vec![false; space.size()];
        for a in self.legal_actions()? {
            mask[space.encode(&a)? as usize] = true;
        }
        Ok(mask)
    }

    /// Counts the distinct sequences of legal actions `depth` steps deep from this position
    /// (a sequence that ends the game, or leaves no decision pending, counts where it stops):
    /// perft, a check of move generation and a measure of raw decision throughput.
    pub fn perft(&self, depth: u32) -> Result<u64> {
        if depth == 0 || self.pending.is_none() || self.is_over() {
            return Ok(1);
        }
        let mut total = 0;
        let mut child = self.clone();
        for a in self.legal_actions()? {
            child.reset_from(self);
            child.take(a)?;
            total += child.perft(depth - 1)?;
        }
        Ok(total)
    }
}

fn target_action(t: TargetRef) -> LegalAction {
    match t {
        TargetRef::Object(object) => LegalAction::Pick { object },
        TargetRef::Player(player) => LegalAction::PickPlayer { player },
    }
}

/// Games in a row that may end before the agent has a decision before a batch gives up (as
/// `mtgsim.envs` does on reset).
pub const FRESH_TRIES: u32 = 32;

/// Many single-agent games stepped together (for agents that learn from many games at once):
/// the agent's seat answers by action codes, the other seats by a built-in policy; a game that
/// ends is replaced by the next game of the run.
#[derive(Clone, Debug)]
pub struct Batch {
    /// The games, each stopped at a decision of the agent's seat.
    pub games: Vec<Game>,
    /// The action space shared by all the games, made from the first game with the `extra` slots asked for.
    pub space: ActionSpace,
    /// The player the agent plays in every game; the other seats use the opponent policy.
    pub seat: u8,
    decks: Vec<Vec<String>>,
    setup: crate::game::Setup,
    opponent: crate::policy::Policy,
    seed: u64,
    next: u64,
    db: std::sync::Arc<crate::card::CardDb>,
}

/// What one batched step gives back, per game.
#[derive(Clone, Debug, Default)]
pub struct BatchStep {
    /// Per game, the agent's reward for the step: 1 for a win, -1 for a loss, 0 for a draw or a game
    /// still going.
    pub reward: Vec<f32>,
    /// Per game, whether the step ended it; an ended game has already been replaced by the next
    /// game of the run.
    pub terminated: Vec<bool>,
}

impl Batch {
    /// `n` games of the run `seed` (game i from `derive_seed(seed, i)`), each stopped at the
    /// agent's first decision.
    #[allow(clippy::too_many_arguments)] // one per parameter of the Python constructor
    pub fn new(
        decks: Vec<Vec<String>>,
        n: usize,
        seed: u64,
        seat: u8,
        opponent: crate::policy::Policy,
        extra: u32,
        setup: crate::game::Setup,
        db: std::sync::Arc<crate::card::CardDb>,
    ) -> Result<Batch> {
        if n == 0 || n > 100_000 {
            return Err(invalid(format!("a batch holds 1 to 100000 games, not {n}")));
        }
        if seat as usize >= decks.len() {
            return Err(invalid(format!("seat {seat} is not one of the {} players", decks.len())));
        }
        if opponent == crate::policy::Policy::Manual {
            return Err(invalid("the other seats need a built-in policy (goldfish, random, first)"));
        }
        let mut b = Batch { games: Vec::with_capacity(n), space: ActionSpace { slots: 0, players: decks.len() as u8 }, seat, decks, setup, opponent, seed, next: 0, db };
        for _ in 0..n {
            let g = b.fresh()?;
            b.games.push(g);
        }
        b.space = ActionSpace::for_game(&b.games[0], extra);
        Ok(b)
    }

    /// The next game from the run's seeds, played on until the agent has a decision; a game
    /// that ends (or loops) first is replaced, at most [`FRESH_TRIES`] times in a row.
    fn fresh(&mut self) -> Result<Game> {
        let first = self.next;
        for _ in 0..FRESH_TRIES {
            let mut g = Game::from_decks(&self.decks, crate::rng::derive_seed(self.seed, self.next), &self.setup, &self.db)?;
            self.next += 1;
            g.set_recording(false);
            for p in 0..g.players.len() {
                g.set_policy(p, if p == self.seat as usize { crate::policy::Policy::Manual } else { self.opponent })?;
            }
            // Bounded: the other players alone may be caught in a loop (CR 104.4b).
            g.play(crate::play::Until::GameOver, crate::turn::LOOP_ACTIONS)?;
            if g.pending.is_some() {
                return Ok(g);
            }
        }
        Err(invalid(format!(
            "games {first} to {} of seed {} all ended (or looped) before the agent in seat {} had a decision: these decks never give it one",
            self.next - 1,
            self.seed,
            self.seat
        )))
    }

    /// Takes one action in every game (`codes[i]` in game i). All codes are checked first: an
    /// illegal one is an error naming the game, and no game changes. A legal action that fails
    /// as it is taken (only an engine fault can do that here: the other seats' policies are
    /// built in) leaves its game as it was (CR 733); the other games have taken theirs, the
    /// finished ones are replaced, and the error names the game.
    pub fn step(&mut self, codes: &[u32]) -> Result<BatchStep> {
        use rayon::prelude::*;
        if codes.len() != self.games.len() {
            return Err(invalid(format!("{} action codes for {} games", codes.len(), self.games.len())));
        }
        let space = self.space;
        let actions: Vec<LegalAction> = self
            .games
            .par_iter()
            .zip(codes)
            .enumerate()
            .map(|(i, (g, &c))| {
                let a = space.decode(c, g).map_err(|e| invalid(format!("game {i}: {e}")))?;
                if !g.legal_actions()?.contains(&a) {
                    return Err(illegal(format!("game {i}: action code {c} is not legal now")));
                }
                Ok(a)
            })
            .collect::<Result<_>>()?;
        let seat = self.seat;
        let results: Vec<Result<(f32, bool)>> = self
            .games
            .par_iter_mut()
            .zip(actions)
            .map(|(g, a)| {
                g.take(a)?;
                Ok(match g.outcome() {
                    Some(o) if o.winners.contains(&seat) => (1.0, true),
                    Some(o) if o.winners.is_empty() => (0.0, true),
                    Some(_) => (-1.0, true),
                    None => (0.0, false),
                })
            })
            .collect();
        // Every game is brought up to date before an error is returned, so the batch stays
        // consistent: no finished game is left in it.
        let mut out = BatchStep::default();
        let mut failed = None;
        for (i, r) in results.into_iter().enumerate() {
            let (reward, done) = match r {
                Ok(r) => r,
                Err(e) => {
                    failed.get_or_insert((i, e));
                    (0.0, false)
                }
            };
            if done {
                self.games[i] = self.fresh()?;
            }
            out.reward.push(reward);
            out.terminated.push(done);
        }
        match failed {
            Some((i, e)) => Err(e.at(format_args!("game {i}"))),
            None => Ok(out),
        }
    }

    /// The agent's observation arrays and action mask in every game, stacked. A legal action
    /// the action space can't express (an object beyond its slots) is an error naming the game,
    /// not a mask without it.
    pub fn observe(&self) -> Result<(Vec<f32>, Vec<i32>, Vec<u8>)> {
        let n = self.games.len();
        let (mut global, mut rows, mut masks) = (Vec::new(), Vec::new(), Vec::new());
        // Reserved whole up front, so arrays too big for memory are an error, not an abort.
        let per_game = crate::observe::GLOBAL_BASE + crate::observe::GLOBAL_PER_PLAYER * self.space.players as usize;
        let too_big = |_| invalid(format!("the observations of {n} games with {} object slots each don't fit in memory: fewer games or slots", self.space.slots));
        global.try_reserve_exact(n * per_game).map_err(too_big)?;
        rows.try_reserve_exact(n * self.space.slots as usize * crate::observe::OBJECT_FEATURES).map_err(too_big)?;
        masks.try_reserve_exact(n * self.space.size()).map_err(too_big)?;
        for (i, g) in self.games.iter().enumerate() {
            let (gl, r) = g.observation_arrays(self.seat, self.space.slots);
            global.extend(gl);
            rows.extend(r);
            let mask = g.action_mask(&self.space).map_err(|e| e.at(format_args!("game {i}")))?;
            masks.extend(mask.into_iter().map(u8::from));
        }
        Ok((global, rows, masks))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::CardDb;
    use crate::policy::Policy;

    fn batch(games: usize, extra: u32) -> Batch {
        let deck = |land: &str| -> Vec<String> { std::iter::repeat_n(land.to_string(), 20).chain(std::iter::repeat_n("Fractured Sanity".to_string(), 20)).collect() };
        let db = std::sync::Arc::new(CardDb::builtin().clone());
        Batch::new(vec![deck("Island"), deck("Island")], games, 7, 0, Policy::Goldfish, extra, crate::game::Setup::default(), db).unwrap()
    }

    #[test]
    fn an_action_the_space_cannot_express_is_an_error_naming_the_game_not_an_empty_mask() {
        let mut b = batch(2, 0);
        assert!(b.observe().is_ok());
        // A space with no room for objects: the agent's land plays (legal now) can't be expressed.
        assert!(b.games[0].legal_actions().unwrap().iter().any(|a| matches!(a, LegalAction::Priority { action: PriorityAction::PlayLand { .. } })));
        b.space.slots = 0;
        let err = b.observe().unwrap_err().to_string();
        assert!(err.contains("game 0") && err.contains("beyond"), "{err}");
    }

    #[test]
    fn a_legal_action_failing_in_one_game_leaves_it_as_it_was_and_the_others_up_to_date() {
        let mut b = batch(3, 64);
        // Game 1 in strict mode with no script: the other seat's answers are refused, so taking
        // the agent's action fails there as it plays on (CR 733: that game is left as it was).
        b.games[1].set_strict(true);
        let before: Vec<String> = b.games.iter().map(Game::save_json).collect();
        let pass = b.space.encode(&LegalAction::Priority { action: PriorityAction::Pass }).unwrap();
        let codes: Vec<u32> = b.games.iter().map(|g| if g.legal_actions().unwrap().contains(&LegalAction::Priority { action: PriorityAction::Pass }) { pass } else { 0 }).collect();
        let err = b.step(&codes).unwrap_err().to_string();
        assert!(err.contains("game 1"), "{err}");
        assert_eq!(b.games[1].save_json(), before[1]);
        assert_ne!(b.games[0].save_json(), before[0]);
        assert_ne!(b.games[2].save_json(), before[2]);
        assert!(b.games.iter().all(|g| g.pending.is_some())); // none left finished
    }
}
