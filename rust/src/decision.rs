//! Decisions (GUIDE §4): when the rules give a player a choice, the game stops with a pending
//! decision that says who decides, what kind of choice it is and the legal options, and goes on
//! when it is answered. A decision with exactly one legal answer is not asked.

use std::collections::HashSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::object::ObjId;
use crate::play::PriorityAction;
use crate::target::TargetRef;

/// What the choice is for; part of the prompt, and lets policies play sensibly.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// Choose cards of `player`'s hand to discard (CR 701.9b).
    Discard {
        /// The player whose hand it is, who discards (the decision's player may be another
        /// player choosing for them, CR 701.9b).
        player: u8,
    },
    /// Choose cards found by a search (CR 701.23).
    Search,
    /// Whether to search at all ("you may search", CR 701.23g).
    MaySearch,
    /// Put the looked-at cards on top or bottom (CR 701.22a).
    Scry,
    /// Whether to pay kicker ability `index` of the spell being cast (CR 601.2b, 702.33a).
    Kicker {
        /// Which kicker, from 0: the card's own in printed order (kicker A, B), then those
        /// other objects grant it (sticker kicker).
        index: u8,
    },
    /// How many times to pay a multikicker cost (CR 702.33c).
    Multikicker {
        /// Which kicker, counted as for [`Purpose::Kicker`].
        index: u8,
    },
    /// The value of X (CR 601.2b, 107.3).
    ChooseX,
    /// The targets for target `index` of a spell (CR 601.2c).
    Targets {
        /// Which "target" of the spell or ability, from 0 in printed order.
        index: u8,
    },
    /// Which mana sources to tap to pay a cost (CR 601.2g–h).
    PayMana,
    /// Whether to put a sticker on the spell (sticker kicker, CR 702.33h).
    Sticker,
    /// Which card to put from hand onto the battlefield ("you may put a land card...").
    PutFromHand,
    /// What to do with priority: pass, play a land, cast a spell (CR 117).
    Priority,
    /// Which modes of a modal spell (CR 700.2, 601.2b).
    Modes,
    /// Which of the milled cards to put into hand (CR 701.17c).
    PutFromMilled,
    /// The order to put one player's simultaneous triggered abilities on the stack, first
    /// put (last to resolve) first (CR 603.3b).
    OrderTriggers,
    /// The order to apply replacement effects to one event, first applied first (CR 616.1);
    /// the options are the permanents whose effects they are.
    OrderReplacements,
    /// Whether to do a "you may" instruction or pay a "you may pay" cost (CR 608.2d).
    May,
    /// Whether to put the card being discarded on top of the library instead (CR 614.1a,
    /// 701.9c): choose it for yes, nothing for no.
    DiscardToLibrary,
    /// Which permanent to sacrifice, or card to discard, to pay a cost (CR 601.2h, 602.2b).
    CostChoice,
    /// Which legendary permanent to keep (the legend rule, CR 704.5j).
    LegendRule,
    /// Which cards in the opening hand to begin the game with on the battlefield (CR 103.6a).
    BeginOnBattlefield,
}

impl Purpose {
    /// The snake_case name the Python `Decision.purpose` and prompts use ("discard", "x",
    /// "order_triggers", ...). Not always the serde form: `ChooseX` is "x" here.
    pub fn name(self) -> &'static str {
        match self {
            Purpose::Discard { .. } => "discard",
            Purpose::Search => "search",
            Purpose::MaySearch => "may_search",
            Purpose::Scry => "scry",
            Purpose::Kicker { .. } => "kicker",
            Purpose::Multikicker { .. } => "multikicker",
            Purpose::ChooseX => "x",
            Purpose::Targets { .. } => "targets",
            Purpose::PayMana => "pay_mana",
            Purpose::Sticker => "sticker",
            Purpose::PutFromHand => "put_from_hand",
            Purpose::Priority => "priority",
            Purpose::Modes => "modes",
            Purpose::PutFromMilled => "put_from_milled",
            Purpose::OrderTriggers => "order_triggers",
            Purpose::OrderReplacements => "order_replacements",
            Purpose::May => "may",
            Purpose::DiscardToLibrary => "discard_to_library",
            Purpose::CostChoice => "cost_choice",
            Purpose::LegendRule => "legend_rule",
            Purpose::BeginOnBattlefield => "begin_on_battlefield",
        }
    }
}

