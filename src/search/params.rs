//! Every search number in one place, grouped by technique, each with why it
//! is there. The code using them is in the technique's file; the on/off
//! switches are in `config`. Values are the usual starting points of the
//! literature (Stockfish, Ethereal), to be tuned by matches.

use super::score::Score;

// --- Scale of the evaluation margins ---

/// Percent applied to every margin below that is measured against the
/// evaluation (razoring, reverse futility, null-move eval divisor, ProbCut,
/// futility, delta, aspiration), so that they can be checked on another
/// evaluation's scale: `CUTOFF_MARGIN_PERCENT=80 cargo build --release`
/// gives a build with them all at 80% (`tools/margin_screen.sh`). Default 100.
/// SEE thresholds are in piece values, not evaluation, and the singular
/// margins (3 cp a ply) are too small to scale in whole centipawns.
pub const MARGIN_PERCENT: Score = match option_env!("CUTOFF_MARGIN_PERCENT") {
    Some(text) => parse_percent(text),
    None => 100,
};

/// A margin of `cp` centipawns at `MARGIN_PERCENT`.
const fn scaled(cp: Score) -> Score {
    cp * MARGIN_PERCENT / 100
}

/// A decimal percentage from 1 to 1000, checked when compiling.
const fn parse_percent(text: &str) -> Score {
    let bytes = text.as_bytes();
    assert!(
        !bytes.is_empty() && bytes.len() <= 4,
        "CUTOFF_MARGIN_PERCENT: 1 to 1000"
    );
    let mut value = 0;
    let mut i = 0;
    while i < bytes.len() {
        assert!(
            bytes[i].is_ascii_digit(),
            "CUTOFF_MARGIN_PERCENT: digits only"
        );
        value = value * 10 + (bytes[i] - b'0') as Score;
        i += 1;
    }
    assert!(
        value >= 1 && value <= 1000,
        "CUTOFF_MARGIN_PERCENT: 1 to 1000"
    );
    value
}

// --- Node-level pruning (pruning.rs) ---

// Reverse futility pruning (static null move): at shallow depth, a static
// evaluation far above beta is unlikely to drop below it within `depth` plies.
pub const RFP_MAX_DEPTH: i32 = 8;
pub const RFP_MARGIN: Score = scaled(100);

// Razoring: at very shallow depth, a static evaluation far below alpha is
// checked with a quiescence search only.
pub const RAZOR_MAX_DEPTH: i32 = 3;
pub const RAZOR_BASE: Score = scaled(400);
pub const RAZOR_PER_DEPTH_SQ: Score = scaled(250);

// Null move pruning: if passing still fails high on a reduced search, a real
// move will too (unsound only in zugzwang, hence the conditions).
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 3;
pub const NMP_EVAL_DIVISOR: Score = scaled(200);
/// Most plies an eval margin over beta adds to the reduction.
pub const NMP_EVAL_MAX_REDUCTION: i32 = 3;
/// From this depth a null-move fail high is verified by a reduced normal search.
pub const NMP_VERIFY_DEPTH: i32 = 12;
/// Share (in quarters) of the verification depth without null moves for this side.
pub const NMP_VERIFY_QUARTERS: i32 = 3;

// ProbCut: a capture that beats beta by a margin in a shallow search very
// probably beats beta in the full one.
pub const PROBCUT_MIN_DEPTH: i32 = 5;
pub const PROBCUT_MARGIN: Score = scaled(200);
pub const PROBCUT_REDUCTION: i32 = 4;
/// A hash entry this much shallower (or deeper) below `rbeta` makes ProbCut
/// useless; the proof is stored at this depth below the node's.
pub const PROBCUT_TT_DEPTH_SLACK: i32 = 3;

// Internal iterative reduction: a node without a hash move at high depth is
// probably not important; search it one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// A hash score replaces the static evaluation only if it comes from a main
/// search at most this many plies shallower than the current node's: a
/// shallow bound that missed a threat would otherwise keep pruning the node.
pub const TT_EVAL_DEPTH_SLACK: i32 = 2;

