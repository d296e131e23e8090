use super::bradley_terry::fit;
use super::*;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub(super) const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

fn g(a: usize, b: usize, score_a: f64) -> GameScore {
    GameScore {
        a,
        b,
        score_a,
        round: 0,
    }
}

/// `wins` wins of `a`, `draws` draws and `losses` losses of `a` against `b`.
fn series(a: usize, b: usize, wins: usize, draws: usize, losses: usize) -> Vec<GameScore> {
    let mut v = Vec::new();
    v.extend(std::iter::repeat_n(g(a, b, 1.0), wins));
    v.extend(std::iter::repeat_n(g(a, b, 0.5), draws));
    v.extend(std::iter::repeat_n(g(a, b, 0.0), losses));
    v
}

/// The worked example. A, B, C = 0, 1, 2.
///   A-B: 3 games, A 1 win 2 draws      -> A 2/3 of the points
///   A-C: 5 games, A 4 wins 1 loss      -> A 4/5
///   B-C: 3 games, B 2 wins 1 loss      -> B 2/3
/// Strengths gamma = 10^(R/400) of 4 : 2 : 1 predict exactly these fractions (4/6, 4/5, 2/3), so
/// they are the maximum-likelihood fit: R = 400 log10(4, 2, 1), centred: (+120.41, 0, -120.41).
fn worked_example() -> Vec<GameScore> {
    let mut v = series(0, 1, 1, 2, 0);
    v.extend(series(0, 2, 4, 0, 1));
    v.extend(series(1, 2, 2, 0, 1));
    v
}

fn random_games(n: usize, count: usize, seed: u64) -> Vec<GameScore> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let strength: Vec<f64> = (0..n).map(|_| rng.random_range(-2.0..2.0)).collect();
    (0..count)
        .map(|k| {
            let a = rng.random_range(0..n);
            let mut b = rng.random_range(0..n - 1);
            if b >= a {
                b += 1;
            }
            let p = 1.0 / (1.0 + (strength[b] - strength[a]).exp());
            let u: f64 = rng.random();
            let score_a = if u < 0.15 {
                0.5
            } else if rng.random::<f64>() < p {
                1.0
            } else {
                0.0
            };
            GameScore {
                a,
                b,
                score_a,
                round: (k / 7) as u32,
            }
        })
        .collect()
}

/// Independent reference: gradient of the per-game log-likelihood plus `prior` virtual draws of
/// each player against rating 0, in natural units, straight from the raw games.
fn reference_gradient(n: usize, games: &[GameScore], prior: f64, theta: &[f64]) -> Vec<f64> {
    let s = |x: f64| 1.0 / (1.0 + (-x).exp());
    let mut grad: Vec<f64> = theta.iter().map(|&t| prior * (0.5 - s(t))).collect();
    for game in games {
        let p = s(theta[game.a] - theta[game.b]);
        grad[game.a] += game.score_a - p;
        grad[game.b] -= game.score_a - p;
    }
    assert_eq!(grad.len(), n);
    grad
}

/// Independent reference fit: projected gradient ascent over mean-zero ratings.
fn reference_fit(n: usize, games: &[GameScore], prior: f64) -> Vec<f64> {
    let step = 0.5 / (games.len() as f64 / n as f64 + prior);
    ascend(n, step, |theta| reference_gradient(n, games, prior, theta))
}

/// Projected gradient ascent over mean-zero ratings, by `step`, until every component of the
/// projected `gradient` is below 1e-12.
pub(super) fn ascend(n: usize, step: f64, gradient: impl Fn(&[f64]) -> Vec<f64>) -> Vec<f64> {
    let mut theta = vec![0.0; n];
    for _ in 0..200_000 {
        let mut grad = gradient(&theta);
        let mean = grad.iter().sum::<f64>() / n as f64;
        grad.iter_mut().for_each(|x| *x -= mean);
        if grad.iter().all(|x| x.abs() < 1e-12) {
            break;
        }
        theta
            .iter_mut()
            .zip(&grad)
            .for_each(|(t, d)| *t += step * d);
    }
    theta
}

