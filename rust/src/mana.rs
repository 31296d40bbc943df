//! Mana symbols and mana costs (CR 107.4, 202): parsing, printing, mana value and color.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// One of the five colors (CR 105.1), in WUBRG order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Color {
    /// White, `{W}`.
    White,
    /// Blue, `{U}`.
    Blue,
    /// Black, `{B}`.
    Black,
    /// Red, `{R}`.
    Red,
    /// Green, `{G}`.
    Green,
}

impl Color {
    /// The five colors in WUBRG order.
    pub const ALL: [Color; 5] = [Color::White, Color::Blue, Color::Black, Color::Red, Color::Green];

    /// The letter of the color's mana symbol: W, U, B, R or G (CR 107.4a).
    pub fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Blue => 'U',
            Color::Black => 'B',
            Color::Red => 'R',
            Color::Green => 'G',
        }
    }

    /// The color whose mana-symbol letter is `c` (uppercase "W", "U", "B", "R" or "G"), if any.
    pub fn from_letter(c: &str) -> Option<Color> {
        Some(match c {
            "W" => Color::White,
            "U" => Color::Blue,
            "B" => Color::Black,
            "R" => Color::Red,
            "G" => Color::Green,
            _ => return None,
        })
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// A set of colors as bits.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ColorSet(u8);

impl ColorSet {
    /// Adds `c` to the set (no change if it is already there).
    pub fn insert(&mut self, c: Color) {
        self.0 |= c.bit();
    }
    /// Whether `c` is in the set.
    pub fn contains(self, c: Color) -> bool {
        self.0 & c.bit() != 0
    }
    /// Whether the set has no color: colorless (CR 105.2c).
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The colors in the set, in WUBRG order.
    pub fn iter(self) -> impl Iterator<Item = Color> {
        Color::ALL.into_iter().filter(move |c| self.contains(*c))
    }
}

/// One mana symbol of a cost (CR 107.4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ManaSymbol {
    /// `{N}`: N generic mana.
    Generic(u32),
    /// `{W}` … `{G}`.
    Colored(Color),
    /// `{C}`: one colorless mana.
    Colorless,
    /// `{X}` (CR 107.3): 0 everywhere but on the stack.
    X,
    /// `{W/U}`: either color.
    Hybrid(Color, Color),
    /// `{2/W}`: two generic or one of the color (CR 107.4e).
    TwoHybrid(Color),
    /// `{W/P}`: the color or 2 life (CR 107.4f).
    Phyrexian(Color),
    /// `{W/U/P}`: either color or 2 life.
    HybridPhyrexian(Color, Color),
}

impl ManaSymbol {
    /// This symbol's contribution to mana value (CR 202.3e–g; X is 0 off the stack).
    pub fn mana_value(self) -> u32 {
        match self {
            ManaSymbol::Generic(n) => n,
            ManaSymbol::TwoHybrid(_) => 2,
            ManaSymbol::X => 0,
            _ => 1,
        }
    }

    /// The least mana that pays it: X is 0 here and a Phyrexian symbol can be paid with life.
    pub fn least_mana(self) -> u32 {
        match self {
            ManaSymbol::Generic(n) => n,
            ManaSymbol::X | ManaSymbol::Phyrexian(_) | ManaSymbol::HybridPhyrexian(..) => 0,
            _ => 1,
        }
    }

    fn colors(self, set: &mut ColorSet) {
        match self {
            ManaSymbol::Colored(c) | ManaSymbol::TwoHybrid(c) | ManaSymbol::Phyrexian(c) => set.insert(c),
            ManaSymbol::Hybrid(a, b) | ManaSymbol::HybridPhyrexian(a, b) => {
                set.insert(a);
                set.insert(b)
            }
            _ => {}
        }
    }

    fn parse(body: &str, whole: &str) -> Result<ManaSymbol> {
        let bad = |reason: String| Error::MalformedCost { cost: whole.to_string(), reason };
        // Digits only: Rust's number parser would also take "+1", which is no mana symbol.
        if body.bytes().all(|b| b.is_ascii_digit()) {
            if body.len() > 1 && body.starts_with('0') {
                return Err(bad(format!("{{{body}}} has a leading zero")));
            }
            return match body.parse::<u32>() {
                Ok(n) if i64::from(n) <= crate::game::MAX_COUNT => Ok(ManaSymbol::Generic(n)),
                _ => Err(bad(format!("{{{body}}} is absurdly large (at most {{{}}})", crate::game::MAX_COUNT))),
            };
        }
        let parts: Vec<&str> = body.split('/').collect();
        let color = |s: &str| Color::from_letter(s).ok_or_else(|| bad(format!("{s:?} in {{{body}}} is not a color (W, U, B, R, G)")));
        Ok(match parts.as_slice() {
            ["X"] => ManaSymbol::X,
            ["C"] => ManaSymbol::Colorless,
            // CR 107.4h: payable only with mana from a snow source, which the engine doesn't
            // track; refused rather than paid with any mana.
            ["S"] => return Err(bad("{S} (snow mana, CR 107.4h) isn't supported: the engine doesn't track which mana a snow source made".into())),
            [c] => ManaSymbol::Colored(color(c)?),
            ["2", c] => ManaSymbol::TwoHybrid(color(c)?),
            [c, "P"] => ManaSymbol::Phyrexian(color(c)?),
            [a, b, "P"] => ManaSymbol::HybridPhyrexian(color(a)?, color(b)?),
            [a, b] => {
                let (a, b) = (color(a)?, color(b)?);
                if a == b {
                    return Err(bad(format!("hybrid symbol {{{body}}} names one color twice")));
                }
                ManaSymbol::Hybrid(a, b)
            }
            _ => return Err(bad(format!("{{{body}}} is not a mana symbol"))),
        })
    }
}

