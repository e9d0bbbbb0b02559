//! The evaluation as the search reads it: the evaluator's score, damped by
//! the fifty-move clock and scaled by the material left (both off at their
//! defaults). Applied where the search evaluates, so the table's stored
//! evaluation, the correction histories and every margin see the same number.

use super::params::{eval_fifty_pct, eval_material_pct};
use super::score::Score;
use crate::board::Board;
use crate::eval::wdl::{MATERIAL_MAX as START_MATERIAL, material};

/// The plies of the fifty-move rule.
const FIFTY_PLIES: i64 = 100;

/// `eval` as the search uses it in `board`.
pub fn scaled(eval: Score, board: &Board) -> Score {
    let (fifty, mat) = (eval_fifty_pct(), eval_material_pct());
    if fifty == 0 && mat == 0 {
        return eval;
    }
    scale(
        eval,
        board.halfmove_clock() as i64,
        material(board) as i64,
        fifty,
        mat,
    )
}

/// `eval` shrunk by `fifty_pct` percent at `clock` 100 (in proportion
/// below) and by `material_pct` percent with no material left (in
/// proportion to the material gone).
fn scale(eval: Score, clock: i64, material: i64, fifty_pct: i32, material_pct: i32) -> Score {
    let clock = clock.min(FIFTY_PLIES);
    let start = START_MATERIAL as i64;
    let gone = start - material.min(start);
    let fifty = 100 * FIFTY_PLIES - fifty_pct as i64 * clock; // of 100 * 100
    let mat = 100 * start - material_pct as i64 * gone; // of 100 * 78
    let whole = 100 * FIFTY_PLIES * 100 * start;
    let scaled = eval as i64 * fifty * mat / whole;
    debug_assert!(scaled.abs() <= (eval as i64).abs());
    scaled as Score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_changes_nothing() {
        for eval in [-2000, -1, 0, 1, 350] {
            assert_eq!(scale(eval, 99, 10, 0, 0), eval);
        }
    }

    #[test]
    fn fifty_damping_grows_with_the_clock() {
        assert_eq!(scale(400, 0, 78, 50, 0), 400);
        assert_eq!(scale(400, 50, 78, 50, 0), 300);
        assert_eq!(scale(400, 100, 78, 50, 0), 200);
        assert_eq!(scale(-400, 100, 78, 50, 0), -200);
        // Beyond the rule's 100 plies (a game that reached it) no further.
        assert_eq!(scale(400, 150, 78, 50, 0), 200);
    }

    #[test]
    fn material_scaling_shrinks_as_material_goes() {
        assert_eq!(scale(780, 0, 78, 0, 50), 780);
        assert_eq!(scale(780, 0, 39, 0, 50), 585);
        assert_eq!(scale(780, 0, 0, 0, 50), 390);
        // Promotions can lift the material above the start's: no growth.
        assert_eq!(scale(780, 0, 90, 0, 50), 780);
    }

    #[test]
    fn both_multiply() {
        assert_eq!(scale(1000, 100, 0, 50, 50), 250);
    }

    #[test]
    fn material_counts_pieces_by_their_pawn_values() {
        let start = Board::default();
        assert_eq!(material(&start), START_MATERIAL);
        let kqk: Board = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1".parse().unwrap();
        assert_eq!(material(&kqk), 9);
        let krbnp: Board = "8/8/8/4k3/8/8/P7/KRBN4 w - - 0 1".parse().unwrap();
        assert_eq!(material(&krbnp), 12);
    }
}
