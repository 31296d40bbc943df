//! Game objects and their identity (CR 109, 400.7).
//!
//! Every card in the game has a permanent slot in the object table. An object id is the slot
//! plus a generation; each zone change bumps the generation, so the card becomes a new object
//! with a new id and anything that remembered the old id finds nothing (CR 400.7).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::zone::Zone;

/// The id of one object: the card's slot in the low 32 bits, its generation in the high 32.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ObjId(pub u64);

impl ObjId {
    /// The id of the object in `slot` at `generation`.
    #[inline]
    pub fn new(slot: u32, generation: u32) -> ObjId {
        ObjId(((generation as u64) << 32) | slot as u64)
    }
    /// The card's slot in the object table, the same across zone changes.
    #[inline]
    pub fn slot(self) -> u32 {
        self.0 as u32
    }
    /// Which object in the slot this is: bumped by each zone change (CR 400.7).
    #[inline]
    pub fn generation(self) -> u32 {
        (self.0 >> 32) as u32
    }
}

impl fmt::Display for ObjId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// One card (or, later, token) and the state it has as the object it currently is. Plain
/// `Copy` data, so cloning a game copies the object table in one go; the rare counters on
/// objects live in a side table (`Game::object_counters`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Object {
    /// Index of the definition in the game's card table.
    pub def: u32,
    /// Generation of the current object (see [`ObjId`]).
    pub generation: u32,
    /// The owner never changes (CR 108.3).
    pub owner: u8,
    /// The controller (CR 108.4); meaningful on the battlefield and the stack, otherwise the owner.
    pub controller: u8,
    /// The zone it is in (CR 400.1); `Outside` once it has ceased to exist.
    pub zone: Zone,
    /// Tapped (CR 110.5); a new object starts untapped.
    pub tapped: bool,
    /// Damage marked on a permanent this turn (CR 120.3e, 120.6).
    pub damage: u32,
    /// How it was cast, while a spell and then as the permanent it became (CR 400.7d).
    pub cast: CastInfo,
    /// Whether it is a card, a token, a spell copy, an ability on the stack, or gone.
    pub kind: ObjectKind,
    /// What the card's printed characteristics make worth looking at, cached from its
    /// definition so scans of the battlefield touch only this table ([`Object::CREATURE_OR_PLANESWALKER`]
    /// and the other bits). Effects that change types must be checked beside these.
    #[serde(default)]
    pub flags: u16,
    /// The mana types its card's mana ability makes, if that ability makes exactly one mana
    /// a tap and doesn't sacrifice it (a basic land's); empty otherwise, when the definition
    /// says what it makes.
    /// Cached from the definition like `flags`, so counting mana touches only this table.
    #[serde(skip)]
    pub(crate) one_mana: crate::payment::ManaTypes,
    /// The turn it entered the battlefield (0: there from the start of the position), for
    /// summoning sickness (CR 302.6).
    #[serde(default)]
    pub entered: u32,
}

impl Object {
    /// Printed creature or planeswalker: state-based actions look at it (CR 704.5f–i).
    pub const CREATURE_OR_PLANESWALKER: u16 = 1;
    /// Has static abilities (CR 604).
    pub const HAS_STATICS: u16 = 2;
    /// Has a mana ability (CR 605).
    pub const HAS_MANA: u16 = 4;
    /// Has triggered abilities (CR 603).
    pub const HAS_TRIGGERS: u16 = 8;
    /// Has a static ability changing other creatures' power and toughness (layer 7c).
    pub const HAS_PT_STATIC: u16 = 16;
    /// A land card (CR 305): players look over their hands for these on every priority.
    pub const LAND: u16 = 32;
    /// An instant or a card with flash: castable any time the player has priority (CR 117.1a).
    pub const FAST: u16 = 64;
    /// Has a cycling ability, typecycling included (CR 702.29).
    pub const CYCLING: u16 = 128;
    /// A creature card (not a planeswalker) with a positive printed toughness that no ability
    /// defines: with no damage, no counters but +1/+1 counters and no "until end of turn"
    /// effects it survives the toughness and damage checks whatever else applies, since static
    /// bonuses and +1/+1 counters only add.
    pub const STURDY: u16 = 256;
    /// Has activated abilities other than mana abilities (CR 602): players look over their
    /// hands and permanents for these when they could activate one.
    pub const ACTIVATED: u16 = 512;
    /// Has flashback (CR 702.34): players look over their graveyards for these.
    pub const FLASHBACK: u16 = 1024;
    /// Has an activated ability that works from a zone other than the hand or the battlefield
    /// (a graveyard's, say): players look over those zones for these.
    pub const ACTIVATED_ELSEWHERE: u16 = 2048;
    /// Has a static ability letting its controller cast cards from their graveyard: players
    /// look over their graveyards for cards it lets them cast.
    pub const GRAVEYARD_PERMISSION: u16 = 4096;
    /// Has a static ability changing what spells cost (one `Game::spell_cost_statics` reads):
    /// with none in the game, every spell costs what its definition says.
    pub const COST_STATIC: u16 = 8192;
    /// Has a static ability about cycling (prohibiting it, or reducing its cost): with none in
    /// the game, a cycling ability is activated and costs as printed.
    pub const CYCLING_STATIC: u16 = 16384;
    /// Something happens to its permanent as it enters besides its triggers: it is legendary,
    /// or enters tapped, with loyalty or other counters, or with "as this enters" instructions
    /// (`CardDef::entry`).
    pub const ENTRY: u16 = 32768;

