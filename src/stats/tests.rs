//! The worked examples are computed by hand in the comments, step by step, so that a reader can
//! check the arithmetic without the code; the code must then agree to many digits. The
//! cross-checks against fastchess use the numbers its own tests publish.

use super::sprt::closest_with_mean;
use super::summary::{erf, normal_cdf};
use super::*;

fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol,
        "{what}: got {got}, want {want} (± {tol})"
    );
}

fn sprt(elo0: f64, elo1: f64, model: Model) -> Sprt {
    Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap()
}

#[test]
fn erf_matches_tabulated_values() {
    // Values from Abramowitz and Stegun, table 7.1, and from the identity erf(√2) = 2Φ(2) − 1.
    for (x, want) in [
        (0.0, 0.0),
        (0.1, 0.112_462_916_018_284_9),
        (0.5, 0.520_499_877_813_046_5),
        (1.0, 0.842_700_792_949_714_9),
        (std::f64::consts::SQRT_2, 0.954_499_736_103_641_6),
        (2.0, 0.995_322_265_018_952_7),
        (2.999, 0.999_977_769_831_400_2),
        (3.0, 0.999_977_909_503_001_4),
        (4.0, 0.999_999_984_582_742_1),
        (6.0, 1.0),
    ] {
        assert_close(erf(x), want, 1e-13, &format!("erf({x})"));
        assert_close(erf(-x), -want, 1e-13, &format!("erf(-{x})"));
    }
    assert_eq!(erf(f64::INFINITY), 1.0);
    assert_eq!(erf(f64::NEG_INFINITY), -1.0);
    assert_close(normal_cdf(1.959_963_984_540_054), 0.975, 1e-15, "Φ(1.96)");
}

#[test]
fn elo_and_score_are_inverses_and_never_nan() {
    for elo in [-800.0, -100.0, 0.0, 35.0, 400.0] {
        assert_close(elo_from_score(score_from_elo(elo)), elo, 1e-9, "round trip");
    }
    // 400 Elo is 10:1 odds.
    assert_close(score_from_elo(400.0), 10.0 / 11.0, 1e-15, "400 Elo");
    assert_eq!(elo_from_score(1.0), f64::INFINITY);
    assert_eq!(elo_from_score(1.2), f64::INFINITY);
    assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    assert_eq!(elo_from_score(-0.1), f64::NEG_INFINITY);
}

#[test]
fn results_land_in_their_buckets() {
    assert_eq!(Wdl::from_score(1.0), Some(Wdl::Win));
    assert_eq!(Wdl::from_score(0.5), Some(Wdl::Draw));
    assert_eq!(Wdl::from_score(0.0), Some(Wdl::Loss));
    assert_eq!(Wdl::from_score(0.25), None);
    assert_eq!(Wdl::from_score(f64::NAN), None);

    let mut t = Trinomial::default();
    for r in [Wdl::Win, Wdl::Win, Wdl::Draw, Wdl::Loss] {
        t.record(r);
    }
    assert_eq!(t, Trinomial::new(2, 1, 1));
    assert_eq!((t.games(), t.points()), (4, 2.5));

    let mut p = Pentanomial::default();
    use Wdl::*;
    for (a, b) in [
        (Loss, Loss),
        (Loss, Draw),
        (Draw, Loss),
        (Draw, Draw),
        (Win, Loss),
        (Loss, Win),
        (Win, Draw),
        (Win, Win),
    ] {
        p.record(a, b);
    }
    assert_eq!(p, Pentanomial::new(1, 2, 3, 1, 1));
    assert_eq!((p.pairs(), p.games()), (8, 16));
}

