//! Card descriptions used by searches ("a basic land card", "an Island card", "an instant or
//! sorcery card", "a Wizard card", "a card"). A description with no stated quality is "a card"
//! (CR 701.23d: must be found); any stated quality may go unfound (CR 701.23b).

use std::fmt;
use std::hash::Hasher;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::card::{CardDef, CardType, Supertype, SupertypeSet, TypeSet};
use crate::error::{invalid, Result};
use crate::mana::{Color, ColorSet};

fn color_word(w: &str) -> Option<Color> {
    Some(match w.to_ascii_lowercase().as_str() {
        "white" => Color::White,
        "blue" => Color::Blue,
        "black" => Color::Black,
        "red" => Color::Red,
        "green" => Color::Green,
        _ => return None,
    })
}

/// One conjunction of qualities.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quality {
    /// Card types the card must all have (CR 205.2a), from "land", "creature", ...
    pub types: TypeSet,
    /// Card types it must not have, from "nonland", "noncreature", ...
    pub not_types: TypeSet,
    /// Supertypes it must all have (CR 205.4a), from "basic", "legendary", ...
    pub supertypes: SupertypeSet,
    /// Subtypes it must all have (CR 205.3), as written: "Island", "Wizard".
    pub subtypes: Vec<Box<str>>,
    /// The exact name it must have (CR 201.1), from `name=Exact Name`.
    pub name: Option<Box<str>>,
    /// Colors the card must have (CR 105.2), from "white", "blue", ...
    #[serde(default)]
    pub colors: ColorSet,
    /// "with cycling": has a cycling ability, typecycling included (CR 702.29).
    #[serde(default)]
    pub cycling: bool,
}

impl Quality {
    fn is_empty(&self) -> bool {
        self.types.is_empty()
            && self.not_types.is_empty()
            && self.supertypes.is_empty()
            && self.subtypes.is_empty()
            && self.name.is_none()
            && self.colors.is_empty()
            && !self.cycling
    }

    fn matches(&self, c: &CardDef) -> bool {
        c.types.contains_all(self.types)
            && !c.types.intersects(self.not_types)
            && c.supertypes.contains_all(self.supertypes)
            && self.subtypes.iter().all(|s| c.has_subtype(s))
            && self.name.as_deref().is_none_or(|n| *c.name == *n)
            && self.colors.iter().all(|col| c.colors.contains(col))
            && (!self.cycling || c.rules.activated.iter().any(|a| a.cycling))
    }
}

/// A card description as card data holds it: written as text, parsed once when the card is
/// read (so a bad description is an error naming the card), and matched without parsing or
/// looking anything up on the hot paths.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Filter(Arc<CardFilter>);

impl Filter {
    /// Parses a description (see [`CardFilter::parse`]); an unreadable one is an error.
    pub fn new(text: &str) -> Result<Filter> {
        CardFilter::parse(text).map(|f| Filter(Arc::new(f)))
    }

    /// The description as written (trimmed).
    pub fn text(&self) -> &str {
        &self.0.text
    }

    /// The parsed description, shared rather than copied.
    pub fn shared(&self) -> Arc<CardFilter> {
        self.0.clone()
    }
}

impl std::ops::Deref for Filter {
    type Target = CardFilter;
    fn deref(&self) -> &CardFilter {
        &self.0
    }
}

impl TryFrom<String> for Filter {
    type Error = String;
    fn try_from(text: String) -> std::result::Result<Filter, String> {
        Filter::new(&text).map_err(|e| match e {
            crate::error::Error::InvalidArgument(why) => why,
            other => other.to_string(),
        })
    }
}

impl From<Filter> for String {
    fn from(f: Filter) -> String {
        f.0.text.clone()
    }
}

impl fmt::Debug for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0.text)
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.text)
    }
}

impl std::hash::Hash for Filter {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.0.text.hash(h)
    }
}

/// A description: any one of the alternatives ("instant or sorcery").
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardFilter {
    /// The alternatives, one of which a card must match; empty for "a card" (any card).
    pub any_of: Vec<Quality>,
    text: String,
}