/// The shape of the choice and its legal options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Choice {
    /// Choose between `min` and `max` distinct cards from `options`; order matters where the
    /// cards go to an ordered zone together.
    Cards {
        /// The ids of the cards that may be chosen.
        options: Vec<ObjId>,
        /// The fewest to choose.
        min: u32,
        /// The most to choose.
        max: u32,
    },
    /// Split `cards` (top of the library first) into a top pile and a bottom pile, each in the
    /// order given, top first.
    Scry {
        /// The cards looked at, top of the library first: the top N, or the whole library if it has fewer (CR 701.22a).
        cards: Vec<ObjId>,
    },
    /// Yes or no (answered with [`Answer::YesNo`]).
    YesNo,
    /// A number from `min` to `max`.
    Number {
        /// The smallest allowed.
        min: u32,
        /// The largest allowed.
        max: u32,
    },
    /// Between `min` and `max` distinct targets from `options` (objects or players).
    Targets {
        /// The legal targets for this "target" (CR 601.2c).
        options: Vec<TargetRef>,
        /// The fewest to choose.
        min: u32,
        /// The most to choose.
        max: u32,
    },
    /// One of the actions the player with priority may take (answered by its index).
    Actions {
        /// The legal actions, passing first (CR 117.3d).
        options: Vec<PriorityAction>,
    },
    /// Between `min` and `max` distinct modes out of `count` (answered by their indices).
    Modes {
        /// How many modes the spell has; they are numbered from 0 in printed order.
        count: u32,
        /// The fewest modes to choose.
        min: u32,
        /// The most modes to choose.
        max: u32,
    },
    /// Put all of `options` in an order (answered by the ids in that order).
    Order {
        /// The ids to order (triggered abilities, or the permanents whose replacement effects apply).
        options: Vec<ObjId>,
    },
}

/// A pending choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// Who decides: not always the player affected (another player can choose a discard).
    pub player: u8,
    /// What the choice is for.
    pub purpose: Purpose,
    /// The shape of the answer and the legal options.
    pub choice: Choice,
}

/// An answer to a decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Answer {
    /// For [`Choice::Cards`] and [`Choice::Order`].
    Cards {
        /// The chosen ids; for an order, every option in the order chosen.
        cards: Vec<ObjId>,
    },
    /// For [`Choice::Scry`]: every card looked at, in exactly one of the piles.
    Scry {
        /// The cards to leave on top, the first on the very top.
        top: Vec<ObjId>,
        /// The cards to put on the bottom, top first: the last goes lowest.
        bottom: Vec<ObjId>,
    },
    /// For [`Choice::YesNo`].
    YesNo {
        /// True for yes.
        yes: bool,
    },
    /// For [`Choice::Number`].
    Number {
        /// The number chosen.
        n: u32,
    },
    /// For [`Choice::Targets`].
    Targets {
        /// The chosen targets, each at most once.
        targets: Vec<TargetRef>,
    },
    /// For [`Choice::Actions`].
    Action {
        /// The index of the chosen action in the options (0 is passing).
        index: u32,
    },
    /// For [`Choice::Modes`].
    Modes {
        /// The indices of the chosen modes, each at most once.
        modes: Vec<u32>,
    },
}

