//! Who answers a player's decisions: a built-in policy running inside Rust (the fast path bulk
//! simulation uses), answers scripted up front (what tests use), or the caller step by step.
//! (A Python callable is a Python-side controller, see `python.rs`.)

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::decision::{Answer, Choice, Decision};
use crate::error::{invalid, Result};
use crate::play::PriorityAction;
use crate::rng::Rng;

/// A built-in way of answering.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// A uniformly random legal answer, from the seat's own seeded generator (so the game's
    /// shuffles do not depend on who answers).
    Random,
    /// The first legal answer: the first `max` options; scry keeps everything on top in order;
    /// yes; the largest number (kick whenever affordable, the largest X).
    First,
    /// Nobody inside the engine answers: the game pauses with the decision pending.
    Manual,
    /// Plays a land when it can; then casts the first spell it can pay for; then, at sorcery
    /// speed, activates a planeswalker's first ability that costs no loyalty (+N or 0); then,
    /// in its own main phase, cycles (or typecycles) the first card it can when it lacks lands (no land card
    /// in hand) or spells (nothing in hand but lands and cards with cycling) — but not paying its
    /// last life, nor typecycling for a card its library no longer holds; else passes.
    /// Scries by need: lacking lands, it keeps lands on top and puts the rest on the bottom;
    /// holding a land, the reverse. Aims at opponents; every other choice as `First` (kick as
    /// often as affordable, the largest X).
    Goldfish,
}

impl Policy {
    /// The policy's name, as [`Policy::parse`] reads it: "random", "first", "manual", "goldfish".
    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::First => "first",
            Policy::Manual => "manual",
            Policy::Goldfish => "goldfish",
        }
    }

    /// The policy named `s` (see [`Policy::name`]); an unknown name is an error.
    pub fn parse(s: &str) -> Result<Policy> {
        match s {
            "random" => Ok(Policy::Random),
            "first" => Ok(Policy::First),
            "manual" => Ok(Policy::Manual),
            "goldfish" => Ok(Policy::Goldfish),
            _ => Err(invalid(format!("unknown policy {s:?} (built-in policies: random, first, goldfish, manual)"))),
        }
    }

    /// The policy's answer from the decision alone, or `None` for `Manual`. The goldfish's
    /// priority actions and scries depend on the game: [`Game::goldfish_answer`] gives those.
    pub(crate) fn answer(self, d: &Decision, rng: &mut Rng) -> Option<Answer> {
        match self {
            Policy::Manual => None,
            Policy::First => Some(first_answer(d)),
            Policy::Goldfish => Some(goldfish_answer(d)),
            Policy::Random => Some(random_answer(d, rng)),
        }
    }
}

/// The goldfish `player`'s targets among `options`: the options in order, the goldfish itself
/// put last (a stable ranking), as many as may be chosen (`max`).
pub(crate) fn goldfish_ranked(mut options: Vec<crate::target::TargetRef>, player: u8, max: u32) -> Vec<crate::target::TargetRef> {
    options.sort_by_key(|t| matches!(t, crate::target::TargetRef::Player(p) if *p == player));
    options.truncate(max as usize);
    options
}

pub(crate) fn goldfish_answer(d: &Decision) -> Answer {
    match &d.choice {
        // Aim at opponents first ("target player mills", "any target").
        Choice::Targets { options, max, .. } => Answer::Targets { targets: goldfish_ranked(options.clone(), d.player, *max) },
        _ => first_answer(d),
    }
}

fn first_answer(d: &Decision) -> Answer {
    match &d.choice {
        Choice::Cards { options, max, .. } => Answer::Cards { cards: options[..(*max as usize).min(options.len())].to_vec() },
        Choice::Scry { cards } => Answer::Scry { top: cards.clone(), bottom: Vec::new() },
        Choice::YesNo => Answer::YesNo { yes: true },
        // The greediest legal answer: kick as often as affordable, the largest X.
        Choice::Number { max, .. } => Answer::Number { n: *max },
        Choice::Targets { options, max, .. } => Answer::Targets { targets: options[..(*max as usize).min(options.len())].to_vec() },
        Choice::Actions { .. } => Answer::Action { index: 0 },
        Choice::Modes { min, .. } => Answer::Modes { modes: (0..(*min).max(1)).collect() },
        Choice::Order { options } => Answer::Cards { cards: options.clone() },
    }
}