/// 100 games: 30 wins, 50 draws, 20 losses.
///
/// Per game the score x is 1, ½ or 0 with frequencies 0.3, 0.5, 0.2.
/// - μ = 0.3·1 + 0.5·0.5 + 0.2·0 = 0.55
/// - E[x²] = 0.3·1 + 0.5·0.25 = 0.425; σ² = 0.425 − 0.55² = 0.425 − 0.3025 = 0.1225; σ = 0.35
/// - Elo = 400·log10(0.55/0.45) = 400·log10(1.2222…) = 400·0.0871502 = 34.8601
/// - standard error σ/√n = 0.35/10 = 0.035; margin 1.959964·0.035 = 0.0685987
/// - score interval [0.4814013, 0.6185987] → Elo 400·log10(0.4814013/0.5185987) = −12.9297 and
///   400·log10(0.6185987/0.3814013) = 84.0108
/// - LOS = ½(1 + erf((W − L)/√(2(W + L)))) = ½(1 + erf(10/√100)) = ½(1 + erf 1)
///   = ½·1.8427008 = 0.9213504
/// - normalized Elo = (μ − ½)/σ · 800/ln 10 = (0.05/0.35)·347.4356 = 49.6337; interval
///   (0.4814013 − 0.5)/0.35·347.4356 = −18.4625 to (0.6185987 − 0.5)/0.35·347.4356 = 117.7298
/// - draw ratio 0.5, points 40, score 0.55
#[test]
fn trinomial_worked_example_summary() {
    let games = Trinomial::new(30, 50, 20);
    let s = Summary::new(&games, None);
    assert_eq!((s.games, s.wins, s.draws, s.losses), (100, 30, 50, 20));
    assert_eq!(s.points, 55.0);
    assert_close(s.score.unwrap(), 0.55, 1e-15, "score");
    assert_close(s.draw_ratio.unwrap(), 0.5, 1e-15, "draw ratio");
    assert_eq!(s.pairs, None);
    let elo = s.elo.unwrap();
    assert_close(elo.estimate, 34.8601, 1e-4, "Elo");
    assert_close(elo.lower, -12.9297, 1e-4, "Elo lower");
    assert_close(elo.upper, 84.0108, 1e-4, "Elo upper");
    assert_close(elo.half_width(), (84.0108 + 12.9297) / 2.0, 1e-4, "±");
    assert_close(s.los.unwrap(), 0.921_350_4, 1e-7, "LOS");
    let nelo = s.normalized_elo.unwrap();
    assert_close(nelo.estimate, 49.6337, 1e-4, "nElo");
    assert_close(nelo.lower, -18.4625, 1e-4, "nElo lower");
    assert_close(nelo.upper, 117.7298, 1e-4, "nElo upper");
}

