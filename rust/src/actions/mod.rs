//! Keyword actions and other things players do to cards (CR 121, 701), one module each.

pub mod discard;
pub mod draw;
pub mod mill;
pub mod movement;
pub mod reveal;
pub mod scry;
pub mod search;
pub mod shuffle;

use crate::game::Game;

impl Game {
    /// `players` in APNAP order (CR 101.4): the active player first, then in turn order.
    pub(crate) fn apnap(&self, players: &mut [u8]) {
        let n = self.players.len() as u8;
        let active = self.active;
        players.sort_by_key(|&p| (p + n - active) % n);
    }

    /// Each player still in the game other than `player`, in APNAP order.
    pub(crate) fn opponents_of(&self, player: u8) -> Vec<u8> {
        let mut v: Vec<u8> = (0..self.players.len() as u8).filter(|&p| p != player && self.players[p as usize].lost.is_none()).collect();
        self.apnap(&mut v);
        v
    }

    /// Validates a list of distinct players still in the game and puts it in APNAP order.
    pub(crate) fn check_player_set(&self, players: &[usize]) -> crate::error::Result<Vec<u8>> {
        let mut v = Vec::with_capacity(players.len());
        for &p in players {
            let p = self.check_live_player(p)?;
            if v.contains(&p) {
                return Err(crate::error::invalid(format!("player {p} is listed twice")));
            }
            v.push(p);
        }
        self.apnap(&mut v);
        Ok(v)
    }
}
