//! Paying mana costs (CR 601.2g–h, 118.3, 107.4, 119.4): an exact payment solver.
//!
//! Given a total cost with X already chosen (CR 601.2f), the mana already in the payer's pool
//! and the untapped mana sources they may tap, [`solve`] finds a legal payment whenever one
//! exists, [`solve_with`] checks (and completes) a payment whose sources the player chose, and
//! [`max_affordable`] counts how many times an extra cost such as multikicker can be added.
//!
//! ```
//! use mtgsim::mana::{Color, ManaCost};
//! use mtgsim::payment::{solve, CostToPay, ManaPool, ManaSource, ManaType};
//!
//! let island = |id| ManaSource::basic(id, ManaType::Color(Color::Blue));
//! let plains = |id| ManaSource::basic(id, ManaType::Color(Color::White));
//! let cost = CostToPay::from_cost(&ManaCost::parse("{W/U}{U}").unwrap(), 0, 20);
//! // The hybrid symbol must take the Plains so that the Island is left for {U}.
//! let paid = solve(&cost, &ManaPool::new(), &[island(1), plains(2)]).unwrap();
//! assert_eq!(paid.spent.to_string(), "{W}{U}");
//! assert_eq!(paid.life, 0);
//! ```
//!
//! # Model
//!
//! * Mana has six types (CR 106.1b): the five colors and colorless. [`ManaType::index`] is
//!   `Color as usize` for colors (W=0 … G=4) and 5 for colorless, the index into
//!   [`ManaPool::amounts`].
//! * A [`ManaSource`] is one mana ability of one untapped permanent: tapping it once produces
//!   `amount` mana, all of one type chosen from `options`. Mana a source makes beyond what the
//!   cost needs stays in the pool ([`Payment::leftover`], CR 118.3a: "excess mana remains").
//! * `{N}` and `{X}` are generic (CR 107.4b); `{C}` needs colorless mana (107.4c); `{W/U}` needs
//!   either color and `{2/W}` one white or two of any type (107.4e); `{W/P}` and `{W/U/P}` take
//!   one mana of a listed color or 2 life (107.4f), and life can be paid only while the total
//!   paid stays within the life available (119.4; 0 life can always be paid, 119.4b).
//! * `{S}` (one mana from a snow source, CR 107.4h) is refused when a cost is parsed: which
//!   mana a snow source made isn't tracked, and paying it with any mana would be wrong.
//!
//! # Preferences (when several payments are legal)
//!
//! 1. Spend as little life as possible: life pays a Phyrexian symbol only when mana can't.
//! 2. Pay `{2/C}` with one mana of its color rather than two generic when that works.
//! 3. [`solve`]: spend mana already in the pool before tapping sources. [`solve_with`]: spend
//!    the chosen sources' mana first and the pool only for the rest.
//! 4. Colored, colorless and hybrid requirements take the least flexible source that works
//!    (fewest types; ties by the caller's order), keeping flexible sources for later.
//! 5. Generic mana is paid last: from the pool (colorless first, then W, U, B, R, G), then
//!    from excess of tapped sources, then by tapping more sources in the same order, each
//!    producing the first type in its `options`.
//!
//! # How it works
//!
//! The common case (symbols only generic, `{C}` and single colors; every source makes one
//! type) is decided by counting, without search. Otherwise every required mana is a *unit*
//! with the set of types that may pay it (a bit mask; bit 6 means "or 2 life"), and supply is
//! mana of fixed type in the pool, sources, and life in 2-point steps. Whether the units can
//! all be paid is a bipartite matching question, answered exactly by Hall's theorem: for each
//! set `T` of types, the units payable only from `T` must not outnumber the supply able to
//! produce some type in `T`. Only unions of the units' type sets need checking, so the check
//! is a handful of sums. A source that makes several mana of one chosen type among several
//! (Gilded Lotus) can't be split, so its type is enumerated (identical sources symmetrically),
//! and beyond a thousand combinations searched with memory of the amounts of each type the
//! types chosen so far make. `{2/C}` symbols are split between colored and generic payment
//! in a fixed order of preference; the first payable split is found without listing them all
//! (`Builder::first_split`). The payment itself is built greedily; if the greedy build gets
//! stuck it is rebuilt unit by unit, keeping each choice only if the rest stays payable, which
//! always succeeds when a payment exists.

use std::fmt;

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::mana::{Color, ManaCost, ManaSymbol};

/// Index of colorless mana in [`ManaPool::amounts`].
const COLORLESS: usize = 5;
/// Type-set bit meaning "may be paid with 2 life".
const LIFE: u8 = 1 << 6;
/// Type set of generic mana: any of the six types.
const ANY_MANA: u8 = 0x3F;
/// Order in which pool mana pays generic costs: colorless first, then W, U, B, R, G.
const GENERIC_ORDER: [usize; 6] = [COLORLESS, 0, 1, 2, 3, 4];

/// A type of mana (CR 106.1b): one of the five colors, or colorless.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ManaType {
    /// Mana of one of the five colors.
    Color(Color),
    /// Colorless mana, `{C}` (CR 106.1b).
    Colorless,
}

impl ManaType {
    /// All six types in index order: W, U, B, R, G, C.
    pub const ALL: [ManaType; 6] = [
        ManaType::Color(Color::White),
        ManaType::Color(Color::Blue),
        ManaType::Color(Color::Black),
        ManaType::Color(Color::Red),
        ManaType::Color(Color::Green),
        ManaType::Colorless,
    ];

    /// The index into [`ManaPool::amounts`]: `Color as usize` (W=0 … G=4), colorless 5.
    #[inline]
    pub fn index(self) -> usize {
        match self {
            ManaType::Color(c) => c as usize,
            ManaType::Colorless => COLORLESS,
        }
    }

    /// `W`, `U`, `B`, `R`, `G` or `C`.
    pub fn letter(self) -> char {
        match self {
            ManaType::Color(c) => c.letter(),
            ManaType::Colorless => 'C',
        }
    }

    #[inline]
    fn bit(self) -> u8 {
        1 << self.index()
    }
}

impl From<Color> for ManaType {
    fn from(c: Color) -> ManaType {
        ManaType::Color(c)
    }
}

impl fmt::Display for ManaType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{}}}", self.letter())
    }
}

/// A set of mana types as bits (W, U, B, R, G, C): what a source can make. `Copy`, so
/// listing a player's sources allocates nothing per source.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ManaTypes(pub u8);

impl ManaTypes {
    /// The set holding only `t`.
    pub fn single(t: ManaType) -> ManaTypes {
        ManaTypes(t.bit())
    }
    /// Adds `t` to the set (no change if it is already there).
    pub fn insert(&mut self, t: ManaType) {
        self.0 |= t.bit();
    }
    /// Whether `t` is in the set.
    pub fn contains(&self, t: &ManaType) -> bool {
        self.0 & t.bit() != 0
    }
    /// True for the empty set: a source with these options makes no mana.
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }
    /// How many types are in the set.
    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }
    /// The types in W, U, B, R, G, C order.
    pub fn iter(&self) -> impl Iterator<Item = ManaType> + '_ {
        ManaType::ALL.into_iter().filter(move |t| self.contains(t))
    }
    /// The first type in W, U, B, R, G, C order (what a source makes for generic mana), or `None` if empty.
    pub fn first(&self) -> Option<ManaType> {
        // The lowest of the six types' bits (a type's bit is 1 << its index).
        let bits = self.0 & 0x3f;
        (bits != 0).then(|| ManaType::ALL[bits.trailing_zeros() as usize])
    }
}

impl FromIterator<ManaType> for ManaTypes {
    fn from_iter<I: IntoIterator<Item = ManaType>>(iter: I) -> ManaTypes {
        let mut m = ManaTypes::default();
        for t in iter {
            m.insert(t);
        }
        m
    }
}

/// Mana by type (CR 106.4): `amounts[t.index()]` for W, U, B, R, G, C.
///
/// Displays as its symbols in WUBRGC order, e.g. `{W}{U}{C}`; the empty pool displays as
/// the empty string.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ManaPool {
    /// Mana of each type, indexed by [`ManaType::index`]: W, U, B, R, G, then colorless.
    pub amounts: [u32; 6],
}

impl ManaPool {
    /// The pool with no mana in it (as mana pools are after emptying, CR 500.5).
    pub const EMPTY: ManaPool = ManaPool { amounts: [0; 6] };

    /// An empty pool.
    pub fn new() -> ManaPool {
        ManaPool::EMPTY
    }

    /// This pool with `n` more mana of type `t` (builder style).
    pub fn with(mut self, t: ManaType, n: u32) -> ManaPool {
        self.add(t, n);
        self
    }

    /// Parses `"{W}{W}{C}"` (only W, U, B, R, G and C symbols; `""` is empty).
    pub fn parse(text: &str) -> Option<ManaPool> {
        let mut pool = ManaPool::new();
        let mut rest = text.trim();
        while !rest.is_empty() {
            let body = rest.strip_prefix('{')?;
            let close = body.find('}')?;
            let t = match &body[..close] {
                "C" | "c" => ManaType::Colorless,
                s => ManaType::Color(Color::from_letter(&s.to_ascii_uppercase())?),
            };
            pool.add(t, 1);
            rest = &body[close + 1..];
        }
        Some(pool)
    }

    /// How much mana of type `t` is in the pool.
    #[inline]
    pub fn get(&self, t: ManaType) -> u32 {
        self.amounts[t.index()]
    }

    /// Adds `n` mana of type `t` (saturating).
    #[inline]
    pub fn add(&mut self, t: ManaType, n: u32) {
        let a = &mut self.amounts[t.index()];
        *a = a.saturating_add(n);
    }

    /// Removes `n` mana of type `t`; returns false and changes nothing if there isn't that much.
    pub fn remove(&mut self, t: ManaType, n: u32) -> bool {
        let a = &mut self.amounts[t.index()];
        if *a < n {
            return false;
        }
        *a -= n;
        true
    }

    /// All mana in the pool.
    #[inline]
    pub fn total(&self) -> u64 {
        self.amounts.iter().map(|&a| a as u64).sum()
    }

    /// True if the pool holds no mana of any type.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.amounts == [0; 6]
    }

    /// Whether this pool holds at least as much of every type as `other`.
    pub fn contains(&self, other: &ManaPool) -> bool {
        self.amounts.iter().zip(other.amounts).all(|(&a, b)| a >= b)
    }
}

impl fmt::Display for ManaPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for t in ManaType::ALL {
            for _ in 0..self.get(t) {
                write!(f, "{t}")?;
            }
        }
        Ok(())
    }
}

/// One untapped mana source the payer may use (one mana ability of one permanent): tapping it
/// once produces `amount` mana, all of ONE type chosen from `options`. A basic Island is
/// options `[U]`, amount 1; Canyon Slough `[B, R]`, 1; Everflowing Chalice with three charge
/// counters `[C]`, 3; Gilded Lotus `[W, U, B, R, G]`, 3. `id` names it in [`Payment::taps`]
/// and in [`solve_with`]; ids should be unique. A source with no options or amount 0 makes no
/// mana and is never tapped by [`solve`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ManaSource {
    /// The caller's name for this source, reported back in [`Payment::taps`].
    pub id: u64,
    /// The types it can make; each tap makes one of them.
    pub options: ManaTypes,
    /// Mana made per tap, all of the one chosen type.
    pub amount: u32,
}

impl ManaSource {
    /// A source making `amount` mana of one type chosen from `options` each time it is tapped.
    pub fn new(id: u64, options: impl IntoIterator<Item = ManaType>, amount: u32) -> ManaSource {
        ManaSource { id, options: options.into_iter().collect(), amount }
    }

    /// A source making one mana of one type (a basic land).
    pub fn basic(id: u64, t: ManaType) -> ManaSource {
        ManaSource { id, options: ManaTypes::single(t), amount: 1 }
    }

    /// The set of types it can make, as bits; 0 if it makes no mana.
    fn mask(&self) -> u8 {
        if self.amount == 0 {
            return 0;
        }
        self.options.0
    }
}

/// A cost's mana symbols, inline up to 8: costs are worked out on every payment and
/// payability test.
pub type Symbols = SmallVec<[ManaSymbol; 8]>;

/// The sources a payment taps and the type each makes: inline, since a payment rarely taps
/// more than a handful and one is worked out for every spell and ability paid for.
pub type Taps = SmallVec<[(u64, ManaType); 8]>;

/// What must be paid: the mana symbols of a total cost (CR 601.2f), the value chosen for X
/// (each `{X}` is `x` generic), and the payer's life total for Phyrexian symbols (life paid in
/// all may not exceed it, CR 119.4).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CostToPay {
    /// The mana symbols to pay, in any order (`{X}` included; its value is `x`).
    pub symbols: Symbols,
    /// The value chosen for X (CR 601.2b): each `{X}` symbol is that much generic mana.
    pub x: u32,
    /// The payer's life total: the most life Phyrexian symbols may take in all (CR 119.4); below 2,
    /// none can be paid with life.
    pub life_available: i64,
}

impl CostToPay {
    /// A cost of these symbols with X = `x`, paid by a player with `life_available` life.
    pub fn new(symbols: Vec<ManaSymbol>, x: u32, life_available: i64) -> CostToPay {
        CostToPay { symbols: SmallVec::from_vec(symbols), x, life_available }
    }

    /// The symbols of a printed or computed [`ManaCost`].
    pub fn from_cost(cost: &ManaCost, x: u32, life_available: i64) -> CostToPay {
        CostToPay { symbols: SmallVec::from_slice(cost.symbols()), x, life_available }
    }
}

impl fmt::Display for CostToPay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.symbols.is_empty() {
            return f.write_str("{0}");
        }
        for s in &self.symbols {
            write!(f, "{s}")?;
        }
        if self.symbols.contains(&ManaSymbol::X) {
            write!(f, " with X={}", self.x)?;
        }
        Ok(())
    }
}

/// A legal payment (CR 601.2g–h).
///
/// Invariants: every id in `taps` is distinct and each produced type is one of that source's
/// options; `from_pool` fits in the starting pool; starting pool + mana produced by `taps` =
/// `spent` + `leftover`; `spent` and `life` pay the cost exactly.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Payment {
    /// Sources to tap (mana abilities to activate, CR 601.2g) and the type each produces, in
    /// the order the solver chose them.
    pub taps: Taps,
    /// Mana taken from the pool as it was before the payment (excluding mana the taps made).
    pub from_pool: ManaPool,
    /// Life paid for Phyrexian symbols (2 per symbol).
    pub life: u32,
    /// The pool after paying: unspent starting mana plus excess from the taps (CR 118.3a).
    pub leftover: ManaPool,
    /// All mana spent on the cost, by type (from the pool and from the taps), e.g. for
    /// "if {R} was spent to cast it".
    pub spent: ManaPool,
}

/// A lower bound on how many of `sources` any payment of `cost` taps: the mana that life
/// can't pay for (CR 119.4: Phyrexian symbols), less what the pool holds, over the most one
/// source makes. It is the `min` of a "pay_mana" decision, so no answer it rules out is offered
/// as possible (an answer of that size may still not pay: the chosen sources must).
pub fn fewest_sources(cost: &CostToPay, pool: &ManaPool, sources: &[ManaSource]) -> u32 {
    let life_pays = cost.life_available >= 2;
    let need: u64 = cost
        .symbols
        .iter()
        .map(|s| match s {
            ManaSymbol::Generic(n) => u64::from(*n),
            ManaSymbol::X => u64::from(cost.x),
            ManaSymbol::Phyrexian(_) | ManaSymbol::HybridPhyrexian(..) if life_pays => 0,
            _ => 1, // one mana: a colored, colorless, hybrid ({2/W} as its color) or snow symbol
        })
        .sum();
    let pooled: u64 = pool.amounts.iter().map(|&a| u64::from(a)).sum();
    match sources.iter().map(|s| u64::from(s.amount)).max() {
        Some(most) if most > 0 => need.saturating_sub(pooled).div_ceil(most).min(sources.len() as u64) as u32,
        _ => 0,
    }
}

