//! Scrying (CR 701.22).

use serde::{Deserialize, Serialize};

use crate::decision::{Answer, Choice, Decision, Purpose};
use crate::error::Result;
use crate::event::Event;
use crate::game::{check_count, Game, Progress};
use crate::process::{Frame, Step, Stored};

/// One entry per scrying player: a few, kept inline (saved as a list all the same).
type PerPlayer<T> = smallvec::SmallVec<[T; 4]>;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ScryProc {
    /// The scrying players in APNAP order ...
    players: PerPlayer<u8>,
    /// ... and how many cards each scries (none scries 0, CR 701.22b).
    #[serde(default)]
    amounts: PerPlayer<u32>,
    /// The one amount for every player that earlier versions saved instead of `amounts`.
    #[serde(default, rename = "amount", skip_serializing)]
    saved_amount: Option<u32>,
    /// Answers so far, one per player in `players` order: (top, bottom) slots, top first.
    piles: smallvec::SmallVec<[(Vec<u32>, Vec<u32>); 2]>,
    asked: bool,
}

impl Game {
    /// The player scries `n` (CR 701.22a). Scry 0 does nothing and is no scry event (701.22b).
    pub fn scry(&mut self, player: usize, n: i64) -> Result<Progress> {
        self.scry_each(&[player], n)
    }

    /// Several players scry `n` at once: each looks at their top cards, they decide in APNAP
    /// order, then all the cards move at the same time (CR 701.22c). Each player's "scried"
    /// event comes after the whole process, even when it was partly impossible (701.22d).
    pub fn scry_each(&mut self, players: &[usize], n: i64) -> Result<Progress> {
        self.ensure_idle()?;
        let players = self.check_player_set(players)?;
        let amount = check_count(n, "scry amount")?;
        if amount == 0 {
            return Ok(Progress::Done(Vec::new()));
        }
        match self.scry_frame(players.into_iter().map(|p| (p, amount))) {
            Some(frame) => self.perform(frame),
            None => Ok(Progress::Done(Vec::new())),
        }
    }

    /// The scry of each (player, amount), in APNAP order, as a frame for effects. A player
    /// told to scry 0 doesn't scry at all (CR 701.22b); `None` if nobody scries.
    pub(crate) fn scry_frame(&mut self, scries: impl IntoIterator<Item = (u8, u32)>) -> Option<Frame> {
        let (players, amounts): (PerPlayer<u8>, PerPlayer<u32>) = scries.into_iter().filter(|&(_, n)| n > 0).unzip();
        if players.is_empty() {
            return None;
        }
        let proc = ScryProc { players, amounts, saved_amount: None, piles: Default::default(), asked: false };
        Some(Frame::Scry(self.spare_scry.boxed(proc)))
    }

    /// `p`, still in the game, scries `amount` (more than 0) alone, answered by their policy at
    /// once (see [`Game::answer_at_once`]): what the scry's frame does, asked and answered,
    /// done without the frame. `false`, having changed nothing, when the answer is another's
    /// (a script, strict mode, a manual player) or the game is over: the frame is needed.
    pub(crate) fn scry_at_once(&mut self, p: u8, amount: u32) -> bool {
        let seat = &self.seats[p as usize];
        if self.outcome.is_some() || self.strict || !seat.script.is_empty() || seat.policy == crate::policy::Policy::Manual {
            return false;
        }
        let lib = &self.players[p as usize].library;
        let k = (amount as usize).min(lib.len());
        if k > 0 && self.goldfish_scries_itself(p) {
            self.goldfish_scry(p, amount, k);
            return true;
        }
        let cards: Vec<_> = lib[lib.len() - k..].iter().rev().map(|&s| self.id_of(s)).collect();
        self.show_to(p, &cards);
        let d = Decision { player: p, purpose: Purpose::Scry, choice: Choice::Scry { cards } };
        let Some(Answer::Scry { top, bottom }) = self.answer_at_once(&d) else { unreachable!("a policy answers a scry with a scry") };
        let slots = |pile: Vec<crate::object::ObjId>| pile.into_iter().map(|c| c.slot()).collect::<smallvec::SmallVec<[u32; 4]>>();
        let (top, bottom) = (slots(top), slots(bottom));
        self.put_scried(p, &top, &bottom);
        self.scried(p, amount, &top, &bottom);
        true
    }

    /// Whether `p`'s goldfish answers their scry itself (see [`Game::answers_itself`]) in a game
    /// whose log doesn't record, so it can be answered by slots without building the decision
    /// or its answer.
    fn goldfish_scries_itself(&self, p: u8) -> bool {
        #[cfg(test)]
        if crate::process::GOLDFISH_ASKS.with(std::cell::Cell::get) {
            return false;
        }
        self.answers_itself(p, crate::policy::Policy::Goldfish) && !self.log.recording
    }

