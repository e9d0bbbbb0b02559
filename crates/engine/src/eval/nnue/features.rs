//! Input features: which inputs of each perspective are on, for each input
//! feature set a network may be trained with. The engine and the trainer
//! (`crates/train`) both index inputs through [`FeatureSet`], so the index of
//! a (perspective, piece, square, king square) is defined here alone.

use super::INPUTS;
use crate::board::moves::moving_piece;
use crate::board::{Board, Color, Move, Piece, Square};

/// How the pieces on the board map to the network's inputs. Every set reads
/// [`INPUTS`] inputs per king bucket and perspective: colour (own, other) x
/// piece x square, the perspective's own pieces first, and Black sees the
/// board flipped vertically, so both sides see "their" position the same way.
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
    /// Mirrored as [`FeatureSet::Mirrored`], and 4 x 768 inputs: the
    /// perspective's own king square (after both flips) picks one of four
    /// blocks of 768 ([`KINGS4`]). A king changing block, like one crossing
    /// the d/e line, has its perspective computed afresh.
    KingBuckets4,
}

/// The king bucket of each square of the perspective's own king, after its
/// flips (so only files a-d are looked up): a1-b1, c1-d1, the second rank,
/// the rest. The engine castles to c1 or g1 (d1 after the mirror) and the
/// king stays on the back rank most of the middle game, where the buckets
/// are finest.
#[rustfmt::skip]
const KINGS4: [u8; 64] = [
    0, 0, 1, 1, 1, 1, 0, 0,
    2, 2, 2, 2, 2, 2, 2, 2,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
];

/// How one perspective reads the board, given where its own king is: the
/// mask XORed into every square index (56 flips the ranks, 7 the files) and
/// the first input of its king bucket.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    pub flip: usize,
    pub base: usize,
}

