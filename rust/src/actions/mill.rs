//! Milling (CR 701.17).

use serde::{Deserialize, Serialize};

use crate::decision::{Answer, Choice};
use crate::error::{Error, Result};
use crate::event::Event;
use crate::game::{check_count, Game, Progress};
use crate::object::ObjId;
use crate::process::{Frame, Step, Stored};
use crate::zone::{Zone, ZoneKind};

/// Milling outside a spell or ability with replacement effects around: each milling player
/// (APNAP) orders the replacements that change their count (CR 616.1), then all mill at once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct MillProc {
    players: Vec<u8>,
    n: u32,
    /// The orders chosen so far (the last one may be waiting for its answer).
    orders: Vec<(u8, Vec<ObjId>)>,
    asked: bool,
}

impl MillProc {
    /// The order asked is withdrawn: the player it was asked of left the game, and with them
    /// their library (CR 800.4a); the others go on.
    pub(crate) fn withdraw_question(&mut self) {
        self.asked = false;
    }

    /// The order asked is asked afresh: another player left the game, and the replacement
    /// effects of what they owned with them (CR 800.4a), so what there is to order changed.
    pub(crate) fn reask(&mut self) {
        if std::mem::take(&mut self.asked) {
            self.orders.pop();
        }
    }

    /// See [`Frame::check_stored`].
    pub(crate) fn check_stored(&self, c: &Stored) -> std::result::Result<(), String> {
        c.players(self.players.iter().copied())?;
        check_mill_orders(c, &self.orders)?;
        c.waits(self.asked, |choice| matches!(choice, Choice::Cards { .. } | Choice::Order { .. }))?;
        c.ensure(!self.asked || !self.orders.is_empty(), || "waits for a mill order it didn't ask".into())
    }

    pub(crate) fn step(mut self, g: &mut Game) -> Step {
        if self.asked {
            self.asked = false;
            let Answer::Cards { cards } = g.take_answer() else { unreachable!("validated") };
            self.orders.last_mut().expect("asked").1 = cards;
        }
        // Simultaneous: every count is worked out before anyone mills (CR 101.4).
        let mut counts: smallvec::SmallVec<[(u8, u32); 4]> = smallvec::SmallVec::new();
        for &p in &self.players {
            match g.mill_count(p, self.n, &self.orders) {
                Ok(k) => counts.push((p, k)),
                Err(d) => {
                    self.orders.push((p, Vec::new()));
                    self.asked = true;
                    return Step::Ask(Frame::Mill(self), d);
                }
            }
        }
        for (p, k) in counts {
            let milled = g.mill_cards(p, k);
            g.output.extend(milled);
        }
        Step::Done
    }
}

/// The orders of mill replacement effects chosen so far (a mill frame's, or an effect's) name
/// players and objects the game has.
pub(crate) fn check_mill_orders(c: &Stored, orders: &[(u8, Vec<ObjId>)]) -> std::result::Result<(), String> {
    orders.iter().try_for_each(|(p, order)| c.player(*p).and_then(|_| c.objects(order)))
}

impl Game {
    /// The player mills `n` cards: as many as possible when the library is shorter
    /// (CR 701.17b). Returns the milled cards as the new objects where they went, in the order
    /// they were in the library (top first); cards milled together keep that order, the former
    /// top card lowest in the graveyard. Stops (`Paused`) only if replacement effects change the
    /// count and the player must order them (CR 616.1).
    pub fn mill(&mut self, player: usize, n: i64) -> Result<Progress> {
        self.ensure_idle()?;
        let p = self.check_live_player(player)?;
        let n = check_count(n, "number of cards to mill")?;
        self.mill_together(vec![p], n)
    }

    /// Each listed player mills `n` cards at the same time ("each player mills", "each opponent
    /// mills"). The milled cards of all of them, the players in APNAP order.
    pub fn mill_each(&mut self, players: &[usize], n: i64) -> Result<Progress> {
        self.ensure_idle()?;
        let order = self.check_player_set(players)?;
        let n = check_count(n, "number of cards to mill")?;
        self.mill_together(order, n)
    }

    /// Each opponent of `player` mills `n` cards (what Fractured Sanity does).
    pub fn mill_opponents(&mut self, player: usize, n: i64) -> Result<Progress> {
        self.ensure_idle()?;
        let p = self.check_live_player(player)?;
        let opponents: Vec<usize> = self.opponents_of(p).into_iter().map(usize::from).collect();
        self.mill_each(&opponents, n)
    }

