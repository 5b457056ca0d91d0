//! Ratings from games between players: the Bradley–Terry model fitted by maximum likelihood, on the
//! Elo scale.
//!
//! Player `i` beats player `j` with probability `1 / (1 + 10^((R_j - R_i) / 400))`. A game's score is
//! between 0 and 1 (a drawn game is one half, and the score may be any share in between), and a pair's
//! likelihood is `p^s (1 - p)^(n - s)` for `s` points out of `n` games. One player is the anchor, held
//! at its rating; the others are fitted by Newton's method. Each rating's 95% interval is
//! `±1.96` standard errors from the **Fisher information** at the fit (its inverse, the anchor's row and
//! column left out, is the ratings' covariance), so it is the uncertainty of a rating relative to the
//! anchor's, which has none. A prior of [`PRIOR_GAMES`] drawn games between every pair keeps the
//! ratings finite when one player wins every game; it moves a rating fitted from hundreds of games by
//! about an Elo point.

/// The games each pair of players is taken to have drawn before the first.
pub const PRIOR_GAMES: f64 = 0.5;

/// Elo points per natural-log unit of odds: `400 / ln 10`.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// What two players did against each other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pairing {
    pub first: usize,
    pub second: usize,
    /// How many games they played.
    pub games: f64,
    /// The first's points in them: a game won 1, drawn 1/2, lost 0.
    pub points: f64,
}

/// One player's fitted rating, with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub low: f64,
    pub high: f64,
}

