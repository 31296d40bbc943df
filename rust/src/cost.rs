//! Costs (CR 118, 601.2f): mana abilities as payment sources, the total cost of a spell
//! (mana cost or alternative cost, plus additional costs such as kicker, plus increases,
//! minus reductions — which reduce only generic mana), and paying it.

use crate::card::CardDef;
use crate::error::{Error, Result};
use crate::event::Event;
use crate::game::Game;
use crate::mana::{Color, ManaSymbol};
use crate::object::{ObjId, Object};
use crate::payment::{ManaPool, ManaSource, ManaType, ManaTypes, Payment};
use crate::rules::{Amount, Dynamic, Kicker, StaticAbility};
use crate::zone::ZoneKind;

/// The mana type named by a letter of a card's mana ability.
pub(crate) fn mana_type(letter: &str) -> Option<ManaType> {
    match letter {
        "C" => Some(ManaType::Colorless),
        l => Color::from_letter(l).map(ManaType::Color),
    }
}

impl Game {
    /// What tapping the permanent in `slot` for mana can make: the types to choose from and
    /// how many. `None` if it has no mana ability.
    /// Inlined into the loops over sources; only a counted amount calls out.
    #[inline]
    pub(crate) fn mana_ability(&self, slot: u32) -> Option<(&[ManaType], u32)> {
        let profile = self.def_of_slot(slot).mana.as_ref()?;
        let amount = match &profile.amount {
            Amount::Fixed(n) => *n,
            Amount::Dynamic(d) => self.dynamic_mana_amount(slot, d),
        };
        Some((profile.types.as_slice(), amount))
    }

    #[cold]
    fn dynamic_mana_amount(&self, slot: u32, d: &Dynamic) -> u32 {
        match d {
            Dynamic::CountersOnSource(kind) => self.counters_on(slot).map_or(0, |c| c.get(kind)),
            _ => 0,
        }
    }

    /// The untapped permanents `p` controls that can be tapped for mana (CR 605), in
    /// battlefield order.
    pub(crate) fn mana_sources(&self, p: u8) -> Vec<ManaSource> {
        let mut out = Vec::new();
        self.fill_mana_sources(p, &mut out);
        out
    }

    /// [`Game::mana_sources`] into a reused buffer (the casting hot path).
    pub(crate) fn fill_mana_sources(&self, p: u8, out: &mut Vec<ManaSource>) {
        out.clear();
        out.extend(self.mana_sources_iter(p));
    }

    /// Whether `p` can pay `cost` from their pool and untapped sources (leaving out the
    /// source `except`, whose ability's cost taps it).
    pub(crate) fn can_pay_mana(&self, p: u8, cost: &crate::payment::CostToPay, except: Option<u64>) -> bool {
        let sources = self.mana_sources_iter(p).filter(move |s| Some(s.id) != except);
        crate::payment::can_pay(cost, &self.players[p as usize].pool, sources)
    }

    /// Whether `p` can pay these mana symbols (with X = `x`) from their pool and untapped
    /// sources other than the permanent in `except`, decided by counting as `can_pay` decides
    /// it when it can (symbols of generic mana, {C} and single colors; every source making one
    /// type): the same sources, counted without building each. `None` when counting can't
    /// decide.
    pub(crate) fn mana_payable_counted(&self, p: u8, symbols: &[crate::mana::ManaSymbol], x: u32, except: Option<u32>) -> Option<bool> {
        crate::payment::covered_symbols(symbols, x, &self.count_supply(p, except).1?)
    }

