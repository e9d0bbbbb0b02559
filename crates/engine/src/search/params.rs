//! Every search number in one place, grouped by technique, each with why it
//! is there. The code using them is in the technique's file; the on/off
//! switches are in `config`. Values began as the usual starting points of
//! the literature (Stockfish, Ethereal); the tunables are declared once
//! below (`crate::tunable` says how), so SPSA can tune them through UCI
//! options in a `spsa` build. Limits that are not choices stay plain
//! constants. The time manager's numbers are in `time::params`.

use super::score::Score;
use crate::tt::Replacement;
use crate::tunable::{Tunable, declare_tunables};

/// The tunables, as `name: type = default, min, max, step;` (`step` is
/// OpenBench's `c_end`). Passes the list to `$declare`: `declare_tunables`
/// here, the engine's option table in a `spsa` build.
macro_rules! for_each_tunable {
    ($declare:ident) => {
        $declare! {
            // --- Node-level pruning (node.rs) ---

            /// Reverse futility pruning (static null move): at shallow depth,
            /// a static evaluation this far (per ply) above beta is unlikely
            /// to drop below it.
            rfp_max_depth: i32 = 8, 4, 12, 0.5;
            rfp_margin: Score = 100, 40, 200, 8;
            /// Razoring: at very shallow depth, a static evaluation far below
            /// alpha (`base + per_depth_sq * depth^2`) is checked with a
            /// quiescence search only.
            razor_max_depth: i32 = 3, 1, 6, 0.5;
            razor_base: Score = 400, 150, 700, 25;
            razor_per_depth_sq: Score = 250, 100, 450, 15;
            /// Null move pruning: if passing still fails high on a search
            /// reduced by `base + depth / divisor + min((eval - beta) /
            /// eval_divisor, eval_max_reduction)`, a real move will too.
            nmp_min_depth: i32 = 3, 1, 6, 0.5;
            nmp_base_reduction: i32 = 3, 1, 6, 0.5;
            nmp_depth_divisor: i32 = 3, 2, 6, 0.5;
            nmp_eval_divisor: Score = 200, 80, 400, 15;
            nmp_eval_max_reduction: i32 = 3, 0, 6, 0.5;
            /// From this depth a null-move fail high is verified by a reduced
            /// normal search.
            nmp_verify_depth: i32 = 12, 6, 20, 1;
            /// Share (in quarters) of the verification depth without null
            /// moves for this side.
            nmp_verify_quarters: i32 = 3, 1, 4, 0.5;
            /// ProbCut: a capture that beats beta by the margin in a search
            /// `reduction` plies shallower very probably beats beta in the
            /// full one.
            probcut_min_depth: i32 = 5, 3, 10, 0.5;
            probcut_margin: Score = 200, 80, 400, 15;
            probcut_reduction: i32 = 4, 2, 6, 0.5;
            /// A hash entry this much shallower (or deeper) below the ProbCut
            /// beta makes ProbCut useless; the proof is stored this much
            /// below the node's depth.
            probcut_tt_depth_slack: i32 = 3, 1, 6, 0.5;
            /// Internal iterative reduction: a node without a hash move from
            /// this depth is searched one ply shallower.
            iir_min_depth: i32 = 4, 2, 8, 0.5;
            /// A hash score replaces the static evaluation only if it comes
            /// from a main search at most this many plies shallower: a
            /// shallow bound that missed a threat would keep pruning.
            tt_eval_depth_slack: i32 = 2, 0, 6, 0.5;

            /// Hindsight, from the parent's late move reduction and the
            /// change in static evaluation across its move (both sides'
            /// evaluations summed: above zero, the move made its side's
            /// position look worse): a node reduced by at least 2 plies whose
            /// move looks worse by more than this is searched a ply
            /// shallower. 0 turns it off.
            hindsight_shallower_margin: Score = 0, 0, 400, 15;
            /// With the side in check two plies back (no static evaluation),
            /// "improving" compares with four plies back (1 on, 0 off).
            improving_four_plies: i32 = 0, 0, 1, 1;

            // --- Move-level pruning (node.rs) ---

            /// Futility pruning: a quiet move at reduced depth cannot lift a
            /// static evaluation `base + per_depth * depth` below alpha.
            futility_max_depth: i32 = 8, 4, 12, 0.5;
            futility_base: Score = 90, 20, 200, 8;
            futility_per_depth: Score = 100, 40, 200, 8;
            /// Capture futility: a capture (no check, no promotion) at
            /// reduced depth cannot lift a static evaluation `base +
            /// per_depth * depth + the victim's value` below alpha. 0 turns
            /// it off.
            capture_futility_base: Score = 0, 0, 400, 15;
            /// Late move pruning: after `base + depth^2` quiet moves (this
            /// percent of them when not improving) the rest are skipped.
            lmp_max_depth: i32 = 8, 4, 12, 0.5;
            lmp_base: i32 = 3, 0, 8, 0.5;
            lmp_not_improving_pct: i32 = 50, 25, 100, 4;
            /// SEE pruning: moves losing more than margin * depth by static
            /// exchange.
            see_quiet_margin: Score = 60, 20, 120, 5;
            see_noisy_margin: Score = 100, 40, 200, 8;
            see_max_depth: i32 = 8, 4, 12, 0.5;

            // --- Quiescence (node.rs) ---

            /// Delta pruning: a capture that cannot bring the score near
            /// alpha even with this margin is skipped.
            delta_margin: Score = 200, 50, 400, 15;

            // --- Late move reductions (node.rs, the table in thread.rs) ---

            /// Later moves in a well-ordered list are rarely best: searched
            /// shallower, from this depth.
            lmr_min_depth: i32 = 3, 2, 5, 0.5;
            /// The table's `base + ln(d) * ln(m) / divisor`, in hundredths.
            lmr_base_pct: i32 = 75, 0, 150, 8;
            lmr_divisor_pct: i32 = 225, 150, 350, 10;
            /// History value worth one ply of reduction.
            lmr_history_divisor: i32 = 8192, 2048, 16384, 500;
            /// Percent of the table's reduction a capture or promotion gets.
            lmr_noisy_pct: i32 = 50, 0, 100, 5;
            /// Plies added at non-PV nodes, cut nodes and when not improving;
            /// taken off for checks and killers.
            lmr_non_pv: i32 = 1, 0, 2, 0.5;
            lmr_cut_node: i32 = 1, 0, 3, 0.5;
            lmr_not_improving: i32 = 1, 0, 2, 0.5;
            lmr_gives_check: i32 = 1, 0, 2, 0.5;
            lmr_killer: i32 = 1, 0, 2, 0.5;
            /// Capture history worth one ply less reduction of a capture or
            /// promotion. 0 turns it off.
            lmr_noisy_history_divisor: i32 = 0, 0, 16384, 500;
            /// A ply more for a late move once more than this many of the
            /// node's moves were refuted by a cutoff in their child (a node
            /// whose moves keep failing is probably failing low). 0 turns
            /// it off.
            lmr_refuted_moves: u32 = 0, 0, 8, 1;
            /// Plies added to a quiet move when the hash move is a capture:
            /// the node's best is probably tactical, quiets rarely beat it.
            lmr_tt_capture: i32 = 1, 0, 2, 0.5;
            /// A reduced search that beat alpha is searched again one ply
            /// deeper if it beat the best score so far by `base + per_ply *
            /// reduction`, one ply shallower if by less than the new depth.
            lmr_deeper_base: Score = 40, 0, 120, 5;
            lmr_deeper_per_ply: Score = 8, 0, 24, 1;

            // --- Singular extension (node.rs) ---

            /// When the hash move is much better than every alternative
            /// (checked by a search excluding it), extend it.
            se_min_depth: i32 = 8, 4, 12, 0.5;
            se_tt_depth_slack: i32 = 3, 1, 6, 0.5;
            /// The alternatives must stay this far per ply below the hash score.
            se_margin_per_depth: Score = 3, 1, 6, 0.5;
            /// ... and this much further for a double extension.
            se_double_margin: Score = 20, 0, 60, 3;
            /// The exclusion search runs at `(depth - 1) / divisor`: cheap,
            /// as it only has to show the alternatives stay below.
            se_depth_divisor: i32 = 2, 1, 4, 0.5;
            /// Plies taken off a hash move that is not singular but beats beta.
            se_negative: i32 = 2, 0, 4, 0.5;
            /// Double extensions allowed along one line (tree growth).
            se_max_double: u32 = 6, 0, 16, 1;

            // --- Aspiration windows (driver.rs) ---

            /// From this depth the root is searched with a window of +-delta
            /// around the last score; a failed one grows by this percent.
            aspiration_min_depth: u32 = 4, 1, 8, 0.5;
            aspiration_delta: Score = 15, 5, 40, 2;
            aspiration_growth_pct: Score = 50, 20, 150, 5;
            /// Each fail high searches the root again a ply shallower, down
            /// to this many plies below the iteration's depth (a fail low
            /// restores it). 0 turns it off.
            aspiration_fail_high_plies: i32 = 0, 0, 4, 1;

            // --- History (history.rs, movepick.rs) ---

            /// Largest absolute history value (the gravity formula saturates
            /// there; the tables are i16).
            history_max: i32 = 16384, 8192, 30000, 800;
            /// Bonus of a cutoff move `d^2 * quadratic + d * linear`, capped:
            /// a deep cutoff says more, but one must not swamp the table.
            history_bonus_quadratic: i32 = 16, 0, 48, 2;
            history_bonus_linear: i32 = 32, 0, 128, 6;
            history_bonus_max: i32 = 1600, 400, 4000, 120;
            /// The same for the malus of the moves tried before it.
            history_malus_quadratic: i32 = 16, 0, 48, 2;
            history_malus_linear: i32 = 32, 0, 128, 6;
            history_malus_max: i32 = 1600, 400, 4000, 120;
            /// Ordering bonus of quiet checks: they so often carry a threat
            /// that shallow pruning would otherwise miss.
            check_bonus: i32 = 16384, 0, 32768, 1000;
            /// MVV-LVA weight of the victim, above attacker and capture history.
            mvv_scale: i32 = 16, 4, 64, 2;
            /// Capture history divided by this before it joins MVV-LVA.
            capture_history_divisor: i32 = 16, 4, 64, 2;
            /// Weight (percent) of the pawn history, by pawn structure and
            /// (piece, square), in the order of quiet moves; 0 turns it off
            /// (neither read nor learned).
            pawn_history_pct: i32 = 0, 0, 200, 10;
            /// The change in static evaluation across the opponent's quiet
            /// move, times this, teaches that move's butterfly history (a
            /// move that made its side look worse is a worse move), bounded
            /// by `history_bonus_max`. 0 turns it off.
            eval_history_scale: i32 = 0, 0, 32, 2;

            // --- Correction history (correction.rs) ---

            /// Largest correction, in centipawns.
            correction_max_cp: i32 = 64, 16, 200, 6;
            /// Largest sum of the corrections of all tables, in centipawns
            /// (each table is bounded by `correction_max_cp`; several tables
            /// agreeing must not move the evaluation by their sum).
            correction_sum_max_cp: i32 = 64, 16, 300, 8;
            /// A new sample's weight is `depth + 1` out of 256, at most this.
            correction_max_weight: i32 = 16, 4, 64, 2;
            /// Weight (percent of the pawn-structure correction's) of the
            /// corrections by each side's non-pawn piece placement; 0 turns
            /// them off.
            correction_nonpawn_pct: i32 = 0, 0, 200, 10;

            // --- Transposition table replacement (crate::tt) ---

            /// An entry of this search this many plies deeper is kept against
            /// a non-exact result for the same position.
            tt_keep_deeper: i32 = 3, 0, 8, 0.5;
            /// Each generation an entry is old counts as this many plies less
            /// depth when choosing the entry to replace.
            tt_age_plies: i32 = 8, 0, 16, 1;
        }
    };
}
// Only the engine's options use it from outside, in a `spsa` build.
#[cfg_attr(not(feature = "spsa"), allow(unused_imports))]
pub(crate) use for_each_tunable;

