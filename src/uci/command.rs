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
    Go(GoArgs),
    Perft(u32),
    Stop,
    PonderHit,
    Quit,
    Display,
    Eval,
    Bench(Option<u32>),
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
        "position" => parse_position(rest)?,
        "go" => parse_go(rest)?,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "bench" => Command::Bench(match rest.first() {
            Some(d) => Some(number(d, "bench depth")?),
            None => None,
        }),
        other => return Err(format!("unknown command '{other}'")),
    })
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{what} needs a number, got '{text}'"))
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

fn parse_go(words: &[&str]) -> Result<Command, String> {
    let mut args = GoArgs::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let val = words.get(i + 1).copied();
        let need = |what: &str| val.ok_or_else(|| format!("go {what} needs a value"));
        match key {
            "infinite" => args.infinite = true,
            "ponder" => args.ponder = true,
            "searchmoves" => {
                args.searchmoves = words[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            "perft" => return Ok(Command::Perft(number(need(key)?, "go perft")?)),
            "depth" => args.depth = Some(number(need(key)?, key)?),
            "nodes" => args.nodes = Some(number(need(key)?, key)?),
            "movetime" => args.movetime = Some(number(need(key)?, key)?),
            "wtime" => args.wtime = Some(number(need(key)?, key)?),
            "btime" => args.btime = Some(number(need(key)?, key)?),
            "winc" => args.winc = Some(number(need(key)?, key)?),
            "binc" => args.binc = Some(number(need(key)?, key)?),
            "movestogo" => args.movestogo = Some(number(need(key)?, key)?),
            "mate" => args.mate = Some(number(need(key)?, key)?),
            other => return Err(format!("unknown go parameter '{other}'")),
        }
        i += if matches!(key, "infinite" | "ponder") {
            1
        } else {
            2
        };
    }
    Ok(Command::Go(args))
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
        assert!(parse("go depth x").is_err());
        assert!(parse("go depth").is_err());
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("fly").is_err());
        assert_eq!(parse("   ").unwrap(), Command::Empty);
    }
}