    /// Whether a permanent with these flags entering the battlefield may make a state-based
    /// action about permanents (CR 704.5f-i, 704.5q) apply: a creature or planeswalker they
    /// look at, but for a [`Object::STURDY`] creature, which comes with no damage and no
    /// counters (any put on it as it enters are watched apart), so it survives the checks
    /// (CR 704.5f-g). Its static abilities make none apply as it comes: the only one that
    /// touches other permanents ([`Object::HAS_PT_STATIC`]) only adds to their power and
    /// toughness (see `StaticAbility::changes_others_pt`).
    #[inline(always)]
    pub const fn sba_watched_entering(flags: u16) -> bool {
        flags & (Object::CREATURE_OR_PLANESWALKER | Object::STURDY) == Object::CREATURE_OR_PLANESWALKER
    }

    /// [`Object::sba_watched_entering`] for a permanent leaving: also one with a static
    /// ability adding to others' power and toughness, which their toughness loses with it.
    #[inline(always)]
    pub const fn sba_watched_leaving(flags: u16) -> bool {
        flags & Object::HAS_PT_STATIC != 0 || Object::sba_watched_entering(flags)
    }

    /// The [`Object::flags`] of all these definitions, or-ed together.
    pub fn flags_of_all<'a>(defs: impl IntoIterator<Item = &'a std::sync::Arc<crate::card::CardDef>>) -> u16 {
        defs.into_iter().fold(0, |f, d| f | Object::flags_of(d))
    }

    /// The [`Object::one_mana`] of an object with the printed characteristics of `def`. A
    /// source sacrificed for its mana (CR 605.3a) isn't one: tapping a plain source, which
    /// counting pays with, then never sacrifices anything.
    pub(crate) fn one_mana_of(def: &crate::card::CardDef) -> crate::payment::ManaTypes {
        match &def.mana {
            Some(crate::card::ManaProfile { types, amount: crate::rules::Amount::Fixed(1) }) if !def.sacrificed_for_mana => types.iter().copied().collect(),
            _ => Default::default(),
        }
    }

    /// The [`Object::flags`] bits for an object with the printed characteristics of `def`.
    pub fn flags_of(def: &crate::card::CardDef) -> u16 {
        use crate::card::CardType;
        let mut f = 0;
        if def.is(CardType::Creature) || def.is(CardType::Planeswalker) {
            f |= Object::CREATURE_OR_PLANESWALKER;
        }
        if !def.rules.statics.is_empty() {
            f |= Object::HAS_STATICS;
        }
        if def.mana.is_some() {
            f |= Object::HAS_MANA;
        }
        if !def.rules.triggers.is_empty() {
            f |= Object::HAS_TRIGGERS;
        }
        if def.rules.statics.iter().any(crate::rules::StaticAbility::changes_others_pt) {
            f |= Object::HAS_PT_STATIC;
        }
        if def.is(CardType::Land) {
            f |= Object::LAND;
        }
        if def.is(CardType::Instant) || def.rules.flash {
            f |= Object::FAST;
        }
        if def.rules.activated.iter().any(|a| a.cycling) {
            f |= Object::CYCLING;
        }
        if def.is(CardType::Creature) && !def.is(CardType::Planeswalker) && def.rules.power_toughness.is_none() && def.printed_pt.1 > 0 {
            f |= Object::STURDY;
        }
        if !def.rules.activated.is_empty() {
            f |= Object::ACTIVATED;
        }
        if def.rules.flashback.is_some() {
            f |= Object::FLASHBACK;
        }
        if def.rules.activated.iter().any(|a| !matches!(a.zone, crate::zone::ZoneKind::Hand | crate::zone::ZoneKind::Battlefield)) {
            f |= Object::ACTIVATED_ELSEWHERE;
        }
        if def.rules.statics.iter().any(|s| matches!(s, crate::rules::StaticAbility::CastFromGraveyard { .. })) {
            f |= Object::GRAVEYARD_PERMISSION;
        }
        if def.rules.statics.iter().any(crate::cost::changes_spell_costs) {
            f |= Object::COST_STATIC;
        }
        if def.rules.statics.iter().any(|s| matches!(s, crate::rules::StaticAbility::ProhibitCycling | crate::rules::StaticAbility::CyclingCostReduction { .. })) {
            f |= Object::CYCLING_STATIC;
        }
        if def.entry != crate::card::Entry::default() {
            f |= Object::ENTRY;
        }
        f
    }
}