/// The same 100 games, logistic SPRT elo0 = 0 (score s0 = ½) against elo1 = 400·log10(1.5) =
/// 70.4365 (score s1 = 1/(1 + 10^(−log10 1.5)) = 1/(1 + 2/3) = 0.6).
///
/// The observed frequencies over (loss, draw, win), scores a = (0, ½, 1): p̂ = (0.2, 0.5, 0.3).
/// The most likely distribution with mean s is p_i = p̂_i/(1 + θ d_i), d_i = a_i − s, where θ
/// solves Σ p̂_i d_i/(1 + θ d_i) = 0 (for three outcomes a quadratic).
///
/// H0, s = 0.5, d = (−0.5, 0, 0.5); the draw term vanishes:
///   0.2·(−0.5)/(1 − 0.5θ) + 0.3·0.5/(1 + 0.5θ) = 0
///   ⇔ −0.1(1 + 0.5θ) + 0.15(1 − 0.5θ) = 0 ⇔ 0.05 = 0.125θ ⇔ θ = 0.4
///   p0 = (0.2/0.8, 0.5/1, 0.3/1.2) = (0.25, 0.5, 0.25)   (mean 0.5 ✓)
///
/// H1, s = 0.6, d = (−0.6, −0.1, 0.4); times (1 − 0.6θ)(1 − 0.1θ)(1 + 0.4θ):
///   −0.12(1 − 0.1θ)(1 + 0.4θ) = −0.12 − 0.036θ + 0.0048θ²
///   −0.05(1 − 0.6θ)(1 + 0.4θ) = −0.05 + 0.010θ + 0.0120θ²
///   +0.12(1 − 0.6θ)(1 − 0.1θ) = +0.12 − 0.084θ + 0.0072θ²
///   sum: 0.024θ² − 0.11θ − 0.05 = 0 ⇔ θ = (0.11 ± √(0.0121 + 0.0048))/0.048 = (0.11 ± 0.13)/0.048
///   θ must keep every 1 + θ d_i > 0, i.e. lie in (−1/0.4, −1/−0.6) = (−2.5, 1.667): θ = −5/12
///   p1 = (0.2/1.25, 0.5/(1 + 1/24), 0.3/(1 − 1/6)) = (0.16, 0.48, 0.36)   (mean 0.6 ✓)
///
/// LLR = N Σ p̂_i ln(p1_i/p0_i) = 100·(0.2 ln 0.64 + 0.5 ln 0.96 + 0.3 ln 1.44)
///     = 100·(0.2·(−0.4462871) + 0.5·(−0.0408220) + 0.3·0.3646431)
///     = 100·(−0.0892574 − 0.0204110 + 0.1093929) = −0.0275484
/// Nearly 0, as it should be: the observed 0.55 lies midway between the hypotheses.
///
/// With elo1 = 400·log10(0.55/0.45) = 34.8601 instead (s1 = 0.55, the observed mean), θ1 = 0 and
/// p1 = p̂: LLR = 100·(0.2 ln(0.2/0.25) + 0.5 ln 1 + 0.3 ln(0.3/0.25))
///     = 100·(0.2·(−0.2231436) + 0.3·0.1823216) = 100·0.0100678 = 1.00678.
///
/// The GSPRT approximation N (s1 − s0)(2μ̂ − s0 − s1)/(2σ̂²) gives 0 for the first and
/// 100·0.05·0.05/0.245 = 1.0204 for the second.
#[test]
fn trinomial_worked_example_llr() {
    let games = Trinomial::new(30, 50, 20);
    let observed = [0.2, 0.5, 0.3];
    let scores = [0.0, 0.5, 1.0];
    for (got, want) in closest_with_mean(&scores, &observed, 0.5)
        .iter()
        .zip([0.25, 0.5, 0.25])
    {
        assert_close(*got, want, 1e-12, "p0");
    }
    for (got, want) in closest_with_mean(&scores, &observed, 0.6)
        .iter()
        .zip([0.16, 0.48, 0.36])
    {
        assert_close(*got, want, 1e-12, "p1");
    }
    let elo1 = 400.0 * 1.5f64.log10();
    let llr = sprt(0.0, elo1, Model::Logistic).llr(&games);
    assert_close(llr, -0.027_548_4, 1e-7, "LLR (0, 70.44)");
    let elo1 = 400.0 * (0.55f64 / 0.45).log10();
    let llr = sprt(0.0, elo1, Model::Logistic).llr(&games);
    assert_close(llr, 1.006_78, 1e-5, "LLR (0, 34.86)");
    assert_close(llr, 1.0204, 0.02, "close to the GSPRT approximation");
}