    /// Pays a cost counted by type as `need` and `generic` from `p`'s pool and untapped
    /// sources as [`Game::execute_payment`] pays what [`crate::payment::solve_counted`] finds
    /// for them listed — the same sources tapped in the same order, the same mana left in the
    /// pool — without listing them or building the payment, when their count shows each makes
    /// one mana of a single type (all are plain sources, and none of the untapped ones has a
    /// choice). `None` otherwise (or for a cost taking over 16 sources); `Some(false)`, with
    /// nothing paid, if they can't pay it.
    pub(crate) fn pay_counted_in_place(&mut self, p: u8, need: &[u64; 6], generic: u64) -> Option<bool> {
        let counted = &self.indexed.untapped_mana[p as usize];
        let list = &self.indexed.mana[p as usize];
        // (Over 64 sources, `solve` pays by its general path; so too a cost that takes over
        // `taps`' 16 of them, which a cast rarely does, rather than have every payment clear
        // room for 64.)
        if counted.others != 0 || counted.choosing != 0 || list.len() > 64 {
            return None;
        }
        let pool = &self.players[p as usize].pool;
        let pooled = !pool.is_empty();
        let (mut rest, mut generic, pool) = crate::payment::pay_from_pool(need, generic, pool);
        // Each source makes one mana: the first untapped ones of each needed type pay for its
        // symbols, then the first others left pay the generic part (as `solve_counted` taps).
        // They are tapped once all are found, so a cost they can't pay changes nothing.
        let mut short: u64 = rest.iter().sum();
        let mut taps = [0u32; 16];
        let mut n = 0;
        let mut colored = 0u64;
        if short > 0 {
            for (i, &s) in list.iter().enumerate() {
                let o = &self.objects[s as usize];
                let t = o.one_mana.0.trailing_zeros() as usize;
                if !o.tapped && rest[t] > 0 {
                    if n == taps.len() {
                        return None;
                    }
                    rest[t] -= 1;
                    colored |= 1 << i;
                    taps[n] = s;
                    n += 1;
                    short -= 1;
                    if short == 0 {
                        break;
                    }
                }
            }
            if short > 0 {
                return Some(false);
            }
        }
        if generic > 0 {
            for (i, &s) in list.iter().enumerate() {
                if !self.objects[s as usize].tapped && colored & (1 << i) == 0 {
                    if n == taps.len() {
                        return None;
                    }
                    taps[n] = s;
                    n += 1;
                    generic -= 1;
                    if generic == 0 {
                        break;
                    }
                }
            }
            if generic > 0 {
                return Some(false);
            }
        }
        self.tap_plain_for_payment(p, &taps[..n]);
        if pooled {
            self.players[p as usize].pool = pool;
        }
        Some(true)
    }

    /// Pays `generic` mana, at most 16, from `p`'s first untapped sources when all are plain
    /// and enough are untapped, the pool empty: [`Game::pay_counted_in_place`]'s payment of
    /// generic mana alone, without its setup (a caller has counted the sources).
    pub(crate) fn pay_generic_in_place(&mut self, p: u8, generic: u64) {
        let mut taps = [0u32; 16];
        let mut n = 0;
        for &s in &self.indexed.mana[p as usize] {
            if n as u64 == generic {
                break;
            }
            if !self.objects[s as usize].tapped {
                taps[n] = s;
                n += 1;
            }
        }
        self.tap_plain_for_payment(p, &taps[..n]);
    }

    /// What [`crate::payment::supply`] answers for `p`'s pool and untapped sources other than
    /// the permanent in `except`, counted from the permanents with a mana ability without
    /// building each source (a plain loop costs less than `mana_sources_iter`'s).
    #[inline(always)]
    pub(crate) fn count_supply(&self, p: u8, except: Option<u32>) -> (u64, Option<[u64; 6]>) {
        let pool = &self.players[p as usize].pool;
        // With only plain sources (lands, usually) and none set aside, their count is kept.
        let counted = &self.indexed.untapped_mana[p as usize];
        if counted.others == 0 && except.is_none() {
            return crate::payment::supply_counted(pool, counted);
        }
        let mut count = crate::payment::SupplyCount::new(pool);
        for &s in &self.indexed.mana[p as usize] {
            if Some(s) != except {
                if let Some((types, amount)) = self.mana_source_at(s) {
                    count.add(types, amount);
                }
            }
        }
        count.finish()
    }