/// Reference variances of the fit `theta` of `games`: see [`variances_of`].
fn reference_variances(n: usize, games: &[GameScore], prior: f64, theta: &[f64]) -> Vec<f64> {
    variances_of(n, theta, |t| reference_gradient(n, games, prior, t))
}

/// Variances of mean-zero ratings at `theta`: a finite-difference Hessian of `gradient`, then
/// diag((P H P + J/n)^-1) - 1/n by Gauss-Jordan elimination.
pub(super) fn variances_of(
    n: usize,
    theta: &[f64],
    gradient: impl Fn(&[f64]) -> Vec<f64>,
) -> Vec<f64> {
    let h = 1e-6;
    let mut hess = vec![vec![0.0; n]; n];
    for j in 0..n {
        let mut up = theta.to_vec();
        let mut down = theta.to_vec();
        up[j] += h;
        down[j] -= h;
        let (gu, gd) = (gradient(&up), gradient(&down));
        for i in 0..n {
            hess[i][j] = -(gu[i] - gd[i]) / (2.0 * h);
        }
    }
    let nf = n as f64;
    let row: Vec<f64> = hess.iter().map(|r| r.iter().sum::<f64>() / nf).collect();
    let col: Vec<f64> = (0..n)
        .map(|j| hess.iter().map(|r| r[j]).sum::<f64>() / nf)
        .collect();
    let all = row.iter().sum::<f64>() / nf;
    // Augmented [M | I].
    let mut a: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            let mut r: Vec<f64> = (0..n)
                .map(|j| hess[i][j] - row[i] - col[j] + all + 1.0 / nf)
                .collect();
            r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for c in 0..n {
        let piv = (c..n)
            .max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))
            .unwrap();
        a.swap(c, piv);
        let d = a[c][c];
        a[c].iter_mut().for_each(|x| *x /= d);
        for r in 0..n {
            if r != c {
                let f = a[r][c];
                let pivot_row = a[c].clone();
                a[r].iter_mut()
                    .zip(&pivot_row)
                    .for_each(|(x, p)| *x -= f * p);
            }
        }
    }
    (0..n).map(|i| a[i][n + i] - 1.0 / nf).collect()
}

pub(super) fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol,
        "{what}: got {got}, want {want} (tolerance {tol})"
    );
}

#[test]
fn worked_example_closed_form_without_prior() {
    let est = fit(3, &worked_example(), 0.0, 100);
    let r = 400.0 * 2f64.log10(); // 120.412 Elo
    assert_close(est[0].elo, r, 1e-9, "A");
    assert_close(est[1].elo, 0.0, 1e-9, "B");
    assert_close(est[2].elo, -r, 1e-9, "C");
    // Information per pair, n p (1 - p): A-B 3 (2/3)(1/3) = 2/3, A-C 5 (4/5)(1/5) = 4/5,
    // B-C 2/3. Its pseudo-inverse (mean-zero ratings) has diagonal 31/102, 1/3, 31/102.
    let e = |v: f64| 1.96 * ELO_PER_NAT * v.sqrt();
    assert_close(est[0].error, e(31.0 / 102.0), 1e-9, "A error"); // 187.71
    assert_close(est[1].error, e(1.0 / 3.0), 1e-9, "B error"); // 196.58
    assert_close(est[2].error, e(31.0 / 102.0), 1e-9, "C error");
    assert!(est.iter().all(|e| !e.marked));
}

