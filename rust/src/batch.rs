//! Many actions in one call: a list of operations applied to a position many times, entirely
//! inside Rust with built-in policies answering every decision. Used for Monte Carlo from a
//! position and for measuring the engine without per-call overhead.

use serde::{Deserialize, Serialize};

use crate::actions::discard::DiscardMode;
use crate::actions::search::SearchSpec;
use crate::casting::CastOptions;
use crate::error::{illegal, invalid, Result};
use crate::game::{Game, Progress};
use crate::object::ObjId;
use crate::policy::Policy;
use crate::rng::{derive_seed, Rng};

/// One action, as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// The player draws `n` cards (CR 121.2); see [`Game::draw`].
    Draw {
        /// The drawing player.
        player: usize,
        /// Cards to draw; negative is an invalid-argument error.
        n: i64,
    },
    /// The player mills `n` cards (CR 701.17); see [`Game::mill`].
    Mill {
        /// The milling player.
        player: usize,
        /// Cards to mill; negative is an invalid-argument error.
        n: i64,
    },
    /// Each opponent of the player mills `n` cards; see [`Game::mill_opponents`].
    MillOpponents {
        /// The player whose opponents mill.
        player: usize,
        /// Cards each opponent mills; negative is an invalid-argument error.
        n: i64,
    },
    /// The player discards `n` cards (CR 701.9); see [`Game::discard`].
    Discard {
        /// The discarding player.
        player: usize,
        /// Cards to discard (the whole hand if it holds fewer); negative is an invalid-argument error.
        n: i64,
        /// Who picks the cards: the player, the generator, or another player.
        mode: DiscardMode,
    },
    /// The player shuffles their library (CR 701.24a).
    Shuffle {
        /// Whose library is shuffled.
        player: usize,
    },
    /// The player searches their own library (CR 701.23); see [`Game::search`].
    Search {
        /// The searching player, who is also the library's owner.
        player: usize,
        /// What to look for, how many, and where found cards go.
        spec: SearchSpec,
    },
    /// The player scries `n` (CR 701.22).
    Scry {
        /// The scrying player.
        player: usize,
        /// Cards to look at; 0 does nothing, negative is an invalid-argument error.
        n: i64,
    },
    /// The player with priority casts this card (automatic payment, policies for choices).
    Cast {
        /// The card to cast, by its current id.
        card: ObjId,
        /// Times to pay each kicker ability (as in [`CastOptions::kicks`]); `None` leaves it to the caster's policy.
        kicks: Option<Vec<u32>>,
    },
    /// The player with priority activates ability `index` of `source` (cycling included).
    Activate {
        /// The object whose ability is activated.
        source: ObjId,
        /// Which of the card's printed activated abilities, from 0, mana abilities not counted.
        index: usize,
    },
    /// The player with priority cycles this card (its first cycling ability).
    Cycle {
        /// The card in hand to cycle.
        card: ObjId,
    },
    /// Everyone passes until the top of the stack resolves.
    ResolveTop,
    /// The total cost of casting the card with these kicks, and whether it can be paid.
    CostOf {
        /// The card to price; its owner's untapped sources and mana pool decide whether it can be paid.
        card: ObjId,
        /// Times to pay each kicker ability, as in [`CastOptions::kicks`].
        kicks: Vec<u32>,
    },
    /// Policies play on until the current turn ends.
    PlayTurn,
}

/// What a batch did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BatchResult {
    /// Repetitions run to the end of the operation list (or to game over).
    pub repetitions: u64,
    /// Operations applied in all.
    pub operations: u64,
    /// Repetitions in which the game ended.
    pub games_over: u64,
    /// Sum over repetitions of every player's library size at the end: a cheap checksum
    /// that the work was done, and the mean library size when divided.
    pub library_cards: u64,
}

