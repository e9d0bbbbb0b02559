//! FEN reading and writing with clear errors.
//!
//! Accepts standard FEN, X-FEN (`KQkq` means the outermost rook on that side,
//! a file letter names any other rook) and Shredder-FEN (file letters only), and
//! EPD-style FENs without the two clock fields. cozy-chess reads only
//! Shredder-FEN or plain `KQkq` meaning the a/h rooks, so the castling field is
//! rewritten into Shredder form before handing it over.

use cozy_chess::{Board, Color, FenParseError, File, Piece, Rank, Square};

/// Parses a FEN (6 fields, or 4 as in EPD) into a board, explaining any error.
pub fn parse_fen(fen: &str) -> Result<Board, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() != 4 && fields.len() != 6 {
        return Err(format!(
            "FEN has {} fields, expected 6 (or 4 without the clocks)",
            fields.len()
        ));
    }
    check_placement(fields[0])?;
    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        s => return Err(format!("side to move must be 'w' or 'b', got '{s}'")),
    };
    let castling = shredder_castling(fields[0], fields[2])?;
    check_en_passant_field(fields[3], side)?;
    let (halfmove, fullmove) = if fields.len() == 6 {
        let h: u32 = fields[4]
            .parse()
            .map_err(|_| format!("halfmove clock '{}' is not a number", fields[4]))?;
        let f: u32 = fields[5]
            .parse()
            .map_err(|_| format!("fullmove number '{}' is not a number", fields[5]))?;
        // Clocks past the limits cozy-chess stores carry no extra meaning.
        (h.min(100), f.clamp(1, u16::MAX as u32))
    } else {
        (0, 1)
    };
    let normalized = format!(
        "{} {} {} {} {} {}",
        fields[0], fields[1], castling, fields[3], halfmove, fullmove
    );
    Board::from_fen(&normalized, true).map_err(|e| explain(e, fields[0], side))
}

/// Checks the piece placement field: 8 ranks of 8 squares, known piece letters,
/// one king each, no pawns on the first or last rank.
fn check_placement(placement: &str) -> Result<(), String> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!("board has {} ranks, expected 8", ranks.len()));
    }
    let mut kings = [0; 2];
    for (i, rank) in ranks.iter().enumerate() {
        let mut squares = 0;
        for c in rank.chars() {
            match c {
                '1'..='8' => squares += c.to_digit(10).unwrap_or(0),
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                    squares += 1;
                    if c == 'K' {
                        kings[0] += 1;
                    }
                    if c == 'k' {
                        kings[1] += 1;
                    }
                    if (c == 'p' || c == 'P') && (i == 0 || i == 7) {
                        return Err("pawn on the first or last rank".to_string());
                    }
                }
                _ => return Err(format!("bad piece letter '{c}' in the board")),
            }
        }
        if squares != 8 {
            return Err(format!("rank {} has {squares} squares, expected 8", 8 - i));
        }
    }
    if kings != [1, 1] {
        return Err(format!(
            "each side needs exactly one king (white has {}, black has {})",
            kings[0], kings[1]
        ));
    }
    Ok(())
}

/// Rewrites a FEN/X-FEN/Shredder castling field into Shredder form.
fn shredder_castling(placement: &str, field: &str) -> Result<String, String> {
    if field == "-" {
        return Ok(field.to_string());
    }
    let back_ranks = back_rank_pieces(placement);
    let mut out = String::new();
    for c in field.chars() {
        let (color_idx, color) = if c.is_ascii_uppercase() {
            (0, Color::White)
        } else {
            (1, Color::Black)
        };
        let rank = &back_ranks[color_idx];
        let king = rank
            .iter()
            .position(|&p| p == Some((Piece::King, color)))
            .ok_or_else(|| format!("castling right '{c}' but that king is not on its back rank"))?;
        let is_rook = |f: usize| rank[f] == Some((Piece::Rook, color));
        let file = match c.to_ascii_lowercase() {
            'k' => (king + 1..8).rev().find(|&f| is_rook(f)),
            'q' => (0..king).find(|&f| is_rook(f)),
            'a'..='h' => {
                Some(c.to_ascii_lowercase() as usize - 'a' as usize).filter(|&f| is_rook(f))
            }
            _ => return Err(format!("bad castling character '{c}'")),
        }
        .ok_or_else(|| format!("castling right '{c}' has no rook to castle with"))?;
        let letter = (b'a' + file as u8) as char;
        out.push(if color == Color::White {
            letter.to_ascii_uppercase()
        } else {
            letter
        });
    }
    Ok(out)
}

