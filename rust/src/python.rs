//! The only file that knows Python: classes, conversions and the mapping of [`Error`] to the
//! exception classes defined in `mtgsim/errors.py`.

use std::sync::Arc;

use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyList, PySequence, PyString, PyTuple, PyType};

use crate::actions::discard::DiscardMode;
use crate::actions::movement::Entering;
use crate::actions::search::{Destination, SearchSpec};
use crate::batch::{BatchResult, Op};
use crate::card::{CardDb, CardDef};
use crate::casting::CastOptions;
use crate::decision::{Answer, Choice, Decision};
use crate::error::{invalid, Error};
use crate::filter::CardFilter;
use crate::game::{check_count, Game, Progress, Setup};
use crate::object::ObjId;
use crate::play::{PlayState, Until};
use crate::policy::Policy;
use crate::rng::{derive_seed, Rng};
use crate::target::TargetRef;
use crate::turn::Step;
use crate::zone::{Position, ZoneKind};

// ----- errors -------------------------------------------------------------------------------

fn error_class(e: &Error) -> &'static str {
    match e {
        Error::UnknownCard { .. } => "UnknownCardError",
        Error::NoSuchPlayer { .. } => "InvalidPlayerError",
        Error::PlayerLeft(_) => "PlayerLeftError",
        Error::NoSuchObject(_) => "NoSuchObjectError",
        Error::WrongZone { .. } => "WrongZoneError",
        Error::InvalidArgument(_) => "InvalidArgumentError",
        Error::IllegalAction(_) => "IllegalActionError",
        Error::CannotPay(_) => "CannotPayError",
        Error::InvalidAnswer { .. } => "InvalidAnswerError",
        Error::Unscripted(_) => "UnscriptedDecisionError",
        Error::DecisionPending(_) => "DecisionPendingError",
        Error::NoDecisionPending => "NoDecisionPendingError",
        Error::GameOver => "GameOverError",
        Error::MalformedCost { .. } => "MalformedCostError",
        Error::InvalidCard { .. } => "InvalidCardError",
        Error::Snapshot(_) => "SnapshotError",
    }
}

static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn to_py(e: Error) -> PyErr {
    Python::attach(|py| {
        let class = ERRORS.get_or_try_init(py, || py.import("mtgsim.errors").map(Bound::unbind)).and_then(|m| m.bind(py).getattr(error_class(&e)));
        match class.and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from)) {
            Ok(c) => PyErr::from_type(c, e.to_string()),
            Err(import_failed) => import_failed,
        }
    })
}

trait OrPy<T> {
    fn py_err(self) -> PyResult<T>;
}

impl<T> OrPy<T> for Result<T, Error> {
    fn py_err(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}

// ----- argument conversion ------------------------------------------------------------------

/// A Python int of any size. Values beyond i64 saturate, so the engine's own range checks
/// report them (an absurd count, a player or object that doesn't exist) instead of PyO3's
/// OverflowError.
#[derive(Copy, Clone)]
struct Int(i64);

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        match obj.extract::<i64>() {
            Ok(v) => Ok(Int(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(Int(if obj.lt(0)? { i64::MIN } else { i64::MAX })),
            Err(e) => Err(e),
        }
    }
}

impl From<Int> for i64 {
    fn from(i: Int) -> i64 {
        i.0
    }
}

/// A whole number argument from `lo` to `hi`; anything else (a negative count, say) is an
/// `InvalidArgumentError` naming it, not Python's `OverflowError`.
fn in_range(v: Int, what: &str, lo: i64, hi: i64) -> PyResult<i64> {
    if (lo..=hi).contains(&v.0) {
        Ok(v.0)
    } else {
        Err(to_py(invalid(format!("{what} {} is out of range (from {lo} to {hi})", v.0))))
    }
}

/// A seed argument: any integer from 0 to 2^64 - 1 (else an `InvalidArgumentError`).
struct Seed(u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Seed> {
        seed(&obj).map(Seed)
    }
}

/// Seeds are any integer from 0 to 2^64 - 1.
fn seed(s: &Bound<'_, PyAny>) -> PyResult<u64> {
    let v: i128 = s.extract().map_err(|_| to_py(invalid("a seed is an integer from 0 to 2**64 - 1")))?;
    u64::try_from(v).map_err(|_| to_py(invalid(format!("seed {v} is out of range (0 to 2**64 - 1)"))))
}

fn player(p: i64, game: &Game) -> PyResult<usize> {
    if p < 0 || p as usize >= game.num_players() {
        return Err(to_py(Error::NoSuchPlayer { player: p, max: game.num_players() - 1 }));
    }
    Ok(p as usize)
}

fn players(ps: Vec<i64>, game: &Game) -> PyResult<Vec<usize>> {
    ps.into_iter().map(|p| player(p, game)).collect()
}

fn obj(id: i64) -> PyResult<ObjId> {
    if id < 0 {
        return Err(to_py(Error::NoSuchObject(id.into())));
    }
    Ok(ObjId(id as u64))
}

/// A policy as Python gives it: a built-in one by name, or a callable(game, decision) ->
/// answer, which plays as a manual player whose decisions the callable answers.
fn policy_from_py(policy: &Bound<'_, PyAny>) -> PyResult<(Policy, Option<Py<PyAny>>)> {
    if let Ok(name) = policy.extract::<String>() {
        Ok((Policy::parse(&name).py_err()?, None))
    } else if policy.is_callable() {
        Ok((Policy::Manual, Some(policy.clone().unbind())))
    } else {
        Err(PyTypeError::new_err("a policy is \"random\", \"first\", \"goldfish\", \"manual\" or a callable(game, decision) -> answer"))
    }
}

/// Player indexes in operations are checked against the game when the batch runs.
fn op_player(p: i64) -> PyResult<usize> {
    if p < 0 {
        return Err(to_py(Error::NoSuchPlayer { player: p, max: crate::game::MAX_PLAYERS - 1 }));
    }
    Ok(p as usize)
}

fn ids(v: &[ObjId]) -> Vec<u64> {
    v.iter().map(|o| o.0).collect()
}

/// Object ids straight into a Python list (the hot return path of draw and mill).
fn id_list_py<'py>(py: Python<'py>, v: &[ObjId]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, v.iter().map(|o| o.0))
}

fn zone_kind(s: &str) -> PyResult<ZoneKind> {
    ZoneKind::parse(s).py_err()
}

fn position(s: &str) -> PyResult<Position> {
    Position::parse(s).py_err()
}

fn destination(to: &str, tapped: bool) -> PyResult<Destination> {
    let d = match to {
        "hand" => Destination::Hand,
        "battlefield" => Destination::Battlefield { tapped },
        "graveyard" => Destination::Graveyard,
        "exile" => Destination::Exile,
        "library_top" => Destination::LibraryTop,
        _ => return Err(to_py(invalid(format!("search destination must be hand, battlefield, graveyard, exile or library_top, not {to:?}")))),
    };
    if tapped && to != "battlefield" {
        return Err(to_py(invalid("tapped=True only applies to cards put onto the battlefield")));
    }
    Ok(d)
}

fn search_spec(description: &str, count: i64, to: &str, reveal: bool, shuffle: bool, optional: bool, tapped: bool) -> PyResult<SearchSpec> {
    let filter = CardFilter::parse(description).py_err()?;
    let max = check_count(count, "number of cards to find").py_err()?;
    Ok(SearchSpec { filter: filter.into(), max, to: destination(to, tapped)?, reveal, shuffle, optional })
}

fn id_list(ob: &Bound<'_, PyAny>, what: &str) -> Result<Vec<ObjId>, String> {
    let seq = ob.cast::<PySequence>().map_err(|_| format!("{what} must be a list of object ids"))?;
    let mut out = Vec::new();
    for item in seq.try_iter().map_err(|e| e.to_string())? {
        let item = item.map_err(|e| e.to_string())?;
        if item.is_instance_of::<PyBool>() {
            return Err(format!("{what} must hold object ids (ints), not bools"));
        }
        let id: i64 = item.extract().map_err(|_| {
            let got = item.repr().map(|r| r.to_string()).unwrap_or_default();
            // A list inside the list: most likely a scry answer of the wrong shape.
            let hint = if item.cast::<PySequence>().is_ok() { " (a scry answer is a pair of lists: (top, bottom))" } else { "" };
            format!("{what} must hold object ids (ints), got {got}{hint}")
        })?;
        if id < 0 {
            // Ids and mode numbers are never negative; say so rather than wrap around.
            return Err(format!("{what} must hold object ids or mode numbers, which are never negative; got {id}"));
        }
        out.push(ObjId(id as u64));
    }
    Ok(out)
}

/// Reads an answer: a bool for yes/no, a list of ids for choosing cards, a pair of lists (or a
/// dict with "top" and "bottom") for scry. Checked against the decision by the engine.
fn answer_from_py(ob: &Bound<'_, PyAny>, players: usize) -> PyResult<Answer> {
    let fail = |reason: String| to_py(Error::InvalidAnswer { decision: "the decision".into(), reason });
    if let Ok(b) = ob.cast::<PyBool>() {
        return Ok(Answer::YesNo { yes: b.is_true() });
    }
    if let Ok(n) = ob.extract::<i64>() {
        return u32::try_from(n).map(|n| Answer::Number { n }).map_err(|_| fail(format!("{n} is not a number a decision can take")));
    }
    if let Ok(seq) = ob.cast::<PySequence>() {
        let names_a_player = |x: &Bound<'_, PyAny>| {
            x.is_instance_of::<PyDict>() || x.cast::<PyTuple>().is_ok_and(|t| t.get_item(0).is_ok_and(|k| k.extract::<String>().is_ok_and(|k| k == "player")))
        };
        if !ob.is_instance_of::<PyString>() && seq.try_iter()?.any(|x| x.is_ok_and(|x| names_a_player(&x))) {
            let targets = seq.try_iter()?.map(|x| target_from_py(&x?, players)).collect::<PyResult<Vec<_>>>()?;
            return Ok(Answer::Targets { targets });
        }
    }
    if let Ok(d) = ob.cast::<PyDict>() {
        let get = |k: &str| -> PyResult<Vec<ObjId>> {
            match d.get_item(k)? {
                Some(v) => id_list(&v, k).map_err(fail),
                None => Err(fail(format!("a scry answer dict needs the key {k:?}"))),
            }
        };
        return Ok(Answer::Scry { top: get("top")?, bottom: get("bottom")? });
    }
    if ob.is_instance_of::<PyString>() {
        return Err(fail("answers are ids, lists of ids, (top, bottom) pairs or bools, not strings".into()));
    }
    if let Ok(seq) = ob.cast::<PySequence>() {
        let len = seq.len()?;
        if len == 2 {
            let (a, b) = (seq.get_item(0)?, seq.get_item(1)?);
            match (a.cast::<PySequence>().is_ok(), b.cast::<PySequence>().is_ok()) {
                (true, true) => return Ok(Answer::Scry { top: id_list(&a, "top").map_err(fail)?, bottom: id_list(&b, "bottom").map_err(fail)? }),
                (true, false) => return Err(fail(format!("a scry answer is a pair of lists of ids (top, bottom); the bottom is {}, not a list", b.repr()?))),
                (false, true) => return Err(fail(format!("a scry answer is a pair of lists of ids (top, bottom); the top is {}, not a list", a.repr()?))),
                (false, false) => {}
            }
        }
        return Ok(Answer::Cards { cards: id_list(ob, "the chosen cards").map_err(fail)? });
    }
    Err(fail(format!("can't read {} as an answer", ob.repr()?)))
}

