//! What each player can see (CR 400.2: libraries and hands are hidden zones). The game tracks,
//! per object, which players know what it is while it is hidden: the owner knows the cards in
//! their hand; a revealed card is known to everyone (CR 701.20); a player who scries knows the
//! cards they looked at (CR 701.22a); a card put into a hidden zone from a public one is known
//! to everyone; shuffling a library makes its order unknown to all (CR 701.24a). A player's
//! observation shows public zones whole and hidden ones only as far as that player knows
//! them — and never an unknown card's identity, slot or position.

use serde_json::{json, Value};

use crate::game::Game;
use crate::object::ObjId;
use crate::zone::{Zone, ZoneKind};

const EVERYONE: u16 = u16::MAX;

/// The global observation vector's length: seven numbers, then [`GLOBAL_PER_PLAYER`] per player.
pub const GLOBAL_BASE: usize = 7;
/// Numbers per player in the global observation vector.
pub const GLOBAL_PER_PLAYER: usize = 6;
/// Numbers per object slot in the observation rows.
pub const OBJECT_FEATURES: usize = 8;

/// What a loaded game assumes of the cards known in each library: any number (see
/// `Game::known_in_library`).
pub(crate) fn unknown_counts() -> [u32; crate::game::MAX_PLAYERS] {
    [u32::MAX; crate::game::MAX_PLAYERS]
}

impl Game {
    fn known_bits(&self, slot: u32) -> u16 {
        self.known.get(slot as usize).copied().unwrap_or(0)
    }

    /// Sets who knows the object in `slot`, which stays in its zone.
    fn set_known(&mut self, slot: u32, bits: u16) {
        let z = self.objects[slot as usize].zone;
        let library = (z.kind == ZoneKind::Library).then_some(z.player);
        self.put_known(slot, bits, library, library);
    }

    /// Sets who knows the object in `slot`, which leaves the library of player `from` (if it
    /// was in one) for that of `to` (if it goes to one): the count of known cards in each
    /// library follows.
    // On every move (each draw puts a card into a hidden zone): a call costs more than its body.
    #[inline(always)]
    fn put_known(&mut self, slot: u32, bits: u16, from: Option<u8>, to: Option<u8>) {
        if let Some(p) = from.filter(|_| self.known_bits(slot) != 0) {
            let n = &mut self.known_in_library[p as usize];
            *n = n.saturating_sub(1);
        }
        if let Some(p) = to.filter(|_| bits != 0) {
            let n = &mut self.known_in_library[p as usize];
            *n = n.saturating_add(1);
        }
        match self.known.get_mut(slot as usize) {
            Some(k) => *k = bits,
            None if bits != 0 => self.grow_known(slot, bits),
            None => {}
        }
    }

    /// [`Game::put_known`] for a slot beyond the end of `known`. Out of line: `known` grows
    /// to the whole object table at once, so this happens about once a game.
    #[cold]
    #[inline(never)]
    fn grow_known(&mut self, slot: u32, bits: u16) {
        let i = slot as usize;
        self.known.resize(self.objects.len().max(i + 1), 0);
        self.known[i] = bits;
    }

    /// A card of `owner`'s leaves `from` for `to`: who knows the new object.
    // Part of every move: inlined, so that a draw's copy of the move folds it to its case.
    #[inline(always)]
    pub(crate) fn learn_on_move(&mut self, slot: u32, from: Zone, to: ZoneKind, owner: u8) {
        let from_library = (from.kind == ZoneKind::Library).then_some(from.player);
        let from = from.kind;
        if to.is_public() {
            self.put_known(slot, 0, from_library, None); // public: everyone sees it anyway
            return;
        }
        // From a public zone everyone saw where it went; from a hidden one, who knew it still
        // does (and a card leaving a hand was known to its owner).
        let owner_bit = 1 << owner;
        let mut bits = if from.is_public() { EVERYONE } else { self.known_bits(slot) | if from == ZoneKind::Hand { owner_bit } else { 0 } };
        if to == ZoneKind::Hand {
            bits |= owner_bit;
        }
        // A card goes to its owner's zones.
        self.put_known(slot, bits, from_library, (to == ZoneKind::Library).then_some(owner));
    }

