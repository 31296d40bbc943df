//! Zones (CR 400): which exist, which are public, which are ordered, and whose they are.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{invalid, Result};

/// The zones of CR 400.1, plus outside the game (CR 400.11).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZoneKind {
    Library,
    Hand,
    Graveyard,
    Battlefield,
    Stack,
    Exile,
    Command,
    Outside,
}

impl ZoneKind {
    pub const ALL: [ZoneKind; 8] =
        [ZoneKind::Library, ZoneKind::Hand, ZoneKind::Graveyard, ZoneKind::Battlefield, ZoneKind::Stack, ZoneKind::Exile, ZoneKind::Command, ZoneKind::Outside];

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
    pub kind: ZoneKind,
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
    Top,
    Bottom,
}

impl Position {
    pub fn parse(s: &str) -> Result<Position> {
        match s {
            "top" => Ok(Position::Top),
            "bottom" => Ok(Position::Bottom),
            _ => Err(invalid(format!("position must be \"top\" or \"bottom\", not {s:?}"))),
        }
    }
}
