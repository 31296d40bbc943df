//! Simulation: many whole games from deck lists, played by built-in policies inside Rust, in
//! parallel on a pool of threads. Game `i`'s seed is `derive_seed(run seed, i)`, and every game
//! is played alone from its seed, so the results are the same whatever the thread count or the
//! chunking — on one machine or split across many.

use rayon::prelude::*;

use crate::card::CardDb;
use crate::error::{invalid, Result};
use crate::game::{Game, Setup};
use crate::policy::Policy;
use crate::rng::derive_seed;

/// The most turns a simulated game may last (`Simulation::max_turns`).
pub const MAX_TURNS: u32 = 10_000;

/// The most stop conditions, and the most recorded ones, a simulation may have: a game's
/// stopping condition is kept as an `i8` index.
pub const MAX_CONDITIONS: usize = 100;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct Simulation {
    /// Each player's deck as a list of card names, in seat order.
    pub decks: Vec<Vec<String>>,
    /// The run's seed; game `i` uses `derive_seed(seed, i)`.
    pub seed: u64,
    /// One policy per player (built-in: never `Manual`).
    pub policies: Vec<Policy>,
    /// A game still going at the start of this turn stops there, unfinished.
    pub max_turns: u32,
    /// Starting life total and opening hand size for every game.
    pub setup: Setup,
    /// A game stops (unfinished) as soon as one of these holds, checked before every action.
    pub stop: Vec<Condition>,
    /// For each of these, the turn in which it first held (checked before every action).
    pub record: Vec<Condition>,
}

/// Something a simulation watches for, in a documented text form (`Condition::parse`):
/// to stop a game early, or to record the turn it first held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    /// `library_empty:P`: player P has no cards in their library (milled out).
    LibraryEmpty(u8),
    /// `hand_empty:P`.
    HandEmpty(u8),
    /// `life_at_most:P:N`.
    LifeAtMost(u8, i32),
    /// `graveyard_at_least:P:N`: P's graveyard holds at least N cards.
    GraveyardAtLeast(u8, u32),
    /// `permanents_at_least:P:N`: P controls at least N permanents.
    PermanentsAtLeast(u8, u32),
    /// `lost:P`: player P has lost.
    Lost(u8),
    /// `turn:N`: the game has reached turn N.
    Turn(u32),
}

impl Condition {
    /// The documented forms, for error messages and docs.
    pub const FORMS: &'static str = "library_empty:P, hand_empty:P, life_at_most:P:N, graveyard_at_least:P:N, permanents_at_least:P:N, lost:P, turn:N";

