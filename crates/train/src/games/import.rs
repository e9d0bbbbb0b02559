//! `cutoff games import`: PGN games whose moves carry engine scores, as
//! match runners write them (fastchess: `{+0.35/12 0.123s}` after each move,
//! the score in pawns from the mover's view, then depth and time; `{-M5/20
//! ...}` for mates, the distance in plies; `{book}` for opening moves), turned
//! into Cutoff's game records ([`crate::games`]).
//!
//! Each game becomes one record: the start position (the `FEN` tag, or the
//! standard start), every scored move with its score converted to the
//! record's convention, and the result of the `Result` tag. Moves without a
//! score (book moves, or no comment at all) before the first scored move are
//! played into the start: the position after them starts the record, since
//! the format has no way to mark a score as unknown and a made-up score would
//! be trained on. A game that cannot be replayed is dropped with one message
//! naming the file, the game's number in it and why.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::pgn::{self, san};
use super::{GameRecord, header};
use cutoff_engine::board::{Board, Color, fen};
use cutoff_engine::search::score::{MATE, MAX_PLY};

/// Centipawn scores are clamped to this size, so that none reads as a mate
/// (the records store mates as the search scores them, beyond 29,000).
pub const MAX_CP: i32 = 29_000;

/// What a move's comment says about its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comment {
    /// A book move: played, not searched.
    Book,
    /// The score of the search that chose the move, from the mover's view,
    /// as Cutoff's search scores: centipawns, or `MATE - plies` (negative
    /// when being mated).
    Score(i32),
    /// No comment, or one without a score.
    None,
}

/// Reads a match runner's move comment: `+0.35/12 0.123s`, `-1.20/9`,
/// `0.00/18 0.025s, Draw by 3-fold repetition`, `+M5/20 0.01s` (mate in 5
/// plies, as fastchess counts them), `-M4/112`, `book`.
pub fn parse_comment(text: Option<&str>) -> Comment {
    let Some(text) = text.map(str::trim) else {
        return Comment::None;
    };
    if text == "book" {
        return Comment::Book;
    }
    let Some((score, rest)) = text.split_once('/') else {
        return Comment::None;
    };
    // A number of pawns alone (no depth after the slash) is no score.
    let depth = rest.split([' ', ',']).next().unwrap_or("");
    if depth.is_empty() || !depth.bytes().all(|b| b.is_ascii_digit()) {
        return Comment::None;
    }
    let (negative, magnitude) = match score.as_bytes().first() {
        Some(b'-') => (true, &score[1..]),
        Some(b'+') => (false, &score[1..]),
        _ => (false, score),
    };
    let value = if let Some(plies) = magnitude.strip_prefix('M') {
        let Ok(plies) = plies.parse::<u32>() else {
            return Comment::None;
        };
        MATE - plies.min(MAX_PLY as u32) as i32
    } else {
        if magnitude.is_empty() || !magnitude.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return Comment::None;
        }
        let Ok(pawns) = magnitude.parse::<f64>() else {
            return Comment::None;
        };
        (pawns * 100.0).round().min(f64::from(MAX_CP)) as i32
    };
    Comment::Score(if negative { -value } else { value })
}

/// The record's score: White's point of view, as datagen stores it.
pub fn white_score(mover: Color, score: i32) -> i16 {
    let white = if mover == Color::White { score } else { -score };
    white.clamp(-32_000, 32_000) as i16
}