/// 100 game pairs: LL 3, LD 20, DD/WL 44, WD 20, WW 13; their 200 games (30 of the 44 DD/WL
/// pairs two draws, 14 a win and a loss): W = 14 + 20 + 2·13 = 60, D = 20 + 2·30 + 20 = 100,
/// L = 2·3 + 20 + 14 = 40.
///
/// Per pair the mean score per game x is 0, ¼, ½, ¾, 1 with frequencies 0.03, 0.20, 0.44, 0.20,
/// 0.13.
/// - μ = 0.20·0.25 + 0.44·0.5 + 0.20·0.75 + 0.13 = 0.05 + 0.22 + 0.15 + 0.13 = 0.55
///   (= 110 points / 200 games ✓)
/// - E[x²] = 0.20·0.0625 + 0.44·0.25 + 0.20·0.5625 + 0.13 = 0.0125 + 0.11 + 0.1125 + 0.13 = 0.365
///   σ² = 0.365 − 0.3025 = 0.0625; σ = 0.25 (of a pair's mean score per game)
/// - Elo = 400·log10(0.55/0.45) = 34.8601
/// - standard error σ/√n = 0.25/10 = 0.025; margin 1.959964·0.025 = 0.0489991
/// - score interval [0.5010009, 0.5989991] → Elo 400·log10(0.5010009/0.4989991) = 0.6955 and
///   400·log10(0.5989991/0.4010009) = 69.7123
/// - LOS = Φ((μ − ½)/(σ/√n)) = Φ(0.05/0.025) = Φ(2) = ½(1 + erf(2/√2)) = ½·1.9544997 = 0.9772499
/// - normalized Elo = (μ − ½)/(σ√2) · 800/ln 10 = 0.05/0.3535534·347.4356 = 49.1348; interval
///   0.0010009/0.3535534·347.4356 = 0.9836 to 0.0989991/0.3535534·347.4356 = 97.2860
#[test]
fn pentanomial_worked_example_summary() {
    let pairs = Pentanomial::new(3, 20, 44, 20, 13);
    let games = Trinomial::new(60, 100, 40);
    let s = Summary::new(&games, Some(&pairs));
    assert_eq!((s.games, s.wins, s.draws, s.losses), (200, 60, 100, 40));
    assert_close(s.score.unwrap(), 0.55, 1e-15, "score");
    assert_close(s.draw_ratio.unwrap(), 0.5, 1e-15, "draw ratio");
    assert_eq!(s.pairs, Some(pairs));
    let elo = s.elo.unwrap();
    assert_close(elo.estimate, 34.8601, 1e-4, "Elo");
    assert_close(elo.lower, 0.6955, 1e-4, "Elo lower");
    assert_close(elo.upper, 69.7123, 1e-4, "Elo upper");
    assert_close(s.los.unwrap(), 0.977_249_9, 1e-7, "LOS");
    let nelo = s.normalized_elo.unwrap();
    assert_close(nelo.estimate, 49.1348, 1e-4, "nElo");
    assert_close(nelo.lower, 0.9836, 1e-4, "nElo lower");
    assert_close(nelo.upper, 97.2860, 1e-4, "nElo upper");
}

/// The same 100 pairs, logistic SPRT elo0 = 0 (s0 = 0.5), elo1 = 10
/// (s1 = 1/(1 + 10^(−10/400)) = 1/(1 + 0.9440609) = 0.5143872).
///
/// The exact maximum-likelihood LLR needs a quartic here, so the hand check is the GSPRT
/// approximation, which the exact value must come within 2% of with hypotheses this near
/// (it is 0.99856; the games' 0.49404):
///   LLR ≈ N (s1 − s0)(2μ̂ − s0 − s1)/(2σ̂²)
///       = 100·0.0143872·(1.1 − 1.0143872)/(2·0.0625) = 100·0.0143872·0.0856128/0.125 = 0.98538
/// The pairs count twice over what the 200 games would count as single games:
///   100 games' trinomial approximation: 100·0.0143872·0.0856128/0.245 = 0.50275, the same
///   means with σ̂² = 0.1225.
#[test]
fn pentanomial_worked_example_llr() {
    let pairs = Pentanomial::new(3, 20, 44, 20, 13);
    let test = sprt(0.0, 10.0, Model::Logistic);
    assert_close(test.llr(&pairs), 0.98538, 0.02 * 0.98538, "LLR of pairs");
    let games = Trinomial::new(30, 50, 20);
    assert_close(test.llr(&games), 0.50275, 0.02 * 0.50275, "LLR of games");
}

