//! Revealing (CR 701.20): showing cards to all players. It moves nothing (701.20b).

use crate::error::{invalid, Result};
use crate::event::Event;
use crate::game::Game;
use crate::object::ObjId;

impl Game {
    /// The player reveals these cards, which must exist; they stay where they are.
    pub fn reveal(&mut self, player: usize, cards: &[ObjId]) -> Result<()> {
        self.ensure_idle()?;
        let p = self.check_live_player(player)?;
        for (i, c) in cards.iter().enumerate() {
            self.slot_of(*c)?;
            if cards[..i].contains(c) {
                return Err(invalid(format!("card {} is listed twice", c.0)));
            }
        }
        self.log.push_with(|| Event::Revealed { player: p, cards: cards.to_vec() });
        Ok(())
    }
}
