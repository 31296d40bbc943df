//! Activated abilities (CR 602), cycling (CR 702.29) and triggered abilities (CR 603): abilities
//! become objects on the stack, their costs are paid all at once, and what their activation
//! triggers waits until a player would receive priority, then goes on the stack above them.

use serde::{Deserialize, Serialize};

use crate::error::{illegal, invalid, Error, Result};
use crate::event::Event;
use crate::game::{Game, Progress};
use crate::mana::ManaSymbol;
use crate::object::{ObjId, Object, ObjectKind};
use crate::payment::{solve, CostToPay};
use crate::rules::{DelayedWhen, Effect, StaticAbility, Trigger};
use crate::stack::StackItem;
use crate::zone::{Position, Zone, ZoneKind};

/// Which ability of its source an ability on the stack is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbilityRef {
    Activated(u16),
    Triggered(u16),
    /// A delayed triggered ability; its instructions travel with it.
    Delayed,
}

/// A delayed triggered ability waiting for its moment (CR 603.7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delayed {
    pub controller: u8,
    pub when: DelayedWhen,
    pub effects: Vec<Effect>,
    /// The definition of the card whose ability created it (its "source").
    pub def: u32,
    /// How the creating spell was cast ("if this spell wasn't kicked").
    pub cast: crate::object::CastInfo,
    pub remembered: Vec<ObjId>,
    /// When it was created.
    pub turn: u32,
    pub step: crate::turn::Step,
}

/// A triggered ability waiting to be put on the stack (CR 603.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingTrigger {
    pub controller: u8,
    /// The source's slot and the object it was when the ability triggered.
    pub source: u32,
    pub source_id: ObjId,
    pub index: u16,
    /// For a delayed trigger: what it does and what it knows.
    #[serde(default)]
    pub delayed: Option<Box<DelayedFired>>,
}

/// A delayed trigger that has triggered: its instructions and context.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DelayedFired {
    pub effects: Vec<Effect>,
    pub def: u32,
    pub cast: crate::object::CastInfo,
    pub remembered: Vec<ObjId>,
    pub triggering: Option<ObjId>,
}

impl Game {
    /// The player with priority activates ability `index` of `source` (CR 602.2): the costs
    /// are checked, the ability goes on the stack, the costs are paid, and what that triggers
    /// waits for the next time a player would receive priority. Returns the ability on the
    /// stack. Illegal activations change nothing (CR 733).
    pub fn activate(&mut self, source: ObjId, index: usize) -> Result<Progress> {
        self.ensure_idle()?;
        let p = self.priority.ok_or_else(|| illegal("nobody has priority, so no ability can be activated now (CR 117)"))?;
        let slot = self.slot_of(source)?;
        let o = self.objects[slot as usize];
        let def = self.defs[o.def as usize].clone();
        let ability = def.rules.activated.get(index).ok_or_else(|| {
            invalid(format!("{} has {} activated abilit{} (not counting mana abilities), no ability {index}", def.name, def.rules.activated.len(), if def.rules.activated.len() == 1 { "y" } else { "ies" }))
        })?;
        let (ok_zone, whose) = match ability.zone {
            ZoneKind::Battlefield => (o.zone.kind == ZoneKind::Battlefield, o.controller),
            zone => (o.zone.kind == zone, o.owner),
        };
        if !ok_zone || whose != p {
            return Err(illegal(format!("player {p} can activate this ability of {} only from their own {}; it is in {}", def.name, ability.zone.name(), o.zone)));
        }
        // CR 602.5: a prohibited ability can't even be begun.
        if ability.cycling && self.battlefield.iter().any(|&s| self.def_of_slot(s).rules.statics.contains(&StaticAbility::ProhibitCycling)) {
            return Err(illegal(format!("players can't cycle cards now, so {} can't be cycled (CR 602.5)", def.name)));
        }
        let cost = &ability.cost;
        if cost.tap && o.tapped {
            return Err(Error::CannotPay(format!("{} is already tapped", def.name)));
        }
        if cost.pay_life as i64 > self.players[p as usize].life as i64 {
            return Err(Error::CannotPay(format!("player {p} has {} life and can't pay {} (CR 119.4)", self.players[p as usize].life, cost.pay_life)));
        }
        let mut symbols: Vec<ManaSymbol> = cost.mana.as_ref().map(|m| m.symbols().to_vec()).unwrap_or_default();
        if ability.cycling {
            // "Cost up to {N} less": all of it, from the generic part only.
            let mut reduction: u32 = 0;
            for &s in &self.battlefield {
                if self.objects[s as usize].controller == p {
                    for st in &self.def_of_slot(s).rules.statics {
                        if let StaticAbility::CyclingCostReduction { up_to } = st {
                            reduction += up_to;
                        }
                    }
                }
            }
            reduce_generic(&mut symbols, reduction);
        }
        let to_pay = CostToPay { symbols, x: 0, life_available: self.players[p as usize].life as i64 - cost.pay_life as i64 };
        let mut sources = self.mana_sources(p);
        if cost.tap {
            sources.retain(|s| s.id != source.0); // it can't be tapped twice
        }
        let payment = solve(&to_pay, &self.players[p as usize].pool, &sources)
            .ok_or_else(|| crate::cost::cannot_pay(&to_pay.symbols, "not enough untapped mana sources and mana in the pool"))?;
        let (cycling, discard_self, sacrifice_self, tap, life) = (ability.cycling, cost.discard_self, cost.sacrifice_self, cost.tap, cost.pay_life);

        // CR 602.2a: the ability goes on the stack; then the costs are paid (602.2h).
        let ability_id = self.put_ability_on_stack(p, slot, source, crate::ability::AbilityRef::Activated(index as u16));
        self.execute_payment(p, &payment);
        if life > 0 {
            self.change_life(p, -(life as i32));
        }
        if tap {
            self.objects[slot as usize].tapped = true;
        }
        if discard_self {
            let card = self.move_slot(slot, ZoneKind::Graveyard, Position::Top);
            self.log.push_with(|| Event::Discarded { player: p, card, by: Some(p), random: false });
            if cycling {
                self.log.push_with(|| Event::Cycled { player: p, card });
                self.fire_cycle(p, card.slot());
            }
            self.fire_discard(p, card.slot());
        } else if sacrifice_self {
            let card = self.move_slot(slot, ZoneKind::Graveyard, Position::Top);
            self.log.push_with(|| Event::Died { card, from_id: source });
        }
        // CR 602.2i: activated once every cost is paid.
        self.log.push_with(|| Event::AbilityActivated { player: p, source, ability: ability_id, cycling });
        self.check_state_based_actions();
        self.give_priority(p);
        Ok(Progress::Done(vec![ability_id]))
    }

