//! Keyword abilities recognised from Oracle text (CR 702), so that any real card with them
//! works from its text alone: kicker, "kicker A and/or B", multikicker, sticker kicker, flash,
//! flashback, cycling and typecycling, "enters tapped", and plain "{T}: Add ..." mana
//! abilities. Evergreen keywords the engine doesn't model yet (flying, ...) are recorded as
//! unsupported.

use crate::actions::search::Destination;
use crate::mana::ManaCost;
use crate::rules::{AbilityCost, ActivatedAbility, Amount, CardRules, Effect, Kicker, ManaAbility, Who};
use crate::zone::ZoneKind;

/// Strips reminder text: everything in parentheses (CR 207.2).
fn without_reminder(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut depth = 0u32;
    for c in line.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.trim().to_string()
}

/// Keyword abilities that are read and recorded but whose rules (combat, mostly) the engine
/// doesn't model yet (CR 702): they are reported as unsupported, never silently dropped.
const RECORDED_KEYWORDS: [&str; 24] = [
    "flying",
    "first strike",
    "double strike",
    "deathtouch",
    "defender",
    "haste",
    "hexproof",
    "indestructible",
    "lifelink",
    "menace",
    "reach",
    "trample",
    "vigilance",
    "swampwalk",
    "islandwalk",
    "forestwalk",
    "mountainwalk",
    "plainswalk",
    "shroud",
    "fear",
    "intimidate",
    "partner",
    "flanking",
    "horsemanship",
];

/// A line made only of keywords the engine records without modelling ("Flying", "Flying,
/// first strike").
fn recorded_keyword_line(lower: &str) -> bool {
    !lower.is_empty() && lower.split(',').all(|k| RECORDED_KEYWORDS.contains(&k.trim()))
}

/// Reads keyword lines into `rules`, leaving fields the record set explicitly alone. Returns
/// the lines (reminder text removed) that are not keyword abilities the engine implements:
/// recorded-but-unmodelled keywords ("Flying") and everything else.
pub fn import_keywords(oracle_text: &str, rules: &mut CardRules) -> Vec<String> {
    let mut other = Vec::new();
    let explicit_kicker = !rules.kicker.is_empty();
    let explicit_cycling = rules.activated.iter().any(|a| a.cycling);
    let explicit_mana = !rules.mana.is_empty();
    for raw in oracle_text.lines() {
        let line = without_reminder(raw);
        let lower = line.to_ascii_lowercase();
        if lower == "this land enters tapped." || lower.ends_with(" enters the battlefield tapped.") || lower.ends_with(" enters tapped.") {
            rules.enters_tapped = true;
        } else if line.eq_ignore_ascii_case("flash") {
            rules.flash = true;
        } else if let Some(cost) = strip_prefix_ci(&line, "flashback ").and_then(|c| ManaCost::parse(c.trim()).ok()) {
            if rules.flashback.is_none() {
                rules.flashback = Some(cost);
            }
        } else if let Some(a) = parse_cycling_line(&line) {
            if !explicit_cycling {
                rules.activated.push(a);
            }
        } else if let Some(m) = parse_mana_line(&line) {
            if !explicit_mana {
                rules.mana.push(m);
            }
        } else if let Some(k) = parse_kicker_line(&line) {
            if !explicit_kicker {
                rules.kicker.extend(k);
            }
        } else if !line.is_empty() {
            other.push(line);
        }
    }
    other
}

/// Of the lines `import_keywords` didn't implement, those the engine can't model: for a record
/// with no `rules` object, all of them; with one, only the recorded-but-unmodelled keywords
/// (the rest is what the rules data models).
pub fn unsupported_lines(other: &[String], has_rules: bool) -> Vec<String> {
    other.iter().filter(|l| !has_rules || recorded_keyword_line(&l.to_ascii_lowercase())).cloned().collect()
}

/// "Cycling {1}{U}", "Cycling—Pay 2 life." (CR 702.29a), "\[Type\]cycling {N}" and "Basic
/// landcycling {N}" (702.29e: discard it, search for a card of that type, reveal it, put it
/// into your hand, then shuffle).
pub fn parse_cycling_line(line: &str) -> Option<ActivatedAbility> {
    let (head, rest) = match line.find(['{', '—', '-']) {
        Some(i) => (line[..i].trim(), line[i..].trim()),
        None => return None,
    };
    let lower = head.to_ascii_lowercase();
    let kind = lower.strip_suffix("cycling")?.trim();
    let mut cost = AbilityCost { discard_self: true, ..AbilityCost::default() };
    if let Some(life) = rest.strip_prefix('—').or_else(|| rest.strip_prefix('-')) {
        let n: u32 = life.trim().strip_prefix("Pay ")?.split_whitespace().next()?.parse().ok()?;
        cost.pay_life = n;
    } else {
        cost.mana = Some(ManaCost::parse(rest.trim_end_matches('.')).ok()?);
    }
    let effects = if kind.is_empty() {
        vec![Effect::Draw { who: Who::You, count: Amount::Fixed(1) }]
    } else {
        // "Islandcycling": an Island card; "Wizardcycling": a Wizard; "basic landcycling".
        let filter = if kind == "basic land" {
            "basic land".to_string()
        } else {
            let mut t = kind.to_string();
            t[..1].make_ascii_uppercase();
            t
        };
        let filter = crate::filter::Filter::new(&filter).ok()?;
        vec![Effect::Search { who: Who::You, filter, count: 1, to: Destination::Hand, reveal: true, shuffle: true, optional: false }]
    };
    Some(ActivatedAbility { cost, effects, zone: ZoneKind::Hand, cycling: true, targets: Vec::new(), sorcery_speed: false })
}

