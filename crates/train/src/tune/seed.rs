//! Hand-set starting weights, from general chess knowledge. The tuner starts
//! from these (or from the current tuned set) and writes the engine's
//! `eval/hand/weights.rs`.

use cutoff_engine::eval::hand::params::*;

/// Centralisation 0 (rim) .. 3 (centre) of a square given by file and rank.
const fn centre(file: usize, rank: usize) -> i32 {
    let df = if file < 4 { 3 - file } else { file - 4 };
    let dr = if rank < 4 { 3 - rank } else { rank - 4 };
    3 - (if df > dr { df } else { dr }) as i32
}

const fn pst(piece: usize, rank: usize, file: usize) -> S {
    let c = centre(file, rank);
    let r = rank as i32;
    match piece {
        0 => {
            let central = if file == 3 || file == 4 { 1 } else { 0 };
            let adv = [0, 0, 2, 6, 14, 28, 50, 0][rank];
            let eg = [0, -4, -2, 6, 18, 36, 60, 0][rank];
            S(
                adv + central * if r > 1 && r < 7 { (r - 1) * 5 } else { 0 },
                eg,
            )
        }
        1 => S(c * 10 - 18 - if rank == 0 { 8 } else { 0 }, c * 8 - 14),
        2 => S(c * 5 - 6, c * 4 - 6),
        3 => S(
            if rank == 6 { 15 } else { 0 } + if file == 3 || file == 4 { 4 } else { 0 },
            if rank == 6 { 10 } else { 0 },
        ),
        4 => S(c * 3 - 4, c * 6 - 8),
        _ => {
            let edge_file = if file == 3 || file == 4 { -12 } else { 6 };
            S(
                if rank == 0 { 10 + edge_file } else { -18 * r },
                c * 12 - 18,
            )
        }
    }
}

/// A linear mobility table: `mg`/`eg` centipawns per safe square about `mean`.
const fn mobility(table: &mut [S; NUM_PARAMS], start: usize, len: usize, mg: i32, eg: i32) {
    let mean = (len as i32 - 1) / 2;
    let mut i = 0;
    while i < len {
        let d = i as i32 - mean;
        table[start + i] = S(mg * d, eg * d);
        i += 1;
    }
}

const fn by_rank(table: &mut [S; NUM_PARAMS], start: usize, mg: [i32; 8], eg: [i32; 8]) {
    let mut i = 0;
    while i < 8 {
        table[start + i] = S(mg[i], eg[i]);
        i += 1;
    }
}

const fn copy(table: &mut [S; NUM_PARAMS], start: usize, values: &[S]) {
    let mut i = 0;
    while i < values.len() {
        table[start + i] = values[i];
        i += 1;
    }
}

/// The hand-set weights.
pub const fn hand_weights() -> [S; NUM_PARAMS] {
    let mut w = [S(0, 0); NUM_PARAMS];
    copy(
        &mut w,
        MATERIAL,
        &[
            S(90, 120),
            S(330, 300),
            S(345, 320),
            S(470, 540),
            S(960, 1000),
        ],
    );
    let mut piece = 0;
    while piece < 6 {
        let mut sq = 0;
        while sq < PST_SQUARES {
            w[PST + piece * PST_SQUARES + sq] = pst(piece, sq / 4, sq % 4);
            sq += 1;
        }
        piece += 1;
    }
    mobility(&mut w, KNIGHT_MOB, 9, 5, 4);
    mobility(&mut w, BISHOP_MOB, 14, 4, 5);
    mobility(&mut w, ROOK_MOB, 15, 2, 4);
    mobility(&mut w, QUEEN_MOB, 28, 1, 2);
    w[DOUBLED] = S(-10, -20);
    w[ISOLATED] = S(-10, -12);
    w[BACKWARD] = S(-8, -10);
    by_rank(
        &mut w,
        CONNECTED,
        [0, 0, 8, 10, 14, 22, 40, 0],
        [0, 0, 4, 6, 10, 18, 30, 0],
    );
    by_rank(
        &mut w,
        PHALANX,
        [0, 0, 4, 6, 10, 20, 35, 0],
        [0, 0, 2, 4, 8, 16, 30, 0],
    );
    by_rank(
        &mut w,
        PASSED,
        [0, 5, 5, 10, 25, 45, 70, 0],
        [0, 10, 15, 25, 45, 75, 120, 0],
    );
    w[PASSED_PROTECTED] = S(5, 10);
    by_rank(
        &mut w,
        PASSED_FREE,
        [0, 0, 0, 2, 5, 10, 20, 0],
        [0, 0, 0, 5, 10, 20, 35, 0],
    );
    by_rank(
        &mut w,
        PASSED_KING_OWN,
        [0; 8],
        [0, 0, 0, -2, -4, -6, -8, 0],
    );
    by_rank(
        &mut w,
        PASSED_KING_ENEMY,
        [0; 8],
        [0, 0, 0, 4, 8, 12, 16, 0],
    );
    w[BISHOP_PAIR] = S(30, 50);
    w[KNIGHT_OUTPOST] = S(20, 10);
    w[BISHOP_OUTPOST] = S(12, 6);
    w[BISHOP_PAWNS] = S(-2, -4);
    w[ROOK_OPEN] = S(25, 10);
    w[ROOK_SEMI_OPEN] = S(12, 6);
    w[QUEEN_OPEN] = S(5, 5);
    w[QUEEN_SEMI_OPEN] = S(3, 3);
    copy(
        &mut w,
        KING_ZONE_ATTACK,
        &[S(8, 0), S(6, 0), S(8, 0), S(12, 0)],
    );
    by_rank(
        &mut w,
        KING_ATTACKERS,
        [0, 0, 10, 25, 45, 65, 80, 90],
        [0; 8],
    );
    copy(
        &mut w,
        SAFE_CHECK,
        &[S(20, 5), S(12, 5), S(20, 5), S(15, 5)],
    );
    copy(
        &mut w,
        PAWN_SHIELD,
        &[S(15, 0), S(8, 0), S(0, 0), S(-15, 0)],
    );
    copy(
        &mut w,
        PAWN_STORM,
        &[S(-5, 0), S(-20, 0), S(-10, 0), S(-5, 0), S(0, 0)],
    );
    w[KING_OPEN_FILE] = S(-20, 0);
    w[KING_SEMI_OPEN_FILE] = S(-10, 0);
    copy(
        &mut w,
        PAWN_THREAT,
        &[S(50, 30), S(50, 30), S(60, 30), S(40, 20)],
    );
    copy(
        &mut w,
        MINOR_THREAT,
        &[S(2, 15), S(20, 20), S(20, 20), S(40, 30), S(40, 30)],
    );
    copy(
        &mut w,
        ROOK_THREAT,
        &[S(2, 15), S(15, 20), S(15, 20), S(0, 10), S(30, 20)],
    );
    w[HANGING] = S(20, 10);
    w[TEMPO] = S(15, 5);
    w
}
