//! Opening a set of Syzygy tables and probing them (WDL anywhere, DTZ at the
//! root). pyrrhic-rs keeps its tables in process-wide state and allows one
//! open set at a time, so `open` hands out one shared handle per path.

use std::path::Path;
use std::sync::{Arc, Mutex};

use cozy_chess::{Board, Move, Piece, Square};
use pyrrhic_rs::{DtzProbeValue, TableBases, WdlProbeResult};

use super::adapter::{Bitboards, CozyAdapter, probeable};

/// Calls a pyrrhic-rs probe with a position's bitboards: both probes take
/// the same ten loose arguments, the root probe the halfmove clock too.
macro_rules! probe {
    ($tables:expr, $probe:ident, $b:expr $(, $rule50:expr)?) => {{
        let b: &Bitboards = &$b;
        $tables.$probe(
            b.white,
            b.black,
            b.kings,
            b.queens,
            b.rooks,
            b.bishops,
            b.knights,
            b.pawns,
            $($rule50,)?
            b.ep,
            b.white_to_move,
        )
    }};
}

/// A tablebase result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    /// A loss that the fifty-move rule turns into a draw.
    BlessedLoss,
    Draw,
    /// A win that the fifty-move rule turns into a draw.
    CursedWin,
    Win,
}

impl Wdl {
    /// Syzygy's numbering, as python-chess prints it: -2 (loss) to 2 (win).
    pub fn value(self) -> i32 {
        self as i32 - 2
    }

    fn from_probe(r: WdlProbeResult) -> Self {
        match r {
            WdlProbeResult::Loss => Wdl::Loss,
            WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
            WdlProbeResult::Draw => Wdl::Draw,
            WdlProbeResult::CursedWin => Wdl::CursedWin,
            WdlProbeResult::Win => Wdl::Win,
        }
    }
}

/// One root move with its tablebase result for the mover and the distance
/// (in plies) to the next capture or pawn move, positive when winning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootEntry {
    pub mv: Move,
    pub wdl: Wdl,
    pub dtz: i32,
}

/// A root probe: the position's own DTZ (signed like `RootEntry::dtz`, 0
/// when the game is over) and every legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootProbe {
    pub dtz: i32,
    pub moves: Vec<RootEntry>,
}

fn signed_dtz(wdl: Wdl, dtz: u16) -> i32 {
    if wdl < Wdl::Draw {
        -i32::from(dtz)
    } else {
        i32::from(dtz)
    }
}

/// An open set of tables.
pub struct Tablebase {
    tables: TableBases<CozyAdapter>,
    path: String,
    /// Pieces of the largest table found (pyrrhic-rs 0.2.0 reports 7
    /// whatever the folder holds: it takes every missing file for present).
    max_pieces: u32,
    /// Serialises root probes, which the prober does not promise to be
    /// thread-safe.
    root_lock: Mutex<()>,
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase")
            .field("path", &self.path)
            .field("max_pieces", &self.max_pieces)
            .finish()
    }
}

/// The set now open. It is dropped (and the prober's global state closed)
/// only here, under this lock: a handle dropped on another thread while a
/// new set opens would otherwise race the prober's one-set-per-process rule.
static OPEN: Mutex<Option<Arc<Tablebase>>> = Mutex::new(None);

const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

impl Tablebase {
    /// Opens the tables in `path` (folders separated by `:`), or shares the
    /// set already open there. Another path while a set is still in use is
    /// an error: the prober holds one set per process.
    pub fn open(path: &str) -> Result<Arc<Tablebase>, String> {
        let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tb) = open.as_ref() {
            if tb.path == path {
                return Ok(Arc::clone(tb));
            }
            // Only the lock hands out handles, so a count of one stays one.
            if Arc::strong_count(tb) > 1 {
                return Err(format!("tables from {} are still in use", tb.path));
            }
            *open = None;
        }
        let max_pieces = check_path(path)?;
        let tables = TableBases::<CozyAdapter>::new(path)
            .map_err(|e| format!("cannot open the tables in {path}: {e:?}"))?;
        let tb = Arc::new(Tablebase {
            tables,
            path: path.to_string(),
            max_pieces,
            root_lock: Mutex::new(()),
        });
        *open = Some(Arc::clone(&tb));
        Ok(tb)
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    /// Pieces (kings included) of the largest table found.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The WDL result for the side to move, ignoring the halfmove clock
    /// (cursed wins and blessed losses come out as such). `None` when the
    /// position is not in the tables.
    pub fn probe_wdl(&self, board: &Board) -> Option<Wdl> {
        if board.occupied().len() > self.max_pieces() || !probeable(board) {
            return None;
        }
        let b = Bitboards::new(board);
        probe!(self.tables, probe_wdl, b).ok().map(Wdl::from_probe)
    }

