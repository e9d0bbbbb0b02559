//! Reading game files: every move replayed and checked, damage reported
//! with the file and byte offset, the whole games before it kept.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use super::pack::{BOARD_BYTES, unpack_board};
use super::{GameRecord, HEADER_BYTES, MAGIC, VERSION, VERSIONS, plies};

/// What a file held: its whole games, and where reading stopped if it did
/// not reach the end.
#[derive(Debug, Default)]
pub struct Parsed {
    pub games: Vec<GameRecord>,
    /// The header's format version ([`VERSION`] for an empty file).
    pub version: u8,
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
    /// The data ends inside a game at `offset` (a write cut short).
    pub fn cut(offset: usize) -> Self {
        Self {
            offset,
            why: "the data ends inside a game".into(),
            truncated: true,
        }
    }

    /// Bad bytes at `offset`, for the reason `why`.
    pub fn bad(offset: usize, why: String) -> Self {
        Self {
            offset,
            why,
            truncated: false,
        }
    }

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
    let mut out = Parsed {
        version: VERSION,
        ..Parsed::default()
    };
    if bytes.is_empty() {
        return out;
    }
    match check_header(bytes) {
        Ok(version) => out.version = version,
        Err(damage) => {
            out.damage = Some(damage);
            return out;
        }
    }
    let mut at = HEADER_BYTES;
    out.whole_bytes = at;
    while at < bytes.len() {
        match parse_game(bytes, at, out.version) {
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

/// The header's version, if the header is whole and one this build reads.
fn check_header(bytes: &[u8]) -> Result<u8, Damage> {
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
        v if VERSIONS.contains(&v) => Ok(v),
        v => Err(bad(
            format!("format version {v}, this build reads {VERSIONS:?}"),
            false,
        )),
    }
}

/// One game starting at byte `at`; returns it and the offset after it.
fn parse_game(bytes: &[u8], at: usize, version: u8) -> Result<(GameRecord, usize), Damage> {
    let packed: &[u8; BOARD_BYTES] = bytes
        .get(at..at + BOARD_BYTES)
        .and_then(|s| s.try_into().ok())
        .ok_or_else(|| Damage::cut(at))?;
    let (start, result) =
        unpack_board(packed).map_err(|e| Damage::bad(at, format!("bad start board: {e}")))?;
    let (plies, end) = plies::decode(bytes, at + BOARD_BYTES, &start, version)?;
    Ok((
        GameRecord {
            start,
            result,
            plies,
        },
        end,
    ))
}
