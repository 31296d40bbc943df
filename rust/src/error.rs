//! The crate's one error type. Every variant says what was wrong; the Python layer maps each to
//! an exception class (see `python.rs`). An action that returns an error has changed nothing
//! (CR 733: an illegal action is reversed, so the game is as it was before it began).

use thiserror::Error;

/// Why an action, a decision answer or a definition was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Error {
    #[error("unknown card name {name:?}{hint}")]
    UnknownCard { name: String, hint: String },
    #[error("player {player} does not exist (players are numbered 0 to {max})")]
    NoSuchPlayer { player: i64, max: usize },
    #[error("player {0} has left the game")]
    PlayerLeft(usize),
    #[error("no object with id {0} exists now (a card that changes zones becomes a new object with a new id, CR 400.7)")]
    NoSuchObject(u64),
    #[error("object {id} ({name}) is in {actual}, not in {expected}")]
    WrongZone { id: u64, name: String, actual: String, expected: String },
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    #[error("illegal action: {0}")]
    IllegalAction(String),
    #[error("cost can't be paid: {0}")]
    CannotPay(String),
    #[error("invalid answer to {decision}: {reason}")]
    InvalidAnswer { decision: String, reason: String },
    #[error("decision not answered by a script in strict mode: {0}")]
    Unscripted(String),
    #[error("a decision is pending ({0}); answer it before taking another action")]
    DecisionPending(String),
    #[error("no decision is pending")]
    NoDecisionPending,
    #[error("the game is over")]
    GameOver,
    #[error("malformed mana cost {cost:?}: {reason}")]
    MalformedCost { cost: String, reason: String },
    #[error("invalid card definition {card:?}: field {field:?}: {reason}")]
    InvalidCard { card: String, field: String, reason: String },
    #[error("invalid saved game: {0}")]
    Snapshot(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

pub(crate) fn invalid(msg: impl Into<String>) -> Error {
    Error::InvalidArgument(msg.into())
}

pub(crate) fn illegal(msg: impl Into<String>) -> Error {
    Error::IllegalAction(msg.into())
}