    /// The position's DTZ and every legal move with its result under the
    /// fifty-move rule counted from `rule50` (the halfmove clock, or 0 to
    /// ignore it). `None` when the position or a DTZ table is missing.
    pub fn probe_root(&self, board: &Board, rule50: u32) -> Option<RootProbe> {
        if board.occupied().len() > self.max_pieces() || !probeable(board) {
            return None;
        }
        let b = Bitboards::new(board);
        let _guard = self.root_lock.lock().unwrap_or_else(|e| e.into_inner());
        let probe = probe!(self.tables, probe_root, b, rule50).ok()?;
        let dtz = match probe.root {
            DtzProbeValue::DtzResult(r) => signed_dtz(Wdl::from_probe(r.wdl), r.dtz),
            DtzProbeValue::Checkmate | DtzProbeValue::Stalemate => 0,
            DtzProbeValue::Failed => return None,
        };
        let mut entries = Vec::with_capacity(probe.num_moves);
        for value in &probe.moves[..probe.num_moves.min(probe.moves.len())] {
            let DtzProbeValue::DtzResult(r) = value else {
                return None;
            };
            let wdl = Wdl::from_probe(r.wdl);
            let mv = Move {
                from: Square::index(usize::from(r.from_square) & 63),
                to: Square::index(usize::from(r.to_square) & 63),
                promotion: promotion(r.promotion),
            };
            if !board.is_legal(mv) {
                return None;
            }
            entries.push(RootEntry {
                mv,
                wdl,
                dtz: signed_dtz(wdl, r.dtz),
            });
        }
        Some(RootProbe {
            dtz,
            moves: entries,
        })
    }
}

fn promotion(p: pyrrhic_rs::Piece) -> Option<Piece> {
    match p {
        pyrrhic_rs::Piece::Queen => Some(Piece::Queen),
        pyrrhic_rs::Piece::Rook => Some(Piece::Rook),
        pyrrhic_rs::Piece::Bishop => Some(Piece::Bishop),
        pyrrhic_rs::Piece::Knight => Some(Piece::Knight),
        _ => None,
    }
}

/// True for a Syzygy table name such as `KRPvKN` (7 pieces at most).
fn is_table_name(stem: &str) -> bool {
    let Some((white, black)) = stem.split_once('v') else {
        return false;
    };
    let side_ok = |s: &str| s.starts_with('K') && s[1..].chars().all(|c| "QRBNP".contains(c));
    side_ok(white) && side_ok(black) && stem.len() - 1 <= 7
}

/// Checks every folder before the prober sees it (pyrrhic-rs cannot open a
/// second set after a path without tables, and trusts each file's contents)
/// and returns the pieces of the largest WDL table.
fn check_path(path: &str) -> Result<u32, String> {
    if path.contains('\0') {
        return Err("the path holds a NUL character".into());
    }
    let mut max_pieces = 0;
    for folder in path.split(':').filter(|f| !f.is_empty()) {
        let entries =
            std::fs::read_dir(folder).map_err(|e| format!("cannot read {folder}: {e}"))?;
        for entry in entries.flatten() {
            let file = entry.path();
            let (Some(stem), Some(ext)) = (
                file.file_stem().and_then(|s| s.to_str()),
                file.extension().and_then(|s| s.to_str()),
            ) else {
                continue;
            };
            let magic = match ext {
                "rtbw" => WDL_MAGIC,
                "rtbz" => DTZ_MAGIC,
                _ => continue,
            };
            if !is_table_name(stem) {
                continue;
            }
            check_file(&file, magic)?;
            if ext == "rtbw" {
                max_pieces = max_pieces.max(stem.len() as u32 - 1);
            }
        }
    }
    if max_pieces == 0 {
        return Err(format!("no Syzygy WDL tables (*.rtbw) in {path}"));
    }
    Ok(max_pieces)
}

/// A table file must be readable, start with its magic number and have the
/// size the format implies (16 more than a multiple of 64).
fn check_file(file: &Path, magic: [u8; 4]) -> Result<(), String> {
    use std::io::Read;
    let bad = |why: &str| format!("{}: {why}", file.display());
    let mut f = std::fs::File::open(file).map_err(|e| bad(&e.to_string()))?;
    let len = f.metadata().map_err(|e| bad(&e.to_string()))?.len();
    let mut head = [0u8; 4];
    f.read_exact(&mut head).map_err(|e| bad(&e.to_string()))?;
    if head != magic || len % 64 != 16 {
        return Err(bad("not a Syzygy table (bad header or size)"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_are_recognised() {
        assert!(is_table_name("KQvK"));
        assert!(is_table_name("KRPvKN"));
        assert!(!is_table_name("KQvQ"));
        assert!(!is_table_name("notes"));
        assert!(!is_table_name("KQQQQvKQQ"));
    }

    #[test]
    fn a_path_without_tables_is_refused() {
        let err = check_path("/nonexistent/syzygy").unwrap_err();
        assert!(err.contains("cannot read"), "{err}");
        let err = check_path("src").unwrap_err();
        assert!(err.contains("no Syzygy"), "{err}");
    }
}