impl FeatureSet {
    /// Every feature set, in the order of their ids.
    pub const ALL: [FeatureSet; 3] = [
        FeatureSet::Plain,
        FeatureSet::Mirrored,
        FeatureSet::KingBuckets4,
    ];

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
            FeatureSet::KingBuckets4 => "kings4",
        }
    }

    /// The feature set named `name` ([`FeatureSet::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Every known set for messages: "0 (plain), 1 (mirrored) and 2 (kings4)".
    pub fn known() -> String {
        let all: Vec<String> = Self::ALL
            .iter()
            .map(|f| format!("{} ({f})", f.id()))
            .collect();
        let (last, rest) = all.split_last().expect("feature sets");
        format!("{} and {last}", rest.join(", "))
    }

    /// The king bucket of each (flipped) king square, if the set has buckets.
    fn king_table(self) -> Option<&'static [u8; 64]> {
        match self {
            FeatureSet::KingBuckets4 => Some(&KINGS4),
            FeatureSet::Plain | FeatureSet::Mirrored => None,
        }
    }

    /// Number of king buckets (1: the inputs do not depend on the king's
    /// square beyond the mirror).
    // A constant per set: the trainer asks for it (through `inputs`) at
    // every sample, so it is not found by scanning the table.
    pub fn king_buckets(self) -> usize {
        match self {
            FeatureSet::KingBuckets4 => 4,
            FeatureSet::Plain | FeatureSet::Mirrored => 1,
        }
    }

    /// Inputs per perspective.
    pub fn inputs(self) -> usize {
        INPUTS * self.king_buckets()
    }

    /// True if the inputs depend on where the perspective's own king is.
    #[inline(always)]
    pub fn uses_king(self) -> bool {
        self != FeatureSet::Plain
    }

    /// How `perspective` (0 White, 1 Black) reads the board, its own king
    /// being on `king` (0 = a1 .. 63 = h8). For [`FeatureSet::Plain`]
    /// `king` is not looked at.
    #[inline(always)]
    pub fn view(self, perspective: usize, king: usize) -> View {
        let vertical = if perspective == 0 { 0 } else { 56 };
        match self {
            FeatureSet::Plain => View {
                flip: vertical,
                base: 0,
            },
            FeatureSet::Mirrored | FeatureSet::KingBuckets4 => {
                let flip = if king & 7 >= 4 {
                    vertical ^ 7
                } else {
                    vertical
                };
                let base = self
                    .king_table()
                    .map_or(0, |t| INPUTS * usize::from(t[king ^ flip]));
                View { flip, base }
            }
        }
    }

    /// The input index of a piece of `color` (0 White, 1 Black) and kind
    /// `piece` (0 pawn .. 5 king) on `square`, for `perspective`, whose
    /// [`FeatureSet::view`] is `view`. Plain integers, so the trainer
    /// indexes its packed records without building a board.
    #[inline(always)]
    pub fn index(
        perspective: usize,
        view: View,
        color: usize,
        piece: usize,
        square: usize,
    ) -> usize {
        let side = if color == perspective { 0 } else { 384 };
        view.base + side + piece * 64 + (square ^ view.flip)
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
        let i = Self::index(
            perspective,
            self.view(perspective, king),
            color,
            piece,
            square,
        );
        debug_assert!(i < self.inputs());
        i
    }

    /// True if `perspective`'s king moving from `from` to `to` changes its
    /// view (the mirror or the king bucket), so that the perspective must be
    /// computed afresh.
    #[inline(always)]
    pub fn needs_refresh(self, perspective: usize, from: usize, to: usize) -> bool {
        self.view(perspective, from) != self.view(perspective, to)
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
/// through `view` ([`FeatureSet::view`]).
#[inline(always)]
pub fn index(perspective: Color, view: View, color: Color, piece: Piece, square: Square) -> usize {
    FeatureSet::index(
        perspective as usize,
        view,
        color as usize,
        piece as usize,
        square as usize,
    )
}

/// A piece on a square.
pub type Placed = (Color, Piece, Square);

/// A piece on a square as an input of each perspective (White's, Black's)
/// in the plain view. Another view's input is `base + (plain ^ mirror)`:
/// the side and piece parts are multiples of 64, so the file mirror (XOR 7)
/// only touches the square's bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Feature([u16; 2]);

impl Feature {
    #[inline(always)]
    pub fn new(color: Color, piece: Piece, square: Square) -> Self {
        let (c, kind, sq) = (color as u16, piece as u16 * 64, square as u16);
        Self([c * 384 + kind + sq, (1 - c) * 384 + kind + (sq ^ 56)])
    }

    /// The input for `perspective` (0 White, 1 Black) reading the board
    /// through `view`: [`FeatureSet::index`], from the plain one.
    #[inline(always)]
    pub fn input(self, perspective: usize, view: View) -> usize {
        view.base + (usize::from(self.0[perspective]) ^ (view.flip & 7))
    }

    /// The piece, its colour and square (White's plain input decoded).
    fn placed(self) -> Placed {
        let w = usize::from(self.0[0]);
        let color = if w < 384 { Color::White } else { Color::Black };
        (color, Piece::index(w % 384 / 64), Square::index(w % 64))
    }
}

/// How many pieces a move adds and removes, which fixes the row counts of
/// its update.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    /// A null move: nothing.
    #[default]
    Null,
    /// One piece moves (or a pawn promotes): one added, one removed.
    Quiet,
    /// A capture (en passant included): one added, two removed.
    Capture,
    /// Castling: king and rook, two added and two removed.
    Castle,
}

/// What a move changes: at most two pieces appear and two disappear
/// (castling moves king and rook; a capture removes the captured piece),
/// as many of each as `kind` says. A king move puts the king first in
/// `added`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Change {
    pub added: [Feature; 2],
    pub removed: [Feature; 2],
    pub kind: Kind,
}

impl Change {
    /// The change made by the legal move `mv` on `board` (before it is played).
    #[inline]
    pub fn of_move(board: &Board, mv: Move) -> Self {
        let us = board.side_to_move();
        let piece = moving_piece(board, mv);
        let rank = mv.from.rank();
        if piece == Piece::King && board.colors(us).has(mv.to) {
            return Self::castling(us, mv, rank);
        }
        let added = [Feature::new(us, mv.promotion.unwrap_or(piece), mv.to); 2];
        let moved = Feature::new(us, piece, mv.from);
        let captured = if board.colors(!us).has(mv.to) {
            let victim = board.piece_on(mv.to).unwrap_or(Piece::Pawn);
            debug_assert!(board.piece_on(mv.to).is_some(), "{mv} in {board}");
            Some(Feature::new(!us, victim, mv.to))
        } else if piece == Piece::Pawn && mv.from.file() != mv.to.file() {
            let victim = Square::new(mv.to.file(), rank);
            debug_assert!(
                board.colored_pieces(!us, Piece::Pawn).has(victim),
                "en passant {mv} without a pawn to take in {board}"
            );
            Some(Feature::new(!us, Piece::Pawn, victim))
        } else {
            None
        };
        match captured {
            Some(c) => Self {
                added,
                removed: [moved, c],
                kind: Kind::Capture,
            },
            None => Self {
                added,
                removed: [moved; 2],
                kind: Kind::Quiet,
            },
        }
    }

