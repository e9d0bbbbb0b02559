//! Parsing of UCI input lines into commands. Pure: no engine state here.

/// A parsed UCI command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    IsReady,
    UciNewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `fen: None` is the start position.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    /// A `position` command too malformed to give a position.
    BadPosition(String),
    Go(GoArgs),
    Perft(u32),
    Stop,
    PonderHit,
    Quit,
    Display,
    Eval,
    /// `bench [args]`, as `cutoff bench` (`bench::Spec::from_words`).
    Bench(crate::bench::Spec),
    Debug(bool),
    Register,
    /// Blank line: nothing to do.
    Empty,
}

/// The arguments of `go`, with moves still in text form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoArgs {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    /// Parameters that were ignored, and why.
    pub warnings: Vec<String>,
}

/// Parses one line of UCI input.
pub fn parse(line: &str) -> Result<Command, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = words.split_first() else {
        return Ok(Command::Empty);
    };
    Ok(match head {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "setoption" => parse_setoption(rest)?,
        "position" => parse_position(rest).unwrap_or_else(Command::BadPosition),
        "go" => parse_go(rest)?,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "bench" => Command::Bench(crate::bench::Spec::from_words(rest)?),
        "debug" => match rest {
            ["on"] => Command::Debug(true),
            ["off"] => Command::Debug(false),
            _ => return Err("debug needs 'on' or 'off'".into()),
        },
        "register" => Command::Register,
        other => return Err(format!("unknown command '{}'", clip(other))),
    })
}

/// Echoed input is cut short: a junk line may be megabytes long.
pub const ECHO_CHARS: usize = 80;

/// `text`, cut to `ECHO_CHARS` characters (then `...`).
pub fn clip(text: &str) -> String {
    match text.char_indices().nth(ECHO_CHARS) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{what} needs a number, got '{}'", clip(text)))
}

/// An integer, saturated to the `i64` range (`None` if not an integer).
fn integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let overflow = if text.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    };
    Some(text.parse().unwrap_or(overflow))
}

/// `setoption name <name...> [value <value...>]`; names may contain spaces.
fn parse_setoption(words: &[&str]) -> Result<Command, String> {
    if words.first() != Some(&"name") {
        return Err("setoption needs 'name <option>'".into());
    }
    let value_at = words.iter().position(|&w| w == "value");
    let name_words = &words[1..value_at.unwrap_or(words.len())];
    if name_words.is_empty() {
        return Err("setoption needs an option name".into());
    }
    let value = value_at.map(|i| words[i + 1..].join(" "));
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value,
    })
}

/// `position startpos|fen <FEN> [moves m1 m2 ...]`.
fn parse_position(words: &[&str]) -> Result<Command, String> {
    let moves_at = words.iter().position(|&w| w == "moves");
    let setup = &words[..moves_at.unwrap_or(words.len())];
    let moves = moves_at.map_or(Vec::new(), |i| {
        words[i + 1..].iter().map(|s| s.to_string()).collect()
    });
    let fen = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => None,
        Some(&"startpos") => return Err("unexpected words after 'startpos'".into()),
        Some(&"fen") if setup.len() > 1 => Some(setup[1..].join(" ")),
        Some(&"fen") => return Err("position fen needs a FEN".into()),
        _ => return Err("position needs 'startpos' or 'fen <FEN>'".into()),
    };
    Ok(Command::Position { fen, moves })
}

/// The `go` parameters that take a number. Public, like `GO_FLAGS`, so that
/// tests build their `go` lines from the parser's own list.
pub const GO_LIMITS: &[&str] = &[
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "mate",
];
/// The `go` parameters that take no number (`searchmoves` takes the moves
/// after it).
pub const GO_FLAGS: &[&str] = &["infinite", "ponder", "searchmoves"];

/// Whether `word` is a `go` keyword: `perft` too, which makes `go perft N`
/// a command of its own rather than a search.
fn is_go_keyword(word: &str) -> bool {
    GO_LIMITS.contains(&word) || GO_FLAGS.contains(&word) || word == "perft"
}

