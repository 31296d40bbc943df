//! Following a spell's or ability's instructions in order (CR 608.2c): the interpreter of the
//! effect vocabulary in `rules.rs`. Instructions that need a player's choice hand over to the
//! action frames (scry, discard, search) and the interpreter continues after them.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::ability::AbilityRef;
use crate::actions::discard::DiscardMode;
use crate::actions::search::{Found, FoundCards, SearchHow, SearchSpec};
use crate::card::CardType;
use crate::continuous::UntilEndOfTurn;
use crate::decision::{Answer, Choice, Decision, Purpose};
use crate::error::{Error, Result};
use crate::event::Event;
use crate::game::Game;
use crate::object::{CastInfo, ObjId};
use crate::process::{Frame, Step, Stored};
use crate::rules::{Amount, Condition, CounterPlace, Dynamic, Effect, RestGo, Who};
use crate::target::TargetRef;
use crate::zone::{Position, ZoneKind};

/// What the instructions of one resolving spell or ability know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EffectCtx {
    /// The player who controls the spell or ability: "you" in its instructions.
    pub controller: u8,
    /// The slot of the spell's card (or the ability's source).
    pub source: u32,
    /// The source's object id, to tell whether the slot still holds that object (CR 400.7).
    pub source_id: ObjId,
    /// How the spell (or the ability's source) was cast: X, kicks, modes ("if it was kicked").
    pub cast: CastInfo,
    /// The targets chosen for each "target" of the spell or ability, in order (CR 601.2c).
    pub targets: Vec<Vec<TargetRef>>,
    /// Which chosen targets were still legal as resolution began (CR 608.2b).
    pub legal: Vec<Vec<bool>>,
    /// The cards this resolution milled, as the objects they became (CR 701.17c).
    #[serde(default)]
    pub milled: Vec<ObjId>,
    /// The spell that triggered this ability ("that spell").
    #[serde(default)]
    pub triggering: Option<ObjId>,
    /// The controller of the triggering object when it triggered ("that permanent's
    /// controller", by last known information).
    #[serde(default)]
    pub triggering_controller: Option<u8>,
    /// Objects the instructions remember ("the duplicate", "the exiled card").
    #[serde(default)]
    pub remembered: Vec<ObjId>,
    /// The power of the permanent sacrificed to activate the ability (CR 608.2h).
    #[serde(default)]
    pub sacrificed_power: i64,
    /// Whether the last optional instruction was done ("if you do").
    #[serde(default)]
    pub did: bool,
    /// Cards drawn so far by these instructions ("for each card drawn this way").
    #[serde(default)]
    pub drawn: u32,
}

impl EffectCtx {
    /// The context of `controller`'s instructions from the object in `source` (`source_id`
    /// while it stays the same object), cast as `cast`: nothing targeted, milled or remembered yet.
    pub fn new(controller: u8, source: u32, source_id: ObjId, cast: CastInfo) -> EffectCtx {
        EffectCtx::targeting(controller, source, source_id, cast, Vec::new(), Vec::new())
    }

    /// [`EffectCtx::new`] with the chosen `targets` and which of them are `legal`: built in
    /// place, with no empty lists made to be dropped.
    pub(crate) fn targeting(controller: u8, source: u32, source_id: ObjId, cast: CastInfo, targets: Vec<Vec<TargetRef>>, legal: Vec<Vec<bool>>) -> EffectCtx {
        EffectCtx {
            controller,
            source,
            source_id,
            cast,
            targets,
            legal,
            milled: Vec::new(),
            triggering: None,
            triggering_controller: None,
            remembered: Vec::new(),
            sacrificed_power: 0,
            did: false,
            drawn: 0,
        }
    }
}

/// Whether `effect`, having asked a decision, takes an answer to `choice`: the pairs
/// [`EffectProc::answered`] handles.
fn takes(effect: &Effect, choice: &Choice) -> bool {
    match effect {
        Effect::PutFromHand { .. } | Effect::MilledToHand { .. } | Effect::PutRevealedToHand { .. } => matches!(choice, Choice::Cards { .. }),
        Effect::Mill { .. } => matches!(choice, Choice::Cards { .. } | Choice::Order { .. }),
        Effect::May { .. } => matches!(choice, Choice::YesNo),
        Effect::MayPay { .. } => matches!(choice, Choice::YesNo | Choice::Cards { .. }),
        _ => false,
    }
}

/// A list of instructions that its resolution follows at once, without the interpreter's
/// proc: "draw N cards" and "mill N cards" by the controller, by their opponent (of two
/// players) or by the player of its one target, N fixed, read from how it was cast or half the
/// player's library rounded up; and, last, an "if" on how it was cast whose branch taken is
/// such a list. A "mill" only before anything else is done, so that an order of replacements
/// it must ask for (CR 616.1) is found with nothing changed. What [`EffectProc::follow`] does
/// for that list, and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlainList {
    /// The instructions, the branch taken flattened in: no list of the card is read again.
    steps: [PlainStep; 4],
    len: u8,
    /// Bit `i`: an "if" was read just before step `i`. A game over by then ends the list
    /// there, its branch never followed (CR 104.1).
    after_if: u8,
    /// An "if" was read: the interpreter follows a branch in place only under its own
    /// resolution (see `EffectProc::resolution_beneath`).
    branches: bool,
    /// The card lists what it milled (see `reads_milled`), as the interpreter would ask.
    keep: bool,
}

/// One "draw" or "mill" of a [`PlainList`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PlainStep {
    mill: bool,
    who: PlainWho,
    /// Where the number comes from: `count`, or read as the step happens.
    by: PlainCount,
    count: u32,
}

/// The player a [`PlainStep`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PlainWho {
    You,
    Opponent,
    Target,
}

/// The number of cards a [`PlainStep`] draws or mills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PlainCount {
    /// Its `count`.
    Fixed,
    /// The X it was cast with (CR 107.3).
    X,
    /// The times its printed kickers were paid.
    Kicks,
    /// Half the player's library rounded up.
    HalfLibrary,
}

/// A list's [`PlainList`] (`None`: not plain) for each way the "if"s on how it was cast can go:
/// indexed by which of its two printed kickers were paid (bit 0 the \[A\] kicker, bit 1 the
/// \[B\]), all that "kicked", "not kicked" and "kicked with" read (`stack::condition_on_cast`).
type PlainForm = [Option<PlainList>; 4];

/// The plain form of each of a card's lists, worked out once per definition (the card
/// database is built once): a resolution reads it rather than reading the list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PlainLists {
    spell: PlainForm,
    as_enters: PlainForm,
    activated: Box<[PlainForm]>,
    triggered: Box<[PlainForm]>,
}

