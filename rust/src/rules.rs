//! A card's rules as data: what its spell does, its targets, its kicker abilities, how it
//! enters the battlefield, its mana abilities and static abilities. Built-in cards and user
//! cards alike are written in this vocabulary (the `"rules"` object of a card record, see
//! `docs/card-format.md`); keyword lines of the Oracle text ("Kicker {U}", "Multikicker {2}")
//! are recognised on load (`keywords.rs`). Nothing about an individual card lives in code.

use serde::{Deserialize, Serialize};

use crate::actions::search::Destination;
use crate::filter::Filter;
use crate::mana::ManaCost;
use crate::zone::ZoneKind;

/// Who an instruction applies to, from the point of view of the spell's or ability's
/// controller.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Who {
    /// The controller of the spell or ability (the default).
    #[default]
    You,
    /// Each opponent of the controller still in the game, in APNAP order (CR 101.4).
    EachOpponent,
    /// Each player still in the game, in APNAP order (CR 101.4).
    EachPlayer,
    /// The player chosen for target `n` (or the controller of the object chosen for it).
    Target(usize),
    /// The controller of the object the triggering event was about ("that permanent's
    /// controller").
    TriggeringController,
}

/// A number an instruction uses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Amount {
    /// A number written on the card ("draw two cards"), written as a plain number.
    Fixed(u32),
    /// A number read from the game as the instruction happens ("x", "kicks", ...).
    Dynamic(Dynamic),
}

impl From<u32> for Amount {
    fn from(n: u32) -> Amount {
        Amount::Fixed(n)
    }
}

impl<'de> Deserialize<'de> for Amount {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Amount, D::Error> {
        use serde::de::{value::MapAccessDeserializer, IntoDeserializer, MapAccess, Visitor};
        struct AmountVisitor;
        impl<'de> Visitor<'de> for AmountVisitor {
            type Value = Amount;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "{} or a number read from the game (\"x\", \"kicks\", ...)", card_number::expected(false))
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Amount, E> {
                card_number::in_range(i128::from(n), false).map(|n| Amount::Fixed(n as u32))
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Amount, E> {
                card_number::in_range(i128::from(n), false).map(|n| Amount::Fixed(n as u32))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Amount, E> {
                Dynamic::deserialize(s.into_deserializer()).map(Amount::Dynamic)
            }
            fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Amount, A::Error> {
                Dynamic::deserialize(MapAccessDeserializer::new(m)).map(Amount::Dynamic)
            }
        }
        d.deserialize_any(AmountVisitor)
    }
}

/// The numbers written in a card's rules (counts, amounts, life, cost changes, P/T changes):
/// whole numbers of at most [`MAX_COUNT`](crate::game::MAX_COUNT) either way, so that nothing
/// the engine adds up or multiplies from them can overflow; a card with a larger one is
/// refused as it loads, naming the field.
pub(crate) mod card_number {
    use serde::de::{Error, Visitor};
    use serde::Deserializer;

    use crate::game::MAX_COUNT;

    /// What a number must be: from 0 (or, `signed`, from -MAX_COUNT) to MAX_COUNT.
    pub(crate) fn expected(signed: bool) -> String {
        format!("a whole number from {} to {MAX_COUNT}", if signed { -MAX_COUNT } else { 0 })
    }

    /// `n` if it is in range, else an error saying what it must be.
    pub(crate) fn in_range<E: Error>(n: i128, signed: bool) -> Result<i64, E> {
        let low = if signed { -MAX_COUNT } else { 0 };
        if (i128::from(low)..=i128::from(MAX_COUNT)).contains(&n) {
            Ok(n as i64)
        } else {
            Err(E::custom(format!("{n} is out of range: expected {}", expected(signed))))
        }
    }