// --- Move-level pruning (pruning.rs) ---

// Futility pruning: a quiet move cannot raise a static evaluation far below
// alpha enough at shallow depth.
pub const FUTILITY_MAX_DEPTH: i32 = 8;
pub const FUTILITY_BASE: Score = scaled(90);
pub const FUTILITY_PER_DEPTH: Score = scaled(100);

// Late move pruning: after enough quiet moves at shallow depth, the rest
// (ordered last by history) are skipped.
pub const LMP_MAX_DEPTH: i32 = 8;
/// Quiet moves always searched, before the `depth^2` part.
pub const LMP_BASE: i32 = 3;

/// Quiet moves searched before late move pruning starts (half as many when
/// the evaluation is not improving: the node is less promising).
pub fn lmp_threshold(depth: i32, improving: bool) -> usize {
    let base = LMP_BASE + depth * depth;
    (if improving { base } else { base / 2 }) as usize
}

// SEE pruning: moves that lose material by static exchange at shallow depth.
pub const SEE_QUIET_MARGIN: Score = 60;
pub const SEE_NOISY_MARGIN: Score = 100;
pub const SEE_MAX_DEPTH: i32 = 8;

// --- Quiescence (quiescence.rs) ---

// Delta pruning: a capture that cannot bring the score near alpha even with
// this margin is skipped.
pub const DELTA_MARGIN: Score = scaled(200);

// --- Reductions and extensions (pruning.rs, lmr.rs, extensions.rs) ---

// Late move reductions: later moves in a well-ordered list are rarely best;
// search them shallower and re-search only if they beat alpha.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Base of the table's `LMR_BASE + ln(d) * ln(m) / LMR_DIVISOR`.
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
/// History value worth one ply of reduction.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

/// Extensions (check, singular) only up to this multiple of the root depth,
/// so that a line of checks cannot grow the tree without bound.
pub const EXTENSION_PLY_LIMIT: i32 = 2;

// Singular extension: when the hash move is much better than every
// alternative (checked by a reduced search excluding it), extend it.
pub const SE_MIN_DEPTH: i32 = 8;
pub const SE_TT_DEPTH_SLACK: i32 = 3;
/// The alternatives must stay this far (per ply of depth) below the hash score.
pub const SE_MARGIN_PER_DEPTH: Score = 3;
pub const SE_DOUBLE_MARGIN: Score = 20;
/// The exclusion search runs at `(depth - 1) / SE_DEPTH_DIVISOR`: cheap, as
/// it only has to show the alternatives stay below the margin.
pub const SE_DEPTH_DIVISOR: i32 = 2;
/// Plies taken off a hash move that is not singular but already beats beta.
pub const SE_NEGATIVE: i32 = 2;
/// Double extensions allowed along one line, to bound tree growth.
pub const SE_MAX_DOUBLE: u32 = 6;

// --- Root (driver.rs) ---

// Aspiration windows around the previous iteration's score; a failed window
// grows by half its width each time.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;
pub const ASPIRATION_DELTA: Score = scaled(15);
pub const ASPIRATION_GROWTH_DIVISOR: Score = 2;

/// `currmove` lines only after this long, to keep short searches quiet.
pub const CURRMOVE_AFTER_MS: u64 = 3000;
/// Aspiration fail lines only after this long, for the same reason.
pub const BOUND_INFO_AFTER_MS: u64 = 1000;

// --- History (history.rs, thread.rs, movepick.rs) ---

/// Largest absolute history value (the gravity formula saturates there).
pub const HISTORY_MAX: i32 = 16384;
/// History bonus `d^2 * MUL + d * LINEAR`, capped: a deep cutoff says more,
/// but one cutoff must not swamp the table.
pub const HISTORY_BONUS_QUADRATIC: i32 = 16;
pub const HISTORY_BONUS_LINEAR: i32 = 32;
pub const HISTORY_BONUS_MAX: i32 = 1600;

