//! What friends say to each other besides their moves: the names they go by, and the fixed quick
//! phrases. Neither changes the game or its version; a name is text the pages show as text, and a
//! phrase travels as an id only, so no free text ever passes from one player to another but a name.

use super::{Notice, TableCore};
use crate::protocol::Phrase;
use crate::table::seats::TableKind;
use crate::table::{ConnId, RefusalCode};
use chaikhana_rules::cards::Seat;
use chaikhana_rules::game::Game;

/// The longest name, in characters, once cleaned.
pub const NAME_CHARS: usize = 20;

/// The refusal of phrases at a computer table.
const FRIENDS_ONLY: (RefusalCode, &str) = (
    RefusalCode::PhrasesFriendsOnly,
    "Quick phrases are for tables of friends; this table plays the computer.",
);

/// A name as it may be shown: control characters, the marks that reorder text (bidi overrides,
/// embeddings, isolates) and the invisible joiners and spaces taken out, runs of spaces made one,
/// trimmed; `None` when nothing is left, or nothing that shows by itself (only accents, say).
/// Refused, with a sentence, when longer than [`NAME_CHARS`] characters.
pub fn clean_name(raw: &str) -> Result<Option<String>, String> {
    let kept: String = raw
        .chars()
        .filter(|c| !c.is_control() && !reorders(*c) && !invisible(*c))
        .collect();
    let name = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.chars().count() > NAME_CHARS {
        return Err(format!("A name is at most {NAME_CHARS} characters."));
    }
    Ok(name.chars().any(shows).then_some(name))
}

/// The invisible marks that change the direction of the text around them.
fn reorders(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Characters of no width: zero-width space, word joiner, the byte-order mark. (The zero-width
/// non-joiner and joiner stay: Persian writes with the first, emoji join with the second.)
fn invisible(c: char) -> bool {
    matches!(c, '\u{200B}' | '\u{2060}' | '\u{FEFF}')
}

/// A character that shows by itself: a letter or digit, or a visible sign, not an accent or a joiner
/// that only changes the character before it.
fn shows(c: char) -> bool {
    let combining = matches!(c, '\u{0300}'..='\u{036F}' | '\u{0483}'..='\u{0489}' | '\u{0591}'..='\u{05C7}'
        | '\u{0610}'..='\u{061A}' | '\u{064B}'..='\u{065F}' | '\u{0670}' | '\u{06D6}'..='\u{06ED}'
        | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}' | '\u{200C}' | '\u{200D}'
        | '\u{20D0}'..='\u{20FF}' | '\u{FE00}'..='\u{FE0F}' | '\u{FE20}'..='\u{FE2F}');
    !combining && !c.is_whitespace()
}

impl<G: Game> TableCore<G> {
    /// A seat gives the name it goes by (or none): everyone is told.
    pub(super) fn rename(&mut self, conn: ConnId, seat: Seat, raw: &str) {
        match clean_name(raw) {
            Ok(name) => {
                if self.notes.rename(seat, name) {
                    self.broadcast_seats();
                }
            }
            Err(message) => self.send_refusal(conn, RefusalCode::BadName, message, None),
        }
    }

    /// A seat says one of the quick phrases: every socket at the table hears which.
    pub(super) fn say(&mut self, conn: ConnId, seat: Seat, id: Phrase) {
        if self.kind == TableKind::Computer {
            let (code, message) = FRIENDS_ONLY;
            self.send_refusal(conn, code, message, None);
            return;
        }
        self.send_everyone(Notice::Phrase { seat, id });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_loses_controls_and_direction_marks_and_is_trimmed() {
        assert_eq!(clean_name("  Ali \t  Reza \n"), Ok(Some("Ali Reza".into())));
        assert_eq!(
            clean_name("\u{202E}evil\u{202C}\u{0007}"),
            Ok(Some("evil".into()))
        );
        assert_eq!(clean_name("مریم\u{200F}"), Ok(Some("مریم".into())));
        assert_eq!(clean_name(" \u{2066} "), Ok(None));
        // Nothing that shows by itself: zero-width spaces, accents alone.
        assert_eq!(clean_name("\u{200B}\u{200B}\u{FEFF}"), Ok(None));
        assert_eq!(clean_name(&"\u{0301}".repeat(20)), Ok(None));
        assert_eq!(clean_name("\u{200D}\u{200C}"), Ok(None));
        // Persian's zero-width non-joiner stays inside a name; an accented letter is a letter.
        assert_eq!(
            clean_name("نیک\u{200C}نام"),
            Ok(Some("نیک\u{200C}نام".into()))
        );
        assert_eq!(clean_name("Jose\u{0301}"), Ok(Some("Jose\u{0301}".into())));
        // Markup is kept as text: the pages never read it as HTML.
        assert_eq!(clean_name("<b>x</b>"), Ok(Some("<b>x</b>".into())));
    }

    #[test]
    fn a_name_is_at_most_twenty_characters_counted_as_characters() {
        assert_eq!(clean_name(&"م".repeat(20)), Ok(Some("م".repeat(20))));
        assert!(clean_name(&"a".repeat(21)).is_err());
    }
}
