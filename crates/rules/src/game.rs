//! The contract every game meets: a pure rules core ([`Game`]) and the computer players ([`Bot`]).
//!
//! A rules core has no I/O, no clock and no global randomness. A deal comes from a [`DealSetup`] and a
//! seeded [`DealRng`]; any randomness a game needs later (Ganjifa's blind lead) is drawn from state the
//! deal stored, so (setup, seed, actions) replays a deal exactly. `apply` checks first and changes
//! nothing when it refuses. A view holds what one seat may know and nothing more.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::cards::{DealRng, Seat};

mod budget;
mod coach;
mod levelled;
mod reason;
pub(crate) mod rule_code;

pub use budget::{Allowance, Budget, CpuTime, DEFAULT_BUDGET};
pub use coach::{Coach, Grade, Judgement, CARDS_WON, CHANCE_OF_WINNING, UNITS};
pub use levelled::{computer, kinds as bot_kinds, Levels};
pub use reason::{said, End, Measure, Play, Reason, Rule, Why};
pub use rule_code::{GameCode, RuleCode};

/// How long a match runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(tag = "kind", content = "target", rename_all = "kebab-case")]
pub enum MatchLength {
    /// The first seat to win this many deals wins the match (Panjpar: 1, 3 or 5).
    DealsWon(u32),
    /// The first seat whose total reaches this many points wins (Pishe Pasha: 50 or 100).
    Points(u32),
    /// This many deals are dealt and the highest total wins (Ganjifa: 3 or 6; Pishe Pasha's one deal).
    Deals(u32),
}

/// What a deal needs to know about the match around it. The match counts the deals it has dealt
/// (drawn and void deals included) and picked its first seat at random; each game turns that into its own
/// deal roles: Panjpar's guesser, Pishe Pasha's dealer, Ganjifa's dealer and day or night.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct DealSetup {
    /// How many deals of the match came before this one.
    pub index: u32,
    /// The seat that held the rotating role in the match's first deal.
    pub first: Seat,
}

impl DealSetup {
    /// The seat holding this deal's rotating role (guesser, dealer) at a table of `seats`.
    pub fn rotating_seat(&self, seats: usize) -> Seat {
        self.first.after(self.index as usize % seats, seats)
    }
}

/// A refused action: a stable code (for metrics and the protocol) and a sentence a player understands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleError {
    pub code: RuleCode,
    pub message: String,
}

impl RuleError {
    pub fn new(code: impl Into<RuleCode>, message: impl Into<String>) -> RuleError {
        RuleError {
            code: code.into(),
            message: message.into(),
        }
    }

    /// The deal has ended; nothing more can be played in it.
    pub fn deal_over() -> RuleError {
        RuleError::new(RuleCode::DEAL_OVER, "This deal is over.")
    }

    /// Another seat is to act.
    pub fn not_your_turn() -> RuleError {
        RuleError::new(RuleCode::NOT_YOUR_TURN, "It is not your turn.")
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuleError {}

/// How a deal ended: the points each seat scores from it, and who won it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DealOutcome {
    /// Points per seat, in seat order: 1 for a won Panjpar deal, the loser's cards in Pishe Pasha,
    /// cards won minus 32 in Ganjifa.
    pub points: Vec<i32>,
    /// The seats that won the deal; empty for a drawn deal, several for a tie at the top.
    pub winners: Vec<Seat>,
}

impl DealOutcome {
    /// The outcome where the seats with the highest points win (all of them, on a tie).
    pub fn top_scorers(points: Vec<i32>) -> DealOutcome {
        let best = points.iter().copied().max().unwrap_or(0);
        let winners = Seat::all(points.len())
            .filter(|s| points[s.index()] == best)
            .collect();
        DealOutcome { points, winners }
    }
}

/// Where one card of a deal's shuffled order went: to a seat (its hand; its stock in Pishe Pasha), or
/// to a place on the table (Panjpar's "trump" card and "pile"). A seat is written as its number, a
/// place as its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealtTo {
    Seat(Seat),
    /// Panjpar's trump card, turned under the pile.
    Trump,
    /// Panjpar's pile, drawn from.
    Pile,
}

