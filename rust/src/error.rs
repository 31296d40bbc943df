//! The crate's one error type. Every variant says what was wrong; the Python layer maps each to
//! an exception class (see `python.rs`). An action that returns an error has changed nothing
//! (CR 733: an illegal action is reversed, so the game is as it was before it began).

use thiserror::Error;

/// Why an action, a decision answer or a definition was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    /// No card definition has this name.
    #[error("unknown card name {name:?}{hint}")]
    UnknownCard {
        /// The name asked for, as given.
        name: String,
        /// "; did you mean ...?" when a known name differs only in case or accents; else empty.
        hint: String,
    },
    /// A player index out of range.
    #[error("player {player} does not exist (players are numbered 0 to {max})")]
    NoSuchPlayer {
        /// The index given (signed: Python callers can pass a negative one).
        player: i64,
        /// The highest valid index: the game's last player, or `MAX_PLAYERS - 1` where no game is at hand yet.
        max: usize,
    },
    /// The player has lost, and so left the game (CR 800.4a): they can no longer act or be acted on.
    #[error("player {0} has left the game")]
    PlayerLeft(usize),
    /// No object has this id now: it changed zones and got a new id (CR 400.7), ceased to
    /// exist (a token, copy or ability that left its zone, CR 704.5d–e), or never existed.
    #[error("no object with id {0} exists now (a card that changes zones becomes a new object with a new id, CR 400.7)")]
    NoSuchObject(i128),
    /// The object exists but isn't in the zone the action needs it in.
    #[error("object {id} ({name}) is in {actual}, not in {expected}")]
    WrongZone {
        /// The object's id.
        id: u64,
        /// Its card's name.
        name: String,
        /// The zone it is in, as text ("player 0's hand").
        actual: String,
        /// The kind of zone the action needs ("battlefield").
        expected: String,
    },
    /// An argument is malformed or out of range (a count, a counter kind, a mana letter, a seed).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// The rules don't allow this action now: no priority, the wrong time, no legal target, and
    /// so on. Like every error, it leaves the game as it was (CR 733.1).
    #[error("illegal action: {0}")]
    IllegalAction(String),
    /// A cost can't be paid in full (CR 118.3): not enough mana, life, counters, or cards or
    /// permanents of the kind it asks for.
    #[error("cost can't be paid: {0}")]
    CannotPay(String),
    /// An answer that doesn't fit the pending decision or its legal options.
    #[error("invalid answer to {decision}: {reason}")]
    InvalidAnswer {
        /// The decision's prompt (its `Display` form).
        decision: String,
        /// What is wrong with the answer.
        reason: String,
    },
    /// In strict mode, a decision came up with no scripted answer left for its player (no
    /// policy answers instead); holds the decision's prompt.
    #[error("decision not answered by a script in strict mode: {0}")]
    Unscripted(String),
    /// An action was tried while a decision waits for its answer; holds the decision's prompt.
    #[error("a decision is pending ({0}); answer it before taking another action")]
    DecisionPending(String),
    /// An answer, or a question about the pending decision, when no decision is waiting.
    #[error("no decision is pending")]
    NoDecisionPending,
    /// The game has ended (CR 104.1): no more actions can be taken.
    #[error("the game is over")]
    GameOver,
    /// Mana cost text that doesn't parse as mana symbols (CR 107.4, 202.1).
    #[error("malformed mana cost {cost:?}: {reason}")]
    MalformedCost {
        /// The cost text as given, e.g. "{2}{U}".
        cost: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A card definition, or a card file, that can't be read or breaks a rule of the format.
    #[error("invalid card definition {card:?}: field {field:?}: {reason}")]
    InvalidCard {
        /// The card's name; `"<unnamed>"` for a record without one, `"<file>"` for the file itself.
        card: String,
        /// The path of the offending field (`"rules.spell[0]"`); `"<record>"` or `"<document>"` for the whole.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A saved game (or a pickled engine object) that can't be loaded or fails the
    /// consistency checks; holds the reason.
    #[error("invalid saved game: {0}")]
    Snapshot(String),
}

/// The crate's result type: the error is an [`Error`](enum@Error) unless another is given.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The same error, its message saying where it happened first (`"game 3"`, a batch
    /// repetition): the kind, and so the Python exception class, is kept.
    pub(crate) fn at(self, place: impl std::fmt::Display) -> Error {
        let at = |m: String| format!("{place}: {m}");
        match self {
            Error::InvalidArgument(m) => Error::InvalidArgument(at(m)),
            Error::IllegalAction(m) => Error::IllegalAction(at(m)),
            Error::CannotPay(m) => Error::CannotPay(at(m)),
            Error::Unscripted(m) => Error::Unscripted(at(m)),
            Error::DecisionPending(m) => Error::DecisionPending(at(m)),
            Error::InvalidAnswer { decision, reason } => Error::InvalidAnswer { decision, reason: at(reason) },
            other => other,
        }
    }
}

pub(crate) fn invalid(msg: impl Into<String>) -> Error {
    Error::InvalidArgument(msg.into())
}

pub(crate) fn illegal(msg: impl Into<String>) -> Error {
    Error::IllegalAction(msg.into())
}
