//! Card definitions: the printed characteristics of a card (CR 109.3, 200–208) and the database
//! of known cards. Definitions are shared (`Arc`), never copied per object or per game clone.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::keywords::import_keywords;

use crate::cost::mana_type;
use crate::mana::{Color, ColorSet, ManaCost};
use crate::payment::ManaType;
use crate::rules::{Amount, CardRules, Condition, Effect, Who};

macro_rules! word_set {
    ($(#[$doc:meta])* $set:ident, $kind:ident { $($variant:ident = $word:literal),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $kind { $(#[doc = concat!("\"", $word, "\" on a type line (CR 205).")] $variant),* }

        impl $kind {
            /// Every one of them, in declaration order.
            pub const ALL: &'static [$kind] = &[$($kind::$variant),*];
            /// The word as written on a type line ("Creature", "Legendary").
            pub fn word(self) -> &'static str {
                match self { $($kind::$variant => $word),* }
            }
            /// The one a type-line word names, ignoring case; `None` for any other word.
            pub fn from_word(w: &str) -> Option<$kind> {
                $(if w.eq_ignore_ascii_case($word) { return Some($kind::$variant); })*
                None
            }
        }

        /// A set of them, one bit each: the card types or supertypes of a type line.
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub struct $set(u16);

        impl $set {
            /// Adds `t` to the set.
            pub fn insert(&mut self, t: $kind) { self.0 |= 1 << (t as u16); }
            /// Whether `t` is in the set.
            pub fn contains(self, t: $kind) -> bool { self.0 & (1 << (t as u16)) != 0 }
            /// Whether every member of `other` is in this set.
            pub fn contains_all(self, other: $set) -> bool { self.0 & other.0 == other.0 }
            /// Whether the two sets have a member in common.
            pub fn intersects(self, other: $set) -> bool { self.0 & other.0 != 0 }
            /// Whether the set has no members (a type line without supertypes, say).
            pub fn is_empty(self) -> bool { self.0 == 0 }
            /// The members, in declaration order.
            pub fn iter(self) -> impl Iterator<Item = $kind> {
                $kind::ALL.iter().copied().filter(move |t| self.contains(*t))
            }
        }
    };
}

word_set!(
    /// Card types (CR 205.2a).
    TypeSet, CardType {
        Artifact = "Artifact", Battle = "Battle", Creature = "Creature", Enchantment = "Enchantment",
        Instant = "Instant", Kindred = "Kindred", Land = "Land", Planeswalker = "Planeswalker",
        Sorcery = "Sorcery",
    }
);

word_set!(
    /// Supertypes (CR 205.4a).
    SupertypeSet, Supertype {
        Basic = "Basic", Legendary = "Legendary", Ongoing = "Ongoing", Snow = "Snow", World = "World",
    }
);

