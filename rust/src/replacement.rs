//! Replacement effects (CR 614–616) from static abilities of permanents: where a card bound
//! for a graveyard goes instead, how many cards a mill really mills, a draw from an empty
//! library that wins instead, and a discard that may go on top of the library. (Replacements
//! that are part of entering the battlefield — "enters tapped", "enters with counters", "as
//! this enters" — are applied by `Game::entered_battlefield` in `game.rs`, which every way
//! onto the battlefield goes through.)

use crate::decision::{Choice, Decision, Purpose};
use crate::game::Game;
use crate::object::{ObjId, ObjectKind};
use crate::rules::{static_kind, GraveyardOwner, StaticAbility};
use crate::zone::ZoneKind;

/// One "they mill [times] that many plus [plus]" replacement and the permanent it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MillChange {
    pub source: ObjId,
    pub times: u32,
    pub plus: u32,
}

impl MillChange {
    /// The count `n` changed by this replacement.
    fn apply(self, n: u32) -> u32 {
        n.saturating_mul(self.times).saturating_add(self.plus).min(crate::game::MAX_COUNT as u32)
    }
}

impl Game {
    /// Whether any permanent has static abilities (the only source of these replacements), so
    /// hot paths skip the lookups when none could apply.
    #[inline]
    pub(crate) fn statics_in_play(&self) -> bool {
        !self.indexed.statics.is_empty()
    }