impl PlainLists {
    /// The plain forms of the lists of `rules`, listing what a mill milled if `keep`.
    pub(crate) fn of(rules: &crate::rules::CardRules, keep: bool) -> PlainLists {
        let form = |list: &[Effect]| -> PlainForm {
            std::array::from_fn(|paid| {
                let cast = CastInfo { kicks: [(paid & 1) as u16, (paid >> 1) as u16], ..CastInfo::default() };
                PlainList::from(list, &cast, keep)
            })
        };
        PlainLists {
            spell: form(&rules.spell),
            as_enters: form(&rules.as_enters),
            activated: rules.activated.iter().map(|a| form(&a.effects)).collect(),
            triggered: rules.triggers.iter().map(|t| form(&t.effects)).collect(),
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Set by tests to leave every decision and frame an instruction needs to the run loop,
    /// to compare the two.
    pub(crate) static FRAMED_DECISIONS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// How many decisions and frames (a scry done without one counted) instructions took at
    /// once: what a test of the two ways counts to be sure it compared them.
    pub(crate) static SETTLED_AT_ONCE: std::cell::Cell<[u32; 2]> = const { std::cell::Cell::new([0; 2]) };
    /// Set by tests to resolve every list through the interpreter, to compare the two.
    pub(crate) static INTERPRETED_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// How many lists were followed plainly with a target, with a branch, and as a permanent
    /// entered: what a test of the two ways counts to be sure it compared them.
    pub(crate) static FOLLOWED_PLAINLY: std::cell::Cell<[u32; 3]> = const { std::cell::Cell::new([0; 3]) };
}

impl PlainList {
    /// A list with nothing in it, what `from` adds to.
    const NOTHING: PlainList =
        PlainList { steps: [PlainStep { mill: false, who: PlainWho::You, by: PlainCount::Fixed, count: 0 }; 4], len: 0, after_if: 0, branches: false, keep: false };

    /// The plain list of `def`'s spell (`ability: None`) or of its `ability`, cast as `cast`.
    #[inline(always)]
    pub(crate) fn of(def: &crate::card::CardDef, ability: Option<AbilityRef>, cast: &CastInfo) -> Option<PlainList> {
        let lists = &def.plain_lists;
        let form = match ability {
            None => &lists.spell,
            Some(AbilityRef::Activated(i)) => &lists.activated[i as usize],
            Some(AbilityRef::Triggered(i)) => &lists.triggered[i as usize],
            // Its instructions are the delayed trigger's own, not the card's: interpreted.
            Some(AbilityRef::Delayed) => return None,
        };
        PlainList::as_cast(form, cast)
    }

    /// The plain list of `def`'s "as this enters" instructions (CR 614.1c), cast as `cast`.
    pub(crate) fn of_as_enters(def: &crate::card::CardDef, cast: &CastInfo) -> Option<PlainList> {
        PlainList::as_cast(&def.plain_lists.as_enters, cast)
    }

    /// The list of `form` for the kickers paid in `cast`.
    #[inline(always)]
    fn as_cast(form: &PlainForm, cast: &CastInfo) -> Option<PlainList> {
        form[usize::from(cast.kicks[0] > 0) | usize::from(cast.kicks[1] > 0) << 1]
    }

    /// The plain list of `list`, its "if"s on how it was cast decided by `cast`.
    fn from(list: &[Effect], cast: &CastInfo, keep: bool) -> Option<PlainList> {
        let mut plain = PlainList { keep, ..PlainList::NOTHING };
        plain.add(list, cast)?;
        Some(plain)
    }

    fn add(&mut self, list: &[Effect], cast: &CastInfo) -> Option<()> {
        for (i, effect) in list.iter().enumerate() {
            let (mill, who, count) = match effect {
                Effect::Draw { who, count } => (false, who, count),
                Effect::Mill { who, count } => (true, who, count),
                // Only last: what follows an "if" in its list waits beneath its branch.
                Effect::If { cond: cond @ (Condition::Kicked | Condition::NotKicked | Condition::KickedWith(_)), then, otherwise } if i + 1 == list.len() => {
                    self.after_if |= 1 << self.len;
                    self.branches = true;
                    return self.add(if crate::stack::condition_on_cast(cond, cast) { then } else { otherwise }, cast);
                }
                _ => return None,
            };
            if (mill && self.len > 0) || self.len as usize == self.steps.len() {
                return None;
            }
            let who = match who {
                Who::You => PlainWho::You,
                Who::EachOpponent => PlainWho::Opponent,
                Who::Target(0) => PlainWho::Target,
                _ => return None,
            };
            let (by, count) = match count {
                Amount::Fixed(n) => (PlainCount::Fixed, *n),
                Amount::Dynamic(Dynamic::X) => (PlainCount::X, 0),
                Amount::Dynamic(Dynamic::Kicks) => (PlainCount::Kicks, 0),
                Amount::Dynamic(Dynamic::HalfLibraryRoundedUp) => (PlainCount::HalfLibrary, 0),
                Amount::Dynamic(_) => return None,
            };
            self.steps[self.len as usize] = PlainStep { mill, who, by, count };
            self.len += 1;
        }
        Some(())
    }

    /// Follows the list for `controller`'s spell or ability in `slot`, `target` its one target
    /// still legal (if it chose one), as [`EffectProc::take_over_resolving`] would follow it:
    /// `Some(None)` when it is done and the resolution goes on now; `Some(Some(step))` with the
    /// frame `beneath` put under what the list started (or left for the run loop to drop, the
    /// game over). `None`, having changed nothing, when the interpreter is needed: the game is
    /// over, it has more than two players, a branch isn't under its own controller's
    /// resolution, or the milling player has mill replacements to order (CR 616.1).
    #[inline(always)]
    pub(crate) fn follow(self, g: &mut Game, controller: u8, target: Option<TargetRef>, slot: u32, beneath: crate::stack::ResolveProc) -> Option<Option<Step>> {
        #[cfg(test)]
        if INTERPRETED_ONLY.with(std::cell::Cell::get) {
            return None;
        }
        if g.outcome.is_some() || g.players.len() != 2 || (self.branches && g.objects[slot as usize].controller != controller) {
            return None;
        }
        let depth = g.frames.len();
        for (i, step) in self.steps[..self.len as usize].iter().enumerate() {
            if self.after_if & (1 << i) != 0 && g.outcome.is_some() {
                break;
            }
            let p = match step.who {
                PlainWho::You => controller,
                PlainWho::Opponent => 1 - controller,
                PlainWho::Target => match target {
                    Some(TargetRef::Player(p)) => p,
                    Some(TargetRef::Object(id)) => g.objects[id.slot() as usize].controller,
                    None => continue,
                },
            };
            // A player who left the game is named by none (CR 800.4a).
            if g.players[p as usize].lost.is_some() {
                continue;
            }
            // X and kicks are the resolving object's, which no draw or mill changes.
            let n = match step.by {
                PlainCount::Fixed => step.count,
                PlainCount::X => g.objects[slot as usize].cast.x,
                PlainCount::Kicks => g.objects[slot as usize].cast.printed_kicks(),
                PlainCount::HalfLibrary => (g.players[p as usize].library.len() as u32).div_ceil(2),
            };
            if step.mill {
                // The first step: nothing was done yet.
                let n = g.mill_count(p, n, &[]).ok()?;
                g.mill_top(p, n, self.keep);
            } else {
                for _ in 0..n {
                    g.draw_one(p);
                }
            }
        }
        #[cfg(test)]
        FOLLOWED_PLAINLY.with(|c| {
            let [targeted, branched, entering] = c.get();
            let as_enters = beneath == crate::stack::ResolveProc::entering(slot);
            c.set([targeted + u32::from(target.is_some()), branched + u32::from(self.branches), entering + u32::from(as_enters)]);
        });
        if g.frames.len() == depth && g.outcome.is_none() {
            return Some(None);
        }
        // Beneath what the list pushed, as `take_over_resolving` puts it.
        g.frames.insert(depth, Frame::Resolve(beneath));
        Some(Some(Step::Done))
    }
}

/// A position in a card's instruction tree: the root list, then (index of an `If`, branch).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct EffectProc {
    def: u32,
    root: Root,
    path: Path,
    pc: u16,
    /// Waiting for the answer to a decision the instruction at `pc - 1` asked.
    choosing: bool,
    /// Orders of mill replacement effects chosen so far for the mill at `pc - 1` (CR 616.1).
    #[serde(default)]
    mill_orders: Vec<(u8, Vec<ObjId>)>,
    ctx: EffectCtx,
}

/// The `If` branches taken into a list: a few at most, kept inline (a branch taken allocates
/// nothing).
type Path = smallvec::SmallVec<[(u16, bool); 4]>;

/// Which of a card's instruction lists runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Root {
    Spell,
    AsEnters,
    Mode(u16),
    Ability(AbilityRef),
    /// A delayed triggered ability's own instructions (CR 603.7), or a "you may" body.
    Inline(Arc<Vec<Effect>>),
}

impl EffectCtx {
    /// See [`crate::process::Frame::check_stored`]: the players and objects the instructions
    /// know of exist.
    pub(crate) fn check_stored(&self, c: &Stored) -> std::result::Result<(), String> {
        c.player(self.controller)?;
        c.players(self.triggering_controller)?;
        c.slot(self.source)?;
        c.objects(std::iter::once(&self.source_id).chain(&self.milled).chain(&self.remembered).chain(&self.triggering))?;
        self.targets.iter().flatten().try_for_each(|t| match t {
            TargetRef::Object(id) => c.slot(id.slot()),
            TargetRef::Player(p) => c.player(*p),
        })
    }
}

impl EffectProc {
    /// See [`Frame::check_stored`]: the list followed exists — `root`'s, then through the `If`s
    /// of `path` — `pc` is within it, and while `choosing` the instruction before `pc` asked
    /// the decision waiting.
    pub(crate) fn check_stored(&self, c: &Stored) -> std::result::Result<(), String> {
        c.def(self.def)?;
        self.ctx.check_stored(c)?;
        crate::actions::mill::check_mill_orders(c, &self.mill_orders)?;
        let def = &c.g.defs[self.def as usize];
        let rules = &def.rules;
        let has_root = match self.root {
            Root::Mode(m) => (m as usize) < rules.modes.len(),
            Root::Ability(AbilityRef::Activated(i)) => (i as usize) < rules.activated.len(),
            Root::Ability(AbilityRef::Triggered(i)) => (i as usize) < rules.triggers.len(),
            _ => true,
        };
        c.ensure(has_root, || format!("follows {:?} of {}, which it doesn't have", self.root, def.name))?;
        let mut list = match &self.root {
            Root::Inline(effects) => {
                // Instructions that travel with the frame: the tokens they make must be known.
                let mut unknown = None;
                crate::card::walk(effects, &mut |e| match e {
                    Effect::CreateToken { token, .. } if c.g.def_index_by_name(&token.name).is_none() => unknown = Some(token.name.clone()),
                    _ => {}
                });
                c.ensure(unknown.is_none(), || format!("creates a token the game has no card for ({})", unknown.unwrap_or_default()))?;
                effects
            }
            root => def_list(def, root),
        };
        for &(i, branch) in &self.path {
            let Some(Effect::If { then, otherwise, .. }) = list.get(i as usize) else {
                return c.ensure(false, || format!("goes into instruction {i} of {}, which isn't an \"if\" there", def.name));
            };
            list = if branch { then } else { otherwise };
        }
        let pc = self.pc as usize;
        c.ensure(pc <= list.len() && (pc > 0 || !self.choosing), || format!("is at instruction {pc} of a list of {} (choosing: {})", list.len(), self.choosing))?;
        c.waits(self.choosing, |choice| takes(&list[pc - 1], choice))?;
        let orders_asked = !self.choosing || !matches!(list[pc - 1], Effect::Mill { .. }) || !self.mill_orders.is_empty();
        c.ensure(orders_asked, || "waits for a mill order it didn't ask".into())
    }

    /// The player who controls the spell or ability being resolved.
    pub(crate) fn controller(&self) -> u8 {
        self.ctx.controller
    }

    /// The instructions of `root`, inside the branches `path`, followed from their start.
    fn at(def: u32, root: Root, path: Path, ctx: EffectCtx) -> EffectProc {
        EffectProc { def, root, path, pc: 0, choosing: false, mill_orders: Vec::new(), ctx }
    }

    pub(crate) fn spell(def: u32, ctx: EffectCtx) -> EffectProc {
        EffectProc::at(def, Root::Spell, Path::new(), ctx)
    }

    pub(crate) fn mode(def: u32, mode: u16, ctx: EffectCtx) -> EffectProc {
        EffectProc::at(def, Root::Mode(mode), Path::new(), ctx)
    }

    pub(crate) fn ability(def: u32, ability: AbilityRef, ctx: EffectCtx) -> EffectProc {
        EffectProc::at(def, Root::Ability(ability), Path::new(), ctx)
    }

    pub(crate) fn inline(def: u32, effects: Vec<Effect>, ctx: EffectCtx) -> EffectProc {
        EffectProc::at(def, Root::Inline(Arc::new(effects)), Path::new(), ctx)
    }

    pub(crate) fn as_enters(def: u32, ctx: EffectCtx) -> EffectProc {
        EffectProc::at(def, Root::AsEnters, Path::new(), ctx)
    }

    /// Where the instructions being followed live: shared, so following them borrows and
    /// never copies them.
    fn source(&self, g: &Game) -> EffectSource {
        match &self.root {
            Root::Inline(effects) => EffectSource::Inline(effects.clone()),
            _ => EffectSource::Def(g.defs[self.def as usize].clone()),
        }
    }

