//! # mtgsim
//!
//! A fast, rules-exact Magic: The Gathering engine. The whole game is one plain struct,
//! [`Game`]; actions are methods that follow the Comprehensive Rules (the doc comment of each
//! cites its rule), record typed [`Event`]s, and either finish or stop at a [`Decision`] for a
//! player to answer. A rejected action returns an [`Error`] and changes nothing (CR 733).
//!
//! ```
//! use mtgsim::{CardDb, Game, Policy, Position, Progress, ZoneKind};
//!
//! let db = CardDb::builtin();
//! let mut game = Game::new(2, 42).unwrap();
//! let names = vec!["Island"; 20];
//! game.add_cards(1, ZoneKind::Library, &names, Position::Top, db).unwrap();
//!
//! // Fractured Sanity's effect: each opponent mills fourteen cards.
//! let Progress::Done(milled) = game.mill_opponents(0, 14).unwrap() else { unreachable!() };
//! assert_eq!(milled.len(), 14);
//! assert_eq!(game.zone_len(1, ZoneKind::Library).unwrap(), 6);
//!
//! // Scry 2 stops for player 1's decision when nobody inside the engine answers it.
//! game.set_policy(1, Policy::Manual).unwrap();
//! assert_eq!(game.scry(1, 2).unwrap(), Progress::Paused);
//! assert_eq!(game.pending().unwrap().player, 1);
//! ```
//!
//! Conventions: libraries and graveyards are listed top card first. Object ids change when an
//! object changes zones (CR 400.7). Randomness comes only from the game's own seeded generator
//! ([`Rng`]), so a seed replays the same game everywhere.
//!
//! Conjure and "duplicate" (Alchemy terms, not in the Comprehensive Rules) mean, in this
//! engine: conjure creates a new real card (not a token, not a copy) from outside the game in
//! the named zone, owned by the player who conjures it; a duplicate of a spell is a new card
//! with the printed characteristics of that spell's card, and none of the spell's choices
//! (kicked status, X, targets) carry over; a spell that is a copy with no card is duplicated by
//! name.

#![warn(missing_docs)] // every public item is documented; CI's clippy run makes this an error

/// The allocator of builds with the `mimalloc` feature (the Python extension's among them).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: allocator::MiMalloc = allocator::MiMalloc;

pub mod ability;
pub mod actions;
#[cfg(feature = "mimalloc")]
pub mod allocator;
pub mod batch;
pub mod card;
pub mod casting;
pub mod characteristics;
pub mod continuous;
pub mod cost;
pub mod counters;
pub mod damage;
pub mod decision;
pub mod effect;
pub mod error;
pub mod event;
pub mod filter;
pub mod game;
pub mod keywords;
pub mod legal;
mod legend;
pub mod mana;
pub mod object;
pub mod observe;
pub mod payment;
pub mod play;
pub mod policy;
mod process;
pub mod replacement;
pub mod replay;
pub mod rng;
pub mod rules;
pub mod sim;
pub mod snapshot;
pub mod stack;
pub mod target;
#[cfg(test)]
mod test_support;
pub mod trigger;
pub mod turn;
pub mod zone;

#[cfg(feature = "python")]
mod python;

pub use actions::discard::DiscardMode;
pub use actions::movement::Entering;
pub use actions::search::{Destination, SearchSpec};
pub use batch::{BatchResult, Op};
pub use card::{CardDb, CardDef, CardRecord, CardType, Supertype};
pub use casting::CastOptions;
pub use decision::{Answer, Choice, Decision, Purpose};
pub use error::{Error, Result};
pub use event::{Event, LossReason};
pub use filter::CardFilter;
pub use game::{Game, Outcome, PlayerState, Progress, Setup};
pub use mana::{Color, ManaCost, ManaSymbol};
pub use object::{CastInfo, ObjId, Object, ObjectKind};
pub use play::{PlayState, PriorityAction, Until};
pub use policy::Policy;
pub use rng::Rng;
pub use rules::CardRules;
pub use target::TargetRef;
pub use turn::Step;
pub use zone::{Position, Zone, ZoneKind};
