//! Root moves in a tablebase position: keep those that preserve the best
//! result, and among wins only the fastest by DTZ, so that the game makes
//! progress under the fifty-move rule whatever the search prefers.

use cozy_chess::{Board, Move};

use super::{RootEntry, Syzygy, Wdl};

/// A result's rank: with the fifty-move rule, a cursed win is worth less
/// than a win but more than a draw; without it, it is a win.
fn rank(wdl: Wdl, rule50: bool) -> i32 {
    match (wdl, rule50) {
        (Wdl::CursedWin, false) => Wdl::Win.value(),
        (Wdl::BlessedLoss, false) => Wdl::Loss.value(),
        (w, _) => w.value(),
    }
}

/// What a result is worth in the game: a win, a draw or a loss (cursed wins
/// and blessed losses are draws under the fifty-move rule).
pub fn counts_as(wdl: Wdl, rule50: bool) -> Wdl {
    match rank(wdl, rule50) {
        r if r == Wdl::Win.value() => Wdl::Win,
        r if r == Wdl::Loss.value() => Wdl::Loss,
        _ => Wdl::Draw,
    }
}

/// An entry's place among the root moves, higher is better: by result,
/// then the fastest win and the slowest loss (DTZ); all draws alike.
pub fn key(e: &RootEntry, rule50: bool) -> i32 {
    match rank(e.wdl, rule50) {
        0 => 0,
        r => r * 1_000_000 - e.dtz,
    }
}

/// Every root move among `moves` (all of them if none is) with its
/// tablebase result, best first by `key`; `None` when the position is not
/// in the tables.
pub fn probe(syzygy: &Syzygy, board: &Board, moves: &[Move]) -> Option<Vec<RootEntry>> {
    if board.occupied().len() > syzygy.cardinality() {
        return None;
    }
    let clock = if syzygy.rule50 {
        u32::from(board.halfmove_clock())
    } else {
        0
    };
    let mut entries = syzygy.tables.probe_root(board, clock)?.moves;
    // `searchmoves` restricts the choice, unless it leaves nothing.
    if entries.iter().any(|e| moves.contains(&e.mv)) {
        entries.retain(|e| moves.contains(&e.mv));
    }
    entries.sort_by_key(|e| std::cmp::Reverse(key(e, syzygy.rule50)));
    Some(entries)
}

/// The moves to search, best first, and the result they keep; `None` when
/// the position is not in the tables (search all moves then).
pub fn filter(syzygy: &Syzygy, board: &Board, moves: &[Move]) -> Option<(Vec<Move>, Wdl)> {
    let kept = select(&probe(syzygy, board, moves)?, syzygy.rule50);
    let wdl = kept.first()?.wdl;
    Some((kept.into_iter().map(|e| e.mv).collect(), wdl))
}

/// The entries of the best rank; for a win only the lowest DTZ, for a loss
/// only the highest (the longest resistance), for a draw all.
pub fn select(entries: &[RootEntry], rule50: bool) -> Vec<RootEntry> {
    let Some(best) = entries.iter().map(|e| key(e, rule50)).max() else {
        return Vec::new();
    };
    entries
        .iter()
        .filter(|e| key(e, rule50) == best)
        .copied()
        .collect()
}

/// A root entry of a move from a1 to `to`, for tests of what ranks entries.
#[cfg(test)]
pub(crate) fn entry(to: cozy_chess::Square, wdl: Wdl, dtz: i32) -> RootEntry {
    let mv = Move {
        from: cozy_chess::Square::A1,
        to,
        promotion: None,
    };
    RootEntry { mv, wdl, dtz }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cozy_chess::Square;

    #[test]
    fn wins_keep_the_fastest_and_losses_the_slowest() {
        let e = [
            entry(Square::A2, Wdl::Win, 9),
            entry(Square::A3, Wdl::Draw, 0),
            entry(Square::A4, Wdl::Win, 3),
            entry(Square::A5, Wdl::CursedWin, 120),
        ];
        assert_eq!(select(&e, true), vec![e[2]]);
        let l = [
            entry(Square::A2, Wdl::Loss, -4),
            entry(Square::A3, Wdl::Loss, -12),
        ];
        assert_eq!(select(&l, true), vec![l[1]]);
    }

    #[test]
    fn a_cursed_win_counts_as_a_win_only_without_the_rule() {
        let e = [
            entry(Square::A2, Wdl::CursedWin, 101),
            entry(Square::A3, Wdl::Draw, 0),
            entry(Square::A4, Wdl::Draw, 0),
        ];
        assert_eq!(select(&e, true), vec![e[0]]);
        assert_eq!(select(&e, false), vec![e[0]]);
        let d = [
            entry(Square::A2, Wdl::Draw, 0),
            entry(Square::A3, Wdl::BlessedLoss, -110),
        ];
        assert_eq!(select(&d, true), vec![d[0]]);
    }

    #[test]
    fn keys_order_wins_then_draws_then_losses() {
        let e = [
            entry(Square::A2, Wdl::Loss, -4),
            entry(Square::A3, Wdl::Win, 9),
            entry(Square::A4, Wdl::Draw, 0),
            entry(Square::A5, Wdl::Loss, -12),
            entry(Square::A6, Wdl::Win, 3),
            entry(Square::A7, Wdl::CursedWin, 120),
        ];
        let mut sorted = e.to_vec();
        sorted.sort_by_key(|x| std::cmp::Reverse(key(x, true)));
        assert_eq!(sorted, vec![e[4], e[1], e[5], e[2], e[3], e[0]]);
        assert_eq!(counts_as(Wdl::CursedWin, true), Wdl::Draw);
        assert_eq!(counts_as(Wdl::CursedWin, false), Wdl::Win);
        assert_eq!(counts_as(Wdl::BlessedLoss, false), Wdl::Loss);
    }
}