    /// Checks a "pay_mana" answer for the "you may pay" being resolved; `None` if this
    /// frame isn't waiting for one.
    pub(crate) fn check_payment(&self, g: &Game, cards: &[ObjId]) -> Option<Result<()>> {
        if !self.choosing {
            return None;
        }
        let src = self.source(g);
        let Effect::MayPay { cost, .. } = src.list(&self.root, &self.path).get(self.pc as usize - 1)? else { return None };
        Some(g.mana_now_with(self.ctx.controller, cost, cards).map(|_| ()).map_err(|reason| Error::InvalidAnswer { decision: "pay_mana".into(), reason }))
    }

    /// The mill order asked is withdrawn: the milling player left the game, and with them
    /// their library (CR 800.4a). The mill instruction runs again; whoever already answered
    /// isn't asked again, nor is the leaver (their entry stays, empty).
    pub(crate) fn withdraw_mill_order(&mut self) {
        if std::mem::take(&mut self.choosing) {
            self.pc -= 1;
        }
    }

    /// The mill order asked is asked afresh: another player left the game, and the replacement
    /// effects of what they owned with them (CR 800.4a), so what there is to order changed.
    pub(crate) fn reask_mill_order(&mut self) {
        if std::mem::take(&mut self.choosing) {
            self.pc -= 1;
            self.mill_orders.pop();
        }
    }

    pub(crate) fn step(mut self: Box<Self>, g: &mut Game) -> Step {
        match self.follow(g, None) {
            Some((pending, last)) => self.pend(g, pending, last),
            None => {
                g.spare_effect.keep(self);
                Step::Done
            }
        }
    }

    /// Steps a new proc its maker would push for the run loop to step next (as
    /// [`Frame::take_over`]), boxing it only if it has to wait: most instructions run to the
    /// end, or hand over to one last frame, without ever being put aside. Inlined into the
    /// resolution making it, so the proc is followed where it was built, not copied first.
    #[inline(always)]
    pub(crate) fn take_over(mut self, g: &mut Game) -> Step {
        if g.outcome.is_some() {
            return Frame::Effect(Box::new(self)).take_over(g);
        }
        match self.follow(g, None) {
            Some((Pending::Frame(frame), true)) => frame.take_over(g),
            Some((pending, last)) => g.spare_effect.boxed(self).pend(g, pending, last),
            None => Step::Done,
        }
    }

    /// [`EffectProc::take_over`] for the instructions of the spell or ability in `slot` as it
    /// resolves, with its frame to finish it beneath them: that frame is put there only if they
    /// stop before their end (or start frames), as the run loop would otherwise pop it at once.
    /// `None` when they are done and the game goes on: the resolution is to finish now. The
    /// proc comes built in place and kept from being dropped: once its instructions are done,
    /// it is freed by hand only if it holds an allocation (most hold none, and the drop's walk
    /// over its lists costs more than the test).
    #[inline(always)]
    pub(crate) fn take_over_resolving(mut this: std::mem::ManuallyDrop<EffectProc>, g: &mut Game, slot: u32) -> Option<Step> {
        let depth = g.frames.len();
        if g.outcome.is_none() {
            let mut followed = this.follow(g, Some(slot));
            if followed.is_none() && g.frames.len() == depth && g.outcome.is_none() {
                if !this.unallocated() {
                    this.release();
                }
                return None;
            }
            let this = std::mem::ManuallyDrop::into_inner(this);
            // Beneath what the instructions pushed, as if it had been there all along.
            g.frames.insert(depth, Frame::Resolve(crate::stack::ResolveProc::finishing(slot)));
            if let Some((Pending::Stepped(_, above), _)) = &mut followed {
                *above += 1; // the frames the step started are a place higher
            }
            return Some(match followed {
                Some((Pending::Frame(frame), true)) => frame.take_over(g),
                Some((pending, last)) => g.spare_effect.boxed(this).pend(g, pending, last),
                None => Step::Done,
            });
        }
        // The game is over: left for the run loop to drop, as `take_over` leaves it (CR 104.1).
        g.frames.push(Frame::Resolve(crate::stack::ResolveProc::finishing(slot)));
        Some(std::mem::ManuallyDrop::into_inner(this).take_over(g))
    }

    /// Whether the proc holds no allocation, so that dropping it would free nothing (as after
    /// most resolutions: an untargeted spell's, most abilities'). Each field is named, so that
    /// a new one must be weighed here and in [`EffectProc::release`].
    #[inline(always)]
    fn unallocated(&self) -> bool {
        let EffectProc { def: _, root, path, pc: _, choosing: _, mill_orders, ctx } = self;
        let EffectCtx {
            controller: _,
            source: _,
            source_id: _,
            cast: _,
            targets,
            legal,
            milled,
            triggering: _,
            triggering_controller: _,
            remembered,
            sacrificed_power: _,
            did: _,
            drawn: _,
        } = ctx;
        // (The capacities or-ed: one test rather than a branch for each.)
        let capacities = mill_orders.capacity() | targets.capacity() | legal.capacity() | milled.capacity() | remembered.capacity();
        capacities == 0 && !path.spilled() && !matches!(root, Root::Inline(_))
    }

    /// Frees what the proc holds, in place (moved out whole to be dropped, it would be copied
    /// first): afterwards it holds no allocation.
    fn release(&mut self) {
        self.root = Root::Spell;
        self.path = Path::new();
        self.mill_orders = Vec::new();
        self.ctx.targets = Vec::new();
        self.ctx.legal = Vec::new();
        self.ctx.milled = Vec::new();
        self.ctx.remembered = Vec::new();
        debug_assert!(self.unallocated());
    }

    /// Follows the instructions until one needs more than it can do alone (a frame, a
    /// decision): returns that, and whether it came from the list's last instruction; `None`
    /// once the list is done. `resolving`: the slot of the spell or ability these instructions resolve, when its frame
    /// to finish it isn't beneath them yet (see [`EffectProc::take_over_resolving`]).
    fn follow(&mut self, g: &mut Game, resolving: Option<u32>) -> Option<(Pending, bool)> {
        let src = self.source(g);
        let mut list = src.list(&self.root, &self.path);
        // A first instruction that is a search done at once (a typecycle's whole resolution)
        // is worked out from the game as it is, then carried out, from the list just read.
        if !self.choosing && !matches!(self.root, Root::Inline(_)) {
            if let Some(effect @ Effect::Search { .. }) = list.get(self.pc as usize) {
                if let Some((p, found, then)) = self.search_now(g, effect) {
                    self.pc += 1;
                    then.finish(g, p, p, &found);
                    if self.pc as usize == list.len() {
                        return None;
                    }
                }
            }
        }
        if self.choosing {
            self.choosing = false;
            let answer = g.take_answer();
            let effect = &list[self.pc as usize - 1];
            if let Some(pending) = self.answered(g, effect, answer) {
                return Some((pending, self.pc as usize == list.len()));
            }
        }
        loop {
            let effect = list.get(self.pc as usize)?;
            self.pc += 1;
            let pending = self.apply(g, effect).and_then(|pending| self.settle_at_once(g, effect, pending));
            if let Some(pending) = pending {
                let last = self.pc as usize == list.len();
                // An "if" that ends its list: what `pend` would push, this frame with nothing
                // left and the branch under a copy of its context, comes to following the
                // branch here, the context then never read again. Not once the game is over,
                // which ends the resolution before the branch (CR 104.1); and only with a frame
                // of the same player's resolution beneath, so that a player leaving mid-branch
                // finds the action theirs as they would with the empty frame (CR 800.4a).
                if let (&Pending::Branch(branch), true, true) = (&pending, last, g.outcome.is_none()) {
                    if self.resolution_beneath(g, resolving) {
                        self.path.push((self.pc - 1, branch));
                        self.pc = 0;
                        list = src.list(&self.root, &self.path);
                        continue;
                    }
                }
                return Some((pending, last));
            }
        }
    }

    /// What the run loop would do at once with `pending`, what the instruction `effect` just
    /// read needs, done here instead: a decision its player's policy answers at once (see
    /// [`Game::answer_at_once`]) finishes the instruction with that answer, as the proc resumed
    /// would; a frame is stepped now (see [`Game::step_answering_at_once`]). `None` when that
    /// leaves nothing pending and the game goes on: the next instruction follows, as it would
    /// once the run loop came back to this proc. Otherwise what is still to happen (a frame
    /// stepped comes back as [`Pending::Stepped`]). Not once the game is over, when the run
    /// loop only drops the frames (CR 104.1).
    fn settle_at_once(&mut self, g: &mut Game, effect: &Effect, mut pending: Pending) -> Option<Pending> {
        #[cfg(test)]
        if FRAMED_DECISIONS.with(std::cell::Cell::get) {
            return Some(pending);
        }
        loop {
            if g.outcome.is_some() {
                return Some(pending);
            }
            match pending {
                Pending::Ask(d) => {
                    let Some(answer) = g.answer_at_once(&d) else { return Some(Pending::Ask(d)) };
                    #[cfg(test)]
                    SETTLED_AT_ONCE.with(|c| c.set([c.get()[0] + 1, c.get()[1]]));
                    pending = self.answered(g, effect, answer)?;
                }
                Pending::Frame(frame) => {
                    let depth = g.frames.len();
                    let step = g.step_answering_at_once(frame);
                    #[cfg(test)]
                    SETTLED_AT_ONCE.with(|c| c.set([c.get()[0], c.get()[1] + 1]));
                    if matches!(step, Step::Done) && g.frames.len() == depth && g.outcome.is_none() {
                        return None;
                    }
                    return Some(Pending::Stepped(step, depth));
                }
                pending => return Some(pending),
            }
        }
    }

    /// Whether the frame beneath is this controller's resolution (the spell or ability
    /// resolving, or more of its instructions), which makes the action theirs as this frame does.
    /// `resolving`: the slot of the spell or ability whose frame to finish it is to go beneath.
    fn resolution_beneath(&self, g: &Game, resolving: Option<u32>) -> bool {
        let resolving = match (resolving, g.frames.last()) {
            (Some(s), _) => Some(s),
            (None, Some(Frame::Resolve(r))) => r.resolving(),
            (None, Some(Frame::Effect(e))) => return e.controller() == self.ctx.controller,
            _ => None,
        };
        resolving.is_some_and(|s| g.objects[s as usize].controller == self.ctx.controller)
    }