    /// A player whose library holds more known cards than `known_in_library` counts, if any
    /// (see `check_invariants`).
    pub(crate) fn library_knowledge_uncounted(&self) -> Option<usize> {
        (0..self.players.len()).find(|&p| self.players[p].library.iter().filter(|&&s| self.known_bits(s) != 0).count() as u64 > u64::from(self.known_in_library[p]))
    }

    /// Nobody knows the objects in these slots any more.
    pub(crate) fn forget_slots(&mut self, slots: &[u32]) {
        for &s in slots {
            self.set_known(s, 0);
        }
    }

    /// After a shuffle nobody knows which card is where in that library.
    pub(crate) fn forget_library_order(&mut self, p: u8) {
        if self.known_in_library[p as usize] == 0 {
            return;
        }
        let known = &mut self.known;
        for &s in &self.players[p as usize].library {
            if let Some(k) = known.get_mut(s as usize) {
                *k = 0;
            }
        }
        self.known_in_library[p as usize] = 0;
    }

    /// A card leaves `player`'s hand unrevealed for the top of their library (a discard that
    /// Library of Leng replaces, CR 701.9c): only the players in `saw` know which card it was,
    /// and the others can no longer tell which of the cards they knew in that hand are still
    /// there, so they lose track of those too.
    pub(crate) fn hidden_from_hand(&mut self, player: u8, slot: u32, saw: u16) {
        self.set_known(slot, saw);
        for i in 0..self.players[player as usize].hand.len() {
            let s = self.players[player as usize].hand[i];
            let bits = self.known_bits(s) & saw;
            self.set_known(s, bits);
        }
    }

    /// `player` looks at these cards, which they may then rearrange: from now on only they
    /// know which is which (a scry, CR 701.22a; a search that isn't revealed, CR 701.23).
    pub(crate) fn learn(&mut self, player: u8, cards: &[ObjId]) {
        self.learn_slots(player, cards.iter().map(|c| c.slot()));
    }

    /// [`Game::learn`] for the objects in these slots.
    pub(crate) fn learn_slots(&mut self, player: u8, slots: impl IntoIterator<Item = u32>) {
        for s in slots {
            self.set_known(s, 1 << player);
        }
    }

    /// `player` is shown these cards (nobody else learns anything).
    pub(crate) fn show_to(&mut self, player: u8, cards: &[ObjId]) {
        self.show_slots_to(player, cards.iter().map(|c| c.slot()));
    }

    /// `player` is shown the cards in these slots (nobody else learns anything).
    pub(crate) fn show_slots_to(&mut self, player: u8, slots: impl IntoIterator<Item = u32>) {
        for s in slots {
            let bits = self.known_bits(s) | 1 << player;
            self.set_known(s, bits);
        }
    }

    /// These cards are revealed to everyone.
    pub(crate) fn reveal_to_all(&mut self, cards: &[ObjId]) {
        for c in cards {
            self.set_known(c.slot(), EVERYONE);
        }
    }

    /// Whether `player` can see what the object in `slot` is.
    pub fn sees(&self, player: u8, slot: u32) -> bool {
        let o = &self.objects[slot as usize];
        o.zone.kind.is_public() || (o.zone.kind == ZoneKind::Hand && o.zone.player == player) || self.known_bits(slot) & (1 << player) != 0
    }

