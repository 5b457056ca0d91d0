//! What the three games' strong computers share: how long they may think (the [`Budget`], in CPU time
//! of the thread that thinks, and the [`Allowance`] the thinking pool gives a decision under load), the
//! choice by playouts over sampled deals ([`best_by_playouts`]), and the computer itself ([`Strong`]),
//! which remembers its views and decides as its game's [`Thinking`] says.
//!
//! A strong computer never sees the state. From its views and what it remembers it draws deals that
//! agree with everything it has seen (a *determinization*), plays each candidate action in the drawn
//! deal, lets the standard computers finish it, and keeps the candidate that did best on average.

use crate::game::{Allowance, Budget, CpuTime};
use crate::game::{Bot, BotKind, BotRng, Game, Search};

/// What a strong computer keeps of the views of its seat.
pub trait Remembers<V> {
    /// Takes in one more view.
    fn remember(&mut self, view: &V);
}

/// A game's side of its strong computer: what it remembers of its views, and how it decides.
pub trait Thinking: Game {
    /// What the strong computer remembers of the views it has seen.
    type Memory: Remembers<Self::View> + Default + Clone + Send + 'static;

    /// Its choice, from `view` and what `memory` holds, within `budget`; `legal` is never empty. A
    /// choice that is not among `legal` is replaced by the first legal action.
    fn decide(
        memory: &Self::Memory,
        view: &Self::View,
        legal: &[Self::Action],
        budget: Budget,
        rng: &mut BotRng,
    ) -> Self::Action;
}

/// The strong computer of the game `G`.
pub struct Strong<G: Thinking> {
    memory: G::Memory,
    budget: Budget,
}

impl<G: Thinking> Strong<G> {
    pub fn new(budget: Budget) -> Strong<G> {
        Strong {
            memory: G::Memory::default(),
            budget,
        }
    }
}

impl<G: Thinking> Bot<G> for Strong<G> {
    fn kind(&self) -> BotKind {
        BotKind::Strong
    }

    fn observes(&self) -> bool {
        true
    }

    fn observe(&mut self, view: &G::View) {
        self.memory.remember(view);
    }

    fn choose(&mut self, view: &G::View, legal: &[G::Action], rng: &mut BotRng) -> G::Action {
        self.memory.remember(view);
        decide_legally::<G>(&self.memory, view, legal, self.budget, rng)
    }

    fn search(&mut self, view: &G::View, legal: &[G::Action]) -> Option<Search<G>> {
        self.memory.remember(view);
        let (memory, view, legal, budget) = (
            self.memory.clone(),
            view.clone(),
            legal.to_vec(),
            self.budget,
        );
        Some(Box::new(move |rng: &mut BotRng, allowance: Allowance| {
            decide_legally::<G>(&memory, &view, &legal, budget.allowed(allowance), rng)
        }))
    }
}

/// The game's decision, kept among the legal actions.
fn decide_legally<G: Thinking>(
    memory: &G::Memory,
    view: &G::View,
    legal: &[G::Action],
    budget: Budget,
    rng: &mut BotRng,
) -> G::Action {
    let chosen = G::decide(memory, view, legal, budget, rng);
    if legal.contains(&chosen) {
        chosen
    } else {
        legal[0].clone()
    }
}

/// Counts a search's spending against its budget, in CPU time of the thread it runs on.
pub struct Clock {
    started: CpuTime,
    budget: Budget,
    samples: u32,
}

impl Clock {
    pub fn start(budget: Budget) -> Clock {
        Clock {
            started: CpuTime::now(),
            budget,
            samples: 0,
        }
    }

    /// Counts one sampled deal.
    pub fn spend(&mut self) {
        self.samples += 1;
    }

    /// How many sampled deals have been counted.
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// Whether another sample fits the budget. The first always does.
    pub fn more(&self) -> bool {
        if self.samples == 0 {
            return true;
        }
        match self.budget {
            Budget::Time(limit) => self.started.elapsed() < limit,
            Budget::Samples(n) => self.samples < n,
        }
    }
}

/// What the playouts of every candidate scored, deal by deal: all candidates meet the same deals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Playouts {
    /// Per candidate, its score in each deal drawn, in the order drawn.
    scores: Vec<Vec<f64>>,
}

impl Playouts {
    /// How many deals every candidate was played in.
    pub fn deals(&self) -> usize {
        self.scores.first().map_or(0, Vec::len)
    }

    /// Each candidate's total over the deals drawn.
    fn totals(&self) -> Vec<f64> {
        self.scores
            .iter()
            .map(|scores| scores.iter().fold(0.0, |total, s| total + s))
            .collect()
    }

    /// Each candidate's mean score (0 when no deal could be drawn).
    pub fn means(&self) -> Vec<f64> {
        let deals = self.deals().max(1) as f64;
        self.totals().into_iter().map(|t| t / deals).collect()
    }

    /// The index of the candidate with the best mean, ties going to the earlier one.
    pub fn best(&self) -> usize {
        let totals = self.totals();
        let mut best = 0;
        for (i, total) in totals.iter().enumerate() {
            if *total > totals[best] {
                best = i;
            }
        }
        best
    }