    /// Cycles `card` from hand: activates its first cycling ability (CR 702.29).
    pub fn cycle(&mut self, card: ObjId) -> Result<Progress> {
        let slot = self.slot_of(card)?;
        let def = self.def_of_slot(slot);
        let index = def.rules.activated.iter().position(|a| a.cycling).ok_or_else(|| illegal(format!("{} has no cycling ability", def.name)))?;
        self.activate(card, index)
    }

    /// A new object on the stack for an ability of `source_slot` (CR 113.7, 602.2a, 603.3).
    fn put_ability_on_stack(&mut self, controller: u8, source_slot: u32, source: ObjId, ability: AbilityRef) -> ObjId {
        let def = self.objects[source_slot as usize].def;
        self.put_ability_object(controller, def, source_slot, source, ability)
    }

    fn put_ability_object(&mut self, controller: u8, def: u32, source_slot: u32, source: ObjId, ability: AbilityRef) -> ObjId {
        let slot = self.objects.len() as u32;
        let zone = Zone { kind: ZoneKind::Stack, player: controller };
        self.objects.push(Object { def, generation: 0, owner: controller, controller, zone, tapped: false, damage: 0, cast: Default::default(), kind: ObjectKind::Ability, flags: 0 });
        self.stack.push(slot);
        self.stack_items.push(StackItem { slot, controller, targets: Vec::new(), ability: Some((ability, source_slot, source)), delayed: None });
        ObjId::new(slot, 0)
    }

    /// "When you cycle this card" of the card itself, wherever it went (CR 702.29c), and
    /// "whenever a player cycles" of permanents.
    fn fire_cycle(&mut self, player: u8, card_slot: u32) {
        let card_id = self.id_of(card_slot);
        let def = self.defs[self.objects[card_slot as usize].def as usize].clone();
        for (i, t) in def.rules.triggers.iter().enumerate() {
            if t.when == Trigger::CycleThis {
                self.pending_triggers.push(PendingTrigger { controller: player, source: card_slot, source_id: card_id, index: i as u16, delayed: None });
            }
        }
        for k in 0..self.battlefield.len() {
            let s = self.battlefield[k];
            let def = self.defs[self.objects[s as usize].def as usize].clone();
            for (i, t) in def.rules.triggers.iter().enumerate() {
                if t.when == Trigger::PlayerCycles {
                    let controller = self.objects[s as usize].controller;
                    self.pending_triggers.push(PendingTrigger { controller, source: s, source_id: self.id_of(s), index: i as u16, delayed: None });
                }
            }
        }
    }

    /// "Whenever you cycle or discard a card" of the discarding player's permanents: once per
    /// discard, so once per cycle.
    pub(crate) fn fire_discard(&mut self, player: u8, card_slot: u32) {
        for k in 0..self.battlefield.len() {
            let s = self.battlefield[k];
            if self.objects[s as usize].controller != player {
                continue;
            }
            let def = self.defs[self.objects[s as usize].def as usize].clone();
            for (i, t) in def.rules.triggers.iter().enumerate() {
                if let Trigger::CycleOrDiscard { another } = t.when {
                    if !(another && s == card_slot) {
                        self.pending_triggers.push(PendingTrigger { controller: player, source: s, source_id: self.id_of(s), index: i as u16, delayed: None });
                    }
                }
            }
        }
    }