    /// `player`'s view of the game: public zones whole, hands and libraries as sizes plus the
    /// cards `player` knows in them (libraries with their positions from the top), the
    /// pending decision if it is theirs (else only who is deciding).
    pub fn observation(&self, player: u8) -> Value {
        let card = |slot: u32| -> Value {
            let o = &self.objects[slot as usize];
            let mut v = json!({"id": self.id_of(slot).0, "name": &*self.defs[o.def as usize].name, "owner": o.owner});
            if o.zone.kind == ZoneKind::Battlefield {
                v["controller"] = json!(o.controller);
                v["tapped"] = json!(o.tapped);
            }
            if let Some((_, counters)) = self.object_counters.iter().find(|(s, _)| *s == slot) {
                v["counters"] = counters.iter().map(|(k, n)| (k.to_string(), json!(n))).collect::<serde_json::Map<_, _>>().into();
            }
            v
        };
        let players: Vec<Value> = self
            .players
            .iter()
            .enumerate()
            .map(|(p, st)| {
                let hand: Vec<Value> = st.hand.iter().filter(|&&s| self.sees(player, s)).map(|&s| card(s)).collect();
                let library: Vec<Value> =
                    st.library.iter().rev().enumerate().filter(|&(_, &s)| self.sees(player, s)).map(|(i, &s)| json!({"position": i, "card": card(s)})).collect();
                json!({
                    "player": p,
                    "life": st.life,
                    "counters": st.counters.iter().map(|(k, n)| (k.to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
                    "library_size": st.library.len(),
                    "hand_size": st.hand.len(),
                    "hand": hand,
                    "library_known": library,
                    "graveyard": st.graveyard.iter().rev().map(|&s| card(s)).collect::<Vec<_>>(),
                    "lost": st.lost.map(|r| r.name()),
                })
            })
            .collect();
        let zone = |v: &Vec<u32>| v.iter().map(|&s| card(s)).collect::<Vec<_>>();
        let decision = match &self.pending {
            Some(d) if d.player == player => {
                let mut v = d.view();
                v["legal_actions"] = self.legal_actions().map(|l| l.iter().map(|a| json!(self.describe(a))).collect::<Vec<_>>()).unwrap_or_default().into();
                v
            }
            Some(d) => json!({"player": d.player}),
            None => Value::Null,
        };
        json!({
            "player": player,
            "turn": self.turn,
            "step": self.step.name(),
            "active_player": self.active,
            "priority_player": self.priority,
            "players": players,
            "battlefield": zone(&self.battlefield),
            "stack": self.stack.iter().rev().map(|&s| card(s)).collect::<Vec<_>>(),
            "exile": zone(&self.exile),
            "command": zone(&self.command),
            "decision": decision,
            "over": self.is_over(),
        })
    }

    /// `player`'s view as fixed-size numbers (layout in `python/mtgsim/observe.py`): a global
    /// vector, and one row per object slot up to `slots`, all zeros for objects `player`
    /// can't see (so neither an unknown card's identity nor its zone or place leaks).
    pub fn observation_arrays(&self, player: u8, slots: u32) -> (Vec<f32>, Vec<i32>) {
        let deciding = self.pending.as_ref().map_or(-1.0, |d| d.player as f32);
        let step = crate::turn::Step::ALL.iter().position(|&s| s == self.step).unwrap_or(0) as f32;
        let mut global = vec![self.turn as f32, step, self.active as f32, self.priority.map_or(-1.0, |p| p as f32), player as f32, deciding, self.is_over() as u8 as f32];
        for st in &self.players {
            let poison = st.counters.get("poison") as f32;
            global.extend([st.life as f32, st.library.len() as f32, st.hand.len() as f32, st.graveyard.len() as f32, poison, st.lost.is_some() as u8 as f32]);
        }
        debug_assert_eq!(global.len(), GLOBAL_BASE + GLOBAL_PER_PLAYER * self.players.len());
        let mut rows = vec![0i32; slots as usize * OBJECT_FEATURES];
        let zone_code = |k: ZoneKind| match k {
            ZoneKind::Library => 1,
            ZoneKind::Hand => 2,
            ZoneKind::Graveyard => 3,
            ZoneKind::Battlefield => 4,
            ZoneKind::Stack => 5,
            ZoneKind::Exile => 6,
            ZoneKind::Command => 7,
            ZoneKind::Outside => 8,
        };
        let mut place = |slot: u32, position: usize| {
            if slot >= slots || !self.sees(player, slot) {
                return;
            }
            let o = &self.objects[slot as usize];
            let counters = self.counters_on(slot).map_or(0, |c| (i64::from(c.get("+1/+1")) - i64::from(c.get("-1/-1"))).clamp(i32::MIN.into(), i32::MAX.into()) as i32);
            let row = &mut rows[slot as usize * OBJECT_FEATURES..(slot as usize + 1) * OBJECT_FEATURES];
            let card = card_code(&self.defs[o.def as usize].name);
            row.copy_from_slice(&[1, zone_code(o.zone.kind), o.owner as i32, o.controller as i32, card, o.tapped as i32, position as i32, counters]);
        };
        for st in &self.players {
            for (i, &s) in st.library.iter().rev().enumerate() {
                place(s, i);
            }
            for (i, &s) in st.hand.iter().enumerate() {
                place(s, i);
            }
            for (i, &s) in st.graveyard.iter().rev().enumerate() {
                place(s, i);
            }
        }
        for zone in [&self.battlefield, &self.exile, &self.command] {
            for (i, &s) in zone.iter().enumerate() {
                place(s, i);
            }
        }
        for (i, &s) in self.stack.iter().rev().enumerate() {
            place(s, i);
        }
        (global, rows)
    }
}

/// A card's code in observations: from its name alone (FNV-1a, 31 bits, never 0), so it is the
/// same in every game and says nothing about what else the decks hold.
pub fn card_code(name: &str) -> i32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h = (h ^ b as u32).wrapping_mul(0x0100_0193);
    }
    ((h & 0x7fff_ffff) | 1) as i32
}