    /// The standard error of the mean difference between candidates `a` and `b` over the same deals
    /// (infinite with fewer than two deals: nothing can be told apart then).
    pub fn difference_error(&self, a: usize, b: usize) -> f64 {
        let n = self.deals();
        if n < 2 {
            return f64::INFINITY;
        }
        let differences: Vec<f64> = self.scores[a]
            .iter()
            .zip(&self.scores[b])
            .map(|(x, y)| x - y)
            .collect();
        let mean = differences.iter().sum::<f64>() / n as f64;
        let variance = differences.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        (variance / n as f64).sqrt()
    }
}

/// Plays every candidate in sampled deals within `budget`. Each round draws one deal with `sample`
/// (`None` when no deal fits what is known: the round is skipped) and scores every candidate in it
/// with `play`. All candidates meet the same deals, so their differences are not drowned by the luck
/// of the draw.
pub fn playouts<S: Clone, A>(
    candidates: &[A],
    budget: Budget,
    rng: &mut BotRng,
    mut sample: impl FnMut(&mut BotRng) -> Option<S>,
    mut play: impl FnMut(S, &A, &mut BotRng) -> f64,
) -> Playouts {
    let mut scores = vec![Vec::new(); candidates.len()];
    let mut clock = Clock::start(budget);
    while clock.more() {
        clock.spend();
        let Some(deal) = sample(rng) else {
            continue;
        };
        for (scores, candidate) in scores.iter_mut().zip(candidates) {
            scores.push(play(deal.clone(), candidate, rng));
        }
    }
    Playouts { scores }
}

/// Each candidate's mean score over sampled deals, as [`playouts`] plays them.
pub fn means_by_playouts<S: Clone, A>(
    candidates: &[A],
    budget: Budget,
    rng: &mut BotRng,
    sample: impl FnMut(&mut BotRng) -> Option<S>,
    play: impl FnMut(S, &A, &mut BotRng) -> f64,
) -> Vec<f64> {
    playouts(candidates, budget, rng, sample, play).means()
}

/// The index of the candidate with the best mean over sampled deals ([`playouts`]); ties go to the
/// earlier candidate, so callers list their preferred moves first. One candidate needs no search.
pub fn best_by_playouts<S: Clone, A>(
    candidates: &[A],
    budget: Budget,
    rng: &mut BotRng,
    sample: impl FnMut(&mut BotRng) -> Option<S>,
    play: impl FnMut(S, &A, &mut BotRng) -> f64,
) -> usize {
    if candidates.len() <= 1 {
        return 0;
    }
    playouts(candidates, budget, rng, sample, play).best()
}

/// What the strong computer of `G` remembers after `views` of its seat, the last being the one it
/// decides from: each taken in once as the table shows it, and the last once more as the computer
/// takes in the view it is asked to choose from.
pub fn memory_of<G: Thinking>(views: &[G::View]) -> G::Memory {
    let mut memory = G::Memory::default();
    for view in views {
        memory.remember(view);
    }
    if let Some(last) = views.last() {
        memory.remember(last);
    }
    memory
}