    /// Parses `text` for a game of `players` players; impossible conditions (a player who
    /// isn't in the game, turn 0) are errors.
    pub fn parse(text: &str, players: usize) -> Result<Condition> {
        let parts: Vec<&str> = text.trim().split(':').map(str::trim).collect();
        let bad = |why: String| invalid(format!("condition {text:?}: {why} (conditions: {})", Condition::FORMS));
        let num = |i: usize, what: &str| -> Result<i64> {
            let s = parts.get(i).ok_or_else(|| bad(format!("needs {what}")))?;
            s.parse::<i64>().map_err(|_| {
                let digits = s.strip_prefix('-').unwrap_or(s);
                bad(if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                    format!("{what} of {s} is out of range")
                } else {
                    format!("{what} must be a whole number, not {s:?}")
                })
            })
        };
        let player = |i: usize| -> Result<u8> {
            let p = num(i, "a player")?;
            if p < 0 || p as usize >= players {
                return Err(bad(format!("there is no player {p} in a {players}-player game")));
            }
            Ok(p as u8)
        };
        let count = |i: usize| -> Result<u32> {
            let n = num(i, "a count")?;
            if !(0..=crate::game::MAX_COUNT).contains(&n) {
                return Err(bad(format!("the count must be from 0 to {}, not {n}", crate::game::MAX_COUNT)));
            }
            Ok(n as u32)
        };
        let arity = |n: usize| if parts.len() == n { Ok(()) } else { Err(bad(format!("takes {} value(s) after its name", n - 1))) };
        let c = match parts[0] {
            "library_empty" => arity(2).and_then(|_| player(1)).map(Condition::LibraryEmpty),
            "hand_empty" => arity(2).and_then(|_| player(1)).map(Condition::HandEmpty),
            "lost" => arity(2).and_then(|_| player(1)).map(Condition::Lost),
            "life_at_most" => arity(3).and_then(|_| Ok(Condition::LifeAtMost(player(1)?, num(2, "a life total")?.clamp(i32::MIN as i64, i32::MAX as i64) as i32))),
            "graveyard_at_least" => arity(3).and_then(|_| Ok(Condition::GraveyardAtLeast(player(1)?, count(2)?))),
            "permanents_at_least" => arity(3).and_then(|_| Ok(Condition::PermanentsAtLeast(player(1)?, count(2)?))),
            "turn" => arity(2).and_then(|_| {
                let n = count(1)?;
                if n == 0 {
                    return Err(bad("turns are numbered from 1".into()));
                }
                Ok(Condition::Turn(n))
            }),
            other => Err(bad(format!("unknown condition {other:?}"))),
        }?;
        Ok(c)
    }

    /// Whether it holds in `g` now.
    pub fn holds(&self, g: &Game) -> bool {
        let pl = |p: u8| &g.players[p as usize];
        match *self {
            Condition::LibraryEmpty(p) => pl(p).library.is_empty(),
            Condition::HandEmpty(p) => pl(p).hand.is_empty(),
            Condition::LifeAtMost(p, n) => pl(p).life <= n,
            Condition::GraveyardAtLeast(p, n) => pl(p).graveyard.len() as u32 >= n,
            Condition::PermanentsAtLeast(p, n) => g.battlefield.iter().filter(|&&s| g.objects[s as usize].controller == p).count() as u32 >= n,
            Condition::Lost(p) => pl(p).lost.is_some(),
            Condition::Turn(n) => g.turn() >= n,
        }
    }
}

/// One row per game (and, for per-player columns, `players` entries per game, player-major
/// within the game).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Results {
    /// Players per game: how many entries each game has in the per-player columns.
    pub players: usize,
    /// The one winner, or -1: a draw, several winners, or a game that didn't finish (stopped by a condition or the turn limit).
    pub winner: Vec<i8>,
    /// Whether the game ended (else a stop condition or the turn limit stopped it first).
    pub finished: Vec<bool>,
    /// The turn in progress when it ended or stopped.
    pub turns: Vec<u32>,
    /// Why each player lost (a `LossReason` code, see [`loss_code`]), or 0 if they didn't.
    pub loss: Vec<u8>,
    /// Each player's life total when the game ended or stopped.
    pub life: Vec<i32>,
    /// The number of cards left in each player's library at the end.
    pub library: Vec<u32>,
    /// The number of cards in each player's graveyard at the end.
    pub graveyard: Vec<u32>,
    /// Cards each player milled from their own library during the game.
    pub milled: Vec<u32>,
    /// Spells each player cast during the game.
    pub spells: Vec<u32>,
    /// Kicker costs each player paid (multikicker counting each time it was paid).
    pub kicks: Vec<u32>,
    /// Cards each player cycled (typecycling included).
    pub cycles: Vec<u32>,
    /// Lands each player played (CR 305.1).
    pub lands: Vec<u32>,
    /// Which stop condition ended the game (its index), or -1.
    pub stopped: Vec<i8>,
    /// Per game, for each recorded condition, the turn it first held (0: never).
    pub recorded: Vec<u32>,
}

/// The code of a loss reason in [`Results::loss`]: 1 life, 2 empty library, 3 poison,
/// 4 conceded, 5 an opponent won by an effect.
pub fn loss_code(r: crate::event::LossReason) -> u8 {
    use crate::event::LossReason::*;
    match r {
        Life => 1,
        EmptyLibrary => 2,
        Poison => 3,
        Conceded => 4,
        OpponentWon => 5,
    }
}