    /// What the permanent in `s`, one of its controller's mana sources (their list in
    /// [`Game::indexed`]), gives them toward a cost now, if it is untapped and they can tap it
    /// (CR 605): the types its ability makes, and how much per tap. Always inlined: its callers
    /// loop over the mana sources, where a call per permanent costs more than the test.
    #[inline(always)]
    pub(crate) fn mana_source_at(&self, s: u32) -> Option<(ManaTypes, u32)> {
        let o = &self.objects[s as usize];
        // Only a creature can be summoning sick (CR 302.6): most sources are lands.
        if o.tapped || (o.flags & Object::CREATURE_OR_PLANESWALKER != 0 && self.sick_creature(s)) {
            return None;
        }
        // Most sources make one mana, of types cached on the object.
        if !o.one_mana.is_empty() {
            return Some((o.one_mana, 1));
        }
        // A source that would make no mana now (Everflowing Chalice without counters) can
        // still be tapped, but pays for nothing.
        self.mana_ability(s).filter(|&(_, amount)| amount > 0).map(|(types, amount)| (types.iter().copied().collect(), amount))
    }

    pub(crate) fn mana_sources_iter(&self, p: u8) -> impl Iterator<Item = ManaSource> + Clone + '_ {
        // The permanents `p` controls with a mana ability, in battlefield order (the order
        // payments use).
        self.indexed.mana[p as usize].iter().filter_map(move |&s| {
            let (options, amount) = self.mana_source_at(s)?;
            Some(ManaSource { id: self.id_of(s).0, options, amount })
        })
    }

    /// What the static abilities of `p`'s permanents do to the cost of a spell `p` casts, in
    /// one pass over them: (kicker abilities granted — sticker kicker, CR 702.33h —, generic
    /// increase, generic reduction).
    #[inline]
    pub(crate) fn spell_cost_statics(&self, p: u8, def: &CardDef) -> (Vec<Kicker>, u32, u32) {
        // No card of the game has such an ability: none of `p`'s permanents can (found
        // where it is asked, every cast).
        if self.def_flags & Object::COST_STATIC == 0 {
            return (Vec::new(), 0, 0);
        }
        self.spell_cost_statics_of_permanents(p, def)
    }

    /// [`Game::spell_cost_statics`] when some card of the game has such an ability.
    fn spell_cost_statics_of_permanents(&self, p: u8, def: &CardDef) -> (Vec<Kicker>, u32, u32) {
        let (mut granted, mut up, mut down) = (Vec::new(), 0u32, 0u32);
        self.for_each_static(p, |s| match s {
            StaticAbility::CostIncrease { filter, amount } if matches(filter, def) => up = up.saturating_add(*amount),
            StaticAbility::CostReduction { filter, amount } if matches(filter, def) => down = down.saturating_add(*amount),
            StaticAbility::GrantStickerKicker { filter, cost } if matches(filter, def) => granted.push(Kicker { cost: cost.clone(), multi: false, sticker: true }),
            _ => {}
        });
        (granted, up, down)
    }

    /// Static abilities of permanents `p` controls (CR 604.1).
    pub(crate) fn for_each_static(&self, p: u8, mut f: impl FnMut(&StaticAbility)) {
        for slot in self.static_sources(p) {
            for s in &self.def_of_slot(slot).rules.statics {
                f(s);
            }
        }
    }

    /// The permanents `p` controls that have static abilities.
    pub(crate) fn static_sources(&self, p: u8) -> impl Iterator<Item = u32> + '_ {
        self.indexed.statics.iter().copied().filter(move |&s| self.objects[s as usize].controller == p)
    }

    /// Carries out a payment: taps the sources, adds their mana and spends it with the pool's
    /// (CR 601.2g–h), pays life for Phyrexian symbols.
    pub(crate) fn execute_payment(&mut self, p: u8, payment: &Payment) {
        for &(id, ty) in &payment.taps {
            self.tap_for_payment(p, crate::object::ObjId(id).slot(), ty);
        }
        self.players[p as usize].pool = payment.leftover;
        if payment.life > 0 {
            self.change_life(p, -i64::from(payment.life));
        }
    }

    /// Activates the mana ability of the source in `slot`, making `ty`, toward a payment.
    fn tap_for_payment(&mut self, p: u8, slot: u32, ty: ManaType) {
        if self.log.recording {
            self.log_mana_added(p, slot, ty);
        }
        self.tap_slot(slot, true);
        self.sacrifice_if_mana_ability_says(slot);
    }

    /// [`Game::tap_for_payment`] for a plain source of `p`'s (see [`crate::game::UntappedMana`]),
    /// for the plain sources of `p`'s in `slots` (see [`crate::game::UntappedMana`]), untapped,
    /// each making one mana of one type only and not sacrificed for it (`Object::one_mana`),
    /// tapped in order: as [`Game::tap_slot`] would, tapping them counts them among `p`'s
    /// tapped permanents and takes each off the count of untapped sources of its type (the
    /// counts changed once, after: nothing here reads them).
    #[inline(always)]
    fn tap_plain_for_payment(&mut self, p: u8, slots: &[u32]) {
        let mut by_type = [0u32; 6];
        for &slot in slots {
            // The index of the one type it makes.
            let t = self.objects[slot as usize].one_mana.0.trailing_zeros() as usize;
            if self.log.recording {
                self.log_mana_added(p, slot, ManaType::ALL[t]);
            }
            self.objects[slot as usize].tapped = true;
            by_type[t] += 1;
        }
        self.indexed.tapped[p as usize] += slots.len() as u32;
        let counted = &mut self.indexed.untapped_mana[p as usize].by_type;
        for t in 0..6 {
            counted[t] -= by_type[t];
        }
    }

    /// Records the mana the source in `slot` makes toward a payment: all the mana its ability
    /// makes (several for, say, a kicked Everflowing Chalice). Out of line: most runs record
    /// nothing, and tapping needn't set up for it.
    #[inline(never)]
    fn log_mana_added(&mut self, p: u8, slot: u32, ty: ManaType) {
        let amount = self.mana_ability(slot).map_or(1, |(_, n)| n);
        let source = self.id_of(slot);
        self.log.push_with(|| Event::ManaAdded { player: p, source, mana: ty.to_string().repeat(amount as usize) });
    }

    /// Taps a permanent for mana outside of a payment (CR 605.3a): the mana goes to the pool.
    pub fn activate_mana(&mut self, source: crate::object::ObjId, choice: Option<&str>) -> Result<()> {
        self.ensure_idle()?;
        let p = self.priority.ok_or_else(|| crate::error::illegal("mana abilities are activated by a player with priority (or while paying)"))?;
        let slot = self.expect_in(source, ZoneKind::Battlefield)?;
        let o = self.objects[slot as usize];
        if o.controller != p {
            return Err(crate::error::illegal(format!("player {p} doesn't control {}", source.0)));
        }
        if o.tapped {
            return Err(crate::error::illegal(format!("{} is tapped", self.def_of_slot(slot).name)));
        }
        if self.sick_creature(slot) {
            return Err(crate::error::illegal(format!(
                "{} came under its controller's control this turn: a creature's {{T}} ability, mana abilities included, can't be activated yet (CR 302.6)",
                self.def_of_slot(slot).name
            )));
        }
        let (options, amount) = self.mana_ability(slot).ok_or_else(|| crate::error::illegal(format!("{} has no mana ability", self.def_of_slot(slot).name)))?;
        let options = options.to_vec();
        let ty = match choice {
            Some(letter) => mana_type(letter)
                .filter(|t| options.contains(t))
                .ok_or_else(|| crate::error::invalid(format!("{letter:?} is not a mana type {} can make ({})", self.def_of_slot(slot).name, list(&options))))?,
            None if options.len() == 1 => options[0],
            None => return Err(crate::error::invalid(format!("choose which mana to add: one of {}", list(&options)))),
        };
        self.undoable(|g| {
            g.tap_slot(slot, true);
            g.players[p as usize].pool.add(ty, amount);
            g.passes = 0; // CR 117.3c: acting keeps priority; the round of passing starts over
            g.log.push_with(|| Event::ManaAdded { player: p, source, mana: ty.to_string().repeat(amount as usize) });
            g.sacrifice_if_mana_ability_says(slot);
            g.check_state_based_actions();
            g.settle()
        })
        .map(|_| ())
    }

    /// "{T}, Sacrifice this: Add ..." (a Treasure): the sacrifice is part of the cost.
    fn sacrifice_if_mana_ability_says(&mut self, slot: u32) {
        if self.def_of_slot(slot).sacrificed_for_mana {
            self.sacrifice(slot);
        }
    }

    /// Whether `p` can pay this mana cost now from their pool and untapped sources (a "you
    /// may pay" during resolution).
    pub(crate) fn can_pay_mana_now(&self, p: u8, cost: &crate::mana::ManaCost) -> bool {
        let to_pay = crate::payment::CostToPay::from_cost(cost, 0, self.players[p as usize].life as i64);
        self.can_pay_mana(p, &to_pay, None)
    }

    /// Pays a mana cost during resolution (CR 118.12, 601.2g-h) with automatic payment; false
    /// (and nothing paid) if it can't be paid.
    pub(crate) fn pay_mana_now(&mut self, p: u8, cost: &crate::mana::ManaCost) -> bool {
        let to_pay = crate::payment::CostToPay::from_cost(cost, 0, self.players[p as usize].life as i64);
        match crate::payment::solve(&to_pay, &self.players[p as usize].pool, &self.mana_sources(p)) {
            Some(payment) => {
                self.execute_payment(p, &payment);
                true
            }
            None => false,
        }
    }

    /// Pays a mana cost during resolution by tapping exactly the sources `p` chose (auto-pay
    /// off, CR 605.3a), plus their pool; nothing is paid if they don't cover it (the reason).
    pub(crate) fn pay_mana_now_with(&mut self, p: u8, cost: &crate::mana::ManaCost, chosen: &[ObjId]) -> std::result::Result<(), String> {
        let payment = self.mana_now_with(p, cost, chosen)?;
        self.execute_payment(p, &payment);
        Ok(())
    }

    /// The payment the chosen sources and the pool make for a cost paid during resolution.
    pub(crate) fn mana_now_with(&self, p: u8, cost: &crate::mana::ManaCost, chosen: &[ObjId]) -> std::result::Result<Payment, String> {
        let to_pay = crate::payment::CostToPay::from_cost(cost, 0, self.players[p as usize].life as i64);
        let ids: Vec<u64> = chosen.iter().map(|c| c.0).collect();
        crate::payment::solve_with(&to_pay, &self.players[p as usize].pool, &self.mana_sources(p), &ids)
    }

    /// Adds the mana a cost-like string describes ("{B}{B}", "{C}") to `p`'s pool (CR 106.4).
    pub(crate) fn add_mana(&mut self, p: u8, mana: &crate::mana::ManaCost) {
        use crate::mana::ManaSymbol;
        for sym in mana.symbols() {
            match *sym {
                ManaSymbol::Colored(c) => self.players[p as usize].pool.add(crate::payment::ManaType::Color(c), 1),
                ManaSymbol::Colorless => self.players[p as usize].pool.add(crate::payment::ManaType::Colorless, 1),
                ManaSymbol::Generic(n) => self.players[p as usize].pool.add(crate::payment::ManaType::Colorless, n),
                _ => {}
            }
        }
    }

    /// The mana in a player's pool.
    pub fn mana_pool(&self, player: usize) -> Result<&ManaPool> {
        Ok(&self.player(player)?.pool)
    }
}