    /// A search one player must make and takes the first cards of (see
    /// `takes_first_options`): who searches, what they find, and what becomes of it — what
    /// the search frame would do at once, worked out without a frame or a copy of the filter.
    fn search_now(&self, g: &Game, effect: &Effect) -> Option<(u8, Found, FoundCards)> {
        let Effect::Search { who, filter, count, to, reveal, shuffle, optional: false } = effect else { return None };
        let [p] = self.players(g, who)[..] else { return None };
        if !g.takes_first_options(p) || g.players[p as usize].lost.is_some() {
            return None;
        }
        let how = SearchHow { filter, max: *count, then: FoundCards { to: *to, reveal: *reveal, shuffle: *shuffle } };
        Some((p, how.matching(g, p, true), how.then))
    }

    /// Hands over to what an instruction needs before the next one. After the `last`
    /// instruction of its list nothing is left to do, so a frame it starts simply takes over
    /// (what the instructions know isn't read again).
    fn pend(mut self: Box<Self>, g: &mut Game, pending: Pending, last: bool) -> Step {
        match pending {
            Pending::Frame(frame) => {
                if !last {
                    g.frames.push(Frame::Effect(self));
                    g.frames.push(frame);
                    return Step::Done;
                }
                g.spare_effect.keep(self);
                frame.take_over(g)
            }
            Pending::Frames(frames) => {
                if !last {
                    g.frames.push(Frame::Effect(self));
                }
                g.frames.extend(frames.into_iter().rev());
                Step::Done
            }
            Pending::Branch(branch) => {
                let mut path = self.path.clone();
                path.push((self.pc - 1, branch));
                let inner = EffectProc::at(self.def, self.root.clone(), path, self.ctx.clone());
                g.frames.push(Frame::Effect(self));
                g.frames.push(Frame::Effect(Box::new(inner)));
                Step::Done
            }
            Pending::Ask(d) => {
                self.choosing = true;
                Step::Ask(Frame::Effect(self), d)
            }
            Pending::Stepped(step, depth) => {
                if last {
                    g.spare_effect.keep(self);
                } else {
                    g.frames.insert(depth, Frame::Effect(self));
                }
                step
            }
            Pending::Inline(effects) => {
                // A "you may" / "if you do" body runs with this context; what it remembers and
                // mills comes back through `Root::Inline`'s own context, so run it in place.
                let inner = EffectProc::inline(self.def, effects, self.ctx.clone());
                g.frames.push(Frame::Effect(self));
                g.frames.push(Frame::Effect(Box::new(inner)));
                Step::Done
            }
        }
    }

    /// Finishes the instruction just read with the answer to the decision it asked.
    fn answered(&mut self, g: &mut Game, effect: &Effect, answer: Answer) -> Option<Pending> {
        let controller = self.ctx.controller;
        match (effect, answer) {
            (Effect::PutFromHand { tapped, .. }, Answer::Cards { cards }) => {
                for c in cards {
                    let from = g.objects[c.slot() as usize].zone;
                    let card = g.move_slot(c.slot(), ZoneKind::Battlefield, Position::Top);
                    g.set_controller(c.slot(), controller);
                    if *tapped {
                        g.tap_slot(c.slot(), true);
                    }
                    let to = g.objects[c.slot() as usize].zone;
                    g.entered_battlefield(c.slot());
                    g.log.push_with(|| Event::Moved { from_id: c, card, from, to });
                }
                None
            }
            (Effect::MilledToHand { .. }, Answer::Cards { cards }) => {
                for c in cards {
                    let from = g.objects[c.slot() as usize].zone;
                    let card = g.move_slot(c.slot(), ZoneKind::Hand, Position::Top);
                    let to = g.objects[c.slot() as usize].zone;
                    g.log.push_with(|| Event::Moved { from_id: c, card, from, to });
                }
                None
            }
            (Effect::PutRevealedToHand { rest, .. }, Answer::Cards { cards }) => {
                let revealed = std::mem::take(&mut self.ctx.remembered);
                for &c in &cards {
                    let from = g.objects[c.slot() as usize].zone;
                    let card = g.move_slot(c.slot(), ZoneKind::Hand, Position::Top);
                    let to = g.objects[c.slot() as usize].zone;
                    g.log.push_with(|| Event::Moved { from_id: c, card, from, to });
                }
                let others: Vec<ObjId> = revealed.into_iter().filter(|c| !cards.contains(c) && g.object(*c).is_ok()).collect();
                self.put_rest(g, others, *rest);
                None
            }
            (Effect::May { then }, Answer::YesNo { yes }) => {
                self.ctx.did = yes;
                yes.then_some(Pending::Inline(then.clone()))
            }
            (Effect::MayPay { cost, then }, Answer::YesNo { yes }) => {
                // Auto-pay off: which sources to tap is the player's decision (CR 605.3a).
                if yes && !g.seats[controller as usize].auto_pay && !cost.symbols().is_empty() {
                    let sources = g.mana_sources(controller);
                    let options: Vec<ObjId> = sources.iter().map(|s| ObjId(s.id)).collect();
                    if !options.is_empty() {
                        let max = options.len() as u32;
                        let to_pay = crate::payment::CostToPay::from_cost(cost, 0, g.players[controller as usize].life.into());
                        let min = crate::payment::fewest_sources(&to_pay, &g.players[controller as usize].pool, &sources);
                        return Some(Pending::Ask(Decision { player: controller, purpose: Purpose::PayMana, choice: Choice::Cards { options, min, max } }));
                    }
                }
                self.ctx.did = yes && g.pay_mana_now(controller, cost);
                self.ctx.did.then_some(Pending::Inline(then.clone()))
            }
            (Effect::MayPay { cost, then }, Answer::Cards { cards }) => {
                // A player's answer was checked (`check_payment`); a policy's that doesn't pay
                // pays nothing, and the "if you do" doesn't happen.
                self.ctx.did = g.pay_mana_now_with(controller, cost, &cards).is_ok();
                self.ctx.did.then_some(Pending::Inline(then.clone()))
            }
            (effect @ Effect::Mill { .. }, Answer::Cards { cards }) => {
                self.mill_orders.last_mut().expect("asked for a mill order").1 = cards;
                self.apply(g, effect)
            }
            _ => unreachable!("the answer was validated against the decision this instruction asked"),
        }
    }

