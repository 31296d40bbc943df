//! Targets (CR 115): what a spell's "target" words may choose, and whether a choice is still
//! legal when the spell resolves (CR 608.2b).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::CardType;
use crate::decision::{Answer, Choice};
use crate::game::Game;
use crate::object::ObjId;
use crate::rules::{TargetKind, TargetSpec};
use crate::zone::ZoneKind;

/// A chosen target: a player, or an object as the object it was when chosen (a new object
/// after a zone change is not the same target, CR 400.7).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetRef {
    /// A player, by seat index.
    Player(u8),
    /// An object: a permanent, a spell, or a card in another zone, as it was when chosen.
    Object(ObjId),
}

impl TargetRef {
    /// The plain form used in views and in Python: an object id, or `{"player": p}`.
    pub fn view(&self) -> serde_json::Value {
        match self {
            TargetRef::Object(o) => serde_json::json!(o.0),
            TargetRef::Player(p) => serde_json::json!({ "player": p }),
        }
    }
}

impl fmt::Display for TargetRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetRef::Player(p) => write!(f, "player {p}"),
            TargetRef::Object(o) => write!(f, "object {}", o.0),
        }
    }
}

impl Game {
    /// Whether `t` is a legal choice for a target like this for a spell controlled by
    /// `controller`, with `source` the spell's own slot (a spell can't target itself, 115.5).
    pub(crate) fn target_is_legal(&self, spec: &TargetSpec, t: TargetRef, controller: u8, source: Option<u32>) -> bool {
        let kind = spec.kind;
        match t {
            TargetRef::Player(p) => {
                let in_game = (p as usize) < self.players.len() && self.players[p as usize].lost.is_none();
                in_game && matches!(kind, TargetKind::Player | TargetKind::Any) || in_game && kind == TargetKind::Opponent && p != controller
            }
            TargetRef::Object(id) => {
                let Ok(slot) = self.slot_of(id) else { return false };
                if Some(slot) == source {
                    return false;
                }
                let o = &self.objects[slot as usize];
                let def = &self.defs[o.def as usize];
                // CR 702.11b: hexproof — not a target of an opponent's spells or abilities.
                if o.controller != controller && self.has_gained(id, "hexproof") {
                    return false;
                }
                if let Some(f) = &spec.filter {
                    if !f.matches(def) {
                        return false;
                    }
                }
                match kind {
                    // An ability on the stack is not a spell (CR 112.1, 115.1a).
                    TargetKind::Spell => o.zone.kind == ZoneKind::Stack && o.kind != crate::object::ObjectKind::Ability,
                    TargetKind::Creature => o.zone.kind == ZoneKind::Battlefield && def.is(CardType::Creature),
                    TargetKind::Permanent => o.zone.kind == ZoneKind::Battlefield,
                    TargetKind::Any => o.zone.kind == ZoneKind::Battlefield && (def.is(CardType::Creature) || def.is(CardType::Planeswalker) || def.is(CardType::Battle)),
                    TargetKind::Player | TargetKind::Opponent => false,
                }
            }
        }
    }

    /// The choice for one "target" (CR 601.2c): its legal options, between `min` (0 for
    /// "up to") and `count`. `Err(n)` if only `n` legal options exist, fewer than required.
    pub(crate) fn target_choice(&self, spec: &TargetSpec, controller: u8) -> Result<crate::decision::Choice, usize> {
        let options = self.target_options(spec, controller, None);
        let min = if spec.up_to { 0 } else { spec.count };
        if (options.len() as u32) < min {
            return Err(options.len());
        }
        let max = spec.count.min(options.len() as u32);
        Ok(crate::decision::Choice::Targets { options, min, max })
    }

