//! The stack (CR 405) and resolving its top object (CR 608): targets checked again, the
//! spell's instructions followed, then the card goes to its owner's graveyard, or onto the
//! battlefield for a permanent spell. Also countering (CR 701.6).

use serde::{Deserialize, Serialize};

use crate::ability::AbilityRef;
use crate::card::CardType;
use crate::effect::{EffectCtx, EffectProc, PlainList};
use crate::event::Event;
use crate::game::Game;
use crate::object::{CastInfo, ObjId, ObjectKind};
use crate::process::{Frame, Step};
use crate::rules::{Amount, Condition};
use crate::target::TargetRef;
use crate::zone::{Position, ZoneKind};

/// What a spell on the stack was cast with, beyond its object (which holds [`CastInfo`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackItem {
    /// The slot of the object on the stack: the spell's card, the copy, or the ability.
    pub slot: u32,
    /// Who controls it: who put the spell on the stack, or the ability's controller (CR 112.2, 113.8).
    pub controller: u8,
    /// The targets chosen for each "target" of the spell, in order; empty for a target the
    /// spell was cast without (CR 702.33g).
    pub targets: Vec<Vec<TargetRef>>,
    /// For an ability: which ability, its source's slot, and the source object it came from.
    #[serde(default)]
    pub ability: Option<(AbilityRef, u32, ObjId)>,
    /// For a delayed triggered ability: its instructions and what it knows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delayed: Option<Box<crate::trigger::DelayedFired>>,
    /// For an ability whose cost sacrificed a permanent: that permanent's power as it last
    /// existed on the battlefield (CR 608.2h).
    #[serde(default)]
    pub sacrificed_power: i64,
    /// For a triggered ability: the object its event was about ("that permanent"), and that
    /// object's controller when it triggered (last known information, CR 608.2h).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub triggering: Option<ObjId>,
    /// The controller of `triggering` when the ability triggered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub triggering_controller: Option<u8>,
}