impl Results {
    fn with_capacity(players: usize, games: usize) -> Results {
        let per = players * games;
        Results {
            players,
            winner: Vec::with_capacity(games),
            finished: Vec::with_capacity(games),
            turns: Vec::with_capacity(games),
            loss: Vec::with_capacity(per),
            life: Vec::with_capacity(per),
            library: Vec::with_capacity(per),
            graveyard: Vec::with_capacity(per),
            milled: Vec::with_capacity(per),
            spells: Vec::with_capacity(per),
            kicks: Vec::with_capacity(per),
            cycles: Vec::with_capacity(per),
            lands: Vec::with_capacity(per),
            stopped: Vec::with_capacity(games),
            recorded: Vec::new(),
        }
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.winner.len()
    }

    /// Whether there are no games.
    pub fn is_empty(&self) -> bool {
        self.winner.is_empty()
    }

    fn push(&mut self, g: &Game, stopped: Option<usize>, recorded: &[u32]) {
        self.stopped.push(stopped.map_or(-1, |k| k as i8));
        self.recorded.extend_from_slice(recorded);
        let outcome = g.outcome();
        self.winner.push(match outcome {
            Some(o) if o.winners.len() == 1 => o.winners[0] as i8,
            _ => -1,
        });
        self.finished.push(outcome.is_some());
        self.turns.push(g.turn());
        for st in &g.players {
            self.loss.push(st.lost.map_or(0, loss_code));
            self.life.push(st.life);
            self.library.push(st.library.len() as u32);
            self.graveyard.push(st.graveyard.len() as u32);
            self.milled.push(st.stats.milled);
            self.spells.push(st.stats.spells);
            self.kicks.push(st.stats.kicks);
            self.cycles.push(st.stats.cycles);
            self.lands.push(st.stats.lands);
        }
    }

    fn extend(&mut self, other: Results) {
        self.winner.extend(other.winner);
        self.finished.extend(other.finished);
        self.turns.extend(other.turns);
        self.loss.extend(other.loss);
        self.life.extend(other.life);
        self.library.extend(other.library);
        self.graveyard.extend(other.graveyard);
        self.milled.extend(other.milled);
        self.spells.extend(other.spells);
        self.kicks.extend(other.kicks);
        self.cycles.extend(other.cycles);
        self.lands.extend(other.lands);
        self.stopped.extend(other.stopped);
        self.recorded.extend(other.recorded);
    }
}

impl Simulation {
    /// Checks the configuration and builds the position every game starts from.
    pub fn template(&self, db: &CardDb) -> Result<Game> {
        if self.policies.len() != self.decks.len() {
            return Err(invalid(format!("{} decks but {} policies: give one policy per player", self.decks.len(), self.policies.len())));
        }
        self.check_play_settings()?;
        if let Some(p) = self.decks.iter().position(Vec::is_empty) {
            return Err(invalid(format!("deck {p} is empty")));
        }
        let mut template = Game::unshuffled(&self.decks, &self.setup, db)?;
        self.prepare(&mut template)?;
        Ok(template)
    }

    /// What games from decks and games from a position both need: built-in policies, a turn
    /// limit in range, and few enough conditions for a game's stop index to fit its column.
    fn check_play_settings(&self) -> Result<()> {
        if self.policies.contains(&Policy::Manual) {
            return Err(invalid("a simulation is played by built-in policies (random, first, goldfish), not manual players"));
        }
        if self.max_turns == 0 || self.max_turns > MAX_TURNS {
            return Err(invalid(format!("the turn limit must be from 1 to {MAX_TURNS}, not {}", self.max_turns)));
        }
        if self.stop.len() > MAX_CONDITIONS || self.record.len() > MAX_CONDITIONS {
            return Err(invalid(format!("at most {MAX_CONDITIONS} stop and {MAX_CONDITIONS} recorded conditions")));
        }
        Ok(())
    }

    /// The policies and bulk settings on a position games start from.
    fn prepare(&self, template: &mut Game) -> Result<()> {
        template.set_recording(false);
        template.discard_output = true;
        template.unattended = true;
        for (p, &policy) in self.policies.iter().enumerate() {
            template.set_policy(p, policy)?;
        }
        Ok(())
    }