/// A target: an object id, or a player as `{"player": p}` or `("player", p)`.
fn target_from_py(ob: &Bound<'_, PyAny>, players: usize) -> PyResult<TargetRef> {
    let bad = || to_py(invalid(format!("a target is an object id or {{\"player\": p}}, not {}", ob.repr().map(|r| r.to_string()).unwrap_or_default())));
    if ob.is_instance_of::<PyBool>() {
        return Err(bad());
    }
    if let Ok(id) = ob.extract::<i64>() {
        return Ok(TargetRef::Object(obj(id)?));
    }
    let p: Option<i64> = if let Ok(d) = ob.cast::<PyDict>() {
        match d.get_item("player")? {
            Some(v) if d.len() == 1 => v.extract().ok(),
            _ => None,
        }
    } else if let Ok(t) = ob.cast::<PyTuple>() {
        match (t.len(), t.get_item(0).ok().and_then(|k| k.extract::<String>().ok())) {
            (2, Some(k)) if k == "player" => t.get_item(1)?.extract().ok(),
            _ => None,
        }
    } else {
        None
    };
    match p {
        // A number that could name a player is checked as a target by the engine (not a
        // legal target); one that can't is reported against this game's players.
        Some(p) if (0..=255).contains(&p) => Ok(TargetRef::Player(p as u8)),
        Some(p) => Err(to_py(Error::NoSuchPlayer { player: p, max: players.saturating_sub(1) })),
        None => Err(bad()),
    }
}

/// Targets for each "target" of a spell: a list per target; a bare target stands for a list
/// of one.
fn targets_from_py(ob: &Bound<'_, PyAny>, players: usize) -> PyResult<Vec<Vec<TargetRef>>> {
    let seq = ob.cast::<PySequence>().map_err(|_| to_py(invalid("targets must be a list with an entry for each target of the spell")))?;
    let mut out = Vec::new();
    for item in seq.try_iter()? {
        let item = item?;
        if item.cast::<PyList>().is_ok() {
            out.push(item.try_iter()?.map(|x| target_from_py(&x?, players)).collect::<PyResult<Vec<_>>>()?);
        } else {
            out.push(vec![target_from_py(&item, players)?]);
        }
    }
    Ok(out)
}

/// Kicks: a bool or a count for the first kicker ability, or a list with one per ability.
fn kicks_from_py(ob: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    let one = |x: &Bound<'_, PyAny>| -> PyResult<u32> {
        if let Ok(b) = x.cast::<PyBool>() {
            return Ok(b.is_true() as u32);
        }
        let n: i64 = x.extract().map_err(|_| to_py(invalid("kick is a bool, a count, or a list of those (one per kicker ability)")))?;
        u32::try_from(n).map_err(|_| to_py(invalid(format!("can't kick {n} times"))))
    };
    if let Ok(seq) = ob.cast::<PyList>() {
        return seq.iter().map(|x| one(&x)).collect();
    }
    Ok(vec![one(ob)?])
}

/// "game_over", "end_of_turn", a step name, or a turn number to reach.
fn until_from_py(ob: &Bound<'_, PyAny>) -> PyResult<Until> {
    if let Ok(n) = ob.extract::<i64>() {
        return u32::try_from(n).map(Until::Turn).map_err(|_| to_py(invalid(format!("turn {n} is out of range"))));
    }
    let s: String = ob.extract().map_err(|_| to_py(invalid("until is \"game_over\", \"end_of_turn\", a step name or a turn number")))?;
    Ok(match s.as_str() {
        "game_over" => Until::GameOver,
        "end_of_turn" => Until::EndOfTurn,
        step => Until::Step(Step::parse(step).py_err()?),
    })
}

/// Converts JSON (events, views) into plain Python objects.
fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (_, Some(i)) => i.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(0.0).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(json_to_py(py, x)?)?;
            }
            list.into_any()
        }
        Value::Object(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

// ----- value classes ------------------------------------------------------------------------

/// A set of card definitions by name: the built-in cards unless asked otherwise, plus any the
/// user adds.
#[pyclass(name = "CardDB", module = "mtgsim._core")]
#[derive(Clone)]
pub struct PyCardDb(Arc<CardDb>);

#[pymethods]
impl PyCardDb {
    #[new]
    #[pyo3(signature = (*, builtin = true), text_signature = "(*, builtin=True)")]
    fn new(builtin: bool) -> PyCardDb {
        PyCardDb(Arc::new(if builtin { CardDb::builtin().clone() } else { CardDb::default() }))
    }
    /// Adds cards given as records of the card format (dicts); returns them. Nothing is added
    /// if any is invalid (the error names the card and the field).
    fn add(&mut self, records: &Bound<'_, PyAny>) -> PyResult<Vec<PyCardDef>> {
        let values = match py_to_json(records)? {
            serde_json::Value::Array(v) => v,
            one => vec![one],
        };
        let added = Arc::make_mut(&mut self.0).add_all(values).py_err()?;
        Ok(added.into_iter().map(PyCardDef).collect())
    }
    /// Adds the cards of a card file (`{"format": "mtgsim-cards", "version": 1, "cards": [...]}`).
    fn load(&mut self, path: std::path::PathBuf) -> PyResult<Vec<String>> {
        let text = std::fs::read_to_string(&path).map_err(|e| to_py(invalid(format!("can't read {}: {e}", path.display()))))?;
        let file = CardDb::from_json(&text).py_err()?;
        let values: Vec<serde_json::Value> = file.iter().map(|d| serde_json::to_value(crate::card::CardRecord::from((**d).clone())).expect("plain data")).collect();
        Ok(Arc::make_mut(&mut self.0).add_all(values).py_err()?.iter().map(|d| d.name.to_string()).collect())
    }
    /// Imports cards in the shape of common public card data (name, mana_cost, type_line,
    /// oracle_text, power, toughness, loyalty; other fields ignored): the keyword abilities the
    /// engine implements are recognised from the Oracle text. Returns, for each card, the text
    /// the engine can't model.
    fn import_cards(&mut self, records: &Bound<'_, PyAny>) -> PyResult<Vec<(String, Vec<String>)>> {
        let values = match py_to_json(records)? {
            serde_json::Value::Array(v) => v,
            one => vec![one],
        };
        Arc::make_mut(&mut self.0).import(values).py_err()
    }
    fn __getitem__(&self, name: &str) -> PyResult<PyCardDef> {
        Ok(PyCardDef(self.0.get(name).py_err()?.clone()))
    }
    fn get(&self, name: &str) -> PyResult<PyCardDef> {
        self.__getitem__(name)
    }
    fn __contains__(&self, name: &str) -> bool {
        self.0.contains(name)
    }
    fn __len__(&self) -> usize {
        self.0.len()
    }
    /// The names of the cards (not tokens), in the order added.
    fn names(&self) -> Vec<String> {
        self.0.iter().filter(|d| !d.token).map(|d| d.name.to_string()).collect()
    }
    /// The names of the token definitions.
    fn tokens(&self) -> Vec<String> {
        self.0.iter().filter(|d| d.token).map(|d| d.name.to_string()).collect()
    }
    /// The whole database as a card file.
    fn to_json(&self) -> String {
        self.0.to_json()
    }
    fn __repr__(&self) -> String {
        format!("<CardDB {} cards>", self.0.len())
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let load = slf.get_type().getattr("_from_json")?;
        Ok((load, (slf.borrow().0.to_json(),)))
    }
    #[staticmethod]
    fn _from_json(text: &str) -> PyResult<PyCardDb> {
        Ok(PyCardDb(Arc::new(CardDb::from_json(text).py_err()?)))
    }
}

/// The built-in cards, shared by every game that isn't given its own database.
fn builtin_db() -> Arc<CardDb> {
    static DB: std::sync::OnceLock<Arc<CardDb>> = std::sync::OnceLock::new();
    DB.get_or_init(|| Arc::new(CardDb::builtin().clone())).clone()
}

/// What was wrong with deck `i`: said plainly when it isn't a list of names at all.
fn deck_error(i: usize, ob: &Bound<'_, PyAny>, e: PyErr) -> PyErr {
    if ob.is_instance_of::<PyString>() {
        return to_py(invalid(format!("deck {i} is a string; a deck is a list of card names (or a DeckList)")));
    }
    if e.is_instance_of::<PyTypeError>(ob.py()) {
        return to_py(invalid(format!("deck {i} must be a list of card names (strings) or a DeckList: {}", e.value(ob.py()))));
    }
    e
}

/// A deck as card names: a list of names, or anything with a `cards()` method returning one
/// (`mtgsim.DeckList`).
fn deck_names(ob: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(cards) = ob.getattr("cards") {
        if cards.is_callable() {
            return cards.call0()?.extract();
        }
    }
    ob.extract()
}

/// A Python value (dicts, lists, strings, numbers, bools, None) as JSON.
fn py_to_json(ob: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    let json = ob.py().import("json")?;
    let text: String = match json.call_method1("dumps", (ob,)) {
        Ok(t) => t.extract()?,
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyRecursionError>(ob.py()) => return Err(to_py(invalid("the record is nested too deeply"))),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyTypeError>(ob.py()) || e.is_instance_of::<pyo3::exceptions::PyValueError>(ob.py()) => {
            return Err(to_py(invalid(format!("not plain data: {e}"))))
        }
        Err(e) => return Err(e),
    };
    serde_json::from_str(&text).map_err(|e| to_py(invalid(format!("not plain data: {e}"))))
}

/// The printed characteristics of a card.
#[pyclass(frozen, name = "CardDef", module = "mtgsim._core")]
pub struct PyCardDef(Arc<CardDef>);

#[pymethods]
impl PyCardDef {
    /// A card definition from the fields of common card data; invalid fields raise
    /// InvalidCardError (or MalformedCostError for the cost) naming the card and the field.
    #[new]
    #[pyo3(signature = (name, mana_cost, type_line, oracle_text = String::new(), power = None, toughness = None, loyalty = None), text_signature = "(name, mana_cost, type_line, oracle_text='', power=None, toughness=None, loyalty=None)")]
    fn new(name: String, mana_cost: String, type_line: String, oracle_text: String, power: Option<String>, toughness: Option<String>, loyalty: Option<String>) -> PyResult<Self> {
        if let Err(e) = crate::mana::ManaCost::parse(&mana_cost) {
            return Err(to_py(e));
        }
        let record = crate::card::CardRecord { name, mana_cost, type_line, oracle_text, power, toughness, loyalty, rules: None, colors: None, token: false };
        Ok(PyCardDef(Arc::new(CardDef::from_record(record).py_err()?)))
    }
    #[getter]
    fn name(&self) -> &str {
        &self.0.name
    }
    #[getter]
    fn mana_cost(&self) -> String {
        self.0.mana_cost.to_string()
    }
    #[getter]
    fn mana_value(&self) -> u32 {
        self.0.mana_value()
    }
    #[getter]
    fn colors(&self) -> Vec<String> {
        self.0.colors.iter().map(|c| c.letter().to_string()).collect()
    }
    #[getter]
    fn types(&self) -> Vec<&'static str> {
        self.0.types.iter().map(|t| t.word()).collect()
    }
    #[getter]
    fn supertypes(&self) -> Vec<&'static str> {
        self.0.supertypes.iter().map(|t| t.word()).collect()
    }
    #[getter]
    fn subtypes(&self) -> Vec<String> {
        self.0.subtypes.iter().map(|s| s.to_string()).collect()
    }
    #[getter]
    fn power(&self) -> Option<&str> {
        self.0.power.as_deref()
    }
    #[getter]
    fn toughness(&self) -> Option<&str> {
        self.0.toughness.as_deref()
    }
    #[getter]
    fn loyalty(&self) -> Option<&str> {
        self.0.loyalty.as_deref()
    }
    #[getter]
    fn type_line(&self) -> &str {
        &self.0.type_line
    }
    #[getter]
    fn text(&self) -> &str {
        &self.0.text
    }
    /// Oracle text this engine doesn't model yet (reported, never silently dropped).
    #[getter]
    fn unsupported(&self) -> Vec<String> {
        self.0.rules.unsupported.clone()
    }
    #[getter]
    fn is_token(&self) -> bool {
        self.0.token
    }
    /// The card as a record of the card format (`docs/card-format.md`), rules included.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let record = crate::card::CardRecord::from((*self.0).clone());
        json_to_py(py, &serde_json::to_value(record).expect("plain data"))
    }
    /// A card from a record of the card format; errors name the card and the field.
    #[staticmethod]
    fn from_dict(record: &Bound<'_, PyAny>) -> PyResult<PyCardDef> {
        let value = py_to_json(record)?;
        let record = CardDb::record_from_value(value).py_err()?;
        Ok(PyCardDef(Arc::new(CardDef::from_record(record).py_err()?)))
    }
    fn __repr__(&self) -> String {
        format!("<CardDef {}>", self.0)
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyCardDef>().is_ok_and(|o| *o.get().0 == *self.0)
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.0.name.hash(&mut h);
        h.finish()
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let load = slf.get_type().getattr("_from_json")?;
        Ok((load, (serde_json::to_string(&*slf.get().0).expect("plain data"),)))
    }
    #[staticmethod]
    fn _from_json(text: &str) -> PyResult<PyCardDef> {
        let def: CardDef = serde_json::from_str(text).map_err(|e| to_py(Error::Snapshot(e.to_string())))?;
        Ok(PyCardDef(Arc::new(def)))
    }
}

