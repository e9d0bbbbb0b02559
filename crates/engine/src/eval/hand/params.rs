//! The layout of the weight vector: every evaluation weight is one `S`
//! (midgame, endgame) at a fixed index, so the evaluation is a linear function
//! of its features and the tuner can address each weight by number.

/// A midgame/endgame weight pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

/// Declares the parameter groups in order: each gets an offset constant, and
/// `GROUPS` lists (name, offset, length, display term) for the trace and tuner.
macro_rules! layout {
    ($( $name:ident : $len:expr => $term:expr ),* $(,)?) => {
        layout!(@offsets 0usize; $($name : $len,)*);
        /// Every group: (name, first index, length, trace term).
        pub const GROUPS: &[(&str, usize, usize, Term)] = &[
            $( (stringify!($name), $name, $len, $term) ),*
        ];
    };
    (@offsets $at:expr; $name:ident : $len:expr, $($rest:tt)*) => {
        pub const $name: usize = $at;
        layout!(@offsets $at + $len; $($rest)*);
    };
    (@offsets $at:expr;) => {
        /// Number of weights.
        pub const NUM_PARAMS: usize = $at;
    };
}

/// The rows of the `eval` trace table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    Material,
    Pst,
    Mobility,
    Pawns,
    Passed,
    Minors,
    Rooks,
    Queens,
    KingSafety,
    Threats,
    Tempo,
}

impl Term {
    pub const ALL: [Term; 11] = [
        Term::Material,
        Term::Pst,
        Term::Mobility,
        Term::Pawns,
        Term::Passed,
        Term::Minors,
        Term::Rooks,
        Term::Queens,
        Term::KingSafety,
        Term::Threats,
        Term::Tempo,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Pst => "Piece squares",
            Term::Mobility => "Mobility",
            Term::Pawns => "Pawns",
            Term::Passed => "Passed pawns",
            Term::Minors => "Minor pieces",
            Term::Rooks => "Rooks",
            Term::Queens => "Queens",
            Term::KingSafety => "King safety",
            Term::Threats => "Threats",
            Term::Tempo => "Tempo",
        }
    }
}

/// Squares per piece in a piece-square table: files a-d only, because the
/// tables are mirrored left-right (kings and queens sides are alike enough).
pub const PST_SQUARES: usize = 32;

layout! {
    MATERIAL: 5 => Term::Material,
    PST: 6 * PST_SQUARES => Term::Pst,
    KNIGHT_MOB: 9 => Term::Mobility,
    BISHOP_MOB: 14 => Term::Mobility,
    ROOK_MOB: 15 => Term::Mobility,
    QUEEN_MOB: 28 => Term::Mobility,
    DOUBLED: 1 => Term::Pawns,
    ISOLATED: 1 => Term::Pawns,
    BACKWARD: 1 => Term::Pawns,
    CONNECTED: 8 => Term::Pawns,
    PHALANX: 8 => Term::Pawns,
    PASSED: 8 => Term::Passed,
    PASSED_PROTECTED: 1 => Term::Passed,
    PASSED_FREE: 8 => Term::Passed,
    PASSED_KING_OWN: 8 => Term::Passed,
    PASSED_KING_ENEMY: 8 => Term::Passed,
    BISHOP_PAIR: 1 => Term::Minors,
    KNIGHT_OUTPOST: 1 => Term::Minors,
    BISHOP_OUTPOST: 1 => Term::Minors,
    BISHOP_PAWNS: 1 => Term::Minors,
    ROOK_OPEN: 1 => Term::Rooks,
    ROOK_SEMI_OPEN: 1 => Term::Rooks,
    QUEEN_OPEN: 1 => Term::Queens,
    QUEEN_SEMI_OPEN: 1 => Term::Queens,
    KING_ZONE_ATTACK: 4 => Term::KingSafety,
    KING_ATTACKERS: 8 => Term::KingSafety,
    SAFE_CHECK: 4 => Term::KingSafety,
    PAWN_SHIELD: 4 => Term::KingSafety,
    PAWN_STORM: 5 => Term::KingSafety,
    KING_OPEN_FILE: 1 => Term::KingSafety,
    KING_SEMI_OPEN_FILE: 1 => Term::KingSafety,
    PAWN_THREAT: 4 => Term::Threats,
    MINOR_THREAT: 5 => Term::Threats,
    ROOK_THREAT: 5 => Term::Threats,
    HANGING: 1 => Term::Threats,
    TEMPO: 1 => Term::Tempo,
}

/// Index of a piece-square weight: `piece` 0..6, `sq` from the owner's side.
#[inline(always)]
pub fn pst_index(piece: usize, rank: usize, file: usize) -> usize {
    let f = if file < 4 { file } else { 7 - file };
    PST + piece * PST_SQUARES + rank * 4 + f
}

/// Name of weight `i` as `group[k]`, for the tuner's output and messages.
pub fn param_name(i: usize) -> String {
    for &(name, start, len, _) in GROUPS {
        if (start..start + len).contains(&i) {
            return if len == 1 {
                name.to_string()
            } else {
                format!("{name}[{}]", i - start)
            };
        }
    }
    format!("param[{i}]")
}

/// The trace term weight `i` belongs to.
pub fn term_of(i: usize) -> Term {
    GROUPS
        .iter()
        .find(|&&(_, start, len, _)| (start..start + len).contains(&i))
        .map_or(Term::Tempo, |g| g.3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_weight_vector() {
        let mut next = 0;
        for &(_, start, len, _) in GROUPS {
            assert_eq!(start, next);
            next += len;
        }
        assert_eq!(next, NUM_PARAMS);
        assert_eq!(param_name(TEMPO), "TEMPO");
        assert_eq!(param_name(PASSED + 6), "PASSED[6]");
    }
}
