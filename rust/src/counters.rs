//! Counters on players and objects (CR 122). Counters with the same name are interchangeable.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::error::{invalid, Result};

/// A small ordered multiset of counters by name ("+1/+1", "charge", "poison", "ticket" …).
/// A handful of kinds at most, so a vector beats a map and keeps a stable order.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Counters {
    kinds: Vec<(Cow<'static, str>, u32)>,
    /// Which kinds are on the list: bit i for `KNOWN[i]`, `OTHER` for any other. The
    /// state-based check asks before every priority whether a permanent has only +1/+1
    /// counters; this answers without comparing names.
    present: u16,
}

/// Counter names common enough to keep without allocating.
const KNOWN: [&str; 8] = ["+1/+1", "-1/-1", "charge", "loyalty", "ticket", "poison", "energy", "experience"];

/// A kind of counter the state-based actions ask about (its index in `KNOWN`).
#[derive(Clone, Copy)]
pub(crate) enum Known {
    PlusOne = 0,
    MinusOne = 1,
}

/// The `present` bit of kinds not in `KNOWN`.
const OTHER: u16 = 1 << KNOWN.len();

/// The `present` bit of `kind`.
fn bit(kind: &str) -> u16 {
    KNOWN.iter().position(|k| *k == kind).map_or(OTHER, |i| 1 << i)
}

/// `kind` as kept (a known name borrowed, without allocating), with its `present` bit.
fn named(kind: &str) -> (Cow<'static, str>, u16) {
    match KNOWN.iter().position(|k| *k == kind) {
        Some(i) => (Cow::Borrowed(KNOWN[i]), 1 << i),
        None => (Cow::Owned(kind.to_string()), OTHER),
    }
}

impl Clone for Counters {
    fn clone(&self) -> Self {
        Counters { kinds: self.kinds.clone(), present: self.present }
    }

    fn clone_from(&mut self, src: &Self) {
        self.kinds.clone_from(&src.kinds);
        self.present = src.present;
    }
}

// Serialized as the list alone, as before the summary.
impl Serialize for Counters {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.kinds.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Counters {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let kinds = Vec::<(Cow<'static, str>, u32)>::deserialize(d)?;
        let present = kinds.iter().fold(0, |bits, (k, _)| bits | bit(k));
        Ok(Counters { kinds, present })
    }
}

impl Counters {
    /// How many `kind` counters there are (0 if none).
    pub fn get(&self, kind: &str) -> u32 {
        self.kinds.iter().find(|(k, _)| &**k == kind).map_or(0, |(_, n)| *n)
    }

    /// Whether every counter here is a `kind` counter (true if there are none).
    pub(crate) fn only(&self, kind: Known) -> bool {
        self.present & !(1 << kind as u16) == 0
    }

    /// Whether any `kind` counter is here.
    pub(crate) fn has(&self, kind: Known) -> bool {
        self.present & (1 << kind as u16) != 0
    }

    /// Puts `n` more `kind` counters (the count stops at `u32::MAX`); adding 0 does nothing.
    pub fn add(&mut self, kind: &str, n: u32) {
        if n == 0 {
            return;
        }
        match self.kinds.iter_mut().find(|(k, _)| &**k == kind) {
            Some((_, have)) => *have = have.saturating_add(n),
            None => {
                let (name, bit) = named(kind);
                self.kinds.push((name, n));
                self.present |= bit;
            }
        }
    }

    /// Removes exactly `n` counters, or nothing if there are fewer.
    pub fn remove(&mut self, kind: &str, n: u32) -> Result<()> {
        let have = self.get(kind);
        if have < n {
            return Err(crate::error::Error::CannotPay(format!("only {have} {kind} counter(s), not {n}")));
        }
        if let Some(i) = self.kinds.iter().position(|(k, _)| &**k == kind) {
            self.kinds[i].1 -= n;
            if self.kinds[i].1 == 0 {
                self.kinds.remove(i);
                // Another kind outside `KNOWN` may still be on the list.
                self.present = self.kinds.iter().fold(0, |bits, (k, _)| bits | bit(k));
            }
        }
        Ok(())
    }

    /// Drops every counter (they cease to exist rather than being removed, as on a zone change,
    /// CR 122.2).
    pub fn clear(&mut self) {
        self.kinds.clear();
        self.present = 0;
    }

    /// Whether there are no counters at all.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// Each kind present with its count, in the order the kinds were put on.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u32)> {
        self.kinds.iter().map(|(k, n)| (&**k, *n))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    // The summary answers as the list would, through any additions and removals, and after a
    // round trip through the serialized form.
    #[test]
    fn the_summary_follows_the_list() {
        let kinds = ["+1/+1", "-1/-1", "loyalty", "charge", "slime", "oil"];
        let mut rng = Rng::new(5);
        let mut c = Counters::default();
        for step in 0..5000 {
            let kind = kinds[rng.below(kinds.len() as u64) as usize];
            match rng.below(8) {
                0 => c.clear(),
                1..=4 => c.add(kind, rng.below(3) as u32),
                _ => {
                    let have = c.get(kind);
                    let _ = c.remove(kind, rng.below(have as u64 + 2) as u32);
                }
            }
            let back: Counters = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
            for c in [&c, &back] {
                assert_eq!(c.only(Known::PlusOne), c.iter().all(|(k, _)| k == "+1/+1"), "step {step}: {c:?}");
                assert_eq!(c.has(Known::MinusOne), c.get("-1/-1") > 0, "step {step}: {c:?}");
            }
            assert_eq!(back, c);
        }
    }
}