fn list(options: &[ManaType]) -> String {
    options.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ")
}

fn matches(filter: &crate::filter::Filter, def: &CardDef) -> bool {
    filter.matches(def)
}

/// Whether a static ability is one of those [`Game::spell_cost_statics`] reads: without any,
/// a spell costs what it costs.
pub(crate) fn changes_spell_costs(s: &StaticAbility) -> bool {
    matches!(s, StaticAbility::CostIncrease { .. } | StaticAbility::CostReduction { .. } | StaticAbility::GrantStickerKicker { .. })
}

/// The total mana cost (CR 601.2f): `base` plus each kicker cost times its count plus the
/// increase, with X as generic, minus the reduction from the generic part only (never below
/// {0}).
pub(crate) fn total_cost<'a>(base: &[ManaSymbol], kickers: impl Iterator<Item = &'a Kicker>, kicks: &[u32], x: u32, increase: u32, reduction: u32) -> crate::payment::Symbols {
    let mut generic = increase;
    let mut out = crate::payment::Symbols::new();
    // The generic component comes first: its place is kept while the rest is added.
    out.push(ManaSymbol::Generic(0));
    // Saturating: X and the cost changes are bounded, but many of them may add up.
    let mut push = |s: &ManaSymbol, generic: &mut u32| match s {
        ManaSymbol::Generic(n) => *generic = generic.saturating_add(*n),
        ManaSymbol::X => *generic = generic.saturating_add(x),
        other => out.push(*other),
    };
    for s in base {
        push(s, &mut generic);
    }
    for (k, &n) in kickers.zip(kicks) {
        for _ in 0..n {
            for s in k.cost.symbols() {
                push(s, &mut generic);
            }
        }
    }
    if generic > 0 {
        out[0] = ManaSymbol::Generic(generic);
    } else {
        out.remove(0);
    }
    if reduction > 0 {
        reduce_generic(&mut out, reduction);
    }
    out
}