/// `go ...`: never refused (every `go` needs a `bestmove`); a bad parameter
/// is skipped with a warning, an out-of-range number clamped.
fn parse_go(words: &[&str]) -> Result<Command, String> {
    let mut args = GoArgs::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        i += 1;
        match key {
            "infinite" => args.infinite = true,
            "ponder" => args.ponder = true,
            "searchmoves" => {
                args.searchmoves = words[i..].iter().map(|s| s.to_string()).collect();
                break;
            }
            "perft" => {
                let depth = words.get(i).ok_or("go perft needs a depth")?;
                return Ok(Command::Perft(number(depth, "go perft")?));
            }
            _ if GO_LIMITS.contains(&key) => match words.get(i).map(|w| (w, integer(w))) {
                Some((_, Some(n))) => {
                    set_limit(&mut args, key, n);
                    i += 1;
                }
                // A bad value is skipped too, unless it is the next keyword.
                Some((w, None)) if !is_go_keyword(w) => {
                    args.warnings
                        .push(format!("'{key}' needs a number, got '{}'", clip(w)));
                    i += 1;
                }
                _ => args.warnings.push(format!("'{key}' needs a number")),
            },
            other => args
                .warnings
                .push(format!("unknown parameter '{}'", clip(other))),
        }
    }
    Ok(Command::Go(args))
}

fn set_limit(args: &mut GoArgs, key: &str, n: i64) {
    let long = n.max(0) as u64;
    let short = n.clamp(0, u32::MAX.into()) as u32;
    match key {
        "depth" => args.depth = Some(short),
        "nodes" => args.nodes = Some(long),
        "movetime" => args.movetime = Some(long),
        "wtime" => args.wtime = Some(n),
        "btime" => args.btime = Some(n),
        "winc" => args.winc = Some(n),
        "binc" => args.binc = Some(n),
        "movestogo" => args.movestogo = Some(short),
        _ => args.mate = Some(short),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_setoption_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 30").unwrap(),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash").unwrap(),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
    }

    #[test]
    fn parses_position_and_go() {
        let cmd = parse("position startpos moves e2e4 e7e5").unwrap();
        assert_eq!(
            cmd,
            Command::Position {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
        let Command::Go(g) = parse("go wtime 1000 btime 900 winc 10 binc 10 movestogo 5").unwrap()
        else {
            panic!("not go")
        };
        assert_eq!(
            (g.wtime, g.btime, g.movestogo),
            (Some(1000), Some(900), Some(5))
        );
        let Command::Go(g) = parse("go infinite searchmoves e2e4 d2d4").unwrap() else {
            panic!("not go")
        };
        assert!(g.infinite);
        assert_eq!(g.searchmoves, vec!["e2e4", "d2d4"]);
    }

    #[test]
    fn rejects_bad_input() {
        assert!(parse("go perft x").is_err());
        assert!(matches!(parse("position"), Ok(Command::BadPosition(_))));
        assert!(matches!(parse("position fen"), Ok(Command::BadPosition(_))));
        assert!(parse("fly").is_err());
        assert_eq!(parse("   ").unwrap(), Command::Empty);
    }

    #[test]
    fn go_skips_bad_parameters_and_clamps_numbers() {
        let Ok(Command::Go(g)) = parse("go depth x movetime -5 nodes 99999999999999999999999 foo")
        else {
            panic!("not go")
        };
        assert_eq!(
            (g.depth, g.movetime, g.nodes),
            (None, Some(0), Some(u64::MAX >> 1))
        );
        assert_eq!(g.warnings.len(), 2, "{:?}", g.warnings);
        let Ok(Command::Go(g)) = parse("go depth") else {
            panic!("not go")
        };
        assert_eq!((g.depth, g.warnings.len()), (None, 1));
        let long = "x".repeat(10_000);
        assert!(parse(&long).unwrap_err().len() < 2 * ECHO_CHARS);
    }

    /// The public lists are what the parser knows: each word is taken as a
    /// keyword (not as the missing number of `depth`), with no other warning.
    #[test]
    fn go_keyword_lists_match_the_parser() {
        let limits = GO_LIMITS.iter().map(|w| format!("{w} 5"));
        for words in limits.chain(GO_FLAGS.iter().map(|w| w.to_string())) {
            let Ok(Command::Go(g)) = parse(&format!("go depth {words}")) else {
                panic!("go depth {words}: not go")
            };
            assert_eq!(g.warnings, ["'depth' needs a number"], "go depth {words}");
        }
        assert_eq!(parse("go depth perft 2").unwrap(), Command::Perft(2));
    }
}