#[test]
fn worked_example_with_prior_matches_reference() {
    let games = worked_example();
    let est = bradley_terry(3, &games);
    let theta = reference_fit(3, &games, PRIOR_DRAWS);
    let var = reference_variances(3, &games, PRIOR_DRAWS, &theta);
    for p in 0..3 {
        assert_close(est[p].elo, theta[p] * ELO_PER_NAT, 1e-6, "elo");
        let err = 1.96 * ELO_PER_NAT * var[p].sqrt();
        assert_close(est[p].error, err, 1e-3, "error");
    }
    // The prior (one draw against the mean) pulls towards 0, but keeps the order.
    let r = 400.0 * 2f64.log10();
    assert!(est[0].elo > est[1].elo && est[1].elo > est[2].elo);
    assert!(est[0].elo < r && est[0].elo > 0.8 * r, "{est:?}");
}

#[test]
fn random_tournament_matches_reference() {
    let n = 7;
    let games = random_games(n, 300, 11);
    let est = bradley_terry(n, &games);
    let theta = reference_fit(n, &games, PRIOR_DRAWS);
    let var = reference_variances(n, &games, PRIOR_DRAWS, &theta);
    assert_fit(&est, &theta, &var);
}

#[test]
fn ratings_have_mean_zero() {
    let est = bradley_terry(10, &random_games(10, 500, 3));
    let mean = est.iter().map(|e| e.elo).sum::<f64>() / 10.0;
    assert_close(mean, 0.0, 1e-9, "mean");
}

#[test]
fn order_of_games_does_not_matter() {
    let n = 9;
    let games = random_games(n, 400, 5);
    let want = bradley_terry(n, &games);
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    for _ in 0..5 {
        let mut shuffled = games.clone();
        shuffled.shuffle(&mut rng);
        for game in &mut shuffled {
            game.round = rng.random_range(0..1000);
        }
        assert_eq!(bradley_terry(n, &shuffled), want);
    }
}

#[test]
fn swapping_sides_does_not_matter() {
    let n = 6;
    let games = random_games(n, 300, 8);
    let swapped: Vec<GameScore> = games
        .iter()
        .map(|x| GameScore {
            a: x.b,
            b: x.a,
            score_a: 1.0 - x.score_a,
            round: x.round,
        })
        .collect();
    assert_eq!(bradley_terry(n, &swapped), bradley_terry(n, &games));
}

#[test]
fn perfect_and_zero_scores_are_finite_and_marked() {
    // Player 0 beats everyone; player 4 loses to everyone; 1-3 trade results.
    let mut games = Vec::new();
    for p in 1..5 {
        games.extend(series(0, p, 3, 0, 0));
    }
    for p in 0..4 {
        games.extend(series(4, p, 0, 0, 3));
    }
    games.extend(series(1, 2, 2, 1, 1));
    games.extend(series(2, 3, 2, 0, 2));
    games.extend(series(1, 3, 1, 1, 2));
    let est = bradley_terry(5, &games);
    assert!(est.iter().all(|e| e.elo.is_finite() && e.error.is_finite()));
    assert!(est[0].marked && est[4].marked);
    assert!(!est[1].marked && !est[2].marked && !est[3].marked);
    for p in 1..5 {
        assert!(est[0].elo > est[p].elo, "{est:?}");
        assert!(est[4].elo < est[p - 1].elo, "{est:?}");
    }
    // A perfect score over more games gives a higher, still finite, rating.
    let mut more = games.clone();
    for p in 1..5 {
        more.extend(series(0, p, 20, 0, 0));
    }
    let est2 = bradley_terry(5, &more);
    assert!(est2[0].elo.is_finite() && est2[0].elo > est[0].elo);
}

#[test]
fn player_without_games() {
    let games = worked_example();
    let three = bradley_terry(3, &games);
    let four = bradley_terry(4, &games);
    assert_eq!(&four[..3], &three[..]);
    assert_eq!(four[3].elo, 0.0);
    assert!(four[3].error.is_infinite() && four[3].marked);
    // Games of a player against themselves are ignored.
    let mut with_self = games.clone();
    with_self.push(g(3, 3, 1.0));
    assert_eq!(bradley_terry(4, &with_self), four);
    assert!(bradley_terry(0, &[]).is_empty());
}

