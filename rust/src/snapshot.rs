//! Saving and inspecting whole games: the full state as JSON (what pickling uses, so a paused
//! game resumes anywhere), a plain view for users, and the invariants every state keeps.

use serde_json::{json, Value};

use crate::decision::Choice;
use crate::error::{Error, Result};
use crate::game::{Game, MAX_PLAYERS};
use crate::object::{ObjId, Object};
use crate::play::PriorityAction;
use crate::target::TargetRef;
use crate::zone::{Zone, ZoneKind};

impl Game {
    /// The complete state, including pending work, answering arrangements and the log.
    pub fn save_json(&self) -> String {
        serde_json::to_string(self).expect("the game state is plain data")
    }

    /// Restores a state written by [`Game::save_json`], checking it first.
    pub fn load_json(text: &str) -> Result<Game> {
        let mut game: Game = serde_json::from_str(text).map_err(|e| Error::Snapshot(e.to_string()))?;
        game.check_stored_invariants().map_err(|e| Error::Snapshot(e.to_string()))?;
        // The per-object cache of printed-type flags and the battlefield index are derived
        // data: rebuild them.
        for o in &mut game.objects {
            o.flags = crate::object::Object::flags_of(&game.defs[o.def as usize]);
            o.one_mana = crate::object::Object::one_mana_of(&game.defs[o.def as usize]);
        }
        game.def_flags = crate::object::Object::flags_of_all(game.defs.iter());
        game.reindex_battlefield();
        for p in 0..game.players.len() {
            game.recount_hand(p as u8);
        }
        Ok(game)
    }

    /// Checks what must always hold: every object is in exactly one zone, the zone it records;
    /// every reference points at something that exists; what is derived from the state (the
    /// objects' flags, the battlefield index, the counts of known library cards) agrees with it.
    pub fn check_invariants(&self) -> Result<()> {
        self.check_stored_invariants()?;
        let cached = |o: &crate::object::Object| {
            let def = &self.defs[o.def as usize];
            o.flags == crate::object::Object::flags_of(def) && o.one_mana == crate::object::Object::one_mana_of(def)
        };
        if let Some((s, _)) = self.objects.iter().enumerate().find(|(_, o)| !cached(o)) {
            return Err(Error::Snapshot(format!("the cached flags of slot {s} aren't its card's")));
        }
        if self.def_flags != crate::object::Object::flags_of_all(self.defs.iter()) {
            return Err(Error::Snapshot("the cached flags of the card definitions aren't theirs".into()));
        }
        if !self.battlefield_index_is_current() {
            return Err(Error::Snapshot("the battlefield index doesn't match the battlefield".into()));
        }
        if let Some(p) = (0..self.players.len()).find(|&p| self.fast_in_hand[p] != self.count_fast_in_hand(p as u8)) {
            return Err(Error::Snapshot(format!("player {p}'s count of instants and flash cards in hand isn't what their hand holds")));
        }
        if let Some(p) = (0..self.players.len()).find(|&p| self.fast_least_in_hand[p] != self.count_fast_least_in_hand(p as u8)) {
            return Err(Error::Snapshot(format!("player {p}'s least cost of an instant or flash card in hand isn't what their hand holds")));
        }
        if let Some(p) = (0..self.players.len()).find(|&p| self.activated_in_hand[p] != self.count_activated_in_hand(p as u8)) {
            return Err(Error::Snapshot(format!("player {p}'s count of cards with activated abilities in hand isn't what their hand holds")));
        }
        if let Some(p) = self.library_knowledge_uncounted() {
            return Err(Error::Snapshot(format!("player {p}'s library has more known cards than counted")));
        }
        Ok(())
    }

