//! Input features: which inputs of each perspective are on, for each input
//! feature set a network may be trained with. The engine and the trainer
//! (`crates/train`) both index inputs through [`FeatureSet`], so the index of
//! a (perspective, piece, square, king square) is defined here alone.

use super::INPUTS;
use crate::board::moves::moving_piece;
use crate::board::{Board, Color, Move, Piece, Square};

/// How the pieces on the board map to the network's inputs. Every set has
/// [`INPUTS`] inputs per perspective: colour (own, other) x piece x square,
/// the perspective's own pieces first, and Black sees the board flipped
/// vertically, so both sides see "their" position the same way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    /// 768 inputs, the squares as they are (after Black's vertical flip).
    #[default]
    Plain,
    /// 768 inputs, and each perspective flips the board left-right (files
    /// a..h to h..a) when its own king is on files e-h, so its king is always
    /// on files a-d. A king crossing the d/e line changes every input of its
    /// side's perspective: that perspective is computed afresh.
    Mirrored,
}

impl FeatureSet {
    /// Every feature set, in the order of their ids.
    pub const ALL: [FeatureSet; 2] = [FeatureSet::Plain, FeatureSet::Mirrored];

    /// The id stored in the network file.
    pub fn id(self) -> u32 {
        self as u32
    }

    /// The feature set of a file's id, if this build knows it.
    pub fn from_id(id: u32) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.id() == id)
    }

    /// The name the trainer's `--features` takes and messages print.
    pub fn name(self) -> &'static str {
        match self {
            FeatureSet::Plain => "plain",
            FeatureSet::Mirrored => "mirrored",
        }
    }

    /// The feature set named `name` ([`FeatureSet::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Inputs per perspective.
    pub fn inputs(self) -> usize {
        INPUTS
    }

    /// True if the inputs depend on where the perspective's own king is.
    #[inline(always)]
    pub fn uses_king(self) -> bool {
        self != FeatureSet::Plain
    }

    /// What `perspective` (0 White, 1 Black) does to every square index
    /// (0 = a1 .. 63 = h8) before it is looked up, its own king being on
    /// `king`: the mask XORed into the square (56 flips the ranks, 7 the
    /// files). For [`FeatureSet::Plain`] `king` is not looked at.
    #[inline(always)]
    pub fn orientation(self, perspective: usize, king: usize) -> usize {
        let vertical = if perspective == 0 { 0 } else { 56 };
        match self {
            FeatureSet::Plain => vertical,
            FeatureSet::Mirrored if king & 7 >= 4 => vertical ^ 7,
            FeatureSet::Mirrored => vertical,
        }
    }

    /// The input index of a piece of `color` (0 White, 1 Black) and kind
    /// `piece` (0 pawn .. 5 king) on `square`, for `perspective`, whose
    /// [`FeatureSet::orientation`] is `orientation`. Plain integers, so the
    /// trainer indexes its packed records without building a board.
    #[inline(always)]
    pub fn index(
        perspective: usize,
        orientation: usize,
        color: usize,
        piece: usize,
        square: usize,
    ) -> usize {
        let side = if color == perspective { 0 } else { 384 };
        let i = side + piece * 64 + (square ^ orientation);
        debug_assert!(i < INPUTS);
        i
    }

    /// The input index of a piece seen by `perspective` whose own king is on
    /// `king` (all as plain integers, see [`FeatureSet::index`]).
    #[inline(always)]
    pub fn feature(
        self,
        perspective: usize,
        king: usize,
        color: usize,
        piece: usize,
        square: usize,
    ) -> usize {
        Self::index(
            perspective,
            self.orientation(perspective, king),
            color,
            piece,
            square,
        )
    }

    /// True if `perspective`'s king moving from `from` to `to` changes its
    /// orientation, so that the perspective must be computed afresh.
    #[inline(always)]
    pub fn needs_refresh(self, perspective: usize, from: usize, to: usize) -> bool {
        self.orientation(perspective, from) != self.orientation(perspective, to)
    }
}

impl std::fmt::Display for FeatureSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for FeatureSet {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Self::from_name(s).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL.iter().map(|f| f.name()).collect();
            format!("unknown feature set '{s}' (known: {})", names.join(", "))
        })
    }
}

/// Input index of `piece` of `color` on `square`, seen from `perspective`
/// with the feature orientation `orientation` ([`FeatureSet::orientation`]).
#[inline(always)]
pub fn index(
    perspective: Color,
    orientation: usize,
    color: Color,
    piece: Piece,
    square: Square,
) -> usize {
    FeatureSet::index(
        perspective as usize,
        orientation,
        color as usize,
        piece as usize,
        square as usize,
    )
}

