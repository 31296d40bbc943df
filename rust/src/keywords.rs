//! Keyword abilities recognised from Oracle text (CR 702), so that any real card with them
//! works from its text alone: kicker, "kicker A and/or B", multikicker, sticker kicker, flash,
//! flashback.

use crate::mana::ManaCost;
use crate::rules::{CardRules, Kicker};

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

/// Reads keyword lines into `rules`, leaving fields the record set explicitly alone.
pub fn import_keywords(oracle_text: &str, rules: &mut CardRules) {
    let explicit_kicker = !rules.kicker.is_empty();
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
        } else if !explicit_kicker {
            if let Some(k) = parse_kicker_line(&line) {
                rules.kicker.extend(k);
            }
        }
    }
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
    fn reminder_text_is_ignored() {
        let mut r = CardRules::default();
        import_keywords("Kicker {U} (You may pay an additional {U} as you cast this spell.)\nFlash", &mut r);
        assert_eq!(r.kicker.len(), 1);
        assert!(r.flash);
    }
}
