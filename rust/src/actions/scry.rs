//! Scrying (CR 701.22).

use serde::{Deserialize, Serialize};

use crate::decision::{Answer, Choice, Decision, Purpose};
use crate::error::Result;
use crate::event::Event;
use crate::game::{check_count, Game, Progress};
use crate::process::{Frame, Step};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ScryProc {
    /// The scrying players in APNAP order.
    players: Vec<u8>,
    amount: u32,
    /// Answers so far, one per player in `players` order: (top, bottom) slots, top first.
    piles: Vec<(Vec<u32>, Vec<u32>)>,
    asked: bool,
}

impl Game {
    /// The player scries `n` (CR 701.22a). Scry 0 does nothing and is no scry event (701.22b).
    pub fn scry(&mut self, player: usize, n: i64) -> Result<Progress> {
        self.scry_each(&[player], n)
    }

    /// Several players scry `n` at once: each looks at their top cards, they decide in APNAP
    /// order, then all the cards move at the same time (CR 701.22c). Each player's "scried"
    /// event comes after the whole process, even when it was partly impossible (701.22d).
    pub fn scry_each(&mut self, players: &[usize], n: i64) -> Result<Progress> {
        self.ensure_idle()?;
        let players = self.check_player_set(players)?;
        let amount = check_count(n, "scry amount")?;
        if amount == 0 {
            return Ok(Progress::Done(Vec::new()));
        }
        match self.scry_frame(players, amount) {
            Some(frame) => self.perform(frame),
            None => Ok(Progress::Done(Vec::new())),
        }
    }

    /// The scry as a frame for effects; `None` for scry 0, which is no scry (CR 701.22b).
    pub(crate) fn scry_frame(&self, players: Vec<u8>, amount: u32) -> Option<Frame> {
        if amount == 0 || players.is_empty() {
            return None;
        }
        let piles = Vec::with_capacity(players.len());
        Some(Frame::Scry(ScryProc { players, amount, piles, asked: false }))
    }
}

impl ScryProc {
    pub(crate) fn step(mut self, g: &mut Game) -> Step {
        if self.asked {
            let Answer::Scry { top, bottom } = g.take_answer() else { unreachable!("validated against a scry decision") };
            self.piles.push((top.iter().map(|c| c.slot()).collect(), bottom.iter().map(|c| c.slot()).collect()));
            self.asked = false;
        }
        while let Some(&p) = self.players.get(self.piles.len()) {
            if g.players[p as usize].lost.is_none() {
                break;
            }
            self.piles.push((Vec::new(), Vec::new())); // left the game (CR 800.4a): nothing to do
        }
        if let Some(&p) = self.players.get(self.piles.len()) {
            // Libraries don't change until everyone has decided, so looking now is looking
            // at the same time.
            let lib = &g.players[p as usize].library;
            let k = (self.amount as usize).min(lib.len());
            let cards: Vec<_> = lib[lib.len() - k..].iter().rev().map(|&s| g.id_of(s)).collect();
            g.learn(p, &cards); // the scrying player looks at them (CR 701.22a)
            self.asked = true;
            let d = Decision { player: p, purpose: Purpose::Scry, choice: Choice::Scry { cards } };
            return Step::Ask(Frame::Scry(self), d);
        }
        for (&p, (top, bottom)) in self.players.iter().zip(&self.piles) {
            if g.players[p as usize].lost.is_some() {
                continue;
            }
            let lib = &mut g.players[p as usize].library;
            let looked = top.len() + bottom.len();
            lib.truncate(lib.len() - looked);
            // Stored bottom first: the bottom pile's last card goes lowest, the top pile's
            // first card highest.
            lib.splice(0..0, bottom.iter().rev().copied());
            lib.extend(top.iter().rev());
        }
        for (&p, (top, bottom)) in self.players.iter().zip(&self.piles) {
            if g.players[p as usize].lost.is_some() {
                continue;
            }
            let (amount, looked, to_bottom) = (self.amount, (top.len() + bottom.len()) as u32, bottom.len() as u32);
            g.log.push_with(|| Event::Scried { player: p, amount, looked, to_bottom });
            g.fire(crate::trigger::TriggerEvent::Scried { player: p }); // "whenever you scry"
        }
        Step::Done
    }
}