/// One object as it is now: a snapshot, not a live handle.
#[pyclass(frozen, name = "GameObject", module = "mtgsim._core")]
pub struct PyGameObject {
    #[pyo3(get)]
    id: u64,
    card: Arc<CardDef>,
    #[pyo3(get)]
    owner: u8,
    #[pyo3(get)]
    controller: u8,
    #[pyo3(get)]
    zone: &'static str,
    #[pyo3(get)]
    tapped: bool,
    counters: Vec<(String, u32)>,
}

/// What `__reduce__` returns for pickling: the class and its constructor's arguments.
type Reduced<'py, Args> = (Bound<'py, PyAny>, Args);
/// `GameObject`'s constructor arguments: id, card (JSON), owner, controller, zone, tapped, counters.
type GameObjectArgs = (u64, String, u8, u8, &'static str, bool, Vec<(String, u32)>);

#[pymethods]
impl PyGameObject {
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, GameObjectArgs>> {
        let o = slf.get();
        let card = serde_json::to_string(&*o.card).expect("plain data");
        Ok((slf.get_type().getattr("_restore")?, (o.id, card, o.owner, o.controller, o.zone, o.tapped, o.counters.clone())))
    }
    #[staticmethod]
    fn _restore(id: u64, card: &str, owner: u8, controller: u8, zone: &str, tapped: bool, counters: Vec<(String, u32)>) -> PyResult<PyGameObject> {
        let card: CardDef = serde_json::from_str(card).map_err(|e| to_py(Error::Snapshot(e.to_string())))?;
        let zone = ZoneKind::parse(zone).py_err()?.name();
        Ok(PyGameObject { id, card: Arc::new(card), owner, controller, zone, tapped, counters })
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyGameObject>().is_ok_and(|o| {
            let o = o.get();
            (o.id, o.owner, o.controller, o.zone, o.tapped, &o.counters) == (self.id, self.owner, self.controller, self.zone, self.tapped, &self.counters) && *o.card == *self.card
        })
    }
    #[getter]
    fn name(&self) -> &str {
        &self.card.name
    }
    #[getter]
    fn card(&self) -> PyCardDef {
        PyCardDef(self.card.clone())
    }
    #[getter]
    fn counters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, n) in &self.counters {
            d.set_item(k, n)?;
        }
        Ok(d)
    }
    fn __repr__(&self) -> String {
        let zone = match self.zone {
            "library" | "hand" | "graveyard" => format!("in player {}'s {}", self.owner, self.zone),
            "outside" => format!("outside the game (owner {})", self.owner),
            "battlefield" => format!("on the battlefield (controller {})", self.controller),
            "stack" => format!("on the stack (controller {})", self.controller),
            "exile" => "in exile".to_string(),
            _ => "in the command zone".to_string(),
        };
        format!("<GameObject {} {:?} {zone}{}>", self.id, &*self.card.name, if self.tapped { ", tapped" } else { "" })
    }
}

/// A pending choice.
#[pyclass(frozen, name = "Decision", module = "mtgsim._core")]
pub struct PyDecision(Decision);

#[pymethods]
impl PyDecision {
    #[getter]
    fn player(&self) -> u8 {
        self.0.player
    }
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind()
    }
    #[getter]
    fn purpose(&self) -> &'static str {
        self.0.purpose.name()
    }
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.0.view()["options"])
    }
    #[getter]
    fn min(&self) -> u32 {
        match &self.0.choice {
            Choice::Cards { min, .. } | Choice::Number { min, .. } | Choice::Targets { min, .. } | Choice::Modes { min, .. } => *min,
            Choice::Order { options } => options.len() as u32,
            _ => 0,
        }
    }
    #[getter]
    fn max(&self) -> u32 {
        match &self.0.choice {
            Choice::Cards { max, .. } | Choice::Number { max, .. } | Choice::Targets { max, .. } | Choice::Modes { max, .. } => *max,
            Choice::Scry { cards } => cards.len() as u32,
            Choice::YesNo => 1,
            Choice::Actions { options } => options.len().saturating_sub(1) as u32,
            Choice::Order { options } => options.len() as u32,
        }
    }
    #[getter]
    fn cards(&self) -> Vec<u64> {
        match &self.0.choice {
            Choice::Scry { cards } => ids(cards),
            _ => Vec::new(),
        }
    }
    #[getter]
    fn prompt(&self) -> String {
        self.0.to_string()
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.0.view())
    }
    fn __repr__(&self) -> String {
        format!("<Decision {}: {} {}>", self.0.kind(), self.0, self.0.view()["options"])
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyDecision>().is_ok_and(|o| o.get().0 == self.0)
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let load = slf.get_type().getattr("_from_json")?;
        Ok((load, (serde_json::to_string(&slf.get().0).expect("plain data"),)))
    }
    #[staticmethod]
    fn _from_json(text: &str) -> PyResult<PyDecision> {
        serde_json::from_str(text).map(PyDecision).map_err(|e| to_py(Error::Snapshot(e.to_string())))
    }
}

/// One step toward answering the pending decision, with its text as of when it was listed.
#[pyclass(frozen, name = "Action", module = "mtgsim._core")]
#[derive(Clone)]
pub struct PyAction {
    action: crate::legal::LegalAction,
    text: String,
}

#[pymethods]
impl PyAction {
    /// "priority", "yes", "no", "number", "pick", "pick_player", "pick_mode", "bottom", "done".
    #[getter]
    fn kind(&self) -> String {
        serde_json::to_value(self.action).expect("plain data")["kind"].as_str().unwrap_or("").to_string()
    }
    /// A readable description: "cast Fractured Sanity", "put Island on the bottom".
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut v = serde_json::to_value(self.action).expect("plain data");
        v["text"] = serde_json::Value::String(self.text.clone());
        json_to_py(py, &v)
    }
    fn __repr__(&self) -> String {
        format!("<Action {}>", self.text)
    }
    fn __str__(&self) -> String {
        self.text.clone()
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyAction>().is_ok_and(|o| o.get().action == self.action)
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.action.hash(&mut h);
        h.finish()
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let load = slf.get_type().getattr("_from_json")?;
        let me = slf.get();
        Ok((load, (serde_json::to_string(&me.action).expect("plain data"), me.text.clone())))
    }
    #[staticmethod]
    fn _from_json(text: &str, description: String) -> PyResult<PyAction> {
        let action = serde_json::from_str(text).map_err(|e| to_py(Error::Snapshot(e.to_string())))?;
        Ok(PyAction { action, text: description })
    }
}

/// A fixed numbering of the actions of a game configuration (see `Game.action_space`).
#[pyclass(frozen, name = "ActionSpace", module = "mtgsim._core")]
#[derive(Clone)]
pub struct PyActionSpace(crate::legal::ActionSpace);

#[pymethods]
impl PyActionSpace {
    #[new]
    fn new(slots: Int, players: Int) -> PyResult<Self> {
        let players = in_range(players, "the number of players of an action space", 2, crate::game::MAX_PLAYERS as i64)? as u8;
        let slots = in_range(slots, "the number of object slots", 0, 1_000_000)? as u32;
        Ok(PyActionSpace(crate::legal::ActionSpace { slots, players }))
    }
    #[getter]
    fn slots(&self) -> u32 {
        self.0.slots
    }
    #[getter]
    fn players(&self) -> u8 {
        self.0.players
    }
    #[getter]
    fn size(&self) -> usize {
        self.0.size()
    }
    fn __len__(&self) -> usize {
        self.0.size()
    }
    /// The action's code.
    fn encode(&self, action: PyRef<'_, PyAction>) -> PyResult<u32> {
        self.0.encode(&action.action).py_err()
    }
    /// The action a code names in `game`.
    fn decode(&self, code: Int, game: PyRef<'_, PyGame>) -> PyResult<PyAction> {
        let code = code.0;
        let code = u32::try_from(code).map_err(|_| to_py(invalid(format!("action code {code} is out of range (the space has {} codes)", self.0.size()))))?;
        let action = self.0.decode(code, &game.game).py_err()?;
        Ok(PyAction { action, text: game.game.describe(&action) })
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyActionSpace>().is_ok_and(|o| o.get().0 == self.0)
    }
    fn __repr__(&self) -> String {
        format!("<ActionSpace {} codes: {} object slots, {} players>", self.0.size(), self.0.slots, self.0.players)
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (u32, u8))> {
        Ok((slf.get_type().into_any(), (slf.get().0.slots, slf.get().0.players)))
    }
}

/// Many single-agent games stepped together in one call (see `mtgsim.GameBatch`).
#[pyclass(name = "GameBatch", module = "mtgsim._core")]
pub struct PyGameBatch(crate::legal::Batch);

