//! Damage (CR 120) and the state-based actions about creatures and planeswalkers (CR 704.5f,
//! g, i, q).

use crate::card::CardType;
use crate::counters::Known;
use crate::event::Event;
use crate::game::Game;
use crate::object::ObjId;
use crate::target::TargetRef;

impl Game {
    /// `source` deals `n` damage: a player loses that much life (CR 120.3a); a planeswalker
    /// loses that many loyalty counters (120.3c); a creature has it marked (120.3e).
    pub(crate) fn deal_damage(&mut self, source: ObjId, target: TargetRef, n: u32) {
        if n == 0 {
            return; // CR 120.8: 0 damage is no damage
        }
        match target {
            TargetRef::Player(p) => self.change_life(p, -i64::from(n)),
            TargetRef::Object(id) => {
                let Ok(slot) = self.slot_of(id) else { return };
                let def = self.def_of_slot(slot);
                let (planeswalker, creature) = (def.is(CardType::Planeswalker), def.is(CardType::Creature));
                if planeswalker {
                    let have = self.counters_on(slot).map_or(0, |c| c.get("loyalty"));
                    let _ = self.remove_counters_from(slot, "loyalty", n.min(have));
                }
                if creature {
                    self.objects[slot as usize].damage += n;
                    self.damage_marked = true;
                    self.sba_quiet = false;
                }
            }
        }
        self.log.push_with(|| Event::DamageDealt { source, target, amount: n });
    }

    /// Whether no sturdy creature could die to a state-based action now: no damage marked, no
    /// "until end of turn" effects, and no counters on a sturdy creature but +1/+1 counters
    /// (which only add). Counters elsewhere — a planeswalker's loyalty — don't matter here.
    pub(crate) fn only_fragile_can_die(&self) -> bool {
        self.nothing_shrinks() && self.object_counters.iter().all(|(s, c)| self.objects[*s as usize].flags & crate::object::Object::STURDY == 0 || c.only(Known::PlusOne))
    }

    /// No damage marked and no "until end of turn" effects: what could make a creature with
    /// nothing but +1/+1 counters die.
    pub(crate) fn nothing_shrinks(&self) -> bool {
        !self.damage_marked && self.until_end_of_turn.is_empty()
    }

    /// Performs the permanent-related state-based actions once; true if any happened.
    pub(crate) fn permanent_sbas(&mut self) -> bool {
        let mut dying: Vec<u32> = Vec::new();
        let mut annihilate: Vec<(u32, u32)> = Vec::new();
        let mut bonuses = None;
        // Counters are looked up once per creature: with many objects holding them, searching
        // the list from the start each time would make every action quadratic in creatures.
        let by_slot = (self.object_counters.len() > 16).then(|| {
            let mut v: Vec<(u32, &crate::counters::Counters)> = self.object_counters.iter().map(|(s, c)| (*s, c)).collect();
            v.sort_unstable_by_key(|&(s, _)| s);
            v
        });
        let counters_on = |slot: u32| match &by_slot {
            Some(v) => v.binary_search_by_key(&slot, |&(s, _)| s).ok().map(|i| v[i].1),
            None => self.counters_on(slot),
        };
        // Without marked damage or "until end of turn" effects, and with no counters on a sturdy
        // creature but +1/+1 counters, sturdy creatures survive (below): only the fragile ones
        // need a look, in the same (battlefield) order.
        let creatures = if self.only_fragile_can_die() { &self.indexed.fragile } else { &self.indexed.creatures };
        for &slot in creatures {
            use crate::object::Object;
            let o = &self.objects[slot as usize];
            // Static bonuses and +1/+1 counters only add, so an undamaged creature with a
            // positive printed (or characteristic-defined) toughness, no other counters and no
            // "until end of turn" effects on it survives.
            let only_gains = o.damage == 0 && self.until_end_of_turn.is_empty() && counters_on(slot).is_none_or(|c| c.only(Known::PlusOne));
            if only_gains && o.flags & Object::STURDY != 0 {
                continue; // the common case, without looking at the definition
            }
            let def = self.def_of_slot(slot);
            let plain = || only_gains && self.base_toughness_positive(slot);
            if def.is(CardType::Creature) && !plain() {
                let t = self.toughness_with(slot, bonuses.get_or_insert_with(|| self.pt_bonuses()));
                // CR 704.5f: toughness 0 or less; 704.5g: lethal damage, which doesn't destroy an
                // indestructible creature (CR 702.12b).
                let lethal = (self.objects[slot as usize].damage as i64) >= t && !self.has_gained(self.id_of(slot), "indestructible");
                if t <= 0 || lethal {
                    dying.push(slot);
                    continue;
                }
            }
            if def.is(CardType::Planeswalker) && counters_on(slot).map_or(0, |c| c.get("loyalty")) == 0 {
                dying.push(slot); // CR 704.5i
            }
        }
        // CR 704.5q: on a permanent (not one already dying), +1/+1 and -1/-1 counters annihilate.
        for (slot, c) in &self.object_counters {
            let n = if c.has(Known::MinusOne) { c.get("+1/+1").min(c.get("-1/-1")) } else { 0 };
            if n > 0 && self.objects[*slot as usize].zone.kind == crate::zone::ZoneKind::Battlefield && !dying.contains(slot) {
                annihilate.push((*slot, n));
            }
        }
        drop(bonuses);
        let any = !dying.is_empty() || !annihilate.is_empty();
        for (slot, n) in annihilate {
            let _ = self.remove_counters_from(slot, "+1/+1", n);
            let _ = self.remove_counters_from(slot, "-1/-1", n);
        }
        for slot in dying {
            self.put_into_graveyard_from_battlefield(slot);
        }
        any
    }
}