    /// Checks a position for continuing from (Monte Carlo from a mid-game state) and makes the
    /// template: the position with the policies set, nothing pending.
    pub fn position_template(&self, position: &Game) -> Result<Game> {
        if self.policies.len() != position.players.len() {
            return Err(invalid(format!("the position has {} players but {} policies were given", position.players.len(), self.policies.len())));
        }
        self.check_play_settings()?;
        if position.pending.is_some() || !position.frames.is_empty() {
            return Err(crate::error::illegal("the position has a decision pending: answer it before continuing from it"));
        }
        if !position.is_over() && position.priority.is_none() {
            return Err(crate::error::illegal("nobody has priority in the position, so it can't be played on"));
        }
        let mut template = position.clone();
        for seat in &mut template.seats {
            seat.script.clear();
        }
        template.strict = false;
        self.prepare(&mut template)?;
        Ok(template)
    }

    /// Plays one game from `g` (already dealt or reseeded) to its end, the turn limit or a
    /// stop condition; records the result.
    fn play_out(&self, g: &mut Game, out: &mut Results, first: &mut Vec<u32>) -> Result<()> {
        first.clear();
        first.resize(self.record.len(), 0);
        let mut stopped = None;
        // Unattended play skips re-checking a state already checked, so it starts from one
        // that is (a position may not be; a player is about to receive priority, CR 117.5).
        g.check_state_based_actions();
        let mut on = crate::play::PlayOn::new(g, self.max_turns + 1);
        // With nothing to look at between actions, play goes on within each call, counting
        // its actions in `on` as this loop would.
        let unwatched = self.record.is_empty() && self.stop.is_empty();
        loop {
            for (k, c) in self.record.iter().enumerate() {
                if first[k] == 0 && c.holds(g) {
                    first[k] = g.turn();
                }
            }
            if on.reached(g) {
                break;
            }
            if let Some(k) = self.stop.iter().position(|c| c.holds(g)) {
                stopped = Some(k);
                break;
            }
            if on.one_too_many(g) {
                break; // a loop of mandatory actions (CR 104.4b): the game stops unfinished
            }
            let progress = if unwatched { g.play_on(&mut on)? } else { g.play_one()? };
            if progress == crate::game::Progress::Paused {
                return Err(crate::error::illegal("a decision was left unanswered in a simulation"));
            }
        }
        out.push(g, stopped, first);
        Ok(())
    }

    /// Plays games `start..end` on this thread.
    pub fn run_range(&self, template: &Game, start: u64, end: u64) -> Result<Results> {
        self.run_range_on(&mut Worker::new(template), start, end)
    }

    /// [`Simulation::run_range`] on `w`, which may have played other ranges.
    fn run_range_on(&self, w: &mut Worker, start: u64, end: u64) -> Result<Results> {
        let mut out = Results::with_capacity(self.decks.len(), (end - start) as usize);
        let Worker { template, game: g, first } = w;
        for i in start..end {
            g.reset_from(template);
            g.deal(derive_seed(self.seed, i), &self.setup)?;
            self.play_out(g, &mut out, first)?;
        }
        Ok(out)
    }

    /// Plays continuations `start..end` of `position` on this thread: each from the position
    /// with the game's generator and the players' reseeded from `derive_seed(seed, i)`, and,
    /// with `shuffle_libraries`, every library shuffled first (the order no player knows).
    pub fn run_position_range(&self, template: &Game, shuffle_libraries: bool, start: u64, end: u64) -> Result<Results> {
        self.run_position_range_on(&mut Worker::new(template), shuffle_libraries, start, end)
    }

    /// [`Simulation::run_position_range`] on `w`, which may have played other ranges.
    fn run_position_range_on(&self, w: &mut Worker, shuffle_libraries: bool, start: u64, end: u64) -> Result<Results> {
        let mut out = Results::with_capacity(w.template.players.len(), (end - start) as usize);
        let Worker { template, game: g, first } = w;
        for i in start..end {
            g.reset_from(template);
            g.reseed(derive_seed(self.seed, i));
            if shuffle_libraries {
                for p in 0..g.players.len() as u8 {
                    g.shuffle_library(p);
                }
            }
            self.play_out(g, &mut out, first)?;
        }
        Ok(out)
    }