    /// Every static ability of a permanent, with its permanent's slot (CR 604.1).
    pub(crate) fn statics(&self) -> impl Iterator<Item = (u32, &StaticAbility)> + '_ {
        self.indexed.statics.iter().flat_map(move |&s| self.def_of_slot(s).rules.statics.iter().map(move |st| (s, st)))
    }

    /// Where a card (or token) in `slot` bound for its owner's graveyard goes: exile if a
    /// "exile it instead" replacement applies (CR 614.1a); `cycled` for a card discarded to
    /// pay a cycling cost ("and it wasn't cycled").
    #[inline]
    pub(crate) fn graveyard_destination(&self, slot: u32, cycled: bool) -> ZoneKind {
        if self.graveyard_replaced() {
            self.graveyard_replacement(slot, cycled)
        } else {
            ZoneKind::Graveyard
        }
    }

    /// Whether a static ability in play may send cards bound for a graveyard elsewhere: without
    /// one, every such card goes to its owner's graveyard.
    #[inline]
    pub(crate) fn graveyard_replaced(&self) -> bool {
        self.indexed.static_kinds & static_kind::GRAVEYARD_TO_EXILE != 0
    }

    fn graveyard_replacement(&self, slot: u32, cycled: bool) -> ZoneKind {
        let o = &self.objects[slot as usize];
        let def = &self.defs[o.def as usize];
        for (s, st) in self.statics() {
            let StaticAbility::GraveyardToExile { filter, whose, unless_cycled } = st else { continue };
            let you = self.objects[s as usize].controller;
            let whose_ok = match whose {
                GraveyardOwner::Any => true,
                GraveyardOwner::You => o.owner == you,
                GraveyardOwner::Opponents => o.owner != you,
            };
            // Tokens aren't cards: only "a card or token" sees them (CR 111.1).
            let card_ok = (o.kind != ObjectKind::Token || filter.text().contains("token")) && filter.matches(def);
            if whose_ok && card_ok && !(*unless_cycled && cycled) {
                return ZoneKind::Exile;
            }
        }
        ZoneKind::Graveyard
    }

    /// The mill replacements that apply to `p` milling (each from a permanent an opponent of
    /// `p` controls), in timestamp order.
    pub(crate) fn mill_changes(&self, p: u8) -> Vec<MillChange> {
        let mut changes = Vec::new();
        self.each_mill_change(p, |c| {
            changes.push(c);
            true
        });
        changes
    }

    /// Calls `f` with each of [`Game::mill_changes`] in turn until it answers false, without
    /// a list: plain loops, which cost less on every mill than a flattened iterator.
    #[inline]
    fn each_mill_change(&self, p: u8, mut f: impl FnMut(MillChange) -> bool) {
        for &s in &self.indexed.statics {
            // Only permanents of p's opponents count: their controller is looked at first.
            if self.objects[s as usize].controller == p {
                continue;
            }
            for st in &self.def_of_slot(s).rules.statics {
                if let StaticAbility::OpponentMillsMore { times, plus } = *st {
                    if !f(MillChange { source: self.id_of(s), times, plus }) {
                        return;
                    }
                }
            }
        }
    }

    /// The decision for the order of the mill replacements (CR 616.1: the affected player
    /// chooses), when the order can matter.
    pub(crate) fn mill_order_decision(&self, p: u8, changes: &[MillChange]) -> Option<Decision> {
        let differ = changes.windows(2).any(|w| (w[0].times, w[0].plus) != (w[1].times, w[1].plus));
        differ.then(|| Decision { player: p, purpose: Purpose::OrderReplacements, choice: Choice::Order { options: changes.iter().map(|c| c.source).collect() } })
    }

    /// How many cards `p` mills when an effect says `n`, with the replacements in the order
    /// `p` chose among `orders` (the players' answers so far), or else as
    /// [`Game::mill_count_unordered`] finds: the count, or the order `p` must choose first.
    pub(crate) fn mill_count(&self, p: u8, n: u32, orders: &[(u8, Vec<ObjId>)]) -> Result<u32, Decision> {
        if self.indexed.static_kinds & static_kind::OPPONENT_MILLS_MORE == 0 {
            return Ok(n); // no replacement to apply
        }
        match orders.iter().find(|(q, _)| *q == p) {
            Some((_, order)) => Ok(self.milled_count(p, n, order)),
            None => self.mill_count_unordered(p, n),
        }
    }

    /// How many cards `p` mills when an effect says `n` and nobody has ordered the
    /// replacements: in timestamp order, unless two next to each other change the count
    /// differently, when `p` orders them first (CR 616.1): then that decision. One walk over
    /// the statics, with no list of the replacements unless the order matters. Nothing to order
    /// for a player who mills no card (CR 614.7: "would mill one or more cards"; an empty
    /// library mills none).
    pub(crate) fn mill_count_unordered(&self, p: u8, n: u32) -> Result<u32, Decision> {
        if n == 0 {
            return Ok(0);
        }
        let (mut first, mut k, mut differ) = (None, n, false);
        self.each_mill_change(p, |c| {
            let f = *first.get_or_insert(c);
            differ = (c.times, c.plus) != (f.times, f.plus) && !self.players[p as usize].library.is_empty();
            k = c.apply(k);
            !differ
        });
        if differ {
            return Err(self.mill_order_decision(p, &self.mill_changes(p)).expect("two of them differ"));
        }
        Ok(k)
    }

    /// How many cards `p` mills when an effect says `n`, the replacements applied in `order`
    /// (ids of their sources; any not listed in timestamp order after).
    pub(crate) fn milled_count(&self, p: u8, n: u32, order: &[ObjId]) -> u32 {
        if n == 0 {
            return 0; // "would mill one or more cards"
        }
        if order.is_empty() {
            // Nothing ordered: timestamp order, which the stable sort below keeps.
            let mut k = n;
            self.each_mill_change(p, |c| {
                k = c.apply(k);
                true
            });
            return k;
        }
        let mut changes = self.mill_changes(p);
        changes.sort_by_key(|c| order.iter().position(|&o| o == c.source).unwrap_or(usize::MAX));
        changes.into_iter().fold(n, |n, c| c.apply(n))
    }

    /// "If you would draw a card while your library has no cards in it, you win the game
    /// instead" applies to `p`.
    pub(crate) fn draw_from_empty_wins(&self, p: u8) -> bool {
        self.indexed.static_kinds & static_kind::DRAW_FROM_EMPTY_WINS != 0
            && self.statics().any(|(s, st)| *st == StaticAbility::DrawFromEmptyWins && self.objects[s as usize].controller == p)
    }

    /// Whether a card `p` discards may go on top of their library instead (Library of Leng):
    /// for a discard caused by an effect, or to pay a cost where the replacement says so.
    #[inline]
    pub(crate) fn discard_goes_to_library(&self, p: u8, cost: bool) -> bool {
        self.indexed.static_kinds & static_kind::DISCARD_TO_LIBRARY_TOP != 0
            && self.statics().any(|(s, st)| matches!(st, StaticAbility::DiscardToLibraryTop { costs } if !cost || *costs) && self.objects[s as usize].controller == p)
    }

    /// A permission lets `p` cast this card from their graveyard ("you may cast nonland
    /// cards with cycling from your graveyard"). (A permission, not a replacement; it lives with
    /// the other static-ability lookups.)
    pub(crate) fn may_cast_from_graveyard(&self, p: u8, def: &crate::card::CardDef) -> bool {
        self.statics().any(|(s, st)| matches!(st, StaticAbility::CastFromGraveyard { filter } if self.objects[s as usize].controller == p && filter.matches(def)))
    }

    /// A player's maximum hand size (CR 402.2): seven, or none. Looked for only while a
    /// permanent has "no maximum hand size": asked in every cleanup step.
    pub(crate) fn max_hand_size(&self, p: u8) -> Option<usize> {
        let none = self.indexed.static_kinds & static_kind::NO_MAXIMUM_HAND_SIZE != 0
            && self.static_sources(p).any(|s| self.def_of_slot(s).rules.statics.iter().any(|st| matches!(st, StaticAbility::NoMaximumHandSize)));
        (!none).then_some(7)
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::StaticAbility;
    use crate::{CardDb, Game, Position, ZoneKind};

    // CR 614.1a: a card bound for a graveyard is looked at for "exile it instead" exactly
    // while a permanent with such a replacement is on the battlefield, as the index notes the
    // kinds of static ability coming and going; other static abilities don't count.
    #[test]
    fn graveyard_replacements_are_looked_for_exactly_while_a_permanent_makes_one() {
        let db = CardDb::builtin();
        let mut g = Game::new(2, 1).unwrap();
        let scanned = |g: &Game| g.statics().any(|(_, st)| matches!(st, StaticAbility::GraveyardToExile { .. }));
        let bruvac = g.add_cards(0, ZoneKind::Battlefield, &["Bruvac the Grandiloquent"], Position::Top, db).unwrap()[0];
        let card = g.add_cards(0, ZoneKind::Hand, &["Island"], Position::Top, db).unwrap()[0];
        assert!(!g.graveyard_replaced() && !scanned(&g));
        let rest = g.add_cards(1, ZoneKind::Battlefield, &["Rest in Peace"], Position::Bottom, db).unwrap()[0];
        assert!(g.graveyard_replaced() && scanned(&g));
        assert_eq!(g.graveyard_destination(card.slot(), false), ZoneKind::Exile);
        g.move_slot(bruvac.slot(), ZoneKind::Graveyard, Position::Top);
        assert!(g.graveyard_replaced() && scanned(&g) && g.battlefield_index_is_current());
        g.move_slot(rest.slot(), ZoneKind::Exile, Position::Top);
        assert!(!g.graveyard_replaced() && !scanned(&g) && g.battlefield_index_is_current());
        assert_eq!(g.graveyard_destination(card.slot(), false), ZoneKind::Graveyard);
    }

    // CR 614.1: each replacement is looked for only while a permanent has a static ability
    // of its kind; what the lookups answer is what walking every static ability finds, with
    // other kinds around, under either player, and after such a permanent leaves.
    #[test]
    fn replacements_are_looked_for_only_while_a_permanent_has_their_kind() {
        let db = CardDb::builtin();
        let names = ["Bruvac the Grandiloquent", "Jace, Wielder of Mysteries", "Library of Leng", "Rest in Peace"];
        for mask in 0u32..81 {
            let mut g = Game::new(2, 1).unwrap();
            let mut on = Vec::new();
            for (i, name) in names.iter().enumerate() {
                // Each card: missing, or under either player.
                let pick = mask / 3u32.pow(i as u32) % 3;
                if pick > 0 {
                    on.push(g.add_cards(pick as usize - 1, ZoneKind::Battlefield, &[name], Position::Top, db).unwrap()[0]);
                }
            }
            for round in 0..2 {
                for p in 0..2u8 {
                    let draw_wins = g.statics().any(|(s, st)| *st == StaticAbility::DrawFromEmptyWins && g.objects[s as usize].controller == p);
                    assert_eq!(g.draw_from_empty_wins(p), draw_wins, "mask {mask}");
                    // Not a replacement, but looked for the same way (CR 402.2). (Mutation
                    // caught: the maximum hand size's lookup asked of another kind.)
                    let no_maximum = g.statics().any(|(s, st)| *st == StaticAbility::NoMaximumHandSize && g.objects[s as usize].controller == p);
                    assert_eq!(g.max_hand_size(p), (!no_maximum).then_some(7), "mask {mask}");
                    for cost in [false, true] {
                        let to_library =
                            g.statics().any(|(s, st)| matches!(st, StaticAbility::DiscardToLibraryTop { costs } if !cost || *costs) && g.objects[s as usize].controller == p);
                        assert_eq!(g.discard_goes_to_library(p, cost), to_library, "mask {mask}");
                    }
                    for n in 0u32..3 {
                        assert_eq!(g.mill_count(p, n, &[]), g.mill_count_unordered(p, n), "mask {mask}");
                    }
                }
                if round == 0 {
                    if let Some(first) = on.first() {
                        g.move_slot(first.slot(), ZoneKind::Exile, Position::Top);
                    }
                }
            }
        }
    }

    // The count worked out without a list of the replacements is what the list gives: an
    // order asked only when two replacements next to each other differ (CR 616.1) and the
    // player mills a card (CR 614.7), and with nothing ordered the count in timestamp order
    // (the stable sort's).
    #[test]
    fn mill_shortcuts_match_the_list_of_replacements() {
        let db = CardDb::builtin();
        let names = ["Bruvac the Grandiloquent", "The Water Crystal"];
        for mask in 0u32..162 {
            let mut g = Game::new(2, 1).unwrap();
            let mut m = mask;
            for i in 0..4 {
                // Each of four places: nothing, or one of the cards, under either player.
                let pick = m % 3;
                m /= 3;
                if pick > 0 {
                    g.add_cards(((mask as usize + i) / 2) % 2, ZoneKind::Battlefield, &[names[pick as usize - 1]], Position::Top, db).unwrap();
                }
            }
            if m == 1 {
                for p in 0..2 {
                    g.add_cards(p, ZoneKind::Library, &["Island"], Position::Top, db).unwrap();
                }
            }
            for p in 0..2u8 {
                let changes = g.mill_changes(p);
                let question = g.mill_order_decision(p, &changes);
                for n in 0u32..5 {
                    let by_list = if n == 0 { 0 } else { changes.iter().fold(n, |n, c| c.apply(n)) };
                    assert_eq!(g.milled_count(p, n, &[]), by_list);
                    let expected = match &question {
                        Some(d) if n > 0 && m == 1 => Err(d.clone()),
                        _ => Ok(by_list),
                    };
                    assert_eq!(g.mill_count_unordered(p, n), expected);
                }
            }
        }
    }
}
