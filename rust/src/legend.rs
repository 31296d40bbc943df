//! The legend rule (CR 704.5j): if a player controls two or more legendary permanents with the
//! same name, they choose one of them, and the rest go to their owners' graveyards. A
//! state-based action with a choice, so it is a frame the run loop starts before a player
//! would receive priority.

use serde::{Deserialize, Serialize};

use crate::card::Supertype;
use crate::decision::{Answer, Choice, Decision, Purpose};
use crate::game::Game;
use crate::process::{Frame, Step};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct LegendRuleProc {
    /// The group being decided: its permanents' slots.
    group: Vec<u32>,
}

impl LegendRuleProc {
    pub(crate) fn new() -> LegendRuleProc {
        LegendRuleProc { group: Vec::new() }
    }

    /// The question is asked afresh: a player left the game, and with them, perhaps, one of
    /// the permanents (CR 800.4a), so the rule may no longer apply.
    pub(crate) fn withdraw_question(&mut self) {
        self.group.clear();
    }

    /// See [`Frame::check_stored`]: the group asked about is on the battlefield (all but the
    /// one kept go to the graveyard from there).
    pub(crate) fn check_stored(&self, c: &crate::process::Stored) -> std::result::Result<(), String> {
        c.slots(&self.group)?;
        let on_battlefield = self.group.iter().all(|&s| c.g.objects[s as usize].zone.kind == crate::zone::ZoneKind::Battlefield);
        c.ensure(on_battlefield, || "names a permanent that isn't on the battlefield".into())?;
        c.waits(!self.group.is_empty(), |choice| matches!(choice, Choice::Cards { .. }))
    }

    pub(crate) fn step(self, g: &mut Game) -> Step {
        if !self.group.is_empty() {
            let Answer::Cards { cards } = g.take_answer() else { unreachable!("validated") };
            let keep = cards[0].slot();
            for &s in &self.group {
                if s != keep {
                    g.put_into_graveyard_from_battlefield(s);
                }
            }
            // Other groups are found again by the run loop's next state-based action check.
            return Step::Done;
        }
        let Some(group) = g.legend_group() else {
            g.legendary_entered = false;
            return Step::Done;
        };
        let player = g.objects[group[0] as usize].controller;
        let options = group.iter().map(|&s| g.id_of(s)).collect();
        let d = Decision { player, purpose: Purpose::LegendRule, choice: Choice::Cards { options, min: 1, max: 1 } };
        Step::Ask(Frame::LegendRule(LegendRuleProc { group }), d)
    }
}

impl Game {
    /// Some player controls two or more legendary permanents with the same name. Only a
    /// legendary permanent entering can make it so (nothing changes control or names here),
    /// so the battlefield is looked at only after one has.
    pub(crate) fn legend_rule_applies(&self) -> bool {
        self.legendary_entered && self.legend_group_start().is_some()
    }

    /// The first such group, in battlefield order.
    fn legend_group(&self) -> Option<Vec<u32>> {
        let i = self.legend_group_start()?;
        let a = self.battlefield[i];
        Some(self.battlefield[i..].iter().copied().filter(|&b| self.same_legend(a, b)).collect())
    }

    /// Where the first such group begins in the battlefield: found without listing anything,
    /// as most looks find no group.
    fn legend_group_start(&self) -> Option<usize> {
        let bf = &self.battlefield;
        (0..bf.len()).find(|&i| self.legendary(bf[i]) && bf[i + 1..].iter().any(|&b| self.same_legend(bf[i], b)))
    }

    fn legendary(&self, slot: u32) -> bool {
        // Being legendary is part of what happens as a permanent enters (`CardDef::entry`):
        // the object's flag for that rules most permanents out without a look at their card.
        self.objects[slot as usize].flags & crate::object::Object::ENTRY != 0 && self.def_of_slot(slot).supertypes.contains(Supertype::Legendary)
    }

    /// Whether `b` is legendary, with the name and controller of the legendary permanent `a`.
    fn same_legend(&self, a: u32, b: u32) -> bool {
        self.legendary(b) && self.objects[b as usize].controller == self.objects[a as usize].controller && self.def_of_slot(b).name == self.def_of_slot(a).name
    }
}

#[cfg(test)]
mod tests {
    use crate::card::Supertype;
    use crate::object::Object;
    use crate::{CardDb, Game, Position, ZoneKind};

    // CR 704.5j: the legend rule looks at a permanent's card only where the object's flags say
    // something happens as it enters, which every legendary card's do; it still finds two
    // legends with the same name under one player among other permanents, and not one
    // each under two players.
    #[test]
    fn the_legend_rule_finds_legends_among_the_permanents_flagged_as_entering_with_something() {
        let db = CardDb::builtin();
        assert!(db.iter().filter(|d| d.supertypes.contains(Supertype::Legendary)).all(|d| Object::flags_of(d) & Object::ENTRY != 0));
        let mut g = Game::new(2, 1).unwrap();
        g.add_cards(0, ZoneKind::Battlefield, &["Island", "Bruvac the Grandiloquent", "Grizzly Bears"], Position::Top, db).unwrap();
        g.add_cards(1, ZoneKind::Battlefield, &["Bruvac the Grandiloquent", "Forest"], Position::Top, db).unwrap();
        assert!(g.legendary_entered && !g.legend_rule_applies());
        let second = g.add_cards(0, ZoneKind::Battlefield, &["Bruvac the Grandiloquent"], Position::Top, db).unwrap()[0];
        assert!(g.legend_rule_applies());
        assert_eq!(g.legend_group().map(|group| group.len()), Some(2));
        g.move_slot(second.slot(), ZoneKind::Graveyard, Position::Top);
        assert!(!g.legend_rule_applies());
    }
}
