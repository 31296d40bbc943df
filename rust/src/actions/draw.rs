//! Drawing cards (CR 121).

use crate::error::Result;
use crate::event::Event;
use crate::game::{check_count, Game};
use crate::object::ObjId;
use crate::zone::{Position, Zone, ZoneKind};

impl Game {
    /// The player draws `n` cards, one at a time (CR 121.2). Drawing from an empty library is
    /// allowed: it marks the player, who loses when state-based actions are next performed
    /// (CR 121.4, 704.5b). Returns the drawn cards' ids in hand.
    pub fn draw(&mut self, player: usize, n: i64) -> Result<Vec<ObjId>> {
        self.ensure_idle()?;
        let p = self.check_live_player(player)?;
        let n = check_count(n, "number of cards to draw")?;
        self.undoable(|g| {
            let mut drawn = Vec::with_capacity(n as usize);
            for _ in 0..n {
                drawn.extend(g.draw_one(p));
            }
            g.check_state_based_actions();
            g.settle()?; // a trigger's decision can still fail (a bad scripted answer)
            Ok(drawn)
        })
    }

    /// The opening hand's `n` draws, each as [`Game::draw_one`] makes it, in one loop.
    pub(crate) fn draw_hand(&mut self, p: u8, n: u32) {
        for _ in 0..n {
            self.draw_one_inline(p);
        }
    }

    /// [`Game::draw_one`], with the draw of the top card made inline (the opening hand's
    /// draws, the draw step's): an empty library still goes through `draw_one`.
    #[inline(always)]
    pub(crate) fn draw_one_inline(&mut self, p: u8) {
        match self.players[p as usize].library.pop() {
            Some(slot) => {
                self.draw_top(p, slot);
            }
            None => {
                self.draw_one(p);
            }
        }
    }

    /// The draw of `slot`, taken from the top of `p`'s library.
    #[inline(always)]
    fn draw_top(&mut self, p: u8, slot: u32) -> ObjId {
        // What `place` would do: it replaces only moves to a graveyard.
        let library = Zone { kind: ZoneKind::Library, player: p };
        let card = self.place_exactly_inline(slot, library, ZoneKind::Hand, Position::Top);
        self.log.push_with(|| Event::Drew { player: p, card });
        card
    }

    /// One draw; `None` when the library was empty.
    pub(crate) fn draw_one(&mut self, p: u8) -> Option<ObjId> {
        match self.players[p as usize].library.pop() {
            Some(slot) => Some(self.draw_top(p, slot)),
            None if self.draw_from_empty_wins(p) => {
                self.win(p); // "you win the game instead" (CR 614.1a, 104.2b)
                None
            }
            None => {
                self.players[p as usize].drew_from_empty = true;
                self.sba_quiet = false;
                self.log.push_with(|| Event::DrewFromEmptyLibrary { player: p });
                None
            }
        }
    }
}
