//! `cutoff games export`: the corpus in the formats of the field's trainers,
//! written and read back with their own crates.
//!
//! - **viriformat** (Viridithas' whole-game format, crate `viriformat`): every
//!   game whole, as stored: the start board and result, every move with its
//!   score (White's view, centipawns, as in Cutoff's records). Its readers
//!   (bullet's viriformat loader, bullet-utils) filter as they read. Only game
//!   files can be exported so; the 32-byte position records of generation 0
//!   are not games.
//! - **bulletformat** (bullet's `ChessBoard`, crate `bulletformat`): one
//!   32-byte record per position, which bullet trains on as they come, so
//!   the positions are those Cutoff's trainer keeps with its default filter
//!   (`--skip-plies 8 --max-score 3000`, no position in check, none whose move
//!   played is a capture or promotion), in file order; position records are
//!   all kept, as the trainer keeps them.
//!
//! [`check`] reads an export back with the same crate and compares every
//! position (board, side to move), score and result with Cutoff's own
//! reading of the input.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use bulletformat::{BulletFormat, ChessBoard, DataLoader};
use viriformat::chess::board::{Board as ViriBoard, DrawType, GameOutcome, WinType};
use viriformat::chess::piece::Colour;
use viriformat::chess::types::Square as ViriSquare;
use viriformat::dataformat::{Game as ViriGame, WDL};

use super::GameRecord;
use super::positions::{self, Counts, Filter};
use super::records::{self, Packed};
use cutoff_engine::board::{Board, Color, Piece};

/// The formats `cutoff games export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Viridithas' whole games (crate `viriformat`).
    Viriformat,
    /// bullet's `ChessBoard` positions (crate `bulletformat`), filtered as Cutoff's trainer filters.
    Bulletformat,
}

/// What an export (or its check) covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Whole games written (viriformat).
    pub games: u64,
    /// Positions written: every stored ply (viriformat), or the positions
    /// that pass the filter (bulletformat).
    pub positions: u64,
    /// The trainer's counts of what the filter kept and dropped (bulletformat).
    pub counts: Option<Counts>,
}

impl Summary {
    pub fn describe(&self) -> String {
        let mut text = format!("{} games, {} positions", self.games, self.positions);
        if let Some(c) = &self.counts {
            text.push_str(&format!(" ({})", c.describe()));
        }
        text
    }
}

/// Exports `files` (game files, and for bulletformat 32-byte record files;
/// plain or `.xz`) to `out`; on an error `out` is removed.
pub fn run(
    format: Format,
    files: &[PathBuf],
    out: &Path,
    filter: &Filter,
) -> Result<Summary, String> {
    let written = write(format, files, out, filter);
    if written.is_err() {
        // A failed export leaves no file that could pass for a finished one.
        let _ = std::fs::remove_file(out);
    }
    written
}

/// `run`'s work, which may leave a partial file behind on an error.
fn write(
    format: Format,
    files: &[PathBuf],
    out: &Path,
    filter: &Filter,
) -> Result<Summary, String> {
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", out.display());
    let mut writer = BufWriter::new(File::create(out).map_err(fail)?);
    let summary = match format {
        Format::Viriformat => {
            let mut summary = Summary::default();
            for path in files {
                for game in read_games(path)? {
                    let viri = to_viriformat(&game).map_err(|e| {
                        format!("{}: game {}: {e}", path.display(), summary.games + 1)
                    })?;
                    viri.serialise_into(&mut writer).map_err(fail)?;
                    summary.games += 1;
                    summary.positions += game.plies.len() as u64;
                }
            }
            summary
        }
        Format::Bulletformat => {
            let (positions, counts) = load_filtered(files, filter)?;
            let mut boards = Vec::with_capacity(positions.len());
            for rec in &positions {
                let rec = records::decode(rec)?;
                boards.push(to_bulletformat(&rec.board, rec.score, rec.result)?);
            }
            ChessBoard::write_to_bin(&mut writer, &boards).map_err(fail)?;
            Summary {
                games: counts.games,
                positions: boards.len() as u64,
                counts: Some(counts),
            }
        }
    };
    writer.flush().map_err(fail)?;
    Ok(summary)
}