/// The printed characteristics of one card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "CardRecord", into = "CardRecord")]
pub struct CardDef {
    /// The card's name (CR 201), trimmed: what a [`CardDb`] finds it by.
    pub name: Box<str>,
    /// Its mana cost (CR 202); empty for a card without one (a land, most tokens).
    pub mana_cost: ManaCost,
    /// Its colors: those of its mana cost (CR 202.2), or of its color indicator if the record
    /// has one (CR 204).
    pub colors: ColorSet,
    /// Its card types (CR 205.2a).
    pub types: TypeSet,
    /// Its supertypes (CR 205.4a).
    pub supertypes: SupertypeSet,
    /// Its subtypes (CR 205.3): the words after the dash of the type line ("Human", "Wizard").
    pub subtypes: Box<[Box<str>]>,
    /// Printed power and toughness as text (`"2"`, `"*"`, `"1+*"`); `None` for non-creatures.
    pub power: Option<Box<str>>,
    /// Printed toughness as text, like `power`; present exactly when `power` is.
    pub toughness: Option<Box<str>>,
    /// The printed power and toughness as numbers, read once: a `*` counts as 0 (its value
    /// comes from a characteristic-defining ability, CR 208.2), as does a missing one.
    pub printed_pt: (i64, i64),
    /// The mana value of its mana cost (CR 202.3), read once.
    pub mana_value: u32,
    /// The least mana its mana cost can be paid with (X as 0, Phyrexian symbols with life),
    /// before any cost change: a quick test of whether casting it could be afforded.
    pub least_mana: u32,
    /// Printed loyalty as text (CR 209.1); a planeswalker whose loyalty is a number enters with
    /// that many loyalty counters (CR 306.5b).
    pub loyalty: Option<Box<str>>,
    /// The type line as written in the record, trimmed ("Legendary Creature — Human Wizard").
    pub type_line: Box<str>,
    /// The Oracle text as written in the record, keyword lines included.
    pub text: Box<str>,
    /// What the card does, as data (keywords from the text included).
    pub rules: CardRules,
    /// Its mana ability, worked out once from its basic land types (CR 305.6) and its rules.
    pub mana: Option<ManaProfile>,
    /// The colors come from a color indicator, not the mana cost (CR 204).
    pub color_indicator: bool,
    /// A token's definition (CR 111.4): created by effects, never in a deck.
    pub token: bool,
    /// The record had a `rules` object (even an empty one): its text is what the rules model.
    #[serde(default)]
    pub explicit_rules: bool,
    /// Its total cost cast by its mana cost with nothing added or changed (derived, see
    /// `casting::plain_total_cost`): what looking over the spells a player could cast reads.
    pub(crate) plain_cost: Option<crate::payment::Symbols>,
    /// `plain_cost` counted by type, when counting can decide it (see
    /// `payment::simple_needs`): what the look over castable spells compares with the supply.
    pub(crate) plain_needs: Option<([u64; 6], u64)>,
    /// `plain_needs`, when casting it has nothing else to find: no target and no additional
    /// discard (derived). The look over castable spells needs only this to settle most cards.
    pub(crate) plain_needs_alone: Option<crate::payment::CountedNeeds>,
    /// Casting it announces no mode, kicker or target and discards no card for its cost
    /// (derived): with no X to announce and no kicker granted, its cast goes straight to the
    /// total cost (CR 601.2b–c, 601.2f).
    pub(crate) no_announcements: bool,
    /// Cast from hand for its mana cost, it announces nothing (see `no_announcements`, and no
    /// {X}), and its plain cost is counted by type (`plain_needs`, derived): with no cost
    /// changed and automatic payment, its cast is only the payment and the move to the stack
    /// (`Game::cast_plainly`).
    pub(crate) plain_cast: bool,
    /// Its only announcement is kicker (no mode, target, discard or {X}; no kicker with {X}
    /// or a sticker), and its plain cost is counted by type (derived): a cast from hand that
    /// can afford no kick announces none (CR 601.2b), so it is a plain cast
    /// (`Game::cast_plainly`).
    pub(crate) plain_unless_kicked: bool,
    /// For a card `plain_unless_kicked`: its plain cost with each kicker's cost once, counted
    /// by type (derived), as a cast that could afford a kick compares them with the supply.
    pub(crate) kicked_needs: Box<[([u64; 6], u64)]>,
    /// An instruction of the card looks back at the cards it milled (derived): without one,
    /// its milling lists none.
    pub(crate) reads_milled: bool,
    /// Its lists that a resolution follows plainly, for each way their "if"s on kicks go
    /// (derived, see `effect::PlainLists`): read on every resolution.
    pub(crate) plain_lists: crate::effect::PlainLists,
    /// What happens to its permanent as it enters (derived): read on every entry.
    pub(crate) entry: Entry,
    /// A mana ability of it sacrifices it as part of its cost ("{T}, Sacrifice this: Add
    /// ...", derived): read on every tap for mana.
    pub(crate) sacrificed_for_mana: bool,
}

/// What a card's printed characteristics make happen to its permanent as it enters, however
/// it enters (see `Game::entered`), worked out once per definition.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Legendary: the legend rule looks again (CR 704.5j).
    pub(crate) legendary: bool,
    /// "Enters tapped" (CR 614.1c).
    pub(crate) tapped: bool,
    /// A planeswalker's printed loyalty, as the loyalty counters it enters with (CR 306.5b);
    /// 0 without one.
    pub(crate) loyalty: u32,
    /// "Enters with counters" or "as this enters" instructions (CR 614.1c, 614.12).
    pub(crate) replaced: bool,
}

impl Entry {
    fn of(types: TypeSet, supertypes: SupertypeSet, loyalty: Option<&str>, rules: &CardRules) -> Entry {
        Entry {
            legendary: supertypes.contains(Supertype::Legendary),
            tapped: rules.enters_tapped,
            loyalty: if types.contains(CardType::Planeswalker) { printed_number(loyalty) as u32 } else { 0 },
            replaced: !rules.enters_with_counters.is_empty() || !rules.as_enters.is_empty(),
        }
    }
}

/// What tapping the card's permanent for mana makes: one type out of `types`, `amount` times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManaProfile {
    /// The mana types it can make: those of its basic land types first, then those its mana
    /// abilities list.
    pub types: Vec<ManaType>,
    /// How much one activation makes: 1 for a basic land type, else its mana abilities' amount
    /// (a number, or the counters of a kind on it; any other amount makes none).
    pub amount: Amount,
}

impl ManaProfile {
    fn of(subtypes: &[Box<str>], rules: &CardRules) -> Option<ManaProfile> {
        const BASIC: [(&str, Color); 5] = [("Plains", Color::White), ("Island", Color::Blue), ("Swamp", Color::Black), ("Mountain", Color::Red), ("Forest", Color::Green)];
        let mut types: Vec<ManaType> = Vec::new();
        let mut amount = None;
        for (name, color) in BASIC {
            if subtypes.iter().any(|s| **s == *name) {
                types.push(ManaType::Color(color));
                amount = Some(Amount::Fixed(1));
            }
        }
        for ability in &rules.mana {
            if amount.is_none() || amount.as_ref() == Some(&ability.amount) {
                amount = Some(ability.amount.clone());
                for t in ability.produce.iter().filter_map(|l| mana_type(l)) {
                    if !types.contains(&t) {
                        types.push(t);
                    }
                }
            }
        }
        amount.filter(|_| !types.is_empty()).map(|amount| ManaProfile { types, amount })
    }
}