    /// The choice for one "target" of a spell `p` casts or an ability `p` activates (CR
    /// 601.2c, 602.2b), answered at once when `answer_at_once` and `p`'s goldfish policy
    /// answers it itself (see [`Game::answers_itself`]): `Ok(Ok(targets))` with what `take_up`
    /// answers [`Game::target_choice`]'s choice with — forced (every option, or none), or
    /// else the goldfish's ranking ([`crate::policy::goldfish_ranked`]), recorded as there —
    /// found in one visit of the legal options without listing them all or ranking the list,
    /// so the cast or activation goes on at once rather than waiting in a frame for the run
    /// loop to answer it. `Ok(Err(choice))` otherwise, the choice to ask; `Err(n)` as
    /// `target_choice` gives it, with too few legal options.
    pub(crate) fn targets_or_choice(&mut self, spec: &TargetSpec, p: u8, answer_at_once: bool) -> Result<Result<Vec<TargetRef>, Choice>, usize> {
        #[cfg(test)]
        let answer_at_once = answer_at_once && !crate::process::GOLDFISH_ASKS.with(std::cell::Cell::get);
        if !(answer_at_once && self.answers_itself(p, crate::policy::Policy::Goldfish)) {
            return self.target_choice(spec, p).map(Err);
        }
        // The options in order but `p` itself, while fewer than `count` (the most the ranking
        // takes), and where `p` came among all of them; the visit stops once there are more
        // options than `count`, when neither forcing nor the ranking looks further.
        let count = spec.count;
        let mut others = Vec::with_capacity(count as usize);
        let mut own_at = None;
        let mut len = 0u32;
        self.visit_target_options(spec, p, None, |t| {
            if t == TargetRef::Player(p) {
                own_at = Some(others.len());
            } else if (others.len() as u32) < count {
                others.push(t);
            }
            len += 1;
            len > count
        });
        let min = if spec.up_to { 0 } else { count };
        if len < min {
            return Err(len as usize);
        }
        // Forced as `Decision::forced_answer` forces it (not recorded): every option (at most
        // `count` of them), in order.
        if min >= len {
            if let Some(at) = own_at {
                others.insert(at, TargetRef::Player(p));
            }
            return Ok(Ok(others));
        }
        if count == 0 {
            return Ok(Ok(Vec::new()));
        }
        // Ranked: the others in order, then `p`, as many as may be chosen.
        if own_at.is_some() && others.len() < count.min(len) as usize {
            others.push(TargetRef::Player(p));
        }
        let answer = Answer::Targets { targets: others };
        self.record_answer(p, &answer);
        let Answer::Targets { targets } = answer else { unreachable!("made above") };
        Ok(Ok(targets))
    }

    /// Every legal choice for a target of this kind, players first, then objects.
    pub(crate) fn target_options(&self, spec: &TargetSpec, controller: u8, source: Option<u32>) -> Vec<TargetRef> {
        let mut out = Vec::new();
        self.visit_target_options(spec, controller, source, |t| {
            out.push(t);
            false
        });
        out
    }

    /// Whether at least `n` legal choices exist for this target: counted, stopping at `n`,
    /// since players look at this for every spell and ability they might use.
    pub(crate) fn has_target_options(&self, spec: &TargetSpec, controller: u8, source: Option<u32>, n: u32) -> bool {
        let mut found = 0;
        if n > 0 {
            self.visit_target_options(spec, controller, source, |_| {
                found += 1;
                found >= n
            });
        }
        found >= n
    }