/// Finds a legal payment of `cost` from `pool` and `sources`, or `None` if none exists.
///
/// Exact: returns `Some` whenever any combination of taps, type choices, pool mana and life
/// pays the cost. See the module documentation for which payment is preferred.
pub fn solve(cost: &CostToPay, pool: &ManaPool, sources: &[ManaSource]) -> Option<Payment> {
    if let Some((need, generic)) = simple_needs(&cost.symbols, cost.x) {
        if let Some(answer) = solve_counted(&need, generic, pool, sources) {
            return answer;
        }
    }
    solve_general(cost, pool, sources, None).ok()
}

/// What [`solve`] answers for a cost whose symbols [`simple_needs`] counted as `need` and
/// `generic`, where counting decides it; `None` where it doesn't (a source with a choice).
/// A caller holding the count already (a card's plain cost) asks it without the symbols.
#[inline]
pub(crate) fn solve_counted(need: &[u64; 6], generic: u64, pool: &ManaPool, sources: &[ManaSource]) -> Option<Option<Payment>> {
    if need.iter().all(|&n| n == 0) && pool.is_empty() {
        solve_generic(generic, sources.iter().cloned())
    } else {
        solve_simple(need, generic, pool, sources)
    }
}

/// What is left of a cost counted by type as `need` and `generic` once the pool has paid
/// what it can, as [`solve_counted`] takes it: each type's symbols from its own mana, then
/// generic from what is left, colorless first. Returns the rest by type, the generic rest and
/// the pool left.
#[inline]
pub(crate) fn pay_from_pool(need: &[u64; 6], generic: u64, pool: &ManaPool) -> ([u64; 6], u64, ManaPool) {
    if pool.is_empty() {
        return (*need, generic, *pool);
    }
    let mut left = pool.amounts.map(u64::from);
    let mut rest = *need;
    for t in 0..6 {
        let k = left[t].min(rest[t]);
        left[t] -= k;
        rest[t] -= k;
    }
    let mut g = generic;
    for t in GENERIC_ORDER {
        let k = left[t].min(g);
        left[t] -= k;
        g -= k;
    }
    (rest, g, to_pool(&left))
}

/// Whether `cost` can be paid from `pool` and `sources` — [`solve`]'s answer without building
/// the payment. When every source makes a single type of mana and the cost has no hybrid or
/// Phyrexian symbols, counting decides it: each type's supply covers its own symbols and
/// whatever is left covers the generic part.
pub fn can_pay(cost: &CostToPay, pool: &ManaPool, sources: impl Iterator<Item = ManaSource> + Clone) -> bool {
    if simple_needs(&cost.symbols, cost.x).is_some() {
        if let (_, Some(have)) = supply(pool, sources.clone()) {
            return covered(cost, &have).expect("a simple cost");
        }
    }
    let sources: Vec<ManaSource> = sources.collect();
    solve(cost, pool, &sources).is_some()
}

/// The mana `pool` and `sources` could make: in all, and by type (W, U, B, R, G, C) when every
/// source makes a single type (`None` if one has a choice, which counting can't settle).
pub fn supply(pool: &ManaPool, sources: impl Iterator<Item = ManaSource>) -> (u64, Option<[u64; 6]>) {
    let mut count = SupplyCount::new(pool);
    for s in sources {
        count.add(s.options, s.amount);
    }
    count.finish()
}

/// [`supply`] counted source by source, for callers that find the sources themselves.
pub(crate) struct SupplyCount {
    have: [u64; 6],
    total: u64,
    single: bool,
}

impl SupplyCount {
    /// The count of the pool's mana alone.
    pub(crate) fn new(pool: &ManaPool) -> SupplyCount {
        let have = pool.amounts.map(u64::from);
        SupplyCount { have, total: have.iter().sum(), single: true }
    }

    /// Counts a source making `amount` mana of one of `options` per tap.
    #[inline]
    pub(crate) fn add(&mut self, options: ManaTypes, amount: u32) {
        self.total += amount as u64;
        match options.first() {
            Some(t) if options.len() == 1 => self.have[t.index()] += amount as u64,
            Some(_) => self.single = false,
            None => {}
        }
    }

    /// What [`supply`] answers.
    pub(crate) fn finish(self) -> (u64, Option<[u64; 6]>) {
        (self.total, self.single.then_some(self.have))
    }
}

/// What [`supply`] answers for `pool` and the untapped plain sources a player's
/// [`crate::game::UntappedMana`] counts, added type by type.
#[inline(always)]
pub(crate) fn supply_counted(pool: &ManaPool, counted: &crate::game::UntappedMana) -> (u64, Option<[u64; 6]>) {
    let have: [u64; 6] = std::array::from_fn(|t| u64::from(pool.amounts[t]) + u64::from(counted.by_type[t]));
    let total = have.iter().sum::<u64>() + u64::from(counted.choosing);
    (total, (counted.choosing == 0).then_some(have))
}

/// [`supply_counted`]'s total alone, without the count by type.
#[inline(always)]
pub(crate) fn supply_counted_total(pool: &ManaPool, counted: &crate::game::UntappedMana) -> u64 {
    pool.total() + counted.by_type.iter().map(|&n| u64::from(n)).sum::<u64>() + u64::from(counted.choosing)
}

/// Whether mana of these amounts by type (W, U, B, R, G, C) covers `cost`, by counting: each
/// type covers its own symbols and what is left the generic part. `None` if the cost has
/// symbols counting can't decide (hybrid, Phyrexian).
pub fn covered(cost: &CostToPay, have: &[u64; 6]) -> Option<bool> {
    covered_symbols(&cost.symbols, cost.x, have)
}

/// [`covered`] for a cost given as its symbols and the value of X.
pub fn covered_symbols(symbols: &[ManaSymbol], x: u32, have: &[u64; 6]) -> Option<bool> {
    let (need, generic) = simple_needs(symbols, x)?;
    Some(fits(&need, generic, have))
}

/// A cost counted by type (see [`simple_needs`]), with the types it needs any of marked and
/// its total: what [`fits`] decides, looking only at the types needed (one or two, most
/// often, of six).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct CountedNeeds {
    need: [u64; 6],
    /// Bit `t` set when `need[t]` isn't 0.
    needed: u8,
    /// All the cost's mana: its needs by type and its generic part.
    total: u64,
}

impl CountedNeeds {
    pub(crate) fn new(need: [u64; 6], generic: u64) -> CountedNeeds {
        let needed = (0..6).filter(|&t| need[t] != 0).fold(0u8, |m, t| m | 1 << t);
        CountedNeeds { need, needed, total: need.iter().sum::<u64>() + generic }
    }

    /// Whether mana of the amounts `have` by type, `total` in all, covers the cost: each type
    /// needed its own, and what is left the generic part (what [`fits`] finds).
    #[inline(always)]
    pub(crate) fn covered_by(&self, have: &[u64; 6], total: u64) -> bool {
        let mut needed = self.needed;
        while needed != 0 {
            let t = needed.trailing_zeros() as usize;
            if self.need[t] > have[t] {
                return false;
            }
            needed &= needed - 1;
        }
        total >= self.total
    }
}

/// Whether mana of these amounts by type covers `need` of each type and then `generic`.
#[inline]
pub(crate) fn fits(need: &[u64; 6], generic: u64, have: &[u64; 6]) -> bool {
    let mut spare = 0u64;
    for t in 0..6 {
        if need[t] > have[t] {
            return false;
        }
        spare += have[t] - need[t];
    }
    spare >= generic
}

/// Checks a payment whose sources the player chose: tapping exactly the sources in `chosen`
/// (each at most once, CR 118.3) plus mana from the pool must pay `cost`. Returns the full
/// payment (every chosen source appears in `taps`, with the types chosen for them; mana they
/// make beyond the cost is `leftover`) or why not. The chosen sources' mana is spent before
/// the pool's.
pub fn solve_with(cost: &CostToPay, pool: &ManaPool, sources: &[ManaSource], chosen: &[u64]) -> Result<Payment, String> {
    let mut indices = Vec::with_capacity(chosen.len());
    for (k, &id) in chosen.iter().enumerate() {
        if chosen[..k].contains(&id) {
            return Err(format!("source {id} is chosen more than once; a source can be tapped only once (CR 118.3)"));
        }
        let i = sources.iter().position(|s| s.id == id).ok_or_else(|| format!("no available mana source has id {id} (already tapped, or not one the payer controls?)"))?;
        if sources[i].options.is_empty() {
            return Err(format!("source {id} has no type of mana it can produce"));
        }
        indices.push(i);
    }
    solve_general(cost, pool, sources, Some(&indices)).map_err(|short| {
        let what = match short {
            Some(s) if s.types & ANY_MANA == ANY_MANA => {
                let life = if s.types & LIFE != 0 { " (or 2 life for a Phyrexian symbol)" } else { "" };
                format!("it needs {} mana in all{life}, but the pool and the chosen sources can make only {}", s.need, s.have)
            }
            Some(s) => format!("it needs {} mana that only {} can pay, but the pool and the chosen sources can make only {} of it", s.need, describe_types(s.types), s.have),
            None => "a source that makes several mana makes them all of one type, and no choice of types fits".to_string(),
        };
        let life = if cost.symbols.iter().any(|s| matches!(s, ManaSymbol::Phyrexian(_) | ManaSymbol::HybridPhyrexian(..))) {
            format!(", {} life available", cost.life_available)
        } else {
            String::new()
        };
        let pool_text = if pool.is_empty() { "empty".to_string() } else { pool.to_string() };
        format!("can't pay {cost} with the chosen sources {chosen:?} and pool {pool_text}{life}: {what}")
    })
}