    /// Reads a whole number in range (see [`in_range`]).
    fn read<'de, D: Deserializer<'de>>(d: D, signed: bool) -> Result<i64, D::Error> {
        struct NumberVisitor(bool);
        impl Visitor<'_> for NumberVisitor {
            type Value = i64;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(&expected(self.0))
            }
            fn visit_u64<E: Error>(self, n: u64) -> Result<i64, E> {
                in_range(i128::from(n), self.0)
            }
            fn visit_i64<E: Error>(self, n: i64) -> Result<i64, E> {
                in_range(i128::from(n), self.0)
            }
        }
        d.deserialize_any(NumberVisitor(signed))
    }

    /// For `#[serde(deserialize_with = "card_number::count")]` on a `u32`.
    pub(crate) fn count<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        read(d, false).map(|n| n as u32)
    }

    /// For `#[serde(deserialize_with = "card_number::signed")]` on an `i32` (+N/-N).
    pub(crate) fn signed<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
        read(d, true).map(|n| n as i32)
    }

    /// A number wrapped so that `deserialize_with` can read it inside an `Option` or a tuple.
    #[derive(serde::Deserialize)]
    struct Signed(#[serde(deserialize_with = "signed")] i32);
    #[derive(serde::Deserialize)]
    struct Count(#[serde(deserialize_with = "count")] u32);

    /// An optional +N/-N (a loyalty cost).
    pub(crate) fn signed_option<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i32>, D::Error> {
        Ok(<Option<Signed> as serde::Deserialize>::deserialize(d)?.map(|s| s.0))
    }

    /// An optional ("kind", N) (a "remove N counters" cost).
    pub(crate) fn counters_option<'de, D: Deserializer<'de>>(d: D) -> Result<Option<(String, u32)>, D::Error> {
        Ok(<Option<(String, Count)> as serde::Deserialize>::deserialize(d)?.map(|(k, n)| (k, n.0)))
    }
}

/// Numbers read from the game when the instruction happens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Dynamic {
    /// The value chosen for X (CR 107.3).
    X,
    /// How many times the object was kicked with its own printed kicker abilities (CR 702.33e).
    Kicks,
    /// Half the affected player's library, rounded up.
    HalfLibraryRoundedUp,
    /// The number of counters of this kind on the source.
    CountersOnSource(String),
    /// The number of cards in the controller's hand.
    CardsInYourHand,
    /// The number of permanents on the battlefield matching a card description ("the number
    /// of Goblins on the battlefield").
    Permanents(Filter),
    /// The power of the permanent sacrificed to pay the cost, as it last existed on the
    /// battlefield (CR 608.2h).
    SacrificedPower,
    /// The number of cards drawn earlier by these instructions ("a card for each card drawn
    /// this way").
    DrawnThisWay,
}

/// A condition of an "if" instruction or of an "enters with" replacement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Condition {
    /// "If it was kicked": with any kicker ability printed on the object (CR 702.33e, 607).
    Kicked,
    /// "If it wasn't kicked".
    NotKicked,
    /// "If it was kicked with its \[A\] kicker" (0) or "\[B\] kicker" (1) (CR 702.33f).
    KickedWith(usize),
    /// "If [target spell] was kicked" — any kicker, printed or granted (CR 702.33d).
    TargetKicked(usize),
    /// "If your library has no cards in it".
    YourLibraryEmpty,
    /// "If you do": the last optional instruction (a "you may" or a "you may pay") was done.
    YouDid,
    /// "If it's a \[filter\] card": the remembered (revealed) card matches.
    RememberedIs(Filter),
}

/// What a target may be (CR 115).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    /// A spell on the stack.
    Spell,
    /// Any player.
    Player,
    /// An opponent of the controller.
    Opponent,
    /// A creature permanent.
    Creature,
    /// Any permanent.
    Permanent,
    /// "Any target": a creature, player, planeswalker or battle (CR 115.4).
    Any,
}

/// One "target" of a spell or ability.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetSpec {
    /// What the target may be: a spell, a player, a creature, ...
    pub kind: TargetKind,
    /// "up to N target ...": between 0 and N; otherwise exactly `count`.
    #[serde(default)]
    pub up_to: bool,
    /// How many (default 1): exactly that many, or at most that many with `up_to`.
    #[serde(default = "one")]
    #[serde(deserialize_with = "card_number::count")]
    pub count: u32,
    /// Chosen only if the spell was kicked (CR 702.33g); with an index, only if kicked with
    /// that kicker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub if_kicked: Option<KickedRequirement>,
    /// Chosen only if this mode was chosen (CR 601.2c).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<usize>,
    /// A further description an object target must match ("target Sliver", "target
    /// artifact").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<Filter>,
}

impl TargetSpec {
    /// Whether the target is chosen even for an unkicked spell: no "if kicked" (or
    /// `"if_kicked": false`, the same thing).
    pub fn required_unkicked(&self) -> bool {
        matches!(self.if_kicked, None | Some(KickedRequirement::Any(false)))
    }
}

/// Which kicking a kicked-only target needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum KickedRequirement {
    /// `true`: only if kicked with any of the card's printed kicker abilities; `false`: always,
    /// as if not given.
    Any(bool),
    /// Only if kicked with this kicker: 0 for its \[A\] kicker, 1 for \[B\] (CR 702.33f).
    With(usize),
}

fn one() -> u32 {
    1
}

fn yes() -> bool {
    true
}

fn any_card() -> Filter {
    Filter::new("card").expect("a valid description")
}

fn any_creature() -> Filter {
    Filter::new("creature").expect("a valid description")
}