/// One PGN game as a record, or why it cannot be one. Returns the record
/// and the number of unscored plies played into its start.
pub fn convert(game: &pgn::Game) -> Result<(GameRecord, usize), String> {
    let tag_result = game.tag("Result");
    let result_text = match (tag_result, game.result.as_deref()) {
        (Some(tag), Some(token)) if tag != token => {
            return Err(format!(
                "the Result tag says {tag} and the move text ends with {token}"
            ));
        }
        (Some(r), _) | (None, Some(r)) => r,
        (None, None) => return Err("no result".into()),
    };
    let result = match result_text {
        "1-0" => 2,
        "1/2-1/2" => 1,
        "0-1" => 0,
        r => return Err(format!("unknown result '{r}'")),
    };
    let mut board = match game.tag("FEN") {
        Some(text) => fen::parse_fen(text).map_err(|e| format!("bad FEN '{text}': {e}"))?,
        None => Board::default(),
    };
    let mut start = None;
    let mut plies = Vec::new();
    let mut book = 0;
    for (i, text) in game.moves.iter().enumerate() {
        let name = || {
            let number = board.fullmove_number();
            let dots = if board.side_to_move() == Color::White {
                "."
            } else {
                "..."
            };
            format!("move {number}{dots} {text}")
        };
        let mv = san::parse(&board, text).map_err(|e| format!("{}: {e}", name()))?;
        let comment = game.comments.get(i).and_then(|c| c.as_deref());
        match parse_comment(comment) {
            Comment::Score(score) => {
                start.get_or_insert_with(|| board.clone());
                plies.push((mv, white_score(board.side_to_move(), score)));
            }
            _ if start.is_none() => book += 1,
            _ => {
                let what = comment.map_or("no comment".to_string(), |c| format!("{{{c}}}"));
                return Err(format!("{}: no score ({what}) after scored moves", name()));
            }
        }
        board.play_unchecked(mv);
    }
    let start = start.ok_or("no scored move")?;
    Ok((
        GameRecord {
            start,
            result,
            plies,
        },
        book,
    ))
}

/// What an import did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub files: usize,
    pub games: usize,
    /// Stored plies (positions) of the games written.
    pub positions: usize,
    /// Unscored (book) plies played into the games' starts.
    pub book_plies: usize,
    /// One line per dropped game: file, game number, why.
    pub dropped: Vec<String>,
}

impl Summary {
    pub fn describe(&self, out: &Path) -> String {
        format!(
            "imported {} games ({} positions; {} book plies moved into the starts) from {} PGN files into {}; dropped {} games",
            self.games,
            self.positions,
            self.book_plies,
            self.files,
            out.display(),
            self.dropped.len()
        )
    }
}

/// Converts the games of PGN text; `name` names the file in messages.
pub fn import_text(name: &str, text: &str, games: &mut Vec<GameRecord>, summary: &mut Summary) {
    for (n, game) in pgn::Reader::new(text).enumerate() {
        match convert(&game) {
            Ok((record, book)) => {
                summary.games += 1;
                summary.positions += record.plies.len();
                summary.book_plies += book;
                games.push(record);
            }
            Err(why) => summary
                .dropped
                .push(format!("{name}: game {}: dropped: {why}", n + 1)),
        }
    }
}

/// Imports the PGN files into the game file `out` (written anew; `.xz`
/// compresses it). Unreadable files and a failed write are errors; bad
/// games are dropped and listed in the summary.
pub fn run(pgn: &[PathBuf], out: &Path) -> Result<Summary, String> {
    let mut summary = Summary::default();
    let mut games = Vec::new();
    for path in pgn {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let text = String::from_utf8_lossy(&bytes);
        import_text(&path.display().to_string(), &text, &mut games, &mut summary);
        summary.files += 1;
    }
    write(out, &games)?;
    Ok(summary)
}