#[test]
fn draws_only_give_equal_ratings() {
    let mut games = Vec::new();
    for a in 0..5 {
        for b in a + 1..5 {
            games.extend(series(a, b, 0, 2 + a, 0));
        }
    }
    let est = bradley_terry(5, &games);
    for e in &est {
        assert_close(e.elo, 0.0, 1e-9, "elo");
        assert!(!e.marked && e.error.is_finite());
    }
}

#[test]
fn disconnected_groups_stay_finite() {
    // {0, 1} and {2, 3} never meet.
    let mut games = series(0, 1, 3, 1, 1);
    games.extend(series(2, 3, 1, 0, 4));
    let est = bradley_terry(4, &games);
    assert!(est.iter().all(|e| e.elo.is_finite() && e.error.is_finite()));
    assert!(est[0].elo > est[1].elo && est[3].elo > est[2].elo);
    let mean = est.iter().map(|e| e.elo).sum::<f64>() / 4.0;
    assert_close(mean, 0.0, 1e-9, "mean");
}

#[test]
fn four_times_the_games_halves_the_error() {
    let n = 6;
    let games = random_games(n, 600, 21);
    let four: Vec<GameScore> = games
        .iter()
        .cycle()
        .take(4 * games.len())
        .copied()
        .collect();
    let (e1, e4) = (bradley_terry(n, &games), bradley_terry(n, &four));
    for p in 0..n {
        let ratio = e4[p].error / e1[p].error;
        assert!((0.47..=0.53).contains(&ratio), "player {p}: ratio {ratio}");
        assert_close(e4[p].elo, e1[p].elo, 0.02 * e1[p].elo.abs() + 1.0, "elo");
    }
}

#[test]
fn approximate_errors_for_many_players_are_close_on_a_round_robin() {
    let n = 12;
    let mut games = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            games.extend(series(a, b, 2, 1, 1 + (a + b) % 3));
        }
    }
    let exact = fit(n, &games, PRIOR_DRAWS, usize::MAX);
    let approx = fit(n, &games, PRIOR_DRAWS, 0);
    for p in 0..n {
        assert_eq!(exact[p].elo, approx[p].elo);
        let ratio = approx[p].error / exact[p].error;
        // On an equal round robin the ratio is exactly m / (m - 1) = 1.09.
        assert!((0.9..=1.12).contains(&ratio), "player {p}: ratio {ratio}");
    }
}

#[test]
fn pair_results_aggregate_exactly() {
    let games = vec![
        g(2, 0, 1.0),
        g(0, 2, 0.5),
        g(1, 0, 0.0),
        g(0, 2, 1.0),
        g(1, 1, 1.0),
    ];
    let pr = pair_results(3, &games);
    assert_eq!(
        pr,
        vec![
            PairResult {
                a: 0,
                b: 1,
                games: 1,
                half_points_a: 2
            },
            PairResult {
                a: 0,
                b: 2,
                games: 3,
                half_points_a: 3
            },
        ]
    );
    assert_eq!(pr[1].points_a(), 1.5);
}

#[test]
#[should_panic(expected = "score_a must be 0, 0.5 or 1")]
fn other_scores_panic() {
    bradley_terry(2, &[g(0, 1, 0.25)]);
}

#[test]
#[should_panic(expected = "out of range")]
fn bad_index_panics() {
    glicko2(2, &[g(0, 2, 1.0)]);
}

// --- Glicko-2 ---

fn with_rounds(games: &[GameScore], round: impl Fn(usize) -> u32) -> Vec<GameScore> {
    games
        .iter()
        .enumerate()
        .map(|(k, x)| GameScore {
            round: round(k),
            ..*x
        })
        .collect()
}