#[pymethods]
impl PyGameBatch {
    #[new]
    #[pyo3(
        signature = (decks, games, seed = Seed(0), seat = Int(0), opponent = "goldfish", extra = Int(64), db = None),
        text_signature = "(decks, games, seed=0, seat=0, opponent='goldfish', extra=64, db=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(py: Python<'_>, decks: Vec<Bound<'_, PyAny>>, games: Int, seed: Seed, seat: Int, opponent: &str, extra: Int, db: Option<PyRef<'_, PyCardDb>>) -> PyResult<Self> {
        let decks = decks.iter().map(deck_names).collect::<PyResult<Vec<_>>>()?;
        let opponent = Policy::parse(opponent).py_err()?;
        let db = db.map(|d| d.0.clone()).unwrap_or_else(builtin_db);
        let games = in_range(games, "a batch's number of games", 1, 100_000)? as usize;
        let seed = seed.0;
        let seat = in_range(seat, "the agent's seat", 0, decks.len().saturating_sub(1) as i64)? as u8;
        let extra = in_range(extra, "the number of extra slots", 0, 1_000_000)? as u32;
        let b = py.detach(|| crate::legal::Batch::new(decks, games, seed, seat, opponent, extra, Setup::default(), db)).py_err()?;
        Ok(PyGameBatch(b))
    }
    #[getter]
    fn space(&self) -> PyActionSpace {
        PyActionSpace(self.0.space)
    }
    fn __len__(&self) -> usize {
        self.0.games.len()
    }
    /// A copy of game `i` as it stands.
    fn game(&self, i: Int) -> PyResult<PyGame> {
        let g = usize::try_from(i.0).ok().and_then(|i| self.0.games.get(i)).ok_or_else(|| to_py(invalid(format!("no game {} in a batch of {}", i.0, self.0.games.len()))))?;
        Ok(PyGame::wrap(g.clone()))
    }
    /// One action code per game; returns (rewards as float32 bytes, terminated as bool bytes).
    fn _step<'py>(&mut self, py: Python<'py>, codes: Vec<i64>) -> PyResult<(Bound<'py, pyo3::types::PyBytes>, Bound<'py, pyo3::types::PyBytes>)> {
        let codes = codes.iter().map(|&c| u32::try_from(c).map_err(|_| to_py(invalid(format!("action code {c} is out of range"))))).collect::<PyResult<Vec<u32>>>()?;
        let b = &mut self.0;
        let r = py.detach(|| b.step(&codes)).py_err()?;
        let reward: Vec<u8> = r.reward.iter().flat_map(|x| x.to_le_bytes()).collect();
        let done: Vec<u8> = r.terminated.iter().map(|&d| d as u8).collect();
        Ok((pyo3::types::PyBytes::new(py, &reward), pyo3::types::PyBytes::new(py, &done)))
    }
    /// The agent's observations, stacked: (global float32, objects int32, masks uint8) bytes.
    fn _observe<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, pyo3::types::PyBytes>, Bound<'py, pyo3::types::PyBytes>, Bound<'py, pyo3::types::PyBytes>)> {
        let b = &self.0;
        let (g, r, m) = py.detach(|| b.observe()).py_err()?;
        // Written straight into Python's bytes (a MemoryError there if they don't fit).
        fn le_bytes<'py, const N: usize>(py: Python<'py>, xs: impl ExactSizeIterator<Item = [u8; N]>) -> PyResult<Bound<'py, pyo3::types::PyBytes>> {
            pyo3::types::PyBytes::new_with(py, xs.len() * N, |buf| {
                for (chunk, x) in buf.chunks_exact_mut(N).zip(xs) {
                    chunk.copy_from_slice(&x);
                }
                Ok(())
            })
        }
        Ok((le_bytes(py, g.iter().map(|x| x.to_le_bytes()))?, le_bytes(py, r.iter().map(|x| x.to_le_bytes()))?, pyo3::types::PyBytes::new(py, &m)))
    }
}

/// One operation for [`PyGame::run_batch`].
#[pyclass(frozen, name = "Op", module = "mtgsim._core")]
#[derive(Clone)]
pub struct PyOp(Op);

#[pymethods]
impl PyOp {
    #[staticmethod]
    #[pyo3(signature = (player, n = Int(1)), text_signature = "(player, n=1)")]
    fn draw(player: Int, n: Int) -> PyResult<PyOp> {
        let player: i64 = player.0;
        let n: i64 = n.0;
        check_count(n, "number of cards to draw").py_err()?;
        Ok(PyOp(Op::Draw { player: op_player(player)?, n }))
    }
    #[staticmethod]
    fn mill(player: Int, n: Int) -> PyResult<PyOp> {
        let player: i64 = player.0;
        let n: i64 = n.0;
        check_count(n, "number of cards to mill").py_err()?;
        Ok(PyOp(Op::Mill { player: op_player(player)?, n }))
    }
    #[staticmethod]
    fn mill_opponents(player: Int, n: Int) -> PyResult<PyOp> {
        let player: i64 = player.0;
        let n: i64 = n.0;
        check_count(n, "number of cards to mill").py_err()?;
        Ok(PyOp(Op::MillOpponents { player: op_player(player)?, n }))
    }
    #[staticmethod]
    #[pyo3(signature = (player, n = Int(1), random = false), text_signature = "(player, n=1, random=False)")]
    fn discard(player: Int, n: Int, random: bool) -> PyResult<PyOp> {
        let player: i64 = player.0;
        let n: i64 = n.0;
        check_count(n, "number of cards to discard").py_err()?;
        Ok(PyOp(Op::Discard { player: op_player(player)?, n, mode: if random { DiscardMode::Random } else { DiscardMode::Choose } }))
    }
    #[staticmethod]
    fn shuffle(player: Int) -> PyResult<PyOp> {
        let player: i64 = player.0;
        Ok(PyOp(Op::Shuffle { player: op_player(player)? }))
    }
    #[staticmethod]
    #[pyo3(signature = (player, description = "card", count = Int(1), to = "hand", reveal = false, shuffle = true), text_signature = "(player, description='card', count=1, to='hand', reveal=False, shuffle=True)")]
    fn search(player: Int, description: &str, count: Int, to: &str, reveal: bool, shuffle: bool) -> PyResult<PyOp> {
        let player: i64 = player.0;
        let count: i64 = count.0;
        Ok(PyOp(Op::Search { player: op_player(player)?, spec: search_spec(description, count, to, reveal, shuffle, false, false)? }))
    }
    #[staticmethod]
    fn scry(player: Int, n: Int) -> PyResult<PyOp> {
        let player: i64 = player.0;
        let n: i64 = n.0;
        check_count(n, "scry amount").py_err()?;
        Ok(PyOp(Op::Scry { player: op_player(player)?, n }))
    }
    #[staticmethod]
    #[pyo3(signature = (card, kick = None))]
    fn cast(card: Int, kick: Option<&Bound<'_, PyAny>>) -> PyResult<PyOp> {
        Ok(PyOp(Op::Cast { card: obj(card.0)?, kicks: kick.map(kicks_from_py).transpose()? }))
    }
    #[staticmethod]
    fn resolve_top() -> PyOp {
        PyOp(Op::ResolveTop)
    }
    #[staticmethod]
    #[pyo3(signature = (source, index = Int(0)), text_signature = "(source, index=0)")]
    fn activate(source: Int, index: Int) -> PyResult<PyOp> {
        let index = usize::try_from(index.0).map_err(|_| to_py(invalid(format!("ability index {} is out of range", index.0))))?;
        Ok(PyOp(Op::Activate { source: obj(source.0)?, index }))
    }
    #[staticmethod]
    fn cycle(card: Int) -> PyResult<PyOp> {
        Ok(PyOp(Op::Cycle { card: obj(card.0)? }))
    }
    #[staticmethod]
    fn play_turn() -> PyOp {
        PyOp(Op::PlayTurn)
    }
    #[staticmethod]
    #[pyo3(signature = (card, kick = None))]
    fn cost_of(card: Int, kick: Option<&Bound<'_, PyAny>>) -> PyResult<PyOp> {
        Ok(PyOp(Op::CostOf { card: obj(card.0)?, kicks: kick.map(kicks_from_py).transpose()?.unwrap_or_default() }))
    }
    fn __repr__(&self) -> String {
        format!("<Op {}>", serde_json::to_string(&self.0).expect("plain data"))
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyOp>().is_ok_and(|o| o.get().0 == self.0)
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let load = slf.get_type().getattr("_from_json")?;
        Ok((load, (serde_json::to_string(&slf.get().0).expect("plain data"),)))
    }
    #[staticmethod]
    fn _from_json(text: &str) -> PyResult<PyOp> {
        serde_json::from_str(text).map(PyOp).map_err(|e| to_py(Error::Snapshot(e.to_string())))
    }
}

/// What a batch run did.
#[pyclass(frozen, name = "BatchResult", module = "mtgsim._core")]
pub struct PyBatchResult(BatchResult);

#[pymethods]
impl PyBatchResult {
    #[new]
    fn new(repetitions: u64, operations: u64, games_over: u64, library_cards: u64) -> Self {
        PyBatchResult(BatchResult { repetitions, operations, games_over, library_cards })
    }
    #[getter]
    fn repetitions(&self) -> u64 {
        self.0.repetitions
    }
    #[getter]
    fn operations(&self) -> u64 {
        self.0.operations
    }
    #[getter]
    fn games_over(&self) -> u64 {
        self.0.games_over
    }
    #[getter]
    fn library_cards(&self) -> u64 {
        self.0.library_cards
    }
    fn __repr__(&self) -> String {
        let r = &self.0;
        format!("BatchResult(repetitions={}, operations={}, games_over={}, library_cards={})", r.repetitions, r.operations, r.games_over, r.library_cards)
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, (u64, u64, u64, u64)>> {
        let r = &slf.get().0;
        Ok((slf.get_type().into_any(), (r.repetitions, r.operations, r.games_over, r.library_cards)))
    }
}

/// The game's portable generator, exposed for reproducing its numbers.
#[pyclass(name = "Rng", module = "mtgsim._core")]
pub struct PyRng(Rng);

#[pymethods]
impl PyRng {
    #[new]
    fn new(seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyRng(Rng::new(self::seed(seed)?)))
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, ([u64; 4],))> {
        Ok((slf.get_type().getattr("_from_state")?, (slf.borrow().0.state(),)))
    }
    #[staticmethod]
    fn _from_state(state: [u64; 4]) -> PyResult<PyRng> {
        Rng::from_state(state).map(PyRng).ok_or_else(|| to_py(Error::Snapshot("an all-zero generator state".into())))
    }
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn below(&mut self, n: &Bound<'_, PyAny>) -> PyResult<u64> {
        let n: i128 = n.extract()?;
        match u64::try_from(n) {
            Ok(n) if n > 0 => Ok(self.0.below(n)),
            _ => Err(to_py(invalid(format!("below(n) needs 0 < n < 2**64, not {n}")))),
        }
    }
    /// Shuffles a list in place, exactly as the engine shuffles a library.
    fn shuffle(&mut self, items: &Bound<'_, PyList>) -> PyResult<()> {
        for i in (1..items.len()).rev() {
            let j = self.0.below(i as u64 + 1) as usize;
            if i != j {
                let (a, b) = (items.get_item(i)?, items.get_item(j)?);
                items.set_item(i, b)?;
                items.set_item(j, a)?;
            }
        }
        Ok(())
    }
}

// ----- the game -----------------------------------------------------------------------------

/// A game of Magic. See the `mtgsim` package documentation.
#[pyclass(name = "Game", module = "mtgsim._core")]
pub struct PyGame {
    game: Game,
    /// Where `add_cards` finds cards by name.
    db: Arc<CardDb>,
    /// Python callables answering for players (the slow path); those players' seats are
    /// `Manual` inside the engine.
    callbacks: Vec<Option<Py<PyAny>>>,
}

impl PyGame {
    fn wrap(game: Game) -> PyGame {
        let n = game.num_players();
        PyGame { game, db: builtin_db(), callbacks: (0..n).map(|_| None).collect() }
    }

    fn has_callbacks(&self) -> bool {
        self.callbacks.iter().any(Option::is_some)
    }

    fn object_view(&self, id: ObjId) -> Result<PyGameObject, Error> {
        let o = self.game.object(id)?;
        Ok(PyGameObject {
            id: id.0,
            card: self.game.card(id)?.clone(),
            owner: o.owner,
            controller: o.controller,
            zone: o.zone.kind.name(),
            tapped: o.tapped,
            counters: self.game.counters(id)?.map(|c| c.iter().map(|(k, n)| (k.to_string(), n)).collect()).unwrap_or_default(),
        })
    }

    /// Runs `body`, which may answer decisions through Python callbacks; if it fails (a
    /// callback raised or answered wrongly, part-way through), the game and the callbacks go
    /// back to how they were before it (CR 733). Without callbacks the engine's own undo is
    /// enough, and no copy is taken.
    fn all_or_nothing<T>(slf: &Bound<'_, Self>, body: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
        let py = slf.py();
        let snapshot = {
            let me = slf.borrow();
            me.has_callbacks().then(|| (me.game.clone(), me.callbacks.iter().map(|c| c.as_ref().map(|c| c.clone_ref(py))).collect::<Vec<_>>()))
        };
        body().inspect_err(|_| {
            if let Some((game, callbacks)) = snapshot {
                let mut me = slf.borrow_mut();
                me.game = game;
                me.callbacks = callbacks;
            }
        })
    }