/// A plain mana ability (CR 605): "{T}: Add {C}.", "{T}: Add {B} or {G}.", "{T}: Add {R},
/// {G}, or {W}." — one mana of one of the listed types. Anything more ("for each ...") is not
/// read here.
pub fn parse_mana_line(line: &str) -> Option<ManaAbility> {
    let rest = strip_prefix_ci(line.trim(), "{T}: Add ")?.trim_end_matches('.');
    let mut produce = Vec::new();
    for part in rest.split([',', ' ']).map(str::trim).filter(|p| !p.is_empty() && *p != "or") {
        let letter = part.strip_prefix('{')?.strip_suffix('}')?;
        if !["W", "U", "B", "R", "G", "C"].contains(&letter) || produce.iter().any(|p: &String| p == letter) {
            return None;
        }
        produce.push(letter.to_string());
    }
    (!produce.is_empty()).then_some(ManaAbility { produce, amount: Amount::Fixed(1), sacrifice: false })
}

/// "Kicker {U}", "Kicker {1}{G} and/or {W}" (CR 702.33b), "Multikicker {2}" (702.33c),
/// "Sticker kicker {1}" (702.33h). `None` for anything else, including non-mana kicker costs.
pub fn parse_kicker_line(line: &str) -> Option<Vec<Kicker>> {
    let (multi, sticker, rest) = if let Some(r) = strip_prefix_ci(line, "multikicker ") {
        (true, false, r)
    } else if let Some(r) = strip_prefix_ci(line, "sticker kicker ") {
        (false, true, r)
    } else if let Some(r) = strip_prefix_ci(line, "kicker ") {
        (false, false, r)
    } else {
        return None;
    };
    let parts: Vec<&str> = if multi || sticker { vec![rest] } else { rest.split(" and/or ").collect() };
    let mut out = Vec::with_capacity(parts.len());
    for p in parts {
        let p = p.trim();
        if !p.starts_with('{') {
            return None;
        }
        let cost = ManaCost::parse(p).ok()?;
        out.push(Kicker { cost, multi, sticker });
    }
    Some(out)
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    match (s.get(..prefix.len()), s.get(prefix.len()..)) {
        (Some(head), Some(rest)) if head.eq_ignore_ascii_case(prefix) => Some(rest),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kicker_lines_cr_702_33() {
        let k = parse_kicker_line("Kicker {1}{G} and/or {W}").unwrap();
        assert_eq!(k.len(), 2);
        assert_eq!(k[0].cost.to_string(), "{1}{G}");
        assert_eq!(k[1].cost.to_string(), "{W}");
        let m = parse_kicker_line("Multikicker {2}").unwrap();
        assert!(m[0].multi && !m[0].sticker);
        let s = parse_kicker_line("Sticker kicker {1}").unwrap();
        assert!(s[0].sticker && !s[0].multi);
        assert!(parse_kicker_line("Kicker—Sacrifice a creature.").is_none());
        assert!(parse_kicker_line("Cycling {2}").is_none());
    }

    #[test]
    fn cycling_lines_cr_702_29() {
        let c = parse_cycling_line("Cycling {1}{U}").unwrap();
        assert_eq!(c.cost.mana.unwrap().to_string(), "{1}{U}");
        assert!(c.cycling && c.cost.discard_self && c.zone == ZoneKind::Hand);
        let life = parse_cycling_line("Cycling—Pay 2 life.").unwrap();
        assert_eq!((life.cost.pay_life, life.cost.mana), (2, None));
        assert_eq!(parse_cycling_line("Cycling-Pay 2 life.").unwrap().cost.pay_life, 2);
        let island = parse_cycling_line("Islandcycling {1}").unwrap();
        assert!(matches!(&island.effects[0], Effect::Search { filter, .. } if filter.text() == "Island"));
        let basic = parse_cycling_line("Basic landcycling {2}").unwrap();
        assert!(matches!(&basic.effects[0], Effect::Search { filter, .. } if filter.text() == "basic land"));
        assert!(parse_cycling_line("Kicker {U}").is_none());
        assert!(parse_cycling_line("Players can't cycle cards.").is_none());
    }

    #[test]
    fn mana_lines_cr_605() {
        assert_eq!(parse_mana_line("{T}: Add {C}.").unwrap().produce, ["C"]);
        assert_eq!(parse_mana_line("{T}: Add {B} or {G}.").unwrap().produce, ["B", "G"]);
        assert_eq!(parse_mana_line("{T}: Add {R}, {G}, or {W}.").unwrap().produce, ["R", "G", "W"]);
        assert!(parse_mana_line("{T}: Add {C} for each charge counter on this artifact.").is_none());
        assert!(parse_mana_line("{T}: Add {B}{B}.").is_none());
        assert!(parse_mana_line("{4}: Scry 1.").is_none());
    }

    #[test]
    fn reminder_text_is_ignored() {
        let mut r = CardRules::default();
        import_keywords("Kicker {U} (You may pay an additional {U} as you cast this spell.)\nFlash", &mut r);
        assert_eq!(r.kicker.len(), 1);
        assert!(r.flash);
    }
}
