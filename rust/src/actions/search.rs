//! Searching a library (CR 701.23), with the reveal and shuffle that usually follow — what
//! tutors and typecycling do.

use serde::{Deserialize, Serialize};

use crate::decision::{Answer, Choice, Decision, Purpose};
use crate::error::{invalid, Result};
use crate::event::Event;
use crate::filter::CardFilter;
use crate::game::{check_count, Game, Progress};
use crate::object::ObjId;
use crate::process::{Frame, Step, Stored};
use crate::zone::{Position, ZoneKind};

/// Where found cards go.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Destination {
    /// Into its owner's hand.
    Hand,
    /// Onto the battlefield, under its owner's control.
    Battlefield {
        /// "Put it onto the battlefield tapped".
        tapped: bool,
    },
    /// Into its owner's graveyard.
    Graveyard,
    /// Into exile (CR 406).
    Exile,
    /// On top of the library after the shuffle (CR 701.24b: found cards are not shuffled).
    LibraryTop,
}

/// What a search instruction says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchSpec {
    /// The description the found cards must match (CR 701.23a).
    pub filter: std::sync::Arc<CardFilter>,
    /// "up to N" / "a card" (1).
    pub max: u32,
    /// Where the found cards go.
    pub to: Destination,
    /// Reveal the found cards (CR 701.23e: not revealed unless the effect says so).
    pub reveal: bool,
    /// Shuffle the library afterwards.
    pub shuffle: bool,
    /// "You may search": the player first chooses whether to search at all (CR 701.23g).
    pub optional: bool,
}

impl SearchSpec {
    fn how(&self) -> SearchHow<'_> {
        SearchHow { filter: &self.filter, max: self.max, then: FoundCards { to: self.to, reveal: self.reveal, shuffle: self.shuffle } }
    }
}

/// A search instruction as it is followed once the searcher looks: borrowed from a
/// [`SearchSpec`], or straight from a card's instruction when the search is done at once, its
/// filter not copied.
#[derive(Clone, Copy)]
pub(crate) struct SearchHow<'a> {
    pub(crate) filter: &'a CardFilter,
    pub(crate) max: u32,
    pub(crate) then: FoundCards,
}

/// What happens to the cards a search found: where they go, whether they are revealed, and
/// the shuffle. Nothing borrowed, so it is carried out while the game changes.
#[derive(Clone, Copy)]
pub(crate) struct FoundCards {
    pub(crate) to: Destination,
    pub(crate) reveal: bool,
    pub(crate) shuffle: bool,
}

/// The cards a search found, from the top of the library.
pub(crate) type Found = smallvec::SmallVec<[ObjId; 8]>;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Stage {
    Start,
    AskedWhetherToSearch,
    AskedWhichCards,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SearchProc {
    searcher: u8,
    library: u8,
    spec: SearchSpec,
    stage: Stage,
    /// Other players searching their own libraries at the same time (CR 701.23i); boxed, as
    /// most searches are one player's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    together: Option<Box<Together>>,
}

/// Players searching at the same time: they decide in APNAP order, then everything found
/// moves (CR 701.23i).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Together {
    /// The players who decide after the current searcher, in APNAP order.
    next: Vec<u8>,
    /// What the players before them decided: (searcher, found cards), or `None` for one who
    /// chose not to search. Nothing moves until everyone has decided.
    decided: Vec<(u8, Option<Vec<ObjId>>)>,
}

impl Game {
    /// `player` searches `library_owner`'s library as `spec` says. Finding is a decision of
    /// the searcher: a card with a stated quality may go unfound even when present
    /// (CR 701.23b); "a card" with no quality must be found if the library has one (701.23d).
    /// The result is the found cards' ids where they ended up.
    pub fn search(&mut self, player: usize, library_owner: usize, spec: SearchSpec) -> Result<Progress> {
        self.ensure_idle()?;
        let searcher = self.check_live_player(player)?;
        let library = self.check_live_player(library_owner)?;
        check_count(spec.max as i64, "number of cards to find")?;
        if spec.max == 0 {
            return Err(invalid("a search must look for at least one card"));
        }
        let frame = self.search_frame(searcher, library, spec);
        self.perform(frame)
    }

    pub(crate) fn search_frame(&self, searcher: u8, library: u8, spec: SearchSpec) -> Frame {
        Frame::Search(SearchProc { searcher, library, spec, stage: Stage::Start, together: None })
    }