    /// Runs an action that may stop for decisions, answering those of players with Python
    /// callbacks, all or nothing.
    fn act(slf: &Bound<'_, Self>, f: impl FnOnce(&mut Game) -> Result<Progress, Error>) -> PyResult<Option<Vec<u64>>> {
        Self::all_or_nothing(slf, || {
            let first = f(&mut slf.borrow_mut().game).py_err()?;
            Self::drive(slf, first)
        })
    }

    /// Runs an action that returns its own result and then, if what it triggered stopped at a
    /// decision a Python callback answers, answers it: all or nothing.
    fn act_then_settle<T>(slf: &Bound<'_, Self>, f: impl FnOnce(&mut Game) -> Result<T, Error>) -> PyResult<T> {
        Self::all_or_nothing(slf, || {
            let out = f(&mut slf.borrow_mut().game).py_err()?;
            Self::settle_callbacks(slf)?;
            Ok(out)
        })
    }

    /// Answers, through Python callbacks, a decision the last action stopped at.
    fn settle_callbacks(slf: &Bound<'_, Self>) -> PyResult<()> {
        if slf.borrow().game.pending().is_some() {
            Self::drive(slf, Progress::Paused)?;
        }
        Ok(())
    }

    /// The ids grouped by the player who owns each card, in the order `players` lists them.
    fn by_owner(slf: &Bound<'_, Self>, players: &[usize], v: &[u64]) -> Vec<Vec<u64>> {
        let me = slf.borrow();
        players.iter().map(|&p| v.iter().copied().filter(|&id| me.game.object(ObjId(id)).is_ok_and(|o| o.owner as usize == p)).collect()).collect()
    }

    fn drive(slf: &Bound<'_, Self>, mut progress: Progress) -> PyResult<Option<Vec<u64>>> {
        let py = slf.py();
        loop {
            match progress {
                Progress::Done(v) => return Ok(Some(ids(&v))),
                Progress::Paused => {
                    let (callback, decision) = {
                        let me = slf.borrow();
                        let d = me.game.pending().expect("paused means a decision is pending").clone();
                        match &me.callbacks[d.player as usize] {
                            Some(cb) => (cb.clone_ref(py), d),
                            None => return Ok(None),
                        }
                    };
                    let answer = callback.call1(py, (slf, PyDecision(decision)))?;
                    let answer = answer_from_py(answer.bind(py), slf.borrow().game.num_players())?;
                    progress = slf.borrow_mut().game.answer(answer).py_err()?;
                }
            }
        }
    }