impl Decision {
    /// The name of the choice's shape that the Python `Decision.kind` shows ("choose_cards",
    /// "scry", "yes_no", "number", "targets", "action", "modes", "order").
    pub fn kind(&self) -> &'static str {
        match self.choice {
            Choice::Cards { .. } => "choose_cards",
            Choice::Scry { .. } => "scry",
            Choice::YesNo => "yes_no",
            Choice::Number { .. } => "number",
            Choice::Targets { .. } => "targets",
            Choice::Actions { .. } => "action",
            Choice::Modes { .. } => "modes",
            Choice::Order { .. } => "order",
        }
    }

    /// Checks an answer against the legal options; `Ok` means it can be applied as is.
    pub fn validate(&self, answer: &Answer) -> Result<()> {
        let bad = |reason: String| Error::InvalidAnswer { decision: self.to_string(), reason };
        match (&self.choice, answer) {
            (Choice::Cards { options, min, max }, Answer::Cards { cards }) => {
                let n = cards.len() as u32;
                if n < *min || n > *max {
                    let range = if min == max { format!("exactly {min}") } else { format!("between {min} and {max}") };
                    return Err(bad(format!("chose {n} card(s), must choose {range}")));
                }
                let mut seen = HashSet::with_capacity(cards.len());
                for c in cards {
                    if !options.contains(c) {
                        return Err(bad(format!("{} is not one of the options {:?}", c.0, ids(options))));
                    }
                    if !seen.insert(*c) {
                        return Err(bad(format!("{} is chosen twice", c.0)));
                    }
                }
                Ok(())
            }
            (Choice::Scry { cards }, Answer::Scry { top, bottom }) => {
                let mut given: Vec<ObjId> = top.iter().chain(bottom).copied().collect();
                let mut expected = cards.clone();
                given.sort_unstable();
                expected.sort_unstable();
                if given != expected {
                    return Err(bad(format!("top and bottom together must hold each of {:?} exactly once, got top {:?} bottom {:?}", ids(cards), ids(top), ids(bottom))));
                }
                Ok(())
            }
            (Choice::YesNo, Answer::YesNo { .. }) => Ok(()),
            (Choice::Modes { count, min, max }, Answer::Modes { modes }) => {
                let n = modes.len() as u32;
                if n < *min || n > *max {
                    return Err(bad(format!("chose {n} mode(s), must choose between {min} and {max}")));
                }
                for (i, m) in modes.iter().enumerate() {
                    if m >= count {
                        return Err(bad(format!("mode {m} doesn't exist (modes are 0 to {})", count - 1)));
                    }
                    if modes[..i].contains(m) {
                        return Err(bad(format!("mode {m} is chosen twice")));
                    }
                }
                Ok(())
            }
            (Choice::Actions { options }, Answer::Action { index }) => {
                if *index as usize >= options.len() {
                    return Err(bad(format!("action {index} doesn't exist; there are {} (0 to {})", options.len(), options.len() - 1)));
                }
                Ok(())
            }
            (Choice::Number { min, max }, Answer::Number { n }) => {
                if n < min || n > max {
                    return Err(bad(format!("{n} is not between {min} and {max}")));
                }
                Ok(())
            }
            (Choice::Targets { options, min, max }, Answer::Targets { targets }) => {
                let n = targets.len() as u32;
                if n < *min || n > *max {
                    let range = if min == max { format!("exactly {min}") } else { format!("between {min} and {max}") };
                    return Err(bad(format!("chose {n} target(s), must choose {range}")));
                }
                for (i, t) in targets.iter().enumerate() {
                    if !options.contains(t) {
                        return Err(bad(format!("{t} is not a legal target here")));
                    }
                    if targets[..i].contains(t) {
                        return Err(bad(format!("{t} is chosen twice for one \"target\" (CR 601.2c)")));
                    }
                }
                Ok(())
            }
            (Choice::Order { options }, Answer::Cards { cards }) => {
                let mut sorted = cards.clone();
                sorted.sort();
                let mut want = options.clone();
                want.sort();
                if sorted != want {
                    return Err(bad(format!("must list each of {:?} exactly once, in the chosen order", ids(options))));
                }
                Ok(())
            }
            _ => Err(bad(format!("expected an answer of kind {}, got {}", self.kind(), answer.kind()))),
        }
    }

    /// Drops the options that are gone: objects that no longer exist and players who left the
    /// game (CR 800.4a), so an answer naming one is refused. A search asks for no more cards
    /// than are left to find: one of a library that left with its owner finds nothing.
    pub(crate) fn drop_departed(&mut self, exists: impl Fn(ObjId) -> bool, in_game: impl Fn(u8) -> bool) {
        match &mut self.choice {
            Choice::Cards { options, min, max } => {
                options.retain(|&o| exists(o));
                if self.purpose == Purpose::Search {
                    let left = options.len() as u32;
                    (*min, *max) = ((*min).min(left), (*max).min(left));
                }
            }
            Choice::Targets { options, .. } => options.retain(|t| match *t {
                TargetRef::Object(o) => exists(o),
                TargetRef::Player(p) => in_game(p),
            }),
            _ => {}
        }
    }

    /// No answer is legal: fewer options are left than must be chosen.
    pub(crate) fn unanswerable(&self) -> bool {
        match &self.choice {
            Choice::Cards { options, min, .. } => (options.len() as u32) < *min,
            Choice::Targets { options, min, .. } => (options.len() as u32) < *min,
            _ => false,
        }
    }

    /// The only legal answer, when there is exactly one (such decisions are not asked).
    pub fn forced_answer(&self) -> Option<Answer> {
        match &self.choice {
            // Nothing to choose, or everything must be chosen. (The order of cards that reach a
            // graveyard together is not asked: they keep the order they were chosen or milled
            // in; see the README, "Order".)
            Choice::Cards { options, min, .. } if *min as usize >= options.len() => Some(Answer::Cards { cards: options.clone() }),
            Choice::Cards { max: 0, .. } => Some(Answer::Cards { cards: Vec::new() }),
            Choice::Scry { cards } if cards.is_empty() => Some(Answer::Scry { top: Vec::new(), bottom: Vec::new() }),
            Choice::Number { min, max } if min == max => Some(Answer::Number { n: *min }),
            Choice::Targets { options, min, .. } if *min as usize >= options.len() => Some(Answer::Targets { targets: options.clone() }),
            Choice::Targets { max: 0, .. } => Some(Answer::Targets { targets: Vec::new() }),
            Choice::Actions { options } if options.len() == 1 => Some(Answer::Action { index: 0 }),
            Choice::Order { options } if options.len() <= 1 => Some(Answer::Cards { cards: options.clone() }),
            _ => None,
        }
    }
}