impl Serialize for DealtTo {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            DealtTo::Seat(seat) => seat.serialize(serializer),
            DealtTo::Trump => serializer.serialize_str("trump"),
            DealtTo::Pile => serializer.serialize_str("pile"),
        }
    }
}

/// A deal's cards in the order its shuffle left them, written as the game writes cards, with where
/// each one went: what a table commits to before a deal is played and shows once it has ended.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DealOrder {
    /// The card codes, in order, joined by commas (one string: a table keeps one order per deal).
    #[serde(serialize_with = "codes_as_list")]
    cards: String,
    pub to: Vec<DealtTo>,
}

/// Writes comma-joined codes as a list of codes.
fn codes_as_list<S: serde::Serializer>(codes: &str, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(codes.split(',').filter(|code| !code.is_empty()))
}

impl DealOrder {
    /// The order of `cards`, the card at each position going where `dealt_to` says.
    pub fn new<C: fmt::Display>(cards: &[C], dealt_to: impl Fn(usize) -> DealtTo) -> DealOrder {
        let mut codes = String::with_capacity(cards.len() * 4);
        for (i, card) in cards.iter().enumerate() {
            if i > 0 {
                codes.push(',');
            }
            fmt::Write::write_fmt(&mut codes, format_args!("{card}")).expect("writes to a String");
        }
        DealOrder {
            cards: codes,
            to: (0..cards.len()).map(dealt_to).collect(),
        }
    }

    /// The card codes joined by commas: what the commitment hashes.
    pub fn joined(&self) -> &str {
        &self.cards
    }

    /// The card codes, in order.
    pub fn cards(&self) -> impl Iterator<Item = &str> {
        self.cards.split(',').filter(|code| !code.is_empty())
    }

    /// The cards dealt to `seat`, in the order they were dealt.
    pub fn dealt_to(&self, seat: Seat) -> impl Iterator<Item = &str> {
        self.cards()
            .zip(&self.to)
            .filter(move |(_, to)| **to == DealtTo::Seat(seat))
            .map(|(card, _)| card)
    }
}

