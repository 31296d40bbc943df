//! Discarding (CR 701.9).

use serde::{Deserialize, Serialize};

use crate::decision::{Answer, Choice, Decision, Purpose};
use crate::error::{illegal, Error, Result};
use crate::event::Event;
use crate::game::{check_count, Game, Progress};
use crate::object::ObjId;
use crate::process::{Frame, Step, Stored};
use crate::zone::{Position, ZoneKind};

/// Who picks the discarded cards (CR 701.9b).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiscardMode {
    /// The discarding player chooses (the default).
    Choose,
    /// At random, from the game's generator.
    Random,
    /// Another player chooses.
    ChosenBy(u8),
}

/// A discard in progress: the cards are chosen, then each is discarded in turn — asking,
/// where a replacement lets the player, whether it goes on top of their library instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct DiscardProc {
    player: u8,
    count: u32,
    mode: DiscardMode,
    /// Caused by an effect (not the cleanup rule, CR 514.1): replacements for "an effect
    /// causes you to discard" apply.
    by_effect: bool,
    /// The chosen cards still to discard, and who chose them.
    chosen: Option<Vec<u32>>,
    chooser: Option<u8>,
    asked: bool,
}

impl Game {
    /// The player discards `n` cards, or their whole hand if it holds fewer. With `Choose` or
    /// `ChosenBy` the choice is a decision; the result is the discarded cards as new objects in
    /// the graveyard.
    pub fn discard(&mut self, player: usize, n: i64, mode: DiscardMode) -> Result<Progress> {
        self.ensure_idle()?;
        let player = self.check_live_player(player)?;
        let count = check_count(n, "number of cards to discard")?;
        let mode = match mode {
            DiscardMode::ChosenBy(c) => DiscardMode::ChosenBy(self.check_live_player(c as usize)?),
            m => m,
        };
        self.perform(self.discard_frame(player, count, mode))
    }

    pub(crate) fn discard_frame(&self, player: u8, count: u32, mode: DiscardMode) -> Frame {
        Frame::Discard(DiscardProc { player, count, mode, by_effect: true, chosen: None, chooser: None, asked: false })
    }

    /// Schedules a discard to run next: by an effect, or (`by_effect` false) by the cleanup rule.
    pub(crate) fn push_discard(&mut self, player: u8, count: u32, mode: DiscardMode, by_effect: bool) {
        self.frames.push(Frame::Discard(DiscardProc { player, count, mode, by_effect, chosen: None, chooser: None, asked: false }));
    }

    /// An effect's discard of these particular cards (already chosen).
    pub(crate) fn discard_cards_frame(&self, player: u8, slots: Vec<u32>) -> Frame {
        Frame::Discard(DiscardProc { player, count: slots.len() as u32, mode: DiscardMode::Choose, by_effect: true, chosen: Some(slots), chooser: None, asked: false })
    }
}

impl DiscardProc {
    /// The question asked is withdrawn: the player it was asked of left the game. If they were
    /// discarding, nothing is discarded (CR 800.4a); if they were choosing for another player,
    /// the choice is asked again of the next player in turn order.
    pub(crate) fn withdraw_question(&mut self) {
        self.asked = false;
    }

    /// See [`Frame::check_stored`].
    pub(crate) fn check_stored(&self, c: &Stored) -> std::result::Result<(), String> {
        c.player(self.player)?;
        if let DiscardMode::ChosenBy(p) = self.mode {
            c.player(p)?;
        }
        c.players(self.chooser)?;
        c.slots(self.chosen.iter().flatten())?;
        c.waits(self.asked, |choice| matches!(choice, Choice::Cards { .. }))
    }