for_each_tunable!(declare_tunables);

/// Every tunable of the engine: the search's, then the time manager's
/// (`time::params`).
pub fn all() -> impl Iterator<Item = &'static Tunable> {
    TUNABLES.iter().chain(crate::time::params::TUNABLES)
}

/// Every tunable in OpenBench's SPSA input format (`cutoff spsa-params`).
pub fn spsa_input() -> String {
    crate::tunable::spsa_input(all())
}

/// The tunable named `name` (case-insensitive, as UCI option names).
pub fn find(name: &str) -> Option<&'static Tunable> {
    all().find(|t| t.name.eq_ignore_ascii_case(name))
}

/// How the table replaces entries, from the two tunables above.
#[inline(always)]
pub fn tt_replacement() -> Replacement {
    Replacement {
        keep_deeper: tt_keep_deeper(),
        age_plies: tt_age_plies(),
    }
}

// --- Plain constants: limits and safety margins, not strength choices ---

/// Extensions (check, singular) only up to this multiple of the root depth,
/// so that a line of checks cannot grow the tree without bound.
pub const EXTENSION_PLY_LIMIT: i32 = 2;

/// `currmove` lines only after this long, to keep short searches quiet.
pub const CURRMOVE_AFTER_MS: u64 = 3000;
/// Aspiration fail lines only after this long, for the same reason.
pub const BOUND_INFO_AFTER_MS: u64 = 1000;

#[cfg(test)]
#[path = "params_tests.rs"]
mod tests;
