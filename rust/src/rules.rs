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
    #[default]
    You,
    EachOpponent,
    EachPlayer,
    /// The player chosen for target `n` (or the controller of the object chosen for it).
    Target(usize),
    /// The controller of the object the triggering event was about ("that permanent's
    /// controller").
    TriggeringController,
}

/// A number an instruction uses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Amount {
    Fixed(u32),
    Dynamic(Dynamic),
}

impl From<u32> for Amount {
    fn from(n: u32) -> Amount {
        Amount::Fixed(n)
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
    pub kind: TargetKind,
    /// "up to N target ...": between 0 and N; otherwise exactly `count`.
    #[serde(default)]
    pub up_to: bool,
    #[serde(default = "one")]
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

/// Which kicking a kicked-only target needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum KickedRequirement {
    Any(bool),
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
    Draw {
        #[serde(default)]
        who: Who,
        count: Amount,
    },
    Mill {
        #[serde(default)]
        who: Who,
        count: Amount,
    },
    Scry {
        #[serde(default)]
        who: Who,
        count: Amount,
    },
    Discard {
        #[serde(default)]
        who: Who,
        count: Amount,
        #[serde(default)]
        random: bool,
    },
    Search {
        #[serde(default)]
        who: Who,
        #[serde(default = "any_card")]
        filter: Filter,
        #[serde(default = "one")]
        count: u32,
        to: Destination,
        #[serde(default)]
        reveal: bool,
        #[serde(default = "yes")]
        shuffle: bool,
        #[serde(default)]
        optional: bool,
    },
    /// The player shuffles their library (CR 701.24).
    Shuffle {
        #[serde(default)]
        who: Who,
    },
    /// Counter the spell chosen for a target (CR 701.6).
    Counter { target: usize },
    /// Deal damage to what was chosen for a target (CR 120).
    Damage { target: usize, amount: Amount },
    LoseLife {
        #[serde(default)]
        who: Who,
        amount: Amount,
    },
    GainLife {
        #[serde(default)]
        who: Who,
        amount: Amount,
    },
    /// "You may put a \[filter\] card from your hand onto the battlefield" (not playing it).
    PutFromHand {
        #[serde(default = "any_card")]
        filter: Filter,
        #[serde(default)]
        optional: bool,
        #[serde(default)]
        tapped: bool,
        /// "up to N": how many at most.
        #[serde(default = "one")]
        count: u32,
    },
    /// "You may put up to N \[filter\] cards from among the milled cards into your hand": the
    /// cards milled earlier by this same spell, found where they went if that zone is public
    /// (CR 701.17c).
    MilledToHand {
        #[serde(default = "any_card")]
        filter: Filter,
        count: u32,
    },
    /// Creates a delayed triggered ability (CR 603.7): `effects` happen when `when` next
    /// happens. It remembers the objects this resolution remembered (the duplicate).
    Delayed { when: DelayedWhen, effects: Vec<Effect> },
    /// "Conjure a duplicate of that spell into your hand": a new card with the printed
    /// characteristics of the spell that triggered this, owned by you (not a copy, not a token;
    /// none of the spell's choices carry over). It is remembered.
    ConjureDuplicate,
    /// "Discard the duplicate": the remembered cards, each only if it is still the same object
    /// in its owner's hand (CR 400.7). A discard for every purpose (CR 701.9).
    DiscardRemembered,
    /// "You may \[instructions\]": the controller chooses whether to do them (a decision). Whether
    /// they did is what a later "if you do" reads.
    May { then: Vec<Effect> },
    /// "You may pay \[cost\]. If you do, \[instructions\]": offered only if the cost can be paid;
    /// paid with the controller's mana sources (CR 117.12, 601.2g-h).
    MayPay { cost: ManaCost, then: Vec<Effect> },
    /// Put counters on what was chosen for a target, on the source, or on each creature the
    /// named players control.
    PutCounters { counter: String, count: Amount, on: CounterPlace },
    /// "\[Source\] gets +P/+T [and gains keywords] until end of turn" (CR 611.2a, 613.4c).
    Pump {
        #[serde(default)]
        power: i32,
        #[serde(default)]
        toughness: i32,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        keywords: Vec<String>,
    },
    /// "[Filter] creatures you control [with power N or greater] gain \[keywords\] until end of
    /// turn" (CR 611.2c: the set is fixed as it resolves). Hexproof and indestructible have
    /// their rules (CR 702.11, 702.12); other keywords are recorded.
    GrantEach {
        #[serde(default = "any_creature")]
        filter: Filter,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min_power: Option<i64>,
        keywords: Vec<String>,
    },
    /// Create tokens (CR 111): `count` copies of the token described by `token`.
    CreateToken {
        token: TokenSpec,
        #[serde(default = "one_amount")]
        count: Amount,
    },
    /// Tap what was chosen for a target.
    Tap { target: usize },
    /// Return what was chosen for a target to its owner's hand.
    Bounce { target: usize },
    /// Exile what was chosen for a target; the exiled card is remembered ("the exiled card").
    ExileTarget { target: usize },
    /// Exile every card in every graveyard.
    ExileAllGraveyards,
    /// Put the remembered cards onto the battlefield under their owners' control, each only if
    /// it is still the same object (CR 400.7).
    PutRememberedOntoBattlefield {
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        tapped: bool,
    },
    /// Destroy what was chosen for a target (CR 701.8): to its owner's graveyard.
    Destroy { target: usize },
    /// The controller wins the game (CR 104.2b).
    WinGame,
    /// Reveal the top `count` cards of the controller's library; they are remembered.
    RevealTop { count: u32 },
    /// "You may put a \[filter\] card from among them into your hand. Put the rest into your
    /// graveyard": the remembered revealed cards.
    PutRevealedToHand {
        #[serde(default = "any_card")]
        filter: Filter,
        #[serde(default = "one")]
        count: u32,
        /// Where the rest go.
        rest: RestGo,
    },
    /// Add mana to the controller's pool (CR 106.4), e.g. "add {B}{B}".
    AddMana { mana: ManaCost },
    If {
        cond: Condition,
        #[serde(default)]
        then: Vec<Effect>,
        #[serde(default, rename = "else")]
        otherwise: Vec<Effect>,
    },
}

/// Where "put counters" puts them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum CounterPlace {
    Target(usize),
    Source,
    /// On each creature the named players control.
    EachCreature(Who),
}