    /// Plays continuations `start..end` of `position` on `threads` threads (see
    /// [`Simulation::run_position_range`]); the decks and setup are not used.
    pub fn run_from(&self, position: &Game, shuffle_libraries: bool, start: u64, end: u64, threads: usize) -> Result<Results> {
        if end < start {
            return Err(invalid(format!("the game range {start}..{end} is empty backwards")));
        }
        let template = self.position_template(position)?;
        self.run_chunks(&template, start, end, threads, |w, a, b| self.run_position_range_on(w, shuffle_libraries, a, b))
    }

    /// Plays games `start..end` on `threads` threads (all cores if 0), in chunks; the results
    /// are in game order and don't depend on the thread count.
    pub fn run(&self, db: &CardDb, start: u64, end: u64, threads: usize) -> Result<Results> {
        if end < start {
            return Err(invalid(format!("the game range {start}..{end} is empty backwards")));
        }
        let template = self.template(db)?;
        self.run_chunks(&template, start, end, threads, |w, a, b| self.run_range_on(w, a, b))
    }

    /// Games `start..end` in chunks on a pool of `threads` threads, joined in game order. A
    /// worker (the template's thread copy and the game played) is made per rayon job, which
    /// plays several chunks, rather than per chunk: making one costs a copy of every card
    /// definition.
    fn run_chunks(&self, template: &Game, start: u64, end: u64, threads: usize, run: impl Fn(&mut Worker, u64, u64) -> Result<Results> + Sync) -> Result<Results> {
        if threads > MAX_THREADS {
            return Err(invalid(format!("{threads} worker threads is out of range (at most {MAX_THREADS}; 0 means one per core)")));
        }
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| invalid(format!("can't start {threads} worker threads: {e}")))?;
        let size = chunk_size(end - start, pool.current_num_threads());
        let chunks: Vec<(u64, u64)> = (start..end).step_by(size as usize).map(|a| (a, a.saturating_add(size).min(end))).collect();
        let parts: Vec<Result<Results>> = pool.install(|| chunks.par_iter().map_init(|| Worker::new(template), |w, &(a, b)| run(w, a, b)).collect());
        let mut out = Results::with_capacity(self.policies.len(), (end - start) as usize);
        for part in parts {
            out.extend(part?);
        }
        Ok(out)
    }
}

/// What a batch thread plays its games with: its own copy of the template (see
/// [`Game::thread_copy`]), the game it resets from that copy for each game, and the buffer of
/// the turns on which recorded conditions first held.
struct Worker {
    template: Game,
    game: Game,
    first: Vec<u32>,
}

impl Worker {
    fn new(template: &Game) -> Worker {
        let template = template.thread_copy();
        let game = template.clone();
        Worker { template, game, first: Vec::new() }
    }
}

/// More worker threads than this is a mistake, not a machine: each thread costs a stack, and a
/// million of them would exhaust memory before the first game.
pub const MAX_THREADS: usize = 1024;