    pub(crate) fn step(mut self, g: &mut Game) -> Step {
        if g.players[self.player as usize].lost.is_some() {
            return Step::Done; // the player left the game (CR 800.4a)
        }
        if self.chosen.is_none() {
            let hand = &g.players[self.player as usize].hand;
            let k = (self.count as usize).min(hand.len());
            if k == 0 {
                return Step::Done;
            }
            let chooser = match self.mode {
                DiscardMode::Random => {
                    // k draws without replacement from the hand in its listed order.
                    let mut pool = hand.clone();
                    let mut chosen = Vec::with_capacity(k);
                    for _ in 0..k {
                        let j = g.rng.below(pool.len() as u64) as usize;
                        chosen.push(pool.remove(j));
                    }
                    self.chosen = Some(chosen);
                    return self.step(g);
                }
                DiscardMode::Choose => self.player,
                // A chooser who left the game: the next player in turn order still in it
                // chooses instead (CR 800.4g-h).
                DiscardMode::ChosenBy(c) if g.players[c as usize].lost.is_some() => g.next_live_player(c),
                DiscardMode::ChosenBy(c) => c,
            };
            if !self.asked {
                self.asked = true;
                let options: Vec<crate::object::ObjId> = hand.iter().map(|&s| g.id_of(s)).collect();
                if chooser != self.player {
                    g.show_to(chooser, &options); // another player choosing looks at the hand
                }
                let d = Decision { player: chooser, purpose: Purpose::Discard { player: self.player }, choice: Choice::Cards { options, min: k as u32, max: k as u32 } };
                return Step::Ask(Frame::Discard(self), d);
            }
            self.asked = false;
            let Answer::Cards { cards } = g.take_answer() else { unreachable!("validated against a Cards decision") };
            self.chosen = Some(cards.iter().map(|c| c.slot()).collect());
            self.chooser = Some(chooser);
        }
        let random = self.mode == DiscardMode::Random;
        let leng = self.by_effect && g.discard_goes_to_library(self.player, false);
        loop {
            let chosen = self.chosen.as_mut().expect("chosen above");
            let Some(&slot) = chosen.first() else { return Step::Done };
            if g.objects[slot as usize].zone.kind != ZoneKind::Hand {
                chosen.remove(0);
                continue; // no longer there to discard
            }
            let hidden = if leng {
                if !self.asked {
                    self.asked = true;
                    // Choosing the card puts it on top of the library; choosing none, into the
                    // graveyard.
                    let options = vec![g.id_of(slot)];
                    let d = Decision { player: self.player, purpose: Purpose::DiscardToLibrary, choice: Choice::Cards { options, min: 0, max: 1 } };
                    return Step::Ask(Frame::Discard(self), d);
                }
                self.asked = false;
                let Answer::Cards { cards } = g.take_answer() else { unreachable!("validated") };
                !cards.is_empty()
            } else {
                false
            };
            self.chosen.as_mut().expect("chosen above").remove(0);
            let card = g.discard_one(self.player, slot, self.chooser, random, hidden, false);
            g.output.push(card);
        }
    }
}

/// Paying "discard a [filter] card" as a cost (CR 601.2b, h): the card is the one given up
/// front or a "cost_choice" decision; then, if a replacement lets discards paying costs go on
/// top of the library instead, whether to — a card that would go there has no characteristics
/// (CR 701.9c), so it can't pay a cost naming one, and the whole action is undone (CR 733).
/// Casting and activating share it; nothing is discarded until the cost is paid.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct DiscardCost {
    pub card: Option<ObjId>,
    /// The card goes on top of the library instead of into the graveyard.
    pub hidden: bool,
    asked_where: bool,
    asked_which: bool,
    done: bool,
}