impl fmt::Display for ManaSymbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ManaSymbol::Generic(n) => write!(f, "{{{n}}}"),
            ManaSymbol::Colored(c) => write!(f, "{{{}}}", c.letter()),
            ManaSymbol::Colorless => f.write_str("{C}"),
            ManaSymbol::X => f.write_str("{X}"),
            ManaSymbol::Hybrid(a, b) => write!(f, "{{{}/{}}}", a.letter(), b.letter()),
            ManaSymbol::TwoHybrid(c) => write!(f, "{{2/{}}}", c.letter()),
            ManaSymbol::Phyrexian(c) => write!(f, "{{{}/P}}", c.letter()),
            ManaSymbol::HybridPhyrexian(a, b) => write!(f, "{{{}/{}/P}}", a.letter(), b.letter()),
        }
    }
}

/// A mana cost as printed: a sequence of symbols. The empty cost (lands) is distinct from `{0}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ManaCost {
    symbols: Vec<ManaSymbol>,
}

impl ManaCost {
    /// Parses `"{2}{U}{U}"`, `"{X}{1}{U}"`, `"{W/U}"`, `"{2/W}"`, `"{G/P}"`; `""` is no cost.
    pub fn parse(text: &str) -> Result<ManaCost> {
        let mut symbols = Vec::new();
        let mut rest = text.trim();
        while !rest.is_empty() {
            let bad = |reason: &str| Error::MalformedCost { cost: text.to_string(), reason: reason.to_string() };
            if !rest.starts_with('{') {
                return Err(bad("every symbol must be written in braces, like {2}{U}"));
            }
            let close = rest.find('}').ok_or_else(|| bad("a '{' is never closed"))?;
            let body = &rest[1..close];
            if body.is_empty() {
                return Err(bad("empty braces"));
            }
            symbols.push(ManaSymbol::parse(&body.to_ascii_uppercase(), text)?);
            rest = &rest[close + 1..];
        }
        Ok(ManaCost { symbols })
    }

    /// The symbols in printed order.
    pub fn symbols(&self) -> &[ManaSymbol] {
        &self.symbols
    }

    /// Whether there is no mana cost at all (as for lands, CR 202.1b), unlike `{0}`.
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// Mana value (CR 202.3): the total of the symbols, X counting 0.
    pub fn mana_value(&self) -> u32 {
        // Saturating: each {N} is at most a million, but a cost may have thousands of them.
        self.symbols.iter().fold(0u32, |total, s| total.saturating_add(s.mana_value()))
    }

    /// The colors of the mana symbols (CR 202.2).
    pub fn colors(&self) -> ColorSet {
        let mut set = ColorSet::default();
        for s in &self.symbols {
            s.colors(&mut set);
        }
        set
    }
}

impl fmt::Display for ManaCost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.symbols {
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

impl TryFrom<String> for ManaCost {
    type Error = Error;
    fn try_from(s: String) -> Result<ManaCost> {
        ManaCost::parse(&s)
    }
}

impl From<ManaCost> for String {
    fn from(c: ManaCost) -> String {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mana_value_cr_202_3() {
        let mv = |s: &str| ManaCost::parse(s).unwrap().mana_value();
        assert_eq!(mv("{3}{B}"), 4);
        assert_eq!(mv("{U}{U}{U}"), 3);
        assert_eq!(mv("{X}{1}{U}"), 2); // CR 202.3e: X is 0
        assert_eq!(mv("{2/W}{2/W}"), 4); // CR 202.3f: the largest component
        assert_eq!(mv("{W/U}{G/P}"), 2);
        assert_eq!(mv(""), 0);
        assert_eq!(mv("{0}"), 0);
    }

    #[test]
    fn snow_mana_is_refused_not_paid_with_any_mana() {
        // CR 107.4h: {S} needs mana from a snow source, which isn't tracked.
        let err = ManaCost::parse("{S}{U}").unwrap_err().to_string();
        assert!(err.contains("snow mana, CR 107.4h"), "{err}");
    }

    #[test]
    fn round_trip_and_colors() {
        for s in ["{3}{B}", "{X}{X}{R}", "{W/U}{2/G}{B/P}{C}", "{G/U/P}"] {
            assert_eq!(ManaCost::parse(s).unwrap().to_string(), s);
        }
        let c = ManaCost::parse("{1}{W/U}").unwrap().colors();
        assert!(c.contains(Color::White) && c.contains(Color::Blue) && !c.contains(Color::Red));
        assert!(ManaCost::parse("{7}").unwrap().colors().is_empty());
    }

    #[test]
    fn malformed_costs_are_errors() {
        for s in ["{", "2U", "{}", "{Q}", "{U/U}", "{01}", "{2/2}", "{U}}", "{99999999999}"] {
            assert!(matches!(ManaCost::parse(s), Err(Error::MalformedCost { .. })), "{s}");
        }
    }
}