/// One instruction of a spell's or ability's effect, done in order (CR 608.2c).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// "Draw N cards" (CR 121.1, 121.2): one at a time, each named player in APNAP order.
    Draw {
        /// Who draws (default: you).
        #[serde(default)]
        who: Who,
        /// How many cards each draws, read for that player.
        count: Amount,
    },
    /// "Mill N cards" (CR 701.17a), after mill replacement effects (CR 614.1a, 616.1).
    Mill {
        /// Who mills (default: you).
        #[serde(default)]
        who: Who,
        /// How many cards each mills before replacements; every player's number is read before
        /// anyone mills.
        count: Amount,
    },
    /// "Scry N" (CR 701.22a).
    Scry {
        /// Who scries (default: you).
        #[serde(default)]
        who: Who,
        /// N, read for each scrying player.
        count: Amount,
    },
    /// "Discard N cards" (CR 701.9): the player chooses which, unless `random`.
    Discard {
        /// Who discards (default: you); several players discard in APNAP order.
        #[serde(default)]
        who: Who,
        /// How many cards each discards, read for that player.
        count: Amount,
        /// "Discard N cards at random" (CR 701.9b).
        #[serde(default)]
        random: bool,
    },
    /// "Search your library for N \[filter\] cards, put them \[to\], then shuffle" (CR 701.23).
    Search {
        /// Who searches their own library (default: you); several search in APNAP order.
        #[serde(default)]
        who: Who,
        /// What a found card must be (default `"card"`: any card, CR 701.23d).
        #[serde(default = "any_card")]
        filter: Filter,
        /// How many cards may be found at most ("up to N"; default 1).
        #[serde(default = "one")]
        #[serde(deserialize_with = "card_number::count")]
        count: u32,
        /// Where the found cards go: hand, battlefield (tapped or not), graveyard, exile or the
        /// top of the library.
        to: Destination,
        /// Reveal the found cards (CR 701.23e: they are revealed only if the text says so).
        #[serde(default)]
        reveal: bool,
        /// Shuffle the library afterwards ("then shuffle"; default true).
        #[serde(default = "yes")]
        shuffle: bool,
        /// "You may search": the player first chooses whether to search at all.
        #[serde(default)]
        optional: bool,
    },
    /// The player shuffles their library (CR 701.24).
    Shuffle {
        /// Whose library (default: you).
        #[serde(default)]
        who: Who,
    },
    /// Counter the spell chosen for a target (CR 701.6).
    Counter {
        /// The target, by its position in `targets`; nothing happens if it is no longer legal
        /// (CR 608.2b).
        target: usize,
    },
    /// Deal damage to what was chosen for a target (CR 120).
    Damage {
        /// The target, by its position in `targets`: each legal choice for it is dealt damage.
        target: usize,
        /// How much damage, dealt by the source.
        amount: Amount,
    },
    /// "\[Who\] loses N life" (CR 119.3).
    LoseLife {
        /// Who loses life (default: you).
        #[serde(default)]
        who: Who,
        /// How much, read for each player.
        amount: Amount,
    },
    /// "\[Who\] gains N life" (CR 119.3).
    GainLife {
        /// Who gains life (default: you).
        #[serde(default)]
        who: Who,
        /// How much, read for each player.
        amount: Amount,
    },
    /// "You may put a \[filter\] card from your hand onto the battlefield" (not playing it).
    PutFromHand {
        /// What the card must be (default: any card).
        #[serde(default = "any_card")]
        filter: Filter,
        /// "You may": putting none is allowed; otherwise at least one, if the hand has one.
        #[serde(default)]
        optional: bool,
        /// The cards enter tapped.
        #[serde(default)]
        tapped: bool,
        /// "up to N": how many at most.
        #[serde(default = "one")]
        #[serde(deserialize_with = "card_number::count")]
        count: u32,
    },
    /// "You may put up to N \[filter\] cards from among the milled cards into your hand": the
    /// cards milled earlier by this same spell, found where they went if that zone is public
    /// (CR 701.17c).
    MilledToHand {
        /// What the cards must be (default: any card).
        #[serde(default = "any_card")]
        filter: Filter,
        /// "Up to N": how many at most.
        #[serde(deserialize_with = "card_number::count")]
        count: u32,
    },
    /// Creates a delayed triggered ability (CR 603.7): `effects` happen when `when` next
    /// happens. It remembers the objects this resolution remembered (the duplicate).
    Delayed {
        /// When it triggers.
        when: DelayedWhen,
        /// What it does then, in order; these instructions have no targets of their own.
        effects: Vec<Effect>,
    },
    /// "Conjure a duplicate of that spell into your hand": a new card with the printed
    /// characteristics of the spell that triggered this, owned by you (not a copy, not a token;
    /// none of the spell's choices carry over). It is remembered.
    ConjureDuplicate,
    /// "Discard the duplicate": the remembered cards, each only if it is still the same object
    /// in its owner's hand (CR 400.7). A discard for every purpose (CR 701.9).
    DiscardRemembered,
    /// "You may \[instructions\]": the controller chooses whether to do them (a decision). Whether
    /// they did is what a later "if you do" reads.
    May {
        /// The instructions the controller may choose to do.
        then: Vec<Effect>,
    },
    /// "You may pay \[cost\]. If you do, \[instructions\]": offered only if the cost can be paid;
    /// paid with the controller's mana sources (CR 118.12, 601.2g-h).
    MayPay {
        /// The mana cost offered ("you may pay {1}").
        cost: ManaCost,
        /// What happens if it was paid.
        then: Vec<Effect>,
    },
    /// Put counters on what was chosen for a target, on the source, or on each creature the
    /// named players control.
    PutCounters {
        /// The kind of counter ("+1/+1", "charge").
        counter: String,
        /// How many on each, read for the controller.
        count: Amount,
        /// What gets them.
        on: CounterPlace,
    },
    /// "\[Source\] gets +P/+T [and gains keywords] until end of turn" (CR 611.2a, 613.4c).
    Pump {
        /// Added to its power (negative for -N).
        #[serde(default)]
        #[serde(deserialize_with = "card_number::signed")]
        power: i32,
        /// Added to its toughness (negative for -N).
        #[serde(default)]
        #[serde(deserialize_with = "card_number::signed")]
        toughness: i32,
        /// Keywords it gains ("flying").
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        keywords: Vec<String>,
    },
    /// "[Filter] creatures you control [with power N or greater] gain \[keywords\] until end of
    /// turn" (CR 611.2c: the set is fixed as it resolves). Hexproof and indestructible have
    /// their rules (CR 702.11, 702.12); other keywords are recorded.
    GrantEach {
        /// What else the creatures must be (default: any creature).
        #[serde(default = "any_creature")]
        filter: Filter,
        /// "With power N or greater", as it resolves.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min_power: Option<i64>,
        /// The keywords each gains ("hexproof", "indestructible").
        keywords: Vec<String>,
    },
    /// Create tokens (CR 111): `count` copies of the token described by `token`.
    CreateToken {
        /// Which token, and whether it enters tapped.
        token: TokenSpec,
        /// How many (default 1), read for the controller.
        #[serde(default = "one_amount")]
        count: Amount,
    },
    /// Tap what was chosen for a target.
    Tap {
        /// The target, by its position in `targets`.
        target: usize,
    },
    /// Return what was chosen for a target to its owner's hand.
    Bounce {
        /// The target, by its position in `targets`.
        target: usize,
    },
    /// Exile what was chosen for a target; the exiled card is remembered ("the exiled card").
    ExileTarget {
        /// The target, by its position in `targets`.
        target: usize,
    },
    /// Exile every card in every graveyard.
    ExileAllGraveyards,
    /// Put the remembered cards onto the battlefield under their owners' control, each only if
    /// it is still the same object (CR 400.7).
    PutRememberedOntoBattlefield {
        /// They enter tapped.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        tapped: bool,
    },
    /// Destroy what was chosen for a target (CR 701.8): to its owner's graveyard.
    Destroy {
        /// The target, by its position in `targets`; an indestructible one stays (CR 702.12b).
        target: usize,
    },
    /// The controller wins the game (CR 104.2b).
    WinGame,
    /// Reveal the top `count` cards of the controller's library; they are remembered.
    RevealTop {
        /// How many cards (all of them if the library has fewer).
        #[serde(deserialize_with = "card_number::count")]
        count: u32,
    },
    /// "You may put a \[filter\] card from among them into your hand. Put the rest into your
    /// graveyard": the remembered revealed cards.
    PutRevealedToHand {
        /// What a card taken must be (default: any card).
        #[serde(default = "any_card")]
        filter: Filter,
        /// How many may be taken at most (default 1).
        #[serde(default = "one")]
        #[serde(deserialize_with = "card_number::count")]
        count: u32,
        /// Where the rest go.
        rest: RestGo,
    },
    /// Add mana to the controller's pool (CR 106.4), e.g. "add {B}{B}".
    AddMana {
        /// The mana, written as a mana cost ("{B}{B}").
        mana: ManaCost,
    },
    /// "If \[condition\], \[instructions\]. Otherwise, \[instructions\]": one branch is done, the
    /// condition checked when this instruction is reached.
    If {
        /// What is checked.
        cond: Condition,
        /// Done if the condition holds.
        #[serde(default)]
        then: Vec<Effect>,
        /// Done if it doesn't (`"else"` in the card format).
        #[serde(default, rename = "else")]
        otherwise: Vec<Effect>,
    },
}