/// The largest `n <= cap` such that `base` plus `n` copies of `per_kick` can be paid (how many
/// times a player can afford multikicker, CR 702.33c, or a similar repeatable extra cost).
/// `per_kick` uses `base.x` for any `{X}` and `base.life_available` is shared by all copies.
/// Returns 0 when even `base` can't be paid (check that with [`solve`] first).
pub fn max_affordable(base: &CostToPay, per_kick: &[ManaSymbol], pool: &ManaPool, sources: &[ManaSource], cap: u32) -> u32 {
    // (The total, all the pool and sources make, bounds the kicks below.)
    let (total, by_type) = supply(pool, sources.iter().cloned());
    // Where counting decides it (as in `can_pay`), the supply by type is found once, and the
    // answer worked out from it.
    if let Some(n) = by_type.and_then(|have| max_affordable_counted(base, per_kick, total, &have, cap)) {
        return n;
    }
    let (kick_generic, kick_other) = kick_parts(base, per_kick);
    let payable = |n: u64| {
        let mut cost = base.clone();
        let mut generic = kick_generic * n;
        while generic > 0 {
            let part = generic.min(u32::MAX as u64);
            cost.symbols.push(ManaSymbol::Generic(part as u32));
            generic -= part;
        }
        for _ in 0..n {
            cost.symbols.extend_from_slice(&kick_other);
        }
        can_pay(&cost, pool, sources.iter().cloned()) // counted, where counting decides it
    };
    if !payable(0) {
        return 0;
    }
    // Each kick needs at least this many units of mana or 2-life payments.
    let per_min = kick_generic + kick_other.len() as u64;
    if per_min == 0 || cap == 0 {
        return cap;
    }
    let supply = total + base.life_available.max(0) as u64 / 2;
    let (mut lo, mut hi) = (0u64, (cap as u64).min(supply / per_min));
    // Payability is monotone in n (dropping symbols from a payable cost leaves it payable).
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if payable(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo as u32
}

/// A kick's generic mana (its `{X}` as `base.x`) and its other symbols.
fn kick_parts(base: &CostToPay, per_kick: &[ManaSymbol]) -> (u64, Symbols) {
    let kick_generic: u64 = per_kick
        .iter()
        .map(|s| match *s {
            ManaSymbol::Generic(n) => n as u64,
            ManaSymbol::X => base.x as u64,
            _ => 0,
        })
        .sum();
    let kick_other: Symbols = per_kick.iter().copied().filter(|s| !matches!(s, ManaSymbol::Generic(_) | ManaSymbol::X)).collect();
    (kick_generic, kick_other)
}

/// What [`max_affordable`] answers where counting decides it: the base and the kick have only
/// symbols [`simple_needs`] counts, and the mana that pays is `have` by type, `total` in all
/// (what [`supply`] counts when every source makes one type). `None` where counting can't
/// decide it.
pub(crate) fn max_affordable_counted(base: &CostToPay, per_kick: &[ManaSymbol], total: u64, have: &[u64; 6], cap: u32) -> Option<u32> {
    let (kick_generic, kick_other) = kick_parts(base, per_kick);
    let ((base_need, base_generic), (kick_need, _)) = simple_needs(&base.symbols, base.x).zip(simple_needs(&kick_other, 0))?;
    if !fits(&base_need, base_generic, have) {
        return Some(0);
    }
    // Each kick needs at least this many units of mana or 2-life payments.
    let per_min = kick_generic + kick_other.len() as u64;
    if per_min == 0 || cap == 0 {
        return Some(cap);
    }
    let supply = total + base.life_available.max(0) as u64 / 2;
    // The largest n that fits is worked out rather than searched for (what a search from 0 up
    // to the bound the total sets finds is the smaller of it and that bound): each type keeps
    // what the base leaves of it for the kicks' symbols of it, and all that the base leaves,
    // less those symbols, pays the generic parts. (`fits` held for n = 0: nothing underflows.
    // Each kick's symbols are all counted here, so `per_min` is what one kick takes.)
    let (mut most, mut spare) = ((cap as u64).min(supply / per_min), 0u64);
    for t in 0..6 {
        let left = have[t] - base_need[t];
        spare += left;
        if let Some(kicks) = left.checked_div(kick_need[t]) {
            most = most.min(kicks);
        }
    }
    Some(most.min((spare - base_generic) / per_min) as u32)
}

// ---------------------------------------------------------------------------------------------
// Fast path: only generic, {C} and single-color symbols, every source makes one type.

/// Needed mana by type and generic total, if the cost has only generic, `{X}`, `{C}`
/// and single-color symbols.
#[inline]
pub(crate) fn simple_needs(symbols: &[ManaSymbol], x: u32) -> Option<([u64; 6], u64)> {
    let mut need = [0u64; 6];
    let mut generic = 0u64;
    for s in symbols {
        match *s {
            ManaSymbol::Generic(n) => generic += n as u64,
            ManaSymbol::X => generic += x as u64,
            ManaSymbol::Colored(c) => need[c as usize] += 1,
            ManaSymbol::Colorless => need[COLORLESS] += 1,
            _ => return None,
        }
    }
    Some((need, generic))
}

/// Solves a simple cost when every source makes a single type: the supply of each type is
/// fixed, so paying in order either succeeds or shows that nothing pays. `None` if not
/// applicable (some source has a choice).
///
/// Colored needs are paid from the pool, then by the sources of their type in order; generic
/// from what is left in the pool (colorless first), then from the excess of those taps, then
/// by the untapped sources in order. Steps that can't change anything (an empty pool, nothing
/// left to pay) are skipped. A type whose symbols outnumber its pool mana and sources is
/// still short once its sources are all tapped, and too little mana in all leaves generic
/// unpaid once every source is: the supply isn't counted first (a pass over the sources).
#[inline]
fn solve_simple(need: &[u64; 6], generic: u64, pool: &ManaPool, sources: &[ManaSource]) -> Option<Option<Payment>> {
    if sources.len() > 64 || sources.iter().any(|s| made_type(s).is_some() && s.options.len() > 1) {
        return None;
    }
    Some(solve_single_typed(need, generic, pool, sources.iter().cloned()))
}

/// [`solve_simple`] once it applies: at most 64 sources, each making a single type (or none).
#[inline]
fn solve_single_typed(need: &[u64; 6], generic: u64, pool: &ManaPool, sources: impl Iterator<Item = ManaSource> + Clone) -> Option<Payment> {
    let pooled = !pool.is_empty();
    let mut pool_left = pool.amounts.map(u64::from);
    let mut from_pool = [0u64; 6];
    let mut rest = *need;
    if pooled {
        for t in 0..6 {
            let k = pool_left[t].min(need[t]);
            from_pool[t] = k;
            pool_left[t] -= k;
            rest[t] -= k;
        }
    }
    let mut spent = *need;
    let mut short: u64 = rest.iter().sum();
    let mut taps = Taps::new();
    let mut tapped = 0u64;
    let mut excess = [0u64; 6];
    // Every source is single-typed here (the caller's condition).
    if short > 0 {
        for (i, s) in sources.clone().enumerate() {
            let Some(t) = made_type(&s) else { continue };
            if rest[t] > 0 {
                tapped |= 1 << i;
                taps.push((s.id, ManaType::ALL[t]));
                let amount = s.amount as u64;
                let k = amount.min(rest[t]);
                rest[t] -= k;
                short -= k;
                excess[t] += amount - k;
                if short == 0 {
                    break; // no later source is tapped for a color
                }
            }
        }
        if short > 0 {
            return None; // a type's pool mana and sources are too few for its symbols
        }
    }
    let mut g = generic;
    if pooled && g > 0 {
        for t in GENERIC_ORDER {
            let k = pool_left[t].min(g);
            pool_left[t] -= k;
            from_pool[t] += k;
            spent[t] += k;
            g -= k;
        }
    }
    // (Sources making one mana each, as lands do, leave no excess to spend.)
    if g > 0 && excess.iter().any(|&e| e > 0) {
        for t in GENERIC_ORDER {
            let k = excess[t].min(g);
            excess[t] -= k;
            spent[t] += k;
            g -= k;
        }
    }
    if g > 0 {
        for (i, s) in sources.enumerate() {
            let Some(t) = made_type(&s) else { continue };
            if tapped & (1 << i) == 0 {
                taps.push((s.id, ManaType::ALL[t]));
                let amount = s.amount as u64;
                let k = amount.min(g);
                spent[t] += k;
                excess[t] += amount - k;
                g -= k;
                if g == 0 {
                    break;
                }
            }
        }
    }
    if g > 0 {
        return None; // too little mana in all
    }
    // From an empty pool (the usual case) nothing was taken and only the taps' excess is left.
    let (from_pool, leftover) = if pooled { (to_pool(&from_pool), to_pool(&std::array::from_fn(|t| pool_left[t] + excess[t]))) } else { (ManaPool::EMPTY, to_pool(&excess)) };
    Some(Payment { taps, from_pool, life: 0, leftover, spent: to_pool(&spent) })
}

/// The index of the type a source makes for a simple payment: its first option; `None` if it
/// makes no mana (no option, or amount 0).
#[inline]
fn made_type(s: &ManaSource) -> Option<usize> {
    let bits = s.options.0 & 0x3f;
    (bits != 0 && s.amount > 0).then(|| bits.trailing_zeros() as usize)
}

/// [`solve_simple`] for its most common case, generic mana only from an empty pool (cycling
/// costs, most activations): the sources are tapped in order, each making its one type.
/// `None` if not applicable (some source has a choice). What [`solve`] answers for such a
/// cost, so a caller may ask it directly, with the sources one by one rather than listed.
#[inline]
pub(crate) fn solve_generic(generic: u64, sources: impl IntoIterator<Item = ManaSource>) -> Option<Option<Payment>> {
    let mut taps = Taps::new();
    let mut spent = [0u64; 6];
    let mut excess = [0u64; 6];
    let mut g = generic;
    for s in sources {
        let Some(first) = s.options.first() else { continue };
        if s.amount == 0 {
            continue;
        }
        if s.options.len() > 1 {
            return None;
        }
        if g > 0 {
            let t = first.index();
            taps.push((s.id, first));
            let amount = s.amount as u64;
            let k = amount.min(g);
            spent[t] += k;
            excess[t] += amount - k;
            g -= k;
        }
    }
    if g > 0 {
        return Some(None);
    }
    Some(Some(Payment { taps, from_pool: ManaPool::new(), life: 0, leftover: to_pool(&excess), spent: to_pool(&spent) }))
}

fn to_pool(a: &[u64; 6]) -> ManaPool {
    ManaPool { amounts: a.map(|v| v.min(u32::MAX as u64) as u32) }
}

// ---------------------------------------------------------------------------------------------
// General path.

/// Classes of required mana units, `(type set, count)`; bit 6 of a set means "or 2 life".
/// At most 31 distinct sets exist (6 single types, 10 hybrid pairs, 5 Phyrexian, 10 hybrid
/// Phyrexian), so they are stored inline.
#[derive(Copy, Clone, Debug)]
struct Demand {
    items: [(u8, u32); 32],
    len: usize,
}

impl Demand {
    const EMPTY: Demand = Demand { items: [(0, 0); 32], len: 0 };

    fn add(&mut self, mask: u8, n: u32) {
        match self.items[..self.len].iter_mut().find(|(m, _)| *m == mask) {
            Some(e) => e.1 += n,
            None => {
                self.items[self.len] = (mask, n);
                self.len += 1;
            }
        }
    }

    fn classes(&self) -> &[(u8, u32)] {
        &self.items[..self.len]
    }
}

/// Which sources are tapped: a bit set, on the heap only beyond 64 sources.
enum TapSet {
    Small(u64),
    Large(Vec<bool>),
}

impl TapSet {
    fn new(n: usize) -> TapSet {
        if n <= 64 {
            TapSet::Small(0)
        } else {
            TapSet::Large(vec![false; n])
        }
    }

    #[inline]
    fn get(&self, i: usize) -> bool {
        match self {
            TapSet::Small(bits) => bits & (1 << i) != 0,
            TapSet::Large(v) => v[i],
        }
    }

    #[inline]
    fn set(&mut self, i: usize, on: bool) {
        match self {
            TapSet::Small(bits) => {
                if on {
                    *bits |= 1 << i
                } else {
                    *bits &= !(1 << i)
                }
            }
            TapSet::Large(v) => v[i] = on,
        }
    }
}

/// Supply in Hall's check: `amount` units that can each be any type in `mask`, unless `whole`
/// (a multi-mana source with a choice), whose units must all be one type.
#[derive(Copy, Clone, Debug)]
struct Chunk {
    mask: u8,
    /// The mask before a type was fixed by enumeration.
    orig: u8,
    amount: u64,
    whole: bool,
}

impl Chunk {
    fn new(mask: u8, amount: u64) -> Chunk {
        Chunk { mask, orig: mask, amount, whole: amount > 1 && mask.count_ones() > 1 }
    }
}

/// A violated Hall condition: `need` units payable only by `types`, but only `have` supply.
#[derive(Copy, Clone, Debug)]
struct Shortfall {
    types: u8,
    need: u64,
    have: u64,
}

/// Hall's condition for paying `dem` plus `generic` from `chunks`, whole chunks relaxed to
/// splittable. Exact when no chunk is whole.
fn hall(dem: &[(u8, u32)], generic: u64, chunks: &[Chunk]) -> Result<(), Shortfall> {
    let mut union = 0u8;
    for &(m, n) in dem {
        if n > 0 {
            union |= m;
        }
    }
    let demand = |u: u8| dem.iter().filter(|&&(m, _)| m & !u == 0).map(|&(_, n)| n as u64).sum::<u64>();
    let supply = |u: u8| chunks.iter().filter(|c| c.mask & u != 0).map(|c| c.amount).sum::<u64>();
    // Unions of the units' type sets: subsets of `union`, plus (with generic) all mana types.
    let mut u = union;
    while u != 0 {
        let need = demand(u);
        if need > 0 {
            let have = supply(u);
            if need > have {
                return Err(Shortfall { types: u, need, have });
            }
        }
        u = (u - 1) & union;
    }
    if generic > 0 {
        let wide = [ANY_MANA, ANY_MANA | (union & LIFE)];
        let count = if union & LIFE != 0 { 2 } else { 1 };
        for &u in &wide[..count] {
            let need = generic + demand(u);
            let have = supply(u);
            if need > have {
                return Err(Shortfall { types: u, need, have });
            }
        }
    }
    Ok(())
}

/// Exact: whether `dem` plus `generic` can be paid from `chunks` (each whole chunk all of one
/// type of its mask). Few type choices are enumerated ([`feasible_enum`]); beyond
/// [`ENUMERATE_MAX`] combinations the search is memoised on the mana the chunks fixed so far
/// make of each type ([`feasible_memo`]), which stays small where 2^k choices would not (k
/// sources making several mana of one of two types: 22 of them took 0.7 s). Both answer the
/// same, so which one runs never changes a payment.
fn feasible(dem: &[(u8, u32)], generic: u64, chunks: &mut [Chunk]) -> bool {
    let mut combinations = 1u64;
    for c in chunks.iter() {
        if c.whole && c.mask.count_ones() > 1 {
            combinations = combinations.saturating_mul(c.mask.count_ones() as u64);
        }
    }
    if combinations <= ENUMERATE_MAX {
        feasible_enum(dem, generic, chunks)
    } else {
        feasible_memo(dem, generic, chunks)
    }
}

/// The most combinations of whole chunks' types [`feasible`] enumerates without memoising.
const ENUMERATE_MAX: u64 = 1024;

/// [`feasible`] by enumerating the type of each whole chunk (identical whole chunks in
/// non-decreasing type order, to skip permutations).
fn feasible_enum(dem: &[(u8, u32)], generic: u64, chunks: &mut [Chunk]) -> bool {
    if hall(dem, generic, chunks).is_err() {
        return false;
    }
    let Some(i) = chunks.iter().position(|c| c.whole && c.mask.count_ones() > 1) else {
        return true;
    };
    let this = chunks[i];
    let floor = chunks[..i].iter().rev().find(|c| c.whole && c.orig == this.orig && c.amount == this.amount).map_or(0, |c| c.mask);
    let mut bits = this.orig;
    while bits != 0 {
        let b = bits & bits.wrapping_neg();
        bits &= bits - 1;
        if b < floor {
            continue;
        }
        chunks[i].mask = b;
        if feasible_enum(dem, generic, chunks) {
            chunks[i].mask = this.orig;
            return true;
        }
    }
    chunks[i].mask = this.orig;
    false
}

/// [`feasible`] by depth-first search over the whole chunks' types, remembering the states
/// that failed. Once the first `k` whole chunks have types, what is left to decide depends
/// only on how much mana of each type they make, and amounts beyond everything `dem` and
/// `generic` need are all alike (every Hall condition a type takes part in is then met), so
/// the state is `k` and those amounts, capped. The number of states is polynomial in the
/// amounts (for two types, at most one per reachable total of one of them).
fn feasible_memo(dem: &[(u8, u32)], generic: u64, chunks: &mut [Chunk]) -> bool {
    struct Search<'a> {
        dem: &'a [(u8, u32)],
        generic: u64,
        whole: Vec<usize>,
        cap: u64,
        failed: std::collections::HashSet<(usize, [u64; 6])>,
    }
    impl Search<'_> {
        fn go(&mut self, k: usize, made: [u64; 6], chunks: &mut [Chunk]) -> bool {
            if self.failed.contains(&(k, made)) {
                return false;
            }
            if hall(self.dem, self.generic, chunks).is_err() {
                self.failed.insert((k, made));
                return false;
            }
            let Some(&i) = self.whole.get(k) else {
                return true;
            };
            let this = chunks[i];
            let mut bits = this.orig;
            while bits != 0 {
                let b = bits & bits.wrapping_neg();
                bits &= bits - 1;
                chunks[i].mask = b;
                let mut next = made;
                let t = b.trailing_zeros() as usize;
                next[t] = (next[t] + this.amount).min(self.cap);
                if self.go(k + 1, next, chunks) {
                    chunks[i].mask = this.orig;
                    return true;
                }
            }
            chunks[i].mask = this.orig;
            self.failed.insert((k, made));
            false
        }
    }
    let mut whole: Vec<usize> = (0..chunks.len()).filter(|&i| chunks[i].whole && chunks[i].mask.count_ones() > 1).collect();
    // Largest first: they decide most, so Hall's conditions cut the search earliest.
    whole.sort_by_key(|&i| std::cmp::Reverse(chunks[i].amount));
    // No Hall condition needs more than all of the demand.
    let cap = generic + dem.iter().map(|&(_, n)| n as u64).sum::<u64>();
    let mut search = Search { dem, generic, whole, cap, failed: Default::default() };
    search.go(0, [0; 6], chunks)
}

/// The cost broken into unit classes.
struct Analysis {
    fixed: Demand,
    generic: u64,
    /// `{2/C}` symbols per color.
    two_hybrid: [u64; 5],
    /// How many Phyrexian symbols may be paid with life.
    max_life_units: u64,
}

fn analyse(cost: &CostToPay) -> Analysis {
    let bit = |c: Color| 1u8 << (c as u8);
    let mut a = Analysis { fixed: Demand::EMPTY, generic: 0, two_hybrid: [0; 5], max_life_units: 0 };
    let mut phyrexian = 0u64;
    for s in &cost.symbols {
        match *s {
            ManaSymbol::Generic(n) => a.generic += n as u64,
            ManaSymbol::X => a.generic += cost.x as u64,
            ManaSymbol::Colored(c) => a.fixed.add(bit(c), 1),
            ManaSymbol::Colorless => a.fixed.add(1 << COLORLESS, 1),
            ManaSymbol::Hybrid(x, y) => a.fixed.add(bit(x) | bit(y), 1),
            ManaSymbol::TwoHybrid(c) => a.two_hybrid[c as usize] += 1,
            ManaSymbol::Phyrexian(c) => {
                a.fixed.add(bit(c) | LIFE, 1);
                phyrexian += 1;
            }
            ManaSymbol::HybridPhyrexian(x, y) => {
                a.fixed.add(bit(x) | bit(y) | LIFE, 1);
                phyrexian += 1;
            }
        }
    }
    // CR 119.4: the life paid in all (2 per symbol) can't exceed the life total.
    if cost.life_available >= 2 {
        a.max_life_units = phyrexian.min(cost.life_available as u64 / 2);
    }
    a
}

impl Analysis {
    /// Ways to pay the `{2/C}` symbols: how many of each color are paid with one colored mana
    /// (the rest with two generic), most colored first, then most W, most U, …: the order
    /// in which the solver prefers them. All of them, prod(k_c + 1): the solver finds the first
    /// payable one without listing them ([`Builder::first_split`]); kept as the tests' oracle.
    #[cfg(test)]
    fn splits(&self) -> Vec<[u64; 5]> {
        let mut out = vec![self.two_hybrid];
        for c in 0..5 {
            if self.two_hybrid[c] == 0 {
                continue;
            }
            let prev = std::mem::take(&mut out);
            for s in prev {
                for j in (0..=self.two_hybrid[c]).rev() {
                    let mut s2 = s;
                    s2[c] = j;
                    out.push(s2);
                }
            }
        }
        out.sort_by_key(|s| std::cmp::Reverse(s.iter().sum::<u64>()));
        out
    }