/// The on-disk shape of a card: the fields of common public card data (`card_pool.json`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardRecord {
    /// The card's name; surrounding whitespace is trimmed on load.
    pub name: String,
    /// The mana cost as symbols ("{2}{U}"); empty or absent for a card without one.
    #[serde(default)]
    pub mana_cost: String,
    /// The type line ("Legendary Creature — Human Wizard"; " - " is read as the long dash).
    pub type_line: String,
    /// The Oracle text; its keyword lines are recognised on load (`keywords.rs`).
    #[serde(default)]
    pub oracle_text: String,
    /// Printed power as text ("2", "*"); given together with `toughness` or not at all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,
    /// Printed toughness as text; given together with `power` or not at all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toughness: Option<String>,
    /// Printed loyalty of a planeswalker as text ("3").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loyalty: Option<String>,
    /// The card's rules as data (see `rules.rs`); keyword lines of the text are added on load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<CardRules>,
    /// A color indicator (CR 204), as mana letters ("U"): the colors of a token or a card
    /// without a mana cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colors: Option<String>,
    /// The definition of a token (CR 111.4), created by effects, never put in a deck.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub token: bool,
}

impl TryFrom<CardRecord> for CardDef {
    type Error = Error;
    fn try_from(r: CardRecord) -> Result<CardDef> {
        CardDef::from_record(r)
    }
}

impl From<CardDef> for CardRecord {
    fn from(d: CardDef) -> CardRecord {
        CardRecord {
            name: d.name.into(),
            mana_cost: d.mana_cost.to_string(),
            type_line: d.type_line.into(),
            oracle_text: d.text.into(),
            power: d.power.map(Into::into),
            toughness: d.toughness.map(Into::into),
            loyalty: d.loyalty.map(Into::into),
            colors: d.color_indicator.then(|| d.colors.iter().map(|c| c.letter().to_string()).collect()),
            token: d.token,
            rules: (d.explicit_rules || !d.rules.is_empty()).then_some(d.rules),
        }
    }
}

/// A printed power, toughness or loyalty the engine can read: a whole number (CR 208.1; a
/// power may be negative), or for power and toughness a characteristic-defining form with `*`
/// (CR 208.2). Anything else (an X loyalty among them) would silently read as 0.
fn printed_value_ok(v: &str, loyalty: bool) -> bool {
    let v = v.trim();
    if let Ok(n) = v.parse::<i64>() {
        return if loyalty { (0..=crate::game::MAX_COUNT).contains(&n) } else { n.abs() <= crate::game::MAX_COUNT };
    }
    !loyalty && v.contains('*') && v.chars().all(|c| c.is_ascii_digit() || matches!(c, '*' | '+' | '-'))
}

/// A printed power, toughness or loyalty as a number, read as `printed_value_ok` accepts it
/// (`"*"`, `"1+*"` and a missing value count as 0).
fn printed_number(v: Option<&str>) -> i64 {
    v.and_then(|s| s.trim().parse::<i64>().ok()).unwrap_or(0)
}

/// Calls `f` on every instruction of a card's rules, those inside others included, in order.
fn for_each_effect(rules: &CardRules, f: &mut impl FnMut(&Effect)) {
    walk(&rules.spell, f);
    walk(&rules.as_enters, f);
    for m in &rules.modes {
        walk(&m.effects, f);
    }
    for a in &rules.activated {
        walk(&a.effects, f);
    }
    for t in &rules.triggers {
        walk(&t.effects, f);
    }
}

/// Calls `f` on every instruction of `effects`, those inside others included, in order.
pub(crate) fn walk(effects: &[Effect], f: &mut impl FnMut(&Effect)) {
    for e in effects {
        f(e);
        match e {
            Effect::If { then, otherwise, .. } => {
                walk(then, f);
                walk(otherwise, f);
            }
            Effect::May { then } | Effect::MayPay { then, .. } => walk(then, f),
            Effect::Delayed { effects, .. } => walk(effects, f),
            _ => {}
        }
    }
}

/// The names of the tokens a card's instructions create (each must be a token definition in
/// the same card database).
pub(crate) fn token_names(rules: &CardRules) -> Vec<String> {
    let mut out = Vec::new();
    for_each_effect(rules, &mut |e| {
        if let Effect::CreateToken { token, .. } = e {
            out.push(token.name.clone());
        }
    });
    out
}

/// Whether an instruction of the card looks back at the cards it milled.
fn reads_milled(rules: &CardRules) -> bool {
    let mut reads = false;
    for_each_effect(rules, &mut |e| reads |= matches!(e, Effect::MilledToHand { .. }));
    reads
}