/// Where "put counters" puts them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum CounterPlace {
    /// What was chosen for this target (its position in `targets`).
    Target(usize),
    /// The source itself, if it is still on the battlefield.
    Source,
    /// On each creature the named players control.
    EachCreature(Who),
}

/// Where the cards revealed by [`Effect::RevealTop`] that weren't taken go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RestGo {
    /// "Put the rest into your graveyard".
    Graveyard,
    /// "Put the rest on the bottom of your library".
    LibraryBottom,
}

/// A token's characteristics (CR 111.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenSpec {
    /// The name of a card definition in the game's card database describing the token
    /// ("Drake", "Zombie", "Treasure").
    pub name: String,
    /// The token enters tapped ("create a tapped Treasure token").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tapped: bool,
}

/// The costs of an activated ability (CR 602.1a, 118).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbilityCost {
    /// The mana part ({X} allowed); a cycling ability's is reduced by cycling cost reductions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mana: Option<ManaCost>,
    /// {T} (CR 107.5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tap: bool,
    /// "Pay N life" (CR 119.4: only with at least N life).
    #[serde(default, skip_serializing_if = "is_zero")]
    #[serde(deserialize_with = "card_number::count")]
    pub pay_life: u32,
    /// "Discard this card" (cycling, CR 702.29a).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub discard_self: bool,
    /// "Sacrifice this permanent" (CR 701.21).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sacrifice_self: bool,
    /// {Q}: untap this permanent (CR 107.6).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub untap: bool,
    /// "Sacrifice a \[filter\]": a permanent the activator controls, chosen as the cost is paid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sacrifice: Option<Filter>,
    /// "Discard a \[filter\] card": from the activator's hand, chosen as the cost is paid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard: Option<Filter>,
    /// "Remove N \[kind\] counters from this permanent".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "card_number::counters_option")]
    pub remove_counters: Option<(String, u32)>,
    /// A loyalty cost (CR 606.4): +N puts loyalty counters on, -N removes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "card_number::signed_option")]
    pub loyalty: Option<i32>,
}

