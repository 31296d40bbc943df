//! Replays: a game made from decks is its decks, seed and setup plus the answers to its
//! decisions in order. Those reproduce it exactly — the shuffles come from the seed, and
//! every choice (a built-in policy's, a Python callback's or the caller's) from the answers —
//! for games played through decisions (`play`, `answer`, `take`, policies). Actions called
//! directly (`mill`, `cast`, ...) are not decisions and are not recorded.

use serde::{Deserialize, Serialize};

use crate::card::CardDb;
use crate::decision::Answer;
use crate::error::{invalid, Error, Result};
use crate::game::{Game, Setup};
use crate::play::Until;
use crate::policy::Policy;

/// Where a game made by [`Game::from_decks`] came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    /// Each player's deck as a list of card names, in seat order.
    pub decks: Vec<Vec<String>>,
    /// The game's seed: the shuffles come from it.
    pub seed: u64,
    /// Starting life total and opening hand size.
    pub setup: Setup,
}

/// A replay as data (its JSON form is the export format, `"format": "mtgsim-replay/1"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replay {
    /// The format tag: [`FORMAT`]; a replay with any other is refused.
    pub format: String,
    /// The decks, seed and setup the game was made from.
    #[serde(flatten)]
    pub origin: Origin,
    /// The answers in order, each with the player who gave it.
    pub answers: Vec<Recorded>,
    /// Where the game stood when the replay was made: after its last answer the game went on
    /// (through choices with one legal answer, which aren't recorded) to this turn and step.
    #[serde(default)]
    pub stood: Option<(u32, crate::turn::Step, bool)>,
    /// Exactly where: the priority actions the game had taken (those that were the only
    /// choice, which aren't answers, included) and whether a decision was waiting. Replays
    /// written before it was kept stand by `stood` alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<StoodAt>,
}

/// Where a recorded game stood, to the action (see [`Replay::at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoodAt {
    /// Priority actions taken through the play loop.
    pub actions: u64,
    /// A decision was waiting for an answer.
    pub pending: bool,
}

/// One answer to a decision, as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recorded {
    /// The player who gave it: the one the decision was asked of.
    pub player: u8,
    /// The answer given.
    pub answer: Answer,
}

/// The format tag of the replays this engine writes and reads.
pub const FORMAT: &str = "mtgsim-replay/1";

impl Game {
    /// This game's replay. An error for a game not made from decks, or one whose log was off
    /// for part of it (its answers weren't all recorded).
    pub fn replay(&self) -> Result<Replay> {
        let origin = self.origin.as_deref().cloned().ok_or_else(|| invalid("only a game made with from_decks can be replayed (its decks and seed are the start of the replay)"))?;
        if self.losers.iter().any(|&(_, why)| why == crate::event::LossReason::Conceded) {
            return Err(invalid("this game can't be replayed: a player conceded, and a concession is an action, not an answer to a decision, so it isn't in the record"));
        }
        if self.unrecorded {
            return Err(invalid("this game can't be replayed: decisions were answered while its event log was off (recording = False), so its answers weren't all recorded"));
        }
        let answers = self.history.iter().map(|(p, a)| Recorded { player: *p, answer: a.clone() }).collect();
        let at = StoodAt { actions: self.actions_taken, pending: self.pending.is_some() };
        Ok(Replay { format: FORMAT.into(), origin, answers, stood: Some((self.turn, self.step, self.is_over())), at: Some(at) })
    }

    /// Plays a replay back: the game from its decks and seed, every recorded answer given in
    /// order. The result stands where the recorded game stood — after the actions that
    /// followed its last answer, at the decision that was waiting if one was — every player
    /// answering manually from there (`play` goes on). An error if the answers don't fit
    /// (other cards or another engine version).
    pub fn from_replay(replay: &Replay, db: &CardDb) -> Result<Game> {
        if replay.format != FORMAT {
            return Err(invalid(format!("unknown replay format {:?} (this engine reads {FORMAT:?})", replay.format)));
        }
        let o = &replay.origin;
        // Every player answers from the record, the choices made while the game was dealt (a
        // card that may begin the game on the battlefield) included, whoever made them.
        let manual = vec![Policy::Manual; o.decks.len()];
        let mut g = Game::from_decks_played_by(&o.decks, o.seed, &o.setup, db, &manual)?;
        for (i, r) in replay.answers.iter().enumerate() {
            if g.pending.is_none() {
                if g.is_over() || g.priority.is_none() {
                    return Err(invalid(format!("the replay has {} answers but its game ended after {i}", replay.answers.len())));
                }
                g.play(Until::GameOver, u64::MAX)?;
            }
            let d = g.pending.as_ref().ok_or_else(|| invalid(format!("the replay's answer {i} has no decision to answer")))?;
            if d.player != r.player {
                return Err(invalid(format!("the replay's answer {i} is player {}'s, but player {} is deciding", r.player, d.player)));
            }
            g.answer(r.answer.clone()).map_err(|e| match e {
                Error::InvalidAnswer { decision, reason } => invalid(format!("the replay's answer {i} doesn't fit the game ({decision}): {reason}")),
                other => other,
            })?;
        }
        let goes_on = |g: &Game| g.pending.is_none() && !g.is_over() && g.priority.is_some();
        if let Some(at) = replay.at {
            // The actions that followed the last answer without being asked (the only choice),
            // then on to the decision that was waiting, if one was.
            while g.actions_taken < at.actions && goes_on(&g) {
                g.play_one()?;
            }
            if at.pending && goes_on(&g) {
                g.play(Until::GameOver, u64::MAX)?;
            }
        } else if let Some((turn, step, over)) = replay.stood {
            while (over || (g.turn, g.step) < (turn, step)) && goes_on(&g) {
                g.play_one()?;
            }
        }
        Ok(g)
    }
}
