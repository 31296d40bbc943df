//! An object's current characteristics where they differ from its card: power and toughness
//! with counters (CR 208, 613.4c). Continuous effects join here as they arrive (CR 613).

use crate::game::Game;
use crate::rules::PowerToughness;

impl Game {
    /// Power of the permanent in `slot`: printed value (a characteristic-defining `*` counts as
    /// 0 until its ability is modelled) plus +1/+1 and minus -1/-1 counters.
    pub(crate) fn power_of(&self, slot: u32) -> i64 {
        self.pt_of(slot, self.def_of_slot(slot).power.as_deref())
    }

    pub(crate) fn toughness_of(&self, slot: u32) -> i64 {
        self.pt_of(slot, self.def_of_slot(slot).toughness.as_deref())
    }

    /// Layer 7a (a characteristic-defining ability) or the printed value, then counters (7c).
    fn pt_of(&self, slot: u32, printed_value: Option<&str>) -> i64 {
        let base = self.defined_power_toughness(slot).unwrap_or_else(|| printed(printed_value));
        base + self.counter_bonus(slot)
    }

    /// A characteristic-defining ability's value (layer 7a, CR 613.4a), if the card has one.
    fn defined_power_toughness(&self, slot: u32) -> Option<i64> {
        match self.def_of_slot(slot).rules.power_toughness.as_ref()? {
            PowerToughness::HighestManaValueInYourGraveyard => {
                let you = self.objects[slot as usize].controller;
                Some(self.players[you as usize].graveyard.iter().map(|&s| self.def_of_slot(s).mana_value() as i64).max().unwrap_or(0))
            }
        }
    }

    fn counter_bonus(&self, slot: u32) -> i64 {
        self.counters_on(slot).map_or(0, |c| c.get("+1/+1") as i64 - c.get("-1/-1") as i64)
    }

    /// Power and toughness of a creature permanent, for inspection.
    pub fn power_toughness(&self, id: crate::object::ObjId) -> crate::error::Result<(i64, i64)> {
        let slot = self.slot_of(id)?;
        Ok((self.power_of(slot), self.toughness_of(slot)))
    }
}

fn printed(v: Option<&str>) -> i64 {
    v.and_then(|s| s.trim().parse::<i64>().ok()).unwrap_or(0)
}