    /// Each of `players` (in APNAP order) searches their own library at the same time: they
    /// look together, decide in APNAP order, then the found cards move together and each
    /// library is shuffled (CR 701.23i). `None` for nobody.
    pub(crate) fn search_each_frame(&self, players: &[u8], spec: SearchSpec) -> Option<Frame> {
        let (&first, rest) = players.split_first()?;
        let together = (!rest.is_empty()).then(|| Box::new(Together { next: rest.to_vec(), decided: Vec::new() }));
        Some(Frame::Search(SearchProc { searcher: first, library: first, spec, stage: Stage::Start, together }))
    }
}

impl SearchProc {
    /// The searcher or the library's owner has left the game: the search, asked afresh, ends
    /// (CR 800.4a).
    pub(crate) fn lost_a_player(&self, g: &Game) -> bool {
        g.players[self.searcher as usize].lost.is_some() || g.players[self.library as usize].lost.is_some()
    }

    /// See [`Frame::check_stored`].
    pub(crate) fn check_stored(&self, c: &Stored) -> std::result::Result<(), String> {
        c.player(self.searcher)?;
        c.player(self.library)?;
        if let Some(t) = &self.together {
            c.players(t.next.iter().copied())?;
            for (p, found) in &t.decided {
                c.player(*p)?;
                c.objects(found.iter().flatten())?;
            }
        }
        c.waits(self.stage != Stage::Start, |choice| match self.stage {
            Stage::AskedWhetherToSearch => matches!(choice, Choice::YesNo),
            _ => matches!(choice, Choice::Cards { .. }),
        })
    }

    pub(crate) fn step(mut self, g: &mut Game) -> Step {
        if self.lost_a_player(g) {
            return self.decided(g, None); // a player it needs left the game (CR 800.4a)
        }
        match self.stage {
            Stage::Start if self.spec.optional => {
                self.stage = Stage::AskedWhetherToSearch;
                let d = Decision { player: self.searcher, purpose: Purpose::MaySearch, choice: Choice::YesNo };
                Step::Ask(Frame::Search(self), d)
            }
            Stage::AskedWhetherToSearch => {
                let Answer::YesNo { yes } = g.take_answer() else { unreachable!("validated against a yes/no decision") };
                if !yes {
                    return self.decided(g, None);
                }
                self.ask_which(g)
            }
            Stage::Start => self.ask_which(g),
            Stage::AskedWhichCards => {
                let Answer::Cards { cards } = g.take_answer() else { unreachable!("validated against a Cards decision") };
                self.decided(g, Some(cards))
            }
        }
    }

    /// The searcher has decided (`None`: didn't search). The next player searching at the
    /// same time decides; after the last, everything found moves (CR 701.23i).
    fn decided(mut self, g: &mut Game, found: Option<Vec<ObjId>>) -> Step {
        let Some(together) = self.together.as_mut() else {
            if let Some(found) = found {
                self.spec.how().then.finish(g, self.searcher, self.library, &found);
            }
            return Step::Done;
        };
        together.decided.push((self.searcher, found));
        if !together.next.is_empty() {
            let p = together.next.remove(0);
            (self.searcher, self.library, self.stage) = (p, p, Stage::Start);
            return self.step(g);
        }
        // A player who left the game since deciding takes nothing with them (CR 800.4a).
        let decided: Vec<(u8, Vec<ObjId>)> =
            std::mem::take(&mut together.decided).into_iter().filter_map(|(p, found)| found.filter(|_| g.players[p as usize].lost.is_none()).map(|f| (p, f))).collect();
        let then = self.spec.how().then;
        for (p, found) in &decided {
            then.log_found(g, *p, *p, found);
        }
        for (p, found) in &decided {
            then.put(g, *p, *p, found);
        }
        if then.shuffle && then.to != Destination::LibraryTop {
            for (p, _) in &decided {
                g.shuffle_library(*p);
            }
        }
        Step::Done
    }

    fn ask_which(mut self, g: &mut Game) -> Step {
        // A searcher who takes the first options (see `takes_first_options`) finds the first
        // `max` matching cards from the top: no decision to build.
        let first_only = g.takes_first_options(self.searcher);
        if first_only && self.together.is_none() {
            // Alone: no list of decisions to keep.
            let found = self.spec.how().matching(g, self.library, true);
            self.spec.how().then.finish(g, self.searcher, self.library, &found);
            return Step::Done;
        }
        let options = self.spec.how().matching(g, self.library, first_only);
        if first_only {
            return self.decided(g, Some(options.into_vec()));
        }
        let max = self.spec.max.min(options.len() as u32);
        let min = if self.spec.filter.is_any() { max } else { 0 };
        self.stage = Stage::AskedWhichCards;
        let d = Decision { player: self.searcher, purpose: Purpose::Search, choice: Choice::Cards { options: options.into_vec(), min, max } };
        Step::Ask(Frame::Search(self), d)
    }
}