impl CardFilter {
    /// Parses a description. Words are card types ("land"), "non" + card type ("nonland"),
    /// supertypes ("basic"), subtypes ("Island", "Wizard"), colors, or "with cycling";
    /// " or " separates alternatives; "card(s)", "token(s)", "permanent(s)" are noise;
    /// `name=Exact Name` matches one name.
    pub fn parse(text: &str) -> Result<CardFilter> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(invalid("empty card description (use \"card\" for any card)"));
        }
        let mut any_of = Vec::new();
        if let Some(name) = trimmed.strip_prefix("name=") {
            let name = name.trim();
            if name.is_empty() {
                return Err(invalid("name= needs a card name"));
            }
            any_of.push(Quality { name: Some(name.into()), ..Quality::default() });
        } else {
            for alt in trimmed.split(" or ") {
                let mut q = Quality::default();
                for word in alt.split_whitespace() {
                    let w = word.trim_end_matches(',');
                    if ["card", "cards", "a", "an", "spell", "spells", "token", "tokens", "with", "permanent", "permanents"].iter().any(|n| w.eq_ignore_ascii_case(n)) {
                        continue;
                    }
                    if w.eq_ignore_ascii_case("cycling") {
                        q.cycling = true;
                        continue;
                    }
                    if let Some(col) = color_word(w) {
                        q.colors.insert(col);
                        continue;
                    }
                    if let Some(t) = CardType::from_word(w) {
                        q.types.insert(t);
                    } else if let Some(t) = w.strip_prefix("non").and_then(|r| CardType::from_word(r.trim_start_matches('-'))) {
                        q.not_types.insert(t);
                    } else if let Some(s) = Supertype::from_word(w) {
                        q.supertypes.insert(s);
                    } else if w.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && w.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'') {
                        q.subtypes.push(w.into());
                    } else {
                        return Err(invalid(format!("{w:?} in card description {text:?} is not a card type, supertype or capitalised subtype")));
                    }
                }
                any_of.push(q);
            }
        }
        if any_of.iter().any(Quality::is_empty) {
            any_of.clear(); // "a card": no stated quality
        }
        Ok(CardFilter { any_of, text: trimmed.to_string() })
    }

    /// Any card at all.
    pub fn any() -> CardFilter {
        CardFilter { any_of: Vec::new(), text: "card".into() }
    }

    /// The description as a noun phrase ending in "card": "creature card", "card".
    pub fn card_phrase(&self) -> String {
        let t = self.text.trim_end_matches(" cards").trim_end_matches(" card");
        if t == "card" || t == "cards" {
            "card".into()
        } else if let Some(name) = t.strip_prefix("name=") {
            format!("card named {name}")
        } else {
            format!("{t} card")
        }
    }

    /// True for "a card" with no stated quality.
    pub fn is_any(&self) -> bool {
        self.any_of.is_empty()
    }

    /// Whether a card with the printed characteristics `c` fits the description.
    pub fn matches(&self, c: &CardDef) -> bool {
        self.is_any() || self.any_of.iter().any(|q| q.matches(c))
    }
}

impl fmt::Display for CardFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::CardDb;

    fn m(filter: &str, card: &str) -> bool {
        CardFilter::parse(filter).unwrap().matches(CardDb::builtin().get(card).unwrap())
    }

    #[test]
    fn descriptions() {
        assert!(m("basic land", "Island"));
        assert!(!m("basic land", "Ash Barrens"));
        assert!(m("Island", "Island") && !m("Island", "Swamp"));
        assert!(m("instant or sorcery", "Lightning Bolt") && m("instant or sorcery card", "Demonic Tutor"));
        assert!(!m("instant or sorcery", "Grizzly Bears"));
        assert!(m("Wizard", "Vedalken AEthermage"));
        assert!(m("creature", "Monstrous War-Leech"));
        assert!(m("nonland", "Counterspell") && !m("nonland", "Forest"));
        assert!(m("name=Counterspell", "Counterspell"));
        assert!(CardFilter::parse("card").unwrap().is_any());
        assert!(CardFilter::parse("lands?").is_err());
        assert!(CardFilter::parse("  ").is_err());
    }

    #[test]
    fn card_phrases_read_as_english() {
        let phrase = |f: &str| CardFilter::parse(f).unwrap().card_phrase();
        assert_eq!(phrase("card"), "card");
        assert_eq!(phrase("creature card"), "creature card");
        assert_eq!(phrase("land"), "land card");
        assert_eq!(phrase("name=Island"), "card named Island");
    }
}
