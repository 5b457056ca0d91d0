//! The lines of the staged deal: what each step says happened, in words, from what the rules core
//! reports (the action, the trick it starts or ends, the marks and the second phase).

use super::Event;
use crate::cards::Seat;
use crate::games::ganjifa::pack::{GCard, GSet};
use crate::games::ganjifa::rules::{Action, Phase, State, Trick, TrickKind, SEATS};

/// A seat in the lines: seat 0 is the one the page shows as "you".
#[derive(Clone, Copy)]
struct Who(Seat);

impl Who {
    fn you(self) -> bool {
        self.0.index() == 0
    }

    /// As the subject of a sentence: "You", "Computer 1".
    fn name(self) -> String {
        if self.you() {
            "You".into()
        } else {
            format!("Computer {}", self.0.index())
        }
    }

    /// Anywhere else in a sentence: "you", "Computer 1".
    fn obj(self) -> String {
        if self.you() {
            "you".into()
        } else {
            self.name()
        }
    }

    /// "your", "Computer 1's".
    fn poss(self) -> String {
        if self.you() {
            "your".into()
        } else {
            format!("{}'s", self.name())
        }
    }

    /// The subject with its verb: "You hold", "Computer 1 holds".
    fn does(self, verb: &str) -> String {
        if !self.you() {
            return format!("{} {verb}", self.name());
        }
        let (first, rest) = verb.split_once(' ').unwrap_or((verb, ""));
        let first = match first {
            "has" => "have",
            "is" => "are",
            v => v.strip_suffix('s').unwrap_or(v),
        };
        format!(
            "You {first}{}{rest}",
            if rest.is_empty() { "" } else { " " }
        )
    }

    /// The same inside a sentence: "you hold", "Computer 1 holds".
    fn mid(self, verb: &str) -> String {
        let said = self.does(verb);
        match said.strip_prefix("You ") {
            Some(rest) => format!("you {rest}"),
            None => said,
        }
    }

    /// "you", "it".
    fn pron(self) -> &'static str {
        if self.you() {
            "you"
        } else {
            "it"
        }
    }
}