impl SearchHow<'_> {
    /// The cards of `library` that match, from the top; with `first_only`, only the first
    /// `max` of them.
    pub(crate) fn matching(self, g: &Game, library: u8, first_only: bool) -> Found {
        let lib = &g.players[library as usize].library;
        // A library holds few distinct cards: match each definition once.
        let mut memo = [0u8; 64];
        let mut options = Found::new();
        for &s in lib.iter().rev() {
            if first_only && options.len() as u32 >= self.max {
                break;
            }
            let def = g.objects[s as usize].def as usize;
            let hit = match memo.get_mut(def) {
                Some(m) => {
                    if *m == 0 {
                        *m = 1 + self.filter.matches(&g.defs[def]) as u8;
                    }
                    *m == 2
                }
                None => self.filter.matches(&g.defs[def]),
            };
            if hit {
                options.push(g.id_of(s));
            }
        }
        options
    }
}

impl FoundCards {
    /// A search alone: the found cards are logged, move, and the library is shuffled.
    pub(crate) fn finish(self, g: &mut Game, searcher: u8, library: u8, found: &[ObjId]) {
        self.log_found(g, searcher, library, found);
        self.put(g, searcher, library, found);
        if self.shuffle && self.to != Destination::LibraryTop {
            g.shuffle_library(library);
        }
    }

    /// The search is logged; the searcher, or everyone if they are revealed, knows the cards.
    fn log_found(self, g: &mut Game, searcher: u8, owner: u8, found: &[ObjId]) {
        g.log.push_with(|| Event::Searched { player: searcher, library: owner, found: found.to_vec() });
        if !self.reveal {
            g.learn(searcher, found); // only the searcher sees what they took
        }
        if self.reveal && !found.is_empty() {
            g.reveal_to_all(found);
            g.log.push_with(|| Event::Revealed { player: searcher, cards: found.to_vec() });
        }
    }

    /// The found cards go where the instruction says (on top of the library, after its
    /// shuffle, for `LibraryTop`).
    fn put(self, g: &mut Game, searcher: u8, owner: u8, found: &[ObjId]) {
        let to = match self.to {
            Destination::LibraryTop => {
                // CR 701.24b: shuffle everything else, then the found cards go on top, the
                // first found on the very top. They stay in the library: same objects.
                let slots: Vec<u32> = found.iter().map(|c| c.slot()).collect();
                g.players[owner as usize].library.retain(|s| !slots.contains(s));
                if self.shuffle {
                    // Who knows the found cards is settled anew below; out of the library
                    // while it is shuffled, they are known to nobody, as the rest will be.
                    g.forget_slots(&slots);
                    g.shuffle_library(owner);
                }
                g.players[owner as usize].library.extend(slots.iter().rev());
                if !self.reveal {
                    g.learn(searcher, found); // the searcher knows what they put on top
                } else {
                    g.reveal_to_all(found);
                }
                g.output.extend_from_slice(found);
                return;
            }
            Destination::Hand => ZoneKind::Hand,
            Destination::Battlefield { .. } => ZoneKind::Battlefield,
            Destination::Graveyard => ZoneKind::Graveyard,
            Destination::Exile => ZoneKind::Exile,
        };
        let mut to_graveyard: smallvec::SmallVec<[ObjId; 4]> = smallvec::SmallVec::new();
        for &from_id in found {
            let slot = from_id.slot();
            let from = g.objects[slot as usize].zone;
            let card = g.move_slot(slot, to, Position::Top);
            if g.objects[slot as usize].zone.kind == ZoneKind::Graveyard {
                to_graveyard.push(card); // not if a replacement exiled it instead (CR 614.1a)
            }
            if let Destination::Battlefield { tapped } = self.to {
                // Under the searcher's control, even from another player's library (CR 110.2a).
                g.set_controller(slot, searcher);
                if tapped {
                    g.tap_slot(slot, true);
                }
                g.entered_battlefield(slot);
            }
            let to_zone = g.objects[slot as usize].zone;
            g.log.push_with(|| Event::Moved { from_id, card, from, to: to_zone });
            g.output.push(card);
        }
        if !to_graveyard.is_empty() {
            // "Whenever one or more cards are put into your graveyard from your library" sees
            // a search that puts them there, not only a mill (CR 603.2, 603.10a).
            g.fire(crate::trigger::TriggerEvent::LibraryToGraveyard { player: owner, cards: &to_graveyard });
        }
    }
}