    /// Does one instruction; says what must happen before the next one.
    fn apply(&mut self, g: &mut Game, effect: &Effect) -> Option<Pending> {
        // The few things instructions read from the context are `Copy`: no per-instruction clone.
        let (controller, source_id, cast, triggering) = (self.ctx.controller, self.ctx.source_id, self.ctx.cast, self.ctx.triggering);
        match effect {
            Effect::Draw { who, count } => {
                for &p in self.players(g, who).iter() {
                    for _ in 0..self.amount(g, count, p) {
                        if g.draw_one(p).is_some() {
                            self.ctx.drawn += 1;
                        }
                    }
                }
                None
            }
            Effect::Mill { who, ref count } => {
                // Simultaneous: every count is worked out before anyone mills (CR 101.4), each
                // milling player first ordering the replacements that change theirs (CR 616.1).
                let mut counts: smallvec::SmallVec<[(u8, u32); 4]> = smallvec::SmallVec::new();
                for &p in self.players(g, who).iter() {
                    match g.mill_count(p, self.amount(g, count, p), &self.mill_orders) {
                        Ok(n) => counts.push((p, n)),
                        Err(d) => {
                            self.mill_orders.push((p, Vec::new()));
                            return Some(Pending::Ask(d));
                        }
                    }
                }
                self.mill_orders.clear();
                // Listed only for a card that looks back at them (CR 701.17c).
                let keep = g.defs[self.def as usize].reads_milled;
                for &(p, n) in counts.iter() {
                    let milled = g.mill_top(p, n, keep);
                    if self.ctx.milled.is_empty() {
                        self.ctx.milled = milled; // the same list, not copied
                    } else {
                        self.ctx.milled.extend(milled);
                    }
                }
                None
            }
            Effect::MilledToHand { filter, count } => {
                // Only milled cards still where they went, in a public zone (CR 701.17c).
                let options: Vec<ObjId> =
                    self.ctx.milled.iter().copied().filter(|&id| g.object(id).is_ok_and(|o| o.zone.kind.is_public()) && filter.matches(g.def_of_slot(id.slot()))).collect();
                if options.is_empty() {
                    return None;
                }
                Some(Pending::Ask(Decision { player: controller, purpose: Purpose::PutFromMilled, choice: Choice::Cards { options, min: 0, max: *count } }))
            }
            Effect::Scry { who, count } => {
                // Each amount is read for its player before anyone looks (CR 701.22c).
                let scries: smallvec::SmallVec<[(u8, u32); 4]> = self.players(g, who).iter().map(|&p| (p, self.amount(g, count, p))).collect();
                // One player answering at once (most scries): done here, as its frame would.
                #[cfg(test)]
                let framed = FRAMED_DECISIONS.with(std::cell::Cell::get);
                #[cfg(not(test))]
                let framed = false;
                if let [(p, n @ 1..)] = scries[..] {
                    if !framed && g.scry_at_once(p, n) {
                        #[cfg(test)]
                        SETTLED_AT_ONCE.with(|c| c.set([c.get()[0], c.get()[1] + 1]));
                        return None;
                    }
                }
                g.scry_frame(scries).map(Pending::Frame)
            }
            Effect::Discard { who, count, random } => {
                let mode = if *random { DiscardMode::Random } else { DiscardMode::Choose };
                // Several players discarding: each frame in turn, the active player's first.
                let players = self.players(g, who);
                for &p in players.iter().skip(1).rev() {
                    let n = self.amount(g, count, p);
                    g.push_discard(p, n, mode, true);
                }
                let first = *players.first()?;
                let n = self.amount(g, count, first);
                Some(Pending::Frame(g.discard_frame(first, n, mode)))
            }
            Effect::Search { who, filter, count, to, reveal, shuffle, optional } => {
                if let Some((p, found, then)) = self.search_now(g, effect) {
                    then.finish(g, p, p, &found);
                    return None;
                }
                // "Each player may search": they look at the same time, decide in APNAP
                // order, then the found cards move together (CR 701.23i).
                let players = self.players(g, who);
                let spec = SearchSpec { filter: filter.shared(), max: *count, to: *to, reveal: *reveal, shuffle: *shuffle, optional: *optional };
                g.search_each_frame(&players, spec).map(Pending::Frame)
            }
            Effect::Shuffle { who } => {
                for &p in self.players(g, who).iter() {
                    g.shuffle_library(p);
                }
                None
            }
            Effect::Counter { target } => {
                for t in self.legal_targets(*target) {
                    if let TargetRef::Object(id) = t {
                        g.counter_spell(id.slot());
                    }
                }
                None
            }
            Effect::Damage { target, amount } => {
                for t in self.legal_targets(*target) {
                    let n = self.amount(g, amount, controller);
                    g.deal_damage(source_id, t, n);
                }
                None
            }
            Effect::LoseLife { who, ref amount } | Effect::GainLife { who, ref amount } => {
                let sign = if matches!(effect, Effect::GainLife { .. }) { 1 } else { -1 };
                for &p in self.players(g, who).iter() {
                    let n = i64::from(self.amount(g, amount, p));
                    g.change_life(p, sign * n);
                }
                None
            }
            Effect::PutFromHand { filter, optional, count, .. } => {
                let hand = &g.players[controller as usize].hand;
                let options: Vec<ObjId> = hand.iter().filter(|&&s| filter.matches(g.def_of_slot(s))).map(|&s| g.id_of(s)).collect();
                if options.is_empty() {
                    return None;
                }
                let min = if *optional { 0 } else { 1 };
                Some(Pending::Ask(Decision { player: controller, purpose: Purpose::PutFromHand, choice: Choice::Cards { options, min, max: *count } }))
            }
            Effect::If { cond, .. } => Some(Pending::Branch(self.holds(g, cond))),
            Effect::May { .. } => Some(Pending::Ask(Decision { player: controller, purpose: Purpose::May, choice: Choice::YesNo })),
            Effect::MayPay { ref cost, .. } => {
                // Offered only if it can be paid.
                if !g.can_pay_mana_now(controller, cost) {
                    self.ctx.did = false;
                    return None;
                }
                Some(Pending::Ask(Decision { player: controller, purpose: Purpose::May, choice: Choice::YesNo }))
            }
            Effect::PutCounters { counter, count, on } => {
                let slots: Vec<u32> = match on {
                    CounterPlace::Source => g.slot_of(source_id).ok().filter(|&s| g.objects[s as usize].zone.kind == ZoneKind::Battlefield).into_iter().collect(),
                    CounterPlace::Target(i) => self.legal_targets(*i).filter_map(|t| if let TargetRef::Object(id) = t { g.slot_of(id).ok() } else { None }).collect(),
                    CounterPlace::EachCreature(who) => {
                        let players = self.players(g, who);
                        g.battlefield.iter().copied().filter(|&s| players.contains(&g.objects[s as usize].controller) && g.def_of_slot(s).is(CardType::Creature)).collect()
                    }
                };
                for s in slots {
                    let n = self.amount(g, count, controller);
                    if n > 0 {
                        let _ = g.put_counters(s, counter, n);
                    }
                }
                None
            }
            Effect::Pump { power, toughness, keywords } => {
                // "[This] gets ...": the source, if it is still the same permanent.
                if g.object(source_id).is_ok_and(|o| o.zone.kind == ZoneKind::Battlefield) {
                    g.add_until_end_of_turn(UntilEndOfTurn { object: source_id, power: *power, toughness: *toughness, keywords: keywords.clone() });
                }
                None
            }
            Effect::GrantEach { filter, min_power, keywords } => {
                let chosen: Vec<u32> = g
                    .battlefield
                    .iter()
                    .copied()
                    .filter(|&s| g.objects[s as usize].controller == controller && g.def_of_slot(s).is(CardType::Creature) && filter.matches(g.def_of_slot(s)))
                    .filter(|&s| min_power.is_none_or(|m| g.power_of(s) >= m))
                    .collect();
                for s in chosen {
                    let object = g.id_of(s);
                    g.add_until_end_of_turn(UntilEndOfTurn { object, power: 0, toughness: 0, keywords: keywords.clone() });
                }
                None
            }
            Effect::CreateToken { token, count } => {
                let def = g.def_index_by_name(&token.name).expect("validated when the card was loaded");
                for _ in 0..self.amount(g, count, controller) {
                    g.create_token(def, controller, token.tapped);
                }
                None
            }
            Effect::Tap { target } => {
                for t in self.legal_targets(*target) {
                    if let TargetRef::Object(id) = t {
                        g.tap_slot(id.slot(), true);
                    }
                }
                None
            }
            Effect::Bounce { target } => {
                for t in self.legal_targets(*target).collect::<Vec<_>>() {
                    if let TargetRef::Object(id) = t {
                        let from = g.objects[id.slot() as usize].zone;
                        let card = g.move_slot(id.slot(), ZoneKind::Hand, Position::Top);
                        let to = g.objects[id.slot() as usize].zone;
                        g.log.push_with(|| Event::Moved { from_id: id, card, from, to });
                    }
                }
                None
            }
            Effect::ExileTarget { target } => {
                for t in self.legal_targets(*target).collect::<Vec<_>>() {
                    if let TargetRef::Object(id) = t {
                        let from = g.objects[id.slot() as usize].zone;
                        let card = g.move_slot(id.slot(), ZoneKind::Exile, Position::Top);
                        let to = g.objects[id.slot() as usize].zone;
                        g.log.push_with(|| Event::Moved { from_id: id, card, from, to });
                        if g.object(card).is_ok() {
                            self.ctx.remembered.push(card);
                        }
                    }
                }
                None
            }
            Effect::ExileAllGraveyards => {
                for p in 0..g.players.len() as u8 {
                    while let Some(&slot) = g.players[p as usize].graveyard.last() {
                        let from_id = g.id_of(slot);
                        let from = g.objects[slot as usize].zone;
                        let card = g.move_slot(slot, ZoneKind::Exile, Position::Top);
                        let to = g.objects[slot as usize].zone;
                        g.log.push_with(|| Event::Moved { from_id, card, from, to });
                    }
                }
                None
            }
            Effect::PutRememberedOntoBattlefield { tapped } => {
                for id in std::mem::take(&mut self.ctx.remembered) {
                    let Ok(slot) = g.slot_of(id) else { continue }; // it left: a new object (CR 400.7)
                    let from = g.objects[slot as usize].zone;
                    let card = g.move_slot(slot, ZoneKind::Battlefield, Position::Top);
                    g.tap_slot(slot, *tapped);
                    let to = g.objects[slot as usize].zone;
                    g.entered_battlefield(slot);
                    g.log.push_with(|| Event::Moved { from_id: id, card, from, to });
                }
                None
            }
            Effect::Destroy { target } => {
                for t in self.legal_targets(*target).collect::<Vec<_>>() {
                    if let TargetRef::Object(id) = t {
                        if g.has_gained(id, "indestructible") {
                            continue; // CR 702.12b
                        }
                        g.put_into_graveyard_from_battlefield(id.slot());
                    }
                }
                None
            }
            Effect::WinGame => {
                g.win(controller);
                None
            }
            Effect::RevealTop { count } => {
                let lib = &g.players[controller as usize].library;
                let k = (*count as usize).min(lib.len());
                let cards: Vec<ObjId> = lib[lib.len() - k..].iter().rev().map(|&s| g.id_of(s)).collect();
                if !cards.is_empty() {
                    g.reveal_to_all(&cards);
                    let shown = cards.clone();
                    g.log.push_with(|| Event::Revealed { player: controller, cards: shown });
                }
                self.ctx.remembered = cards;
                None
            }
            Effect::PutRevealedToHand { filter, count, rest } => {
                let revealed: Vec<ObjId> = self.ctx.remembered.iter().copied().filter(|&c| g.object(c).is_ok()).collect();
                let options: Vec<ObjId> = revealed.iter().copied().filter(|&c| filter.matches(g.def_of_slot(c.slot()))).collect();
                if options.is_empty() {
                    self.ctx.remembered.clear();
                    self.put_rest(g, revealed, *rest);
                    return None;
                }
                Some(Pending::Ask(Decision { player: controller, purpose: Purpose::PutFromHand, choice: Choice::Cards { options, min: 0, max: *count } }))
            }
            Effect::AddMana { mana } => {
                g.add_mana(controller, mana);
                None
            }
            Effect::Delayed { when, effects } => {
                g.delayed.push(crate::trigger::Delayed {
                    controller,
                    when: *when,
                    effects: effects.clone(),
                    def: self.def,
                    source: self.ctx.source,
                    source_id,
                    cast,
                    remembered: self.ctx.remembered.clone(),
                    turn: g.turn,
                    step: g.step,
                });
                None
            }
            Effect::ConjureDuplicate => {
                if let Some(spell) = triggering {
                    // The spell's card as printed: its definition (a copy has its card's too).
                    let def = g.objects[spell.slot() as usize].def;
                    let card = g.conjure(def, controller, ZoneKind::Hand);
                    self.ctx.remembered.push(card);
                }
                None
            }
            Effect::DiscardRemembered => {
                // Each only if it is still the same object in its owner's hand (CR 400.7); a
                // discard by an effect for every purpose (CR 701.9).
                let mut by_owner: Vec<(u8, Vec<u32>)> = Vec::new();
                for &id in &self.ctx.remembered {
                    if g.object(id).is_ok_and(|o| o.zone.kind == ZoneKind::Hand) {
                        let owner = g.objects[id.slot() as usize].owner;
                        match by_owner.iter_mut().find(|(o, _)| *o == owner) {
                            Some((_, v)) => v.push(id.slot()),
                            None => by_owner.push((owner, vec![id.slot()])),
                        }
                    }
                }
                // Nothing left to discard: nothing to wait for (and no frame of anyone else's to touch).
                if by_owner.is_empty() {
                    return None;
                }
                Some(Pending::Frames(by_owner.into_iter().map(|(owner, slots)| g.discard_cards_frame(owner, slots)).collect()))
            }
        }
    }

