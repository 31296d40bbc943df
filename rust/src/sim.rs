//! Simulation: many whole games from deck lists, played by built-in policies inside Rust, in
//! parallel on a pool of threads. Game `i`'s seed is `derive_seed(run seed, i)`, and every game
//! is played alone from its seed, so the results are the same whatever the thread count or the
//! chunking — on one machine or split across many.

use rayon::prelude::*;

use crate::card::CardDb;
use crate::error::{invalid, Result};
use crate::game::{Game, Setup};
use crate::play::Until;
use crate::policy::Policy;
use crate::rng::derive_seed;

/// What to simulate.
#[derive(Clone, Debug)]
pub struct Simulation {
    pub decks: Vec<Vec<String>>,
    /// The run's seed; game `i` uses `derive_seed(seed, i)`.
    pub seed: u64,
    /// One policy per player (built-in: never `Manual`).
    pub policies: Vec<Policy>,
    /// A game still going at the start of this turn stops there, unfinished.
    pub max_turns: u32,
    pub setup: Setup,
}

/// One row per game (and, for per-player columns, `players` entries per game, player-major
/// within the game).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Results {
    pub players: usize,
    /// The winner, or -1 for a draw or a game stopped at the turn limit.
    pub winner: Vec<i8>,
    /// Whether the game ended (else it reached the turn limit).
    pub finished: Vec<bool>,
    /// The turn in progress when it ended or stopped.
    pub turns: Vec<u32>,
    /// Why each player lost (a `LossReason` code, see [`loss_code`]), or 0 if they didn't.
    pub loss: Vec<u8>,
    pub life: Vec<i32>,
    pub library: Vec<u32>,
    pub graveyard: Vec<u32>,
    pub milled: Vec<u32>,
    pub spells: Vec<u32>,
    pub kicks: Vec<u32>,
    pub cycles: Vec<u32>,
    pub lands: Vec<u32>,
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
        }
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.winner.len()
    }

    pub fn is_empty(&self) -> bool {
        self.winner.is_empty()
    }

    fn push(&mut self, g: &Game) {
        let outcome = g.outcome();
        self.winner.push(match outcome {
            Some(o) if o.winners.len() == 1 => o.winners[0] as i8,
            _ => -1,
        });
        self.finished.push(outcome.is_some());
        self.turns.push(g.turn());
        for (p, st) in g.players.iter().enumerate() {
            self.loss.push(st.lost.map_or(0, loss_code));
            let _ = p;
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
    }
}

impl Simulation {
    /// Checks the configuration and builds the position every game starts from.
    pub fn template(&self, db: &CardDb) -> Result<Game> {
        if self.policies.len() != self.decks.len() {
            return Err(invalid(format!("{} decks but {} policies: give one policy per player", self.decks.len(), self.policies.len())));
        }
        if self.policies.contains(&Policy::Manual) {
            return Err(invalid("a simulation is played by built-in policies (random, first, goldfish), not manual players"));
        }
        if self.max_turns == 0 || self.max_turns > 10_000 {
            return Err(invalid(format!("the turn limit must be from 1 to 10000, not {}", self.max_turns)));
        }
        if let Some(p) = self.decks.iter().position(Vec::is_empty) {
            return Err(invalid(format!("deck {p} is empty")));
        }
        let mut template = Game::unshuffled(&self.decks, &self.setup, db)?;
        template.set_recording(false);
        template.discard_output = true;
        for (p, &policy) in self.policies.iter().enumerate() {
            template.set_policy(p, policy)?;
        }
        Ok(template)
    }

    /// Plays games `start..end` on this thread.
    pub fn run_range(&self, template: &Game, start: u64, end: u64) -> Result<Results> {
        let mut out = Results::with_capacity(self.decks.len(), (end - start) as usize);
        let mut g = template.clone();
        for i in start..end {
            g.reset_from(template);
            g.deal(derive_seed(self.seed, i), &self.setup)?;
            if !g.is_over() {
                g.play(Until::Turn(self.max_turns + 1), u64::MAX)?;
            }
            out.push(&g);
        }
        Ok(out)
    }

    /// Plays games `start..end` on `threads` threads (all cores if 0), in chunks; the results
    /// are in game order and don't depend on the thread count.
    pub fn run(&self, db: &CardDb, start: u64, end: u64, threads: usize) -> Result<Results> {
        if end < start {
            return Err(invalid(format!("the game range {start}..{end} is empty backwards")));
        }
        let template = self.template(db)?;
        const CHUNK: u64 = 512;
        let chunks: Vec<(u64, u64)> = (start..end).step_by(CHUNK as usize).map(|a| (a, (a + CHUNK).min(end))).collect();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| invalid(format!("can't start {threads} worker threads: {e}")))?;
        let parts: Vec<Result<Results>> = pool.install(|| chunks.par_iter().map(|&(a, b)| self.run_range(&template, a, b)).collect());
        let mut out = Results::with_capacity(self.decks.len(), (end - start) as usize);
        for part in parts {
            out.extend(part?);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sim(seed: u64) -> Simulation {
        let mill: Vec<String> = ["Island"; 24].iter().chain(["Fractured Sanity"; 16].iter()).map(|s| s.to_string()).collect();
        let bears: Vec<String> = ["Forest"; 24].iter().chain(["Grizzly Bears"; 16].iter()).map(|s| s.to_string()).collect();
        Simulation { decks: vec![mill, bears], seed, policies: vec![Policy::Goldfish, Policy::Goldfish], max_turns: 40, setup: Setup::default() }
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
