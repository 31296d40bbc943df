//! An object's current characteristics where they differ from its card: power and toughness
//! through the layers (CR 613.4): characteristic-defining abilities (7a), then modifications
//! from static abilities, "until end of turn" effects and counters (7c).

use smallvec::SmallVec;

use crate::card::CardType;
use crate::filter::Filter;
use crate::game::Game;
use crate::object::Object;
use crate::rules::{PowerToughness, StaticAbility};

/// One permanent's static bonus to other creatures' power and toughness ("other Elf creatures
/// you control get +1/+1 for each +1/+1 counter on this"), with its size worked out once for a
/// scan over many creatures.
pub(crate) struct PtBonus<'a> {
    source: u32,
    controller: u8,
    filter: &'a Filter,
    /// A count of counters: never negative, which state-based actions rely on (a bonus can't
    /// be what makes a creature's toughness 0).
    amount: i64,
}

impl Game {
    /// Power of the permanent in `slot` (see [`Game::toughness_of`]).
    pub(crate) fn power_of(&self, slot: u32) -> i64 {
        let base = self.defined_power_toughness(slot).unwrap_or_else(|| self.def_of_slot(slot).printed_pt.0);
        let (p, _) = self.modifications(slot, &self.pt_bonuses());
        base + p
    }

    /// Toughness of the permanent in `slot`: layer 7a (a characteristic-defining ability) or
    /// the printed value, then the 7c modifications.
    pub(crate) fn toughness_of(&self, slot: u32) -> i64 {
        self.toughness_with(slot, &self.pt_bonuses())
    }

    /// [`Game::toughness_of`] with the bonuses from other permanents found beforehand
    /// ([`Game::pt_bonuses`]), for scans over many creatures.
    pub(crate) fn toughness_with(&self, slot: u32, bonuses: &[PtBonus<'_>]) -> i64 {
        let (_, t) = self.modifications(slot, bonuses);
        self.base_toughness(slot) + t
    }

    /// Toughness before the layer 7c modifications: layer 7a or the printed value.
    pub(crate) fn base_toughness(&self, slot: u32) -> i64 {
        self.defined_power_toughness(slot).unwrap_or_else(|| self.def_of_slot(slot).printed_pt.1)
    }

    /// Whether the base toughness is above 0: for a characteristic-defining value, found
    /// without working out the whole value (the first card with a positive mana value will do).
    pub(crate) fn base_toughness_positive(&self, slot: u32) -> bool {
        match self.def_of_slot(slot).rules.power_toughness.as_ref() {
            None => self.def_of_slot(slot).printed_pt.1 > 0,
            Some(PowerToughness::HighestManaValueInYourGraveyard) => {
                let you = self.objects[slot as usize].controller;
                self.players[you as usize].graveyard.iter().any(|&s| self.def_of_slot(s).mana_value() > 0)
            }
        }
    }

    /// The bonuses permanents' static abilities now give other creatures (those of size 0,
    /// usually all of them, left out).
    pub(crate) fn pt_bonuses(&self) -> SmallVec<[PtBonus<'_>; 8]> {
        let mut out = SmallVec::new();
        for &s in &self.indexed.statics {
            if self.objects[s as usize].flags & Object::HAS_PT_STATIC == 0 {
                continue;
            }
            for st in &self.def_of_slot(s).rules.statics {
                if let StaticAbility::OthersGetPerCounter { filter, counter } = st {
                    let amount = self.counters_on(s).map_or(0, |c| c.get(counter)) as i64;
                    if amount != 0 {
                        out.push(PtBonus { source: s, controller: self.objects[s as usize].controller, filter, amount });
                    }
                }
            }
        }
        out
    }

    /// Layer 7c (CR 613.4c): +1/+1 and -1/-1 counters, "until end of turn" effects, and
    /// static bonuses from other permanents. All add, so their order doesn't matter.
    fn modifications(&self, slot: u32, bonuses: &[PtBonus<'_>]) -> (i64, i64) {
        let c = self.counter_bonus(slot);
        let (mut p, mut t) = (c, c);
        if !self.until_end_of_turn.is_empty() {
            let id = self.id_of(slot);
            for e in self.until_end_of_turn.iter().filter(|e| e.object == id) {
                p += e.power as i64;
                t += e.toughness as i64;
            }
        }
        let o = &self.objects[slot as usize];
        if bonuses.is_empty() || o.zone.kind != crate::zone::ZoneKind::Battlefield || !self.def_of_slot(slot).is(CardType::Creature) {
            return (p, t);
        }
        for b in bonuses {
            if b.source != slot && b.controller == o.controller && b.filter.matches(self.def_of_slot(slot)) {
                p += b.amount;
                t += b.amount;
            }
        }
        (p, t)
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