/// Where the cards revealed by [`Effect::RevealTop`] that weren't taken go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RestGo {
    Graveyard,
    LibraryBottom,
}

/// A token's characteristics (CR 111.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenSpec {
    /// The name of a card definition in the game's card database describing the token
    /// ("Drake", "Zombie", "Treasure").
    pub name: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tapped: bool,
}

/// The costs of an activated ability (CR 602.1a, 118).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbilityCost {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mana: Option<ManaCost>,
    /// {T} (CR 107.5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tap: bool,
    /// "Pay N life" (CR 119.4: only with at least N life).
    #[serde(default, skip_serializing_if = "is_zero")]
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
    pub remove_counters: Option<(String, u32)>,
    /// A loyalty cost (CR 606.4): +N puts loyalty counters on, -N removes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
    #[serde(default)]
    pub cost: AbilityCost,
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
    PutIntoYourGraveyardFromLibrary { filter: Filter },
    /// "Whenever an opponent discards a \[filter\] card" (CR 701.9c: a card discarded into a
    /// hidden zone has no characteristics to match).
    OpponentDiscards { filter: Filter },
    /// "At the beginning of [your / each] \[step\]" (CR 603.2, 513.1).
    BeginningOf {
        step: crate::turn::Step,
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
        #[serde(default)]
        another: bool,
    },
}

/// A triggered ability (CR 603): "[trigger condition], \[effect\]".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TriggeredAbility {
    pub when: Trigger,
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
    pub counter: String,
    pub count: Amount,
    #[serde(default, rename = "if", skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
}

/// Characteristic-defining power and toughness.
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
    CostReduction { filter: Filter, amount: u32 },
    /// "\[filter\] spells you cast cost {N} more to cast".
    CostIncrease { filter: Filter, amount: u32 },
    /// "\[filter\] spells you cast have sticker kicker \[cost\]" (CR 702.33h).
    GrantStickerKicker { filter: Filter, cost: ManaCost },
    /// "Players can't cycle cards" (Stabilizer; CR 602.5).
    ProhibitCycling,
    /// "Cycling abilities you activate cost you up to {N} less to activate" (generic only).
    CyclingCostReduction { up_to: u32 },
    /// "Other \[filter\] creatures you control get +1/+1 for each \[counter\] counter on this"
    /// (layer 7c, CR 613.4c).
    OthersGetPerCounter { filter: Filter, counter: String },
    /// "You may cast \[filter\] cards from your graveyard" (a permission, CR 601.2a).
    CastFromGraveyard { filter: Filter },
    /// "You have no maximum hand size" (CR 402.2).
    NoMaximumHandSize,
    /// "If \[whose\] opponent would mill one or more cards, they mill \[times\] times that many
    /// plus \[plus\] instead" (CR 614.1a); several apply in the order the milling player
    /// chooses (CR 616.1).
    OpponentMillsMore {
        #[serde(default = "one")]
        times: u32,
        #[serde(default)]
        plus: u32,
    },
    /// "If a \[filter\] card (or token) would be put into \[whose\] graveyard from anywhere
    /// [and it wasn't cycled], exile it instead" (CR 614.1a).
    GraveyardToExile {
        #[serde(default = "any_card")]
        filter: Filter,
        whose: GraveyardOwner,
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
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        costs: bool,
    },
}

/// Whose graveyard a graveyard replacement watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GraveyardOwner {
    Any,
    You,
    Opponents,
}

/// A kicker ability (CR 702.33): its cost, and whether it may be paid any number of times.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kicker {
    pub cost: ManaCost,
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
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mana: Vec<ManaAbility>,
    #[serde(default, rename = "static", skip_serializing_if = "Vec::is_empty")]
    pub statics: Vec<StaticAbility>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub activated: Vec<ActivatedAbility>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triggers: Vec<TriggeredAbility>,
    /// Oracle text the engine does not model yet, reported per card, never silently dropped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unsupported: Vec<String>,
}

impl CardRules {
    pub fn is_empty(&self) -> bool {
        *self == CardRules::default()
    }
}
