//! Counters on players and objects (CR 122). Counters with the same name are interchangeable.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::error::{invalid, Result};

/// A small ordered multiset of counters by name ("+1/+1", "charge", "poison", "ticket" …).
/// A handful of kinds at most, so a vector beats a map and keeps a stable order.
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Counters(Vec<(Cow<'static, str>, u32)>);

/// Counter names common enough to keep without allocating.
const KNOWN: [&str; 8] = ["+1/+1", "-1/-1", "charge", "loyalty", "ticket", "poison", "energy", "experience"];

fn name(kind: &str) -> Cow<'static, str> {
    match KNOWN.iter().find(|k| **k == kind) {
        Some(k) => Cow::Borrowed(k),
        None => Cow::Owned(kind.to_string()),
    }
}

impl Clone for Counters {
    fn clone(&self) -> Self {
        Counters(self.0.clone())
    }

    fn clone_from(&mut self, src: &Self) {
        self.0.clone_from(&src.0);
    }
}

impl Counters {
    /// How many `kind` counters there are (0 if none).
    pub fn get(&self, kind: &str) -> u32 {
        self.0.iter().find(|(k, _)| &**k == kind).map_or(0, |(_, n)| *n)
    }

    /// Puts `n` more `kind` counters (the count stops at `u32::MAX`); adding 0 does nothing.
    pub fn add(&mut self, kind: &str, n: u32) {
        if n == 0 {
            return;
        }
        match self.0.iter_mut().find(|(k, _)| &**k == kind) {
            Some((_, have)) => *have = have.saturating_add(n),
            None => self.0.push((name(kind), n)),
        }
    }

    /// Removes exactly `n` counters, or nothing if there are fewer.
    pub fn remove(&mut self, kind: &str, n: u32) -> Result<()> {
        let have = self.get(kind);
        if have < n {
            return Err(crate::error::Error::CannotPay(format!("only {have} {kind} counter(s), not {n}")));
        }
        if let Some(i) = self.0.iter().position(|(k, _)| &**k == kind) {
            self.0[i].1 -= n;
            if self.0[i].1 == 0 {
                self.0.remove(i);
            }
        }
        Ok(())
    }

    /// Drops every counter (they cease to exist rather than being removed, as on a zone change,
    /// CR 122.2).
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Whether there are no counters at all.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each kind present with its count, in the order the kinds were put on.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u32)> {
        self.0.iter().map(|(k, n)| (&**k, *n))
    }
}

/// Counter names are short words or P/T modifiers; anything else is a caller's mistake.
pub fn validate_kind(kind: &str) -> Result<()> {
    let ok = !kind.is_empty() && kind.len() <= 40 && kind.chars().all(|c| c.is_ascii_alphanumeric() || "+-/ '".contains(c));
    if ok {
        Ok(())
    } else {
        Err(invalid(format!("{kind:?} is not a counter name (use a word like \"charge\" or \"+1/+1\")")))
    }
}