impl AbilityCost {
    /// The cost contains {X} (CR 107.3).
    pub fn has_x(&self) -> bool {
        self.mana.as_ref().is_some_and(|m| m.symbols().iter().any(|s| matches!(s, crate::mana::ManaSymbol::X)))
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn battlefield() -> ZoneKind {
    ZoneKind::Battlefield
}

/// An activated ability (CR 602): "\[cost\]: \[effect\]".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActivatedAbility {
    /// What comes before the colon (no cost if omitted).
    #[serde(default)]
    pub cost: AbilityCost,
    /// What it does as it resolves, in order.
    pub effects: Vec<Effect>,
    /// Where its card must be for it to be activated: the battlefield, or the hand for
    /// cycling (CR 702.29a). The ability exists in every zone (CR 113.6), so effects that look
    /// for it see it anywhere.
    #[serde(default = "battlefield")]
    pub zone: ZoneKind,
    /// A cycling ability, typecycling included (CR 702.29a, e).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cycling: bool,
    /// Targets, numbered from 0 in the instructions (CR 602.2b, 601.2c).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<TargetSpec>,
    /// "Activate only as a sorcery" (CR 602.5d); loyalty abilities always are (CR 606.3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sorcery_speed: bool,
}

impl ActivatedAbility {
    /// Whether activating it asks anything before the costs are paid: X, targets, or which
    /// permanent to sacrifice or card to discard (CR 602.2b, 601.2b-c).
    pub fn has_choices_before_paying(&self) -> bool {
        self.cost.has_x() || !self.targets.is_empty() || self.cost.sacrifice.is_some() || self.cost.discard.is_some()
    }
}

/// What a triggered ability waits for (CR 603.1). "This" means the ability's own object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Trigger {
    /// "When this enters (the battlefield)" (CR 603.6a).
    EntersBattlefield,
    /// "Landfall — whenever a land enters the battlefield under your control".
    Landfall,
    /// "When this dies": put into a graveyard from the battlefield (CR 700.4); looks back in
    /// time (CR 603.10a).
    Dies,
    /// "Whenever you scry" (CR 701.22).
    YouScry,
    /// "Whenever a permanent becomes untapped".
    PermanentUntaps,
    /// "Whenever one or more \[filter\] cards are put into your graveyard from your library":
    /// once per batch (CR 603.2c).
    PutIntoYourGraveyardFromLibrary {
        /// What at least one of the cards, now in the graveyard, must be.
        filter: Filter,
    },
    /// "Whenever an opponent discards a \[filter\] card" (CR 701.9c: a card discarded into a
    /// hidden zone has no characteristics to match).
    OpponentDiscards {
        /// What the discarded card must be.
        filter: Filter,
    },
    /// "At the beginning of [your / each] \[step\]" (CR 603.2, 513.1).
    BeginningOf {
        /// The step whose beginning it waits for.
        step: crate::turn::Step,
        /// Only in your turns ("your upkeep"); otherwise in every turn ("each upkeep").
        #[serde(default)]
        yours: bool,
    },
    /// "When you cycle this card": from whatever zone the card went to (CR 702.29c).
    CycleThis,
    /// "Whenever a player cycles a card".
    PlayerCycles,
    /// "Whenever you cycle or discard \[another\] card": once per cycle, since cycling is a
    /// discard (CR 702.29d).
    CycleOrDiscard {
        /// "Another card": not for this card itself.
        #[serde(default)]
        another: bool,
    },
}

