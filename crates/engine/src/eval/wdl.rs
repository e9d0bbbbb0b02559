//! Win/draw/loss chances of a search score, for `UCI_ShowWDL`, and the
//! normalised scale the engine prints its scores in.
//!
//! As in Stockfish's win-rate model: the side to move wins with probability
//! `1 / (1 + exp((a - s) / b))` for a score of `s` centipawns, loses with the
//! same function of `-s`, and draws otherwise. `a` (the score of an even
//! chance to win) and `b` (how fast the chance grows) depend on the material
//! left, as cubics in `58 / material` (Stockfish's are in `material / 58`;
//! the inverse follows the steep rise of `a` in endgames and fitted
//! Cutoff's games better). The constants are fitted to Cutoff's own
//! self-play games by `cutoff train wdl` (docs/wdl.md).

use crate::board::{Board, Piece};

/// Material is clamped to this range: below 10 the results are erratic
/// and a lower clamp fitted worse, as did a higher one (docs/wdl.md).
pub const MATERIAL_MIN: i32 = 10;
pub const MATERIAL_MAX: i32 = 78;
/// The cubics' variable is `58 / material` (78 is a full board).
pub const MATERIAL_NORM: i32 = 58;

/// The material at which a normalised score is read: there `x = 1`, so
/// `a` is the sum of its coefficients, and it is the middlegame material
/// at which Stockfish reads its own model too.
pub const NORMAL_MATERIAL: i32 = MATERIAL_NORM;

/// Pawn units per piece type (the king counts nothing).
pub const PIECE_VALUE: [i32; 6] = [1, 3, 3, 5, 9, 0];

/// Material on the board, both sides: pawn 1, knight and bishop 3, rook 5,
/// queen 9 (78 at the start).
pub fn material(board: &Board) -> i32 {
    Piece::ALL
        .iter()
        .map(|&p| PIECE_VALUE[p as usize] * board.pieces(p).len() as i32)
        .sum()
}

/// The model: `a` and `b` in centipawns as cubics in `x = 58 / material`,
/// coefficients of `x^0, x^1, x^2, x^3`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    pub a: [f64; 4],
    pub b: [f64; 4],
}

/// Fitted by `cutoff train wdl` on 262,481 positions of generation-1
/// self-play, played with the network as the engine plays by default
/// (docs/wdl.md).
pub const FITTED: Model = Model {
    a: [-13.85, 161.75, -54.68, 7.05],
    b: [97.26, 23.86, -19.97, 3.28],
};

/// The cubics' variable for a material count (clamped to the range).
pub fn variable(material: i32) -> f64 {
    let m = material.clamp(MATERIAL_MIN, MATERIAL_MAX);
    f64::from(MATERIAL_NORM) / f64::from(m)
}

fn cubic(c: &[f64; 4], x: f64) -> f64 {
    ((c[3] * x + c[2]) * x + c[1]) * x + c[0]
}

impl Model {
    /// `a` and `b` at this much material. `a >= 0` keeps the draw chance
    /// non-negative, `b >= 1` the curve finite.
    pub fn params(&self, material: i32) -> (f64, f64) {
        let x = variable(material);
        (cubic(&self.a, x).max(0.0), cubic(&self.b, x).max(1.0))
    }

    /// Raw centipawns worth 100 normalised ones: `a` at `NORMAL_MATERIAL`,
    /// the score at which the side to move wins as often as not.
    pub fn pawn(&self) -> f64 {
        self.params(NORMAL_MATERIAL).0
    }

    /// A raw score in normalised centipawns: `100 * raw / pawn()`, rounded
    /// to the nearest. So a printed +100 is a 50 % chance to win at
    /// material 58, whatever the network's own scale.
    pub fn normalise(&self, raw: i32) -> i32 {
        (100.0 * f64::from(raw) / self.pawn()).round() as i32
    }

    /// Normalised centipawns as raw ones (the inverse of `normalise`,
    /// rounded to the nearest).
    pub fn raw(&self, normalised: i32) -> i32 {
        (f64::from(normalised) * self.pawn() / 100.0).round() as i32
    }

    /// The chance that the side to move wins with a score of `cp`.
    pub fn win(&self, cp: f64, material: i32) -> f64 {
        let (a, b) = self.params(material);
        1.0 / (1.0 + ((a - cp) / b).exp())
    }

    /// Win, draw and loss chances of the side to move.
    pub fn probabilities(&self, cp: f64, material: i32) -> [f64; 3] {
        let win = self.win(cp, material);
        let loss = self.win(-cp, material);
        [win, (1.0 - win - loss).max(0.0), loss]
    }