    fn mill_together(&mut self, players: Vec<u8>, n: u32) -> Result<Progress> {
        if self.statics_in_play() {
            return self.perform(Frame::Mill(MillProc { players, n, orders: Vec::new(), asked: false }));
        }
        // Nothing can change the count or ask anything: the hot path. What the milling triggers
        // may ask can still fail (a bad scripted answer), and that undoes the milling too.
        self.undoable(|g| {
            let mut milled = Vec::new();
            for p in players {
                if milled.is_empty() {
                    milled = g.mill_cards(p, n);
                } else {
                    milled.extend(g.mill_cards(p, n));
                }
            }
            g.check_state_based_actions();
            if let Progress::Paused = g.settle()? {
                return Ok(Progress::Paused);
            }
            Ok(Progress::Done(milled))
        })
    }

    /// Mills `n` cards as a cost: a cost can't be paid with fewer cards in the library
    /// (CR 701.17b), and then nothing happens. Paying it is milling all the same, so what
    /// changes how many cards are milled applies (CR 118.11, 614.1a), the player ordering
    /// those replacements if their order matters (616.1): then it stops for that decision.
    pub fn pay_mill_cost(&mut self, player: usize, n: i64) -> Result<Progress> {
        self.ensure_idle()?;
        let p = self.check_live_player(player)?;
        let n = check_count(n, "number of cards to mill")?;
        let have = self.players[p as usize].library.len();
        if have < n as usize {
            return Err(Error::CannotPay(format!("player {p} can't mill {n} card(s) with {have} in their library (CR 701.17b)")));
        }
        self.mill_together(vec![p], n)
    }

    /// The move itself: the top `min(n, library)` cards to the graveyard, one event. The hot
    /// path of mill simulations, so it works on the vectors directly.
    pub(crate) fn mill_cards(&mut self, p: u8, n: u32) -> Vec<ObjId> {
        self.mill_top(p, n, true)
    }

    /// [`Game::mill_cards`], listing the milled cards only if `keep`, or if the log or a
    /// trigger waiting for cards put into a graveyard from a library reads them: an effect that
    /// never looks back at them needs no list, and none is made.
    pub(crate) fn mill_top(&mut self, p: u8, n: u32, keep: bool) -> Vec<ObjId> {
        if self.graveyard_replaced() {
            return self.mill_cards_replaced(p, n);
        }
        let st = &self.players[p as usize];
        let k = (n as usize).min(st.library.len());
        let listed = keep || self.log.recording || (k > 0 && self.listens(crate::trigger::kind::LIBRARY_TO_GRAVEYARD));
        let st = &mut self.players[p as usize];
        let start = st.library.len() - k;
        // The milled cards are the last `k` of the graveyard, in library order top first.
        let first = st.graveyard.len();
        // Copied over whole, then each made a new object there (CR 400.7) and listed.
        st.graveyard.extend(st.library[start..].iter().rev());
        st.library.truncate(start);
        let gone = &st.graveyard[first..];
        // A card in a library is already as a new object is (untapped, undamaged, uncast, its
        // owner's, not entered: `check_invariants`): only its generation and zone change.
        for &slot in gone {
            let o = &mut self.objects[slot as usize];
            debug_assert!(o.is_fresh());
            o.generation = o.generation.wrapping_add(1);
            o.zone = Zone { kind: ZoneKind::Graveyard, player: o.owner };
        }
        let milled: Vec<ObjId> = if listed { gone.iter().map(|&slot| ObjId::new(slot, self.objects[slot as usize].generation)).collect() } else { Vec::new() };
        st.stats.milled += k as u32;
        self.sba_quiet &= k == 0 || !self.toughness_counts_graveyards();
        if self.known_in_library[p as usize] > 0 {
            // Public now: what anyone knew of them in the library is dropped, and the
            // library's count of known cards follows.
            for i in first..first + k {
                let slot = self.players[p as usize].graveyard[i];
                let owner = self.objects[slot as usize].owner;
                self.learn_on_move(slot, Zone { kind: ZoneKind::Library, player: owner }, ZoneKind::Graveyard, owner);
            }
        }
        if !self.object_counters.is_empty() {
            // CR 122.2
            let gone = &self.players[p as usize].graveyard[first..];
            self.object_counters.retain(|(s, _)| !gone.contains(s));
        }
        if self.log.recording && k > 0 {
            std::sync::Arc::make_mut(&mut self.log.events).push(Event::Milled { player: p, cards: milled.clone() });
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
        self.players[p as usize].stats.milled += k as u32;
        let mut milled = Vec::with_capacity(k);
        for _ in 0..k {
            let slot = *self.players[p as usize].library.last().expect("k cards are there");
            milled.push(self.move_slot(slot, ZoneKind::Graveyard, crate::zone::Position::Top));
        }
        if self.log.recording && k > 0 {
            std::sync::Arc::make_mut(&mut self.log.events).push(Event::Milled { player: p, cards: milled.clone() });
        }
        if k > 0 {
            self.fire(crate::trigger::TriggerEvent::LibraryToGraveyard { player: p, cards: &milled });
        }
        milled
    }
}