/// A count uniform in `min..=max` (bounded by the options), then that many options by a
/// partial Fisher–Yates from the front.
fn random_subset<T: Clone>(options: &[T], min: u32, max: u32, rng: &mut Rng) -> Vec<T> {
    let max = (max as usize).min(options.len());
    let min = (min as usize).min(max);
    let k = min + rng.below((max - min + 1) as u64) as usize;
    let mut pool = options.to_vec();
    for i in 0..k {
        let j = i + rng.below((pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    pool.truncate(k);
    pool
}

/// Cards, targets, modes: a random subset. Scry: each card (top first) to the bottom on a coin
/// flip, then each pile shuffled.
fn random_answer(d: &Decision, rng: &mut Rng) -> Answer {
    match &d.choice {
        Choice::Cards { options, min, max } => Answer::Cards { cards: random_subset(options, *min, *max, rng) },
        Choice::Scry { cards } => {
            let (mut top, mut bottom) = (Vec::new(), Vec::new());
            for &c in cards {
                if rng.below(2) == 1 {
                    bottom.push(c)
                } else {
                    top.push(c)
                }
            }
            rng.shuffle(&mut top);
            rng.shuffle(&mut bottom);
            Answer::Scry { top, bottom }
        }
        Choice::YesNo => Answer::YesNo { yes: rng.below(2) == 1 },
        Choice::Number { min, max } => Answer::Number { n: min + rng.below((max - min) as u64 + 1) as u32 },
        Choice::Targets { options, min, max } => Answer::Targets { targets: random_subset(options, *min, *max, rng) },
        Choice::Actions { options } => Answer::Action { index: rng.below(options.len() as u64) as u32 },
        Choice::Modes { count, min, max } => {
            let mut modes = random_subset(&(0..*count).collect::<Vec<u32>>(), *min, *max, rng);
            modes.sort_unstable();
            Answer::Modes { modes }
        }
        Choice::Order { options } => {
            let mut cards = options.clone();
            rng.shuffle(&mut cards);
            Answer::Cards { cards }
        }
    }
}

/// One player's answering arrangements.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// Who answers once the script has run out.
    pub policy: Policy,
    /// Answers given up front, used before the policy.
    pub script: VecDeque<Answer>,
    /// The seat's own generator, which `Random` draws from (seeded apart from the game's, so
    /// the shuffles don't depend on who answers).
    pub rng: Rng,
    /// Pay mana costs automatically (the default); if off, which sources to tap is a decision.
    #[serde(default = "yes")]
    pub auto_pay: bool,
}

/// `true`, as a serde default.
pub(crate) fn yes() -> bool {
    true
}

impl Clone for Seat {
    fn clone(&self) -> Self {
        Seat { policy: self.policy, script: self.script.clone(), rng: self.rng.clone(), auto_pay: self.auto_pay }
    }

    /// Field by field, so batch resets reuse the script's allocation.
    fn clone_from(&mut self, src: &Self) {
        self.policy = src.policy;
        // Usually both empty (a simulation's seats have no script): nothing to copy.
        if !(self.script.is_empty() && src.script.is_empty()) {
            self.script.clone_from(&src.script);
        }
        self.rng.clone_from(&src.rng);
        self.auto_pay = src.auto_pay;
    }
}

impl crate::game::Game {
    /// The goldfish's priority action (see [`Policy::Goldfish`]), among those `allowed`.
    pub(crate) fn goldfish_action(&self, p: u8, allowed: impl Fn(&PriorityAction) -> bool) -> PriorityAction {
        let hand = &self.players[p as usize].hand;
        let sorcery_time = self.step.is_main() && self.active == p && self.stack.is_empty();
        // Outside its sorcery timing it activates nothing, so with nothing to cast it can only
        // pass — most of its priorities, settled without looking over the actions.
        if !sorcery_time && self.nothing_to_cast_outside_sorcery_timing(p) {
            return PriorityAction::Pass;
        }
        // Whether it wants to cycle, found only if a cycling ability comes up (a land or spell
        // it plays first usually settles the action without it).
        // (A plain cell: a `OnceCell` left its initialisation out of line.)
        let cycle = std::cell::Cell::new(None);
        let wants_to_cycle = || match cycle.get() {
            Some(wants) => wants,
            None => {
                use crate::object::Object;
                let flags = |s: u32| self.objects[s as usize].flags;
                let lacks_lands = !hand.iter().any(|&s| flags(s) & Object::LAND != 0);
                let lacks_spells = !hand.iter().any(|&s| flags(s) & (Object::LAND | Object::CYCLING) == 0);
                let wants = sorcery_time && (lacks_lands || lacks_spells);
                cycle.set(Some(wants));
                wants
            }
        };
        // Only a +N or 0 loyalty ability (sorcery speed, CR 606.3) or, when it wants to, cycling
        // are worth asking whether they could be activated.
        // Once it has a cycling to make, later ones would change nothing (unless they are
        // loyalty abilities, taken before it): those aren't asked about.
        let cycling = std::cell::Cell::new(None);
        let considers =
            |a: &crate::rules::ActivatedAbility| a.cost.loyalty.is_some_and(|l| l >= 0) || (a.cycling && (cycling.get().is_none() || a.cost.loyalty.is_some()) && wants_to_cycle());
        let mut loyalty = None;
        let mut chosen = None;
        self.visit_priority_actions(p, sorcery_time.then_some(&considers as &dyn Fn(&crate::rules::ActivatedAbility) -> bool), |a| {
            if !allowed(&a) {
                return false;
            }
            match a {
                PriorityAction::PlayLand { .. } | PriorityAction::Cast { .. } => {
                    chosen = Some(a);
                    true
                }
                PriorityAction::Activate { source, index } => {
                    let ability = &self.def_of_slot(source.slot()).rules.activated[index as usize];
                    if ability.cost.loyalty.is_some() {
                        loyalty = Some(a);
                        return true; // before any cycling
                    }
                    if cycling.get().is_none() && self.goldfish_would_cycle(p, ability) {
                        cycling.set(Some(a));
                    }
                    false
                }
                PriorityAction::Pass => false,
            }
        });
        chosen.or(loyalty).or(cycling.get()).unwrap_or(PriorityAction::Pass)
    }

    /// Whether the goldfish would pay for this cycling: not with its last life (Street Wraith
    /// at 2), and not to search for a card its library no longer holds (Islandcycling with no
    /// Island left: it knows what its library holds, if not in which order).
    fn goldfish_would_cycle(&self, p: u8, ability: &crate::rules::ActivatedAbility) -> bool {
        if ability.cost.pay_life as i64 >= self.players[p as usize].life as i64 {
            return false;
        }
        ability.effects.iter().all(|e| match e {
            crate::rules::Effect::Search { filter, who: crate::rules::Who::You, .. } => self.players[p as usize].library.iter().any(|&s| filter.matches(self.def_of_slot(s))),
            _ => true,
        })
    }

    /// The goldfish's answers that depend on the game: its priority action and scry by need.
    /// `None`: answered from the decision alone ([`Policy::answer`]).
    pub(crate) fn goldfish_answer(&self, d: &Decision) -> Option<Answer> {
        match &d.choice {
            Choice::Actions { options } => {
                let action = self.goldfish_action(d.player, |a| options.contains(a));
                Some(Answer::Action { index: options.iter().position(|&a| a == action).unwrap_or(0) as u32 })
            }
            Choice::Scry { cards } => {
                let keeps = self.goldfish_keeps_on_top(d.player);
                let (top, bottom) = cards.iter().partition(|c| keeps(c.slot()));
                Some(Answer::Scry { top, bottom })
            }
            _ => None,
        }
    }

    /// Which scried cards (by slot) `p`'s goldfish keeps on top: lands while its hand has
    /// none, else the other cards.
    pub(crate) fn goldfish_keeps_on_top(&self, p: u8) -> impl Fn(u32) -> bool + '_ {
        let land = |s: u32| self.objects[s as usize].flags & crate::object::Object::LAND != 0;
        let lacks_lands = !self.players[p as usize].hand.iter().any(|&s| land(s));
        move |s| land(s) == lacks_lands
    }
}

#[cfg(test)]
mod tests {
    use crate::game::Game;
    use crate::play::PriorityAction;
    use crate::zone::{Position, ZoneKind};

    #[test]
    fn the_goldfish_aims_at_others_first_keeping_the_options_order() {
        // The goldfish's targets are the options ranked stably with itself last, as many as
        // it may choose: for random lists of players and objects. Mutation caught: its own
        // player options kept in place.
        use crate::decision::{Answer, Choice, Decision, Purpose};
        use crate::target::TargetRef;
        let mut rng = crate::rng::Rng::new(0x7a6e);
        for _ in 0..500 {
            let options: Vec<TargetRef> =
                (0..rng.below(7)).map(|_| if rng.below(2) == 0 { TargetRef::Player(rng.below(3) as u8) } else { TargetRef::Object(crate::object::ObjId(rng.below(5))) }).collect();
            let max = rng.below(options.len() as u64 + 2) as u32;
            let d = Decision { player: 1, purpose: Purpose::Targets { index: 0 }, choice: Choice::Targets { options: options.clone(), min: 0, max } };
            let mut ranked = options.clone();
            ranked.sort_by_key(|t| *t == TargetRef::Player(1));
            ranked.truncate(max as usize);
            assert_eq!(super::goldfish_answer(&d), Answer::Targets { targets: ranked }, "{options:?} {max}");
        }
    }

    #[test]
    fn the_goldfish_cycles_the_first_card_it_would_and_takes_a_loyalty_ability_before() {
        // Holding no land, the goldfish cycles (CR 702.29): the first card it would cycle, not
        // the first it could (Street Wraith at 2 life isn't: that pays its last life). A loyalty
        // ability it could activate comes first (CR 606.3), even one found after a cycling and
        // even a cycling one: Jace's +1, and a walker's "cycling" -1.
        let db = crate::test_support::builtin_and([serde_json::json!({"name": "Cycling Walker", "mana_cost": "{3}", "type_line": "Planeswalker — Test", "loyalty": "3",
                "rules": {"activated": [{"cost": {"loyalty": -1}, "cycling": true, "effects": [{"draw": {"count": 1}}]}]}})]);
        for (life, walker) in [(20, None), (2, None), (20, Some("Jace, Wielder of Mysteries")), (20, Some("Cycling Walker"))] {
            let mut g = Game::new(2, 1).unwrap();
            g.add_cards(0, ZoneKind::Library, &["Island"; 5], Position::Top, &db).unwrap();
            g.add_cards(0, ZoneKind::Battlefield, &["Island"; 2], Position::Top, &db).unwrap();
            let hand = g.add_cards(0, ZoneKind::Hand, &["Street Wraith", "Lórien Revealed"], Position::Top, &db).unwrap();
            g.players[0].life = life;
            let walker = walker.map(|name| {
                let w = g.add_cards(0, ZoneKind::Battlefield, &[name], Position::Top, &db).unwrap()[0];
                g.put_counters(w.slot(), "loyalty", 3).unwrap();
                w
            });
            let expected = match walker {
                Some(w) => PriorityAction::Activate { source: w, index: 0 },
                None => {
                    let card = if life > 2 { hand[0] } else { hand[1] };
                    PriorityAction::Activate { source: card, index: 0 }
                }
            };
            assert_eq!(g.goldfish_action(0, |_| true), expected, "life {life}, walker {walker:?}");
        }
    }
}