    fn zone_list(&self, kind: ZoneKind, p: i64) -> PyResult<Vec<u64>> {
        let p = player(p, &self.game)?;
        Ok(ids(&self.game.zone(p, kind).py_err()?))
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (num_players = Int(2), seed = None, *, db = None), text_signature = "(num_players=2, seed=None, *, db=None)")]
    fn new(num_players: Int, seed: Option<&Bound<'_, PyAny>>, db: Option<PyRef<'_, PyCardDb>>) -> PyResult<PyGame> {
        let seed = seed.map(self::seed).transpose()?.unwrap_or(0);
        let num_players: i64 = num_players.0;
        if num_players < 0 {
            return Err(to_py(invalid(format!("a game needs 2 to {} players, not {num_players}", crate::game::MAX_PLAYERS))));
        }
        let mut g = PyGame::wrap(Game::new(num_players as usize, seed).py_err()?);
        if let Some(db) = db {
            g.db = db.0.clone();
        }
        Ok(g)
    }

    #[staticmethod]
    #[pyo3(signature = (decks, seed = None, *, starting_life = Int(20), hand_size = Int(7), db = None, policies = None), text_signature = "(decks, seed=None, *, starting_life=20, hand_size=7, db=None, policies=None)")]
    fn from_decks<'py>(
        py: Python<'py>,
        decks: Vec<Bound<'py, PyAny>>,
        seed: Option<&Bound<'py, PyAny>>,
        starting_life: Int,
        hand_size: Int,
        db: Option<PyRef<'py, PyCardDb>>,
        policies: Option<Vec<Bound<'py, PyAny>>>,
    ) -> PyResult<Bound<'py, PyGame>> {
        let decks = decks.iter().enumerate().map(|(i, d)| deck_names(d).map_err(|e| deck_error(i, d, e))).collect::<PyResult<Vec<_>>>()?;
        let db = db.map(|d| d.0.clone()).unwrap_or_else(builtin_db);
        let seed = seed.map(self::seed).transpose()?.unwrap_or(0);
        let starting_life: i64 = starting_life.0;
        let hand_size: i64 = hand_size.0;
        let hand_size = check_count(hand_size, "hand size").py_err()?;
        if !(1..=crate::game::MAX_COUNT).contains(&starting_life) {
            return Err(to_py(invalid(format!("starting life must be from 1 to {}, not {starting_life}", crate::game::MAX_COUNT))));
        }
        // The callables answer, as the opening-hand choices come up, for players who are manual
        // to the engine.
        let (builtin, callbacks): (Vec<Policy>, Vec<Option<Py<PyAny>>>) =
            policies.unwrap_or_default().iter().map(policy_from_py).collect::<PyResult<Vec<_>>>()?.into_iter().unzip();
        let setup = Setup { starting_life: starting_life as i32, hand_size };
        let mut g = PyGame::wrap(Game::from_decks_played_by(&decks, seed, &setup, &db, &builtin).py_err()?);
        g.db = db;
        for (p, callback) in callbacks.into_iter().enumerate() {
            g.callbacks[p] = callback;
        }
        let g = Bound::new(py, g)?;
        Self::settle_callbacks(&g)?;
        Ok(g)
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.game.seed()
    }
    #[getter]
    fn turn(&self) -> u32 {
        self.game.turn()
    }
    #[getter]
    fn get_active_player(&self) -> usize {
        self.game.active_player()
    }
    #[setter]
    fn set_active_player(&mut self, p: Int) -> PyResult<()> {
        let p: i64 = p.0;
        let p = player(p, &self.game)?;
        self.game.set_active_player(p).py_err()
    }

    // --- positions ---

    #[pyo3(signature = (player, zone, names, position = "top"))]
    fn add_cards(&mut self, player: Int, zone: &str, names: Vec<String>, position: &str) -> PyResult<Vec<u64>> {
        let player: i64 = player.0;
        let p = self::player(player, &self.game)?;
        let (kind, pos) = (zone_kind(zone)?, self::position(position)?);
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        Ok(ids(&self.game.add_cards(p, kind, &names, pos, &self.db).py_err()?))
    }
    fn library(&self, player: Int) -> PyResult<Vec<u64>> {
        let player: i64 = player.0;
        self.zone_list(ZoneKind::Library, player)
    }
    fn hand(&self, player: Int) -> PyResult<Vec<u64>> {
        let player: i64 = player.0;
        self.zone_list(ZoneKind::Hand, player)
    }
    fn graveyard(&self, player: Int) -> PyResult<Vec<u64>> {
        let player: i64 = player.0;
        self.zone_list(ZoneKind::Graveyard, player)
    }
    fn outside(&self, player: Int) -> PyResult<Vec<u64>> {
        let player: i64 = player.0;
        self.zone_list(ZoneKind::Outside, player)
    }
    fn battlefield(&self) -> PyResult<Vec<u64>> {
        self.zone_list(ZoneKind::Battlefield, 0)
    }
    fn exile(&self) -> PyResult<Vec<u64>> {
        self.zone_list(ZoneKind::Exile, 0)
    }
    fn stack(&self) -> PyResult<Vec<u64>> {
        self.zone_list(ZoneKind::Stack, 0)
    }
    fn command(&self) -> PyResult<Vec<u64>> {
        self.zone_list(ZoneKind::Command, 0)
    }
    #[pyo3(signature = (zone, player = Int(0)), text_signature = "($self, zone, player=0)")]
    fn zone(&self, zone: &str, player: Int) -> PyResult<Vec<u64>> {
        let player: i64 = player.0;
        self.zone_list(zone_kind(zone)?, player)
    }
    fn object(&self, id: Int) -> PyResult<PyGameObject> {
        let id: i64 = id.0;
        self.object_view(obj(id)?).py_err()
    }
    fn name(&self, id: Int) -> PyResult<String> {
        let id: i64 = id.0;
        Ok(self.game.card(obj(id)?).py_err()?.name.to_string())
    }
    fn card_name(&self, id: Int) -> PyResult<String> {
        let id: i64 = id.0;
        Ok(self.game.card_behind(obj(id)?).py_err()?.name.to_string())
    }
    /// What the player has done so far: cards milled from their library, spells cast, kicker
    /// costs paid, cards cycled, lands played (the per-player simulation columns).
    fn stats<'py>(&self, py: Python<'py>, player: Int) -> PyResult<Bound<'py, PyAny>> {
        let p = self::player(player.0, &self.game)?;
        let stats = self.game.players[p].stats;
        json_to_py(py, &serde_json::to_value(stats).expect("plain numbers"))
    }
    fn life(&self, player: Int) -> PyResult<i32> {
        let player: i64 = player.0;
        self.game.life(self::player(player, &self.game)?).py_err()
    }
    fn set_life(&mut self, player: Int, life: Int) -> PyResult<()> {
        let player: i64 = player.0;
        let life: i64 = life.0;
        let p = self::player(player, &self.game)?;
        self.game.set_life(p, life).py_err()
    }
    fn player_counters<'py>(&self, py: Python<'py>, player: Int) -> PyResult<Bound<'py, PyDict>> {
        let player: i64 = player.0;
        let st = self.game.player(self::player(player, &self.game)?).py_err()?;
        let d = PyDict::new(py);
        for (k, n) in st.counters.iter() {
            d.set_item(k, n)?;
        }
        Ok(d)
    }
    #[pyo3(signature = (player, kind, n = Int(1)), text_signature = "($self, player, kind, n=1)")]
    fn add_player_counters(&mut self, player: Int, kind: &str, n: Int) -> PyResult<()> {
        let player: i64 = player.0;
        let n: i64 = n.0;
        let p = self::player(player, &self.game)?;
        check_count(n, "number of counters").py_err()?;
        self.game.change_player_counters(p, kind, n).py_err()
    }
    #[pyo3(signature = (player, kind, n = Int(1)), text_signature = "($self, player, kind, n=1)")]
    fn remove_player_counters(&mut self, player: Int, kind: &str, n: Int) -> PyResult<()> {
        let player: i64 = player.0;
        let n: i64 = n.0;
        let p = self::player(player, &self.game)?;
        check_count(n, "number of counters").py_err()?;
        self.game.change_player_counters(p, kind, -n).py_err()
    }
    #[pyo3(signature = (id, kind, n = Int(1)), text_signature = "($self, id, kind, n=1)")]
    fn add_counters(&mut self, id: Int, kind: &str, n: Int) -> PyResult<()> {
        let id: i64 = id.0;
        let n: i64 = n.0;
        check_count(n, "number of counters").py_err()?;
        self.game.change_object_counters(obj(id)?, kind, n).py_err()
    }
    #[pyo3(signature = (id, kind, n = Int(1)), text_signature = "($self, id, kind, n=1)")]
    fn remove_counters(&mut self, id: Int, kind: &str, n: Int) -> PyResult<()> {
        let id: i64 = id.0;
        let n: i64 = n.0;
        check_count(n, "number of counters").py_err()?;
        self.game.change_object_counters(obj(id)?, kind, -n).py_err()
    }
    #[pyo3(signature = (id, tapped = true))]
    fn set_tapped(&mut self, id: Int, tapped: bool) -> PyResult<()> {
        let id: i64 = id.0;
        self.game.set_tapped(obj(id)?, tapped).py_err()
    }
    fn concede(&mut self, player: Int) -> PyResult<()> {
        let player: i64 = player.0;
        let p = self::player(player, &self.game)?;
        self.game.concede(p).py_err()
    }

    // --- actions ---

    #[pyo3(signature = (player, n = Int(1)), text_signature = "($self, player, n=1)")]
    fn draw<'py>(slf: &Bound<'py, Self>, player: Int, n: Int) -> PyResult<Bound<'py, PyList>> {
        let p = self::player(player.0, &slf.borrow().game)?;
        let drawn = Self::act_then_settle(slf, |g| g.draw(p, n.0))?;
        id_list_py(slf.py(), &drawn)
    }
    fn mill<'py>(slf: &Bound<'py, Self>, player: Int, n: Int) -> PyResult<Option<Bound<'py, PyList>>> {
        let p = self::player(player.0, &slf.borrow().game)?;
        if !slf.borrow().has_callbacks() {
            // The hot path: no callbacks to drive, the list built directly.
            let progress = slf.borrow_mut().game.mill(p, n.0).py_err()?;
            return match progress {
                Progress::Done(milled) => Ok(Some(id_list_py(slf.py(), &milled)?)),
                Progress::Paused => Ok(None),
            };
        }
        Self::act(slf, |g| g.mill(p, n.0))?.map(|v| PyList::new(slf.py(), v)).transpose()
    }
    fn mill_each(slf: &Bound<'_, Self>, players: Vec<Int>, n: Int) -> PyResult<Option<Vec<Vec<u64>>>> {
        let players: Vec<i64> = players.into_iter().map(i64::from).collect();
        let ps = self::players(players, &slf.borrow().game)?;
        let milled = Self::act(slf, |g| g.mill_each(&ps, n.0))?;
        Ok(milled.map(|v| Self::by_owner(slf, &ps, &v)))
    }
    fn mill_opponents(slf: &Bound<'_, Self>, player: Int, n: Int) -> PyResult<Option<Vec<Vec<u64>>>> {
        let p = self::player(player.0, &slf.borrow().game)?;
        let opponents: Vec<usize> = slf.borrow().game.opponents_of(p as u8).into_iter().map(usize::from).collect();
        let milled = Self::act(slf, |g| g.mill_opponents(p, n.0))?;
        Ok(milled.map(|v| Self::by_owner(slf, &opponents, &v)))
    }
    fn pay_mill_cost(slf: &Bound<'_, Self>, player: Int, n: Int) -> PyResult<Option<Vec<u64>>> {
        let p = self::player(player.0, &slf.borrow().game)?;
        Self::act(slf, |g| g.pay_mill_cost(p, n.0))
    }
    #[pyo3(signature = (player, n = Int(1), *, random = false, chooser = None), text_signature = "($self, player, n=1, *, random=False, chooser=None)")]
    fn discard(slf: &Bound<'_, Self>, player: Int, n: Int, random: bool, chooser: Option<Int>) -> PyResult<Option<Vec<u64>>> {
        let chooser: Option<i64> = chooser.map(i64::from);
        let player: i64 = player.0;
        let n: i64 = n.0;
        let (p, mode) = {
            let me = slf.borrow();
            let p = self::player(player, &me.game)?;
            let mode = match (random, chooser) {
                (true, Some(_)) => return Err(to_py(invalid("a random discard has no chooser"))),
                (true, None) => DiscardMode::Random,
                (false, Some(c)) if self::player(c, &me.game)? != p => DiscardMode::ChosenBy(c as u8),
                (false, _) => DiscardMode::Choose,
            };
            (p, mode)
        };
        Self::act(slf, |g| g.discard(p, n, mode))
    }
    fn shuffle(&mut self, player: Int) -> PyResult<()> {
        let player: i64 = player.0;
        let p = self::player(player, &self.game)?;
        self.game.shuffle(p).py_err()
    }
    #[pyo3(signature = (player, description = "card", *, count = Int(1), to = "hand", reveal = false, shuffle = true, optional = false, library = None, tapped = false), text_signature = "($self, player, description='card', *, count=1, to='hand', reveal=False, shuffle=True, optional=False, library=None, tapped=False)")]
    #[allow(clippy::too_many_arguments)]
    fn search(
        slf: &Bound<'_, Self>,
        player: Int,
        description: &str,
        count: Int,
        to: &str,
        reveal: bool,
        shuffle: bool,
        optional: bool,
        library: Option<Int>,
        tapped: bool,
    ) -> PyResult<Option<Vec<u64>>> {
        let library: Option<i64> = library.map(i64::from);
        let player: i64 = player.0;
        let count: i64 = count.0;
        let (p, owner) = {
            let me = slf.borrow();
            (self::player(player, &me.game)?, self::player(library.unwrap_or(player), &me.game)?)
        };
        let spec = search_spec(description, count, to, reveal, shuffle, optional, tapped)?;
        Self::act(slf, |g| g.search(p, owner, spec))
    }
    fn reveal(&mut self, player: Int, cards: Vec<Int>) -> PyResult<()> {
        let cards: Vec<i64> = cards.into_iter().map(i64::from).collect();
        let player: i64 = player.0;
        let p = self::player(player, &self.game)?;
        let cards = cards.into_iter().map(obj).collect::<PyResult<Vec<_>>>()?;
        self.game.reveal(p, &cards).py_err()
    }
    #[pyo3(name = "move", signature = (id, zone, *, position = "top", tapped = false, controller = None))]
    fn move_(slf: &Bound<'_, Self>, id: Int, zone: &str, position: &str, tapped: bool, controller: Option<Int>) -> PyResult<u64> {
        let controller = controller.map(|c| player(c.0, &slf.borrow().game)).transpose()?;
        let entering = Entering { tapped, controller };
        let (id, zone, position) = (obj(id.0)?, zone_kind(zone)?, self::position(position)?);
        Ok(Self::act_then_settle(slf, |g| g.move_object(id, zone, position, entering))?.0)
    }
    fn scry(slf: &Bound<'_, Self>, player: Int, n: Int) -> PyResult<()> {
        let player: i64 = player.0;
        let n: i64 = n.0;
        let p = self::player(player, &slf.borrow().game)?;
        Self::act(slf, |g| g.scry(p, n)).map(|_| ())
    }
    fn scry_each(slf: &Bound<'_, Self>, players: Vec<Int>, n: Int) -> PyResult<()> {
        let players: Vec<i64> = players.into_iter().map(i64::from).collect();
        let n: i64 = n.0;
        let ps = self::players(players, &slf.borrow().game)?;
        Self::act(slf, |g| g.scry_each(&ps, n)).map(|_| ())
    }

    // --- turns, priority, casting ---

    #[getter]
    fn step(&self) -> &'static str {
        self.game.step().name()
    }
    #[getter]
    fn priority_player(&self) -> Option<usize> {
        self.game.priority_player()
    }
    fn pass_priority(slf: &Bound<'_, Self>) -> PyResult<()> {
        Self::act(slf, |g| g.pass_priority()).map(|_| ())
    }
    fn resolve_top(slf: &Bound<'_, Self>) -> PyResult<()> {
        Self::act(slf, |g| g.resolve_top()).map(|_| ())
    }
    fn advance_to(slf: &Bound<'_, Self>, step: &str) -> PyResult<()> {
        let step = Step::parse(step).py_err()?;
        Self::act(slf, |g| g.advance_to(step)).map(|_| ())
    }
    fn next_turn(slf: &Bound<'_, Self>) -> PyResult<()> {
        Self::act(slf, |g| g.next_turn()).map(|_| ())
    }
    #[pyo3(signature = (card, *, kick = None, x = None, targets = None, payment = None, without_paying = false, flashback = false, sticker = None, modes = None, discard = None))]
    #[allow(clippy::too_many_arguments)]
    fn cast(
        slf: &Bound<'_, Self>,
        card: Int,
        kick: Option<&Bound<'_, PyAny>>,
        x: Option<Int>,
        targets: Option<&Bound<'_, PyAny>>,
        payment: Option<Vec<Int>>,
        without_paying: bool,
        flashback: bool,
        sticker: Option<bool>,
        modes: Option<Vec<Int>>,
        discard: Option<Int>,
    ) -> PyResult<Option<u64>> {
        let x = match x {
            Some(Int(v)) if v < 0 => return Err(to_py(invalid(format!("X can't be negative ({v})")))),
            Some(Int(v)) => Some(u32::try_from(v).map_err(|_| to_py(invalid(format!("X = {v} is out of range"))))?),
            None => None,
        };
        let opts = CastOptions {
            kicks: kick.map(kicks_from_py).transpose()?,
            x,
            targets: targets.map(|t| targets_from_py(t, slf.borrow().game.num_players())).transpose()?,
            payment: payment.map(|v| v.into_iter().map(|i| obj(i.0)).collect::<PyResult<Vec<_>>>()).transpose()?,
            without_paying,
            flashback,
            sticker,
            modes: modes
                .map(|v| {
                    v.into_iter()
                        .map(|Int(m)| u32::try_from(m).map_err(|_| to_py(invalid(format!("mode {m} doesn't exist (modes are numbered from 0)")))))
                        .collect::<PyResult<Vec<_>>>()
                })
                .transpose()?,
            discard: discard.map(|i| obj(i.0)).transpose()?,
        };
        let card = obj(card.0)?;
        Ok(Self::act(slf, |g| g.cast(card, opts))?.and_then(|v| v.first().copied()))
    }
    /// Plays on with every player's policy choosing priority actions, until `until`.
    #[pyo3(signature = (until = None, *, max_actions = Int(1_000_000)), text_signature = "($self, until='game_over', *, max_actions=1000000)")]
    fn play(slf: &Bound<'_, Self>, until: Option<&Bound<'_, PyAny>>, max_actions: Int) -> PyResult<()> {
        let until = until.map(until_from_py).transpose()?.unwrap_or(Until::GameOver);
        let max = u64::try_from(max_actions.0).map_err(|_| to_py(invalid("max_actions must not be negative")))?;
        if !slf.borrow().has_callbacks() {
            return Self::act(slf, |g| g.play(until, max)).map(|_| ());
        }
        // The slow path: Python callbacks answer between actions, one action at a time; a play
        // that fails part-way is undone whole, as on the fast path.
        Self::all_or_nothing(slf, || {
            let mut state = PlayState::new(&slf.borrow().game);
            for _ in 0..max {
                if slf.borrow().game.reached(until, &mut state) {
                    break;
                }
                let progress = slf.borrow_mut().game.play_one().py_err()?;
                if Self::drive(slf, progress)?.is_none() {
                    break; // stopped at a manual player's decision
                }
            }
            Ok(())
        })
    }
    fn priority_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let actions = match self.game.priority_player() {
            Some(p) => self.game.priority_actions(p as u8),
            None => Vec::new(),
        };
        json_to_py(py, &serde_json::to_value(actions).expect("plain data"))
    }
    #[pyo3(signature = (spell, controller = None))]
    fn copy_spell(&mut self, spell: Int, controller: Option<Int>) -> PyResult<u64> {
        let controller = controller.map(|c| player(c.0, &self.game)).transpose()?;
        Ok(self.game.copy_spell(obj(spell.0)?, controller).py_err()?.0)
    }
    /// Activates ability `index` of `source` (CR 602); returns the ability on the stack.
    #[pyo3(
        signature = (source, index = Int(0), *, x = None, targets = None, sacrifice = None, discard = None),
        text_signature = "($self, source, index=0, *, x=None, targets=None, sacrifice=None, discard=None)"
    )]
    fn activate(
        slf: &Bound<'_, Self>,
        source: Int,
        index: Int,
        x: Option<Int>,
        targets: Option<&Bound<'_, PyAny>>,
        sacrifice: Option<Int>,
        discard: Option<Int>,
    ) -> PyResult<Option<u64>> {
        let source = obj(source.0)?;
        let index = usize::try_from(index.0).map_err(|_| to_py(invalid(format!("ability index {} is out of range", index.0))))?;
        let x = match x {
            Some(Int(v)) if v < 0 => return Err(to_py(invalid(format!("X can't be negative ({v})")))),
            Some(Int(v)) => Some(u32::try_from(v).map_err(|_| to_py(invalid(format!("X = {v} is out of range"))))?),
            None => None,
        };
        let opts = crate::ability::ActivateOptions {
            x,
            targets: targets.map(|t| targets_from_py(t, slf.borrow().game.num_players())).transpose()?,
            sacrifice: sacrifice.map(|i| obj(i.0)).transpose()?,
            discard: discard.map(|i| obj(i.0)).transpose()?,
        };
        Ok(Self::act(slf, |g| g.activate_with(source, index, opts.clone()))?.and_then(|v| v.first().copied()))
    }
    /// Cycles a card from hand (CR 702.29); returns the cycling ability on the stack.
    fn cycle(slf: &Bound<'_, Self>, card: Int) -> PyResult<Option<u64>> {
        let card = obj(card.0)?;
        Ok(Self::act(slf, |g| g.cycle(card))?.and_then(|v| v.first().copied()))
    }
    fn play_land(slf: &Bound<'_, Self>, card: Int) -> PyResult<u64> {
        let card = obj(card.0)?;
        Ok(Self::act_then_settle(slf, |g| g.play_land(card))?.0)
    }
    #[pyo3(signature = (source, mana = None))]
    fn activate_mana(slf: &Bound<'_, Self>, source: Int, mana: Option<&str>) -> PyResult<()> {
        let source = obj(source.0)?;
        Self::act_then_settle(slf, |g| g.activate_mana(source, mana))
    }
    fn mana_pool<'py>(&self, py: Python<'py>, player: Int) -> PyResult<Bound<'py, PyDict>> {
        let pool = self.game.mana_pool(self::player(player.0, &self.game)?).py_err()?;
        let d = PyDict::new(py);
        for (i, letter) in ["W", "U", "B", "R", "G", "C"].iter().enumerate() {
            d.set_item(letter, pool.amounts[i])?;
        }
        Ok(d)
    }
    fn set_auto_pay(&mut self, player: Int, on: bool) -> PyResult<()> {
        let p = self::player(player.0, &self.game)?;
        self.game.set_auto_pay(p, on).py_err()
    }
    fn auto_pay(&self, player: Int) -> PyResult<bool> {
        self.game.auto_pay(self::player(player.0, &self.game)?).py_err()
    }
    fn cancel(&mut self) -> PyResult<()> {
        self.game.cancel().py_err()
    }
    fn kicked(&self, id: Int) -> PyResult<bool> {
        self.game.kicked(obj(id.0)?).py_err()
    }
    fn cast_info<'py>(&self, py: Python<'py>, id: Int) -> PyResult<Bound<'py, PyAny>> {
        let id = obj(id.0)?;
        let c = self.game.cast_info(id).py_err()?;
        let targets: Vec<serde_json::Value> = self
            .game
            .stack_items()
            .find(|(s, _)| *s == id)
            .map(|(_, it)| it.targets.iter().map(|row| serde_json::Value::Array(row.iter().map(TargetRef::view).collect())).collect())
            .unwrap_or_default();
        json_to_py(
            py,
            &serde_json::json!({
                "kicked": c.kicked(),
                "kicks": c.kicks,
                "granted_kicks": c.granted_kicks,
                "x": c.x,
                "flashback": c.flashback,
                "modes": (0..16).filter(|m| c.modes & (1 << m) != 0).collect::<Vec<u32>>(),
                "targets": targets,
            }),
        )
    }
    #[pyo3(signature = (card, *, kick = None, x = Int(0)), text_signature = "($self, card, *, kick=None, x=0)")]
    fn cost_of(&self, card: Int, kick: Option<&Bound<'_, PyAny>>, x: Int) -> PyResult<(String, bool)> {
        let kicks = kick.map(kicks_from_py).transpose()?.unwrap_or_default();
        let x = u32::try_from(x.0).map_err(|_| to_py(invalid(format!("X = {} is out of range", x.0))))?;
        let (symbols, payable) = self.game.cost_of(obj(card.0)?, &kicks, x).py_err()?;
        let text: String = symbols.iter().map(|s| s.to_string()).collect();
        Ok((if text.is_empty() { "{0}".into() } else { text }, payable))
    }
    fn power_toughness(&self, id: Int) -> PyResult<(i64, i64)> {
        self.game.power_toughness(obj(id.0)?).py_err()
    }
    fn gained_keywords(&self, id: Int) -> PyResult<Vec<String>> {
        let id = obj(id.0)?;
        self.game.object(id).py_err()?;
        Ok(self.game.gained_keywords(id))
    }
    fn stickers(&self, id: Int) -> PyResult<Vec<String>> {
        let id = obj(id.0)?;
        self.game.object(id).py_err()?;
        Ok(self.game.stickers_on(id))
    }

    // --- decisions ---

    #[getter]
    fn pending(&self) -> Option<PyDecision> {
        self.game.pending().cloned().map(PyDecision)
    }
    fn answer(slf: &Bound<'_, Self>, answer: &Bound<'_, PyAny>) -> PyResult<Option<Vec<u64>>> {
        let answer = answer_from_py(answer, slf.borrow().game.num_players())?;
        Self::act(slf, |g| g.answer(answer))
    }
    /// The replay of a game made with `from_decks`: its decks, seed and setup and every
    /// decision's answer in order, as a JSON-ready dict (`"format": "mtgsim-replay/1"`).
    fn replay<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let r = self.game.replay().py_err()?;
        json_to_py(py, &serde_json::to_value(r).expect("plain data"))
    }
    /// Plays a replay back (a dict from `replay()`, or its JSON text): the same game, standing
    /// where the recorded one stood, every player answering manually from there.
    #[staticmethod]
    #[pyo3(signature = (replay, db = None))]
    fn from_replay(replay: &Bound<'_, PyAny>, db: Option<PyRef<'_, PyCardDb>>) -> PyResult<PyGame> {
        let value = match replay.extract::<String>() {
            Ok(text) => serde_json::from_str(&text).map_err(|e| to_py(invalid(format!("a replay must be JSON: {e}"))))?,
            Err(_) => py_to_json(replay)?,
        };
        let r: crate::replay::Replay = serde_path_to_error::deserialize(value).map_err(|e| to_py(invalid(format!("not a replay: at {}: {}", e.path(), e.inner()))))?;
        let db = db.map(|d| d.0.clone()).unwrap_or_else(builtin_db);
        let mut g = PyGame::wrap(Game::from_replay(&r, &db).py_err()?);
        g.db = db;
        Ok(g)
    }
    /// `player`'s view of the game: what that player can see and nothing else.
    fn observation<'py>(&self, py: Python<'py>, player: Int) -> PyResult<Bound<'py, PyAny>> {
        let p = self::player(player.0, &self.game)? as u8;
        json_to_py(py, &self.game.observation(p))
    }
    /// `player`'s view as little-endian float32 and int32 bytes (use `mtgsim.observe`).
    fn _observation_arrays<'py>(&self, py: Python<'py>, player: Int, slots: u32) -> PyResult<(Bound<'py, pyo3::types::PyBytes>, Bound<'py, pyo3::types::PyBytes>)> {
        let p = self::player(player.0, &self.game)? as u8;
        if slots > 1_000_000 {
            return Err(to_py(invalid(format!("{slots} object slots is out of range (at most 1000000)"))));
        }
        let (global, rows) = self.game.observation_arrays(p, slots);
        let g: Vec<u8> = global.iter().flat_map(|x| x.to_le_bytes()).collect();
        let r: Vec<u8> = rows.iter().flat_map(|x| x.to_le_bytes()).collect();
        Ok((pyo3::types::PyBytes::new(py, &g), pyo3::types::PyBytes::new(py, &r)))
    }
    /// The steps the deciding player may take now (see `take`).
    fn legal_actions(&self) -> PyResult<Vec<PyAction>> {
        let g = &self.game;
        Ok(g.legal_actions().py_err()?.into_iter().map(|action| PyAction { text: g.describe(&action), action }).collect())
    }
    /// Takes one step at the pending decision: an `Action` from `legal_actions`, or its code
    /// in `space`. A complete answer is given as with `answer`; an illegal action raises and
    /// changes nothing.
    #[pyo3(signature = (action, space = None))]
    fn take(slf: &Bound<'_, Self>, action: &Bound<'_, PyAny>, space: Option<PyRef<'_, PyActionSpace>>) -> PyResult<Option<Vec<u64>>> {
        let action = if let Ok(a) = action.cast::<PyAction>() {
            a.get().action
        } else if let Ok(code) = action.extract::<i64>() {
            let space = space.ok_or_else(|| PyTypeError::new_err("an action code needs its action space: take(code, space)"))?;
            let code = u32::try_from(code).map_err(|_| to_py(invalid(format!("action code {code} is out of range (the space has {} codes)", space.0.size()))))?;
            space.0.decode(code, &slf.borrow().game).py_err()?
        } else {
            return Err(PyTypeError::new_err("take() needs an Action (from legal_actions) or an action code with its space"));
        };
        Self::act(slf, |g| g.take(action))
    }
    /// The selection made so far at the pending decision.
    #[getter]
    fn selection(&self) -> Vec<PyAction> {
        let g = &self.game;
        g.selection().iter().map(|&action| PyAction { text: g.describe(&action), action }).collect()
    }
    /// An action space for this game: its objects now plus `extra` slots for tokens and
    /// abilities to come.
    #[pyo3(signature = (extra = Int(64)), text_signature = "($self, extra=64)")]
    fn action_space(&self, extra: Int) -> PyResult<PyActionSpace> {
        let extra = in_range(extra, "the number of extra slots", 0, 1_000_000)? as u32;
        Ok(PyActionSpace(crate::legal::ActionSpace::for_game(&self.game, extra)))
    }
    /// Which codes of `space` are legal now, as a list of booleans.
    fn action_mask(&self, space: PyRef<'_, PyActionSpace>) -> PyResult<Vec<bool>> {
        self.game.action_mask(&space.0).py_err()
    }
    /// The number of distinct sequences of legal actions `depth` steps deep (perft).
    fn perft(&self, py: Python<'_>, depth: Int) -> PyResult<u64> {
        let depth = in_range(depth, "perft depth", 0, 12)? as u32;
        let g = self.game.clone();
        py.detach(|| g.perft(depth)).py_err()
    }
    fn set_policy(&mut self, player: Int, policy: &Bound<'_, PyAny>) -> PyResult<()> {
        let player: i64 = player.0;
        let p = self::player(player, &self.game)?;
        let (builtin, callback) = policy_from_py(policy)?;
        self.game.set_policy(p, builtin).py_err()?;
        self.callbacks[p] = callback;
        Ok(())
    }
    fn policy(&self, player: Int) -> PyResult<&'static str> {
        let player: i64 = player.0;
        let p = self::player(player, &self.game)?;
        Ok(if self.callbacks[p].is_some() { "callback" } else { self.game.policy(p).py_err()?.name() })
    }
    fn script(&mut self, player: Int, answers: Vec<Bound<'_, PyAny>>) -> PyResult<()> {
        let player: i64 = player.0;
        let p = self::player(player, &self.game)?;
        let answers = answers.iter().map(|a| answer_from_py(a, self.game.num_players())).collect::<PyResult<Vec<_>>>()?;
        self.game.script(p, answers).py_err()
    }
    fn script_len(&self, player: Int) -> PyResult<usize> {
        let player: i64 = player.0;
        self.game.script_len(self::player(player, &self.game)?).py_err()
    }
    fn clear_script(&mut self, player: Int) -> PyResult<()> {
        let player: i64 = player.0;
        let p = self::player(player, &self.game)?;
        self.game.clear_script(p).py_err()
    }
    #[getter]
    fn get_strict(&self) -> bool {
        self.game.strict()
    }
    #[setter]
    fn set_strict(&mut self, on: bool) {
        self.game.set_strict(on)
    }

    // --- events and results ---

    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &serde_json::to_value(self.game.events()).expect("plain data"))
    }
    #[getter]
    fn get_recording(&self) -> bool {
        self.game.recording()
    }
    #[setter]
    fn set_recording(&mut self, on: bool) {
        self.game.set_recording(on)
    }
    fn clear_events(&mut self) {
        self.game.clear_events()
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.game.is_over()
    }
    /// Whether a simulation condition ("library_empty:1", "turn:5", ...) holds now.
    fn holds(&self, condition: &str) -> PyResult<bool> {
        Ok(crate::sim::Condition::parse(condition, self.game.num_players()).py_err()?.holds(&self.game))
    }
    #[getter]
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = match self.game.outcome() {
            None => serde_json::Value::Null,
            Some(o) => serde_json::json!({
                "winners": o.winners,
                "losers": o.losers.iter().map(|(p, r)| serde_json::json!({"player": p, "reason": r.name()})).collect::<Vec<_>>(),
            }),
        };
        json_to_py(py, &v)
    }

    // --- copies and snapshots ---

    fn clone(&self, py: Python<'_>) -> PyGame {
        PyGame { game: self.game.clone(), db: self.db.clone(), callbacks: self.callbacks.iter().map(|c| c.as_ref().map(|c| c.clone_ref(py))).collect() }
    }
    fn __copy__(&self, py: Python<'_>) -> PyGame {
        self.clone(py)
    }
    fn __deepcopy__(&self, py: Python<'_>, memo: &Bound<'_, PyAny>) -> PyGame {
        let _ = memo; // nothing inside refers back to other Python objects
        self.clone(py)
    }
    /// Pickles the whole state; Python callbacks are not pickled (those players stay manual).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let load = slf.get_type().getattr("_load")?;
        Ok((load, (slf.borrow().game.save_json(),)))
    }
    #[staticmethod]
    fn _load(state: &str) -> PyResult<PyGame> {
        Ok(PyGame::wrap(Game::load_json(state).py_err()?))
    }
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.game.view())
    }
    fn to_json(&self) -> String {
        self.game.view().to_string()
    }
    fn check_invariants(&self) -> PyResult<()> {
        self.game.check_invariants().py_err()
    }

    // --- bulk ---

    #[pyo3(signature = (ops, repetitions, *, restore = true))]
    fn run_batch(&self, py: Python<'_>, ops: Vec<PyRef<'_, PyOp>>, repetitions: Int, restore: bool) -> PyResult<PyBatchResult> {
        let repetitions: i64 = repetitions.0;
        if repetitions < 0 {
            return Err(to_py(invalid(format!("repetitions must not be negative (got {repetitions})"))));
        }
        let ops: Vec<Op> = ops.iter().map(|o| o.0.clone()).collect();
        let game = &self.game;
        let result = py.detach(|| game.run_batch(&ops, repetitions as u64, restore)).py_err()?;
        Ok(PyBatchResult(result))
    }

    fn __repr__(&self) -> String {
        let g = &self.game;
        let mut s = format!("<Game {} players, turn {}, active {}", g.num_players(), g.turn(), g.active_player());
        for p in 0..g.num_players() {
            let st = g.player(p).expect("in range");
            s += &format!(" | P{p}: life {}, library {}, hand {}, graveyard {}", st.life, st.library.len(), st.hand.len(), st.graveyard.len());
        }
        if let Some(d) = g.pending() {
            s += &format!(" | pending: {d}");
        }
        if let Some(o) = g.outcome() {
            s += &format!(" | over, winners {:?}", o.winners);
        }
        s + ">"
    }
}