impl Game {
    /// Applies one operation.
    pub fn apply(&mut self, op: &Op) -> Result<Progress> {
        Ok(match op {
            Op::Draw { player, n } => Progress::Done(self.draw(*player, *n)?),
            Op::Mill { player, n } => self.mill(*player, *n)?,
            Op::MillOpponents { player, n } => self.mill_opponents(*player, *n)?,
            Op::Discard { player, n, mode } => self.discard(*player, *n, *mode)?,
            Op::Shuffle { player } => {
                self.shuffle(*player)?;
                Progress::Done(Vec::new())
            }
            Op::Search { player, spec } => self.search(*player, *player, spec.clone())?,
            Op::Scry { player, n } => self.scry(*player, *n)?,
            Op::Cast { card, kicks } => self.cast(*card, CastOptions { kicks: kicks.clone(), ..CastOptions::default() })?,
            Op::Activate { source, index } => self.activate(*source, *index)?,
            Op::Cycle { card } => self.cycle(*card)?,
            Op::ResolveTop => self.resolve_top()?,
            Op::PlayTurn => self.play(crate::play::Until::EndOfTurn, 100_000)?,
            Op::CostOf { card, kicks } => {
                let payable = match self.cost_of(*card, kicks, 0) {
                    Ok((_, payable)) => payable,
                    Err(crate::error::Error::CannotPay(_)) => false, // no mana cost: unpayable (CR 118.6)
                    Err(e) => return Err(e),
                };
                Progress::Done(if payable { vec![*card] } else { Vec::new() })
            }
        })
    }

    /// Runs `ops` `repetitions` times on a copy of this game (this game is not changed).
    /// With `restore`, every repetition starts from this position with a generator reseeded
    /// from (seed, repetition), so repetitions are independent samples; without it, the
    /// operations keep applying to one evolving copy. The event log is off. Decisions must be
    /// answered by built-in policies.
    pub fn run_batch(&self, ops: &[Op], repetitions: u64, restore: bool) -> Result<BatchResult> {
        self.ensure_idle()?;
        if repetitions > 1_000_000_000 {
            return Err(invalid(format!("{repetitions} repetitions is out of range (at most 10^9)")));
        }
        if self.strict {
            return Err(illegal("a batch can't run in strict mode: built-in policies answer its decisions"));
        }
        if let Some(p) = self.seats.iter().position(|s| s.policy == Policy::Manual) {
            return Err(illegal(format!("player {p} answers manually; a batch needs built-in policies for every player")));
        }
        let mut work = self.clone();
        work.log.recording = false;
        work.discard_output = true;
        work.log.events = Default::default();
        let template = work.clone();
        let mut result = BatchResult::default();
        for rep in 0..repetitions {
            if restore {
                work.reset_from(&template);
                let seed = derive_seed(self.seed, rep);
                work.rng = Rng::new(seed);
                for (p, seat) in work.seats.iter_mut().enumerate() {
                    seat.rng = Rng::new(derive_seed(seed, 1 + p as u64));
                }
            }
            for op in ops {
                if work.is_over() {
                    break;
                }
                match work.apply(op) {
                    Ok(Progress::Done(_)) => result.operations += 1,
                    Ok(Progress::Paused) => return Err(illegal("a decision was left unanswered in a batch")),
                    Err(e) => return Err(e.at(format_args!("repetition {rep}, {op:?}"))),
                }
            }
            result.repetitions += 1;
            result.library_cards += work.players.iter().map(|p| p.library.len() as u64).sum::<u64>();
            if work.is_over() {
                result.games_over += 1;
                if !restore {
                    break;
                }
            }
        }
        Ok(result)
    }
}

/// The floor the engine is measured against (GUIDE §8): typecycling done as straight-line
/// code on plain vectors — find the first matching card in a 60-card library, move it to the
/// hand, shuffle the library with the same generator — with none of the rules bookkeeping.
/// Returns seconds per repetition, measured here so that ratios come from the same run.
pub fn floor_typecycling(repetitions: u32) -> f64 {
    let mut rng = Rng::new(1);
    let is_island: Vec<bool> = (0..60).map(|i| i % 3 == 0).collect();
    let template: Vec<u32> = (0..60).collect();
    let mut library = template.clone();
    let mut hand: Vec<u32> = Vec::with_capacity(8);
    let start = std::time::Instant::now();
    for _ in 0..repetitions {
        library.clone_from(&template);
        hand.clear();
        if let Some(i) = library.iter().rposition(|&c| is_island[c as usize]) {
            hand.push(library.remove(i));
        }
        rng.shuffle(&mut library);
        std::hint::black_box((&library, &hand));
    }
    start.elapsed().as_secs_f64() / repetitions.max(1) as f64
}
