//! Moving an object from one zone to another (CR 400.7: it becomes a new object).

use crate::error::{illegal, Result};
use crate::event::Event;
use crate::game::Game;
use crate::object::{ObjId, ObjectKind};
use crate::zone::{Position, Zone, ZoneKind};

/// How a card enters the battlefield.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Entering {
    /// It enters tapped; only allowed when moving to the battlefield.
    pub tapped: bool,
    /// Who controls it; its owner if `None`.
    pub controller: Option<usize>,
}

impl Game {
    /// Moves an object to a zone (its owner's, for library, hand, graveyard and outside the
    /// game), at the top or bottom. Putting a land onto the battlefield this way is not playing
    /// it. Returns the new object's id.
    pub fn move_object(&mut self, id: ObjId, to: ZoneKind, pos: Position, entering: Entering) -> Result<ObjId> {
        self.ensure_idle()?;
        let slot = self.slot_of(id)?;
        if to == ZoneKind::Stack {
            return Err(illegal("objects get onto the stack by being cast, not moved"));
        }
        let controller = match entering.controller {
            Some(c) if to == ZoneKind::Battlefield => Some(self.check_live_player(c)?),
            Some(_) => return Err(illegal("only a permanent entering the battlefield gets a controller")),
            None => None,
        };
        if entering.tapped && to != ZoneKind::Battlefield {
            return Err(illegal("only a permanent entering the battlefield can enter tapped"));
        }
        // Triggers it sets off may still ask, and fail (a bad scripted answer): the move is
        // undone with them.
        self.undoable(|g| {
            let from = g.objects[slot as usize].zone;
            if from.kind == to {
                // Not a zone change (CR 400.7 needs one): only a library card can be repositioned.
                if to != ZoneKind::Library {
                    return Err(illegal(format!("object {} is already in {from}", id.0)));
                }
                let lib = &mut g.players[from.player as usize].library;
                lib.retain(|&s| s != slot);
                match pos {
                    Position::Top => lib.push(slot),
                    Position::Bottom => lib.insert(0, slot),
                }
                return Ok(id);
            }
            if from.kind == ZoneKind::Stack {
                g.take_stack_item(slot); // the spell leaves the stack with everything it was cast with
                if g.objects[slot as usize].kind != crate::object::ObjectKind::Card {
                    // A copy or an ability off the stack ceases to exist (CR 704.5e, 707.10a); the
                    // id returned finds nothing.
                    g.cease(slot);
                    g.check_state_based_actions();
                    return Ok(g.id_of(slot));
                }
            }
            let card = g.move_slot(slot, to, pos);
            if let Some(c) = controller {
                g.set_controller(slot, c);
            }
            if entering.tapped {
                g.tap_slot(slot, true);
            }
            let o = &g.objects[slot as usize];
            let to_zone = crate::zone::Zone { kind: to, player: if to.is_per_player() { o.owner } else { o.zone.player } };
            if to == ZoneKind::Battlefield {
                g.entered_battlefield(slot);
            }
            // Where it went, even for a token that then ceased to exist (CR 111.7).
            g.log.push_with(|| Event::Moved { from_id: id, card, from, to: to_zone });
            g.check_state_based_actions();
            g.settle()?;
            Ok(card)
        })
    }

    /// A new card from outside the game, owned by `owner`, put into `zone` (conjure: a real
    /// card, not a token or a copy). Returns it.
    pub(crate) fn conjure(&mut self, def: u32, owner: u8, zone: ZoneKind) -> ObjId {
        let z = Zone { kind: zone, player: owner };
        let slot = self.new_object(def, owner, z, ObjectKind::Card, false);
        self.push_to_zone(z, slot);
        let card = ObjId::new(slot, 0);
        self.log.push_with(|| Event::Conjured { player: owner, card });
        card
    }

    /// Creates a token (CR 111.2) from a definition, under `controller`'s control, on the
    /// battlefield. Returns it.
    pub(crate) fn create_token(&mut self, def: u32, controller: u8, tapped: bool) -> ObjId {
        let zone = Zone { kind: ZoneKind::Battlefield, player: controller };
        let slot = self.new_object(def, controller, zone, ObjectKind::Token, tapped);
        self.push_to_zone(zone, slot);
        let token = ObjId::new(slot, 0);
        self.log.push_with(|| Event::TokenCreated { player: controller, token });
        self.entered_battlefield(slot);
        token
    }
}