    /// The revealed cards not taken go to the graveyard or the bottom of the library.
    fn put_rest(&self, g: &mut Game, cards: Vec<ObjId>, rest: RestGo) {
        let owner = self.ctx.controller;
        let (to, position) = match rest {
            RestGo::Graveyard => (ZoneKind::Graveyard, Position::Top),
            RestGo::LibraryBottom => (ZoneKind::Library, Position::Bottom),
        };
        let mut moved = Vec::with_capacity(cards.len());
        for from_id in cards {
            let from = g.objects[from_id.slot() as usize].zone;
            let card = g.move_slot(from_id.slot(), to, position);
            let to = g.objects[from_id.slot() as usize].zone;
            if from != to {
                g.log.push_with(|| Event::Moved { from_id, card, from, to }); // not for a reordering
            }
            moved.push(card);
        }
        if rest == RestGo::Graveyard {
            g.fire(crate::trigger::TriggerEvent::LibraryToGraveyard { player: owner, cards: &moved });
        }
    }

    /// The players an instruction names, in APNAP order.
    fn players(&self, g: &Game, who: &Who) -> Players {
        let c = self.ctx.controller;
        let mut v: Players = match *who {
            // One player: nothing to order.
            Who::You => return if g.players[c as usize].lost.is_none() { smallvec::smallvec![c] } else { Players::new() },
            // What `opponents_of` lists, without its list on the heap.
            Who::EachOpponent => {
                // Two players (most games): the other, if still in the game, with nothing to order.
                if let [_, _] = g.players[..] {
                    let o = 1 - c;
                    return if g.players[o as usize].lost.is_none() { smallvec::smallvec![o] } else { Players::new() };
                }
                let mut v: Players = (0..g.players.len() as u8).filter(|&p| p != c && g.players[p as usize].lost.is_none()).collect();
                g.apnap(&mut v);
                return v;
            }
            Who::EachPlayer => (0..g.players.len() as u8).filter(|&p| g.players[p as usize].lost.is_none()).collect(),
            Who::TriggeringController => self.ctx.triggering_controller.into_iter().collect(),
            Who::Target(i) => self
                .legal_targets(i)
                .map(|t| match t {
                    TargetRef::Player(p) => p,
                    TargetRef::Object(id) => g.objects[id.slot() as usize].controller,
                })
                .collect(),
        };
        v.retain(|p| g.players[*p as usize].lost.is_none());
        g.apnap(&mut v);
        v
    }

    /// The chosen targets for target `i` that were legal as resolution began.
    fn legal_targets(&self, i: usize) -> impl Iterator<Item = TargetRef> + '_ {
        let chosen = self.ctx.targets.get(i).map(Vec::as_slice).unwrap_or(&[]);
        let legal = self.ctx.legal.get(i).map(Vec::as_slice).unwrap_or(&[]);
        chosen.iter().zip(legal).filter(|(_, &ok)| ok).map(|(&t, _)| t)
    }

    /// A number, read now, for the affected player `p`.
    fn amount(&self, g: &Game, a: &Amount, p: u8) -> u32 {
        match a {
            Amount::Fixed(n) => *n,
            Amount::Dynamic(Dynamic::X) => self.ctx.cast.x,
            Amount::Dynamic(Dynamic::Kicks) => self.ctx.cast.printed_kicks(),
            Amount::Dynamic(Dynamic::HalfLibraryRoundedUp) => (g.players[p as usize].library.len() as u32).div_ceil(2),
            Amount::Dynamic(Dynamic::CountersOnSource(kind)) => g.counters_on(self.ctx.source).map_or(0, |c| c.get(kind)),
            Amount::Dynamic(Dynamic::CardsInYourHand) => g.players[self.ctx.controller as usize].hand.len() as u32,
            Amount::Dynamic(Dynamic::Permanents(filter)) => g.battlefield.iter().filter(|&&s| filter.matches(g.def_of_slot(s))).count() as u32,
            Amount::Dynamic(Dynamic::SacrificedPower) => self.ctx.sacrificed_power.max(0) as u32,
            Amount::Dynamic(Dynamic::DrawnThisWay) => self.ctx.drawn,
        }
    }

    fn holds(&self, g: &Game, c: &Condition) -> bool {
        match c {
            Condition::TargetKicked(i) => self.legal_targets(*i).any(|t| match t {
                TargetRef::Object(id) => g.objects[id.slot() as usize].cast.kicked(),
                TargetRef::Player(_) => false,
            }),
            Condition::YourLibraryEmpty => g.players[self.ctx.controller as usize].library.is_empty(),
            Condition::YouDid => self.ctx.did,
            Condition::RememberedIs(filter) => self.ctx.remembered.iter().any(|&c| g.object(c).is_ok() && filter.matches(g.def_of_slot(c.slot()))),
            other => crate::stack::condition_on_cast(other, &self.ctx.cast),
        }
    }
}

/// The shared home of a list of instructions.
enum EffectSource {
    Def(Arc<crate::card::CardDef>),
    Inline(Arc<Vec<Effect>>),
}

impl EffectSource {
    /// The instruction list at `path` under `root`.
    #[inline(always)]
    fn list<'a>(&'a self, root: &Root, path: &[(u16, bool)]) -> &'a [Effect] {
        let list: &[Effect] = match self {
            EffectSource::Inline(effects) => effects,
            EffectSource::Def(def) => def_list(def, root),
        };
        at_path(list, path)
    }
}

/// The instruction list of `def` that `root` names (empty for the lists a definition doesn't
/// hold). Inlined, as is [`EffectSource::list`]: read on every follow of a list, where a
/// call costs more than the choice.
#[inline(always)]
fn def_list<'a>(def: &'a crate::card::CardDef, root: &Root) -> &'a [Effect] {
    let rules = &def.rules;
    match root {
        Root::Spell => &rules.spell,
        Root::AsEnters => &rules.as_enters,
        Root::Mode(m) => &rules.modes[*m as usize].effects,
        Root::Ability(AbilityRef::Activated(i)) => &rules.activated[*i as usize].effects,
        Root::Ability(AbilityRef::Triggered(i)) => &rules.triggers[*i as usize].effects,
        Root::Ability(AbilityRef::Delayed) | Root::Inline(_) => &[],
    }
}

/// The list reached from `list` through the `If` branches of `path`.
fn at_path<'a>(mut list: &'a [Effect], path: &[(u16, bool)]) -> &'a [Effect] {
    for &(i, branch) in path {
        match &list[i as usize] {
            Effect::If { then, otherwise, .. } => list = if branch { then } else { otherwise },
            _ => unreachable!("paths only go through `If`"),
        }
    }
    list
}

/// The players an instruction acts on: almost always one or two, so kept inline.
type Players = smallvec::SmallVec<[u8; 4]>;

enum Pending {
    /// Run this frame, then carry on.
    Frame(Frame),
    /// Run these frames, the first first, then carry on.
    Frames(Vec<Frame>),
    /// Run the `then` (true) or `else` branch of the `If` just read, then carry on.
    Branch(bool),
    /// Ask this, then finish the instruction just read with the answer.
    Ask(Decision),
    /// The frame the instruction needed was stepped already (see
    /// [`EffectProc::settle_at_once`]): its step, for the run loop to take from there, the
    /// frames it started above `depth`, where this proc goes to carry on after them.
    Stepped(Step, usize),
    /// Run these instructions (a "you may" body), then carry on.
    Inline(Vec<Effect>),
}

#[cfg(test)]
mod tests {
    use super::*;

    // "Each opponent" in a two-player game is the other player, found without the general
    // list's filter and turn-order sort: the same as that list, for either controller, with
    // the other player in the game or not, and for the active player either way (CR 102.2,
    // 101.4). Mutations caught: the controller taken for its opponent; the loss not looked at.
    #[test]
    fn each_opponent_of_two_players_is_the_general_lists_answer() {
        for active in 0..2u8 {
            for c in 0..2u8 {
                for lost in [false, true] {
                    let mut g = Game::new(2, 1).unwrap();
                    g.active = active;
                    if lost {
                        g.players[1 - c as usize].lost = Some(crate::LossReason::Conceded);
                    }
                    let p = EffectProc::spell(0, EffectCtx::new(c, 0, ObjId(0), CastInfo::default()));
                    let mut general: Players = (0..2u8).filter(|&q| q != c && g.players[q as usize].lost.is_none()).collect();
                    g.apnap(&mut general);
                    assert_eq!(p.players(&g, &Who::EachOpponent), general, "active {active}, controller {c}, lost {lost}");
                }
            }
        }
        // Three players: the general list, in turn order from the active player.
        let mut g = Game::new(3, 1).unwrap();
        g.active = 2;
        let p = EffectProc::spell(0, EffectCtx::new(1, 0, ObjId(0), CastInfo::default()));
        assert_eq!(p.players(&g, &Who::EachOpponent)[..], [2, 0]);
    }