/// A game's rules core.
pub trait Game: Sized + 'static {
    /// The game's name in URLs and on the command line: "panjpar", "pishe-pasha", "ganjifa".
    const NAME: &'static str;
    /// How many seats its table has.
    const SEATS: usize;
    /// The whole truth of one deal.
    type State: Clone + fmt::Debug + PartialEq + Serialize + Send + Unpin;
    /// What a seat can do: a closed, typed set.
    type Action: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Unpin;
    /// What one seat (or a spectator, `None`) may see, with the hints its board needs.
    type View: Clone + fmt::Debug + Serialize + Send + Sync;
    /// The matches a host may ask for, as the game's own type: read from a table request's `length`
    /// (JSON), its default being the match a table plays when the host names none.
    type Length: DeserializeOwned + Default + Into<MatchLength>;
    /// Which lengths there are, in words, for a request that asks for another.
    const LENGTHS: &'static str;

    /// The shortest match a host may ask for, as a table request's `length` writes it (null: the
    /// usual match). The load generator's analyses play it: one deal is all an analysis needs.
    fn shortest_length() -> serde_json::Value {
        serde_json::Value::Null
    }

    /// Deals a new deal.
    fn deal(setup: &DealSetup, rng: &mut DealRng) -> Self::State;

    /// Deals the same deal as [`Game::deal`] from the same source, and says how: the shuffled order
    /// of its cards and where each went. Self-play and tables stored before fair deals use it; a table
    /// deals from an explicit order ([`Game::deal_ordered`]).
    fn deal_in_order(setup: &DealSetup, rng: &mut DealRng) -> (Self::State, DealOrder);

    /// The game's pack in its fixed order, written as the game writes cards.
    fn pack() -> Vec<String>;

    /// Where the card at `place` of a deal's order goes.
    fn dealt_to(setup: &DealSetup, place: usize) -> DealtTo;

    /// Deals the pack in `order` (each an index into [`Game::pack`]), or `None` when that order gives
    /// a void deal. `secret` seeds what the deal keeps hidden from everyone (Ganjifa's blind lead).
    fn deal_ordered(setup: &DealSetup, order: &[usize], secret: u64) -> Option<Self::State>;

    /// The seat that must act now, or `None` once the deal has ended.
    fn to_act(state: &Self::State) -> Option<Seat>;

    /// Every action `seat` may take now (empty when it is not that seat's turn).
    fn legal_actions(state: &Self::State, seat: Seat) -> Vec<Self::Action>;

    /// Checks the action and, if it is allowed, plays it. On error the state is unchanged.
    fn apply(state: &mut Self::State, seat: Seat, action: &Self::Action) -> Result<(), RuleError>;

    /// Everything `seat` may know now, and nothing more. `None` is a spectator, who sees no hand.
    fn view(state: &Self::State, seat: Option<Seat>) -> Self::View;

    /// How the deal ended, once it has.
    fn outcome(state: &Self::State) -> Option<DealOutcome>;

    /// Whether the last move closed a round of play (a trick taken, a battle ended) whose cards stay
    /// on the table only until the next move: a computer waits longer before that move, so that the
    /// people at the table see the round whole.
    fn round_closed(_state: &Self::State) -> bool {
        false
    }

    /// The cards of an ended deal that nobody but their holder ever saw face up (a card played face
    /// down, a card left face down in a stock): the deal's reveal shows their places to nobody else.
    fn concealed_at_end(_state: &Self::State) -> Vec<String> {
        Vec::new()
    }

    /// In a deal where a card stayed concealed, the cards `viewer` (none: a watcher) saw in play: the
    /// only ones its reveal may name, since the others would name the concealed ones by elimination.
    fn seen_at_end(_state: &Self::State, _viewer: Option<Seat>) -> Vec<String> {
        Vec::new()
    }

    /// `action`, made by `by`, as `viewer` (none: a watcher) may be told of it after the fact, in a
    /// replay's step: `None` where it would name a card the viewer never saw (a Ganjifa talafa laid
    /// face down, to anyone but its player). The step's view still says what could be seen of it.
    fn action_told_to(
        action: &Self::Action,
        _by: Seat,
        _viewer: Option<Seat>,
    ) -> Option<Self::Action> {
        Some(action.clone())
    }

    /// The kinds of computer player the game has, the first being the site's default.
    const BOTS: &'static [BotKind];

    /// How its gentle and clever computers play (made from its standard and strong ones by
    /// [`computer`]): each game tunes them so that its four levels are apart in its ratings.
    const LEVELS: Levels = Levels::DEFAULT;

    /// A computer player of `kind` (`None` unless it is one of [`Game::BOTS`]), for `seat`; a strong
    /// one thinks within `budget` per decision.
    fn bot(kind: BotKind, seat: Seat, budget: Budget) -> Option<Box<dyn Bot<Self>>>;

    /// The game's coach, if it has one (the three site games do).
    fn coach() -> Option<&'static dyn Coach<Self>> {
        None
    }
}

/// A kind of computer player. Every game has the site's two levels (`Computer`, the standard one, and
/// `Strong`) and `Random`, the mover that tests and self-play measure against. `Gentle` and `Clever`,
/// the site's other two levels, are made from a game's `Computer` and `Strong` with no code of the
/// game's ([`computer`]). A game may have kinds of its own for self-play (Pishe Pasha's two
/// strategies of its experiment), named in its folder. Written in kebab case ("hold-kings") in
/// snapshots and on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotKind {
    Computer,
    Strong,
    Random,
    Gentle,
    Clever,
    /// A kind of one game's own, by its name.
    Own(&'static str),
}

impl BotKind {
    /// The kinds every game may have.
    const SHARED: [BotKind; 5] = [
        BotKind::Computer,
        BotKind::Strong,
        BotKind::Random,
        BotKind::Gentle,
        BotKind::Clever,
    ];

    /// Its name on the command line and in snapshots.
    pub fn name(self) -> &'static str {
        match self {
            BotKind::Computer => "computer",
            BotKind::Strong => "strong",
            BotKind::Random => "random",
            BotKind::Gentle => "gentle",
            BotKind::Clever => "clever",
            BotKind::Own(name) => name,
        }
    }

    /// The kind called `name` among those every game may have (a game's own kinds are found among
    /// its [`Game::BOTS`]).
    pub fn named(name: &str) -> Option<BotKind> {
        BotKind::SHARED.into_iter().find(|kind| kind.name() == name)
    }

    /// The kind of `G` called `name`, one of [`Game::BOTS`] or a level made from them.
    pub fn of_game<G: Game>(name: &str) -> Option<BotKind> {
        bot_kinds::<G>()
            .into_iter()
            .find(|kind| kind.name() == name)
    }
}

impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for BotKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// Read back from a snapshot, where only the shared kinds are ever written (a table's computers play
/// at its level).
impl<'de> serde::Deserialize<'de> for BotKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<BotKind, D::Error> {
        let name = String::deserialize(deserializer)?;
        BotKind::named(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("no computer is called \"{name}\"")))
    }
}

/// The random source a computer player draws its choices from.
pub type BotRng = rand_chacha::ChaCha8Rng;

/// A choice that takes a search, packed to run away from the table's thread (on the thinking pool,
/// `crate::thinking`): it owns a copy of everything it needs (the view, the legal actions, what the
/// bot remembers) and returns the action, spending the share of its budget the pool allows.
pub type Search<G> = Box<dyn FnOnce(&mut BotRng, Allowance) -> <G as Game>::Action + Send>;

/// A computer player. It sees only its own seat's views, never the state, and may remember them.
pub trait Bot<G: Game>: Send {
    /// Its kind, one of [`Game::BOTS`].
    fn kind(&self) -> BotKind;

    /// Whether it wants every view of its seat, not only those where it must act. Views cost time to
    /// build, so bots without memory say no.
    fn observes(&self) -> bool {
        false
    }

    /// Sees its seat's view after a change (only called when [`Bot::observes`] says so).
    fn observe(&mut self, _view: &G::View) {}

    /// Picks one of `legal` (never empty) from what `view` shows.
    fn choose(&mut self, view: &G::View, legal: &[G::Action], rng: &mut BotRng) -> G::Action;

    /// For a bot that searches before it chooses: the search for this decision, to be run on a worker
    /// thread while the bot itself stays at the table and goes on observing. `None` (the default) means
    /// `choose` is quick enough to call in place.
    fn search(&mut self, _view: &G::View, _legal: &[G::Action]) -> Option<Search<G>> {
        None
    }
}

/// The bot every game has: uniformly random among the legal actions.
pub struct RandomBot;

impl<G: Game> Bot<G> for RandomBot {
    fn kind(&self) -> BotKind {
        BotKind::Random
    }

    fn choose(&mut self, _view: &G::View, legal: &[G::Action], rng: &mut BotRng) -> G::Action {
        use rand::seq::SliceRandom;
        legal
            .choose(rng)
            .cloned()
            .expect("a bot is only asked to choose when it has a legal action")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_kinds_are_named_as_serde_writes_them() {
        for kind in BotKind::SHARED {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{kind}\""));
            assert_eq!(BotKind::named(kind.name()), Some(kind));
            assert_eq!(serde_json::from_str::<BotKind>(&json).unwrap(), kind);
        }
        assert_eq!(BotKind::Computer.name(), "computer");
        assert_eq!(BotKind::named("grandmaster"), None);
        assert!(serde_json::from_str::<BotKind>("\"grandmaster\"").is_err());
        let own = BotKind::Own("hold-kings");
        assert_eq!(serde_json::to_string(&own).unwrap(), "\"hold-kings\"");
        assert_eq!(
            BotKind::named("hold-kings"),
            None,
            "a game's own kind is the game's to name"
        );
    }

    #[test]
    fn the_rotating_role_passes_round_the_table() {
        let setup = |index| DealSetup {
            index,
            first: Seat::new(1),
        };
        assert_eq!(setup(0).rotating_seat(2), Seat::new(1));
        assert_eq!(setup(1).rotating_seat(2), Seat::new(0));
        assert_eq!(setup(2).rotating_seat(3), Seat::new(0));
        assert_eq!(setup(3).rotating_seat(3), Seat::new(1));
    }

    #[test]
    fn top_scorers_share_a_tie_at_the_top() {
        let outcome = DealOutcome::top_scorers(vec![4, -8, 4]);
        assert_eq!(outcome.winners, vec![Seat::new(0), Seat::new(2)]);
    }
}