/// Removes up to `n` generic mana from a cost (CR 118.7a: a generic reduction affects only the
/// generic component). What the plain generic mana leaves over reduces a monocolored hybrid
/// {2/C} announced as its generic half (CR 601.2b, 118.7a): the caster pays {1} or nothing
/// there instead of {C} or {2} — never harder to pay, so announcing it so is always at least
/// as good.
pub(crate) fn reduce_generic(symbols: &mut crate::payment::Symbols, mut n: u32) {
    for s in symbols.iter_mut() {
        if let ManaSymbol::Generic(g) = s {
            let cut = (*g).min(n);
            *g -= cut;
            n -= cut;
        }
    }
    let mut freed = 0;
    for s in symbols.iter_mut() {
        if n == 0 {
            break;
        }
        if let ManaSymbol::TwoHybrid(_) = s {
            let cut = n.min(2);
            freed += 2 - cut;
            n -= cut;
            *s = ManaSymbol::Generic(0);
        }
    }
    symbols.retain(|s| *s != ManaSymbol::Generic(0));
    if freed > 0 {
        // The generic half left to pay joins the generic component, which comes first.
        match symbols.first_mut() {
            Some(ManaSymbol::Generic(g)) => *g += freed,
            _ => symbols.insert(0, ManaSymbol::Generic(freed)),
        }
    }
}