    /// Calls `visit` with each legal choice, in the order of [`Game::target_options`], until
    /// it returns true.
    fn visit_target_options(&self, spec: &TargetSpec, controller: u8, source: Option<u32>, mut visit: impl FnMut(TargetRef) -> bool) {
        for p in 0..self.players.len() as u8 {
            let t = TargetRef::Player(p);
            if self.target_is_legal(spec, t, controller, source) && visit(t) {
                return;
            }
        }
        // A player (or opponent) target is never an object: `target_is_legal` says no to each.
        if matches!(spec.kind, TargetKind::Player | TargetKind::Opponent) {
            return;
        }
        let zone = if spec.kind == TargetKind::Spell { &self.stack } else { &self.battlefield };
        for &slot in zone.iter().rev() {
            let t = TargetRef::Object(self.id_of(slot));
            if self.target_is_legal(spec, t, controller, source) && visit(t) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::card::CardDb;
    use crate::game::Game;
    use crate::rules::TargetSpec;
    use crate::target::TargetRef;
    use crate::zone::{Position, ZoneKind};

    #[test]
    fn options_are_every_legal_player_then_object() {
        // CR 115.1, 601.2c: the options offered are exactly the players and objects
        // `target_is_legal` accepts, for every kind of target, with permanents on both sides.
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        for p in 0..2 {
            g.add_cards(p, ZoneKind::Battlefield, &["Island", "Grizzly Bears", "Ornithopter"], Position::Top, db).unwrap();
        }
        for kind in ["spell", "player", "opponent", "creature", "permanent", "any"] {
            let spec: TargetSpec = serde_json::from_value(serde_json::json!({ "kind": kind })).unwrap();
            for controller in 0..2u8 {
                let players = (0..2u8).map(TargetRef::Player);
                let objects = g.battlefield.iter().chain(&g.stack).rev().map(|&s| TargetRef::Object(g.id_of(s)));
                let expected: Vec<TargetRef> = players.chain(objects).filter(|&t| g.target_is_legal(&spec, t, controller, None)).collect();
                assert_eq!(g.target_options(&spec, controller, None), expected, "{kind} for player {controller}");
            }
        }
    }

    #[test]
    fn the_goldfish_s_targets_answered_at_once_are_its_answer_to_the_choice() {
        // CR 601.2c: for every kind of target, count and "up to", with no permanents, some and
        // more, the targets a goldfish chooses at once (`Game::targets_or_choice`) are its
        // answer to the choice it would be asked — forced, or else ranked — and too few
        // options fail alike.
        use crate::decision::{Answer, Decision, Purpose};
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        g.set_recording(false);
        for p in 0..2 {
            g.set_policy(p, crate::policy::Policy::Goldfish).unwrap();
        }
        let boards: [(u8, &[&str]); 3] = [(1, &[]), (1, &["Grizzly Bears", "Island"]), (0, &["Ornithopter", "Grizzly Bears", "Island"])];
        for (owner, cards) in boards {
            g.add_cards(owner as usize, ZoneKind::Battlefield, cards, Position::Top, db).unwrap();
            for kind in ["spell", "player", "opponent", "creature", "permanent", "any"] {
                for count in 0..4 {
                    for up_to in [false, true] {
                        let spec: TargetSpec = serde_json::from_value(serde_json::json!({ "kind": kind, "count": count, "up_to": up_to })).unwrap();
                        for controller in 0..2u8 {
                            let asked = g.target_choice(&spec, controller).map(|choice| {
                                let d = Decision { player: controller, purpose: Purpose::Targets { index: 0 }, choice };
                                d.forced_answer().unwrap_or_else(|| crate::policy::goldfish_answer(&d))
                            });
                            let at_once = match g.targets_or_choice(&spec, controller, true) {
                                Ok(Ok(targets)) => Ok(Answer::Targets { targets }),
                                Ok(Err(choice)) => panic!("{choice:?} asked"),
                                Err(n) => Err(n),
                            };
                            assert_eq!(at_once, asked, "{kind} x{count} up to {up_to} for player {controller} with {cards:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_goldfish_s_targets_and_kicks_chosen_at_once_leave_the_game_as_the_run_loop_answering_them() {
        // CR 601.2b-c, 602.2b: a goldfish's targets for a spell it casts or an ability it
        // activates, chosen where they are asked (`Game::targets_or_choice`), and its kicks
        // (`Game::goldfish_answer_at_once`), leave every game as asking them and the run loop
        // answering does — the same state, the same answers recorded or the game marked
        // unrecorded — against goldfish, first-option and random opponents, recording or not
        // (a recording game asks them).
        use crate::test_support::deck;
        let decks = [
            deck(&[
                ("Island", 22),
                ("Swamp", 4),
                ("Glimpse the Unthinkable", 6),
                ("Maddening Cacophony", 12),
                ("Jace, Wielder of Mysteries", 6),
                ("Altar of Dementia", 4),
                ("Grizzly Bears", 6),
            ]),
            deck(&[
                ("Forest", 12),
                ("Island", 10),
                ("Swamp", 4),
                ("Glimpse the Unthinkable", 6),
                ("Maddening Cacophony", 8),
                ("Grizzly Bears", 12),
                ("Jace, Wielder of Mysteries", 4),
                ("Savannah Lions", 4),
            ]),
        ];
        for seed in 0..54 {
            let games = crate::test_support::played_both_ways(&decks, seed, seed % 4 == 3, |asked| crate::process::GOLDFISH_ASKS.with(|c| c.set(asked)));
            assert_eq!(games[0].save_json(), games[1].save_json(), "seed {seed}");
            assert_eq!(games[0].events(), games[1].events(), "seed {seed}");
            assert!(games[0].history == games[1].history && games[0].unrecorded == games[1].unrecorded, "seed {seed}");
        }
    }
}