impl DiscardCost {
    /// Moves the choice on: `Ok(None)` once it's made, `Ok(Some(d))` to ask `d` (the answer
    /// comes back through the next call), `Err` if the cost can't be paid. `exclude` is the
    /// card being cast or activated; `what` names it in errors.
    pub(crate) fn step(&mut self, g: &mut Game, player: u8, filter: &crate::filter::CardFilter, exclude: u32, given: Option<ObjId>, what: &str) -> Result<Option<Decision>> {
        if self.done {
            return Ok(None);
        }
        let f = filter;
        if self.card.is_none() {
            if self.asked_which {
                self.asked_which = false;
                let Answer::Cards { cards } = g.take_answer() else { unreachable!("validated") };
                self.card = cards.first().copied();
            } else {
                let hand = &g.players[player as usize].hand;
                let options: Vec<ObjId> = hand.iter().filter(|&&s| s != exclude && f.matches(g.def_of_slot(s))).map(|&s| g.id_of(s)).collect();
                match given {
                    Some(c) if options.contains(&c) => self.card = Some(c),
                    Some(c) => return Err(illegal(format!("object {} is not a {} in player {player}'s hand, so it can't be discarded for {what}", c.0, f.card_phrase()))),
                    None if options.is_empty() => return Err(Error::CannotPay(format!("player {player} has no {} in hand to discard for {what}", f.card_phrase()))),
                    None => {
                        self.asked_which = true;
                        return Ok(Some(Decision { player, purpose: Purpose::CostChoice, choice: Choice::Cards { options, min: 1, max: 1 } }));
                    }
                }
            }
        }
        if self.asked_where {
            self.asked_where = false;
            let Answer::Cards { cards } = g.take_answer() else { unreachable!("validated") };
            self.hidden = !cards.is_empty();
            if self.hidden && !f.is_any() {
                return Err(illegal(format!(
                    "the discarded card would go to a hidden zone, where it has no characteristics, so it can't pay \"discard a {}\" for {what} (CR 701.9c)",
                    f.card_phrase()
                )));
            }
        } else if let Some(card) = self.card.filter(|_| g.discard_goes_to_library(player, true)) {
            self.asked_where = true;
            return Ok(Some(Decision { player, purpose: Purpose::DiscardToLibrary, choice: Choice::Cards { options: vec![card], min: 0, max: 1 } }));
        }
        self.done = true;
        Ok(None)
    }

    /// See [`Frame::check_stored`]: the card exists, and the cost waits for an answer only
    /// if `asking` (its frame's stage is this cost's).
    pub(crate) fn check_stored(&self, c: &Stored, asking: bool) -> std::result::Result<(), String> {
        c.objects(&self.card)?;
        c.ensure(asking || !self.waiting(), || "waits for a card to discard at another stage".into())
    }

    /// Whether it waits for the answer to a decision (which card, or where it goes).
    pub(crate) fn waiting(&self) -> bool {
        self.asked_which || self.asked_where
    }

    /// Whether the choice is made (nothing more to ask).
    pub(crate) fn decided(&self) -> bool {
        self.done
    }
}

impl Game {
    /// Discards one card from `player`'s hand (CR 701.9a): to the graveyard (or where a
    /// replacement sends it), or, `hidden`, on top of the library instead (CR 701.9c). Fires
    /// the discard triggers; a cycled card fires its cycle triggers first.
    pub(crate) fn discard_one(&mut self, player: u8, slot: u32, by: Option<u8>, random: bool, hidden: bool, cycled: bool) -> crate::object::ObjId {
        let card = if hidden {
            let moved = self.move_slot(slot, ZoneKind::Library, Position::Top);
            // Unrevealed (CR 701.9c): only the discarding player and whoever chose the card
            // know which card it was.
            self.hidden_from_hand(player, slot, 1 << player | by.map_or(0, |b| 1 << b));
            moved
        } else if cycled {
            self.move_slot_cycled(slot)
        } else {
            self.move_slot(slot, ZoneKind::Graveyard, Position::Top)
        };
        self.log.push_with(|| Event::Discarded { player, card, by, random });
        if cycled {
            self.players[player as usize].stats.cycles += 1;
            self.log.push_with(|| Event::Cycled { player, card });
            self.fire_cycle(player, slot, hidden);
        }
        self.fire_discard(player, slot, hidden);
        card
    }
}