impl StackItem {
    /// Checks a loaded stack item before the game is accepted (see [`Game::load_json`]): the
    /// objects and players it names exist, its ability is one its object's card has, and it
    /// has no more rows of targets than what it is has targets (resolving trusts all of this).
    pub(crate) fn check_stored(&self, c: &crate::process::Stored) -> std::result::Result<(), String> {
        c.slot(self.slot)?;
        c.player(self.controller)?;
        c.targets(self.targets.iter().flatten())?;
        c.objects(self.triggering.iter())?;
        c.players(self.triggering_controller)?;
        if let Some(d) = &self.delayed {
            d.check_stored(c)?;
        }
        let rules = &c.g.def_of_slot(self.slot).rules;
        let (what, specs) = match self.ability {
            None => ("the spell", rules.targets.len()),
            Some((ability, source, source_id)) => {
                c.slot(source)?;
                c.objects([&source_id])?;
                match ability {
                    AbilityRef::Activated(i) => {
                        c.ability("activated", i as usize, rules.activated.len())?;
                        ("the ability", rules.activated[i as usize].targets.len())
                    }
                    AbilityRef::Triggered(i) => {
                        c.ability("triggered", i as usize, rules.triggers.len())?;
                        ("the ability", rules.triggers[i as usize].targets.len())
                    }
                    AbilityRef::Delayed => ("a delayed trigger", 0),
                }
            }
        };
        let rows = self.targets.len();
        c.ensure(rows <= specs, || format!("has {rows} rows of targets, and {what} has {specs} targets"))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ResolveProc {
    /// Set once the instructions are running: the spell's slot, to finish it afterwards.
    finishing: Option<u32>,
    /// Set while a permanent spell's "as this enters" instructions run: the spell's slot, to
    /// put it onto the battlefield afterwards (CR 614.1c).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    entering: Option<u32>,
}

impl ResolveProc {
    pub(crate) fn new() -> ResolveProc {
        ResolveProc { finishing: None, entering: None }
    }

    pub(crate) fn finishing(slot: u32) -> ResolveProc {
        ResolveProc { finishing: Some(slot), entering: None }
    }

    pub(crate) fn entering(slot: u32) -> ResolveProc {
        ResolveProc { finishing: None, entering: Some(slot) }
    }

    /// The slot of the spell or ability whose instructions are running, once they are.
    pub(crate) fn resolving(&self) -> Option<u32> {
        self.finishing.or(self.entering)
    }

    /// See [`crate::process::Frame::check_stored`].
    pub(crate) fn check_stored(&self, c: &crate::process::Stored) -> std::result::Result<(), String> {
        c.slots(self.finishing.iter().chain(&self.entering))?;
        c.waits(false, |_| true)
    }

    // Inlined into its two callers (the goldfish's last pass, `Frame::step`): most
    // resolutions start here, and the call cost more than its set-up.
    #[inline(always)]
    pub(crate) fn step(self, g: &mut Game) -> Step {
        if let Some(slot) = self.finishing {
            ResolveProc::finished(g, slot);
            return Step::Done;
        }
        if let Some(slot) = self.entering {
            ResolveProc::entered(g, slot);
            return Step::Done;
        }
        let Some(item) = g.stack_items.last() else {
            return Step::Done;
        };
        let (slot, controller) = (item.slot, item.controller);
        if let Some((ability, source, source_id)) = item.ability {
            // CR 608.2: an ability follows its instructions, then leaves the stack.
            let def = g.objects[slot as usize].def;
            let cast = g.objects[slot as usize].cast;
            // CR 603.4: an intervening "if" is checked again on resolution.
            if let AbilityRef::Triggered(i) = ability {
                if g.defs[def as usize].rules.triggers[i as usize].condition.as_ref().is_some_and(|c| !g.intervening_if(c, controller, &cast)) {
                    let ability = g.id_of(slot);
                    g.take_stack_item(slot);
                    g.cease(slot);
                    g.log.push_with(|| Event::Removed { ability });
                    g.priority_to(g.active);
                    return Step::Done;
                }
            }
            if item.delayed.is_none() {
                if let Some(plain) = PlainList::of(&g.defs[def as usize], Some(ability), &cast) {
                    let target = if item.targets.is_empty() { LoneTarget::Legal(None) } else { g.lone_target(g.ability_targets(slot), &item.targets, controller, None) };
                    let followed = match target {
                        LoneTarget::Legal(target) => plain.follow(g, controller, target, slot, ResolveProc::finishing(slot)),
                        LoneTarget::Illegal => return ResolveProc::fizzled(g, slot), // CR 608.2b
                        LoneTarget::Several => None,
                    };
                    if let Some(followed) = followed {
                        return ResolveProc::settle(g, followed, slot);
                    }
                }
            }
            let item = &g.stack_items[g.stack_items.len() - 1];
            // An ability that targets nothing (most do) has no targets to check again or copy.
            let (targets, legal) = if item.targets.is_empty() {
                (Vec::new(), Vec::new())
            } else {
                let Some(legal) = g.check_targets(g.ability_targets(slot), &item.targets, controller, None) else {
                    return ResolveProc::fizzled(g, slot); // CR 608.2b
                };
                // The item stays on the stack while it resolves: what the instructions need is copied.
                (item.targets.clone(), legal)
            };
            let delayed = item.delayed.clone();
            let mut ctx = EffectCtx::targeting(controller, source, source_id, cast, targets, legal);
            ctx.triggering = item.triggering;
            ctx.triggering_controller = item.triggering_controller;
            ctx.sacrificed_power = item.sacrificed_power;
            let proc = match delayed {
                Some(d) => {
                    ctx.cast = d.cast;
                    ctx.triggering = d.triggering;
                    ctx.remembered = d.remembered;
                    std::mem::ManuallyDrop::new(EffectProc::inline(d.def, d.effects, ctx))
                }
                None => std::mem::ManuallyDrop::new(EffectProc::ability(def, ability, ctx)),
            };
            return ResolveProc::resolve(g, proc, slot);
        }
        let def_index = g.objects[slot as usize].def;
        // Borrowed, not cloned: the definitions are shared by every game (and thread) made
        // from the same card data, and counting references to them would contend.
        let def = &g.defs[def_index as usize];
        // CR 608.2b: a spell whose targets are all illegal now doesn't resolve. Most spells
        // target nothing: nothing to check again, or to copy below.
        let untargeted = item.targets.is_empty();
        let is_permanent = [CardType::Artifact, CardType::Creature, CardType::Enchantment, CardType::Planeswalker, CardType::Battle, CardType::Land].into_iter().any(|t| def.is(t));
        let (plain_entry, mode_count) = (def.rules.as_enters.is_empty(), def.rules.modes.len() as u16);
        if is_permanent {
            // Which targets are still legal isn't kept: a permanent enters without them.
            if !untargeted && g.check_targets(&def.rules.targets, &item.targets, controller, Some(slot)).is_none() {
                return ResolveProc::fizzled(g, slot);
            }
            if plain_entry {
                g.enter_from_stack(slot);
                g.priority_to(g.active);
                return Step::Done;
            }
            // Plain "as this enters" instructions followed at once, as their frame would.
            let plain = PlainList::of_as_enters(def, &g.objects[slot as usize].cast);
            match plain.and_then(|plain| plain.follow(g, controller, None, slot, ResolveProc::entering(slot))) {
                Some(None) => ResolveProc::entered(g, slot),
                Some(Some(step)) => return step,
                None => {
                    // CR 614.1c: "as this enters" modifies how it enters, so it happens first:
                    // the permanent is put onto the battlefield when those instructions are done.
                    let ctx = EffectCtx::new(controller, slot, g.id_of(slot), g.objects[slot as usize].cast);
                    g.frames.push(Frame::Resolve(ResolveProc::entering(slot)));
                    let proc = g.spare_effect.boxed(EffectProc::as_enters(def_index, ctx));
                    g.frames.push(Frame::Effect(proc));
                }
            }
            return Step::Done;
        }
        if mode_count == 0 {
            if let Some(plain) = PlainList::of(def, None, &g.objects[slot as usize].cast) {
                let target = if untargeted { LoneTarget::Legal(None) } else { g.lone_target(&def.rules.targets, &item.targets, controller, Some(slot)) };
                let followed = match target {
                    LoneTarget::Legal(target) => plain.follow(g, controller, target, slot, ResolveProc::finishing(slot)),
                    LoneTarget::Illegal => return ResolveProc::fizzled(g, slot),
                    LoneTarget::Several => None,
                };
                if let Some(followed) = followed {
                    return ResolveProc::settle(g, followed, slot);
                }
            }
        }
        let (def, item) = (&g.defs[def_index as usize], &g.stack_items[g.stack_items.len() - 1]);
        let legal = if untargeted {
            Vec::new()
        } else {
            let Some(legal) = g.check_targets(&def.rules.targets, &item.targets, controller, Some(slot)) else {
                return ResolveProc::fizzled(g, slot);
            };
            legal
        };
        // Only an instant or sorcery needs its targets copied: a permanent enters without them.
        let targets = if untargeted { Vec::new() } else { item.targets.clone() };
        let ctx = EffectCtx::targeting(controller, slot, g.id_of(slot), g.objects[slot as usize].cast, targets, legal);
        // The spell's own instructions, then each chosen mode's in printed order (CR 700.2).
        let modes = ctx.cast.modes;
        if (0..mode_count).any(|m| modes & (1 << m) != 0) {
            g.frames.push(Frame::Resolve(ResolveProc::finishing(slot)));
            for m in (0..mode_count).rev().filter(|m| modes & (1 << m) != 0) {
                g.frames.push(Frame::Effect(Box::new(EffectProc::mode(def_index, m, ctx.clone()))));
            }
            return EffectProc::spell(def_index, ctx).take_over(g);
        }
        ResolveProc::resolve(g, std::mem::ManuallyDrop::new(EffectProc::spell(def_index, ctx)), slot)
    }

    /// Follows the instructions of the spell or ability in `slot` (`proc`), then finishes it
    /// (see [`EffectProc::take_over_resolving`]).
    #[inline(always)]
    fn resolve(g: &mut Game, proc: std::mem::ManuallyDrop<EffectProc>, slot: u32) -> Step {
        let followed = EffectProc::take_over_resolving(proc, g, slot);
        ResolveProc::settle(g, followed, slot)
    }

    /// After the instructions of the spell or ability in `slot` were followed: what they
    /// handed over to, or else (`None`) it finishes now.
    #[inline(always)]
    fn settle(g: &mut Game, followed: Option<Step>, slot: u32) -> Step {
        match followed {
            Some(step) => step,
            None => {
                ResolveProc::finished(g, slot);
                Step::Done
            }
        }
    }

    /// The permanent spell in `slot` has followed its "as this enters" instructions: it
    /// enters now, if it is still the spell on the stack (its controller may have left the
    /// game meanwhile), and the active player is to receive priority (CR 117.3b).
    fn entered(g: &mut Game, slot: u32) {
        if g.stack_items.iter().any(|it| it.slot == slot && it.ability.is_none()) {
            g.enter_from_stack(slot);
        }
        g.priority_to(g.active);
    }

    /// The spell or ability in `slot` doesn't resolve, its targets all illegal now (CR 608.2b):
    /// it leaves the stack, and the active player is to receive priority (CR 117.3b).
    fn fizzled(g: &mut Game, slot: u32) -> Step {
        g.finish_spell(slot, true);
        g.priority_to(g.active);
        Step::Done
    }

    /// The instructions of the spell or ability in `slot` are done: it leaves the stack, and
    /// the active player is to receive priority (CR 608.2n, 117.3b).
    #[inline(always)]
    fn finished(g: &mut Game, slot: u32) {
        g.finish_spell(slot, false);
        g.priority_to(g.active);
    }
}

/// What checking the targets of a spell or ability that chose at most one finds (CR 608.2b).
enum LoneTarget {
    /// None was chosen, or the one chosen is still legal.
    Legal(Option<TargetRef>),
    /// The one chosen is illegal now: the spell or ability doesn't resolve.
    Illegal,
    /// It chose more than one, or has more than one "target": see [`Game::check_targets`].
    Several,
}

impl Game {
    /// Which chosen targets are still legal (CR 608.2b), or `None` if there were targets and
    /// none is.
    fn check_targets(&self, specs: &[crate::rules::TargetSpec], chosen: &[Vec<TargetRef>], controller: u8, source: Option<u32>) -> Option<Vec<Vec<bool>>> {
        let mut legal: Vec<Vec<bool>> = Vec::with_capacity(chosen.len());
        let (mut any_target, mut any_legal) = (false, false);
        for (i, row) in chosen.iter().enumerate() {
            let row: Vec<bool> = row.iter().map(|&t| self.target_is_legal(&specs[i], t, controller, source)).collect();
            any_target |= !row.is_empty();
            any_legal |= row.iter().any(|&b| b);
            legal.push(row);
        }
        (!any_target || any_legal).then_some(legal)
    }

    /// [`Game::check_targets`] for a spell or ability that chose at most one target: that
    /// target, if it chose one that is still legal.
    fn lone_target(&self, specs: &[crate::rules::TargetSpec], chosen: &[Vec<TargetRef>], controller: u8, source: Option<u32>) -> LoneTarget {
        let [row] = chosen else { return LoneTarget::Several };
        match row[..] {
            [] => LoneTarget::Legal(None),
            [t] if self.target_is_legal(&specs[0], t, controller, source) => LoneTarget::Legal(Some(t)),
            [_] => LoneTarget::Illegal,
            _ => LoneTarget::Several,
        }
    }

    /// Removes a spell's (or ability's) entry from the stack; returns its item.
    pub(crate) fn take_stack_item(&mut self, slot: u32) -> Option<StackItem> {
        let i = self.stack_items.iter().rposition(|it| it.slot == slot)?;
        // Most often the top item: popped, as `remove` would shift nothing (through a call).
        if i + 1 == self.stack_items.len() {
            return self.stack_items.pop();
        }
        Some(self.stack_items.remove(i))
    }

    /// Where a spell's card goes when it leaves the stack other than onto the battlefield:
    /// its owner's graveyard, or exile if it was cast with flashback (CR 702.34a); a copy
    /// ceases to exist (CR 707.10a). Returns the card's new id, if it still exists. Inlined
    /// into its two callers: every instant or sorcery resolving comes here.
    #[inline(always)]
    fn spell_to_graveyard(&mut self, slot: u32) -> Option<ObjId> {
        let o = self.objects[slot as usize];
        if matches!(o.kind, ObjectKind::SpellCopy | ObjectKind::Ability) {
            self.cease(slot);
            return None;
        }
        // `move_slot` inlined (on every instant or sorcery resolving): the same move.
        let from = self.take_from_zone(slot);
        let to = if o.cast.flashback { ZoneKind::Exile } else { self.graveyard_destination(slot, false) };
        Some(self.place_exactly_inline(slot, from, to, Position::Top))
    }

    /// An instant or sorcery finished resolving (CR 608.2n), or a spell didn't resolve for
    /// lack of legal targets (CR 608.2b).
    fn finish_spell(&mut self, slot: u32, fizzled: bool) {
        let spell = self.id_of(slot);
        if self.take_stack_item(slot).is_none() {
            return; // it already left the stack during its own resolution
        }
        let card = self.spell_to_graveyard(slot);
        self.log.push_with(|| if fizzled { Event::Fizzled { spell, card } } else { Event::Resolved { spell, card } });
    }

    /// A permanent spell resolving becomes a permanent (CR 608.3) under its controller, with
    /// what it was cast with (CR 400.7d) and any "enters with counters" (CR 614.1c).
    fn enter_from_stack(&mut self, slot: u32) {
        let spell = self.id_of(slot);
        // Only its controller is read: the rest of the item is dropped at once.
        let controller = self.take_stack_item(slot).expect("resolving spell is on the stack").controller;
        let cast: CastInfo = self.objects[slot as usize].cast;
        if self.objects[slot as usize].kind == ObjectKind::SpellCopy {
            self.objects[slot as usize].kind = ObjectKind::Token; // CR 707.10f
        }
        let card = self.move_slot_inline(slot, ZoneKind::Battlefield, Position::Top);
        self.set_controller(slot, controller);
        self.objects[slot as usize].cast = cast;
        self.entered_battlefield_after_as_enters(slot);
        self.log.push_with(|| Event::Resolved { spell, card: Some(card) });
    }

    /// The permanent's own replacements of how it enters (CR 614.1c): "enters with counters"
    /// (counts of kicks or X come from what it was cast with), then, unless they already ran
    /// (a resolving spell's run before it enters), its "as this enters" instructions, which run
    /// as the next frame: before state-based actions look at it.
    pub(crate) fn enters_with_counters_and_as_enters(&mut self, slot: u32, as_enters: bool) {
        let defs = std::sync::Arc::clone(&self.defs);
        let o = self.objects[slot as usize];
        let rules = &defs[o.def as usize].rules;
        for ew in &rules.enters_with_counters {
            if ew.condition.as_ref().is_none_or(|c| condition_on_cast(c, &o.cast)) {
                let n = match &ew.count {
                    Amount::Fixed(n) => *n,
                    Amount::Dynamic(crate::rules::Dynamic::Kicks) => o.cast.printed_kicks(),
                    Amount::Dynamic(crate::rules::Dynamic::X) => o.cast.x,
                    Amount::Dynamic(_) => 0,
                };
                if n > 0 {
                    let _ = self.put_counters(slot, &ew.counter, n);
                }
            }
        }
        if as_enters && !rules.as_enters.is_empty() {
            let ctx = EffectCtx::new(o.controller, slot, self.id_of(slot), o.cast);
            self.frames.push(Frame::Effect(Box::new(EffectProc::as_enters(o.def, ctx))));
        }
    }

    /// An object that isn't a card stops existing (CR 704.5d-e): out of its zone, its id dead.
    pub(crate) fn cease(&mut self, slot: u32) {
        self.take_from_zone(slot);
        let o = &mut self.objects[slot as usize];
        o.generation = o.generation.wrapping_add(1);
        o.kind = ObjectKind::Ceased;
        o.zone = crate::zone::Zone { kind: ZoneKind::Outside, player: o.owner };
        if self.object_counters.iter().any(|&(s, _)| s == slot) {
            self.drop_counters(slot);
        }
        if !self.stickers.is_empty() {
            self.stickers.retain(|(s, _)| *s != slot);
        }
    }

    /// Puts a copy of a spell on the stack (CR 707.10): it copies the spell's characteristics
    /// and the choices made casting it — kicked status and how many times (CR 702.33d), X,
    /// targets — but it is not cast. Its controller is `controller` or the spell's.
    pub fn copy_spell(&mut self, spell: ObjId, controller: Option<usize>) -> crate::error::Result<ObjId> {
        self.ensure_idle()?;
        let slot = self.expect_in(spell, ZoneKind::Stack)?;
        // Abilities on the stack are copied by their own effects (CR 707.10), not as spells.
        let item = self.stack_items.iter().find(|it| it.slot == slot && it.ability.is_none()).cloned();
        let item = item.ok_or_else(|| crate::error::illegal(format!("object {} is an ability on the stack: only a spell can be copied this way (CR 707.10)", spell.0)))?;
        let controller = match controller {
            Some(c) => self.check_live_player(c)?,
            None => item.controller,
        };
        let original = self.objects[slot as usize];
        let copy = self.objects.len() as u32;
        // CR 707.10: owned by the player under whose control it was put on the stack.
        let zone = crate::zone::Zone { kind: ZoneKind::Stack, player: controller };
        self.objects.push(crate::object::Object { owner: controller, controller, zone, generation: 0, kind: ObjectKind::SpellCopy, tapped: false, damage: 0, ..original });
        self.stack.push(copy);
        self.stack_items.push(StackItem {
            slot: copy,
            controller,
            targets: item.targets,
            ability: None,
            delayed: None,
            sacrificed_power: 0,
            triggering: None,
            triggering_controller: None,
        });
        let id = self.id_of(copy);
        self.log.push_with(|| Event::SpellCopied { spell, copy: id, controller });
        Ok(id)
    }

    /// Counters a spell (CR 701.6a): it leaves the stack for its owner's graveyard.
    pub(crate) fn counter_spell(&mut self, slot: u32) {
        let spell = self.id_of(slot);
        if self.take_stack_item(slot).is_none() {
            return;
        }
        let card = self.spell_to_graveyard(slot);
        self.log.push_with(|| Event::Countered { spell, card });
    }

    /// The spells on the stack, top first, with their controllers and targets.
    pub fn stack_items(&self) -> impl Iterator<Item = (ObjId, &StackItem)> + '_ {
        self.stack_items.iter().rev().map(|it| (self.id_of(it.slot), it))
    }

    /// How the object was cast: for a spell on the stack, or the permanent it became.
    pub fn cast_info(&self, id: ObjId) -> crate::error::Result<CastInfo> {
        Ok(self.object(id)?.cast)
    }
}

/// A condition that only reads how the object was cast ("enters with ... if it was kicked").
pub(crate) fn condition_on_cast(c: &Condition, cast: &CastInfo) -> bool {
    match c {
        Condition::Kicked => cast.printed_kicks() > 0,
        Condition::NotKicked => cast.printed_kicks() == 0,
        Condition::KickedWith(i) => cast.kicks.get(*i).is_some_and(|&k| k > 0),
        Condition::TargetKicked(_) | Condition::YourLibraryEmpty | Condition::YouDid | Condition::RememberedIs(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::ResolveProc;
    use crate::actions::movement::Entering;
    use crate::card::CardDb;
    use crate::casting::CastOptions;
    use crate::decision::Answer;
    use crate::event::Event;
    use crate::game::{Game, Progress};
    use crate::object::ObjId;
    use crate::policy::Policy;
    use crate::process::Frame;
    use crate::zone::{Position, ZoneKind};

    #[test]
    fn a_spell_leaving_from_under_the_top_takes_its_own_item_only() {
        // CR 405.2, 701.6a: countering the first of two spells on the stack takes that spell's
        // item (the top one is popped, any other removed from where it is); the spell cast
        // last stays on top with its own.
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        g.add_cards(0, ZoneKind::Battlefield, &["Island"; 2], Position::Top, db).unwrap();
        let hand = g.add_cards(0, ZoneKind::Hand, &["Mystical Tutor"; 2], Position::Top, db).unwrap();
        let mut spells = Vec::new();
        for card in hand {
            let Progress::Done(out) = g.cast(card, CastOptions::default()).unwrap() else { panic!("cast at once") };
            spells.push(out[0]);
        }
        let slots: Vec<u32> = g.stack_items.iter().map(|it| it.slot).collect();
        assert_eq!(slots, [spells[0].slot(), spells[1].slot()]);
        g.counter_spell(spells[0].slot());
        let slots: Vec<u32> = g.stack_items.iter().map(|it| it.slot).collect();
        assert_eq!(slots, [spells[1].slot()]);
        assert_eq!(g.objects[spells[0].slot() as usize].zone.kind, ZoneKind::Graveyard);
        assert_eq!(g.objects[spells[1].slot() as usize].zone.kind, ZoneKind::Stack);
    }

    /// Player 0's game with `lands` Islands and the permanents `extra` in play, the library
    /// `library` (top last) and `spell` cast: its id on the stack.
    fn cast_with(lands: usize, library: &[&str], extra: &[&str], spell: &str) -> (Game, ObjId) {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        g.add_cards(0, ZoneKind::Battlefield, &vec!["Island"; lands], Position::Top, db).unwrap();
        // Moved onto the battlefield rather than added there, so that each enters as a permanent
        // does (a planeswalker with its loyalty, CR 306.5b).
        for card in g.add_cards(0, ZoneKind::Hand, extra, Position::Top, db).unwrap() {
            g.move_object(card, ZoneKind::Battlefield, Position::Top, Entering::default()).unwrap();
        }
        g.add_cards(0, ZoneKind::Library, library, Position::Top, db).unwrap();
        let card = g.add_cards(0, ZoneKind::Hand, &[spell], Position::Top, db).unwrap()[0];
        let Progress::Done(out) = g.cast(card, CastOptions::default()).unwrap() else { panic!("cast at once") };
        (g, out[0])
    }

    // A spell's instructions done at once finish it there (CR 608.2n): it leaves the stack after
    // what they did, and the active player is to receive priority (CR 117.3b), as its frame to
    // finish it would do, never pushed. Instructions that stop for a decision (a scry) finish it
    // after the decision, from that frame, waiting beneath them. Instructions that end the game
    // leave the spell where it was: nothing more happens (CR 104.1). Mutations caught: the
    // spell finished at once although the game ended; the finishing frame put above the
    // instructions that stopped.
    #[test]
    fn a_resolution_finishes_where_its_instructions_end_unless_the_game_did() {
        let (mut g, spell) = cast_with(5, &["Island"; 4], &[], "Lórien Revealed");
        g.resolve_top().unwrap();
        assert!(g.stack_items.is_empty() && g.frames.is_empty());
        assert_eq!(g.objects[spell.slot() as usize].zone.kind, ZoneKind::Graveyard);
        assert_eq!((g.players[0].hand.len(), g.players[0].library.len(), g.priority), (3, 1, Some(0)));
        let kinds: Vec<&str> = g
            .events()
            .iter()
            .rev()
            .take(4)
            .map(|e| {
                if matches!(e, Event::Resolved { .. }) {
                    "resolved"
                } else if matches!(e, Event::Drew { .. }) {
                    "drew"
                } else {
                    "other"
                }
            })
            .collect();
        assert_eq!(kinds, ["resolved", "drew", "drew", "drew"]);

        let (mut g, spell) = cast_with(2, &["Island"; 4], &[], "Joint Exploration");
        g.set_policy(0, Policy::Manual).unwrap();
        assert_eq!(g.resolve_top().unwrap(), Progress::Paused);
        assert!(matches!(g.frames[..], [.., Frame::Resolve(ResolveProc { finishing: Some(s), .. }), Frame::Effect(_), Frame::Scry(_)] if s == spell.slot()));
        let top = g.players[0].library.iter().rev().take(2).map(|&s| g.id_of(s)).collect();
        g.answer(Answer::Scry { top, bottom: Vec::new() }).unwrap();
        assert!(g.stack_items.is_empty() && g.frames.is_empty());
        assert_eq!(g.objects[spell.slot() as usize].zone.kind, ZoneKind::Graveyard);
        assert_eq!((g.players[0].hand.len(), g.priority), (1, Some(0)));

        let (mut g, spell) = cast_with(5, &["Island"; 2], &["Jace, Wielder of Mysteries"], "Lórien Revealed");
        g.resolve_top().unwrap();
        assert_eq!(g.outcome().map(|o| o.winners.clone()), Some(vec![0]));
        assert_eq!(g.objects[spell.slot() as usize].zone.kind, ZoneKind::Stack);
        assert_eq!(g.stack_items.len(), 1);
    }
}
