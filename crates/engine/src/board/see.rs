//! Static exchange evaluation: the material outcome of the capture sequence on
//! one square when both sides always recapture with their least valuable piece
//! and may stop when continuing would lose. Pins are ignored (a common,
//! cheap approximation).

use cozy_chess::{
    BitBoard, Board, Color, File, Move, Piece, Square, get_bishop_moves, get_king_moves,
    get_knight_moves, get_pawn_attacks, get_rook_moves,
};

/// Piece values used by SEE, in centipawns (king: cannot be captured).
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

pub fn see_value(piece: Piece) -> i32 {
    SEE_VALUES[piece as usize]
}

/// Every square `color` attacks (pawn captures included, pushes not), with
/// sliders stopped by every piece.
pub fn attacked_by(board: &Board, color: Color) -> BitBoard {
    let occ = board.occupied();
    let ours = |p: Piece| board.colored_pieces(color, p);
    let mut attacks = BitBoard(pawn_attacks(ours(Piece::Pawn).0, color));
    for sq in ours(Piece::Knight) {
        attacks |= get_knight_moves(sq);
    }
    for sq in ours(Piece::Bishop) | ours(Piece::Queen) {
        attacks |= get_bishop_moves(sq, occ);
    }
    for sq in ours(Piece::Rook) | ours(Piece::Queen) {
        attacks |= get_rook_moves(sq, occ);
    }
    for sq in ours(Piece::King) {
        attacks |= get_king_moves(sq);
    }
    attacks
}

/// The squares a set of `color`'s pawns attacks (raw bits, a1 = bit 0), all
/// at once: each pawn's two diagonal steps forward as shifts of the whole
/// set, the edge file masked off so no step wraps round the board. The
/// hand-crafted evaluation's pawn terms use it too.
#[inline(always)]
pub fn pawn_attacks(pawns: u64, color: Color) -> u64 {
    let (not_a, not_h) = (pawns & !File::A.bitboard().0, pawns & !File::H.bitboard().0);
    match color {
        Color::White => (not_a << 7) | (not_h << 9),
        Color::Black => (not_a >> 9) | (not_h >> 7),
    }
}

/// All pieces of both colours attacking `sq` given the occupancy `occ`.
pub fn attackers_to(board: &Board, sq: Square, occ: BitBoard) -> BitBoard {
    let pawns = board.pieces(Piece::Pawn);
    let diag = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let orth = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    (get_pawn_attacks(sq, Color::White) & pawns & board.colors(Color::Black))
        | (get_pawn_attacks(sq, Color::Black) & pawns & board.colors(Color::White))
        | (get_knight_moves(sq) & board.pieces(Piece::Knight))
        | (get_king_moves(sq) & board.pieces(Piece::King))
        | (get_bishop_moves(sq, occ) & diag)
        | (get_rook_moves(sq, occ) & orth)
}

/// True if the exchange started by `mv` gains at least `threshold` centipawns.
pub fn see_ge(board: &Board, mv: Move, threshold: i32) -> bool {
    debug_assert!(
        board.colors(board.side_to_move()).has(mv.from),
        "SEE of {mv}, not a move of the side to move in {board}"
    );
    let result = see_ge_unchecked(board, mv, threshold);
    // Gaining at least t means gaining at least anything below t.
    debug_assert!(
        if result {
            see_ge_unchecked(board, mv, threshold - 1)
        } else {
            !see_ge_unchecked(board, mv, threshold + 1)
        },
        "SEE of {mv} is not monotonic at threshold {threshold} in {board}"
    );
    result
}