/// The whole games of a game file; damage is an error (export converts
/// files that `cutoff games` reads cleanly).
pub fn read_games(path: &Path) -> Result<Vec<GameRecord>, String> {
    let bytes = super::file::read_bytes(path)?;
    if !super::file::is_game_file(&bytes) {
        super::file::refuse_text(path, &bytes)?;
        return Err(format!(
            "{} holds 32-byte position records, not games: viriformat stores whole games (bulletformat takes them)",
            path.display()
        ));
    }
    let parsed = super::parse(&bytes);
    match &parsed.damage {
        Some(d) => Err(d.describe(&path.display().to_string(), parsed.games.len())),
        None => Ok(parsed.games),
    }
}

/// The positions Cutoff's trainer reads from `files` with `filter`, as
/// 32-byte records; damage is an error.
fn load_filtered(files: &[PathBuf], filter: &Filter) -> Result<(Vec<Packed>, Counts), String> {
    let (positions, counts) = positions::load(files, filter)?;
    if let Some(d) = counts.damage.first() {
        return Err(d.clone());
    }
    Ok((positions, counts))
}

/// A game in viriformat: the start as Shredder-FEN (so Chess960 castling
/// rights keep their rook files), moves matched against viriformat's own
/// move generator (castling is king takes rook in both), scores as stored.
pub fn to_viriformat(game: &GameRecord) -> Result<ViriGame, String> {
    let mut board = ViriBoard::new();
    let fen = format!("{:#}", game.start);
    board
        .set_from_fen(&fen, true)
        .map_err(|e| format!("viriformat refuses the start {fen}: {e}"))?;
    let mut viri = ViriGame::new(&board);
    viri.set_outcome(match game.result {
        2 => GameOutcome::WhiteWin(WinType::Adjudication),
        0 => GameOutcome::BlackWin(WinType::Adjudication),
        _ => GameOutcome::Draw(DrawType::Adjudication),
    });
    for (ply, &(mv, score)) in game.plies.iter().enumerate() {
        let text = mv.to_string();
        let vmv = board
            .parse_uci(&text)
            .map_err(|e| format!("ply {ply}: viriformat refuses {text}: {e}"))?;
        if !board.make_move_simple(vmv) {
            return Err(format!("ply {ply}: viriformat finds {text} illegal"));
        }
        viri.add_move(vmv, score);
    }
    Ok(viri)
}

/// A position in bulletformat: bitboards, side to move, score and result
/// from White's view (the crate turns them to the side to move's).
pub fn to_bulletformat(
    board: &Board,
    white_score: i16,
    white_result: f32,
) -> Result<ChessBoard, String> {
    let mut bbs = [0u64; 8];
    bbs[0] = board.colors(Color::White).0;
    bbs[1] = board.colors(Color::Black).0;
    for (i, piece) in Piece::ALL.into_iter().enumerate() {
        bbs[2 + i] = board.pieces(piece).0;
    }
    ChessBoard::from_raw(
        bbs,
        board.side_to_move() as usize,
        white_score,
        white_result,
    )
}

/// What a position read back must be: its pieces (colour, piece) per square,
/// side to move, score and result from White's view (0, 1, 2).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Expected {
    squares: [Option<(u8, u8)>; 64],
    white_to_move: bool,
    white_score: i16,
    white_result: u8,
}

fn expected(board: &Board, white_score: i16, white_result: u8) -> Expected {
    let mut squares = [None; 64];
    for sq in board.occupied() {
        let piece = board.piece_on(sq).map_or(0, |p| p as u8);
        let colour = board.color_on(sq).map_or(0, |c| c as u8);
        squares[sq as usize] = Some((colour, piece));
    }
    Expected {
        squares,
        white_to_move: board.side_to_move() == Color::White,
        white_score,
        white_result,
    }
}

fn from_viriformat(board: &ViriBoard, eval: i32, result: u8) -> Expected {
    let mut squares = [None; 64];
    for (i, slot) in squares.iter_mut().enumerate() {
        let sq = ViriSquare::new(i as u8).expect("0..64 are squares");
        *slot = board
            .piece_at(sq)
            .map(|p| (p.colour().inner(), p.piece_type().inner()));
    }
    Expected {
        squares,
        white_to_move: board.turn() == Colour::White,
        white_score: eval as i16,
        white_result: result,
    }
}

