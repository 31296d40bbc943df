//! Milling (CR 701.17).

use crate::error::{Error, Result};
use crate::event::Event;
use crate::game::{check_count, Game};
use crate::object::ObjId;
use crate::zone::{Zone, ZoneKind};

impl Game {
    /// The player mills `n` cards: as many as possible when the library is shorter
    /// (CR 701.17b). Returns the milled cards as the new objects in the graveyard, in the order
    /// they were in the library (top first); cards milled together keep that order, the former
    /// top card lowest in the graveyard.
    pub fn mill(&mut self, player: usize, n: i64) -> Result<Vec<ObjId>> {
        self.ensure_idle()?;
        let p = self.check_live_player(player)?;
        let n = check_count(n, "number of cards to mill")?;
        let n = self.replaced_mill_count(p, n)?;
        let milled = self.mill_cards(p, n);
        self.check_state_based_actions();
        self.settle()?;
        Ok(milled)
    }

    /// How many cards `p` really mills for `n` (CR 614.1a), ordering the replacements by the
    /// player's script or policy (CR 616.1).
    fn replaced_mill_count(&mut self, p: u8, n: u32) -> Result<u32> {
        if n == 0 || !self.statics_in_play() {
            return Ok(n);
        }
        let order = self.mill_order_now(p)?;
        Ok(self.milled_count(p, n, &order))
    }

    /// Each listed player mills `n` cards at the same time ("each player mills", "each opponent
    /// mills"). Results are in the order the players were given.
    pub fn mill_each(&mut self, players: &[usize], n: i64) -> Result<Vec<Vec<ObjId>>> {
        self.ensure_idle()?;
        let order = self.check_player_set(players)?;
        let n = check_count(n, "number of cards to mill")?;
        let mut counts = Vec::with_capacity(order.len());
        for &p in &order {
            counts.push((p, self.replaced_mill_count(p, n)?));
        }
        let mut by_player: Vec<(u8, Vec<ObjId>)> = counts.into_iter().map(|(p, k)| (p, self.mill_cards(p, k))).collect();
        self.check_state_based_actions();
        self.settle()?;
        Ok(players
            .iter()
            .map(|&p| {
                let i = by_player.iter().position(|(q, _)| *q as usize == p).expect("validated above");
                std::mem::take(&mut by_player[i].1)
            })
            .collect())
    }

    /// Each opponent of `player` mills `n` cards (what Fractured Sanity does).
    pub fn mill_opponents(&mut self, player: usize, n: i64) -> Result<Vec<Vec<ObjId>>> {
        self.ensure_idle()?;
        let p = self.check_live_player(player)?;
        let opponents: Vec<usize> = self.opponents_of(p).into_iter().map(usize::from).collect();
        self.mill_each(&opponents, n)
    }

    /// Mills `n` cards as a cost: a cost can't be paid with fewer cards in the library
    /// (CR 701.17b), and then nothing happens.
    pub fn pay_mill_cost(&mut self, player: usize, n: i64) -> Result<Vec<ObjId>> {
        self.ensure_idle()?;
        let p = self.check_live_player(player)?;
        let n = check_count(n, "number of cards to mill")?;
        let have = self.players[p as usize].library.len();
        if have < n as usize {
            return Err(Error::CannotPay(format!("player {p} can't mill {n} card(s) with {have} in their library (CR 701.17b)")));
        }
        let milled = self.mill_cards(p, n);
        self.check_state_based_actions();
        self.settle()?;
        Ok(milled)
    }

    /// The move itself: the top `min(n, library)` cards to the graveyard, one event. The hot
    /// path of mill simulations, so it works on the vectors directly.
    pub(crate) fn mill_cards(&mut self, p: u8, n: u32) -> Vec<ObjId> {
        if self.statics_in_play() {
            return self.mill_cards_replaced(p, n);
        }
        let st = &mut self.players[p as usize];
        let k = (n as usize).min(st.library.len());
        let start = st.library.len() - k;
        let mut milled = Vec::with_capacity(k);
        st.graveyard.reserve(k);
        for &slot in st.library[start..].iter().rev() {
            let o = &mut self.objects[slot as usize];
            o.become_new(Zone { kind: ZoneKind::Graveyard, player: o.owner });
            st.graveyard.push(slot);
            milled.push(ObjId::new(slot, o.generation));
        }
        st.library.truncate(start);
        if !self.object_counters.is_empty() {
            self.object_counters.retain(|(s, _)| !milled.iter().any(|m| m.slot() == *s)); // CR 122.2
        }
        if self.log.recording && k > 0 {
            self.log.events.push(Event::Milled { player: p, cards: milled.clone() });
        }
        if k > 0 {
            self.fire(crate::trigger::TriggerEvent::LibraryToGraveyard { player: p, cards: &milled });
        }
        milled
    }

    /// Milling with replacement effects around: each card goes where they send it ("exile it
    /// instead"), still milled (CR 701.17a, 614.6).
    fn mill_cards_replaced(&mut self, p: u8, n: u32) -> Vec<ObjId> {
        let k = (n as usize).min(self.players[p as usize].library.len());
        let mut milled = Vec::with_capacity(k);
        for _ in 0..k {
            let slot = *self.players[p as usize].library.last().expect("k cards are there");
            milled.push(self.move_slot(slot, ZoneKind::Graveyard, crate::zone::Position::Top));
        }
        if self.log.recording && k > 0 {
            self.log.events.push(Event::Milled { player: p, cards: milled.clone() });
        }
        if k > 0 {
            self.fire(crate::trigger::TriggerEvent::LibraryToGraveyard { player: p, cards: &milled });
        }
        milled
    }
}
