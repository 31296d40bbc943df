//! Zones (CR 400): which exist, which are public, which are ordered, and whose they are.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{invalid, Result};

/// The zones of CR 400.1, plus outside the game (CR 400.11).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZoneKind {
    /// A player's library (CR 401): their draw pile, hidden and ordered.
    Library,
    /// A player's hand (CR 402): hidden from the other players.
    Hand,
    /// A player's graveyard (CR 404): their discard pile, public and ordered.
    Graveyard,
    /// The battlefield (CR 403), shared by all players: where permanents are.
    Battlefield,
    /// The stack (CR 405), shared: spells and abilities waiting to resolve.
    Stack,
    /// Exile (CR 406), shared and public.
    Exile,
    /// The command zone (CR 408), shared: emblems and similar objects.
    Command,
    /// Outside the game (CR 400.11): not a zone under the rules; e.g. a sideboard, kept per owner.
    Outside,
}

impl ZoneKind {
    /// Every kind, in declaration order.
    pub const ALL: [ZoneKind; 8] =
        [ZoneKind::Library, ZoneKind::Hand, ZoneKind::Graveyard, ZoneKind::Battlefield, ZoneKind::Stack, ZoneKind::Exile, ZoneKind::Command, ZoneKind::Outside];

    /// The lowercase name the Python API and messages use ("library", "hand", ...); also its serde form.
    pub fn name(self) -> &'static str {
        match self {
            ZoneKind::Library => "library",
            ZoneKind::Hand => "hand",
            ZoneKind::Graveyard => "graveyard",
            ZoneKind::Battlefield => "battlefield",
            ZoneKind::Stack => "stack",
            ZoneKind::Exile => "exile",
            ZoneKind::Command => "command",
            ZoneKind::Outside => "outside",
        }
    }

    /// The kind named `s` (as given by [`ZoneKind::name`]); an invalid-argument error for any other string.
    pub fn parse(s: &str) -> Result<ZoneKind> {
        ZoneKind::ALL
            .into_iter()
            .find(|z| z.name() == s)
            .ok_or_else(|| invalid(format!("unknown zone {s:?} (zones: library, hand, graveyard, battlefield, stack, exile, command, outside)")))
    }

    /// Each player has their own library, hand and graveyard (CR 400.2); the others are shared.
    /// Cards outside the game are kept per owner.
    pub fn is_per_player(self) -> bool {
        matches!(self, ZoneKind::Library | ZoneKind::Hand | ZoneKind::Graveyard | ZoneKind::Outside)
    }

    /// Library and hand are hidden (CR 400.2); outside the game is not a zone anyone sees.
    pub fn is_public(self) -> bool {
        !matches!(self, ZoneKind::Library | ZoneKind::Hand | ZoneKind::Outside)
    }
}

/// A specific zone: the kind, and for per-player zones the player it belongs to.
/// For shared zones `player` is the owner of the object in it, kept for convenience.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Zone {
    /// Which of the zones this is.
    pub kind: ZoneKind,
    /// Index of the player whose zone it is (per-player zones) or of the object's owner (shared zones).
    pub player: u8,
}

impl fmt::Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind.is_per_player() {
            write!(f, "player {}'s {}", self.player, self.kind.name())
        } else {
            f.write_str(self.kind.name())
        }
    }
}

/// Where in an ordered zone a card is put. Libraries and graveyards are ordered; for the other
/// zones the position only decides the listing order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    /// On top of a library or graveyard (a library's top card is drawn next); in another zone,
    /// after the objects already there.
    Top,
    /// At the bottom of a library or graveyard; in another zone, before the objects already there.
    Bottom,
}

impl Position {
    /// `"top"` or `"bottom"`; an invalid-argument error for anything else.
    pub fn parse(s: &str) -> Result<Position> {
        match s {
            "top" => Ok(Position::Top),
            "bottom" => Ok(Position::Bottom),
            _ => Err(invalid(format!("position must be \"top\" or \"bottom\", not {s:?}"))),
        }
    }
}