/// Checks that instructions refer only to targets that exist and to valid card descriptions.
fn validate_effects(effects: &[Effect], targets: usize, path: &str) -> std::result::Result<(), (String, String)> {
    for (i, e) in effects.iter().enumerate() {
        let here = format!("{path}[{i}]");
        let target = match e {
            Effect::Counter { target } | Effect::Damage { target, .. } | Effect::Tap { target } | Effect::Bounce { target } | Effect::ExileTarget { target } => Some(*target),
            Effect::PutCounters { on: crate::rules::CounterPlace::Target(t), .. } => Some(*t),
            Effect::Draw { who: Who::Target(t), .. }
            | Effect::Mill { who: Who::Target(t), .. }
            | Effect::Scry { who: Who::Target(t), .. }
            | Effect::Discard { who: Who::Target(t), .. }
            | Effect::Search { who: Who::Target(t), .. }
            | Effect::LoseLife { who: Who::Target(t), .. }
            | Effect::GainLife { who: Who::Target(t), .. } => Some(*t),
            Effect::If { cond: Condition::TargetKicked(t), .. } => Some(*t),
            _ => None,
        };
        if let Some(t) = target {
            if t >= targets {
                return Err((here, format!("refers to target {t}, but the card has {targets} target(s)")));
            }
        }
        match e {
            Effect::May { then } | Effect::MayPay { then, .. } => validate_effects(then, targets, &format!("{here}.then"))?,
            Effect::If { then, otherwise, .. } => {
                validate_effects(then, targets, &format!("{here}.then"))?;
                validate_effects(otherwise, targets, &format!("{here}.else"))?;
            }
            Effect::Delayed { effects, .. } => validate_effects(effects, 0, &format!("{here}.effects"))?,
            _ => {}
        }
    }
    Ok(())
}