    /// Puts waiting triggered abilities on the stack, the active player's first (APNAP,
    /// CR 603.3b); each player's in the order they triggered.
    pub(crate) fn flush_triggers(&mut self) {
        if self.pending_triggers.is_empty() || self.is_over() {
            return;
        }
        let mut waiting = std::mem::take(&mut self.pending_triggers);
        let n = self.players.len() as u8;
        let active = self.active;
        waiting.sort_by_key(|t| (t.controller + n - active) % n); // stable: trigger order kept
        for t in waiting {
            if self.players[t.controller as usize].lost.is_some() {
                continue;
            }
            let id = match &t.delayed {
                // A delayed trigger's source is the card whose ability created it.
                Some(d) => self.put_ability_object(t.controller, d.def, t.source, t.source_id, AbilityRef::Delayed),
                None => self.put_ability_on_stack(t.controller, t.source, t.source_id, AbilityRef::Triggered(t.index)),
            };
            if let Some(d) = t.delayed {
                self.stack_items.last_mut().expect("just pushed").delayed = Some(d);
            }
            self.log.push_with(|| Event::AbilityTriggered { player: t.controller, source: t.source_id, ability: id });
        }
        self.passes = 0; // new objects on the stack: the round of passing starts over
    }
}

/// Removes up to `n` generic mana from a cost (CR 601.2f: reductions reduce only generic mana).
pub(crate) fn reduce_generic(symbols: &mut Vec<ManaSymbol>, mut n: u32) {
    for s in symbols.iter_mut() {
        if let ManaSymbol::Generic(g) = s {
            let cut = (*g).min(n);
            *g -= cut;
            n -= cut;
        }
    }
    symbols.retain(|s| *s != ManaSymbol::Generic(0));
}

impl Game {
    /// A new card from outside the game, owned by `owner`, put into `zone` (conjure: a real
    /// card, not a token or a copy). Returns it.
    pub(crate) fn conjure(&mut self, def: u32, owner: u8, zone: ZoneKind) -> ObjId {
        let slot = self.objects.len() as u32;
        let flags = Object::flags_of(&self.defs[def as usize]);
        let z = Zone { kind: zone, player: owner };
        self.objects.push(Object { def, generation: 0, owner, controller: owner, zone: z, tapped: false, damage: 0, cast: Default::default(), kind: ObjectKind::Card, flags });
        self.zone_slots_mut(z).push(slot);
        let card = ObjId::new(slot, 0);
        self.log.push_with(|| Event::Conjured { player: owner, card });
        card
    }

    /// Delayed triggers waiting for `you next cast an instant or sorcery spell this turn`.
    pub(crate) fn fire_spell_cast(&mut self, caster: u8, spell: ObjId) {
        if self.delayed.is_empty() {
            return;
        }
        let def = self.def_of_slot(spell.slot());
        let instant_or_sorcery = def.is(crate::card::CardType::Instant) || def.is(crate::card::CardType::Sorcery);
        let mut i = 0;
        while i < self.delayed.len() {
            let d = &self.delayed[i];
            if d.when == DelayedWhen::YouNextCastInstantOrSorceryThisTurn && d.controller == caster && d.turn == self.turn && instant_or_sorcery {
                let d = self.delayed.remove(i); // it triggers only once (CR 603.7c)
                self.fire_delayed(d, Some(spell));
            } else {
                i += 1;
            }
        }
    }

    /// Delayed triggers waiting for the beginning of their controller's end step.
    pub(crate) fn fire_end_step(&mut self) {
        let mut i = 0;
        while i < self.delayed.len() {
            let d = &self.delayed[i];
            // CR 513.2: one created during this end step waits for the next one.
            let created_now = d.turn == self.turn && d.step == crate::turn::Step::End;
            if d.when == DelayedWhen::BeginningOfYourNextEndStep && d.controller == self.active && !created_now {
                let d = self.delayed.remove(i);
                self.fire_delayed(d, None);
            } else {
                i += 1;
            }
        }
    }

    /// "This turn" delayed triggers expire when the turn ends.
    pub(crate) fn expire_delayed(&mut self) {
        let turn = self.turn;
        self.delayed.retain(|d| !(d.when == DelayedWhen::YouNextCastInstantOrSorceryThisTurn && d.turn < turn));
    }

    fn fire_delayed(&mut self, d: Delayed, triggering: Option<ObjId>) {
        let source = triggering.map(|s| s.slot()).unwrap_or(0);
        let source_id = triggering.unwrap_or(ObjId(0));
        let fired = DelayedFired { effects: d.effects, def: d.def, cast: d.cast, remembered: d.remembered, triggering };
        self.pending_triggers.push(PendingTrigger { controller: d.controller, source, source_id, index: 0, delayed: Some(Box::new(fired)) });
    }
}