/// A triggered ability (CR 603): "[trigger condition], \[effect\]".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TriggeredAbility {
    /// Its trigger condition: the event it waits for.
    pub when: Trigger,
    /// What it does as it resolves, in order.
    pub effects: Vec<Effect>,
    /// Targets, chosen as it is put on the stack (CR 603.3d); numbered from 0.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<TargetSpec>,
    /// An intervening "if" clause (CR 603.4): checked when the event happens and again on
    /// resolution; read from the source's cast ("if it was kicked").
    #[serde(default, rename = "if", skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// "This ability triggers only once each turn".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub once_each_turn: bool,
}

/// One mode of a modal spell (CR 700.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mode {
    /// Its additional cost when chosen (spree, CR 702.172).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<ManaCost>,
    /// What the mode does, in order, if it was chosen.
    pub effects: Vec<Effect>,
    /// Text of the mode the engine does not model yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsupported: Option<String>,
}

/// When a delayed triggered ability triggers (CR 603.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DelayedWhen {
    /// "When you next cast an instant or sorcery spell this turn": once, this turn only.
    YouNextCastInstantOrSorceryThisTurn,
    /// "At the beginning of your next end step" — if created during your end step, the next
    /// turn's (CR 513.2).
    BeginningOfYourNextEndStep,
    /// "At the beginning of the next end step" (anyone's) — likewise not the one it was created
    /// in.
    BeginningOfNextEndStep,
}

/// "Enters with N \[kind\] counters" (CR 614.1c, 122.6), optionally only under a condition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntersWithCounters {
    /// The kind of counter ("charge", "+1/+1").
    pub counter: String,
    /// How many, read as it enters: a number, X or the times kicked (a card with any other
    /// amount is refused as it loads; X and kicks are 0 unless it was cast).
    pub count: Amount,
    /// Only if this holds for how the spell was cast: kicked, not kicked, kicked with \[A\] or
    /// \[B\] (a card with any other condition is refused as it loads).
    #[serde(default, rename = "if", skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
}

/// Characteristic-defining power and toughness. (State-based actions skip their check while
/// nothing they read changes: one counting a zone other than graveyards must make that zone's
/// changes clear `Game::sba_quiet`, as `Game::toughness_counts_graveyards` does.)
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PowerToughness {
    /// "Power and toughness are each equal to the highest mana value among cards in your
    /// graveyard" (Monstrous War-Leech).
    HighestManaValueInYourGraveyard,
}

/// A mana ability: "{T}: Add one mana of \[options\]" (CR 605), `amount` of one chosen type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManaAbility {
    /// Mana types by letter: "W", "U", "B", "R", "G", "C".
    pub produce: Vec<String>,
    /// How much one activation makes (default 1): a number, or the counters of a kind on it;
    /// the same for all of a permanent's mana abilities (and 1 for one with a basic land type).
    #[serde(default = "one_amount")]
    pub amount: Amount,
    /// "{T}, Sacrifice this: Add ..." (a Treasure).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sacrifice: bool,
}

fn one_amount() -> Amount {
    Amount::Fixed(1)
}