#[test]
fn glicko2_one_game() {
    let r = glicko2(3, &[g(1, 0, 1.0)]);
    let (w, l) = (r[1], r[0]);
    assert!(w.0 > 1500.0 && l.0 < 1500.0);
    assert_close(w.0 - 1500.0, 1500.0 - l.0, 1e-9, "symmetric");
    assert_close(w.1, l.1, 1e-9, "deviation");
    assert!(w.1 < 350.0);
    assert_eq!(r[2], (1500.0, 350.0));
    // The same as asking skillratings directly.
    let new = skillratings::glicko2::Glicko2Rating::new();
    let direct = skillratings::glicko2::glicko2_rating_period(
        &new,
        &[(new, skillratings::Outcomes::WIN)],
        &skillratings::glicko2::Glicko2Config::new(),
    );
    assert_eq!(w, (direct.rating, direct.deviation));
}

#[test]
fn glicko2_order_within_a_round_does_not_matter() {
    let n = 8;
    let games = random_games(n, 300, 4); // rounds of 7 games
    let want = glicko2(n, &games);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..5 {
        let mut shuffled: Vec<GameScore> = games.clone();
        shuffled.shuffle(&mut rng);
        // And which side is `a`.
        for x in &mut shuffled {
            if rng.random::<bool>() {
                *x = GameScore {
                    a: x.b,
                    b: x.a,
                    score_a: 1.0 - x.score_a,
                    round: x.round,
                };
            }
        }
        assert_eq!(glicko2(n, &shuffled), want);
    }
}

#[test]
fn glicko2_periods_matter_but_stay_sane() {
    // 0 is strongest, 3 weakest: every pair plays 4 games, the stronger scoring 3 of 4.
    let mut games = Vec::new();
    for a in 0..4 {
        for b in a + 1..4 {
            games.extend(series(a, b, 3, 0, 1));
        }
    }
    let one = glicko2(4, &with_rounds(&games, |_| 0));
    let two = glicko2(4, &with_rounds(&games, |k| (k % 2) as u32));
    let many = glicko2(4, &with_rounds(&games, |k| k as u32));
    for r in [&one, &two, &many] {
        for p in 0..4 {
            assert!(
                r[p].0.is_finite() && r[p].1 > 0.0 && r[p].1 < 350.0,
                "{r:?}"
            );
            assert!((1000.0..2000.0).contains(&r[p].0), "{r:?}");
        }
        assert!(
            r[0].0 > r[1].0 && r[1].0 > r[2].0 && r[2].0 > r[3].0,
            "{r:?}"
        );
    }
    let differs =
        |x: &[(f64, f64)], y: &[(f64, f64)]| x.iter().zip(y).any(|(p, q)| (p.0 - q.0).abs() > 1e-6);
    assert!(differs(&one, &two) && differs(&two, &many) && differs(&one, &many));
}

#[test]
fn glicko2_idle_player_deviation_grows() {
    let mut games = vec![g(0, 1, 1.0), g(1, 2, 0.5)];
    games[1].round = 0;
    let after_one = glicko2(3, &games);
    // Rounds 1-5: only 1 and 2 play.
    for round in 1..=5 {
        games.push(GameScore {
            round,
            ..g(1, 2, 0.5)
        });
    }
    let later = glicko2(3, &games);
    assert_eq!(later[0].0, after_one[0].0);
    assert!(later[0].1 > after_one[0].1);
    assert!(later[1].1 < after_one[1].1);
}

#[test]
fn both_aggregation_methods_agree() {
    for (n, count) in [(5, 200), (40, 3000), (300, 2000)] {
        let games = random_games(n, count, n as u64);
        let dense = super::pair_results_by(n, &games, true);
        assert_eq!(super::pair_results_by(n, &games, false), dense);
        assert_eq!(pair_results(n, &games), dense);
        let total: u64 = dense.iter().map(|p| p.games).sum();
        assert_eq!(total, count as u64);
    }
}