/// A readable error for an unpayable cost.
pub(crate) fn cannot_pay(cost: &[ManaSymbol], why: &str) -> Error {
    let text: String = cost.iter().map(|s| s.to_string()).collect();
    let text = if text.is_empty() { "{0}".to_string() } else { text };
    Error::CannotPay(format!("can't pay {text}: {why}"))
}

#[cfg(test)]
mod tests {
    use crate::game::Game;
    use crate::payment::{solve_counted, ManaType};
    use crate::rng::Rng;
    use crate::zone::{Position, ZoneKind};

    #[test]
    fn payment_in_place_is_the_listed_sources_payment() {
        // CR 601.2g–h: paid in place, the sources read off the battlefield pay as the listed
        // ones do — the same taps in the same order (the same mana events), the same pool
        // left, whichever lands are tapped and whatever the pool holds — and a cost they can't
        // pay changes nothing; an untapped land with a choice of types, a source making other
        // than one mana, one sacrificed for its mana (CR 605.3a), or a cost taking over 16
        // sources leaves the payment to `solve`.
        let db = crate::test_support::builtin_and([serde_json::json!({"name": "Colorless Petal", "mana_cost": "{0}", "type_line": "Artifact",
            "oracle_text": "{T}, Sacrifice Colorless Petal: Add {C}.", "rules": {"mana": [{"produce": ["C"], "sacrifice": true}]}})]);
        let db = &db;
        let mut rng = Rng::new(0x9a7);
        let mut sacrificed = 0;
        for round in 0..3000 {
            let mut g = Game::new(2, 1).unwrap();
            let names = ["Island", "Swamp", "Forest", "Wastes", "Canyon Slough", "Everflowing Chalice"];
            let kinds = [4, 5, 6][round % 3];
            // One round in five, a source sacrificed for its mana among them.
            let petals = round % 5 == 1;
            // One round in four, battlefields and costs large enough to take over 16 sources
            // (few of them tapped).
            let many = round % 4 == 3;
            let lands: Vec<&str> = (0..if many { 17 + rng.below(12) } else { rng.below(9) })
                .map(|_| if petals && rng.below(4) == 0 { "Colorless Petal" } else { names[rng.below(kinds) as usize] })
                .collect();
            let ids = g.add_cards(0, ZoneKind::Battlefield, &lands, Position::Top, db).unwrap();
            for id in ids {
                if rng.below(if many { 8 } else { 3 }) == 0 {
                    g.set_tapped(id, true).unwrap();
                }
            }
            for _ in 0..rng.below(3) {
                g.players[0].pool.add(ManaType::ALL[rng.below(6) as usize], 1);
            }
            let mut need = [0u64; 6];
            for _ in 0..rng.below(4) {
                need[rng.below(6) as usize] += 1;
            }
            let generic = rng.below(if many { 24 } else { 5 });
            let listed = solve_counted(&need, generic, &g.players[0].pool, &g.mana_sources(0));
            let mut in_place = g.clone();
            let events = g.log.events.len();
            match in_place.pay_counted_in_place(0, &need, generic) {
                Some(paid) => {
                    let payment = listed.expect("counting decides the listed payment too");
                    assert_eq!(paid, payment.is_some(), "{lands:?}");
                    if let Some(payment) = payment {
                        g.execute_payment(0, &payment);
                        assert!(g.log.events.len() > events || payment.taps.is_empty());
                    }
                    assert_eq!(in_place.save_json(), g.save_json(), "{lands:?} {need:?} {generic}");
                    // The untapped sources' counts (never saved) follow the taps as well.
                    assert!(in_place.indexed == g.indexed && in_place.battlefield_index_is_current(), "{lands:?} {need:?} {generic}");
                }
                None => {
                    assert!(
                        g.mana_sources(0).iter().any(|s| s.options.len() > 1) || lands.contains(&"Everflowing Chalice") || lands.contains(&"Colorless Petal") || lands.len() > 16,
                        "{lands:?}"
                    );
                    if let Some(Some(payment)) = listed {
                        let graveyard = g.players[0].graveyard.len();
                        g.execute_payment(0, &payment);
                        sacrificed += g.players[0].graveyard.len() - graveyard;
                    }
                }
            }
        }
        assert!(sacrificed > 5, "{sacrificed}");
    }
}