    /// The chances per mille, summing to exactly 1000.
    pub fn per_mille(&self, cp: i32, material: i32) -> Wdl {
        let cp = f64::from(cp);
        let win = (1000.0 * self.win(cp, material)).round() as u32;
        let loss = (1000.0 * self.win(-cp, material)).round() as u32;
        let loss = loss.min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

/// Win, draw and loss chances of the side to move, per mille.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

impl Wdl {
    pub const WIN: Wdl = Wdl {
        win: 1000,
        draw: 0,
        loss: 0,
    };
    pub const DRAW: Wdl = Wdl {
        win: 0,
        draw: 1000,
        loss: 0,
    };
    pub const LOSS: Wdl = Wdl {
        win: 0,
        draw: 0,
        loss: 1000,
    };
}

/// The chances of a score of `cp` centipawns with `material` on the board.
pub fn of_cp(cp: i32, material: i32) -> Wdl {
    FITTED.per_mille(cp, material)
}

/// A raw score in the normalised centipawns users read (`Model::normalise`
/// of the fitted model).
pub fn normalise(raw: i32) -> i32 {
    FITTED.normalise(raw)
}

/// Normalised centipawns (an option's, such as `Contempt`) as raw ones.
pub fn raw(normalised: i32) -> i32 {
    FITTED.raw(normalised)
}

/// A mate in `moves` (UCI's `mate N`: negative or 0 when being mated) is
/// certain.
pub fn of_mate(moves: i32) -> Wdl {
    if moves > 0 { Wdl::WIN } else { Wdl::LOSS }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen::parse_fen;

    const MATERIALS: [i32; 6] = [0, 17, 30, 45, 58, 100];

    #[test]
    fn sums_to_1000_and_is_symmetric() {
        for m in MATERIALS {
            for cp in (-3000..=3000).chain([i32::MIN + 1, -29_000, 29_000, i32::MAX]) {
                let w = of_cp(cp, m);
                assert_eq!(w.win + w.draw + w.loss, 1000, "{cp} {m}");
                let other = of_cp(-cp, m);
                assert_eq!((w.win, w.draw, w.loss), (other.loss, other.draw, other.win));
            }
        }
    }

    #[test]
    fn monotone_in_the_score() {
        for m in MATERIALS {
            let mut last = of_cp(-3000, m);
            assert_eq!(last, Wdl::LOSS, "a lost score at material {m}");
            for cp in -2999..=3000 {
                let w = of_cp(cp, m);
                assert!(w.win >= last.win && w.loss <= last.loss, "{cp} {m}");
                last = w;
            }
            assert_eq!(last, Wdl::WIN);
            let even = of_cp(0, m);
            assert!(even.draw > even.win && even.win == even.loss, "{even:?}");
        }
    }

    #[test]
    fn the_fitted_curves_are_sane_over_the_material_range() {
        for m in MATERIAL_MIN..=MATERIAL_MAX {
            let (a, b) = FITTED.params(m);
            assert!((20.0..1000.0).contains(&a) && (10.0..1000.0).contains(&b));
        }
    }

    #[test]
    fn normalising_divides_by_a_at_material_58() {
        let pawn: f64 = FITTED.a.iter().sum();
        assert!((FITTED.pawn() - pawn).abs() < 1e-9);
        assert!((FITTED.win(FITTED.pawn(), 58) - 0.5).abs() < 1e-9);
        for raw in [-2000, -250, -101, -1, 0, 1, 50, 100, 101, 417, 1196, 29_000] {
            let want = (100.0 * f64::from(raw) / pawn).round() as i32;
            assert_eq!(normalise(raw), want, "{raw}");
            assert_eq!(normalise(-raw), -want, "{raw}");
        }
        // With a(58) = 100.27: 1000 raw are 997 normalised, 100 stay 100.
        assert_eq!((normalise(100), normalise(1000)), (100, 997));
        for cp in -300..=300 {
            assert_eq!(normalise(raw(cp)), cp, "{cp}");
        }
    }

    #[test]
    fn mates_are_certain() {
        assert_eq!(of_mate(1), Wdl::WIN);
        assert_eq!(of_mate(12), Wdl::WIN);
        assert_eq!(of_mate(-3), Wdl::LOSS);
        assert_eq!(of_mate(0), Wdl::LOSS);
    }

    #[test]
    fn material_counts_both_sides() {
        let start = parse_fen(crate::board::STARTPOS).expect("start");
        assert_eq!(material(&start), 78);
        let kr = parse_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1").expect("KRK");
        assert_eq!(material(&kr), 5);
    }
}