/// fastchess's published values (app/tests/sprt_test.cpp in github.com/Disservin/fastchess,
/// checked there to 1%): `Stats(wins, losses, draws)` and `Stats(ll, ld, wl, dd, wd, ww)`.
/// Left out: its two degenerate cases, 16700 draws (2.97) and 104 WW pairs (2.94), normalized
/// elo0 = 0, elo1 = 5. They rest on the 0.001 stand-in counts alone, and the first cannot be right
/// under the method itself: all draws fit H0 (score ½, normalized Elo 0) exactly, so p0 = p̂ and
/// the LLR is −N·KL(p̂‖p1) ≤ 0 (we get −3.45; for the pairs, 2.09, which an independent
/// re-implementation of the same iteration reproduces).
#[test]
fn llr_matches_fastchess_tests() {
    use Model::{Logistic, Normalized};
    let check = |got: f64, want: f64, what: &str| {
        assert_close(got, want, 0.01 * want.abs() + 0.005, what);
    };
    // Stats(wins, losses, draws)
    for (model, elo0, elo1, (w, l, d), want) in [
        (Normalized, 0.0, 2.0, (36433, 36027, 68692), 0.92),
        (Normalized, -1.75, 0.25, (10871, 10650, 20431), 2.30),
        (Logistic, 0.5, 2.5, (21404, 21184, 40708), -1.57),
        (Logistic, 0.0, 2.0, (57433, 57030, 106593), -2.59),
    ] {
        let got = sprt(elo0, elo1, model).llr(&Trinomial::new(w, d, l));
        check(got, want, &format!("{model:?} {w} {l} {d}"));
    }
    // Stats(ll, ld, wl, dd, wd, ww)
    for (model, elo0, elo1, (ll, ld, wl, dd, wd, ww), want) in [
        (
            Normalized,
            0.0,
            2.0,
            (365, 16618, 36029, 200, 16974, 390),
            2.25,
        ),
        (
            Normalized,
            -1.75,
            0.25,
            (127, 4883, 10311, 401, 5150, 104),
            3.01,
        ),
        (
            Logistic,
            0.5,
            2.5,
            (223, 9863, 20279, 1000, 10037, 246),
            -3.07,
        ),
        (
            Logistic,
            0.0,
            2.0,
            (871, 26175, 55003, 980, 26678, 821),
            -4.98,
        ),
    ] {
        let got = sprt(elo0, elo1, model).llr(&Pentanomial::new(ll, ld, wl + dd, wd, ww));
        check(
            got,
            want,
            &format!("{model:?} {ll} {ld} {wl} {dd} {wd} {ww}"),
        );
    }
}

/// fastchess's published Elo figures (app/tests/elo_test.cpp in github.com/Disservin/fastchess):
/// "EloWDL 2" and "EloPentanomial 1" and "2", where fastchess's error is our half-width.
#[test]
fn summary_matches_fastchess_tests() {
    // Stats(136 wins, 96 losses, 111 draws)
    let s = Summary::new(&Trinomial::new(136, 111, 96), None);
    let (elo, nelo) = (s.elo.unwrap(), s.normalized_elo.unwrap());
    assert_close(elo.estimate, 40.70, 0.01, "Elo");
    assert_close(elo.half_width(), 30.43, 0.01, "Elo ±");
    assert_close(nelo.estimate, 49.77, 0.01, "nElo");
    assert_close(nelo.half_width(), 36.77, 0.01, "nElo ±");
    // fastchess prints LOS 99.60 % here, from the score's mean and variance; over games we use
    // cutechess-cli's Φ((W − L)/√(W + L)) = Φ(40/√232) = Φ(2.6261) = 0.99568.
    assert_close(s.los.unwrap(), 0.99568, 0.00001, "LOS");

    // Stats(ll 34, ld 54, wl 31, dd 32, wd 64, ww 75)
    let p = Pentanomial::new(34, 54, 31 + 32, 64, 75);
    let s = Summary::new(&Trinomial::default(), Some(&p));
    let (elo, nelo) = (s.elo.unwrap(), s.normalized_elo.unwrap());
    assert_close(elo.estimate, 55.58, 0.01, "penta Elo");
    assert_close(elo.half_width(), 27.65, 0.01, "penta Elo ±");
    assert_close(nelo.estimate, 57.94, 0.01, "penta nElo");
    assert_close(nelo.half_width(), 28.28, 0.01, "penta nElo ±");
    assert!(s.los.unwrap() > 0.99995, "LOS 100.00 %");
    // Stats(332, 433, 457, 41, 333, 334)
    let p = Pentanomial::new(332, 433, 457 + 41, 333, 334);
    let s = Summary::new(&Trinomial::default(), Some(&p));
    let (elo, nelo) = (s.elo.unwrap(), s.normalized_elo.unwrap());
    assert_close(elo.estimate, -8.64, 0.01, "penta Elo");
    assert_close(elo.half_width(), 10.33, 0.01, "penta Elo ±");
    assert_close(nelo.estimate, -9.17, 0.01, "penta nElo");
    assert_close(nelo.half_width(), 10.96, 0.01, "penta nElo ±");
    assert_close(s.los.unwrap(), 0.0505, 0.00005, "penta LOS");
}