    /// `p`'s goldfish scries its top `k` cards (more than 0: the decision isn't forced) with
    /// the answer it gives the scry's decision ([`Game::goldfish_keeps_on_top`]), recorded as
    /// `answer_at_once` records it.
    fn goldfish_scry(&mut self, p: u8, amount: u32, k: usize) {
        let keeps = self.goldfish_keeps_on_top(p);
        let lib = &self.players[p as usize].library;
        let (top, bottom): (smallvec::SmallVec<[u32; 4]>, smallvec::SmallVec<[u32; 4]>) = lib[lib.len() - k..].iter().rev().copied().partition(|&s| keeps(s));
        drop(keeps);
        self.show_slots_to(p, top.iter().chain(&bottom).copied()); // the cards it looked at
        self.unrecorded = true; // as `record_answer` marks a game whose log doesn't record
        self.put_scried(p, &top, &bottom);
        self.scried(p, amount, &top, &bottom);
    }

    /// `p`'s scried cards go back, `top` on top (its first card highest) and `bottom` beneath.
    fn put_scried(&mut self, p: u8, top: &[u32], bottom: &[u32]) {
        let looked = top.len() + bottom.len();
        if looked > 1 {
            // Rearranged: only the scrier can tell which card is which now. A single card
            // is followed by everyone to the top or bottom.
            self.learn_slots(p, top.iter().chain(bottom).copied());
        }
        let lib = &mut self.players[p as usize].library;
        lib.truncate(lib.len() - looked);
        // Stored bottom first: the bottom pile's last card goes lowest, the top pile's
        // first card highest.
        lib.splice(0..0, bottom.iter().rev().copied());
        lib.extend(top.iter().rev());
    }

    /// `p` has scried `amount` (CR 701.22d): the event, and what triggers on it.
    fn scried(&mut self, p: u8, amount: u32, top: &[u32], bottom: &[u32]) {
        let (looked, to_bottom) = ((top.len() + bottom.len()) as u32, bottom.len() as u32);
        self.log.push_with(|| Event::Scried { player: p, amount, looked, to_bottom });
        self.fire(crate::trigger::TriggerEvent::Scried { player: p }); // "whenever you scry"
    }
}

impl ScryProc {
    /// The question asked is withdrawn: the player it was asked of left the game, and scries
    /// nothing (CR 800.4a); the others go on.
    pub(crate) fn withdraw_question(&mut self) {
        if std::mem::take(&mut self.asked) {
            self.piles.push((Vec::new(), Vec::new()));
        }
    }

    /// See [`Frame::check_stored`].
    pub(crate) fn check_stored(&self, c: &Stored) -> std::result::Result<(), String> {
        let g = c.g;
        for (i, &p) in self.players.iter().enumerate() {
            c.player(p)?;
            c.ensure(!self.players[..i].contains(&p), || format!("lists player {p} twice"))?;
        }
        let (n, decided) = (self.players.len(), self.piles.len());
        c.ensure(self.saved_amount.is_some() || self.amounts.len() == n, || format!("has {} amounts for {n} players", self.amounts.len()))?;
        c.ensure(decided + usize::from(self.asked) <= n, || format!("has {decided} players' piles for {n} players"))?;
        // The piles, and the cards the decision shows, are the top of the player's library:
        // they are taken off it and put back.
        let on_top = |p: u8, slots: &mut Vec<u32>| {
            let lib = &g.players[p as usize].library;
            slots.sort_unstable();
            let mut top = lib[lib.len().saturating_sub(slots.len())..].to_vec();
            top.sort_unstable();
            *slots == top
        };
        for (&p, (top, bottom)) in self.players.iter().zip(&self.piles) {
            let mut slots: Vec<u32> = top.iter().chain(bottom).copied().collect();
            c.ensure(g.players[p as usize].lost.is_some() || on_top(p, &mut slots), || format!("has piles that aren't the top of player {p}'s library"))?;
        }
        c.waits(self.asked, |choice| match choice {
            Choice::Scry { cards } => on_top(self.players[decided], &mut cards.iter().map(|c| c.slot()).collect()),
            _ => false,
        })
    }