/// Writes a game file: the header, then the games (`.xz` if the name says so).
pub fn write(out: &Path, games: &[GameRecord]) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", out.display());
    let file = BufWriter::new(File::create(out).map_err(fail)?);
    let mut sink: Box<dyn Write> = if out.extension().is_some_and(|e| e == "xz") {
        Box::new(liblzma::write::XzEncoder::new(file, 9))
    } else {
        Box::new(file)
    };
    sink.write_all(&header()).map_err(fail)?;
    for game in games {
        sink.write_all(&game.encode()).map_err(fail)?;
    }
    sink.flush().map_err(fail)?;
    drop(sink);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(text: &str) -> Comment {
        parse_comment(Some(text))
    }

    #[test]
    fn reads_scores_mates_and_book_moves() {
        assert_eq!(score("+0.35/12 0.123s"), Comment::Score(35));
        assert_eq!(score("-1.20/9 0.010s"), Comment::Score(-120));
        assert_eq!(
            score("0.00/18 0.025s, Draw by 3-fold repetition"),
            Comment::Score(0)
        );
        assert_eq!(score("+12.07/30"), Comment::Score(1207));
        assert_eq!(score("-0.01/1 0.000s"), Comment::Score(-1));
        assert_eq!(score("+M5/20 0.011s"), Comment::Score(MATE - 5));
        assert_eq!(score("-M4/112 0.005s"), Comment::Score(-(MATE - 4)));
        assert_eq!(
            score("+M1/126 0.002s, Black mates"),
            Comment::Score(MATE - 1)
        );
        assert_eq!(score("+M999/5"), Comment::Score(MATE - MAX_PLY as i32));
        assert_eq!(score("+400.00/3"), Comment::Score(MAX_CP));
        assert_eq!(score("book"), Comment::Book);
        assert_eq!(parse_comment(None), Comment::None);
        for other in [
            "",
            "a comment",
            "draw 1/2",
            "+0.35",
            "+0.35/ 1s",
            "+x/12",
            "M/3",
            "+1e3/4",
        ] {
            assert_eq!(score(other), Comment::None, "{other}");
        }
    }

    #[test]
    fn scores_are_stored_from_whites_view() {
        assert_eq!(white_score(Color::White, 35), 35);
        assert_eq!(white_score(Color::Black, 35), -35);
        assert_eq!(white_score(Color::Black, -(MATE - 4)), (MATE - 4) as i16);
    }

    fn import(text: &str) -> (Vec<GameRecord>, Summary) {
        let (mut games, mut summary) = (Vec::new(), Summary::default());
        import_text("t.pgn", text, &mut games, &mut summary);
        (games, summary)
    }

    #[test]
    fn book_moves_move_the_start_and_scores_turn_to_whites_view() {
        let (games, summary) = import(
            "[Result \"0-1\"]\n1. e4 {book} e5 {book} 2. Nf3 {+0.43/8 0.006s} Nc6 {-0.28/11 0.015s} \
             3. Bc4 {+M3/10} 0-1\n",
        );
        assert!(summary.dropped.is_empty(), "{:?}", summary.dropped);
        assert_eq!(
            (summary.games, summary.positions, summary.book_plies),
            (1, 3, 2)
        );
        let game = &games[0];
        assert_eq!(
            format!("{}", game.start),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
        );
        assert_eq!(game.result, 0);
        let scores: Vec<i16> = game.plies.iter().map(|p| p.1).collect();
        assert_eq!(scores, [43, 28, (MATE - 3) as i16]);
        let moves: Vec<String> = game.plies.iter().map(|p| p.0.to_string()).collect();
        assert_eq!(moves, ["g1f3", "b8c6", "f1c4"]);
    }

    #[test]
    fn bad_games_are_dropped_with_one_message_each() {
        let text = "\
[Result \"1-0\"]\n1. e4 {+0.30/10} e5 {-0.20/10} 2. Ke3 {+0.10/3} 1-0\n\n\
[Result \"*\"]\n1. e4 {+0.30/10} *\n\n\
[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n1. e4 {+0.30/10} 1/2-1/2\n\n\
[Result \"1-0\"]\n1. e4 {+0.30/10} e5 2. Nf3 {+0.1/2} 1-0\n\n\
[Result \"1-0\"]\n1. e4 {book} 1-0\n\n\
[Result \"1-0\"]\n1. e4 {+0.30/10} e5 {-0.20/10} 0-1\n\n\
[Result \"1-0\"]\n1. d4 {+0.25/10} d5 {-0.20/10} 1-0\n";
        let (games, summary) = import(text);
        assert_eq!(summary.games, 1);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].plies.len(), 2);
        let want = [
            "t.pgn: game 1: dropped: move 2. Ke3: illegal or unreadable move 'Ke3'",
            "t.pgn: game 2: dropped: unknown result '*'",
            "t.pgn: game 3: dropped: bad FEN '8/8/8/8/8/8/8/8 w - - 0 1'",
            "t.pgn: game 4: dropped: move 1... e5: no score (no comment) after scored moves",
            "t.pgn: game 5: dropped: no scored move",
            "t.pgn: game 6: dropped: the Result tag says 1-0 and the move text ends with 0-1",
        ];
        assert_eq!(summary.dropped.len(), want.len(), "{:?}", summary.dropped);
        for (got, want) in summary.dropped.iter().zip(want) {
            assert!(got.starts_with(want), "{got}\n  wanted {want}");
        }
    }
}