/// A piece on a square.
pub type Placed = (Color, Piece, Square);

/// What a move changes: at most two pieces appear and two disappear
/// (castling moves king and rook; a capture removes the captured piece).
/// A king move puts the king first in `added`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Change {
    pub added: [Option<Placed>; 2],
    pub removed: [Option<Placed>; 2],
}

impl Change {
    /// The change made by the legal move `mv` on `board` (before it is played).
    pub fn of_move(board: &Board, mv: Move) -> Self {
        let us = board.side_to_move();
        let piece = moving_piece(board, mv);
        let rank = mv.from.rank();
        if piece == Piece::King && board.colors(us).has(mv.to) {
            // cozy-chess writes castling as king takes own rook.
            let short = mv.to.file() > mv.from.file();
            let (king_file, rook_file) = if short {
                (crate::board::File::G, crate::board::File::F)
            } else {
                (crate::board::File::C, crate::board::File::D)
            };
            return Self {
                added: [
                    Some((us, Piece::King, Square::new(king_file, rank))),
                    Some((us, Piece::Rook, Square::new(rook_file, rank))),
                ],
                removed: [
                    Some((us, Piece::King, mv.from)),
                    Some((us, Piece::Rook, mv.to)),
                ],
            };
        }
        let captured = match board.piece_on(mv.to) {
            Some(p) => {
                debug_assert!(
                    board.colors(!us).has(mv.to),
                    "{mv} captures its own piece in {board}"
                );
                Some((!us, p, mv.to))
            }
            None if piece == Piece::Pawn && mv.from.file() != mv.to.file() => {
                let victim = Square::new(mv.to.file(), rank);
                debug_assert!(
                    board.colored_pieces(!us, Piece::Pawn).has(victim),
                    "en passant {mv} without a pawn to take in {board}"
                );
                Some((!us, Piece::Pawn, victim))
            }
            None => None,
        };
        Self {
            added: [Some((us, mv.promotion.unwrap_or(piece), mv.to)), None],
            removed: [Some((us, piece, mv.from)), captured],
        }
    }

    /// The square the mover's king goes to, if the move is a king move
    /// (castling included).
    #[inline(always)]
    pub fn king_to(&self) -> Option<(Color, Square)> {
        match self.added[0] {
            Some((color, Piece::King, sq)) => Some((color, sq)),
            _ => None,
        }
    }
}

/// Every piece on the board.
pub fn placed(board: &Board) -> impl Iterator<Item = Placed> + '_ {
    board
        .occupied()
        .iter()
        .filter_map(move |sq| Some((board.color_on(sq)?, board.piece_on(sq)?, sq)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names_round_trip() {
        for f in FeatureSet::ALL {
            assert_eq!(FeatureSet::from_id(f.id()), Some(f));
            assert_eq!(f.name().parse::<FeatureSet>(), Ok(f));
        }
        assert_eq!(FeatureSet::from_id(2), None);
        assert!("kings".parse::<FeatureSet>().is_err());
    }

    /// Plain: White's view is the board, Black's is flipped vertically.
    /// Mirrored: the same with the king on a-d, flipped on files otherwise.
    #[test]
    fn mirrored_flips_files_when_the_king_is_on_e_to_h() {
        let plain = FeatureSet::Plain;
        let mirrored = FeatureSet::Mirrored;
        let (a2, h2, e1, d1) = (8, 15, 4, 3);
        for king in 0..64 {
            assert_eq!(plain.feature(0, king, 0, 0, a2), a2);
            assert_eq!(plain.feature(1, king, 1, 0, a2), 56 ^ a2);
        }
        assert_eq!(mirrored.feature(0, d1, 0, 0, a2), a2);
        assert_eq!(mirrored.feature(0, e1, 0, 0, a2), h2);
        assert_eq!(mirrored.feature(0, e1, 1, 5, e1), 384 + 5 * 64 + d1);
        // Black's king on e8 (60): files flipped too.
        assert_eq!(mirrored.feature(1, 60, 1, 0, a2), 56 ^ h2);
        assert!(mirrored.needs_refresh(0, e1, d1));
        assert!(!mirrored.needs_refresh(0, e1, 6));
        assert!(!plain.needs_refresh(0, e1, d1));
    }
}
