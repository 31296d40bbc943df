//! Shuffling (CR 701.24).

use crate::error::Result;
use crate::event::Event;
use crate::game::Game;

impl Game {
    /// The player shuffles their library (CR 701.24a); shuffling zero or one card is still a
    /// shuffle (701.24e).
    pub fn shuffle(&mut self, player: usize) -> Result<()> {
        self.ensure_idle()?;
        let p = self.check_live_player(player)?;
        self.shuffle_library(p);
        Ok(())
    }

    /// Randomises the stored (bottom-first) library with the game's generator.
    pub(crate) fn shuffle_library(&mut self, p: u8) {
        self.rng.shuffle(&mut self.players[p as usize].library);
        self.forget_library_order(p);
        self.log.push_with(|| Event::Shuffled { player: p });
    }
}