/// Plays `deals` seeded deals with one bot per seat (made fresh for each deal), showing every bot
/// every view of its seat as the table does, and checking that every choice is among the legal
/// actions. Calls `check` with each view shown to seat 0 and returns the outcomes.
#[cfg(test)]
pub(crate) fn self_play<G: crate::game::Game>(
    deals: u64,
    seed: u64,
    make: impl Fn(crate::cards::Seat) -> Box<dyn crate::game::Bot<G>>,
    mut check: impl FnMut(&G::State, &G::View),
) -> Vec<crate::game::DealOutcome> {
    use crate::cards::{deal_rng, Seat};
    use crate::game::DealSetup;
    use rand::SeedableRng;
    let mut outcomes = Vec::new();
    for index in 0..deals {
        let deal_seed = crate::sim::deal_seed(seed, index);
        let setup = DealSetup {
            index: index as u32,
            first: Seat::new(0),
        };
        let mut state = G::deal(&setup, &mut deal_rng(deal_seed));
        let mut bots: Vec<_> = Seat::all(G::SEATS).map(&make).collect();
        let mut rng = BotRng::seed_from_u64(deal_seed);
        loop {
            for (i, bot) in bots.iter_mut().enumerate() {
                let view = G::view(&state, Some(Seat::new(i)));
                if i == 0 {
                    check(&state, &view);
                }
                bot.observe(&view);
            }
            let Some(seat) = G::to_act(&state) else {
                break;
            };
            let legal = G::legal_actions(&state, seat);
            let view = G::view(&state, Some(seat));
            let action = bots[seat.index()].choose(&view, &legal, &mut rng);
            assert!(
                legal.contains(&action),
                "deal {index}: {action:?} is not legal"
            );
            G::apply(&mut state, seat, &action).expect("a legal action is accepted");
        }
        outcomes.push(G::outcome(&state).expect("a finished deal has an outcome"));
    }
    outcomes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::DEFAULT_BUDGET;
    use rand::{Rng, SeedableRng};
    use std::time::Duration;

    #[test]
    fn a_sample_budget_counts_samples_exactly() {
        let mut rng = BotRng::seed_from_u64(1);
        let mut drawn = 0;
        let best = best_by_playouts(
            &[0.2, 0.8, 0.5],
            Budget::Samples(300),
            &mut rng,
            |_| {
                drawn += 1;
                Some(())
            },
            |(), p, rng| f64::from(u8::from(rng.gen_bool(*p))),
        );
        assert_eq!(drawn, 300);
        assert_eq!(best, 1);
    }

    #[test]
    fn one_candidate_needs_no_search_and_the_first_sample_always_runs() {
        let mut rng = BotRng::seed_from_u64(1);
        let never = |_: &mut BotRng| -> Option<()> { panic!("no sample is needed") };
        assert_eq!(
            best_by_playouts(&[7], Budget::Samples(5), &mut rng, never, |_, _, _| 0.0),
            0
        );
        let clock = Clock::start(Budget::Time(Duration::ZERO));
        assert!(clock.more());
    }

    #[test]
    fn a_time_budget_counts_the_threads_cpu_time_not_the_time_it_waits() {
        let started = CpuTime::now();
        std::thread::sleep(Duration::from_millis(50));
        assert!(
            started.elapsed() < Duration::from_millis(25),
            "asleep is not thinking"
        );
        let mut clock = Clock::start(Budget::Time(Duration::from_millis(30)));
        clock.spend();
        std::thread::sleep(Duration::from_millis(50));
        assert!(clock.more(), "the budget is still there after a sleep");
        let busy = std::time::Instant::now();
        let mut spin = 0u64;
        while clock.more() {
            spin = std::hint::black_box(spin.wrapping_add(1));
            assert!(busy.elapsed() < Duration::from_secs(10), "the budget ends");
        }
        assert!(started.elapsed() >= Duration::from_millis(30));
    }

    #[test]
    fn an_allowance_cuts_a_time_budget_to_its_share_never_under_the_floor() {
        let whole = Budget::Time(Duration::from_millis(200));
        let floor = Duration::from_millis(20);
        assert_eq!(whole.allowed(Allowance::WHOLE), whole);
        assert_eq!(
            whole.allowed(Allowance::share(0.25, floor)),
            Budget::Time(Duration::from_millis(50))
        );
        assert_eq!(
            whole.allowed(Allowance::share(0.0, floor)),
            Budget::Time(floor)
        );
        // The floor never lengthens a budget shorter than itself.
        let short = Budget::Time(Duration::from_millis(5));
        assert_eq!(short.allowed(Allowance::share(0.1, floor)), short);
        assert!(!Allowance::WHOLE.shortens());
        assert!(Allowance::share(0.5, floor).shortens());
        assert_eq!(
            Allowance::share(f64::NAN, floor),
            Allowance::share(1.0, floor)
        );
    }

    /// A computer that decides through its search, as a table does, given `allowance`.
    struct Searching<G: Game>(Box<dyn Bot<G>>, Allowance);

    impl<G: Game> Bot<G> for Searching<G> {
        fn kind(&self) -> BotKind {
            self.0.kind()
        }

        fn observes(&self) -> bool {
            self.0.observes()
        }

        fn observe(&mut self, view: &G::View) {
            self.0.observe(view);
        }

        fn choose(&mut self, view: &G::View, legal: &[G::Action], rng: &mut BotRng) -> G::Action {
            let search = self
                .0
                .search(view, legal)
                .expect("a strong computer searches");
            search(rng, self.1)
        }
    }

    /// Self-play of `G`'s strong computer in seat 0, every decision shortened to `floor`, against
    /// standard computers; `self_play` checks that every choice is legal.
    fn shortened_to_the_floor<G: Game>(deals: u64, floor: Duration) {
        let shortest = Allowance::share(0.0, floor);
        let outcomes = self_play::<G>(
            deals,
            42,
            |seat| {
                let kind = if seat.index() == 0 {
                    BotKind::Strong
                } else {
                    BotKind::Computer
                };
                let bot = G::bot(kind, seat, DEFAULT_BUDGET).expect("every game has both");
                if seat.index() == 0 {
                    Box::new(Searching(bot, shortest))
                } else {
                    bot
                }
            },
            |_, _| {},
        );
        assert_eq!(outcomes.len() as u64, deals);
    }

    #[test]
    fn a_decision_shortened_to_the_floor_is_still_a_legal_action_in_every_game() {
        use crate::games::{ganjifa::Ganjifa, panjpar::Panjpar, pishe_pasha::PishePasha};
        // At the server's default floor (`thinking_floor_ms` in config/default.toml), and at none at
        // all (one sampled deal a decision).
        let floor = Duration::from_millis(20);
        shortened_to_the_floor::<Panjpar>(1, floor);
        shortened_to_the_floor::<PishePasha>(1, floor);
        shortened_to_the_floor::<Ganjifa>(1, floor);
        shortened_to_the_floor::<Panjpar>(12, Duration::ZERO);
        shortened_to_the_floor::<PishePasha>(12, Duration::ZERO);
        shortened_to_the_floor::<Ganjifa>(12, Duration::ZERO);
    }
}