    /// The unit classes for one split of the `{2/C}` symbols, most restrictive first (single
    /// types, then hybrids, then those payable with life), and the generic total.
    fn demand(&self, split: &[u64; 5]) -> (Demand, u64) {
        let mut dem = self.fixed;
        let mut generic = self.generic;
        for (c, &colored) in split.iter().enumerate() {
            if colored > 0 {
                dem.add(1 << c, colored as u32);
            }
            generic += 2 * (self.two_hybrid[c] - colored);
        }
        // The sets are distinct, so this order is total.
        dem.items[..dem.len].sort_unstable_by_key(|&(m, _)| (m & LIFE != 0, m.count_ones(), m));
        (dem, generic)
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Mode {
    /// [`solve`]: pool before sources.
    PoolFirst,
    /// [`solve_with`]: the chosen sources before the pool, and every chosen source is tapped.
    SourcesFirst,
}

/// Builds a payment unit by unit.
struct Builder<'a> {
    sources: &'a [ManaSource],
    masks: &'a [u8],
    /// Candidate sources in preference order.
    order: &'a [usize],
    mode: Mode,
    tapped: TapSet,
    /// What is left of the starting pool.
    pool: [u64; 6],
    /// Mana made by taps and not yet spent.
    excess: [u64; 6],
    life_units: u64,
    from_pool: [u64; 6],
    spent: [u64; 6],
    life_paid: u64,
    taps: Taps,
    scratch: Vec<Chunk>,
}

impl<'a> Builder<'a> {
    fn new(sources: &'a [ManaSource], masks: &'a [u8], order: &'a [usize], mode: Mode, pool: &ManaPool, life_units: u64) -> Self {
        Builder {
            sources,
            masks,
            order,
            mode,
            tapped: TapSet::new(sources.len()),
            pool: pool.amounts.map(|a| a as u64),
            excess: [0; 6],
            life_units,
            from_pool: [0; 6],
            spent: [0; 6],
            life_paid: 0,
            taps: Taps::new(),
            scratch: Vec::new(),
        }
    }

    /// Whether the current state can still pay `dem` plus `generic`.
    fn can_pay(&mut self, dem: &[(u8, u32)], generic: u64) -> bool {
        let mut chunks = std::mem::take(&mut self.scratch);
        self.fill_chunks(&mut chunks);
        let ok = feasible(dem, generic, &mut chunks);
        self.scratch = chunks;
        ok
    }

    /// The supply of the current state: free mana by type, life, untapped sources.
    fn fill_chunks(&self, chunks: &mut Vec<Chunk>) {
        chunks.clear();
        for t in 0..6 {
            let a = self.pool[t] + self.excess[t];
            if a > 0 {
                chunks.push(Chunk::new(1 << t, a));
            }
        }
        if self.life_units > 0 {
            chunks.push(Chunk::new(LIFE, self.life_units));
        }
        for &i in self.order {
            if !self.tapped.get(i) {
                chunks.push(Chunk::new(self.masks[i], self.sources[i].amount as u64));
            }
        }
    }

    /// The first split of the `{2/C}` symbols in the order of `Analysis::splits` (most
    /// paid with colored mana first, then most W, most U, …) that the current state can pay,
    /// or `None`; found without listing the prod(k_c + 1) splits, which took seconds and then
    /// all memory for large k_c (Multikicker {2/W}{2/U}{2/B}{2/R}{2/G}).
    ///
    /// A split `s` (s_c of color C's symbols paid with one C) is payable when (1) its colored
    /// units and the cost's other units pass every Hall condition but the generic ones, and
    /// (2) the generic condition holds. The splits meeting (1) form a set `D` closed
    /// downwards (paying fewer with colored mana only relaxes those conditions), and (2)
    /// depends only on the sum of `s`, holding from some sum up. So the first payable split
    /// is, among the splits in `D` of the largest sum, the one with most W, then most U, …,
    /// if that sum passes (2); otherwise none is payable. When every source is splittable
    /// (no multi-mana source with a choice of type), `D` is the set of demands a network of
    /// supplies can meet, a polymatroid: every maximal split in it has the same sum, so the
    /// greedy split (most W, then most U given that, …, each by binary search) is the one.
    /// With such sources `D` is a union of polymatroids and the splits are walked lazily in
    /// order, from an upper bound on the sum (the greedy split with those sources relaxed to
    /// splittable), skipping colored prefixes already outside `D`.
    fn first_split(&self, a: &Analysis) -> Option<[u64; 5]> {
        let mut chunks = Vec::new();
        self.fill_chunks(&mut chunks);
        let member = |s: &[u64; 5], chunks: &mut [Chunk]| feasible(a.demand(s).0.classes(), 0, chunks);
        if !member(&[0; 5], &mut chunks) {
            return None;
        }
        // No split pays more {2/C} with C than all the C mana there is.
        let hi: [u64; 5] = std::array::from_fn(|c| a.two_hybrid[c].min(chunks.iter().filter(|k| k.mask & (1 << c) != 0).map(|k| k.amount).sum()));
        let greedy = |chunks: &mut [Chunk]| {
            let mut s = [0u64; 5];
            for c in 0..5 {
                let (mut lo, mut top) = (0, hi[c]);
                while lo < top {
                    s[c] = lo + (top - lo).div_ceil(2);
                    if member(&s, chunks) {
                        lo = s[c];
                    } else {
                        top = s[c] - 1;
                    }
                }
                s[c] = lo;
            }
            s
        };
        if chunks.iter().all(|k| !k.whole) {
            let s = greedy(&mut chunks);
            let (dem, generic) = a.demand(&s);
            return feasible(dem.classes(), generic, &mut chunks).then_some(s);
        }
        let mut relaxed = chunks.clone();
        for k in &mut relaxed {
            k.whole = false;
        }
        let top: u64 = greedy(&mut relaxed).iter().sum();
        // Hall's generic conditions (see `hall`), which depend on the split only by its sum.
        let fixed = a.fixed.classes();
        let life = fixed.iter().any(|&(m, _)| m & LIFE != 0);
        let fixed_mana: u64 = fixed.iter().filter(|&&(m, _)| m & LIFE == 0).map(|&(_, n)| n as u64).sum();
        let fixed_all: u64 = fixed.iter().map(|&(_, n)| n as u64).sum();
        let supply = |u: u8| chunks.iter().filter(|k| k.mask & u != 0).map(|k| k.amount).sum::<u64>();
        let (supply_mana, supply_all) = (supply(ANY_MANA), supply(ANY_MANA | LIFE));
        let two_total: u64 = a.two_hybrid.iter().sum();
        let generic_ok = |sum: u64| {
            let g = a.generic + 2 * (two_total - sum);
            g == 0 || (g + fixed_mana + sum <= supply_mana && (!life || g + fixed_all + sum <= supply_all))
        };
        let mut suffix = [0u64; 6];
        for c in (0..5).rev() {
            suffix[c] = suffix[c + 1] + hi[c];
        }
        /// Sets s[c..] to the first split in order with these colors summing to `left`, if
        /// one is payable.
        fn walk(c: usize, s: &mut [u64; 5], left: u64, hi: &[u64; 5], suffix: &[u64; 6], a: &Analysis, chunks: &mut [Chunk]) -> bool {
            if c == 5 {
                let (dem, generic) = a.demand(s);
                return left == 0 && feasible(dem.classes(), generic, chunks);
            }
            let lo = left.saturating_sub(suffix[c + 1]);
            let top = hi[c].min(left);
            // Once a prefix is in `D`, so are those with less of color c.
            let mut inside = false;
            for v in (lo..=top).rev() {
                s[c] = v;
                if c < 4 && v > 0 && !inside {
                    if !feasible(a.demand(s).0.classes(), 0, chunks) {
                        continue;
                    }
                    inside = true;
                }
                if walk(c + 1, s, left - v, hi, suffix, a, chunks) {
                    return true;
                }
            }
            s[c] = 0;
            false
        }
        let mut s = [0u64; 5];
        for sum in (0..=top.min(suffix[0])).rev() {
            if !generic_ok(sum) {
                break;
            }
            if walk(0, &mut s, sum, &hi, &suffix, a, &mut chunks) {
                return Some(s);
            }
        }
        None
    }

    /// The first shortfall of the current state against `dem` plus `generic`, if any.
    fn shortfall(&mut self, dem: &[(u8, u32)], generic: u64) -> Option<Shortfall> {
        self.can_pay(dem, generic);
        hall(dem, generic, &self.scratch).err()
    }

    /// Pays every unit of `dem`, then `generic`. With `check`, each choice is kept only if the
    /// rest stays payable (never fails if the whole was payable); without, greedy.
    fn run(&mut self, dem: &Demand, generic: u64, check: bool) -> bool {
        let mut dem = *dem;
        for ci in 0..dem.len {
            let mask = dem.items[ci].0;
            while dem.items[ci].1 > 0 {
                dem.items[ci].1 -= 1;
                if !self.pay_unit(mask, dem.classes(), generic, check) {
                    return false;
                }
            }
        }
        self.pay_generic(generic)
    }

    /// Pays one unit payable by the types (and maybe life) in `mask`; `dem` is what remains.
    fn pay_unit(&mut self, mask: u8, dem: &[(u8, u32)], generic: u64, check: bool) -> bool {
        // Pool mana and excess of one type are interchangeable for the rest of the payment, so
        // a type that failed from one source of free mana fails from the other too.
        let mut failed_free = 0u8;
        if self.mode == Mode::PoolFirst && self.pay_free(mask, dem, generic, check, true, &mut failed_free) {
            return true;
        }
        if self.pay_free(mask, dem, generic, check, false, &mut failed_free) {
            return true;
        }
        if self.pay_source(mask, dem, generic, check) {
            return true;
        }
        if self.mode == Mode::SourcesFirst && self.pay_free(mask, dem, generic, check, true, &mut failed_free) {
            return true;
        }
        if mask & LIFE != 0 && self.life_units > 0 {
            self.life_units -= 1;
            self.life_paid += 1;
            if !check || self.can_pay(dem, generic) {
                return true;
            }
            self.life_units += 1;
            self.life_paid -= 1;
        }
        false
    }

    fn pay_free(&mut self, mask: u8, dem: &[(u8, u32)], generic: u64, check: bool, from_pool: bool, failed: &mut u8) -> bool {
        let mut bits = mask & ANY_MANA & !*failed;
        while bits != 0 {
            let t = bits.trailing_zeros() as usize;
            let b = 1u8 << t;
            bits &= bits - 1;
            let have = if from_pool { self.pool[t] } else { self.excess[t] };
            if have == 0 {
                continue;
            }
            self.take_free(t, from_pool, 1);
            if !check || self.can_pay(dem, generic) {
                return true;
            }
            self.take_free(t, from_pool, 0);
            *failed |= b;
        }
        false
    }

    /// Takes one mana of type `t` from the pool or excess (`n` = 1), or puts it back (`n` = 0).
    fn take_free(&mut self, t: usize, from_pool: bool, n: u64) {
        let slot = if from_pool { &mut self.pool[t] } else { &mut self.excess[t] };
        if n == 1 {
            *slot -= 1;
            self.spent[t] += 1;
            if from_pool {
                self.from_pool[t] += 1;
            }
        } else {
            *slot += 1;
            self.spent[t] -= 1;
            if from_pool {
                self.from_pool[t] -= 1;
            }
        }
    }

    fn pay_source(&mut self, mask: u8, dem: &[(u8, u32)], generic: u64, check: bool) -> bool {
        let (sources, masks, order) = (self.sources, self.masks, self.order);
        // (source mask, amount, type) tried and failed: identical untapped sources are
        // interchangeable, so skip them.
        let mut failed: Vec<(u8, u32, usize)> = Vec::new();
        for &i in order {
            if self.tapped.get(i) || masks[i] & mask == 0 {
                continue;
            }
            let s = &sources[i];
            let mut seen = 0u8;
            for ty in s.options.iter() {
                let b = ty.bit();
                let t = ty.index();
                if mask & b == 0 || seen & b != 0 {
                    continue;
                }
                seen |= b;
                if failed.contains(&(masks[i], s.amount, t)) {
                    continue;
                }
                self.tapped.set(i, true);
                self.excess[t] += s.amount as u64 - 1;
                self.spent[t] += 1;
                self.taps.push((s.id, ty));
                if !check || self.can_pay(dem, generic) {
                    return true;
                }
                self.tapped.set(i, false);
                self.excess[t] -= s.amount as u64 - 1;
                self.spent[t] -= 1;
                self.taps.pop();
                failed.push((masks[i], s.amount, t));
            }
        }
        false
    }

    /// Pays `g` generic from free mana and then by tapping sources; false if it runs out.
    fn pay_generic(&mut self, mut g: u64) -> bool {
        if self.mode == Mode::PoolFirst {
            self.generic_from_free(&mut g, true);
        }
        self.generic_from_free(&mut g, false);
        let (sources, order) = (self.sources, self.order);
        for &i in order {
            if g == 0 {
                break;
            }
            if self.tapped.get(i) {
                continue;
            }
            let s = &sources[i];
            let ty = s.options.first().expect("sources that make mana have a type");
            let amount = s.amount as u64;
            let k = amount.min(g);
            self.tapped.set(i, true);
            self.taps.push((s.id, ty));
            self.spent[ty.index()] += k;
            self.excess[ty.index()] += amount - k;
            g -= k;
        }
        if self.mode == Mode::SourcesFirst {
            self.generic_from_free(&mut g, true);
        }
        g == 0
    }

    fn generic_from_free(&mut self, g: &mut u64, from_pool: bool) {
        for t in GENERIC_ORDER {
            let slot = if from_pool { &mut self.pool[t] } else { &mut self.excess[t] };
            let k = (*slot).min(*g);
            *slot -= k;
            *g -= k;
            self.spent[t] += k;
            if from_pool {
                self.from_pool[t] += k;
            }
        }
    }