#[test]
fn bounds_are_walds() {
    let (lower, upper) = sprt(0.0, 5.0, Model::Logistic).bounds();
    // ln(0.05/0.95) = −2.944439, ln(0.95/0.05) = 2.944439
    assert_close(lower, -2.944_439, 1e-6, "lower");
    assert_close(upper, 2.944_439, 1e-6, "upper");
    let test = Sprt::new(0.0, 5.0, 0.1, 0.2, Model::Logistic).unwrap();
    let (lower, upper) = test.bounds();
    assert_close(lower, (0.2f64 / 0.9).ln(), 1e-12, "lower");
    assert_close(upper, (0.8f64 / 0.1).ln(), 1e-12, "upper");
    assert_eq!(test.verdict(upper), Some(Verdict::H1));
    assert_eq!(test.verdict(upper + 1.0), Some(Verdict::H1));
    assert_eq!(test.verdict(lower), Some(Verdict::H0));
    assert_eq!(test.verdict(lower - 1.0), Some(Verdict::H0));
    assert_eq!(test.verdict(0.0), None);
    assert_eq!(test.verdict((lower + upper) / 2.0), None);
}

/// A sample that scores exactly elo1's score, or elo0's: the LLR leans towards that hypothesis,
/// in proportion to the sample's size (the frequencies, hence the per-observation term, stay the
/// same), until the bound is crossed. (For the normalized model the sample at 60% is about 93
/// normalized Elo, beyond elo1, so it leans the same way.)
#[test]
fn llr_leans_towards_the_hypothesis_the_sample_fits() {
    let elo1 = 400.0 * 1.5f64.log10(); // s1 = 0.6
    for model in [Model::Logistic, Model::Normalized] {
        let test = sprt(0.0, elo1, model);
        let (mut last_h1, mut last_h0) = (0.0, 0.0);
        for k in [1, 2, 4, 8, 16, 32, 64] {
            // Score 0.6: 4k wins, 4k draws, 2k losses; score 0.5: 3k, 4k, 3k.
            let at_h1 = test.llr(&Trinomial::new(4 * k, 4 * k, 2 * k));
            let at_h0 = test.llr(&Trinomial::new(3 * k, 4 * k, 3 * k));
            assert!(
                at_h1 > last_h1 && at_h0 < last_h0,
                "{model:?} k={k}: {at_h1} {at_h0}"
            );
            if k > 1 {
                assert_close(at_h1, 2.0 * last_h1, 1e-6 * at_h1.abs(), "linear in n");
                assert_close(at_h0, 2.0 * last_h0, 1e-6 * at_h0.abs(), "linear in n");
            }
            (last_h1, last_h0) = (at_h1, at_h0);
        }
        assert_eq!(test.verdict(last_h1), Some(Verdict::H1), "{model:?}");
        assert_eq!(test.verdict(last_h0), Some(Verdict::H0), "{model:?}");

        // Pairs: LL 10, LD 10, DD/WL 30, WD 30, WW 20 score (2.5 + 15 + 22.5 + 20)/100 = 0.6;
        // LL 10, LD 20, DD/WL 40, WD 20, WW 10 score 0.5.
        let at_h1 = test.llr(&Pentanomial::new(10, 10, 30, 30, 20));
        let at_h0 = test.llr(&Pentanomial::new(10, 20, 40, 20, 10));
        assert!(
            at_h1 > 0.0 && at_h0 < 0.0,
            "{model:?} pairs: {at_h1} {at_h0}"
        );
        let bigger = test.llr(&Pentanomial::new(20, 20, 60, 60, 40));
        assert_close(bigger, 2.0 * at_h1, 1e-6 * bigger.abs(), "linear in n");
    }
}

#[test]
fn parse_reads_every_key_and_defaults() {
    let s = Sprt::parse("elo0=0,elo1=5,alpha=0.05,beta=0.1").unwrap();
    assert_eq!(
        (s.elo0(), s.elo1(), s.alpha(), s.beta(), s.model()),
        (0.0, 5.0, 0.05, 0.1, Model::Logistic)
    );
    let s = Sprt::parse(" elo1 = 2.5 , elo0=-1.5, model=normalized").unwrap();
    assert_eq!(
        (s.elo0(), s.elo1(), s.alpha(), s.beta(), s.model()),
        (-1.5, 2.5, 0.05, 0.05, Model::Normalized)
    );
    assert_eq!(
        "elo0=0,elo1=5,model=logistic"
            .parse::<Sprt>()
            .unwrap()
            .model(),
        Model::Logistic
    );
}