impl CardDef {
    /// Validates a record: the cost must parse, the type line must name at least one card type,
    /// and power/toughness go together.
    pub fn from_record(r: CardRecord) -> Result<CardDef> {
        let name = r.name.trim().to_string();
        let err = |field: &str, reason: String| Error::InvalidCard { card: name.clone(), field: field.into(), reason };
        if name.is_empty() {
            return Err(err("name", "is empty".into()));
        }
        let mana_cost = ManaCost::parse(&r.mana_cost).map_err(|e| err("mana_cost", e.to_string()))?;
        let (types, supertypes, subtypes) = parse_type_line(&r.type_line).map_err(|e| err("type_line", e))?;
        if r.power.is_some() != r.toughness.is_some() {
            return Err(err("power", "power and toughness must both be given or both be absent".into()));
        }
        for (field, value) in [("power", &r.power), ("toughness", &r.toughness), ("loyalty", &r.loyalty)] {
            if let Some(v) = value.as_deref().filter(|v| !printed_value_ok(v, field == "loyalty")) {
                let forms = if field == "loyalty" { "a whole number from 0" } else { "a whole number, or a form with * such as \"*\" or \"1+*\"" };
                return Err(err(field, format!("{v:?} is not a printed {field} the engine can read: {forms} up to {}", crate::game::MAX_COUNT)));
            }
        }
        let has_rules = r.rules.is_some();
        let mut rules = r.rules.unwrap_or_default();
        let other = import_keywords(&r.oracle_text, &mut rules);
        // Text the engine can't model is reported per card (`unsupported`), never dropped.
        for line in crate::keywords::unsupported_lines(&other, has_rules) {
            if !rules.unsupported.iter().any(|u| u.eq_ignore_ascii_case(&line)) {
                rules.unsupported.push(line);
            }
        }
        // What the engine can't honour is refused here, not read as zero later.
        let basic_type = subtypes.iter().any(|s| ["Plains", "Island", "Swamp", "Mountain", "Forest"].contains(&&**s));
        for (i, m) in rules.mana.iter().enumerate() {
            if m.produce.is_empty() || m.produce.iter().any(|c| !["W", "U", "B", "R", "G", "C"].contains(&c.as_str())) {
                return Err(err(&format!("rules.mana[{i}].produce"), "must list mana types W, U, B, R, G or C".into()));
            }
            if !matches!(m.amount, Amount::Fixed(_) | Amount::Dynamic(crate::rules::Dynamic::CountersOnSource(_))) {
                return Err(err(&format!("rules.mana[{i}].amount"), "must be a number or {\"counters_on_source\": kind}".into()));
            }
            let first = if basic_type { &Amount::Fixed(1) } else { &rules.mana[0].amount };
            if m.amount != *first {
                return Err(err(&format!("rules.mana[{i}].amount"), "a permanent's mana abilities must all make the same amount (a basic land type makes 1)".into()));
            }
        }
        for (i, ew) in rules.enters_with_counters.iter().enumerate() {
            use crate::rules::Dynamic;
            if !matches!(ew.count, Amount::Fixed(_) | Amount::Dynamic(Dynamic::X | Dynamic::Kicks)) {
                return Err(err(&format!("rules.enters_with_counters[{i}].count"), "must be a number, \"x\" or \"kicks\"".into()));
            }
            if ew.condition.as_ref().is_some_and(|c| !matches!(c, Condition::Kicked | Condition::NotKicked | Condition::KickedWith(_))) {
                return Err(err(&format!("rules.enters_with_counters[{i}].if"), "must be kicked, not_kicked or kicked_with".into()));
            }
        }
        // Card descriptions (`Filter`) were parsed as the record was read.
        validate_effects(&rules.spell, rules.targets.len(), "rules.spell").map_err(|(f, why)| err(&f, why))?;
        validate_effects(&rules.as_enters, 0, "rules.as_enters").map_err(|(f, why)| err(&f, why))?;
        for (i, a) in rules.activated.iter().enumerate() {
            validate_effects(&a.effects, a.targets.len(), &format!("rules.activated[{i}].effects")).map_err(|(f, why)| err(&f, why))?;
        }
        for (i, t) in rules.triggers.iter().enumerate() {
            validate_effects(&t.effects, t.targets.len(), &format!("rules.triggers[{i}].effects")).map_err(|(f, why)| err(&f, why))?;
            if let Some(c @ (Condition::TargetKicked(_) | Condition::YouDid | Condition::RememberedIs(_))) = &t.condition {
                let written = serde_json::to_string(c).unwrap_or_default();
                return Err(err(
                    &format!("rules.triggers[{i}].if"),
                    format!("{written} can't be an intervening \"if\" (CR 603.4): use kicked, not_kicked, kicked_with or your_library_empty"),
                ));
            }
        }
        for (i, mode) in rules.modes.iter().enumerate() {
            validate_effects(&mode.effects, rules.targets.len(), &format!("rules.modes[{i}].effects")).map_err(|(f, why)| err(&f, why))?;
        }
        if let Some([min, max]) = rules.choose {
            if min > max || max == 0 || max as usize > rules.modes.len().max(1) || rules.modes.len() > 16 {
                return Err(err("rules.choose", format!("[{min}, {max}] doesn't fit {} mode(s)", rules.modes.len())));
            }
        }
        let colors = match &r.colors {
            Some(letters) => {
                let mut set = crate::mana::ColorSet::default();
                for ch in letters.chars().filter(|c| !c.is_whitespace()) {
                    let c = crate::mana::Color::from_letter(&ch.to_string()).ok_or_else(|| err("colors", format!("{ch:?} is not a color letter (W, U, B, R, G)")))?;
                    set.insert(c);
                }
                set
            }
            None => mana_cost.colors(),
        };
        for name in token_names(&rules) {
            if name.trim().is_empty() {
                return Err(err("rules", "a create_token instruction names no token".into()));
            }
        }
        // Gaps in the record itself are reported with the rest.
        if rules.kicker.len() > 2 {
            // Kicked status records two printed kickers (CR 702.33f: "kicker [cost 1] and/or
            // [cost 2]"); no printed card has a third, and a third would be taken for a granted one.
            return Err(err("rules.kicker", format!("has {} kicker abilities; a card has at most two (CR 702.33f)", rules.kicker.len())));
        }
        let gaps = [
            (types.contains(CardType::Planeswalker) && r.loyalty.is_none(), "no printed loyalty in the record: it enters with none (CR 306.5b)"),
            (types.contains(CardType::Creature) && r.power.is_none() && !r.token, "no printed power and toughness in the record: 0/0"),
        ];
        for (missing, note) in gaps {
            if missing && !rules.unsupported.iter().any(|u| u == note) {
                rules.unsupported.push(note.to_string());
            }
        }
        let subtypes: Box<[Box<str>]> = subtypes.into_iter().map(Into::into).collect();
        let explicit_rules = has_rules || !rules.is_empty();
        let mut def = CardDef {
            plain_cost: None,
            plain_needs: None,
            plain_needs_alone: None,
            plain_cast: false,
            plain_unless_kicked: false,
            kicked_needs: Box::default(),
            no_announcements: rules.modes.is_empty() && rules.kicker.is_empty() && rules.targets.is_empty() && rules.additional_discard.is_none(),
            reads_milled: reads_milled(&rules),
            plain_lists: crate::effect::PlainLists::default(),
            entry: Entry::of(types, supertypes, r.loyalty.as_deref(), &rules),
            sacrificed_for_mana: rules.mana.iter().any(|m| m.sacrifice),
            mana_value: mana_cost.mana_value(),
            least_mana: mana_cost.symbols().iter().fold(0u32, |total, s| total.saturating_add(s.least_mana())),
            mana: ManaProfile::of(&subtypes, &rules),
            subtypes,
            rules,
            color_indicator: r.colors.is_some(),
            explicit_rules,
            token: r.token,
            colors,
            mana_cost,
            types,
            supertypes,
            printed_pt: (printed_number(r.power.as_deref()), printed_number(r.toughness.as_deref())),
            power: r.power.map(Into::into),
            toughness: r.toughness.map(Into::into),
            loyalty: r.loyalty.map(Into::into),
            type_line: r.type_line.trim().into(),
            text: r.oracle_text.into(),
            name: name.into(),
        };
        def.plain_cost = crate::casting::plain_total_cost(&def);
        def.plain_needs = def.plain_cost.as_ref().and_then(|symbols| crate::payment::simple_needs(symbols, 0));
        def.plain_needs_alone = def
            .plain_needs
            .filter(|_| def.rules.targets.is_empty() && def.rules.additional_discard.is_none())
            .map(|(need, generic)| crate::payment::CountedNeeds::new(need, generic));
        // A spell (not a land) whose plain cost, with no {X}, is counted by type.
        let counted = def.plain_needs.is_some() && !def.is(CardType::Land) && !def.mana_cost.symbols().contains(&crate::mana::ManaSymbol::X);
        def.plain_cast = def.no_announcements && counted;
        // Without its kickers it would announce nothing; none has {X} or is a sticker.
        let plain_kickers = def.rules.kicker.iter().all(|k| !k.sticker && !k.cost.symbols().contains(&crate::mana::ManaSymbol::X));
        let only_kicks = !def.rules.kicker.is_empty() && def.rules.modes.is_empty() && def.rules.targets.is_empty() && def.rules.additional_discard.is_none();
        // Each kicker's cost counted by type too, added to the plain cost's.
        let kicked_needs = def.plain_needs.and_then(|(need, generic)| {
            def.rules
                .kicker
                .iter()
                .map(|k| crate::payment::simple_needs(k.cost.symbols(), 0).map(|(kick, kick_generic)| (std::array::from_fn(|t| need[t] + kick[t]), generic + kick_generic)))
                .collect::<Option<Box<[_]>>>()
        });
        def.plain_unless_kicked = only_kicks && plain_kickers && counted && kicked_needs.is_some();
        if def.plain_unless_kicked {
            def.kicked_needs = kicked_needs.unwrap_or_default();
        }
        def.plain_lists = crate::effect::PlainLists::of(&def.rules, def.reads_milled);
        Ok(def)
    }