fn list(cards: GSet) -> String {
    let names: Vec<String> = cards.iter().map(GCard::describe).collect();
    match names.split_last() {
        None => "nothing".into(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The hukm played for its holder in a call, and that holder.
fn called_hukm(trick: &Trick) -> (Seat, Option<GCard>) {
    (trick.winner, trick.cards[trick.winner].first())
}

/// The line and events for a lead, from the trick it started (or the backs it laid out).
pub(super) fn lead_line(
    before: &State,
    after: &State,
    seat: Seat,
    action: &Action,
) -> (String, Vec<Event>) {
    let me = Who(seat);
    let trick = match after.phase {
        Phase::Trick(t) => Some(t),
        _ => after.last_trick.filter(|_| after.won != before.won),
    };
    let takes = match trick.map(|t| called_hukm(&t)) {
        Some((holder, Some(card))) => format!(
            "The table plays {} for {}, so {} the trick and {} next.",
            card.describe(),
            Who(holder).obj(),
            Who(holder).mid("takes"),
            if Who(holder).you() { "lead" } else { "leads" }
        ),
        _ => String::new(),
    };
    match *action {
        Action::Run { suit } => {
            let led = trick.map_or(GSet::EMPTY, |t| t.cards[seat]);
            (
                format!(
                    "A run: {} the top cards of {} in a row, so {} must lead all of them but the lowest: {}. The other two put down {} card{} each, and {} them all.",
                    me.mid("holds"),
                    suit.name(),
                    me.pron(),
                    list(led),
                    led.len(),
                    if led.len() == 1 { "" } else { "s" },
                    me.mid("takes")
                ),
                vec![Event::Run],
            )
        }
        Action::Deni { card } if card == GCard::wazir(card.suit()) => (
            format!(
                "A deni: {} only {} is the Wazir and the Mir is in another hand, so the Wazir itself is the call. {takes}",
                me.poss(),
                card.suit().name(),
            ),
            vec![Event::Deni],
        ),
        Action::Deni { card } => (
            format!(
                "A deni: {} the Wazir of {1} while the Mir sits in another hand, so the call must be made with a weaker {1}: {2}. {takes} The Wazir is now the top {1}.",
                me.mid("holds"),
                card.suit().name(),
                card.describe(),
            ),
            vec![Event::Deni],
        ),
        Action::Burn { suit } => (
            format!(
                "{} the lone Wazir of {} instead of calling with it: it burns, and counts as the lowest card of its suit from now on.",
                me.does("keeps"),
                suit.name()
            ),
            vec![Event::Burn],
        ),
        Action::Talafa { suit, card } if card.suit() != suit => (
            format!(
                "A face-down talafa, open only in the second phase: {} a card face down and {} {}; nobody else sees that card. {takes}",
                me.mid("lays"),
                if me.you() { "name" } else { "names" },
                suit.name(),
            ),
            vec![Event::Talafa, Event::FaceDownTalafa],
        ),
        Action::Talafa { suit, card } => (
            format!(
                "A talafa: {} the second-best {1} and another hand has the best, so {2} with {3}. {takes}",
                me.mid("holds"),
                suit.name(),
                me.mid("calls"),
                card.describe(),
            ),
            vec![Event::Talafa],
        ),
        Action::Utari { cards } => (
            format!(
                "An utari: {} {} hukm{} at once ({}), each the best unplayed card of its suit. The other two put down as many cards each, and {} them all.",
                me.mid("leads"),
                cards.len(),
                if cards.len() == 1 { "" } else { "s" },
                list(cards),
                me.mid("takes")
            ),
            vec![Event::Utari],
        ),
        Action::GiveUpLead => (
            format!(
                "A blind lead: with no hukm in hand, {} up the lead. {} {} cards are shuffled face down, and {} one of them.",
                me.mid("gives"),
                if me.you() { "Your" } else { "Its" },
                before.hands[seat].len(),
                Who(seat.next(SEATS)).mid("picks")
            ),
            vec![Event::BlindLead],
        ),
        Action::Pick { back } => {
            let led = trick.and_then(|t| t.cards[t.leader].first());
            (
                format!(
                    "{} face-down card {}: {}, led as a call in its suit. {takes}",
                    me.does("picks"),
                    u32::from(back) + 1,
                    led.map_or_else(|| "a card".into(), GCard::describe),
                ),
                vec![Event::BlindPick],
            )
        }
        Action::PutDown { card } => (
            format!("{} {}.", me.does("puts down"), card.describe()),
            Vec::new(),
        ),
    }
}

/// What a finished trick changed: who took it, a lost lead, the second phase, the end of the deal.
pub(super) fn after_trick(before: &State, after: &State) -> (String, Vec<Event>) {
    let Some(trick) = after.last_trick.filter(|_| after.won != before.won) else {
        return (String::new(), Vec::new());
    };
    let mut events = vec![Event::TrickWon];
    let taken = after.won[trick.winner] - before.won[trick.winner];
    let winner = Who(trick.winner);
    let mut line = if trick.kind == TrickKind::Opening {
        format!(
            "{} the {taken} opening cards and will lead first.",
            winner.does("takes")
        )
    } else {
        format!("{} the {taken} cards.", winner.does("takes"))
    };
    if after.marks[trick.leader] > before.marks[trick.leader] {
        events.push(Event::LostLead);
        let leader = Who(trick.leader);
        line.push_str(&format!(
            " {} and did not win, so {} the lead: a dot for {} ({} now).",
            leader.does("led"),
            if leader.you() { "you lose" } else { "it loses" },
            if leader.you() { "you" } else { "it" },
            after.marks[trick.leader]
        ));
    }
    if after.second_phase && !before.second_phase {
        events.push(Event::SecondPhase);
        line.push_str(" Every seat has now lost the lead at least once: the second phase begins. From here an utari may be any number of hukms, and a talafa may be laid face down.");
    }
    if after.phase == Phase::Over {
        events.push(Event::DealOver);
        let scores = after.scores();
        let said: Vec<String> = Seat::all(SEATS)
            .map(|s| format!("{} {:+}", Who(s).name(), scores[s.index()]))
            .collect();
        line.push_str(&format!(
            " The hands are empty and the deal is over. Cards won minus 32: {}.",
            said.join(", ")
        ));
    }
    (line, events)
}

/// The line for the deal as dealt: day or night, and the opening Mir put down for its holder.
pub(super) fn opening_line(state: &State) -> String {
    let opener = Who(state.opener);
    format!(
        "The opening: a {} deal, so {} opens. The table has laid it down for {}; {} one more card, the other two put down two each, and nobody can beat this first trick.",
        if state.time == crate::games::ganjifa::rules::Time::Day { "day" } else { "night" },
        state.time.opening_mir().describe(),
        opener.obj(),
        opener.mid("adds"),
    )
}