/// Static abilities the engine models so far (CR 604, 611.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum StaticAbility {
    /// "\[filter\] spells you cast cost {N} less to cast" (CR 601.2f: generic only).
    CostReduction {
        /// Which of your spells.
        filter: Filter,
        /// N: how much less generic mana.
        #[serde(deserialize_with = "card_number::count")]
        amount: u32,
    },
    /// "\[filter\] spells you cast cost {N} more to cast".
    CostIncrease {
        /// Which of your spells.
        filter: Filter,
        /// N: how much more generic mana.
        #[serde(deserialize_with = "card_number::count")]
        amount: u32,
    },
    /// "\[filter\] spells you cast have sticker kicker \[cost\]" (CR 702.33h).
    GrantStickerKicker {
        /// Which of your spells get it.
        filter: Filter,
        /// The sticker kicker cost.
        cost: ManaCost,
    },
    /// "Players can't cycle cards" (Stabilizer; CR 602.5).
    ProhibitCycling,
    /// "Cycling abilities you activate cost you up to {N} less to activate" (generic only).
    CyclingCostReduction {
        /// N: at most this much less generic mana (as much of it as applies is taken).
        #[serde(deserialize_with = "card_number::count")]
        up_to: u32,
    },
    /// "Other \[filter\] creatures you control get +1/+1 for each \[counter\] counter on this"
    /// (layer 7c, CR 613.4c).
    OthersGetPerCounter {
        /// What else the other creatures must be.
        filter: Filter,
        /// The kind of counter on this permanent that is counted ("+1/+1").
        counter: String,
    },
    /// "You may cast \[filter\] cards from your graveyard" (a permission, CR 601.2a).
    CastFromGraveyard {
        /// Which cards in your graveyard may be cast.
        filter: Filter,
    },
    /// "You have no maximum hand size" (CR 402.2).
    NoMaximumHandSize,
    /// "If \[whose\] opponent would mill one or more cards, they mill \[times\] times that many
    /// plus \[plus\] instead" (CR 614.1a); several apply in the order the milling player
    /// chooses (CR 616.1).
    OpponentMillsMore {
        /// What the number milled is multiplied by (default 1).
        #[serde(default = "one")]
        #[serde(deserialize_with = "card_number::count")]
        times: u32,
        /// What is added after multiplying (default 0).
        #[serde(default)]
        #[serde(deserialize_with = "card_number::count")]
        plus: u32,
    },
    /// "If a \[filter\] card (or token) would be put into \[whose\] graveyard from anywhere
    /// [and it wasn't cycled], exile it instead" (CR 614.1a).
    GraveyardToExile {
        /// What the card must be (default: any card); a token counts only if the description
        /// says "token" (CR 111.1).
        #[serde(default = "any_card")]
        filter: Filter,
        /// Whose graveyard, seen from this permanent's controller.
        whose: GraveyardOwner,
        /// "And it wasn't cycled": a card discarded to pay a cycling cost still goes to the
        /// graveyard.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        unless_cycled: bool,
    },
    /// "If you would draw a card while your library has no cards in it, you win the game
    /// instead" (CR 614.1a, 121.4).
    DrawFromEmptyWins,
    /// "If an effect causes you to discard a card, discard it, but you may put it on top of
    /// your library instead" (Library of Leng). With `costs`, discards to pay costs too; a
    /// card discarded this way has undefined characteristics (CR 701.9c).
    DiscardToLibraryTop {
        /// Also for discards made to pay costs, not only those caused by effects.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        costs: bool,
    },
}

/// Kinds of [`StaticAbility`], one bit each, so that sets of them are masks (what the
/// battlefield index keeps of the permanents there).
pub(crate) mod static_kind {
    pub const COST_REDUCTION: u16 = 1;
    pub const COST_INCREASE: u16 = 1 << 1;
    pub const GRANT_STICKER_KICKER: u16 = 1 << 2;
    pub const PROHIBIT_CYCLING: u16 = 1 << 3;
    pub const CYCLING_COST_REDUCTION: u16 = 1 << 4;
    pub const OTHERS_GET_PER_COUNTER: u16 = 1 << 5;
    pub const CAST_FROM_GRAVEYARD: u16 = 1 << 6;
    pub const NO_MAXIMUM_HAND_SIZE: u16 = 1 << 7;
    pub const OPPONENT_MILLS_MORE: u16 = 1 << 8;
    pub const GRAVEYARD_TO_EXILE: u16 = 1 << 9;
    pub const DRAW_FROM_EMPTY_WINS: u16 = 1 << 10;
    pub const DISCARD_TO_LIBRARY_TOP: u16 = 1 << 11;
}

impl StaticAbility {
    /// Whether it changes other permanents' power and toughness (layer 7c). Those that do
    /// only add today, so a permanent with one entering makes no state-based action apply
    /// (`Object::sba_watched_entering`); one that could lower toughness or loyalty must make
    /// its permanent's entering watched too. (Every kind listed: a new one is decided here.)
    pub(crate) fn changes_others_pt(&self) -> bool {
        match self {
            StaticAbility::OthersGetPerCounter { .. } => true,
            StaticAbility::CostReduction { .. }
            | StaticAbility::CostIncrease { .. }
            | StaticAbility::GrantStickerKicker { .. }
            | StaticAbility::ProhibitCycling
            | StaticAbility::CyclingCostReduction { .. }
            | StaticAbility::CastFromGraveyard { .. }
            | StaticAbility::NoMaximumHandSize
            | StaticAbility::OpponentMillsMore { .. }
            | StaticAbility::GraveyardToExile { .. }
            | StaticAbility::DrawFromEmptyWins
            | StaticAbility::DiscardToLibraryTop { .. } => false,
        }
    }