    /// Its mana value (CR 202.3).
    pub fn mana_value(&self) -> u32 {
        self.mana_value
    }

    /// Whether `t` is one of its card types.
    pub fn is(&self, t: CardType) -> bool {
        self.types.contains(t)
    }

    /// Whether it has this subtype, ignoring case.
    pub fn has_subtype(&self, s: &str) -> bool {
        // As written is the usual case, and a plain comparison is quicker.
        self.subtypes.iter().any(|x| **x == *s || x.eq_ignore_ascii_case(s))
    }
}

impl fmt::Display for CardDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)?;
        if !self.mana_cost.is_empty() {
            write!(f, " {}", self.mana_cost)?;
        }
        write!(f, " ({})", self.type_line)
    }
}

/// Splits "Legendary Creature — Human Wizard" into supertypes, card types and subtypes (CR 205).
fn parse_type_line(line: &str) -> std::result::Result<(TypeSet, SupertypeSet, Vec<String>), String> {
    let line = line.replace(" - ", " — ");
    let (left, right) = match line.split_once('—') {
        Some((l, r)) => (l, r),
        None => (line.as_str(), ""),
    };
    let mut types = TypeSet::default();
    let mut supertypes = SupertypeSet::default();
    for word in left.split_whitespace() {
        if let Some(t) = CardType::from_word(word) {
            types.insert(t);
        } else if let Some(s) = Supertype::from_word(word) {
            supertypes.insert(s);
        } else if word.eq_ignore_ascii_case("Tribal") {
            types.insert(CardType::Kindred); // the obsolete name (CR 308)
        } else {
            return Err(format!("{word:?} is not a card type or supertype"));
        }
    }
    if types.is_empty() {
        return Err(format!("{line:?} names no card type"));
    }
    Ok((types, supertypes, right.split_whitespace().map(str::to_string).collect()))
}

/// A set of card definitions by name: the built-in cards, plus any a user adds.
#[derive(Clone, Debug, Default)]
pub struct CardDb {
    by_name: HashMap<Box<str>, Arc<CardDef>>,
    order: Vec<Arc<CardDef>>,
}

/// The built-in card data, shipped in the crate (`rust/data/cards.json`).
const BUILTIN_JSON: &str = include_str!("../data/cards.json");

#[derive(Deserialize)]
struct CardFile {
    format: String,
    version: u32,
    cards: Vec<serde_json::Value>,
}

/// How deeply a card record may nest: a card file holds each record two levels down, and a
/// JSON reader takes at most 128, so every card that loads can be saved and read back.
pub const MAX_RECORD_DEPTH: usize = 100;

/// The nesting depth of a JSON value (a scalar is 1), without recursing.
fn json_depth(value: &serde_json::Value) -> usize {
    let mut deepest = 0;
    let mut todo = vec![(value, 1)];
    while let Some((v, depth)) = todo.pop() {
        deepest = deepest.max(depth);
        match v {
            serde_json::Value::Array(items) => todo.extend(items.iter().map(|x| (x, depth + 1))),
            serde_json::Value::Object(fields) => todo.extend(fields.values().map(|x| (x, depth + 1))),
            _ => {}
        }
    }
    deepest
}