    // A resolution whose list is plain (draws and mills, a closing "if" on how it was cast)
    // follows it without the interpreter: whole games, every event in order, are the games the
    // interpreter plays. The example decks (Ruin Crab's "each opponent mills three", Lórien
    // Revealed's "draw three", Glimpse the Unthinkable's target player, Jace's +1 with its
    // target then a draw, Maddening Cacophony's and Monstrous War-Leech's "if it was kicked",
    // the War-Leech's as it enters, Bruvac's replacement, Jace's draw from an empty library),
    // the creature deck given a self-mill sorcery and a draw instant of its own. Mutations
    // caught: the controller milled for "each opponent"; the mill replacement not applied; a
    // draw fewer; the branch not taken for "if it was kicked"; half the library rounded down;
    // the target's player taken for the controller; the steps after a mill dropped.
    #[test]
    fn a_plain_list_resolves_as_the_interpreter_follows_it() {
        let db = crate::test_support::builtin_and([
            serde_json::json!({"name": "Self-Mill Sorcery", "mana_cost": "{G}", "type_line": "Sorcery", "oracle_text": "Mill four cards.", "rules": {"spell": [{"mill": {"count": 4}}]}}),
            serde_json::json!({"name": "Draw-Two Instant", "mana_cost": "{W}", "type_line": "Instant", "oracle_text": "Draw two cards.", "rules": {"spell": [{"draw": {"count": 2}}]}}),
        ]);
        // The creature deck's Grizzly Bears and Savannah Lions (8 each) give way to them.
        let [mill, mut creatures] = crate::test_support::example_decks().try_into().unwrap();
        let own = ["Self-Mill Sorcery", "Draw-Two Instant"].into_iter().flat_map(|n| std::iter::repeat_n(n.to_string(), 8));
        let replaced: Vec<String> = creatures.splice(24..40, own).collect();
        assert!(replaced.iter().all(|n| n == "Grizzly Bears" || n == "Savannah Lions"));
        let (mut drawn, mut milled) = (0, 0);
        FOLLOWED_PLAINLY.with(|c| c.set([0; 3]));
        for seed in 0..40 {
            let games = [false, true].map(|interpreted_only| {
                INTERPRETED_ONLY.with(|c| c.set(interpreted_only));
                let decks = [mill.clone(), creatures.clone()];
                let mut g = Game::from_decks_played_by(&decks, seed, &crate::game::Setup::default(), &db, &[crate::Policy::Goldfish, crate::Policy::Goldfish]).unwrap();
                g.set_recording(true);
                while !g.is_over() && g.turn < 60 {
                    g.play_one().unwrap();
                }
                INTERPRETED_ONLY.with(|c| c.set(false));
                g
            });
            assert_eq!(games[0].events(), games[1].events(), "seed {seed}");
            assert_eq!(games[0].outcome(), games[1].outcome(), "seed {seed}");
            drawn += games[0].events().iter().filter(|e| matches!(e, Event::Drew { .. })).count();
            milled += games[0].players.iter().map(|p| p.graveyard.len()).sum::<usize>();
        }
        assert!(drawn > 1000 && milled > 1000, "{drawn} {milled}");
        // Lists with a target, with a branch, and as a permanent entered were followed plainly.
        let [targeted, branched, entering] = FOLLOWED_PLAINLY.with(std::cell::Cell::get);
        assert!(targeted > 40 && branched > 40 && entering > 10, "{targeted} {branched} {entering}");
    }

    // CR 608.2b: a plain list with a target checks it again as the interpreter does. "Target
    // creature's controller mills three": with the creature still there, its controller mills
    // (followed plainly); with it gone, the spell doesn't resolve and nobody mills. The same
    // events either way as the interpreter's. Mutations caught: an illegal target followed; the
    // caster milled for the target's controller.
    #[test]
    fn a_plain_list_checks_its_target_again_as_the_interpreter_does() {
        use crate::actions::movement::Entering;
        let db = crate::test_support::builtin_and([serde_json::json!({
            "name": "Crumbling Thoughts", "mana_cost": "{U}", "type_line": "Instant", "oracle_text": "Target creature's controller mills three cards.",
            "rules": {"targets": [{"kind": "creature"}], "spell": [{"mill": {"who": {"target": 0}, "count": 3}}]}
        })]);
        for gone in [false, true] {
            FOLLOWED_PLAINLY.with(|c| c.set([0; 3]));
            let games = [false, true].map(|interpreted_only| {
                INTERPRETED_ONLY.with(|c| c.set(interpreted_only));
                let mut g = Game::new(2, 1).unwrap();
                g.set_recording(true);
                g.add_cards(0, ZoneKind::Battlefield, &["Island"], Position::Top, &db).unwrap();
                g.add_cards(0, ZoneKind::Library, &["Island"; 5], Position::Top, &db).unwrap();
                g.add_cards(1, ZoneKind::Library, &["Forest"; 5], Position::Top, &db).unwrap();
                let bears = g.add_cards(1, ZoneKind::Hand, &["Grizzly Bears"], Position::Top, &db).unwrap()[0];
                let bears = g.move_object(bears, ZoneKind::Battlefield, Position::Top, Entering::default()).unwrap();
                let spell = g.add_cards(0, ZoneKind::Hand, &["Crumbling Thoughts"], Position::Top, &db).unwrap()[0];
                let targets = Some(vec![vec![TargetRef::Object(bears)]]);
                g.cast(spell, crate::casting::CastOptions { targets, ..Default::default() }).unwrap();
                if gone {
                    g.move_object(bears, ZoneKind::Graveyard, Position::Top, Entering::default()).unwrap();
                }
                g.resolve_top().unwrap();
                INTERPRETED_ONLY.with(|c| c.set(false));
                g
            });
            assert_eq!(games[0].events(), games[1].events(), "gone {gone}");
            let fizzled = games[0].events().iter().any(|e| matches!(e, Event::Fizzled { .. }));
            let libraries = games.each_ref().map(|g| [g.players[0].library.len(), g.players[1].library.len()]);
            assert_eq!((fizzled, libraries[0]), (gone, if gone { [5, 5] } else { [5, 2] }), "gone {gone}");
            assert_eq!(libraries[0], libraries[1]);
            assert_eq!(FOLLOWED_PLAINLY.with(std::cell::Cell::get)[0], u32::from(!gone));
        }
    }

    // CR 104.1: a plain list whose game ends part-way leaves the spell where it was, as the
    // interpreter does: Jace's controller draws from an empty library and wins, and the kicked
    // spell's branch ("each opponent draws two") isn't followed. (In a game of two nothing a
    // later step could do is seen once it is over: the loser is out, and the winner's draws
    // from their empty library win again to no effect. The list ends at its "if" all the same,
    // as the interpreter's does.) Mutation caught: the spell finished after the game ended.
    #[test]
    fn a_plain_list_ends_at_its_if_once_the_game_is_over() {
        use crate::actions::movement::Entering;
        let db = crate::test_support::builtin_and([serde_json::json!({
            "name": "Shared Insight", "mana_cost": "{U}", "type_line": "Sorcery", "oracle_text": "Kicker {U}\nDraw a card. If this spell was kicked, each opponent draws two cards.",
            "rules": {"spell": [{"draw": {"count": 1}}, {"if": {"cond": "kicked", "then": [{"draw": {"who": "each_opponent", "count": 2}}]}}]}
        })]);
        FOLLOWED_PLAINLY.with(|c| c.set([0; 3]));
        let games = [false, true].map(|interpreted_only| {
            INTERPRETED_ONLY.with(|c| c.set(interpreted_only));
            let mut g = Game::new(2, 1).unwrap();
            g.set_recording(true);
            g.add_cards(0, ZoneKind::Battlefield, &["Island"; 2], Position::Top, &db).unwrap();
            let jace = g.add_cards(0, ZoneKind::Hand, &["Jace, Wielder of Mysteries"], Position::Top, &db).unwrap()[0];
            g.move_object(jace, ZoneKind::Battlefield, Position::Top, Entering::default()).unwrap();
            g.add_cards(1, ZoneKind::Library, &["Forest"; 5], Position::Top, &db).unwrap();
            let spell = g.add_cards(0, ZoneKind::Hand, &["Shared Insight"], Position::Top, &db).unwrap()[0];
            g.cast(spell, crate::casting::CastOptions { kicks: Some(vec![1]), ..Default::default() }).unwrap();
            g.resolve_top().unwrap();
            INTERPRETED_ONLY.with(|c| c.set(false));
            g
        });
        assert_eq!(games[0].events(), games[1].events());
        assert_eq!(games[0].outcome().map(|o| o.winners.clone()), Some(vec![0]));
        assert_eq!(games.each_ref().map(|g| g.players[1].hand.len()), [0, 0]);
        assert_eq!(FOLLOWED_PLAINLY.with(std::cell::Cell::get)[1], 1);
    }