    /// The [`static_kind`]s of `statics`, or-ed together.
    pub(crate) fn kinds_of(statics: &[StaticAbility]) -> u16 {
        statics.iter().fold(0, |kinds, st| kinds | st.kind())
    }

    /// Its [`static_kind`].
    pub(crate) fn kind(&self) -> u16 {
        use static_kind::*;
        match self {
            StaticAbility::CostReduction { .. } => COST_REDUCTION,
            StaticAbility::CostIncrease { .. } => COST_INCREASE,
            StaticAbility::GrantStickerKicker { .. } => GRANT_STICKER_KICKER,
            StaticAbility::ProhibitCycling => PROHIBIT_CYCLING,
            StaticAbility::CyclingCostReduction { .. } => CYCLING_COST_REDUCTION,
            StaticAbility::OthersGetPerCounter { .. } => OTHERS_GET_PER_COUNTER,
            StaticAbility::CastFromGraveyard { .. } => CAST_FROM_GRAVEYARD,
            StaticAbility::NoMaximumHandSize => NO_MAXIMUM_HAND_SIZE,
            StaticAbility::OpponentMillsMore { .. } => OPPONENT_MILLS_MORE,
            StaticAbility::GraveyardToExile { .. } => GRAVEYARD_TO_EXILE,
            StaticAbility::DrawFromEmptyWins => DRAW_FROM_EMPTY_WINS,
            StaticAbility::DiscardToLibraryTop { .. } => DISCARD_TO_LIBRARY_TOP,
        }
    }
}

/// Whose graveyard a graveyard replacement watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GraveyardOwner {
    /// Any player's graveyard.
    Any,
    /// The graveyard of this permanent's controller: cards they own.
    You,
    /// The graveyards of the controller's opponents: cards they own.
    Opponents,
}

/// A kicker ability (CR 702.33): its cost, and whether it may be paid any number of times.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kicker {
    /// The kicker cost, paid as an additional cost (CR 702.33a).
    pub cost: ManaCost,
    /// Multikicker (CR 702.33c): the cost may be paid any number of times.
    #[serde(default)]
    pub multi: bool,
    /// Sticker kicker: when kicked, the caster gets a ticket counter and may put a sticker on
    /// the spell (CR 702.33h).
    #[serde(default)]
    pub sticker: bool,
}

/// Everything a card does beyond its characteristics.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardRules {
    /// Kicker abilities printed on the card, in printed order: \[A\] then \[B\].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kicker: Vec<Kicker>,
    /// Flashback \[cost\] (CR 702.34): may be cast from the graveyard for this cost, then exiled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flashback: Option<ManaCost>,
    /// "If this card is in your opening hand, you may begin the game with it on the
    /// battlefield" (CR 103.6a).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub begin_on_battlefield: bool,
    /// The card has flash (CR 702.8).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flash: bool,
    /// Modes (CR 700.2): "choose one" / spree. The chosen modes' instructions run in printed
    /// order, after `spell`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modes: Vec<Mode>,
    /// How many modes may be chosen: `[min, max]` ("choose one" is [1, 1]; spree [1, n]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choose: Option<[u32; 2]>,
    /// "As an additional cost to cast this spell, discard a \[filter\] card" (CR 601.2b, f-h).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_discard: Option<Filter>,
    /// Targets of the spell, numbered from 0 in the instructions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<TargetSpec>,
    /// What the spell does as it resolves (instants and sorceries).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spell: Vec<Effect>,
    /// "Enters with N \[kind\] counters" (CR 614.1c), applied as the permanent spell resolves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enters_with_counters: Vec<EntersWithCounters>,
    /// "This permanent enters tapped" (CR 614.1c).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub enters_tapped: bool,
    /// "As this enters, ..." instructions, done as part of entering, before state-based actions
    /// look at it (CR 614.1c-d).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub as_enters: Vec<Effect>,
    /// A characteristic-defining ability setting power and toughness (CR 604.3, 208.2a).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_toughness: Option<PowerToughness>,
    /// Its mana abilities (CR 605), besides those of its basic land types (CR 305.6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mana: Vec<ManaAbility>,
    /// Its static abilities (CR 604); `"static"` in the card format.
    #[serde(default, rename = "static", skip_serializing_if = "Vec::is_empty")]
    pub statics: Vec<StaticAbility>,
    /// Its activated abilities other than mana abilities (CR 602), cycling included.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub activated: Vec<ActivatedAbility>,
    /// Its triggered abilities (CR 603).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<TriggeredAbility>,
    /// Oracle text the engine does not model yet, reported per card, never silently dropped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unsupported: Vec<String>,
}

impl CardRules {
    /// Whether it says nothing at all (the default): a record of it needs no `rules` object.
    pub fn is_empty(&self) -> bool {
        *self == CardRules::default()
    }
}
