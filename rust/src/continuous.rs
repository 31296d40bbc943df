//! Continuous effects from resolving spells and abilities (CR 611.2): "\[this\] gets +P/+T and
//! gains \[keyword\] until end of turn". They apply to the object they were created for and end
//! in the cleanup step (CR 514.2), or when that object leaves (it is a new object, CR 400.7).
//! Their place in the layers is in `characteristics.rs`.

use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::object::ObjId;

/// One "until end of turn" effect on one object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UntilEndOfTurn {
    /// The object it applies to; once that object leaves, the id finds nothing (CR 400.7).
    pub object: ObjId,
    /// Layer 7c modifications (CR 613.4c).
    pub power: i32,
    /// The toughness change, applied with `power` in layer 7c.
    pub toughness: i32,
    /// Abilities gained (layer 6), by keyword ("first strike", "can't be blocked").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<String>,
}

impl Game {
    pub(crate) fn add_until_end_of_turn(&mut self, effect: UntilEndOfTurn) {
        self.until_end_of_turn.push(effect);
        self.sba_quiet = false;
    }

    /// CR 514.2: "until end of turn" effects end.
    pub(crate) fn end_until_end_of_turn(&mut self) {
        if !self.until_end_of_turn.is_empty() {
            self.until_end_of_turn.clear();
            self.sba_quiet = false;
        }
    }

    /// Whether the object has gained this keyword until end of turn ("indestructible").
    pub(crate) fn has_gained(&self, id: ObjId, keyword: &str) -> bool {
        !self.until_end_of_turn.is_empty() && self.until_end_of_turn.iter().any(|e| e.object == id && e.keywords.iter().any(|k| k.eq_ignore_ascii_case(keyword)))
    }

    /// The keywords an object has gained until end of turn.
    pub fn gained_keywords(&self, id: ObjId) -> Vec<String> {
        self.until_end_of_turn.iter().filter(|e| e.object == id).flat_map(|e| e.keywords.iter().cloned()).collect()
    }
}