#[pyfunction]
fn card(name: &str) -> PyResult<PyCardDef> {
    Ok(PyCardDef(CardDb::builtin().get(name).py_err()?.clone()))
}

#[pyfunction]
fn card_names() -> Vec<String> {
    CardDb::builtin().iter().filter(|d| !d.token).map(|d| d.name.to_string()).collect()
}

/// Plays games `start..end` of a simulation (see `mtgsim.simulate`) with the interpreter
/// released; returns the number of players and each column as (little-endian bytes, numpy
/// dtype).
type Columns<'py> = (usize, Vec<(&'static str, Bound<'py, pyo3::types::PyBytes>, &'static str)>);

fn parse_conditions(texts: &[String], players: usize) -> PyResult<Vec<crate::sim::Condition>> {
    texts.iter().map(|t| crate::sim::Condition::parse(t, players)).collect::<Result<Vec<_>, _>>().py_err()
}

#[pyfunction(name = "_simulate")]
#[pyo3(
    signature = (decks, seed, policies, max_turns, start, end, workers, starting_life = Int(20), hand_size = Int(7), db = None, stop = Vec::new(), record = Vec::new()),
    text_signature = "(decks, seed, policies, max_turns, start, end, workers, starting_life=20, hand_size=7, db=None, stop=[], record=[])"
)]
#[allow(clippy::too_many_arguments)]
fn py_simulate<'py>(
    py: Python<'py>,
    decks: Vec<Bound<'py, PyAny>>,
    seed: &Bound<'py, PyAny>,
    policies: Vec<String>,
    max_turns: u32,
    start: u64,
    end: u64,
    workers: usize,
    starting_life: Int,
    hand_size: Int,
    db: Option<PyRef<'py, PyCardDb>>,
    stop: Vec<String>,
    record: Vec<String>,
) -> PyResult<Columns<'py>> {
    let decks = decks.iter().map(deck_names).collect::<PyResult<Vec<_>>>()?;
    let policies = policies.iter().map(|p| Policy::parse(p)).collect::<Result<Vec<_>, _>>().py_err()?;
    let hand_size = check_count(hand_size.0, "hand size").py_err()?;
    if !(1..=crate::game::MAX_COUNT).contains(&starting_life.0) {
        return Err(to_py(invalid(format!("starting life must be from 1 to {}, not {}", crate::game::MAX_COUNT, starting_life.0))));
    }
    let (stop, record) = (parse_conditions(&stop, decks.len())?, parse_conditions(&record, decks.len())?);
    let sim = crate::sim::Simulation { decks, seed: self::seed(seed)?, policies, max_turns, setup: Setup { starting_life: starting_life.0 as i32, hand_size }, stop, record };
    let db = db.map(|d| d.0.clone()).unwrap_or_else(builtin_db);
    let r = py.detach(|| sim.run(&db, start, end, workers)).py_err()?;
    Ok(columns(py, &r))
}