#[cfg(test)]
mod tests {
    use crate::card::CardDb;
    use crate::game::Game;
    use crate::zone::{Position, ZoneKind};

    // Cards learned in a library, moved in and out of it, are counted; a shuffle forgets them
    // all, and with none counted it walks nothing.
    #[test]
    fn known_library_cards_are_counted_until_a_shuffle() {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        let lib = g.add_cards(0, ZoneKind::Library, &["Island"; 5], Position::Top, db).unwrap();
        let hand = g.add_cards(0, ZoneKind::Hand, &["Swamp"], Position::Top, db).unwrap();
        assert_eq!(g.known_in_library[0], 0);
        g.learn(0, &lib[..2]); // a scry of two
        assert_eq!(g.known_in_library[0], 2);
        g.reveal_to_all(&lib[..1]); // known already: still two
        assert_eq!(g.known_in_library[0], 2);
        g.move_slot(lib[0].slot(), ZoneKind::Hand, Position::Top); // a known card leaves
        assert_eq!(g.known_in_library[0], 1);
        g.move_slot(hand[0].slot(), ZoneKind::Library, Position::Top); // its owner knows it
        assert_eq!(g.known_in_library[0], 2);
        assert_eq!(g.library_knowledge_uncounted(), None);
        g.shuffle_library(0);
        assert_eq!(g.known_in_library[0], 0);
        assert!(g.players[0].library.iter().all(|&s| g.known_bits(s) == 0));
        assert_eq!(g.library_knowledge_uncounted(), None);
    }

    // A draw takes a card known in the library out of the count; whoever knew it still does,
    // and its owner now knows it too (CR 400.2).
    #[test]
    fn a_known_card_drawn_leaves_the_count() {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        g.add_cards(0, ZoneKind::Library, &["Island"; 3], Position::Top, db).unwrap();
        let top = *g.players[0].library.last().unwrap();
        g.learn(1, &[g.id_of(top)]); // the opponent looked at it
        assert_eq!(g.known_in_library[0], 1);
        let drawn = g.draw_one(0).unwrap();
        assert_eq!(drawn.slot(), top);
        assert_eq!(g.known_in_library[0], 0);
        assert_eq!(g.known_bits(top), 0b11);
        assert_eq!(g.library_knowledge_uncounted(), None);
    }

    // A known card milled leaves the count, and nobody's knowledge of it is kept.
    #[test]
    fn a_known_card_milled_is_no_longer_counted() {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        g.add_cards(0, ZoneKind::Library, &["Island"; 5], Position::Top, db).unwrap();
        let top = *g.players[0].library.last().unwrap();
        g.learn(0, &[g.id_of(top)]); // a scry of one
        assert_eq!(g.known_in_library[0], 1);
        let milled = g.mill_cards(0, 2);
        assert_eq!(milled.len(), 2);
        assert_eq!(g.known_in_library[0], 0);
        assert_eq!(g.known_bits(top), 0);
        assert_eq!(g.library_knowledge_uncounted(), None);
    }
}
