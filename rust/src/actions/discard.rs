//! Discarding (CR 701.9).

use serde::{Deserialize, Serialize};

use crate::decision::{Answer, Choice, Decision, Purpose};
use crate::error::Result;
use crate::event::Event;
use crate::game::{check_count, Game, Progress};
use crate::process::{Frame, Step};
use crate::zone::{Position, ZoneKind};

/// Who picks the discarded cards (CR 701.9b).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiscardMode {
    /// The discarding player chooses (the default).
    Choose,
    /// At random, from the game's generator.
    Random,
    /// Another player chooses.
    ChosenBy(u8),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct DiscardProc {
    player: u8,
    count: u32,
    mode: DiscardMode,
    asked: bool,
}

impl Game {
    /// The player discards `n` cards, or their whole hand if it holds fewer. With `Choose` or
    /// `ChosenBy` the choice is a decision; the result is the discarded cards as new objects in
    /// the graveyard.
    pub fn discard(&mut self, player: usize, n: i64, mode: DiscardMode) -> Result<Progress> {
        self.ensure_idle()?;
        let player = self.check_live_player(player)?;
        let count = check_count(n, "number of cards to discard")?;
        let mode = match mode {
            DiscardMode::ChosenBy(c) => DiscardMode::ChosenBy(self.check_live_player(c as usize)?),
            m => m,
        };
        self.perform(self.discard_frame(player, count, mode))
    }

    pub(crate) fn discard_frame(&self, player: u8, count: u32, mode: DiscardMode) -> Frame {
        Frame::Discard(DiscardProc { player, count, mode, asked: false })
    }

    /// Schedules a discard to run next (cleanup, effects).
    pub(crate) fn push_discard(&mut self, player: u8, count: u32, mode: DiscardMode) {
        let f = self.discard_frame(player, count, mode);
        self.frames.push(f);
    }
}

impl DiscardProc {
    pub(crate) fn step(mut self, g: &mut Game) -> Step {
        if g.players[self.player as usize].lost.is_some() {
            return Step::Done; // the player left the game (CR 800.4a)
        }
        let hand = &g.players[self.player as usize].hand;
        let k = (self.count as usize).min(hand.len());
        if k == 0 {
            return Step::Done;
        }
        let chooser = match self.mode {
            DiscardMode::Random => {
                // k draws without replacement from the hand in its listed order.
                let mut pool = hand.clone();
                let mut chosen = Vec::with_capacity(k);
                for _ in 0..k {
                    let j = g.rng.below(pool.len() as u64) as usize;
                    chosen.push(pool.remove(j));
                }
                g.discard_slots(self.player, &chosen, None, true);
                return Step::Done;
            }
            DiscardMode::Choose => self.player,
            DiscardMode::ChosenBy(c) => c,
        };
        if !self.asked {
            self.asked = true;
            let options = hand.iter().map(|&s| g.id_of(s)).collect();
            let d = Decision {
                player: chooser,
                purpose: Purpose::Discard { player: self.player },
                choice: Choice::Cards { options, min: k as u32, max: k as u32 },
            };
            return Step::Ask(Frame::Discard(self), d);
        }
        let Answer::Cards { cards } = g.take_answer() else { unreachable!("validated against a Cards decision") };
        let slots: Vec<u32> = cards.iter().map(|c| c.slot()).collect();
        g.discard_slots(self.player, &slots, Some(chooser), false);
        Step::Done
    }
}

impl Game {
    /// Moves the chosen cards from hand to graveyard together, one event each.
    /// An effect makes the owner discard these cards from hand (not chosen again).
    pub(crate) fn discard_cards(&mut self, player: u8, slots: &[u32]) {
        self.discard_slots(player, slots, None, false);
        self.output.clear();
    }

    fn discard_slots(&mut self, player: u8, slots: &[u32], by: Option<u8>, random: bool) {
        for &slot in slots {
            let card = self.move_slot(slot, ZoneKind::Graveyard, Position::Top);
            self.output.push(card);
            self.log.push_with(|| Event::Discarded { player, card, by, random });
            self.fire_discard(player, card.slot());
        }
    }
}