/// The pieces on White's first rank and Black's eighth rank, by file.
fn back_rank_pieces(placement: &str) -> [[Option<(Piece, Color)>; 8]; 2] {
    let ranks: Vec<&str> = placement.split('/').collect();
    let mut out = [[None; 8]; 2];
    for (idx, rank_str) in [(0, ranks[7]), (1, ranks[0])] {
        let mut file = 0;
        for c in rank_str.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
            } else if file < 8 {
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                if let Ok(piece) = c.to_ascii_lowercase().to_string().parse::<Piece>() {
                    out[idx][file] = Some((piece, color));
                }
                file += 1;
            }
        }
    }
    out
}

/// In standard chess, castling rights need the king on the e-file and the
/// rooks in the corners; anything else is a Chess960 position.
pub fn check_standard_castling(board: &Board) -> Result<(), String> {
    for color in Color::ALL {
        let rights = board.castle_rights(color);
        if rights.short.is_none() && rights.long.is_none() {
            continue;
        }
        let king_home = board.king(color).file() == File::E;
        let rooks_home =
            rights.short.is_none_or(|f| f == File::H) && rights.long.is_none_or(|f| f == File::A);
        if !(king_home && rooks_home) {
            return Err(format!(
                "{color:?} castling rights with the king or rook off its standard square \
                 are Chess960 only (set UCI_Chess960)"
            ));
        }
    }
    Ok(())
}

/// The en passant field is `-` or a square on the rank a pawn of the side
/// not to move just skipped (the sixth rank when White is to move).
fn check_en_passant_field(field: &str, side: Color) -> Result<(), String> {
    if field == "-" {
        return Ok(());
    }
    let rank = if side == Color::White { '6' } else { '3' };
    let mut chars = field.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (Some('a'..='h'), Some(r), None) if r == rank => Ok(()),
        (Some('a'..='h'), Some('1'..='8'), None) => Err(format!(
            "en passant square '{field}' must be on rank {rank} with {} to move",
            if side == Color::White {
                "white"
            } else {
                "black"
            }
        )),
        _ => Err(format!("en passant square '{field}' is not a square")),
    }
}

/// Turns cozy-chess's terse error into a sentence.
fn explain(err: FenParseError, placement: &str, side: Color) -> String {
    match err {
        FenParseError::InvalidBoard => {
            let other = if side == Color::White { "b" } else { "w" };
            let flipped = format!("{placement} {other} - - 0 1");
            match Board::from_fen(&flipped, false) {
                Ok(b) if !b.checkers().is_empty() => {
                    "impossible position: the side not to move is in check".to_string()
                }
                _ => "impossible position (too many pieces, pawns or checkers)".to_string(),
            }
        }
        FenParseError::InvalidCastlingRights => {
            "castling rights do not match the king and rook placement".to_string()
        }
        FenParseError::InvalidEnPassant => "impossible en passant square: no pawn just moved \
             two squares past it, or the side to move is in a check that move could not give"
            .to_string(),
        other => format!("invalid FEN: {other}"),
    }
}

/// Writes a FEN. In standard chess and for outermost rooks the castling field is
/// `KQkq`; other Chess960 rooks are named by file (X-FEN), or always by file
/// when `shredder` is set.
pub fn to_fen(board: &Board, shredder: bool) -> String {
    let plain = format!("{board}");
    let mut fields: Vec<String> = plain.split(' ').map(str::to_string).collect();
    let mut castling = String::new();
    for color in Color::ALL {
        let rights = board.castle_rights(color);
        let rank = Rank::First.relative_to(color);
        let rooks = board.colored_pieces(color, Piece::Rook);
        let outer = |f: File, short: bool| {
            !rooks.iter().any(|sq: Square| {
                sq.rank() == rank && if short { sq.file() > f } else { sq.file() < f }
            })
        };
        for (file, short) in [(rights.short, true), (rights.long, false)] {
            let Some(file) = file else { continue };
            let c = if !shredder && outer(file, short) {
                if short { 'k' } else { 'q' }
            } else {
                char::from(file).to_ascii_lowercase()
            };
            castling.push(if color == Color::White {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    fields[2] = castling;
    fields.join(" ")
}