impl CardDb {
    /// The cards that ship with the engine, parsed and validated once per process.
    pub fn builtin() -> &'static CardDb {
        static DB: OnceLock<CardDb> = OnceLock::new();
        DB.get_or_init(|| CardDb::from_json(BUILTIN_JSON).expect("built-in card data is valid (tested)"))
    }

    /// Loads a card file: `{"format": "mtgsim-cards", "version": 1, "cards": [...]}`.
    pub fn from_json(text: &str) -> Result<CardDb> {
        let file: CardFile = serde_json::from_str(text).map_err(|e| Error::InvalidCard { card: "<file>".into(), field: "<document>".into(), reason: e.to_string() })?;
        if file.format != "mtgsim-cards" || file.version != 1 {
            return Err(Error::InvalidCard {
                card: "<file>".into(),
                field: "format".into(),
                reason: format!("expected format \"mtgsim-cards\" version 1, got {:?} version {}", file.format, file.version),
            });
        }
        let mut db = CardDb::default();
        db.add_all(file.cards)?;
        Ok(db)
    }

    /// Reads one card record (the shape of the card file's entries), naming the card and the
    /// field in any error ("rules.spell\[0\]: unknown variant `milll`").
    pub fn record_from_value(value: serde_json::Value) -> Result<CardRecord> {
        let label = value.get("name").and_then(|n| n.as_str()).unwrap_or("<unnamed>").to_string();
        // The format has objects; serde would also read an array as a struct's fields in order.
        if !value.is_object() {
            return Err(Error::InvalidCard { card: label, field: "<record>".into(), reason: "a card record must be an object".into() });
        }
        if value.get("rules").is_some_and(|r| !r.is_object() && !r.is_null()) {
            return Err(Error::InvalidCard { card: label, field: "rules".into(), reason: "must be an object".into() });
        }
        if json_depth(&value) > MAX_RECORD_DEPTH {
            return Err(Error::InvalidCard { card: label, field: "<record>".into(), reason: format!("nested more than {MAX_RECORD_DEPTH} levels deep") });
        }
        serde_path_to_error::deserialize(value).map_err(|e| {
            let field = e.path().to_string();
            Error::InvalidCard { card: label, field: if field == "." { "<record>".into() } else { field }, reason: e.into_inner().to_string() }
        })
    }

    /// Adds card records; every token a card creates must then be defined. Nothing is added
    /// if any record is invalid.
    pub fn add_all(&mut self, values: Vec<serde_json::Value>) -> Result<Vec<Arc<CardDef>>> {
        let mut staged = self.clone();
        let mut added = Vec::with_capacity(values.len());
        for value in values {
            let record = CardDb::record_from_value(value)?;
            added.push(staged.insert(CardDef::from_record(record)?)?);
        }
        staged.check_tokens()?;
        *self = staged;
        Ok(added)
    }

    /// Reads card records in the shape of common public card data (`card_pool.json`: name,
    /// mana_cost, type_line, oracle_text, power, toughness, loyalty; other fields ignored),
    /// recognising the keyword abilities the engine implements from the Oracle text. Returns,
    /// per card, the text the engine can't model (reported, never dropped).
    pub fn import(&mut self, values: Vec<serde_json::Value>) -> Result<Vec<(String, Vec<String>)>> {
        const FIELDS: [&str; 7] = ["name", "mana_cost", "type_line", "oracle_text", "power", "toughness", "loyalty"];
        let records = values
            .into_iter()
            .map(|v| match v {
                serde_json::Value::Object(m) => serde_json::Value::Object(m.into_iter().filter(|(k, v)| FIELDS.contains(&k.as_str()) && !v.is_null()).collect()),
                other => other,
            })
            .collect();
        let added = self.add_all(records)?;
        Ok(added.iter().map(|d| (d.name.to_string(), d.rules.unsupported.clone())).collect())
    }

    /// Every definition as its record, in the order added (what `from_json` reads back).
    pub fn to_json(&self) -> String {
        let cards: Vec<CardRecord> = self.order.iter().map(|d| CardRecord::from((**d).clone())).collect();
        serde_json::to_string(&serde_json::json!({"format": "mtgsim-cards", "version": 1, "cards": cards})).expect("plain data")
    }

    /// Every token a card creates is defined in this database as a token (CR 111.4).
    pub fn check_tokens(&self) -> Result<()> {
        for def in &self.order {
            for name in token_names(&def.rules) {
                match self.by_name.get(name.as_str()) {
                    Some(t) if t.token && (t.is(CardType::Instant) || t.is(CardType::Sorcery)) => {
                        return Err(Error::InvalidCard {
                            card: t.name.to_string(),
                            field: "type_line".into(),
                            reason: "a token is a permanent: it can't be an instant or sorcery (CR 111.1, 307.4)".into(),
                        })
                    }
                    Some(t) if t.token => {}
                    Some(_) => {
                        return Err(Error::InvalidCard {
                            card: def.name.to_string(),
                            field: "rules".into(),
                            reason: format!("creates a {name:?} token, but {name:?} is defined as a card, not a token (\"token\": true)"),
                        })
                    }
                    None => {
                        return Err(Error::InvalidCard {
                            card: def.name.to_string(),
                            field: "rules".into(),
                            reason: format!("creates a {name:?} token, and no token by that name is defined"),
                        })
                    }
                }
            }
        }
        Ok(())
    }

    /// Adds a definition; a second card with the same name is an error.
    pub fn insert(&mut self, def: CardDef) -> Result<Arc<CardDef>> {
        if self.by_name.contains_key(&def.name) {
            return Err(Error::InvalidCard { card: def.name.to_string(), field: "name".into(), reason: "a card with this name is already defined".into() });
        }
        let def = Arc::new(def);
        self.by_name.insert(def.name.clone(), def.clone());
        self.order.push(def.clone());
        Ok(def)
    }

    /// The definition with this exact name, or an error that suggests a near match.
    pub fn get(&self, name: &str) -> Result<&Arc<CardDef>> {
        if let Some(d) = self.by_name.get(name) {
            return Ok(d);
        }
        let folded = name.trim().to_lowercase();
        let fold = |s: &str| -> String {
            s.to_lowercase()
                .chars()
                .map(|c| match c {
                    'á' | 'à' | 'â' | 'ä' => 'a',
                    'é' | 'è' | 'ê' | 'ë' => 'e',
                    'í' | 'ì' | 'î' | 'ï' => 'i',
                    'ó' | 'ò' | 'ô' | 'ö' => 'o',
                    'ú' | 'ù' | 'û' | 'ü' => 'u',
                    c => c,
                })
                .collect::<String>()
                .replace('æ', "ae")
        };
        let folded = fold(&folded);
        let hint = self.order.iter().find(|d| fold(&d.name) == folded).map(|d| format!("; did you mean {:?}?", d.name)).unwrap_or_default();
        Err(Error::UnknownCard { name: name.to_string(), hint })
    }

    /// Whether a definition has exactly this name.
    pub fn contains(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// All definitions, in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<CardDef>> {
        self.order.iter()
    }

    /// How many definitions it holds, cards and tokens.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether it holds no definitions.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Milling lists its cards for a card only if the card looks back at them: the flag must
    // find "the milled cards" wherever the rules have it (CR 701.17c).
    #[test]
    fn reads_milled_marks_the_cards_that_look_back_at_milled_cards() {
        let db = CardDb::builtin();
        let mut readers = 0;
        for def in db.iter() {
            let text = serde_json::to_string(&def.rules).unwrap();
            assert_eq!(def.reads_milled, text.contains("milled_to_hand"), "{}", def.name);
            readers += usize::from(def.reads_milled);
        }
        assert!(readers > 0 && !db.get("Ruin Crab").unwrap().reads_milled);
    }

    // Tapping a source for mana sacrifices it only if the flag says so: the flag must find
    // every mana ability that sacrifices its source (a Treasure's, CR 605.3a).
    #[test]
    fn sacrificed_for_mana_marks_the_cards_whose_mana_ability_sacrifices_them() {
        let db = CardDb::builtin();
        for def in db.iter() {
            assert_eq!(def.sacrificed_for_mana, def.rules.mana.iter().any(|m| m.sacrifice), "{}", def.name);
        }
        assert!(db.get("Treasure").unwrap().sacrificed_for_mana && !db.get("Island").unwrap().sacrificed_for_mana);
    }

    #[test]
    fn builtin_cards_load() {
        let db = CardDb::builtin();
        assert!(db.len() >= 63);
        let leech = db.get("Monstrous War-Leech").unwrap();
        assert_eq!(leech.mana_value(), 4);
        assert!(leech.is(CardType::Creature) && leech.has_subtype("Leech"));
        let island = db.get("Island").unwrap();
        assert!(island.supertypes.contains(Supertype::Basic) && island.has_subtype("Island"));
        assert_eq!(island.mana_value(), 0);
    }

    #[test]
    fn unknown_card_suggests_case_fix() {
        match CardDb::builtin().get("island") {
            Err(Error::UnknownCard { hint, .. }) => assert!(hint.contains("Island")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn invalid_records_name_card_and_field() {
        let rec = |cost: &str, line: &str| CardRecord {
            name: "Bad".into(),
            mana_cost: cost.into(),
            type_line: line.into(),
            oracle_text: String::new(),
            power: None,
            toughness: None,
            loyalty: None,
            rules: None,
            colors: None,
            token: false,
        };
        match CardDef::from_record(rec("{Q}", "Instant")) {
            Err(Error::InvalidCard { card, field, .. }) => assert_eq!((card.as_str(), field.as_str()), ("Bad", "mana_cost")),
            other => panic!("{other:?}"),
        }
        match CardDef::from_record(rec("{1}", "Goblin")) {
            Err(Error::InvalidCard { field, .. }) => assert_eq!(field, "type_line"),
            other => panic!("{other:?}"),
        }
    }
}