/// Games per chunk: about sixteen chunks per thread, so that the threads run out of work
/// within a small chunk of each other (games differ in length, and a thread left alone with
/// the last big chunk is time the other threads sit idle); at least 16 games, so a chunk's
/// setup stays small beside its games, and at most 512.
fn chunk_size(games: u64, threads: usize) -> u64 {
    games.div_ceil(16 * threads.max(1) as u64).clamp(16, 512)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::Until;

    #[test]
    fn chunks_are_small_enough_to_balance_the_threads() {
        assert_eq!(chunk_size(2_000, 2), 63);
        assert_eq!(chunk_size(100, 2), 16);
        assert_eq!(chunk_size(1_000_000, 2), 512);
        assert_eq!(chunk_size(0, 0), 16);
    }

    fn sim(seed: u64) -> Simulation {
        let mill: Vec<String> = ["Island"; 24].iter().chain(["Fractured Sanity"; 16].iter()).map(|s| s.to_string()).collect();
        let bears: Vec<String> = ["Forest"; 24].iter().chain(["Grizzly Bears"; 16].iter()).map(|s| s.to_string()).collect();
        Simulation { decks: vec![mill, bears], seed, policies: vec![Policy::Goldfish, Policy::Goldfish], max_turns: 40, setup: Setup::default(), stop: vec![], record: vec![] }
    }

    // A batch thread's template holds the same card definitions as the run's, but its own
    // copies: no reference count of theirs is shared with another thread.
    #[test]
    fn a_thread_copy_shares_no_card_definition() {
        let template = sim(7).template(CardDb::builtin()).unwrap();
        let copy = template.thread_copy();
        assert_eq!(copy.defs.len(), template.defs.len());
        for (own, shared) in copy.defs.iter().zip(template.defs.iter()) {
            assert!(**own == **shared && !std::sync::Arc::ptr_eq(own, shared));
        }
    }

    #[test]
    fn results_do_not_depend_on_threads_or_ranges() {
        let db = CardDb::builtin();
        let s = sim(7);
        let one = s.run(db, 0, 40, 1).unwrap();
        let two = s.run(db, 0, 40, 2).unwrap();
        assert_eq!(one, two);
        let mut split = s.run(db, 0, 13, 2).unwrap();
        split.extend(s.run(db, 13, 40, 1).unwrap());
        assert_eq!(one, split);
        assert_eq!(one.len(), 40);
        assert!(one.finished.iter().all(|&f| f), "forty turns are enough to mill out a 40-card deck");
    }

    // A worker plays chunk after chunk: a range it plays after others comes out as it does
    // from a fresh worker, from decks and from a position. (Mutation caught: a range's games
    // played on from the game the last range left, not reset from the template.)
    #[test]
    fn a_worker_plays_each_range_as_a_fresh_one_would() {
        let db = CardDb::builtin();
        let mut s = sim(3);
        s.record = vec![Condition::Turn(5)];
        let template = s.template(db).unwrap();
        let mut w = Worker::new(&template);
        for (a, b) in [(0, 7), (7, 9), (30, 41)] {
            assert_eq!(s.run_range_on(&mut w, a, b).unwrap(), s.run_range(&template, a, b).unwrap());
        }
        let mut dealt = template.clone();
        dealt.deal(11, &s.setup).unwrap();
        let position = s.position_template(&dealt).unwrap();
        let mut w = Worker::new(&position);
        for (a, b) in [(0, 5), (5, 12)] {
            assert_eq!(s.run_position_range_on(&mut w, true, a, b).unwrap(), s.run_position_range(&position, true, a, b).unwrap());
        }
    }

    #[test]
    fn games_from_a_position_refuse_what_games_from_decks_refuse() {
        let db = CardDb::builtin();
        let position = sim(1).template(db).unwrap();
        let mut s = sim(1);
        s.stop = vec![Condition::Turn(1000); MAX_CONDITIONS + 1];
        for check in [s.template(db).map(drop), s.position_template(&position).map(drop)] {
            assert!(check.unwrap_err().to_string().contains("at most 100 stop"));
        }
        s.stop.clear();
        s.max_turns = MAX_TURNS + 1;
        assert!(s.position_template(&position).unwrap_err().to_string().contains("from 1 to 10000"));
    }

    #[test]
    fn game_i_is_the_game_from_its_derived_seed() {
        let db = CardDb::builtin();
        let s = sim(3);
        let r = s.run(db, 5, 6, 1).unwrap();
        let mut g = Game::from_decks(&s.decks, derive_seed(3, 5), &Setup::default(), db).unwrap();
        g.set_recording(false);
        for p in 0..2 {
            g.set_policy(p, Policy::Goldfish).unwrap();
        }
        g.play(Until::Turn(41), u64::MAX).unwrap();
        assert_eq!(r.turns[0], g.turn());
        assert_eq!(r.library[..2], [g.players[0].library.len() as u32, g.players[1].library.len() as u32]);
    }
}