#[pyfunction(name = "_simulate_from")]
#[pyo3(
    signature = (game, seed, policies, max_turns, start, end, workers, shuffle_libraries, stop = Vec::new(), record = Vec::new()),
    text_signature = "(game, seed, policies, max_turns, start, end, workers, shuffle_libraries, stop=[], record=[])"
)]
#[allow(clippy::too_many_arguments)]
fn py_simulate_from<'py>(
    py: Python<'py>,
    game: PyRef<'py, PyGame>,
    seed: &Bound<'py, PyAny>,
    policies: Vec<String>,
    max_turns: u32,
    start: u64,
    end: u64,
    workers: usize,
    shuffle_libraries: bool,
    stop: Vec<String>,
    record: Vec<String>,
) -> PyResult<Columns<'py>> {
    let policies = policies.iter().map(|p| Policy::parse(p)).collect::<Result<Vec<_>, _>>().py_err()?;
    let n = game.game.num_players();
    let (stop, record) = (parse_conditions(&stop, n)?, parse_conditions(&record, n)?);
    let sim = crate::sim::Simulation { decks: Vec::new(), seed: self::seed(seed)?, policies, max_turns, setup: Setup::default(), stop, record };
    let position = game.game.clone();
    drop(game);
    let r = py.detach(|| sim.run_from(&position, shuffle_libraries, start, end, workers)).py_err()?;
    Ok(columns(py, &r))
}

/// Result columns as (name, little-endian bytes, numpy dtype).
fn columns<'py>(py: Python<'py>, r: &crate::sim::Results) -> Columns<'py> {
    fn le<T: Copy, const N: usize>(v: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
        v.iter().flat_map(|&x| f(x)).collect()
    }
    let cols: Vec<(&'static str, Vec<u8>, &'static str)> = vec![
        ("winner", le(&r.winner, i8::to_le_bytes), "<i1"),
        ("finished", le(&r.finished, |b| [b as u8]), "|b1"),
        ("turns", le(&r.turns, u32::to_le_bytes), "<u4"),
        ("loss", le(&r.loss, u8::to_le_bytes), "<u1"),
        ("life", le(&r.life, i32::to_le_bytes), "<i4"),
        ("library", le(&r.library, u32::to_le_bytes), "<u4"),
        ("graveyard", le(&r.graveyard, u32::to_le_bytes), "<u4"),
        ("milled", le(&r.milled, u32::to_le_bytes), "<u4"),
        ("spells", le(&r.spells, u32::to_le_bytes), "<u4"),
        ("kicks", le(&r.kicks, u32::to_le_bytes), "<u4"),
        ("cycles", le(&r.cycles, u32::to_le_bytes), "<u4"),
        ("lands", le(&r.lands, u32::to_le_bytes), "<u4"),
        ("stopped", le(&r.stopped, i8::to_le_bytes), "<i1"),
        ("recorded", le(&r.recorded, u32::to_le_bytes), "<u4"),
    ];
    (r.players, cols.into_iter().map(|(n, b, t)| (n, pyo3::types::PyBytes::new(py, &b), t)).collect())
}

/// Seconds per repetition of typecycling done on plain vectors (the GUIDE §8 floor).
#[pyfunction(name = "_floor_typecycling")]
fn py_floor_typecycling(py: Python<'_>, repetitions: u32) -> f64 {
    py.detach(|| crate::batch::floor_typecycling(repetitions))
}

#[pyfunction(name = "derive_seed")]
fn py_derive_seed(seed: &Bound<'_, PyAny>, index: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(derive_seed(self::seed(seed)?, self::seed(index)?))
}

#[pymodule]
mod _core {
    #[pymodule_export]
    use super::{
        card, card_names, py_derive_seed, py_floor_typecycling, py_simulate, py_simulate_from, PyAction, PyActionSpace, PyBatchResult, PyCardDb, PyCardDef, PyDecision, PyGame,
        PyGameBatch, PyGameObject, PyOp, PyRng,
    };

    #[pymodule_init]
    fn init(m: &pyo3::Bound<'_, pyo3::types::PyModule>) -> pyo3::PyResult<()> {
        use pyo3::types::PyModuleMethods;
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        m.add("MAX_TURNS", crate::sim::MAX_TURNS)?;
        m.add("LOOP_ACTIONS", crate::turn::LOOP_ACTIONS)?;
        // Set by .ci/build-pgo; benchmark figures depend on it, so the bench table prints it.
        m.add("BUILD", option_env!("MTGSIM_BUILD").unwrap_or("plain"))
    }
}