#[test]
fn inverse_diagonal_of_a_larger_matrix() {
    // m spans several blocks and a partial one.
    let m = 75;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let b: Vec<f64> = (0..m * m).map(|_| rng.random_range(-1.0..1.0)).collect();
    // A = B B' + I.
    let mut a = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..m {
            a[i * m + j] = (0..m).map(|k| b[i * m + k] * b[j * m + k]).sum::<f64>()
                + if i == j { 1.0 } else { 0.0 };
        }
    }
    // Reference: Gauss-Jordan on [A | I].
    let mut aug: Vec<Vec<f64>> = (0..m)
        .map(|i| {
            let mut r = a[i * m..(i + 1) * m].to_vec();
            r.extend((0..m).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for c in 0..m {
        let d = aug[c][c];
        aug[c].iter_mut().for_each(|x| *x /= d);
        let pivot_row = aug[c].clone();
        for (r, row) in aug.iter_mut().enumerate() {
            if r != c {
                let f = row[c];
                row.iter_mut()
                    .zip(&pivot_row)
                    .for_each(|(x, p)| *x -= f * p);
            }
        }
    }
    let got = super::linalg::inverse_diagonal(&mut a, m).expect("positive definite");
    for i in 0..m {
        assert_close(
            got[i],
            aug[i][m + i],
            1e-9 * aug[i][m + i].abs(),
            "diagonal",
        );
    }
    // Not positive definite.
    let mut bad = vec![1.0, 2.0, 2.0, 1.0];
    assert!(super::linalg::inverse_diagonal(&mut bad, 2).is_none());
}

/// Straightforward Glicko-2, every player every period, with skillratings only.
fn reference_glicko2(n: usize, games: &[GameScore]) -> Vec<(f64, f64)> {
    use skillratings::Outcomes;
    use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};
    let mut rounds: Vec<u32> = games.iter().map(|x| x.round).collect();
    rounds.sort();
    rounds.dedup();
    let mut ratings = vec![Glicko2Rating::new(); n];
    for round in rounds {
        let start = ratings.clone();
        for (p, rating) in ratings.iter_mut().enumerate() {
            let mut mine: Vec<(usize, u8)> = Vec::new();
            for x in games.iter().filter(|x| x.round == round) {
                let hp = (2.0 * x.score_a) as u8;
                if x.a == p {
                    mine.push((x.b, hp));
                } else if x.b == p {
                    mine.push((x.a, 2 - hp));
                }
            }
            mine.sort();
            let results: Vec<(Glicko2Rating, Outcomes)> = mine
                .iter()
                .map(|&(o, hp)| {
                    let outcome = [Outcomes::LOSS, Outcomes::DRAW, Outcomes::WIN][hp as usize];
                    (start[o], outcome)
                })
                .collect();
            *rating = glicko2_rating_period(&start[p], &results, &Glicko2Config::new());
        }
    }
    ratings.iter().map(|r| (r.rating, r.deviation)).collect()
}

#[test]
fn glicko2_matches_the_straightforward_version() {
    // Sparse rounds: most players sit out most periods.
    let n = 12;
    let mut games = random_games(n, 150, 31);
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    for x in &mut games {
        x.round = rng.random_range(0..60) * 3;
    }
    let got = glicko2(n, &games);
    let want = reference_glicko2(n, &games);
    for p in 0..n {
        assert_close(got[p].0, want[p].0, 1e-9, "rating");
        assert_close(got[p].1, want[p].1, 1e-9, "deviation");
    }
}

/// A fit's ratings and 95% errors against the maximum (`theta`, in nats) and the variances a
/// reference computation found.
pub(super) fn assert_fit(est: &[EloEstimate], theta: &[f64], var: &[f64]) {
    for p in 0..theta.len() {
        assert_close(est[p].elo, theta[p] * ELO_PER_NAT, 1e-6, "elo");
        let err = 1.96 * ELO_PER_NAT * var[p].sqrt();
        assert_close(est[p].error, err, 1e-3, "error");
    }
}