impl Decision {
    /// Reads a looser answer as this decision's form (see [`Answer::coerce`]); for "put this
    /// discarded card on top of the library?", yes/no stands for choosing the card or not.
    pub fn coerce(&self, answer: Answer) -> Answer {
        match (answer, &self.choice, self.purpose) {
            (Answer::YesNo { yes }, Choice::Cards { options, .. }, Purpose::DiscardToLibrary) => Answer::Cards { cards: if yes { options.clone() } else { Vec::new() } },
            (a, choice, _) => a.coerce(choice),
        }
    }

    /// A flat, readable form (the same fields as the Python `Decision`).
    pub fn view(&self) -> serde_json::Value {
        use serde_json::json;
        let ids = |v: &[ObjId]| json!(v.iter().map(|o| o.0).collect::<Vec<u64>>());
        let (options, min, max, cards) = match &self.choice {
            Choice::Cards { options, min, max } => (ids(options), *min, *max, json!([])),
            Choice::Scry { cards } => (ids(cards), 0, cards.len() as u32, ids(cards)),
            Choice::YesNo => (json!([]), 0, 1, json!([])),
            Choice::Number { min, max } => (json!([]), *min, *max, json!([])),
            Choice::Targets { options, min, max } => (json!(options.iter().map(TargetRef::view).collect::<Vec<_>>()), *min, *max, json!([])),
            Choice::Actions { options } => (json!(options), 0, options.len().saturating_sub(1) as u32, json!([])),
            Choice::Modes { count, min, max } => (json!((0..*count).collect::<Vec<u32>>()), *min, *max, json!([])),
            Choice::Order { options } => (ids(options), options.len() as u32, options.len() as u32, json!([])),
        };
        json!({
            "player": self.player,
            "kind": self.kind(),
            "purpose": self.purpose.name(),
            "options": options,
            "min": min,
            "max": max,
            "cards": cards,
            "prompt": self.to_string(),
        })
    }
}

impl Answer {
    /// Reads an answer given in a looser form as the form this choice takes: ids for targets
    /// are object targets; 0/1 and yes/no are interchangeable.
    pub fn coerce(self, choice: &Choice) -> Answer {
        match (self, choice) {
            (Answer::Cards { cards }, Choice::Targets { .. }) => Answer::Targets { targets: cards.into_iter().map(TargetRef::Object).collect() },
            (Answer::Number { n }, Choice::YesNo) if n <= 1 => Answer::YesNo { yes: n == 1 },
            (Answer::YesNo { yes }, Choice::Number { .. }) => Answer::Number { n: yes as u32 },
            (Answer::Number { n }, Choice::Actions { .. }) => Answer::Action { index: n },
            (Answer::Cards { cards }, Choice::Modes { .. }) => Answer::Modes { modes: cards.iter().map(|c| u32::try_from(c.0).unwrap_or(u32::MAX)).collect() },
            (Answer::Number { n }, Choice::Modes { .. }) => Answer::Modes { modes: vec![n] },
            (a, _) => a,
        }
    }

    /// The [`Decision::kind`] this form of answer goes with, for messages ("choose_cards" also
    /// answers an "order" decision).
    pub fn kind(&self) -> &'static str {
        match self {
            Answer::Cards { .. } => "choose_cards",
            Answer::Scry { .. } => "scry",
            Answer::YesNo { .. } => "yes_no",
            Answer::Number { .. } => "number",
            Answer::Targets { .. } => "targets",
            Answer::Action { .. } => "action",
            Answer::Modes { .. } => "modes",
        }
    }
}