    /// The invariants of what a snapshot stores (see [`Game::check_invariants`]).
    fn check_stored_invariants(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Snapshot(m));
        let n = self.players.len();
        if !(2..=MAX_PLAYERS).contains(&n) || self.seats.len() != n || self.active as usize >= n {
            return bad(format!("{n} players, {} seats, active player {}", self.seats.len(), self.active));
        }
        // The losers, in the order they lost: each player who has lost, once, with their reason.
        let lost = self.players.iter().filter(|st| st.lost.is_some()).count();
        if lost != self.losers.len() || self.losers.iter().any(|&(p, r)| self.players.get(p as usize).is_none_or(|st| st.lost != Some(r))) {
            return bad("the list of losers doesn't match the players who have lost".into());
        }
        let mut seen = vec![false; self.objects.len()];
        let mut check_zone = |zone: Zone, slots: &[u32]| -> Result<()> {
            for &s in slots {
                let Some(o) = self.objects.get(s as usize) else { return bad(format!("slot {s} in {zone} has no object")) };
                if std::mem::replace(&mut seen[s as usize], true) {
                    return bad(format!("slot {s} is in more than one place"));
                }
                let recorded = if zone.kind.is_per_player() { o.zone } else { Zone { kind: o.zone.kind, player: zone.player } };
                if recorded != zone {
                    return bad(format!("slot {s} is in {zone} but records {}", o.zone));
                }
            }
            Ok(())
        };
        for (p, st) in self.players.iter().enumerate() {
            let p = p as u8;
            check_zone(Zone { kind: ZoneKind::Library, player: p }, &st.library)?;
            check_zone(Zone { kind: ZoneKind::Hand, player: p }, &st.hand)?;
            check_zone(Zone { kind: ZoneKind::Graveyard, player: p }, &st.graveyard)?;
            check_zone(Zone { kind: ZoneKind::Outside, player: p }, &st.outside)?;
        }
        for (kind, v) in [(ZoneKind::Battlefield, &self.battlefield), (ZoneKind::Stack, &self.stack), (ZoneKind::Exile, &self.exile), (ZoneKind::Command, &self.command)] {
            check_zone(Zone { kind, player: 0 }, v)?;
        }
        if let Some(s) = seen.iter().enumerate().position(|(s, x)| !x && self.objects[s].kind != crate::object::ObjectKind::Ceased) {
            return bad(format!("slot {s} is in no zone"));
        }
        // A card goes into a library as a new object (CR 400.7), and nothing there changes it:
        // milling moves it on as it is (`Game::mill_top`).
        if let Some(&s) = self.players.iter().flat_map(|st| &st.library).find(|&&s| !self.objects[s as usize].is_fresh()) {
            return bad(format!("slot {s} in a library is tapped, damaged, cast, controlled by another or entered"));
        }
        for (s, c) in &self.object_counters {
            if *s as usize >= self.objects.len() || c.is_empty() {
                return bad(format!("counters recorded for slot {s}, which has no object or no counters"));
            }
        }
        for (s, o) in self.objects.iter().enumerate() {
            if o.def as usize >= self.defs.len() || o.owner as usize >= n || o.controller as usize >= n || o.zone.player as usize >= n {
                return bad(format!("object in slot {s} refers to a missing card definition or player"));
            }
        }
        if let Some(p) = self.priority.filter(|&p| p as usize >= n) {
            return bad(format!("player {p} has priority in a {n}-player game"));
        }
        self.check_stored_abilities().map_err(Error::Snapshot)?;
        self.check_paused_action()
    }

    /// What the stack, the triggers waiting and the effects lasting a while refer to: the
    /// players, objects, card definitions and abilities they name exist (else resolving or
    /// triggering them would fail inside the engine).
    fn check_stored_abilities(&self) -> std::result::Result<(), String> {
        use crate::process::Stored;
        for (i, item) in self.stack_items.iter().enumerate() {
            item.check_stored(&Stored::new(self, format!("stack item {i}")))?;
        }
        for (i, t) in self.pending_triggers.iter().enumerate() {
            t.check_stored(&Stored::new(self, format!("waiting trigger {i}")))?;
        }
        for (i, d) in self.delayed.iter().enumerate() {
            d.check_stored(&Stored::new(self, format!("delayed trigger {i}")))?;
        }
        let c = Stored::new(self, "an effect lasting this turn".into());
        c.objects(self.until_end_of_turn.iter().map(|e| &e.object).chain(self.triggered_this_turn.iter().map(|(id, _)| id)).chain(&self.loyalty_activated))?;
        Stored::new(self, "a sticker".into()).slots(self.stickers.iter().map(|(s, _)| s))
    }

    /// A paused action and its decision come together, and the decision names only players
    /// and objects the game has: else resuming it would fail inside the engine.
    fn check_paused_action(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Snapshot(m));
        if self.frames.is_empty() != self.pending.is_none() {
            return bad(if self.pending.is_some() { "a decision is waiting with no action paused for it".into() } else { "an action is paused with no decision waiting".into() });
        }
        let Some(d) = &self.pending else { return Ok(()) };
        // A priority decision is asked by the play loop's frame and by nothing else.
        let asked_by_priority = matches!(self.frames.last(), Some(crate::process::Frame::Priority(_)));
        if asked_by_priority != (d.purpose == crate::decision::Purpose::Priority) {
            return bad(format!("the waiting {} decision isn't one the paused action asks", d.purpose.name()));
        }
        let n = self.players.len();
        if d.player as usize >= n {
            return bad(format!("the waiting decision is player {}'s in a {n}-player game", d.player));
        }
        // An object may have gone since it was offered (its owner left the game, CR 800.4a);
        // it must at least be one the game had.
        let exists = |id: &ObjId| (id.slot() as usize) < self.objects.len();
        let named_exist = match &d.choice {
            Choice::Cards { options, .. } | Choice::Order { options } | Choice::Scry { cards: options } => options.iter().all(exists),
            Choice::Targets { options, .. } => options.iter().all(|t| match t {
                TargetRef::Object(id) => exists(id),
                TargetRef::Player(p) => (*p as usize) < n,
            }),
            Choice::Actions { options } => options.iter().all(|a| match a {
                PriorityAction::Pass => true,
                PriorityAction::PlayLand { card } | PriorityAction::Cast { card } => exists(card),
                PriorityAction::Activate { source, .. } => exists(source),
            }),
            Choice::YesNo | Choice::Number { .. } | Choice::Modes { .. } => true,
        };
        if !named_exist {
            return bad("the waiting decision names an object or player the game doesn't have".into());
        }
        // Its bounds are ones the engine asks: else no answer fits, or there are too many to list.
        let (min, max, most) = match d.choice {
            Choice::Cards { min, max, .. } | Choice::Targets { min, max, .. } => (min, max, u32::MAX),
            Choice::Number { min, max } => (min, max, crate::casting::MAX_ANNOUNCED),
            Choice::Modes { count, min, max } => (min, max, count),
            _ => (0, 0, 0),
        };
        if min > max || max > most {
            return bad(format!("the waiting {} decision asks for {min} to {max} (at most {most})", d.purpose.name()));
        }
        // What each paused frame refers to: the last one asked the decision.
        let top = self.frames.len() - 1;
        for (i, f) in self.frames.iter().enumerate() {
            f.check_stored(self, (i == top).then_some(d)).map_err(Error::Snapshot)?;
        }
        Ok(())
    }

    /// A plain, readable view of the position (for users, UIs and JSON export).
    pub fn view(&self) -> Value {
        let card = |slot: &u32| self.object_view(*slot);
        let pile = |v: &Vec<u32>| -> Vec<Value> { v.iter().rev().map(card).collect() };
        let players: Vec<Value> = self
            .players
            .iter()
            .map(|st| {
                json!({
                    "life": st.life,
                    "counters": st.counters.iter().map(|(k, n)| (k.to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
                    "library": pile(&st.library),
                    "hand": st.hand.iter().map(card).collect::<Vec<_>>(),
                    "graveyard": pile(&st.graveyard),
                    "outside": st.outside.iter().map(card).collect::<Vec<_>>(),
                    "lost": st.lost.map(|r| r.name()),
                })
            })
            .collect();
        json!({
            "num_players": self.players.len(),
            "seed": self.seed,
            "turn": self.turn,
            "active_player": self.active,
            "players": players,
            "battlefield": self.battlefield.iter().map(card).collect::<Vec<_>>(),
            "stack": self.stack.iter().map(card).collect::<Vec<_>>(),
            "exile": self.exile.iter().map(card).collect::<Vec<_>>(),
            "command": self.command.iter().map(card).collect::<Vec<_>>(),
            "pending": self.pending.as_ref().map(|d| d.view()),
            "outcome": self.outcome.as_ref().map(|o| json!({
                "winners": o.winners,
                "losers": o.losers.iter().map(|(p, r)| json!({"player": p, "reason": r.name()})).collect::<Vec<_>>(),
            })),
        })
    }

    fn object_view(&self, slot: u32) -> Value {
        let o: &Object = &self.objects[slot as usize];
        let mut v = json!({
            "id": self.id_of(slot).0,
            "name": &*self.defs[o.def as usize].name,
            "owner": o.owner,
        });
        if o.zone.kind == ZoneKind::Battlefield {
            v["controller"] = json!(o.controller);
            v["tapped"] = json!(o.tapped);
        }
        if let Some((_, counters)) = self.object_counters.iter().find(|(s, _)| *s == slot) {
            v["counters"] = counters.iter().map(|(k, n)| (k.to_string(), json!(n))).collect::<serde_json::Map<_, _>>().into();
        }
        v
    }
}