/// Ordering bonus of quiet checks: they come before other quiets, since they
/// so often carry a threat that shallow pruning would otherwise miss.
pub const CHECK_BONUS: i32 = 16384;
/// MVV-LVA weight of the victim, above the attacker and capture history.
pub const MVV_SCALE: i32 = 16;
/// Capture history divided by this before it joins MVV-LVA.
pub const CAPTURE_HISTORY_DIVISOR: i32 = 16;

// Correction history: learned error of the static evaluation per pawn structure.
/// Largest correction, in centipawns.
pub const CORRECTION_MAX_CP: i32 = 64;
/// A new sample's weight is `depth + 1` out of 256, at most this.
pub const CORRECTION_MAX_WEIGHT: i32 = 16;

// --- Transposition table replacement (tt.rs) ---

/// An entry of this search this many plies deeper is kept against a
/// non-exact result for the same position.
pub const TT_KEEP_DEEPER: i32 = 3;
/// Each search generation an entry is old counts as this many plies less
/// depth when choosing the entry to replace.
pub const TT_AGE_PLIES: i32 = 8;

// --- Time management (time.rs, driver.rs) ---

/// Moves assumed left in the game when the GUI does not say (`movestogo`).
pub const DEFAULT_MOVES_TO_GO: u64 = 30;
/// Never plan to use more than this share of the remaining clock on one move.
pub const MAX_CLOCK_SHARE: f64 = 0.6;
/// The share for the last move before a time control (`movestogo 1`): the
/// clock is refilled after it, so nearly all of it may go.
pub const LAST_MOVE_CLOCK_SHARE: f64 = 0.9;
/// Percent of the increment planned per move (the rest builds a reserve).
pub const INCREMENT_PERCENT: u64 = 75;
/// The hard limit may stretch the soft limit by at most this factor.
pub const HARD_OVER_SOFT: f64 = 4.0;
/// Clock kept in hand, in Move Overheads: no move plans to spend into it, so
/// at a low clock the engine plays fast and lets the increment refill it,
/// rather than sink to a few milliseconds where any stall of the machine or
/// the GUI loses on time (seen at 1+0.01: 88 ms taken with 21 ms left).
pub const RESERVE_OVERHEADS: u64 = 5;
/// Clock no move plans to spend into, in ms, so that a stall of the machine
/// or the GUI does not lose on time (seen at 5+0.05: a 300 ms stop with
/// 177 ms left). A stall at the end of a move adds to the hard limit, so
/// this keeps 100 ms beyond a 300 ms one (with 300, one left -43 ms). The
/// clock then settles near this plus 7.5 increments.
pub const STALL_RESERVE_MS: u64 = 400;
/// On a short clock at most this share of it is held back, so that it still
/// moves; below the full reserve the hard limit is the rest, so a long think
/// cannot drain the clock (with 0.5, one went from 576 to 264 ms in two
/// moves).
pub const STALL_RESERVE_SHARE: f64 = 0.8;
/// Soft-limit factor by how many iterations the best move has not changed:
/// a move that keeps winning needs less time.
pub const STABILITY_FACTORS: [f64; 6] = [1.6, 1.3, 1.1, 1.0, 0.9, 0.8];
/// A score drop from one iteration to the next (capped here, in cp) means
/// trouble: the soft limit grows by `drop / FALLING_DIVISOR`.
pub const FALLING_MAX_DROP: Score = 100;
pub const FALLING_DIVISOR: f64 = 200.0;
/// Soft-limit factor `EFFORT_BASE - share of nodes under the best move`,
/// clamped: when the best move holds most of the nodes, it is clear.
pub const EFFORT_BASE: f64 = 1.6;
pub const EFFORT_MIN: f64 = 0.6;
pub const EFFORT_MAX: f64 = 1.4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margin_percent_parses_and_scales() {
        assert_eq!(parse_percent("80"), 80);
        assert_eq!(parse_percent("125"), 125);
        assert_eq!(scaled(200), 200 * MARGIN_PERCENT / 100);
    }
}