fn kicker_letter(index: u8) -> char {
    (b'A' + index) as char
}

fn ids(v: &[ObjId]) -> Vec<u64> {
    v.iter().map(|o| o.0).collect()
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {} ", self.player)?;
        match (&self.choice, self.purpose) {
            (Choice::Cards { min, max, .. }, p) => {
                let n = if min == max { min.to_string() } else { format!("{min} to {max}") };
                let what = match p {
                    Purpose::Discard { player } if player == self.player => "to discard".to_string(),
                    Purpose::Discard { player } => format!("for player {player} to discard"),
                    Purpose::Search => "to find".to_string(),
                    Purpose::DiscardToLibrary => "to put on top of their library instead of into the graveyard".to_string(),
                    Purpose::LegendRule => "to keep (the legend rule)".to_string(),
                    Purpose::CostChoice => "to pay the cost with".to_string(),
                    _ => format!("for {}", p.name()),
                };
                write!(f, "chooses {n} card(s) {what}")
            }
            (Choice::Scry { cards }, _) => write!(f, "scries: puts {} card(s) on top or bottom", cards.len()),
            (Choice::YesNo, Purpose::MaySearch) => f.write_str("chooses whether to search"),
            (Choice::YesNo, Purpose::Kicker { index }) => write!(f, "chooses whether to pay kicker {}", kicker_letter(index)),
            (Choice::YesNo, Purpose::Sticker) => f.write_str("chooses whether to put a sticker on the spell"),
            (Choice::Number { min, max }, Purpose::Multikicker { .. }) => write!(f, "chooses how many times to pay multikicker ({min} to {max})"),
            (Choice::Number { min, max }, Purpose::ChooseX) => write!(f, "chooses X ({min} to {max})"),
            (Choice::Number { min, max }, p) => write!(f, "chooses a number from {min} to {max} ({})", p.name()),
            (Choice::Actions { options }, _) => write!(f, "has priority: {} possible action(s)", options.len()),
            (Choice::Modes { count, min, max }, _) => write!(f, "chooses {min} to {max} of {count} modes"),
            (Choice::Targets { min, max, .. }, p) => {
                let n = if min == max { min.to_string() } else { format!("{min} to {max}") };
                match p {
                    Purpose::Targets { index } => write!(f, "chooses {n} target(s) for target {index}"),
                    _ => write!(f, "chooses {n} target(s)"),
                }
            }
            (Choice::Order { options }, Purpose::OrderTriggers) => write!(f, "orders {} triggered abilities (first listed goes on the stack first)", options.len()),
            (Choice::Order { options }, Purpose::OrderReplacements) => write!(f, "orders {} replacement effects (first listed applies first)", options.len()),
            (Choice::Order { options }, p) => write!(f, "orders {} objects ({})", options.len(), p.name()),
            (Choice::YesNo, Purpose::May) => f.write_str("chooses whether to do what the ability says they may"),
            (Choice::YesNo, p) => write!(f, "answers yes or no ({})", p.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(v: &[u64]) -> Vec<ObjId> {
        v.iter().map(|&x| ObjId(x)).collect()
    }

    #[test]
    fn card_answers_are_checked() {
        let d = Decision { player: 0, purpose: Purpose::Discard { player: 0 }, choice: Choice::Cards { options: cards(&[1, 2, 3]), min: 2, max: 2 } };
        assert!(d.validate(&Answer::Cards { cards: cards(&[1, 3]) }).is_ok());
        assert!(d.validate(&Answer::Cards { cards: cards(&[1]) }).is_err());
        assert!(d.validate(&Answer::Cards { cards: cards(&[1, 1]) }).is_err());
        assert!(d.validate(&Answer::Cards { cards: cards(&[1, 9]) }).is_err());
        assert!(d.validate(&Answer::YesNo { yes: true }).is_err());
    }

    #[test]
    fn scry_answers_are_a_partition() {
        let d = Decision { player: 1, purpose: Purpose::Scry, choice: Choice::Scry { cards: cards(&[5, 6]) } };
        assert!(d.validate(&Answer::Scry { top: cards(&[6]), bottom: cards(&[5]) }).is_ok());
        assert!(d.validate(&Answer::Scry { top: cards(&[6, 5]), bottom: vec![] }).is_ok());
        assert!(d.validate(&Answer::Scry { top: cards(&[6]), bottom: vec![] }).is_err());
        assert!(d.validate(&Answer::Scry { top: cards(&[6, 5]), bottom: cards(&[5]) }).is_err());
    }
}