    /// The payment; in [`Mode::SourcesFirst`] every chosen source not yet tapped is tapped
    /// for its first type, its mana left in the pool.
    fn finish(mut self, chosen: Option<&[usize]>) -> Payment {
        for &i in chosen.unwrap_or(&[]) {
            if !self.tapped.get(i) {
                let s = &self.sources[i];
                self.tapped.set(i, true);
                self.taps.push((s.id, s.options.first().expect("sources that make mana have a type")));
                self.excess[s.options.first().expect("sources that make mana have a type").index()] += s.amount as u64;
            }
        }
        let leftover: [u64; 6] = std::array::from_fn(|t| self.pool[t] + self.excess[t]);
        Payment {
            taps: self.taps,
            from_pool: to_pool(&self.from_pool),
            life: u32::try_from(self.life_paid * 2).unwrap_or(u32::MAX),
            leftover: to_pool(&leftover),
            spent: to_pool(&self.spent),
        }
    }
}

/// The general solver. `chosen` restricts the sources to those indices (all of which are
/// tapped) and spends their mana before the pool. On failure, a shortfall explaining why
/// (for the most colored split of `{2/C}` symbols and as much life as allowed), if Hall's
/// condition is what fails.
fn solve_general(cost: &CostToPay, pool: &ManaPool, sources: &[ManaSource], chosen: Option<&[usize]>) -> Result<Payment, Option<Shortfall>> {
    solve_general_by(cost, pool, sources, chosen, settle)
}

/// The signature of [`settle`] (the tests compare it with the old way of settling).
type Settle = fn(&Analysis, &[ManaSource], &[u8], &[usize], Mode, &ManaPool, Option<&[usize]>) -> Result<Payment, Option<Shortfall>>;

/// [`solve_general`], settling the payment with `settle`.
#[inline(always)]
fn solve_general_by(cost: &CostToPay, pool: &ManaPool, sources: &[ManaSource], chosen: Option<&[usize]>, settle: Settle) -> Result<Payment, Option<Shortfall>> {
    let analysis = analyse(cost);
    // Type sets of the sources and the candidate order, on the stack for up to 64 sources.
    let n = sources.len();
    let candidates = chosen.map_or(n, <[usize]>::len);
    let (mut mask_buf, mut order_buf) = ([0u8; 64], [0usize; 64]);
    let (mut mask_heap, mut order_heap) = (Vec::new(), Vec::new());
    let masks: &mut [u8] = if n <= 64 {
        &mut mask_buf[..n]
    } else {
        mask_heap.resize(n, 0);
        &mut mask_heap
    };
    for (m, s) in masks.iter_mut().zip(sources) {
        *m = s.mask();
    }
    let masks: &[u8] = masks;
    let space: &mut [usize] = if candidates <= 64 {
        &mut order_buf[..candidates]
    } else {
        order_heap.resize(candidates, 0);
        &mut order_heap
    };
    // Fewest types first; ties keep the caller's order.
    let mut len = 0;
    let mut present = 0u8;
    for &m in masks {
        present |= 1 << m.count_ones();
    }
    for types in 1..=6 {
        if present & (1 << types) == 0 {
            continue;
        }
        let mut push = |i: usize| {
            if masks[i].count_ones() == types {
                space[len] = i;
                len += 1;
            }
        };
        match chosen {
            Some(c) => c.iter().for_each(|&i| push(i)),
            None => (0..n).for_each(push),
        }
    }
    let order: &[usize] = &space[..len];
    let mode = if chosen.is_some() { Mode::SourcesFirst } else { Mode::PoolFirst };
    settle(&analysis, sources, masks, order, mode, pool, chosen)
}

/// [`solve_general`] once the candidate sources and their order are known.
///
/// Preference: least life first (mana before life), then the first split of the `{2/C}`
/// symbols in the order of `Analysis::splits` that can be paid. For that split a greedy
/// build is tried, then an exact one (the greedy build succeeds only on payable splits, so
/// trying it on earlier ones, as the solver once did, never chose anything else).
fn settle(a: &Analysis, sources: &[ManaSource], masks: &[u8], order: &[usize], mode: Mode, pool: &ManaPool, chosen: Option<&[usize]>) -> Result<Payment, Option<Shortfall>> {
    for life_units in 0..=a.max_life_units {
        // The most colored split comes first and is usually payable: try it greedily first.
        let (dem, generic) = a.demand(&a.two_hybrid);
        let mut greedy = Builder::new(sources, masks, order, mode, pool, life_units);
        if greedy.run(&dem, generic, false) {
            return Ok(greedy.finish(chosen));
        }
        let mut exact = Builder::new(sources, masks, order, mode, pool, life_units);
        let split = if a.two_hybrid == [0; 5] {
            a.two_hybrid
        } else {
            match exact.first_split(a) {
                Some(split) => split,
                None => continue,
            }
        };
        let (dem, generic) = a.demand(&split);
        if split != a.two_hybrid {
            let mut greedy = Builder::new(sources, masks, order, mode, pool, life_units);
            if greedy.run(&dem, generic, false) {
                return Ok(greedy.finish(chosen));
            }
        }
        if exact.can_pay(dem.classes(), generic) {
            let done = exact.run(&dem, generic, true);
            debug_assert!(done, "a payable cost must be built");
            if done {
                return Ok(exact.finish(chosen));
            }
        }
    }
    let (dem, generic) = a.demand(&a.two_hybrid);
    Err(Builder::new(sources, masks, order, mode, pool, a.max_life_units).shortfall(dem.classes(), generic))
}

/// "{W} or {U}", "{B} or 2 life".
fn describe_types(types: u8) -> String {
    let mut parts: Vec<String> = ManaType::ALL.iter().filter(|t| types & t.bit() != 0).map(|t| t.to_string()).collect();
    if types & LIFE != 0 {
        parts.push("2 life".to_string());
    }
    parts.join(" or ")
}

/// The first way of [`solve_simple`], which kept each source's type in a table and went
/// through every step whether or not it could change anything: the oracle for it.
#[cfg(test)]
fn solve_simple_old(need: &[u64; 6], generic: u64, pool: &ManaPool, sources: &[ManaSource]) -> Option<Option<Payment>> {
    const NONE: u8 = u8::MAX;
    if sources.len() > 64 {
        return None;
    }
    let mut kind = [NONE; 64];
    let mut have = [0u64; 6];
    for (i, s) in sources.iter().enumerate() {
        let Some(first) = s.options.first() else { continue };
        let _ = first;
        if s.amount == 0 {
            continue;
        }
        if s.options.len() > 1 {
            return None;
        }
        let t = first.index();
        kind[i] = t as u8;
        have[t] += s.amount as u64;
    }
    let mut pool_left = [0u64; 6];
    let mut total_need = generic;
    let mut total_have = 0u64;
    for t in 0..6 {
        pool_left[t] = pool.amounts[t] as u64;
        have[t] += pool_left[t];
        if need[t] > have[t] {
            return Some(None);
        }
        total_need += need[t];
        total_have += have[t];
    }
    if total_need > total_have {
        return Some(None);
    }

    let mut from_pool = [0u64; 6];
    let mut spent = *need;
    let mut rest = [0u64; 6];
    let mut short = false;
    for t in 0..6 {
        let k = pool_left[t].min(need[t]);
        from_pool[t] = k;
        pool_left[t] -= k;
        rest[t] = need[t] - k;
        short |= rest[t] > 0;
    }
    let mut taps = Taps::new();
    let mut tapped = 0u64;
    let mut excess = [0u64; 6];
    if short {
        for (i, s) in sources.iter().enumerate() {
            let t = kind[i] as usize;
            if t < 6 && rest[t] > 0 {
                tapped |= 1 << i;
                taps.push((s.id, s.options.first().expect("sources that make mana have a type")));
                let amount = s.amount as u64;
                let k = amount.min(rest[t]);
                rest[t] -= k;
                excess[t] += amount - k;
            }
        }
    }
    let mut g = generic;
    for t in GENERIC_ORDER {
        let k = pool_left[t].min(g);
        pool_left[t] -= k;
        from_pool[t] += k;
        spent[t] += k;
        g -= k;
    }
    for t in GENERIC_ORDER {
        let k = excess[t].min(g);
        excess[t] -= k;
        spent[t] += k;
        g -= k;
    }
    if g > 0 {
        for (i, s) in sources.iter().enumerate() {
            let t = kind[i] as usize;
            if t < 6 && tapped & (1 << i) == 0 {
                taps.push((s.id, s.options.first().expect("sources that make mana have a type")));
                let amount = s.amount as u64;
                let k = amount.min(g);
                spent[t] += k;
                excess[t] += amount - k;
                g -= k;
                if g == 0 {
                    break;
                }
            }
        }
    }
    debug_assert_eq!(g, 0);
    let mut leftover = [0u64; 6];
    for t in 0..6 {
        leftover[t] = pool_left[t] + excess[t];
    }
    Some(Some(Payment { taps, from_pool: to_pool(&from_pool), life: 0, leftover: to_pool(&leftover), spent: to_pool(&spent) }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    const W: ManaType = ManaType::Color(Color::White);
    const U: ManaType = ManaType::Color(Color::Blue);
    const B: ManaType = ManaType::Color(Color::Black);
    const R: ManaType = ManaType::Color(Color::Red);
    const G: ManaType = ManaType::Color(Color::Green);
    const C: ManaType = ManaType::Colorless;

    #[test]
    fn counted_needs_decide_what_fits_decides() {
        // Looking only at the types a cost needs, then at the totals, is `fits`: over random
        // needs and supplies, small (where they meet) and large.
        let mut rng = Rng::new(7);
        let mut agreed = [0; 2];
        for round in 0..20_000 {
            let top = if round % 4 == 0 { 1 << 40 } else { 4 };
            let need: [u64; 6] = std::array::from_fn(|_| if rng.below(3) == 0 { rng.below(top) } else { 0 });
            let have: [u64; 6] = std::array::from_fn(|_| rng.below(top + 2));
            let generic = rng.below(top * 2);
            let fits = fits(&need, generic, &have);
            assert_eq!(CountedNeeds::new(need, generic).covered_by(&have, have.iter().sum()), fits, "{need:?} {generic} {have:?}");
            agreed[fits as usize] += 1;
        }
        assert!(agreed.iter().all(|&n| n > 2_000), "both answers are tried: {agreed:?}");
    }

    fn cost(text: &str) -> CostToPay {
        CostToPay::from_cost(&ManaCost::parse(text).unwrap(), 0, 20)
    }

    fn land(id: u64, t: ManaType) -> ManaSource {
        ManaSource::basic(id, t)
    }

    fn pool(text: &str) -> ManaPool {
        ManaPool::parse(text).unwrap()
    }

    fn tapped_ids(p: &Payment) -> Vec<u64> {
        let mut ids: Vec<u64> = p.taps.iter().map(|t| t.0).collect();
        ids.sort_unstable();
        ids
    }

    /// Every option of one symbol: (mana type set to spend one mana from, generic, life units).
    fn symbol_options(s: ManaSymbol, x: u32) -> Vec<(Option<usize>, u64, u64)> {
        let c = |c: Color| Some(c as usize);
        match s {
            ManaSymbol::Generic(n) => vec![(None, n as u64, 0)],
            ManaSymbol::X => vec![(None, x as u64, 0)],
            ManaSymbol::Colored(k) => vec![(c(k), 0, 0)],
            ManaSymbol::Colorless => vec![(Some(COLORLESS), 0, 0)],
            ManaSymbol::Hybrid(a, b) => vec![(c(a), 0, 0), (c(b), 0, 0)],
            ManaSymbol::TwoHybrid(k) => vec![(c(k), 0, 0), (None, 2, 0)],
            ManaSymbol::Phyrexian(k) => vec![(c(k), 0, 0), (None, 0, 1)],
            ManaSymbol::HybridPhyrexian(a, b) => vec![(c(a), 0, 0), (c(b), 0, 0), (None, 0, 1)],
        }
    }

    /// Brute force: the least life units with which mana `m` pays `cost` (exactly, if
    /// `exact`: every mana of `m` spent), trying every way to pay every symbol.
    fn brute_pay(cost: &CostToPay, m: &[u64; 6], exact: bool) -> Option<u64> {
        #[allow(clippy::too_many_arguments)]
        fn go(syms: &[ManaSymbol], cost: &CostToPay, need: &mut [u64; 6], gen: u64, life: u64, m: &[u64; 6], exact: bool, best: &mut Option<u64>) {
            let Some((&s, rest)) = syms.split_first() else {
                if (0..6).any(|t| need[t] > m[t]) || (life > 0 && (2 * life) as i64 > cost.life_available) {
                    return;
                }
                let left: u64 = (0..6).map(|t| m[t] - need[t]).sum();
                if left < gen || (exact && left != gen) {
                    return;
                }
                if best.is_none_or(|b| life < b) {
                    *best = Some(life);
                }
                return;
            };
            for (t, g, l) in symbol_options(s, cost.x) {
                if let Some(t) = t {
                    need[t] += 1;
                }
                go(rest, cost, need, gen + g, life + l, m, exact, best);
                if let Some(t) = t {
                    need[t] -= 1;
                }
            }
        }
        let mut best = None;
        go(&cost.symbols, cost, &mut [0; 6], 0, 0, m, exact, &mut best);
        best
    }

    /// Brute force over every source (untapped, or tapped for each option): least life units
    /// of any legal payment, or `None`.
    fn brute(cost: &CostToPay, pool: &ManaPool, sources: &[ManaSource]) -> Option<u64> {
        fn go(i: usize, cost: &CostToPay, sources: &[ManaSource], m: &mut [u64; 6], best: &mut Option<u64>) {
            if i == sources.len() {
                if let Some(l) = brute_pay(cost, m, false) {
                    if best.is_none_or(|b| l < b) {
                        *best = Some(l);
                    }
                }
                return;
            }
            go(i + 1, cost, sources, m, best);
            for t in sources[i].options.iter() {
                m[t.index()] += sources[i].amount as u64;
                go(i + 1, cost, sources, m, best);
                m[t.index()] -= sources[i].amount as u64;
            }
        }
        let mut m = pool.amounts.map(|a| a as u64);
        let mut best = None;
        go(0, cost, sources, &mut m, &mut best);
        best
    }

    /// Checks every invariant of a payment independently of the solver.
    fn assert_legal(cost: &CostToPay, start: &ManaPool, sources: &[ManaSource], p: &Payment) {
        let mut produced = [0u64; 6];
        let mut ids = Vec::new();
        for &(id, t) in &p.taps {
            assert!(!ids.contains(&id), "source {id} tapped twice in {p:?}");
            ids.push(id);
            let s = sources.iter().find(|s| s.id == id).expect("tapped an unknown source");
            assert!(s.options.contains(&t), "source {id} can't make {t}");
            produced[t.index()] += s.amount as u64;
        }
        assert!(start.contains(&p.from_pool), "took more than the pool had: {p:?}");
        for (t, &made) in produced.iter().enumerate() {
            assert_eq!(start.amounts[t] as u64 + made, p.spent.amounts[t] as u64 + p.leftover.amounts[t] as u64, "mana not conserved for type {t}: {p:?}");
            assert!(p.from_pool.amounts[t] <= p.spent.amounts[t]);
        }
        assert_eq!(p.life % 2, 0);
        // The spent mana and life must pay the cost exactly, with that much life possible.
        let spent = p.spent.amounts.map(|a| a as u64);
        let units = p.life as u64 / 2;
        let exact_life = {
            // Find a way to pay exactly `spent` using exactly `units` life units.
            fn go(syms: &[ManaSymbol], x: u32, need: &mut [u64; 6], gen: u64, life: u64, m: &[u64; 6], units: u64) -> bool {
                let Some((&s, rest)) = syms.split_first() else {
                    if life != units || (0..6).any(|t| need[t] > m[t]) {
                        return false;
                    }
                    return (0..6).map(|t| m[t] - need[t]).sum::<u64>() == gen;
                };
                for (t, g, l) in symbol_options(s, x) {
                    if let Some(t) = t {
                        need[t] += 1;
                    }
                    let ok = go(rest, x, need, gen + g, life + l, m, units);
                    if let Some(t) = t {
                        need[t] -= 1;
                    }
                    if ok {
                        return true;
                    }
                }
                false
            }
            go(&cost.symbols, cost.x, &mut [0; 6], 0, 0, &spent, units)
        };
        assert!(exact_life, "spent {} and {} life don't pay {cost} exactly", p.spent, p.life);
        if p.life > 0 {
            assert!(p.life as i64 <= cost.life_available, "paid more life than available (CR 119.4)");
        }
    }

    #[test]
    fn exact_colored_payment_taps_only_needed_lands() {
        // CR 107.4a: colored mana in costs can be paid only with that color.
        let sources = [land(1, W), land(2, U), land(3, R), land(4, U)];
        let p = solve(&cost("{W}{U}{U}"), &ManaPool::new(), &sources).unwrap();
        assert_eq!(tapped_ids(&p), vec![1, 2, 4]);
        assert_eq!(p.spent, pool("{W}{U}{U}"));
        assert!(p.leftover.is_empty());
        assert_eq!(p.life, 0);
        assert_legal(&cost("{W}{U}{U}"), &ManaPool::new(), &sources, &p);
        // CR 118.3: not enough of the color, so no payment at all.
        assert_eq!(solve(&cost("{U}{U}{U}"), &ManaPool::new(), &sources), None);
        assert_eq!(solve(&cost("{G}"), &ManaPool::new(), &sources), None);
    }

    #[test]
    fn generic_paid_by_any_type() {
        // CR 107.4b: generic mana can be paid with any type of mana.
        let sources = [land(1, W), land(2, C), land(3, G)];
        let p = solve(&cost("{3}"), &ManaPool::new(), &sources).unwrap();
        assert_eq!(tapped_ids(&p), vec![1, 2, 3]);
        let p = solve(&cost("{2}{G}"), &pool("{R}"), &sources).unwrap();
        assert_eq!(p.from_pool, pool("{R}")); // pool mana before sources
        assert_eq!(p.spent.get(G), 1);
        assert_eq!(p.taps.len(), 2);
        assert_eq!(solve(&cost("{4}"), &ManaPool::new(), &sources), None);
    }

    #[test]
    fn colorless_symbol_needs_colorless_mana() {
        // CR 107.4c: {C} can be paid only with colorless mana.
        let colored = [land(1, W), land(2, U), land(3, B)];
        assert_eq!(solve(&cost("{C}"), &pool("{R}{G}"), &colored), None);
        let mut with_wastes = colored.to_vec();
        with_wastes.push(land(9, C));
        let p = solve(&cost("{1}{C}"), &ManaPool::new(), &with_wastes).unwrap();
        assert!(p.taps.contains(&(9, C)));
        assert_eq!(p.spent.get(C), 1);
        // A flexible source that can make {C} works too (general path).
        let flexible = [ManaSource::new(5, vec![U, C], 1)];
        let p = solve(&cost("{C}"), &ManaPool::new(), &flexible).unwrap();
        assert_eq!(p.taps.to_vec(), vec![(5, C)]);
    }

    #[test]
    fn hybrid_choice_needs_backtracking() {
        // CR 107.4e: {W/U} is paid with white or blue; the right choice depends on the rest.
        for sources in [vec![land(1, U), land(2, W)], vec![land(2, W), land(1, U)]] {
            let p = solve(&cost("{W/U}{U}"), &ManaPool::new(), &sources).unwrap();
            assert_eq!(tapped_ids(&p), vec![1, 2]);
            assert!(p.taps.contains(&(2, W)) && p.taps.contains(&(1, U)));
        }
        // Greedy would give the Island (listed first, equally inflexible) to {W/U} and strand
        // {U/B}; the exact search gives the Plains to {W/U}.
        let sources = [land(1, U), land(2, W)];
        let p = solve(&cost("{W/U}{U/B}"), &ManaPool::new(), &sources).unwrap();
        assert_eq!(p.spent, pool("{W}{U}"));
        assert_legal(&cost("{W/U}{U/B}"), &ManaPool::new(), &sources, &p);
        // Dual lands: {W} must take the W/B land so the W/U land can make {U}.
        let duals = [ManaSource::new(1, vec![W, U], 1), ManaSource::new(2, vec![W, B], 1)];
        let p = solve(&cost("{W}{U}"), &ManaPool::new(), &duals).unwrap();
        assert!(p.taps.contains(&(2, W)) && p.taps.contains(&(1, U)));
        assert_eq!(solve(&cost("{U}{U}"), &ManaPool::new(), &duals), None);
    }

    #[test]
    fn least_flexible_source_pays_colored_first() {
        // Preference (not a rule): keep the dual land for later when a basic can pay.
        let sources = [ManaSource::new(1, vec![W, U], 1), land(2, W), land(3, B)];
        let p = solve(&cost("{W}"), &ManaPool::new(), &sources).unwrap();
        assert_eq!(p.taps.to_vec(), vec![(2, W)]);
    }

    #[test]
    fn two_hybrid_paid_with_two_generic_or_one_colored() {
        // CR 107.4e: {2/W} is one white mana or two mana of any type.
        let islands = [land(1, U), land(2, U)];
        let p = solve(&cost("{2/W}"), &ManaPool::new(), &islands).unwrap();
        assert_eq!(p.spent, pool("{U}{U}"));
        assert_eq!(solve(&cost("{2/W}"), &ManaPool::new(), &islands[..1]), None);
        // One white mana is preferred when it works.
        let p = solve(&cost("{2/W}"), &ManaPool::new(), &[land(1, U), land(2, U), land(3, W)]).unwrap();
        assert_eq!(p.taps.to_vec(), vec![(3, W)]);
        // {2/W}{W} with one Plains: the Plains pays {W}, two Islands pay {2/W}.
        let sources = [land(3, W), land(1, U), land(2, U)];
        let p = solve(&cost("{2/W}{W}"), &ManaPool::new(), &sources).unwrap();
        assert_eq!(p.spent, pool("{W}{U}{U}"));
        assert_legal(&cost("{2/W}{W}"), &ManaPool::new(), &sources, &p);
    }

    #[test]
    fn phyrexian_paid_with_life_only_when_mana_cannot() {
        // CR 107.4f: {B/P} is one black mana or 2 life.
        let p = solve(&cost("{B/P}"), &ManaPool::new(), &[]).unwrap();
        assert_eq!(p.life, 2);
        assert!(p.taps.is_empty());
        // Mana first: the Swamp pays it and no life is spent.
        let p = solve(&cost("{B/P}"), &ManaPool::new(), &[land(1, B)]).unwrap();
        assert_eq!((p.life, p.taps.to_vec()), (0, vec![(1, B)]));
        // CR 119.4: a player can pay life only if their life total is at least the amount.
        let mut c = cost("{B/P}");
        c.life_available = 1;
        assert_eq!(solve(&c, &ManaPool::new(), &[]), None);
        let mut c = cost("{B/P}{B/P}");
        c.life_available = 3;
        let p = solve(&c, &ManaPool::new(), &[]);
        assert_eq!(p, None, "4 life in all can't be paid from 3");
        c.life_available = 4;
        assert_eq!(solve(&c, &ManaPool::new(), &[]).unwrap().life, 4);
        c.life_available = 3;
        assert_eq!(solve(&c, &ManaPool::new(), &[land(1, B)]).unwrap().life, 2);
        // Hybrid Phyrexian: the Island pays {G/U/P}, the other is life.
        let p = solve(&cost("{G/U/P}{G/U/P}"), &ManaPool::new(), &[land(1, U)]).unwrap();
        assert_eq!((p.life, p.spent), (2, pool("{U}")));
        // Least life overall: the Plains must pay {W/U}, so the Island can pay {U/P}.
        let sources = [land(1, U), land(2, W)];
        let p = solve(&cost("{W/U}{U/P}"), &ManaPool::new(), &sources).unwrap();
        assert_eq!(p.life, 0);
        // 0 life can always be paid, even at negative life (CR 119.4b).
        let mut c = cost("{B/P}");
        c.life_available = -3;
        assert_eq!(solve(&c, &ManaPool::new(), &[land(1, B)]).unwrap().life, 0);
    }

    #[test]
    fn x_adds_x_generic_per_symbol() {
        // CR 107.3, 601.2f: X is chosen before the total cost is locked in.
        let sources: Vec<ManaSource> = (0..4).map(|i| land(i, R)).collect();
        let mut c = cost("{X}{R}");
        c.x = 3;
        assert_eq!(solve(&c, &ManaPool::new(), &sources).unwrap().taps.len(), 4);
        assert_eq!(solve(&c, &ManaPool::new(), &sources[..3]), None);
        let mut c = cost("{X}{X}{R}");
        c.x = 2;
        assert_eq!(solve(&c, &ManaPool::new(), &sources[..3]), None);
        assert_eq!(solve(&c, &pool("{G}"), &sources).unwrap().from_pool, pool("{G}"));
    }

    #[test]
    fn pool_used_before_sources_and_leftover_reported() {
        // CR 601.2g-h, 118.3a: mana already in the pool pays first; the rest stays.
        let sources = [land(1, R)];
        let p = solve(&cost("{R}"), &pool("{R}{R}{G}"), &sources).unwrap();
        assert!(p.taps.is_empty());
        assert_eq!(p.from_pool, pool("{R}"));
        assert_eq!(p.leftover, pool("{R}{G}"));
        // Generic from the pool spends colorless before colors.
        let p = solve(&cost("{1}"), &pool("{U}{C}"), &sources).unwrap();
        assert_eq!((p.from_pool, p.leftover), (pool("{C}"), pool("{U}")));
        // The pool covers part, a land the rest.
        let p = solve(&cost("{1}{R}{R}"), &pool("{R}{G}"), &sources).unwrap();
        assert_eq!(p.taps.to_vec(), vec![(1, R)]);
        assert_eq!(p.from_pool, pool("{R}{G}"));
        assert!(p.leftover.is_empty());
    }

    #[test]
    fn multi_mana_source_leaves_excess_in_pool() {
        // CR 106.4, 118.3a: Everflowing Chalice with 3 counters makes {C}{C}{C} at once.
        let chalice = ManaSource::new(7, vec![C], 3);
        let p = solve(&cost("{1}{U}"), &ManaPool::new(), &[chalice.clone(), land(1, U)]).unwrap();
        assert_eq!(tapped_ids(&p), vec![1, 7]);
        assert_eq!(p.leftover, pool("{C}{C}"));
        // Gilded Lotus: three mana of any ONE color.
        let lotus = ManaSource::new(8, vec![W, U, B, R, G], 3);
        let p = solve(&cost("{G}{G}"), &ManaPool::new(), std::slice::from_ref(&lotus)).unwrap();
        assert_eq!((p.taps.to_vec(), p.leftover), (vec![(8, G)], pool("{G}")));
        assert_eq!(solve(&cost("{W}{U}"), &ManaPool::new(), std::slice::from_ref(&lotus)), None, "one type per activation");
        // Two Lotuses: one for white, one for blue.
        let lotus2 = ManaSource { id: 9, ..lotus.clone() };
        let p = solve(&cost("{W}{W}{W}{U}"), &ManaPool::new(), &[lotus.clone(), lotus2]).unwrap();
        assert_eq!(p.leftover, pool("{U}{U}"));
        // Lotus needs {U}{U}: with a Plains for {W} the lotus makes blue.
        let p = solve(&cost("{W}{U}{U}"), &ManaPool::new(), &[lotus, land(1, W)]).unwrap();
        assert_eq!(p.spent, pool("{W}{U}{U}"));
    }

    #[test]
    fn solve_with_accepts_sufficient_chosen_sources() {
        // CR 601.2g-h: the player activates the mana abilities they choose, then pays.
        let sources = [land(1, U), land(2, W), land(3, U), ManaSource::new(4, vec![W, U], 1)];
        let p = solve_with(&cost("{W/U}{U}"), &ManaPool::new(), &sources, &[1, 2]).unwrap();
        assert_eq!(tapped_ids(&p), vec![1, 2]);
        assert!(p.taps.contains(&(2, W)));
        // Every chosen source is tapped, even one not needed; its mana stays in the pool.
        let p = solve_with(&cost("{U}"), &ManaPool::new(), &sources, &[1, 2]).unwrap();
        assert_eq!(tapped_ids(&p), vec![1, 2]);
        assert_eq!(p.leftover, pool("{W}"));
        // Chosen sources pay before the pool; the pool only for the rest.
        let p = solve_with(&cost("{1}{U}"), &pool("{G}"), &sources, &[3]).unwrap();
        assert_eq!((p.from_pool, p.leftover), (pool("{G}"), ManaPool::new()));
        let p = solve_with(&cost("{U}"), &pool("{U}"), &sources, &[3]).unwrap();
        assert_eq!((p.from_pool, p.leftover), (ManaPool::new(), pool("{U}")));
        // No sources at all: the pool alone pays.
        assert_eq!(solve_with(&cost("{U}"), &pool("{U}"), &sources, &[]).unwrap().from_pool, pool("{U}"));
    }

    #[test]
    fn solve_with_rejects_bad_choices() {
        let sources = [land(1, U), land(2, W), land(3, U)];
        let c = cost("{2}{U}");
        // Too few (CR 118.3: can't pay without the resources).
        let e = solve_with(&c, &ManaPool::new(), &sources, &[1, 2]).unwrap_err();
        assert!(e.contains("needs 3 mana in all") && e.contains("only 2"), "{e}");
        // Wrong colors.
        let e = solve_with(&cost("{U}{U}"), &pool("{R}"), &sources, &[1, 2]).unwrap_err();
        assert!(e.contains("only {U} can pay"), "{e}");
        // Duplicates: a source can be tapped only once.
        let e = solve_with(&c, &ManaPool::new(), &sources, &[1, 1, 3]).unwrap_err();
        assert!(e.contains("more than once"), "{e}");
        // Unknown id.
        let e = solve_with(&c, &ManaPool::new(), &sources, &[1, 2, 99]).unwrap_err();
        assert!(e.contains("99"), "{e}");
        // Life: {B/P} with 1 life and no black source chosen.
        let mut p = cost("{B/P}");
        p.life_available = 1;
        let e = solve_with(&p, &ManaPool::new(), &sources, &[1]).unwrap_err();
        assert!(e.contains("{B} or 2 life"), "{e}");
        // A multi-mana source's mana is all one type.
        let lotus = [ManaSource::new(5, vec![W, U], 3)];
        let e = solve_with(&cost("{W}{U}"), &ManaPool::new(), &lotus, &[5]).unwrap_err();
        assert!(e.contains("one type"), "{e}");
    }

    #[test]
    fn max_affordable_counts_multikicker() {
        // CR 702.33c: multikicker {1}{G} may be paid any number of times.
        let base = cost("{1}{G}{G}"); // Gnarlid Pack
        let kick = ManaCost::parse("{1}{G}").unwrap();
        let forests = |n: u64| (0..n).map(|i| land(i, G)).collect::<Vec<_>>();
        let count = |srcs: &[ManaSource], cap| max_affordable(&base, kick.symbols(), &ManaPool::new(), srcs, cap);
        assert_eq!(count(&forests(2), 10), 0, "base unpayable");
        assert_eq!(count(&forests(3), 10), 0);
        assert_eq!(count(&forests(4), 10), 0);
        assert_eq!(count(&forests(5), 10), 1);
        assert_eq!(count(&forests(9), 10), 3);
        assert_eq!(count(&forests(9), 2), 2, "capped");
        // Three Forests and four Islands: only one G is left for kicks.
        let mut mixed = forests(3);
        mixed.extend((10..14).map(|i| land(i, U)));
        assert_eq!(count(&mixed, 10), 1);
        // A free kick is affordable up to the cap.
        assert_eq!(max_affordable(&base, &[ManaSymbol::Generic(0)], &ManaPool::new(), &forests(3), 7), 7);
        // Phyrexian kicks can use life.
        let mut b = cost("{G}");
        b.life_available = 5;
        assert_eq!(max_affordable(&b, &[ManaSymbol::Phyrexian(Color::Green)], &ManaPool::new(), &forests(2), 10), 3);
    }

    #[test]
    fn mana_pool_helpers_and_display() {
        let mut p = ManaPool::new().with(W, 1).with(U, 2).with(C, 1);
        assert_eq!(p.to_string(), "{W}{U}{U}{C}");
        assert_eq!(ManaPool::parse("{W}{U}{U}{C}"), Some(p));
        assert_eq!(p.total(), 4);
        assert!(!p.remove(B, 1));
        assert!(p.remove(U, 2));
        assert_eq!(p.to_string(), "{W}{C}");
        assert!(ManaPool::new().is_empty() && ManaPool::new().to_string().is_empty());
        assert_eq!(ManaPool::parse("{Q}"), None);
        assert_eq!(ManaPool::parse("{2}"), None);
        for t in ManaType::ALL {
            assert_eq!(ManaType::ALL[t.index()], t);
        }
        let paid = solve(&cost("{1}{U}"), &pool("{U}"), &[land(3, B)]).unwrap();
        let json = serde_json::to_string(&paid).unwrap();
        assert_eq!(serde_json::from_str::<Payment>(&json).unwrap(), paid);
    }

    #[test]
    fn empty_and_zero_costs_are_free() {
        // CR 118.5 / 107.4d: {0} can always be paid.
        let p = solve(&cost("{0}"), &ManaPool::new(), &[]).unwrap();
        assert!(p.taps.is_empty() && p.spent.is_empty() && p.life == 0);
        assert!(solve(&CostToPay::new(vec![], 0, 0), &pool("{U}"), &[]).unwrap().leftover == pool("{U}"));
    }

    #[test]
    fn many_sources_and_identical_multi_mana_sources() {
        // More than 64 sources (heap-backed bookkeeping): the lone Plains must pay {W}.
        let mut sources: Vec<ManaSource> = (0..70).map(|i| land(i, U)).collect();
        sources.push(land(70, W));
        let p = solve(&cost("{W/U}{W}{U}"), &ManaPool::new(), &sources).unwrap();
        assert!(p.taps.contains(&(70, W)));
        assert_eq!(p.taps.len(), 3);
        assert_eq!(solve(&cost("{U}{U}"), &ManaPool::new(), &sources).unwrap().taps.len(), 2);
        assert_eq!(solve(&cost("{W}{W}"), &ManaPool::new(), &sources), None);
        let p = solve_with(&cost("{W}{1}"), &ManaPool::new(), &sources, &[70, 3]).unwrap();
        assert_eq!(tapped_ids(&p), vec![3, 70]);
        // Ten Gilded Lotuses (each three mana of one color): WWW UUU BBB RRR GGGGG needs five,
        // and {G} x 16 needs six of them green; both found despite 5^10 type choices.
        let lotuses: Vec<ManaSource> = (0..10).map(|i| ManaSource::new(i, vec![W, U, B, R, G], 3)).collect();
        let c = cost("{W}{W}{W}{U}{U}{U}{B}{B}{B}{R}{R}{R}{G}{G}{G}{G}{G}");
        let p = solve(&c, &ManaPool::new(), &lotuses).unwrap();
        assert_legal(&c, &ManaPool::new(), &lotuses, &p);
        assert_eq!(p.taps.len(), 6);
        assert_eq!(solve(&cost("{C}"), &ManaPool::new(), &lotuses), None);
        // Four of each color plus three more green: 23 mana, fewer than the 30 the Lotuses
        // make, but W, U, B, R need two Lotuses each and seven green needs three: 11 > 10.
        // Only the exhaustive choice of types proves it (the count check passes).
        let mut sym = Vec::new();
        for color in Color::ALL {
            sym.extend([ManaSymbol::Colored(color); 4]);
        }
        sym.extend([ManaSymbol::Colored(Color::Green); 3]);
        let mut c = CostToPay::new(sym, 0, 20);
        assert_eq!(solve(&c, &ManaPool::new(), &lotuses), None);
        c.symbols.pop();
        let p = solve(&c, &ManaPool::new(), &lotuses).unwrap();
        assert_eq!(p.taps.len(), 10);
        assert_legal(&c, &ManaPool::new(), &lotuses, &p);
    }

    // The generic-only shortcut builds exactly the payment the counting solver would: the
    // same taps in the same order, the same excess, or the same "can't pay".
    #[test]
    fn generic_shortcut_agrees_with_counting_solver() {
        let mut rng = Rng::new(0x9e9e);
        for _ in 0..20_000 {
            let sources: Vec<ManaSource> = (0..rng.below(7))
                .map(|i| {
                    let amount = rng.below(3) as u32;
                    let types: Vec<ManaType> = match rng.below(6) {
                        0 => vec![],
                        1 => vec![ManaType::ALL[rng.below(6) as usize], ManaType::ALL[rng.below(6) as usize]],
                        _ => vec![ManaType::ALL[rng.below(6) as usize]],
                    };
                    ManaSource::new(i, types, amount)
                })
                .collect();
            let generic = rng.below(6);
            assert_eq!(solve_generic(generic, sources.iter().cloned()), solve_simple(&[0; 6], generic, &ManaPool::new(), &sources), "{{{generic}}} from {sources:?}");
        }
    }

    #[test]
    fn simple_solver_matches_its_first_way() {
        // The same payment, tap for tap, as the table-keeping first way, for costs of generic,
        // {C} and single-color symbols from pools and sources of every kind (some with a
        // choice, none, or amount 0; a few lists past 64).
        let mut rng = Rng::new(0x51e7);
        for _ in 0..50_000 {
            let n = if rng.below(50) == 0 { 60 + rng.below(8) } else { rng.below(9) };
            let sources: Vec<ManaSource> = (0..n)
                .map(|i| {
                    let amount = [0, 1, 1, 1, 2, 3][rng.below(6) as usize];
                    let types: Vec<ManaType> = match rng.below(12) {
                        0 => vec![],
                        1 => vec![ManaType::ALL[rng.below(6) as usize], ManaType::ALL[rng.below(6) as usize]],
                        _ => vec![ManaType::ALL[rng.below(6) as usize]],
                    };
                    ManaSource::new(i, types, amount)
                })
                .collect();
            let mut need = [0u64; 6];
            for _ in 0..rng.below(4) {
                need[rng.below(6) as usize] += 1;
            }
            let generic = rng.below(6);
            let mut start = ManaPool::new();
            if rng.below(3) == 0 {
                for _ in 0..rng.below(4) {
                    start.add(ManaType::ALL[rng.below(6) as usize], 1 + rng.below(2) as u32);
                }
            }
            assert_eq!(solve_simple(&need, generic, &start, &sources), solve_simple_old(&need, generic, &start, &sources), "{need:?} + {{{generic}}} from {start} and {sources:?}");
        }
    }

    fn random_instance(rng: &mut Rng) -> (CostToPay, ManaPool, Vec<ManaSource>) {
        let color = |rng: &mut Rng| Color::ALL[rng.below(5) as usize];
        let two_colors = |rng: &mut Rng| {
            let a = rng.below(5) as usize;
            let b = (a + 1 + rng.below(4) as usize) % 5;
            (Color::ALL[a], Color::ALL[b])
        };
        let n_syms = rng.below(6) as usize;
        let mut symbols = Vec::new();
        for _ in 0..n_syms {
            symbols.push(match rng.below(11) {
                0 | 1 => ManaSymbol::Generic(rng.below(3) as u32),
                2..=4 => ManaSymbol::Colored(color(rng)),
                5 => ManaSymbol::Colorless,
                6 => ManaSymbol::X,
                7 => {
                    let (a, b) = two_colors(rng);
                    ManaSymbol::Hybrid(a, b)
                }
                8 => ManaSymbol::TwoHybrid(color(rng)),
                9 => ManaSymbol::Phyrexian(color(rng)),
                _ => {
                    let (a, b) = two_colors(rng);
                    ManaSymbol::HybridPhyrexian(a, b)
                }
            });
        }
        let life = [-1, 0, 1, 2, 3, 4, 5, 20][rng.below(8) as usize];
        let cost = CostToPay::new(symbols, rng.below(3) as u32, life);
        let mut pool = ManaPool::new();
        for _ in 0..rng.below(3) {
            pool.add(ManaType::ALL[rng.below(6) as usize], 1);
        }
        let n_src = rng.below(6) as usize;
        let mut sources = Vec::new();
        for id in 0..n_src as u64 {
            let n_opt = [1, 1, 1, 2, 2, 3][rng.below(6) as usize];
            let mut options = Vec::new();
            while options.len() < n_opt {
                let t = ManaType::ALL[rng.below(6) as usize];
                if !options.contains(&t) {
                    options.push(t);
                }
            }
            let amount = [1, 1, 1, 1, 2, 3][rng.below(6) as usize];
            sources.push(ManaSource::new(id + 10, options, amount));
        }
        (cost, pool, sources)
    }

    #[test]
    fn brute_force_cross_check() {
        // Exactness (CR 601.2h: a cost can be paid iff the resources suffice): solve() finds a
        // payment iff exhaustive search does, with the least life, and every payment is legal.
        let mut rng = Rng::new(0x5eed);
        let (mut payable, mut with_life) = (0, 0);
        for case in 0..6000 {
            let (cost, start, sources) = random_instance(&mut rng);
            let expected = brute(&cost, &start, &sources);
            let got = solve(&cost, &start, &sources);
            assert_eq!(got.is_some(), expected.is_some(), "case {case}: {cost} pool {start} sources {sources:?} got {got:?}");
            // The payability test alone agrees, by counting when every source makes one type.
            assert_eq!(can_pay(&cost, &start, sources.iter().cloned()), expected.is_some(), "case {case}: can_pay");
            let single: Vec<ManaSource> = sources.iter().filter(|s| s.options.len() == 1).cloned().collect();
            assert_eq!(can_pay(&cost, &start, single.iter().cloned()), brute(&cost, &start, &single).is_some(), "case {case}: can_pay, one type each");
            let all: Vec<u64> = sources.iter().map(|s| s.id).collect();
            let with = solve_with(&cost, &start, &sources, &all);
            assert_eq!(with.is_ok(), expected.is_some(), "case {case}: solve_with all sources: {with:?}");
            if let (Some(p), Some(min_life)) = (got, expected) {
                payable += 1;
                with_life += (p.life > 0) as u32;
                assert_legal(&cost, &start, &sources, &p);
                assert_eq!(p.life as u64, 2 * min_life, "case {case}: {cost} pool {start} {sources:?}: not least life: {p:?}");
                let w = with.unwrap();
                assert_legal(&cost, &start, &sources, &w);
                assert_eq!(tapped_ids(&w), all.to_vec());
                assert_eq!(w.life as u64, 2 * min_life);
                // Tapping exactly the sources solve() chose also works.
                let ids: Vec<u64> = p.taps.iter().map(|t| t.0).collect();
                assert!(solve_with(&cost, &start, &sources, &ids).is_ok(), "case {case}");
            }
        }
        assert!(payable > 1500 && with_life > 100, "instances too one-sided: {payable} payable, {with_life} with life");
    }

    #[test]
    fn max_affordable_matches_linear_scan() {
        let mut rng = Rng::new(77);
        for _ in 0..300 {
            let (base, start, sources) = random_instance(&mut rng);
            let (kick, _, _) = random_instance(&mut rng);
            let kick = &kick.symbols[..kick.symbols.len().min(2)];
            let mut expected = 0;
            if solve(&base, &start, &sources).is_some() {
                for n in 1..=6u32 {
                    let mut c = base.clone();
                    for _ in 0..n {
                        c.symbols.extend_from_slice(kick);
                    }
                    if solve(&c, &start, &sources).is_none() {
                        break;
                    }
                    expected = n;
                }
            }
            assert_eq!(max_affordable(&base, kick, &start, &sources, 6), expected, "{base} + n x {kick:?}");
        }
    }

    #[test]
    fn one_kick_is_affordable_when_the_cost_with_it_can_be_paid() {
        // CR 702.33c: an ordinary kicker is paid at most once, and the cast asks only whether
        // the cost with it can be paid; that must be what max_affordable answers with cap 1.
        let mut rng = Rng::new(1701);
        for _ in 0..3000 {
            let (base, start, sources) = random_instance(&mut rng);
            let (kick, _, _) = random_instance(&mut rng);
            let kick = &kick.symbols[..kick.symbols.len().min(2)];
            let mut with = base.clone();
            with.symbols.extend_from_slice(kick);
            assert_eq!(max_affordable(&base, kick, &start, &sources, 1), u32::from(can_pay(&with, &start, sources.iter().cloned())), "{base} + {kick:?}");
        }
    }

    #[test]
    fn nothing_to_pay_taps_nothing() {
        // CR 118.5: a cost of nothing is paid without tapping anything, whatever the sources
        // (single- or several-typed, none making mana), from an empty pool.
        let mut rng = Rng::new(4242);
        let none = ManaPool::new();
        let nothing = Payment { taps: Taps::new(), from_pool: none, life: 0, leftover: none, spent: none };
        for _ in 0..2000 {
            let (_, _, sources) = random_instance(&mut rng);
            for symbols in [vec![], vec![ManaSymbol::Generic(0)], vec![ManaSymbol::X]] {
                assert_eq!(solve(&CostToPay::new(symbols, 0, 20), &none, &sources), Some(nothing.clone()), "{sources:?}");
            }
        }
    }

    /// The old way of settling a payment: list every split of the `{2/C}` symbols, sorted,
    /// and try greedy and exact builds on each in turn. The oracle for [`settle`].
    fn settle_old(
        analysis: &Analysis,
        sources: &[ManaSource],
        masks: &[u8],
        order: &[usize],
        mode: Mode,
        pool: &ManaPool,
        chosen: Option<&[usize]>,
    ) -> Result<Payment, Option<Shortfall>> {
        let no_split = [[0u64; 5]];
        let many_splits;
        let splits: &[[u64; 5]] = if analysis.two_hybrid == [0; 5] {
            &no_split
        } else {
            many_splits = analysis.splits();
            &many_splits
        };
        for life_units in 0..=analysis.max_life_units {
            for split in splits {
                let (dem, generic) = analysis.demand(split);
                let mut greedy = Builder::new(sources, masks, order, mode, pool, life_units);
                if greedy.run(&dem, generic, false) {
                    return Ok(greedy.finish(chosen));
                }
                let mut exact = Builder::new(sources, masks, order, mode, pool, life_units);
                if exact.can_pay(dem.classes(), generic) {
                    let done = exact.run(&dem, generic, true);
                    debug_assert!(done, "a payable cost must be built");
                    if done {
                        return Ok(exact.finish(chosen));
                    }
                }
            }
        }
        let (dem, generic) = analysis.demand(&splits[0]);
        Err(Builder::new(sources, masks, order, mode, pool, analysis.max_life_units).shortfall(dem.classes(), generic))
    }

    /// Many `{2/C}` symbols among others, and sources of one or several types and amounts.
    fn two_hybrid_instance(rng: &mut Rng) -> (CostToPay, ManaPool, Vec<ManaSource>) {
        let color = |rng: &mut Rng| Color::ALL[rng.below(5) as usize];
        // Few colors at a time, so that colors compete for the same sources.
        let palette: Vec<Color> = (0..1 + rng.below(3)).map(|_| color(rng)).collect();
        let pick = |rng: &mut Rng| palette[rng.below(palette.len() as u64) as usize];
        let mut symbols = Vec::new();
        for _ in 0..rng.below(9) {
            symbols.push(match rng.below(10) {
                0..=4 => ManaSymbol::TwoHybrid(pick(rng)),
                5 => ManaSymbol::Generic(1 + rng.below(3) as u32),
                6 => ManaSymbol::Colored(pick(rng)),
                7 => ManaSymbol::Hybrid(pick(rng), color(rng)),
                8 => ManaSymbol::Phyrexian(pick(rng)),
                _ => ManaSymbol::Colorless,
            });
        }
        symbols.retain(|s| !matches!(s, ManaSymbol::Hybrid(a, b) if a == b));
        let life = [0, 2, 4, 20][rng.below(4) as usize];
        let cost = CostToPay::new(symbols, 0, life);
        let mut pool = ManaPool::new();
        for _ in 0..rng.below(3) {
            let t = if rng.below(3) == 0 { C } else { pick(rng).into() };
            pool.add(t, 1);
        }
        let mut sources = Vec::new();
        for id in 0..rng.below(9) {
            let mut options = vec![if rng.below(5) == 0 { C } else { pick(rng).into() }];
            for _ in 0..[0, 0, 1, 1, 2][rng.below(5) as usize] {
                let t: ManaType = if rng.below(2) == 0 { pick(rng).into() } else { color(rng).into() };
                if !options.contains(&t) {
                    options.push(t);
                }
            }
            let amount = [1, 1, 1, 2, 3][rng.below(5) as usize];
            sources.push(ManaSource::new(id + 10, options, amount));
        }
        (cost, pool, sources)
    }

    // Finding the first payable split of {2/C} symbols without listing them all chooses the
    // same payment, taps in the same order, or the same shortfall as listing them did.
    #[test]
    fn first_split_matches_listing_every_split() {
        let mut rng = Rng::new(0x2c2c);
        let (mut payable, mut not_first, mut whole) = (0, 0, 0);
        for case in 0..30_000 {
            let (cost, start, sources) = if case % 4 == 3 { random_instance(&mut rng) } else { two_hybrid_instance(&mut rng) };
            let all: Vec<usize> = (0..sources.len()).collect();
            let some: Vec<usize> = all.iter().copied().filter(|_| rng.below(3) != 0).collect();
            for chosen in [None, Some(&all[..]), Some(&some[..])] {
                let new = solve_general_by(&cost, &start, &sources, chosen, settle);
                let old = solve_general_by(&cost, &start, &sources, chosen, settle_old);
                assert_eq!(format!("{new:?}"), format!("{old:?}"), "case {case}: {cost} pool {start} sources {sources:?} chosen {chosen:?}");
                if let Ok(p) = &new {
                    payable += 1;
                    // Some {2/C} paid with two generic: more mana and life spent than symbols.
                    let least: u64 = cost.symbols.iter().map(|s| if let ManaSymbol::Generic(n) = s { *n as u64 } else { 1 }).sum();
                    not_first += (p.spent.total() + p.life as u64 / 2 > least) as u32;
                    whole += sources.iter().any(|s| s.amount > 1 && s.options.len() > 1) as u32;
                }
            }
        }
        assert!(payable > 20_000 && not_first > 3_000 && whole > 5_000, "instances too one-sided: {payable} payable, {not_first} not all colored, {whole} with whole sources");
    }

    // The memoised search over whole chunks' types answers as enumerating them does.
    #[test]
    fn memoised_feasibility_matches_enumeration() {
        let mut rng = Rng::new(0xfea5);
        let mut yes = 0;
        for case in 0..20_000 {
            let types = 2 + rng.below(4) as u32; // mana types in play: the first `types`
            let mask = |rng: &mut Rng| loop {
                let m = (rng.below(1 << types) as u8) & ANY_MANA;
                if m != 0 {
                    return m;
                }
            };
            let mut dem = Demand::EMPTY;
            for _ in 0..rng.below(5) {
                let m = if rng.below(4) == 0 { mask(&mut rng) | LIFE } else { mask(&mut rng) };
                dem.add(m, 1 + rng.below(4) as u32);
            }
            dem.items[..dem.len].sort_unstable_by_key(|&(m, _)| (m & LIFE != 0, m.count_ones(), m));
            let generic = rng.below(5);
            let mut chunks = Vec::new();
            if rng.below(2) == 0 {
                chunks.push(Chunk::new(LIFE, 1 + rng.below(2)));
            }
            for _ in 0..rng.below(9) {
                chunks.push(Chunk::new(mask(&mut rng), 1 + rng.below(4)));
            }
            let before: Vec<(u8, u8, u64, bool)> = chunks.iter().map(|c| (c.mask, c.orig, c.amount, c.whole)).collect();
            let old = feasible_enum(dem.classes(), generic, &mut chunks);
            let new = feasible_memo(dem.classes(), generic, &mut chunks);
            let after: Vec<(u8, u8, u64, bool)> = chunks.iter().map(|c| (c.mask, c.orig, c.amount, c.whole)).collect();
            assert_eq!(before, after, "case {case}: chunks restored");
            assert_eq!(old, new, "case {case}: {:?} + {generic} from {chunks:?}", dem.classes());
            yes += old as u32;
        }
        assert!((5_000..15_000).contains(&yes), "instances too one-sided: {yes} feasible");
    }

    // Inputs that listing every split of {2/C} symbols, or every choice of type of
    // multi-mana sources, could not finish (minutes, or all memory): now immediate.
    #[test]
    fn large_two_hybrid_costs_and_multi_mana_sources() {
        let five: Vec<ManaSymbol> = Color::ALL.iter().map(|&c| ManaSymbol::TwoHybrid(c)).collect();
        // Multikicker {2/W}{2/U}{2/B}{2/R}{2/G} with 320 Islands: each kick is {U} and 8
        // generic, after {1}: 35 kicks ((n + 1)^5 splits for up to 64 kicks before).
        let islands: Vec<ManaSource> = (0..320).map(|i| land(i, U)).collect();
        assert_eq!(max_affordable(&cost("{1}"), &five, &ManaPool::new(), &islands, 1000), 35);
        // 64 basics of each color: 63 kicks, each paid with one mana of each color.
        let basics: Vec<ManaSource> = (0..320).map(|i| land(i, ManaType::ALL[i as usize % 5])).collect();
        assert_eq!(max_affordable(&cost("{1}"), &five, &ManaPool::new(), &basics, 1000), 63);
        // Five-color sources (one mana of any color each).
        let prisms: Vec<ManaSource> = (0..320).map(|i| ManaSource::new(i, vec![W, U, B, R, G], 1)).collect();
        assert_eq!(max_affordable(&cost("{1}"), &five, &ManaPool::new(), &prisms, 1000), 63);
        // 40 of each {2/C} (41^5 splits): unpayable with 3 Islands or 300, payable with 360,
        // each {2/U} with {U} and the rest with two.
        let mut sym = Vec::new();
        for c in Color::ALL {
            sym.extend(std::iter::repeat_n(ManaSymbol::TwoHybrid(c), 40));
        }
        let c = CostToPay::new(sym, 0, 20);
        assert_eq!(solve(&c, &ManaPool::new(), &islands[..3]), None);
        assert_eq!(solve(&c, &ManaPool::new(), &islands[..300]), None);
        let many: Vec<ManaSource> = (0..360).map(|i| land(i, U)).collect();
        let p = solve(&c, &ManaPool::new(), &many).unwrap();
        assert_eq!((p.taps.len(), p.spent.get(U)), (360, 360));
        // With the five-color sources every {2/C} takes one mana of its color.
        let p = solve(&c, &ManaPool::new(), &prisms[..200]).unwrap();
        assert_eq!(p.spent, ManaPool::parse(&"{W}{U}{B}{R}{G}".repeat(40)).unwrap());
        assert_legal(&c, &ManaPool::new(), &prisms[..200], &p);
        // 300 two-color sources (W/U, U/B, B/R): every {2/W}, {2/U}, {2/B}, {2/R} takes one
        // mana of its color and each {2/G} two, 240 mana in all; 150 sources are too few.
        let duals: Vec<ManaSource> = (0..300).map(|i| ManaSource::new(i, [[W, U], [U, B], [B, R]][i as usize % 3], 1)).collect();
        let p = solve(&c, &ManaPool::new(), &duals).unwrap();
        assert_eq!((p.taps.len(), p.spent.total(), p.spent.get(G)), (240, 240, 0));
        assert!([W, U, B, R].iter().all(|&t| p.spent.get(t) >= 40), "{}", p.spent);
        assert_eq!(solve(&c, &ManaPool::new(), &duals[..150]), None);

        // 30 sources each making 2k mana of W or U (k = 1..30, 930 in all): W^a U^b with a
        // odd can't be paid (every subset sums to an even number); 2^30 type choices before.
        let wells: Vec<ManaSource> = (1..=30).map(|k| ManaSource::new(k, vec![W, U], 2 * k as u32)).collect();
        let split_cost = |a: usize, b: usize| {
            let mut sym = vec![ManaSymbol::Colored(Color::White); a];
            sym.extend(std::iter::repeat_n(ManaSymbol::Colored(Color::Blue), b));
            CostToPay::new(sym, 0, 20)
        };
        assert_eq!(solve(&split_cost(465, 465), &ManaPool::new(), &wells), None);
        let e = solve_with(&split_cost(465, 465), &ManaPool::new(), &wells, &(1..=30).collect::<Vec<_>>()).unwrap_err();
        assert!(e.contains("one type"), "{e}");
        for (a, b) in [(464, 466), (300, 200), (2, 928)] {
            let c = split_cost(a, b);
            let p = solve(&c, &ManaPool::new(), &wells).unwrap();
            assert_legal(&c, &ManaPool::new(), &wells, &p);
        }
        // Sources of three mana of any one color and seven of each {2/C}: with 14 of them
        // (42 mana) 34 symbols take one colored mana and one two (W, U, B, R from three
        // sources each, G from two); 12 are too few. Splits walked in order over a
        // memoised choice of types.
        let lotuses: Vec<ManaSource> = (0..14).map(|i| ManaSource::new(i, vec![W, U, B, R, G], 3)).collect();
        let mut sym = Vec::new();
        for c in Color::ALL {
            sym.extend(std::iter::repeat_n(ManaSymbol::TwoHybrid(c), 7));
        }
        let c = CostToPay::new(sym, 0, 20);
        let p = solve(&c, &ManaPool::new(), &lotuses).unwrap();
        assert_eq!((p.taps.len(), p.spent.total(), p.life), (14, 36, 0));
        assert!([W, U, B, R].iter().all(|&t| p.spent.get(t) >= 7) && p.spent.get(G) == 6, "{}", p.spent);
        assert_eq!(solve(&c, &ManaPool::new(), &lotuses[..12]), None);
    }

    /// Release-mode timing of the inputs that used to blow up (sizes from `PAY_N`, `PAY_K`):
    /// `cargo test --release -q timing_blowups -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn timing_blowups() {
        use std::time::Instant;
        let env = |k: &str, d: u64| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
        let n = env("PAY_N", 100);
        let kicks: Vec<ManaSymbol> = Color::ALL.iter().map(|&c| ManaSymbol::TwoHybrid(c)).collect();
        let islands: Vec<ManaSource> = (0..n).map(|i| land(i, U)).collect();
        let t = Instant::now();
        let most = max_affordable(&cost("{1}"), &kicks, &ManaPool::new(), &islands, 1000);
        println!("multikicker five {{2/C}}, {n} Islands: {most} kicks, {:?}", t.elapsed());
        let per = env("PAY_PER", 24) as usize;
        let mut sym = Vec::new();
        for c in Color::ALL {
            sym.extend(std::iter::repeat_n(ManaSymbol::TwoHybrid(c), per));
        }
        let three: Vec<ManaSource> = (0..3).map(|i| land(i, U)).collect();
        let t = Instant::now();
        let r = solve(&CostToPay::new(sym, 0, 20), &ManaPool::new(), &three);
        println!("5 x {per} {{2/C}}, 3 Islands: {:?}, {:?}", r.is_some(), t.elapsed());
        let k = env("PAY_K", 18);
        let amounts: Vec<u64> = (1..=k).map(|i| 2 * i).collect();
        let total: u64 = amounts.iter().sum();
        let a = total / 2 + (total / 2 % 2 == 0) as u64;
        let wells: Vec<ManaSource> = amounts.iter().enumerate().map(|(i, &m)| ManaSource::new(i as u64, vec![W, U], m as u32)).collect();
        let mut sym = vec![ManaSymbol::Colored(Color::White); a as usize];
        sym.extend(std::iter::repeat_n(ManaSymbol::Colored(Color::Blue), (total - a) as usize));
        let t = Instant::now();
        let r = solve(&CostToPay::new(sym, 0, 20), &ManaPool::new(), &wells);
        println!("{k} two-type multi-mana sources, parity-unpayable: {:?}, {:?}", r.is_some(), t.elapsed());
        let a = a - 1; // even: payable
        let mut sym = vec![ManaSymbol::Colored(Color::White); a as usize];
        sym.extend(std::iter::repeat_n(ManaSymbol::Colored(Color::Blue), (total - a) as usize));
        let t = Instant::now();
        let r = solve(&CostToPay::new(sym, 0, 20), &ManaPool::new(), &wells);
        println!("{k} two-type multi-mana sources, payable: {:?}, {:?}", r.is_some(), t.elapsed());
        // Sources of three mana of any one color and `per` of each {2/C}.
        let lotuses = env("PAY_L", 14);
        let sources: Vec<ManaSource> = (0..lotuses).map(|i| ManaSource::new(i, vec![W, U, B, R, G], 3)).collect();
        for per in [3, 7, 12] {
            let mut sym = Vec::new();
            for c in Color::ALL {
                sym.extend(std::iter::repeat_n(ManaSymbol::TwoHybrid(c), per));
            }
            let t = Instant::now();
            let r = solve(&CostToPay::new(sym, 0, 20), &ManaPool::new(), &sources);
            println!("{lotuses} five-color sources of 3, 5 x {per} {{2/C}}: {:?}, {:?}", r.map(|p| p.spent.to_string()), t.elapsed());
        }
        // Five-color sources of different amounts.
        let sources: Vec<ManaSource> = (1..=lotuses).map(|i| ManaSource::new(i, vec![W, U, B, R, G], i as u32)).collect();
        let mut sym = Vec::new();
        for c in Color::ALL {
            sym.extend(std::iter::repeat_n(ManaSymbol::Colored(c), (lotuses * (lotuses + 1) / 10) as usize));
        }
        let t = Instant::now();
        let r = solve(&CostToPay::new(sym, 0, 20), &ManaPool::new(), &sources);
        println!("{lotuses} five-color sources of 1..{lotuses}, a fifth of their mana in each color: {:?}, {:?}", r.is_some(), t.elapsed());
    }

    /// Release-mode timing: `cargo test --release -q payment -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn timing_solve() {
        use std::hint::black_box;
        use std::time::Instant;
        let basics = [land(1, U), land(2, U), land(3, W), land(4, W), land(5, B), land(6, B), land(7, R), land(8, G)];
        let duals = [
            ManaSource::new(1, vec![W, U], 1),
            ManaSource::new(2, vec![U, B], 1),
            land(3, U),
            land(4, W),
            ManaSource::new(5, vec![B, R], 1),
            land(6, B),
            land(7, R),
            ManaSource::new(8, vec![G, W], 1),
        ];
        let cases: [(&str, CostToPay, &[ManaSource]); 7] = [
            ("{2}{U}{U}{W}{B}, 8 basics", cost("{2}{U}{U}{W}{B}"), &basics),
            ("{2/W}{2/U}{2/B}{R}, 8 basics", cost("{2/W}{2/U}{2/B}{R}"), &basics),
            ("{2/W}{2/W}{2/W}{2/G}{B}, 8 basics", cost("{2/W}{2/W}{2/W}{2/G}{B}"), &basics),
            ("{2}{U}{U}{W}{B}, 4 basics + 4 duals", cost("{2}{U}{U}{W}{B}"), &duals),
            ("{1}{W/U}{W/U}{B/P}{R}, 8 basics", cost("{1}{W/U}{W/U}{B/P}{R}"), &basics),
            ("{U}{U}{U}{B}{B}{B} unpayable, 8 basics", cost("{U}{U}{U}{B}{B}{B}"), &basics),
            ("{U}{U}{U}{B}{B}{B} unpayable, duals", cost("{U}{U}{U}{U}{B}{B}"), &duals),
        ];
        for (name, c, srcs) in cases.iter() {
            let n = 1_000_000;
            let mut ns = Vec::new();
            for _ in 0..5 {
                let t = Instant::now();
                for _ in 0..n {
                    black_box(solve(black_box(c), black_box(&ManaPool::new()), black_box(srcs)));
                }
                ns.push(t.elapsed().as_nanos() as f64 / n as f64);
            }
            ns.sort_by(f64::total_cmp);
            println!("solve {name}: median {:.0} ns (min {:.0}, max {:.0})", ns[2], ns[0], ns[4]);
        }
    }
}