/// A bulletformat record seen from White again, given the side to move
/// Cutoff's reading says (bulletformat stores the position from the side to
/// move's view: Black's positions flipped, colours swapped).
fn from_bulletformat(board: &ChessBoard, white_to_move: bool) -> Expected {
    let mut squares = [None; 64];
    for (piece, square) in *board {
        let (mut colour, kind) = (piece >> 3, piece & 7);
        let mut sq = usize::from(square);
        if !white_to_move {
            colour ^= 1;
            sq ^= 56;
        }
        squares[sq] = Some((colour, kind));
    }
    let (score, result) = (board.score(), board.result_idx() as u8);
    Expected {
        squares,
        white_to_move,
        white_score: if white_to_move { score } else { -score },
        white_result: if white_to_move { result } else { 2 - result },
    }
}

/// What a check compared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    pub games: u64,
    pub positions: u64,
}

/// Reads `out` back with the format's crate and compares every position
/// (board, side to move), score and result with Cutoff's reading of `files`;
/// the first difference is the error.
pub fn check(
    format: Format,
    files: &[PathBuf],
    out: &Path,
    filter: &Filter,
) -> Result<Checked, String> {
    let mut checked = Checked::default();
    let name = out.display().to_string();
    match format {
        Format::Viriformat => {
            let file = File::open(out).map_err(|e| format!("cannot open {name}: {e}"))?;
            let mut reader = BufReader::new(file);
            for path in files {
                for game in read_games(path)? {
                    let n = checked.games + 1;
                    let viri = ViriGame::deserialise_from(&mut reader, Vec::new())
                        .map_err(|e| format!("{name}: game {n}: viriformat cannot read it: {e}"))?;
                    let result = match viri.outcome() {
                        WDL::Loss => 0,
                        WDL::Draw => 1,
                        WDL::Win => 2,
                    };
                    let mut want = Vec::new();
                    game.replay(|_, board, _, score| {
                        want.push(expected(board, score, game.result))
                    });
                    let mut got = Vec::new();
                    viri.visit_positions(|board, eval| {
                        got.push(from_viriformat(board, eval, result))
                    });
                    compare(&name, n, &want, &got)?;
                    checked.games += 1;
                    checked.positions += want.len() as u64;
                }
            }
            let mut rest = Vec::new();
            std::io::Read::read_to_end(&mut reader, &mut rest)
                .map_err(|e| format!("cannot read {name}: {e}"))?;
            if !rest.is_empty() {
                return Err(format!("{name}: {} bytes after the last game", rest.len()));
            }
        }
        Format::Bulletformat => {
            let (positions, counts) = load_filtered(files, filter)?;
            let mut got = Vec::new();
            DataLoader::<ChessBoard>::new(out, 64)
                .map_err(|e| format!("cannot open {name}: {e}"))?
                .map_positions(|b| got.push(*b));
            if got.len() != positions.len() {
                return Err(format!(
                    "{name}: {} positions, Cutoff's trainer keeps {}",
                    got.len(),
                    positions.len()
                ));
            }
            for (i, (rec, board)) in positions.iter().zip(&got).enumerate() {
                let rec = records::decode(rec)?;
                let want = expected(&rec.board, rec.score, (rec.result * 2.0) as u8);
                let back = from_bulletformat(board, want.white_to_move);
                if back != want {
                    return Err(format!(
                        "{name}: position {i} differs: {} written, {back:?} read back",
                        rec.board
                    ));
                }
            }
            checked.games = counts.games;
            checked.positions = got.len() as u64;
        }
    }
    Ok(checked)
}

fn compare(name: &str, game: u64, want: &[Expected], got: &[Expected]) -> Result<(), String> {
    if want.len() != got.len() {
        return Err(format!(
            "{name}: game {game}: {} positions read back, {} stored",
            got.len(),
            want.len()
        ));
    }
    for (ply, (w, g)) in want.iter().zip(got).enumerate() {
        if w != g {
            return Err(format!(
                "{name}: game {game}, ply {ply}: read back {g:?}, stored {w:?}"
            ));
        }
    }
    Ok(())
}