impl Rating {
    /// Half the interval's width.
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// The ratings of `players` players from `pairings`, with player `anchor` held at `anchored` (for
/// example the standard computer at 1500).
pub fn fit(players: usize, pairings: &[Pairing], anchor: usize, anchored: f64) -> Vec<Rating> {
    // Natural-log strengths, the anchor's 0; every pair gets its prior draws.
    let mut games = vec![vec![0.0; players]; players];
    let mut points = vec![vec![0.0; players]; players];
    for i in 0..players {
        for j in 0..players {
            if i != j {
                games[i][j] = PRIOR_GAMES;
                points[i][j] = PRIOR_GAMES / 2.0;
            }
        }
    }
    for p in pairings {
        games[p.first][p.second] += p.games;
        games[p.second][p.first] += p.games;
        points[p.first][p.second] += p.points;
        points[p.second][p.first] += p.games - p.points;
    }
    let free: Vec<usize> = (0..players).filter(|&i| i != anchor).collect();
    let mut strength = vec![0.0; players];
    let mut information = vec![vec![0.0; free.len()]; free.len()];
    for _ in 0..200 {
        // The gradient of the log-likelihood and its negative Hessian (the Fisher information).
        let mut gradient = vec![0.0; free.len()];
        for row in information.iter_mut() {
            row.fill(0.0);
        }
        for (a, &i) in free.iter().enumerate() {
            for j in (0..players).filter(|&j| j != i) {
                let p = win_chance(strength[i] - strength[j]);
                gradient[a] += points[i][j] - games[i][j] * p;
                let weight = games[i][j] * p * (1.0 - p);
                information[a][a] += weight;
                if let Some(b) = free.iter().position(|&f| f == j) {
                    information[a][b] -= weight;
                }
            }
        }
        let step = solve(&information, &gradient);
        let largest = step.iter().fold(0.0_f64, |m, s| m.max(s.abs()));
        // Long steps are shortened, so a lopsided start cannot overshoot far.
        let scale = if largest > 1.0 { 1.0 / largest } else { 1.0 };
        for (a, &i) in free.iter().enumerate() {
            strength[i] += scale * step[a];
        }
        if largest < 1e-10 {
            break;
        }
    }
    let covariance = inverse(&information);
    (0..players)
        .map(|i| {
            let rating = anchored + ELO * strength[i];
            let error = free
                .iter()
                .position(|&f| f == i)
                .map_or(0.0, |a| ELO * covariance[a][a].max(0.0).sqrt());
            let half = 1.959_963_984_540_054 * error;
            Rating {
                rating,
                low: rating - half,
                high: rating + half,
            }
        })
        .collect()
}

/// The chance the stronger by `difference` (natural-log units) wins.
fn win_chance(difference: f64) -> f64 {
    1.0 / (1.0 + (-difference).exp())
}

/// `x` with `matrix · x = vector` (Gaussian elimination with partial pivoting; the matrix here is
/// small, symmetric and positive definite).
fn solve(matrix: &[Vec<f64>], vector: &[f64]) -> Vec<f64> {
    let inverse = inverse(matrix);
    inverse
        .iter()
        .map(|row| row.iter().zip(vector).map(|(a, b)| a * b).sum())
        .collect()
}

/// The inverse of a small positive definite matrix (Gauss–Jordan).
fn inverse(matrix: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = matrix.len();
    let mut left: Vec<Vec<f64>> = matrix.to_vec();
    let mut right: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for column in 0..n {
        let pivot = (column..n)
            .max_by(|&a, &b| left[a][column].abs().total_cmp(&left[b][column].abs()))
            .unwrap_or(column);
        left.swap(column, pivot);
        right.swap(column, pivot);
        let divisor = left[column][column];
        if divisor.abs() < 1e-300 {
            continue;
        }
        for k in 0..n {
            left[column][k] /= divisor;
            right[column][k] /= divisor;
        }
        for row in (0..n).filter(|&row| row != column) {
            let factor = left[row][column];
            for k in 0..n {
                left[row][k] -= factor * left[column][k];
                right[row][k] -= factor * right[column][k];
            }
        }
    }
    right
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairing(first: usize, second: usize, games: f64, share: f64) -> Pairing {
        Pairing {
            first,
            second,
            games,
            points: games * share,
        }
    }

    #[test]
    fn a_75_percent_score_is_191_elo_apart() {
        let ratings = fit(2, &[pairing(0, 1, 1000.0, 0.75)], 1, 1500.0);
        assert_eq!(ratings[1].rating, 1500.0);
        assert_eq!(ratings[1].margin(), 0.0);
        let apart = ratings[0].rating - 1500.0;
        assert!((apart - 190.8).abs() < 0.5, "{apart}");
        // With 1000 games the interval is about ±25 Elo: 1.96 / sqrt(n p (1-p)) in log odds.
        let expected = 1.96 * ELO / (1000.0_f64 * 0.75 * 0.25).sqrt();
        assert!((ratings[0].margin() - expected).abs() < 0.5, "{ratings:?}");
        assert!(ratings[0].low < ratings[0].rating && ratings[0].rating < ratings[0].high);
    }

    #[test]
    fn a_chain_of_players_adds_up_and_draws_count_half() {
        // 0 beats 1 at 64%, 1 beats 2 at 64%, and 0 against 2 as the model says (76%).
        let p = 1.0 / (1.0 + 10f64.powf(-200.0 / 400.0));
        let pairings = [
            pairing(0, 1, 4000.0, 0.64),
            pairing(1, 2, 4000.0, 0.64),
            pairing(0, 2, 4000.0, p),
        ];
        let ratings = fit(3, &pairings, 1, 1500.0);
        assert!((ratings[0].rating - 1600.0).abs() < 2.0, "{ratings:?}");
        assert!((ratings[2].rating - 1400.0).abs() < 2.0, "{ratings:?}");
        // All drawn: level.
        let level = fit(2, &[pairing(0, 1, 50.0, 0.5)], 0, 1500.0);
        assert!((level[1].rating - 1500.0).abs() < 1e-6, "{level:?}");
    }

    #[test]
    fn intervals_shrink_with_more_games() {
        let few = fit(2, &[pairing(0, 1, 100.0, 0.7)], 1, 1500.0);
        let many = fit(2, &[pairing(0, 1, 10_000.0, 0.7)], 1, 1500.0);
        assert!(many[0].margin() * 5.0 < few[0].margin(), "{few:?} {many:?}");
        assert!((many[0].rating - few[0].rating).abs() < 10.0);
    }

    #[test]
    fn a_clean_sweep_stays_finite() {
        let ratings = fit(2, &[pairing(0, 1, 200.0, 1.0)], 1, 1500.0);
        assert!(
            ratings[0].rating.is_finite() && ratings[0].rating > 2000.0,
            "{ratings:?}"
        );
    }
}