    // A decision an instruction asks, and a frame it starts, taken at once by the instructions
    // (answered by the policy there, as `take_up` would) come to what the run loop makes of
    // them: whole games with scries, kicked Joint Explorations putting lands, discards,
    // searches, reveals and mills, by goldfish, first-option and random players, recording
    // or not, the same state, events and record of answers either way. A manual player's and a
    // scripted player's decisions wait, or are answered by the script, in the same frames.
    // Mutations caught: the answer not recorded; the proc of a frame's step left waiting put
    // beneath the resolution's frame (the depth not raised past it); a scry done at once that
    // doesn't show the scrier the cards, or puts its piles back swapped.
    #[test]
    fn decisions_answered_at_once_inside_instructions_are_the_run_loops() {
        use crate::test_support::deck;
        let decks = [
            deck(&[
                ("Island", 12),
                ("Forest", 8),
                ("Swamp", 4),
                ("Joint Exploration", 12),
                ("Satyr Wayfinder", 4),
                ("Smuggler's Surprise", 4),
                ("Demonic Tutor", 4),
                ("Temple of Malady", 4),
                ("Glimpse the Unthinkable", 4),
                ("Bruvac the Grandiloquent", 2),
                ("Lórien Revealed", 2),
            ]),
            deck(&[
                ("Mountain", 16),
                ("Forest", 8),
                ("Faithless Looting", 8),
                ("Unexpected Windfall", 4),
                ("Veteran Explorer", 8),
                ("Gamble", 4),
                ("Evolving Wilds", 4),
                ("Joint Exploration", 8),
            ]),
        ];
        SETTLED_AT_ONCE.with(|c| c.set([0; 2]));
        for seed in 0..60 {
            let games = crate::test_support::played_both_ways(&decks, seed, seed % 2 == 0, |framed| FRAMED_DECISIONS.with(|c| c.set(framed)));
            assert_eq!(games[0].save_json(), games[1].save_json(), "seed {seed}");
            assert_eq!(games[0].events(), games[1].events(), "seed {seed}");
            assert!(games[0].history == games[1].history && games[0].unrecorded == games[1].unrecorded, "seed {seed}");
        }
        let [answered, stepped] = SETTLED_AT_ONCE.with(std::cell::Cell::get);
        assert!(answered > 50 && stepped > 100, "{answered} {stepped}");
        // A kicked Joint Exploration of a manual or a scripted player: the scry and the land
        // wait for their answers, or the script gives them, in the same frames either way.
        let db = crate::card::CardDb::builtin();
        for scripted in [false, true] {
            let games = [true, false].map(|framed| {
                FRAMED_DECISIONS.with(|c| c.set(framed));
                let mut g = Game::new(2, 1).unwrap();
                g.set_recording(true);
                g.add_cards(0, ZoneKind::Battlefield, &["Island", "Island", "Forest"], Position::Top, db).unwrap();
                g.add_cards(0, ZoneKind::Library, &["Island", "Forest", "Swamp"], Position::Top, db).unwrap();
                g.add_cards(0, ZoneKind::Hand, &["Forest"], Position::Top, db).unwrap();
                let spell = g.add_cards(0, ZoneKind::Hand, &["Joint Exploration"], Position::Top, db).unwrap()[0];
                g.set_policy(0, crate::Policy::Manual).unwrap();
                g.cast(spell, crate::casting::CastOptions { kicks: Some(vec![1]), ..Default::default() }).unwrap();
                if scripted {
                    let hand: Vec<ObjId> = g.zone(0, ZoneKind::Hand).unwrap();
                    let library = g.zone(0, ZoneKind::Library).unwrap();
                    let (top, bottom) = (library[..1].to_vec(), library[1..2].to_vec());
                    g.script(0, vec![Answer::Scry { top, bottom }, Answer::Cards { cards: hand[..1].to_vec() }]).unwrap();
                }
                let mut states = vec![(g.resolve_top().unwrap(), g.save_json())];
                while let Some(d) = g.pending().cloned() {
                    let answer = crate::policy::Policy::First.answer(&d, &mut crate::rng::Rng::new(0)).unwrap();
                    states.push((g.answer(answer).unwrap(), g.save_json()));
                }
                FRAMED_DECISIONS.with(|c| c.set(false));
                (states, g.events().to_vec(), g.zone(0, ZoneKind::Battlefield).unwrap().len())
            });
            assert_eq!(games[0], games[1], "scripted: {scripted}");
            assert_eq!((games[0].0.len(), games[0].2), (if scripted { 1 } else { 3 }, 4), "scripted: {scripted}");
        }
    }

    // The plain lists worked out once per definition are those its lists make for the kickers
    // paid: every card of the built-in database and a few with counts read from how they were
    // cast, every list, cast every way their "if"s can tell apart. Mutations caught: the
    // kickers' bits swapped; the activated and triggered abilities' lists swapped.
    #[test]
    fn a_definitions_plain_lists_are_those_its_lists_make_as_cast() {
        let db = crate::test_support::builtin_and(counted_by_cast());
        let casts = [[0, 0], [1, 0], [0, 1], [2, 1], [0, 3]].map(|kicks| CastInfo { kicks, x: 2, ..CastInfo::default() });
        let (mut plain, mut differ) = (0, 0);
        for def in db.iter() {
            let rules = &def.rules;
            let roots = [Root::Spell, Root::AsEnters]
                .into_iter()
                .chain((0..rules.activated.len()).map(|i| Root::Ability(AbilityRef::Activated(i as u16))))
                .chain((0..rules.triggers.len()).map(|i| Root::Ability(AbilityRef::Triggered(i as u16))));
            for root in roots {
                let lists = casts.map(|cast| {
                    let stored = match &root {
                        Root::AsEnters => PlainList::of_as_enters(def, &cast),
                        Root::Ability(a) => PlainList::of(def, Some(*a), &cast),
                        _ => PlainList::of(def, None, &cast),
                    };
                    assert_eq!(stored, PlainList::from(def_list(def, &root), &cast, def.reads_milled), "{} {root:?} {cast:?}", def.name);
                    stored
                });
                plain += lists.iter().flatten().count();
                differ += usize::from(lists.iter().any(|l| *l != lists[0]));
            }
        }
        assert!(plain > 50 && differ >= 4, "{plain} {differ}");
    }

    /// Cards whose plain lists read how they were cast: a count of X, a count of kicks, a
    /// branch on the \[B\] kicker, a branch on no kick, and a cycling trigger and an activated
    /// ability beside them (each kind of list indexed apart).
    fn counted_by_cast() -> [serde_json::Value; 4] {
        use serde_json::json;
        [
            json!({"name": "Measured Insight", "mana_cost": "{X}{U}", "type_line": "Sorcery", "oracle_text": "Draw X cards.", "rules": {"spell": [{"draw": {"count": "x"}}]}}),
            json!({"name": "Echoing Dredge", "mana_cost": "{U}", "type_line": "Sorcery", "oracle_text": "Multikicker {1}\nEach opponent mills a card for each time this spell was kicked. Draw a card.",
                "rules": {"kicker": [{"cost": "{1}", "multi": true}], "spell": [{"mill": {"who": "each_opponent", "count": "kicks"}}, {"draw": {"count": 1}}]}}),
            json!({"name": "Forked Study", "mana_cost": "{U}", "type_line": "Instant", "oracle_text": "Kicker {1}\nKicker {2}\nDraw a card. If this spell was kicked with its second kicker, draw two cards.\nCycling {2}\nWhen you cycle this card, each opponent mills two cards.",
                "rules": {"kicker": [{"cost": "{1}"}, {"cost": "{2}"}], "spell": [{"draw": {"count": 1}}, {"if": {"cond": {"kicked_with": 1}, "then": [{"draw": {"count": 2}}]}}], "triggers": [{"when": "cycle_this", "effects": [{"mill": {"who": "each_opponent", "count": 2}}]}]}}),
            json!({"name": "Patient Study", "mana_cost": "{U}", "type_line": "Sorcery", "oracle_text": "Kicker {2}\nIf this spell wasn't kicked, draw a card.",
                "rules": {"kicker": [{"cost": "{2}"}], "spell": [{"if": {"cond": "not_kicked", "then": [{"draw": {"count": 1}}]}}]}}),
        ]
    }

    // A plain list reads X and the kicks as it follows them, as the interpreter does: each card
    // of `counted_by_cast` cast every way, the same events either way, followed plainly.
    // Mutations caught: X read as the kicks; the kicks not counted; the second kicker's branch
    // taken for the first.
    #[test]
    fn a_plain_list_counts_x_and_kicks_as_the_interpreter_does() {
        let db = crate::test_support::builtin_and(counted_by_cast());
        // Each card, its X, its kicks, and the cards then in its caster's hand and in their
        // opponent's graveyard.
        let casts: [(&str, u32, &[u32], [usize; 2]); 8] = [
            ("Measured Insight", 0, &[], [0, 0]),
            ("Measured Insight", 3, &[], [3, 0]),
            ("Echoing Dredge", 0, &[0], [1, 0]),
            ("Echoing Dredge", 0, &[3], [1, 3]),
            ("Forked Study", 0, &[1, 0], [1, 0]),
            ("Forked Study", 0, &[0, 1], [3, 0]),
            ("Patient Study", 0, &[0], [1, 0]),
            ("Patient Study", 0, &[1], [0, 0]),
        ];
        FOLLOWED_PLAINLY.with(|c| c.set([0; 3]));
        for (name, x, kicks, expected) in casts {
            let games = [false, true].map(|interpreted_only| {
                INTERPRETED_ONLY.with(|c| c.set(interpreted_only));
                let mut g = Game::new(2, 1).unwrap();
                g.set_recording(true);
                g.add_cards(0, ZoneKind::Battlefield, &["Island"; 6], Position::Top, &db).unwrap();
                g.add_cards(0, ZoneKind::Library, &["Island"; 8], Position::Top, &db).unwrap();
                g.add_cards(1, ZoneKind::Library, &["Forest"; 8], Position::Top, &db).unwrap();
                let spell = g.add_cards(0, ZoneKind::Hand, &[name], Position::Top, &db).unwrap()[0];
                let options = crate::casting::CastOptions { x: Some(x), kicks: (!kicks.is_empty()).then(|| kicks.to_vec()), ..Default::default() };
                g.cast(spell, options).unwrap();
                g.resolve_top().unwrap();
                INTERPRETED_ONLY.with(|c| c.set(false));
                g
            });
            assert_eq!(games[0].events(), games[1].events(), "{name} {x} {kicks:?}");
            let moved = games.each_ref().map(|g| [g.players[0].hand.len(), g.players[1].graveyard.len()]);
            assert_eq!(moved, [expected; 2], "{name} {x} {kicks:?}");
        }
        let [_, branched, _] = FOLLOWED_PLAINLY.with(std::cell::Cell::get);
        assert_eq!(branched, 4, "each branching list was followed plainly");
    }

    #[test]
    fn a_proc_is_unallocated_exactly_until_a_list_it_holds_allocates_and_after_its_release() {
        // A resolution's proc is freed by hand, only if it holds an allocation: each list that
        // can hold one must count, and its release must free them all. Mutations caught: any
        // list left out of `unallocated` or of `release`.
        let fresh = || EffectProc::spell(0, EffectCtx::new(0, 0, ObjId(0), CastInfo::default()));
        assert!(fresh().unallocated());
        let allocations: [fn(&mut EffectProc); 8] = [
            |p| p.root = Root::Inline(Arc::new(Vec::new())),
            |p| p.path.extend([(0, true); 5]),
            |p| p.mill_orders.push((0, Vec::new())),
            |p| p.ctx.targets.push(Vec::new()),
            |p| p.ctx.legal.push(Vec::new()),
            |p| p.ctx.milled.push(ObjId(1)),
            |p| p.ctx.remembered.push(ObjId(1)),
            |p| p.ctx.targets.push(vec![TargetRef::Player(0)]),
        ];
        for (i, allocate) in allocations.iter().enumerate() {
            let mut p = fresh();
            allocate(&mut p);
            assert!(!p.unallocated(), "{i}");
            p.release();
            assert!(p.unallocated(), "{i}");
        }
    }
}
