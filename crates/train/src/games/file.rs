//! Reading game files: every move replayed and checked, damage reported
//! with the file and byte offset, the whole games before it kept.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use super::pack::{BOARD_BYTES, unpack_board, unpack_move};
use super::{GameRecord, HEADER_BYTES, MAGIC, VERSION};

/// What a file held: its whole games, and where reading stopped if it did
/// not reach the end.
#[derive(Debug, Default)]
pub struct Parsed {
    pub games: Vec<GameRecord>,
    /// Bytes of the header and the whole games.
    pub whole_bytes: usize,
    pub damage: Option<Damage>,
}

/// Why reading stopped early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// Byte offset of the first bad byte (in the uncompressed data).
    pub offset: usize,
    pub why: String,
    /// The data simply ended inside a game (a write cut short).
    pub truncated: bool,
}

impl Damage {
    /// The error text for the file `name`.
    pub fn describe(&self, name: &str, whole_games: usize) -> String {
        format!(
            "{name}: byte offset {}: {} ({whole_games} whole games before it were read)",
            self.offset, self.why
        )
    }
}

/// Reads a game file, plain or `.xz`; an unreadable file is an error,
/// damage inside it is reported in [`Parsed::damage`].
pub fn read(path: &Path) -> Result<Parsed, String> {
    let bytes = read_bytes(path)?;
    Ok(parse(&bytes))
}

/// The file's bytes, decompressed if its name ends in `.xz`.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    let read = if path.extension().is_some_and(|e| e == "xz") {
        liblzma::read::XzDecoder::new(BufReader::new(file)).read_to_end(&mut bytes)
    } else {
        BufReader::new(file).read_to_end(&mut bytes)
    };
    read.map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(bytes)
}

/// Whether `bytes` start like a game file (the trainer also reads the older
/// 32-byte position records, which have no header).
pub fn is_game_file(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// For a file that is no game file: an error naming `path` when its start
/// reads as text (a PGN, say), which neither game files nor 32-byte records
/// ever do, with the command that turns PGN games into a game file.
pub fn refuse_text(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let start = &bytes[..bytes.len().min(256)];
    let text = !start.is_empty()
        && start
            .iter()
            .all(|&b| b.is_ascii_graphic() || b.is_ascii_whitespace());
    if !text {
        return Ok(());
    }
    Err(format!(
        "{} is text, not a game file or 32-byte records; PGN games become a game file with `cutoff games import --pgn {} --out FILE`",
        path.display(),
        path.display()
    ))
}

/// Parses a whole file's bytes. An empty input is an empty file.
pub fn parse(bytes: &[u8]) -> Parsed {
    let mut out = Parsed::default();
    if bytes.is_empty() {
        return out;
    }
    if let Err(damage) = check_header(bytes) {
        out.damage = Some(damage);
        return out;
    }
    let mut at = HEADER_BYTES;
    out.whole_bytes = at;
    while at < bytes.len() {
        match parse_game(bytes, at) {
            Ok((game, next)) => {
                out.games.push(game);
                at = next;
                out.whole_bytes = at;
            }
            Err(damage) => {
                out.damage = Some(damage);
                break;
            }
        }
    }
    out
}

fn check_header(bytes: &[u8]) -> Result<(), Damage> {
    let bad = |why: String, truncated| Damage {
        offset: 0,
        why,
        truncated,
    };
    if bytes.len() < HEADER_BYTES {
        return Err(bad(
            "the header is cut off".into(),
            MAGIC.starts_with(bytes),
        ));
    }
    if !is_game_file(bytes) {
        return Err(bad(
            "not a Cutoff game file (no CUTOFFG header)".into(),
            false,
        ));
    }
    match bytes[MAGIC.len()] {
        VERSION => Ok(()),
        v => Err(bad(
            format!("format version {v}, this build reads {VERSION}"),
            false,
        )),
    }
}

/// One game starting at byte `at`; returns it and the offset after it.
fn parse_game(bytes: &[u8], at: usize) -> Result<(GameRecord, usize), Damage> {
    let cut = |offset| Damage {
        offset,
        why: "the data ends inside a game".into(),
        truncated: true,
    };
    let bad = |offset, why| Damage {
        offset,
        why,
        truncated: false,
    };
    let packed: &[u8; BOARD_BYTES] = bytes
        .get(at..at + BOARD_BYTES)
        .and_then(|s| s.try_into().ok())
        .ok_or_else(|| cut(at))?;
    let (start, result) =
        unpack_board(packed).map_err(|e| bad(at, format!("bad start board: {e}")))?;
    let mut board = start.clone();
    let mut plies = Vec::new();
    let mut pos = at + BOARD_BYTES;
    loop {
        let word = bytes.get(pos..pos + 4).ok_or_else(|| cut(pos))?;
        let bits = u16::from_le_bytes([word[0], word[1]]);
        let score = i16::from_le_bytes([word[2], word[3]]);
        pos += 4;
        if bits == 0 {
            if score != 0 {
                return Err(bad(pos - 4, "bad game terminator".into()));
            }
            break;
        }
        let mv = unpack_move(bits).map_err(|e| bad(pos - 4, e))?;
        if !board.is_legal(mv) {
            return Err(bad(
                pos - 4,
                format!("illegal move {mv} at ply {}", plies.len()),
            ));
        }
        board.play_unchecked(mv);
        plies.push((mv, score));
    }
    Ok((
        GameRecord {
            start,
            result,
            plies,
        },
        pos,
    ))
}