/// What kind of object fills a slot.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObjectKind {
    /// A card (CR 108): in any zone, including as a spell or a permanent.
    #[default]
    Card,
    /// A copy of a spell on the stack (CR 707.10): not a card; it ceases to exist when it
    /// leaves the stack (CR 704.5e).
    SpellCopy,
    /// A token (CR 111): the permanent a copy of a permanent spell becomes (CR 707.10f). It
    /// ceases to exist when it leaves the battlefield (CR 704.5d, 111.7).
    Token,
    /// An activated or triggered ability on the stack (CR 113.7): not a card.
    Ability,
    /// An object that has ceased to exist; its slot is in no zone.
    Ceased,
}

/// The choices a spell was cast with that later rules ask about.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CastInfo {
    /// Times each kicker ability printed on the card was paid: \[A\] and \[B\] (for multikicker,
    /// the count). These are what the card's own "if it was kicked" abilities see (CR 607).
    pub kicks: [u16; 2],
    /// Times kicker abilities granted by other objects (sticker kicker) were paid: they make
    /// the spell "kicked" (CR 702.33d) but are not linked to the card's own abilities.
    pub granted_kicks: u16,
    /// The value chosen for X (CR 107.3).
    pub x: u32,
    /// Cast with flashback: exiled instead of going anywhere else (CR 702.34a).
    pub flashback: bool,
    /// The modes chosen (CR 700.2), as bits by mode index.
    pub modes: u16,
}

impl CastInfo {
    /// "Kicked" in the sense of CR 702.33d: any kicker cost paid.
    pub fn kicked(&self) -> bool {
        self.printed_kicks() + self.granted_kicks as u32 > 0
    }

    /// Kicks through the abilities printed on the object itself (CR 702.33e).
    pub fn printed_kicks(&self) -> u32 {
        self.kicks[0] as u32 + self.kicks[1] as u32
    }

    /// All kicks, printed and granted.
    pub fn total_kicks(&self) -> u32 {
        self.printed_kicks() + self.granted_kicks as u32
    }
}

impl Object {
    /// Forgets everything the previous object had (CR 400.7): a new object is untapped and
    /// controlled by its owner. (Its counters are dropped by `Game::place`, CR 122.2.)
    pub(crate) fn become_new(&mut self, zone: Zone) {
        self.generation = self.generation.wrapping_add(1);
        self.zone = zone;
        self.tapped = false;
        self.damage = 0;
        self.cast = CastInfo::default();
        self.controller = self.owner;
        self.entered = 0;
    }

    /// Whether it is as [`Object::become_new`] leaves an object: untapped, undamaged, uncast,
    /// controlled by its owner, not entered. Every card in a library is.
    pub(crate) fn is_fresh(&self) -> bool {
        !self.tapped && self.damage == 0 && self.cast == CastInfo::default() && self.controller == self.owner && self.entered == 0
    }
}
