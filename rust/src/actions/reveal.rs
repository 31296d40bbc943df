//! Revealing (CR 701.20): showing cards to all players. It moves nothing (701.20b).

use crate::error::{illegal, invalid, Result};
use crate::event::Event;
use crate::game::Game;
use crate::object::ObjId;

impl Game {
    /// The player reveals these cards; they stay where they are. A player can reveal only
    /// what they can show: cards in public zones and in their own hand and library.
    pub fn reveal(&mut self, player: usize, cards: &[ObjId]) -> Result<()> {
        self.ensure_idle()?;
        let p = self.check_live_player(player)?;
        for (i, c) in cards.iter().enumerate() {
            let o = self.object(*c)?;
            if !o.zone.kind.is_public() && o.zone.player != p {
                return Err(illegal(format!("player {p} can't reveal card {}, which is in {}", c.0, o.zone)));
            }
            if cards[..i].contains(c) {
                return Err(invalid(format!("card {} is listed twice", c.0)));
            }
        }
        if !cards.is_empty() {
            self.reveal_to_all(cards);
            self.log.push_with(|| Event::Revealed { player: p, cards: cards.to_vec() });
        }
        Ok(())
    }
}