    pub(crate) fn step(mut self: Box<Self>, g: &mut Game) -> Step {
        if let Some(n) = self.saved_amount.take() {
            self.amounts = smallvec::smallvec![n; self.players.len()];
        }
        if self.asked {
            let Answer::Scry { top, bottom } = g.take_answer() else { unreachable!("validated against a scry decision") };
            self.piles.push((top.iter().map(|c| c.slot()).collect(), bottom.iter().map(|c| c.slot()).collect()));
            self.asked = false;
        }
        while let Some(&p) = self.players.get(self.piles.len()) {
            if g.players[p as usize].lost.is_none() {
                break;
            }
            self.piles.push((Vec::new(), Vec::new())); // left the game (CR 800.4a): nothing to do
        }
        if let Some(&p) = self.players.get(self.piles.len()) {
            // Libraries don't change until everyone has decided, so looking now is looking
            // at the same time.
            let lib = &g.players[p as usize].library;
            let k = (self.amounts[self.piles.len()] as usize).min(lib.len());
            let cards: Vec<_> = lib[lib.len() - k..].iter().rev().map(|&s| g.id_of(s)).collect();
            g.show_to(p, &cards); // the scrying player looks at them (CR 701.22a); others still know what they knew
            self.asked = true;
            let d = Decision { player: p, purpose: Purpose::Scry, choice: Choice::Scry { cards } };
            return Step::Ask(Frame::Scry(self), d);
        }
        for (&p, (top, bottom)) in self.players.iter().zip(&self.piles) {
            if g.players[p as usize].lost.is_none() {
                g.put_scried(p, top, bottom);
            }
        }
        for ((&p, &amount), (top, bottom)) in self.players.iter().zip(&self.amounts).zip(&self.piles) {
            if g.players[p as usize].lost.is_none() {
                g.scried(p, amount, top, bottom);
            }
        }
        g.spare_scry.keep(self);
        Step::Done
    }
}

#[cfg(test)]
mod tests {
    use crate::decision::Answer;
    use crate::game::{Game, Progress};
    use crate::policy::Policy;
    use crate::process::GOLDFISH_ASKS;
    use crate::zone::{Position, ZoneKind};

    // A goldfish's lone scry answered by slots (Game::goldfish_scry) is the scry its decision
    // asked and answered gives (CR 701.22): whole games both ways, recording or not, the same.
    // Mutation caught: the fast path's piles swapped. A scripted goldfish still scries by its
    // script, in the same frames either way.
    #[test]
    fn a_goldfish_scry_answered_by_slots_is_the_scry_asked() {
        let decks: Vec<Vec<String>> = vec![
            crate::test_support::deck(&[
                ("Island", 16),
                ("Forest", 4),
                ("Temple of Malady", 4),
                ("Joint Exploration", 12),
                ("Ruin Crab", 4),
                ("Grizzly Bears", 8),
                ("Lórien Revealed", 4),
                ("Street Wraith", 8),
            ]),
            crate::test_support::example_decks().swap_remove(0),
        ];
        for seed in 0..36 {
            let games = crate::test_support::played_both_ways(&decks, seed, seed % 4 == 3, |asked| GOLDFISH_ASKS.with(|c| c.set(asked)));
            assert_eq!(games[0].save_json(), games[1].save_json(), "seed {seed}");
            assert_eq!(games[0].events(), games[1].events(), "seed {seed}");
            assert!(games[0].history == games[1].history && games[0].unrecorded == games[1].unrecorded, "seed {seed}");
        }
        let db = crate::card::CardDb::builtin();
        let games = [true, false].map(|asked| {
            GOLDFISH_ASKS.with(|c| c.set(asked));
            let mut g = Game::new(2, 1).unwrap();
            g.set_policy(0, Policy::Goldfish).unwrap();
            g.add_cards(0, ZoneKind::Battlefield, &["Island"; 2], Position::Top, db).unwrap();
            g.add_cards(0, ZoneKind::Library, &["Grizzly Bears", "Forest"], Position::Top, db).unwrap();
            let spell = g.add_cards(0, ZoneKind::Hand, &["Joint Exploration"], Position::Top, db).unwrap()[0];
            g.cast(spell, crate::casting::CastOptions::default()).unwrap();
            // The goldfish, holding no land, would keep the Forest on top and draw it: the
            // script keeps the Grizzly Bears there.
            let library = g.zone(0, ZoneKind::Library).unwrap();
            let (top, bottom) = library.into_iter().partition(|c| &*g.def_of_slot(c.slot()).name == "Grizzly Bears");
            g.script(0, vec![Answer::Scry { top, bottom }]).unwrap();
            let progress = g.resolve_top().unwrap();
            GOLDFISH_ASKS.with(|c| c.set(false));
            assert!(matches!(progress, Progress::Done(_)) && g.pending().is_none() && g.seats[0].script.is_empty());
            let hand: Vec<_> = g.players[0].hand.iter().map(|&s| g.def_of_slot(s).name.to_string()).collect();
            (g.save_json(), g.events().to_vec(), hand)
        });
        assert_eq!(games[0], games[1]);
        assert_eq!(games[0].2, ["Grizzly Bears"]);
    }
}