    /// Castling of `us` written as king takes own rook (cozy-chess's way).
    #[cold]
    fn castling(us: Color, mv: Move, rank: crate::board::Rank) -> Self {
        let short = mv.to.file() > mv.from.file();
        let (king_file, rook_file) = if short {
            (crate::board::File::G, crate::board::File::F)
        } else {
            (crate::board::File::C, crate::board::File::D)
        };
        Self {
            added: [
                Feature::new(us, Piece::King, Square::new(king_file, rank)),
                Feature::new(us, Piece::Rook, Square::new(rook_file, rank)),
            ],
            removed: [
                Feature::new(us, Piece::King, mv.from),
                Feature::new(us, Piece::Rook, mv.to),
            ],
            kind: Kind::Castle,
        }
    }

    /// The square the mover's king goes to, if the move is a king move
    /// (castling included).
    #[inline(always)]
    pub fn king_to(&self) -> Option<(Color, Square)> {
        match (self.kind, self.added[0].placed()) {
            (Kind::Null, _) => None,
            (_, (color, Piece::King, sq)) => Some((color, sq)),
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

    /// Each set's bucket count is its table's: every bucket used, no other.
    #[test]
    fn bucket_counts_match_the_tables() {
        for f in FeatureSet::ALL {
            let from_table = f
                .king_table()
                .map_or(1, |t| usize::from(*t.iter().max().expect("squares")) + 1);
            assert_eq!(f.king_buckets(), from_table, "{f}");
        }
    }

    #[test]
    fn ids_and_names_round_trip() {
        for f in FeatureSet::ALL {
            assert_eq!(FeatureSet::from_id(f.id()), Some(f));
            assert_eq!(f.name().parse::<FeatureSet>(), Ok(f));
        }
        assert_eq!(FeatureSet::from_id(3), None);
        assert!("kings".parse::<FeatureSet>().is_err());
        assert_eq!(
            FeatureSet::known(),
            "0 (plain), 1 (mirrored) and 2 (kings4)"
        );
        let inputs = FeatureSet::ALL.map(FeatureSet::inputs);
        assert_eq!(inputs, [768, 768, 3072]);
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

    /// Kings4: mirrored as `Mirrored`, plus the bucket of the perspective's
    /// own king (a1-b1, c1-d1, rank 2, ranks 3-8 after both flips) times 768.
    #[test]
    fn kings4_adds_the_king_bucket_to_the_mirrored_index() {
        let (kings4, mirrored) = (FeatureSet::KingBuckets4, FeatureSet::Mirrored);
        let bucket = |perspective: usize, king: usize| kings4.view(perspective, king).base / 768;
        // White's king on a1, b1, c1, d1, then e1-h1 mirrored to d1-a1.
        let back_rank: Vec<usize> = (0..8).map(|k| bucket(0, k)).collect();
        assert_eq!(back_rank, [0, 0, 1, 1, 1, 1, 0, 0]);
        assert!((8..16).all(|k| bucket(0, k) == 2));
        assert!((16..64).all(|k| bucket(0, k) == 3));
        // Black's back rank is the eighth: g8 is its b1, e7 its d2.
        assert_eq!((bucket(1, 62), bucket(1, 52), bucket(1, 4)), (0, 2, 3));
        for perspective in 0..2 {
            for king in 0..64 {
                let b = bucket(perspective, king);
                for (color, piece, square) in [(0, 0, 8), (1, 3, 35), (perspective, 5, king)] {
                    let plain = mirrored.feature(perspective, king, color, piece, square);
                    let f = kings4.feature(perspective, king, color, piece, square);
                    assert_eq!(f, b * 768 + plain);
                }
            }
        }
        let (c1, d1, e1, f1, d2, e2) = (2, 3, 4, 5, 11, 12);
        assert!(!kings4.needs_refresh(0, c1, d1), "one bucket, one side");
        assert!(kings4.needs_refresh(0, d1, e1), "the mirror changes");
        assert!(kings4.needs_refresh(0, d2, e2), "the same bucket, mirrored");
        assert!(kings4.needs_refresh(0, e1, e2), "bucket 1 to 2");
        assert!(kings4.needs_refresh(0, f1, 6), "f1 (c1) to g1 (b1)");
        assert!(kings4.uses_king());
    }
}