#[test]
fn parse_errors_name_the_fault() {
    for (text, words) in [
        ("elo0=0,elo1=5,gamma=0.1", &["gamma"][..]),
        ("elo0=0,elo1=five", &["elo1", "five", "not a number"]),
        ("elo0=0,elo1", &["elo1", "key=value"]),
        ("elo0=0", &["elo1", "missing"]),
        ("elo1=5", &["elo0", "missing"]),
        ("", &["key=value"]),
        ("elo0=0,elo1=5,elo0=1", &["elo0", "twice"]),
        ("elo0=5,elo1=0", &["elo0=5", "elo1=0", "less than"]),
        ("elo0=5,elo1=5", &["less than"]),
        ("elo0=0,elo1=5,alpha=0.5", &["alpha=0.5"]),
        ("elo0=0,elo1=5,beta=0", &["beta=0"]),
        ("elo0=0,elo1=5,beta=-0.1", &["beta=-0.1"]),
        ("elo0=0,elo1=5,alpha=NaN", &["alpha=NaN"]),
        ("elo0=0,elo1=inf", &["elo1=inf"]),
        ("elo0=-2000,elo1=5", &["elo0=-2000"]),
        (
            "elo0=0,elo1=5,model=bayesian",
            &["model", "bayesian", "logistic or normalized"],
        ),
    ] {
        let err = Sprt::parse(text).expect_err(text).to_string();
        for w in words {
            assert!(err.contains(w), "{text:?}: {err:?} lacks {w:?}");
        }
    }
}

fn assert_summary_has_no_nan(s: &Summary, what: &str) {
    let mut numbers = vec![s.points];
    numbers.extend(s.score);
    numbers.extend(s.draw_ratio);
    numbers.extend(s.los);
    for i in s.elo.iter().chain(&s.normalized_elo) {
        numbers.extend([i.estimate, i.lower, i.upper]);
        assert!(
            i.lower <= i.estimate && i.estimate <= i.upper,
            "{what}: {i:?}"
        );
    }
    assert!(numbers.iter().all(|x| !x.is_nan()), "{what}: {s:?}");
}