fn see_ge_unchecked(board: &Board, mv: Move, threshold: i32) -> bool {
    let stm = board.side_to_move();
    // Castling (king onto own rook) exchanges nothing.
    if board.colors(stm).has(mv.to) {
        return threshold <= 0;
    }
    let Some(mover) = board.piece_on(mv.from) else {
        return threshold <= 0;
    };
    let mut occ = board.occupied() ^ mv.from.bitboard() ^ mv.to.bitboard();
    let mut gain = match board.piece_on(mv.to) {
        Some(p) => see_value(p),
        None if mover == Piece::Pawn && mv.from.file() != mv.to.file() => {
            // En passant: the captured pawn stands behind the target square.
            let victim = Square::new(mv.to.file(), mv.from.rank());
            occ ^= victim.bitboard();
            see_value(Piece::Pawn)
        }
        None => 0,
    };
    let mut on_square = mover;
    if let Some(promo) = mv.promotion {
        gain += see_value(promo) - see_value(Piece::Pawn);
        on_square = promo;
    }
    // `swap` is the balance if the opponent now stops capturing.
    let mut swap = gain - threshold;
    if swap < 0 {
        return false;
    }
    swap = see_value(on_square) - swap;
    if swap <= 0 {
        return true;
    }

    let diag = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let orth = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let mut attackers = attackers_to(board, mv.to, occ);
    let mut side = stm;
    let mut result = true;
    loop {
        side = !side;
        attackers &= occ;
        let ours = attackers & board.colors(side);
        if ours.is_empty() {
            break;
        }
        result = !result;
        let Some((piece, sq)) = least_valuable(board, ours) else {
            break;
        };
        if piece == Piece::King {
            // The king may only capture if the square is no longer defended.
            if !(attackers & board.colors(!side)).is_empty() {
                result = !result;
            }
            break;
        }
        swap = see_value(piece) - swap;
        if swap < result as i32 {
            break;
        }
        occ ^= sq.bitboard();
        // Removing a piece may uncover a slider behind it (x-ray).
        if matches!(piece, Piece::Pawn | Piece::Bishop | Piece::Queen) {
            attackers |= get_bishop_moves(mv.to, occ) & diag;
        }
        if matches!(piece, Piece::Rook | Piece::Queen) {
            attackers |= get_rook_moves(mv.to, occ) & orth;
        }
    }
    result
}

fn least_valuable(board: &Board, set: BitBoard) -> Option<(Piece, Square)> {
    Piece::ALL
        .into_iter()
        .find_map(|p| (set & board.pieces(p)).next_square().map(|sq| (p, sq)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let board: Board = fen.parse().unwrap();
        let mv = cozy_chess::util::parse_uci_move(&board, mv).unwrap();
        see_ge(&board, mv, threshold)
    }

    #[test]
    fn attacked_squares_are_those_with_an_attacker() {
        // Kiwipete, both colours: a square is attacked exactly when
        // `attackers_to` finds a piece of that colour on it.
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let board: Board = fen.parse().unwrap();
        for color in [Color::White, Color::Black] {
            let attacks = attacked_by(&board, color);
            for sq in Square::ALL {
                let by = attackers_to(&board, sq, board.occupied()) & board.colors(color);
                assert_eq!(attacks.has(sq), !by.is_empty(), "{color:?} {sq}");
            }
        }
    }

    #[test]
    fn pawn_attacks_of_a_set_are_those_of_its_pawns() {
        // Every square alone (edge files included), then every rank at once.
        for color in [Color::White, Color::Black] {
            for sq in Square::ALL {
                let one = BitBoard(pawn_attacks(sq.bitboard().0, color));
                assert_eq!(one, get_pawn_attacks(sq, color), "{color:?} {sq}");
            }
            for rank in cozy_chess::Rank::ALL {
                let set = rank.bitboard();
                let each = set
                    .into_iter()
                    .fold(BitBoard::EMPTY, |a, sq| a | get_pawn_attacks(sq, color));
                assert_eq!(
                    BitBoard(pawn_attacks(set.0, color)),
                    each,
                    "{color:?} {rank:?}"
                );
            }
        }
    }

    #[test]
    fn pawn_takes_defended_knight_wins_material() {
        let fen = "4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1";
        assert!(see(fen, "e4d5", 320 - 100));
        assert!(!see(fen, "e4d5", 320 - 100 + 1));
    }

    #[test]
    fn queen_takes_defended_pawn_loses() {
        let fen = "4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1";
        assert!(!see(fen, "d2d5", 0));
        assert!(see(fen, "d2d5", 100 - 900));
    }

    #[test]
    fn xray_rooks_win_the_exchange() {
        // Rxd5 Rxd5 Rxd5: two rooks behind each other beat one defender.
        let fen = "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d5", 100));
        assert!(!see(fen, "d2d5", 101));
    }

    #[test]
    fn quiet_move_to_attacked_square() {
        let fen = "4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1";
        assert!(!see(fen, "d1d5", 0));
        assert!(see(fen, "d1d4", 0));
    }
}