/// No games, all wins, all losses, all draws, a single game: never NaN, never a panic, and an
/// honest "unknown" where the sample cannot tell.
#[test]
fn degenerate_samples_give_honest_figures() {
    let empty = Summary::new(&Trinomial::default(), None);
    assert_eq!(
        (empty.score, empty.draw_ratio, empty.elo, empty.los),
        (None, None, None, None)
    );
    assert_eq!(empty.normalized_elo, None);
    let empty = Summary::new(&Trinomial::default(), Some(&Pentanomial::default()));
    assert_eq!(
        (empty.elo, empty.normalized_elo, empty.los),
        (None, None, None)
    );

    // All wins: Elo +inf, and the zero variance tells nothing about the error.
    let s = Summary::new(&Trinomial::new(10, 0, 0), None);
    let elo = s.elo.unwrap();
    assert_eq!(
        (elo.estimate, elo.lower, elo.upper),
        (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY)
    );
    assert_eq!(s.normalized_elo, None);
    // ½(1 + erf(10/√20)): strong but not certain.
    assert_close(
        s.los.unwrap(),
        normal_cdf(10f64.sqrt()),
        1e-15,
        "LOS of 10 wins",
    );
    assert!(s.los.unwrap() < 1.0);
    let s = Summary::new(&Trinomial::new(0, 0, 3), None);
    assert_eq!(s.elo.unwrap().estimate, f64::NEG_INFINITY);
    // All draws: Elo 0, error unknown, no evidence of superiority.
    let s = Summary::new(&Trinomial::new(0, 7, 0), None);
    let elo = s.elo.unwrap();
    assert_eq!(
        (elo.estimate, elo.lower, elo.upper),
        (0.0, f64::NEG_INFINITY, f64::INFINITY)
    );
    assert_eq!(s.los, None);
    // Pairs all won: no variance, no LOS.
    let s = Summary::new(
        &Trinomial::new(8, 0, 0),
        Some(&Pentanomial::new(0, 0, 0, 0, 4)),
    );
    assert_eq!(s.elo.unwrap().estimate, f64::INFINITY);
    assert_eq!((s.los, s.normalized_elo), (None, None));
    // An interval reaching past 100%: its upper end is unbounded.
    let s = Summary::new(&Trinomial::new(3, 0, 1), None);
    let elo = s.elo.unwrap();
    assert!(
        elo.estimate.is_finite() && elo.upper == f64::INFINITY,
        "{elo:?}"
    );

    let samples_t = [
        (0, 0, 0),
        (1, 0, 0),
        (0, 1, 0),
        (0, 0, 1),
        (5, 0, 0),
        (0, 0, 5),
        (0, 9, 0),
        (3, 0, 1),
        (1, 1, 1),
    ];
    let samples_p = [
        (0, 0, 0, 0, 0),
        (1, 0, 0, 0, 0),
        (0, 0, 1, 0, 0),
        (0, 0, 0, 0, 1),
        (0, 0, 0, 0, 50),
        (50, 0, 0, 0, 0),
        (0, 0, 50, 0, 0),
        (0, 1, 0, 1, 0),
        (1, 1, 1, 1, 1),
    ];
    let tests: Vec<Sprt> = [
        (-1000.0, 1000.0),
        (0.0, 5.0),
        (-5.0, 0.0),
        (990.0, 1000.0),
        (-1000.0, -990.0),
    ]
    .into_iter()
    .flat_map(|(a, b)| [sprt(a, b, Model::Logistic), sprt(a, b, Model::Normalized)])
    .collect();
    for (w, d, l) in samples_t {
        let t = Trinomial::new(w, d, l);
        assert_summary_has_no_nan(&Summary::new(&t, None), &format!("{t:?}"));
        for test in &tests {
            assert!(test.llr(&t).is_finite(), "{test:?} {t:?}");
        }
    }
    for (a, b, c, d, e) in samples_p {
        let p = Pentanomial::new(a, b, c, d, e);
        assert_summary_has_no_nan(
            &Summary::new(&Trinomial::default(), Some(&p)),
            &format!("{p:?}"),
        );
        for test in &tests {
            assert!(test.llr(&p).is_finite(), "{test:?} {p:?}");
        }
    }
    assert_eq!(
        sprt(0.0, 5.0, Model::Logistic).llr(&Trinomial::default()),
        0.0
    );
    assert_eq!(
        sprt(0.0, 5.0, Model::Normalized).llr(&Pentanomial::default()),
        0.0
    );
}

/// Random samples of every size, for both models: the LLR is finite, and where the GSPRT
/// approximation applies (hypotheses close together, enough games) the two agree.
#[test]
fn llr_is_finite_and_near_the_approximation_on_random_samples() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |m: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % m
    };
    for _ in 0..300 {
        let t = Trinomial::new(next(2000), next(2000), next(2000));
        // Close to 50%, where the approximation holds: losses within 2% of wins.
        let (w, d) = (500 + next(2000), next(2000));
        let near = Trinomial::new(w, d, w + next(w / 25) - w / 50);
        let p = Pentanomial::new(next(500), next(500), next(500), next(500), next(500));
        for model in [Model::Logistic, Model::Normalized] {
            let test = sprt(-3.0, 3.0, model);
            let (lt, lp) = (test.llr(&t), test.llr(&p));
            assert!(lt.is_finite() && lp.is_finite(), "{t:?} {p:?}");
        }
        // Logistic against the approximation.
        let test = sprt(-3.0, 3.0, Model::Logistic);
        let (n, mean, var) = super::moments(&near).unwrap();
        let (s0, s1) = (score_from_elo(-3.0), score_from_elo(3.0));
        let approx = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        let exact = test.llr(&near);
        assert_close(
            exact,
            approx,
            0.02 * approx.abs() + 0.01,
            &format!("{near:?}"),
        );
    }
}
