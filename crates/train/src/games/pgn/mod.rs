//! A small PGN reader: tag pairs, the main line's SAN moves, the `{}`
//! comment that follows each of them (where engines and match runners put
//! their scores) and the result. Other comments (`;`, a second `{}`),
//! variations, NAGs, move numbers, annotation marks and `%` escape lines are
//! skipped. Text is read as it comes: a game cut short by a new tag section
//! ends there. Our own, because the well-kept Rust PGN crates are GPL, which
//! does not fit our MIT licence.

pub mod san;

/// One game as written: its tags, main-line SAN moves and result token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    /// For each move, the text of the `{}` comment right after it (trimmed),
    /// if there is one before the next move.
    pub comments: Vec<Option<String>>,
    pub result: Option<String>,
}

impl Game {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Reads games one by one from PGN text.
pub struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(text: &'a str) -> Self {
        Self { text, at: 0 }
    }

    /// Bytes read so far (for a progress bar).
    pub fn offset(&self) -> usize {
        self.at
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// Moves past the next `end` (or to the end of the text).
    fn skip_past(&mut self, end: char) {
        self.at = self
            .rest()
            .find(end)
            .map_or(self.text.len(), |i| self.at + i + end.len_utf8());
    }

    /// A word: up to whitespace or a character with a meaning of its own.
    fn word(&mut self) -> &'a str {
        let rest = self.rest();
        let len = rest
            .find(|c: char| c.is_whitespace() || "{}()[];$".contains(c))
            .unwrap_or(rest.len());
        self.at += len;
        &rest[..len]
    }

    /// `[Name "value"]`, at `[`. A malformed tag is skipped.
    fn tag(&mut self) -> Option<(String, String)> {
        let line_end = self.rest().find('\n').unwrap_or(self.rest().len());
        let line = &self.rest()[..line_end];
        let close = line.rfind(']');
        self.at += close.map_or(line_end, |i| i + 1);
        let inner = line.get(1..close?)?.trim();
        let (name, value) = inner.split_once(char::is_whitespace)?;
        let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
        Some((
            name.to_string(),
            value.replace("\\\"", "\"").replace("\\\\", "\\"),
        ))
    }

    /// Skips a variation, at `(`, nested ones and comments inside included.
    fn skip_variation(&mut self) {
        let mut depth = 0;
        while let Some(c) = self.peek() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                '{' => {
                    self.skip_past('}');
                    continue;
                }
                ';' => {
                    self.skip_past('\n');
                    continue;
                }
                _ => {}
            }
            self.at += c.len_utf8();
            if depth == 0 {
                return;
            }
        }
    }

    /// The next game, or `None` at the end of the text.
    pub fn next_game(&mut self) -> Option<Game> {
        let mut game = Game::default();
        let mut started = false;
        while let Some(c) = self.peek() {
            let at_line_start = self.at == 0 || self.text[..self.at].ends_with('\n');
            match c {
                c if c.is_whitespace() => self.at += c.len_utf8(),
                '%' if at_line_start => self.skip_past('\n'),
                '[' if !game.moves.is_empty() => break,
                '[' => {
                    started = true;
                    game.tags.extend(self.tag());
                }
                '{' => {
                    let inner = &self.rest()[1..];
                    let text = inner.find('}').map_or(inner, |i| &inner[..i]).trim();
                    self.skip_past('}');
                    if let Some(slot @ None) = game.comments.last_mut() {
                        *slot = Some(text.to_string());
                    }
                }
                ';' => self.skip_past('\n'),
                '(' => self.skip_variation(),
                ')' | ']' | '}' => self.at += 1,
                '$' => {
                    self.at += 1;
                    self.word();
                }
                _ => {
                    started = true;
                    let word = self.word();
                    if RESULTS.contains(&word) {
                        game.result = Some(word.to_string());
                        return Some(game);
                    }
                    // Move numbers (`12.`, `12...`), possibly glued to a move.
                    let san = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                    let san = san.trim_end_matches(['!', '?']);
                    if !san.is_empty() {
                        game.moves.push(san.to_string());
                        game.comments.push(None);
                    }
                }
            }
        }
        started.then_some(game)
    }
}

impl Iterator for Reader<'_> {
    type Item = Game;

    fn next(&mut self) -> Option<Game> {
        self.next_game()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_GAMES: &str = r#"[Event "Test \"one\""]
[Site "?"]
[Result "1-0"]

1. e4 {best by test} e5 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) 2... Nc6 $1
3.Bb5!? a6 ; a comment to the end of the line
% an escape line
4. Ba4 1-0

[Event "two"]
1. d4 d5 *
"#;

    #[test]
    fn reads_tags_main_line_and_results() {
        let games: Vec<Game> = Reader::new(TWO_GAMES).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("Test \"one\""));
        assert_eq!(games[0].tag("Result"), Some("1-0"));
        assert_eq!(
            games[0].moves,
            ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]
        );
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert_eq!(games[1].moves, ["d4", "d5"]);
        assert_eq!(games[1].result.as_deref(), Some("*"));
        // The comment right after a move is kept; one in a variation is not.
        let comments: Vec<Option<&str>> = games[0].comments.iter().map(|c| c.as_deref()).collect();
        assert_eq!(
            comments,
            [Some("best by test"), None, None, None, None, None, None]
        );
    }

    #[test]
    fn keeps_match_runner_comments() {
        let text = "[FEN \"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1\"]\n1. e4 {book} e5 {+0.35/12 0.123s} \
                    2. Nf3 {-M5/20 0.01s, White mates} {second} Nc6 {unclosed";
        let game = Reader::new(text).next_game().expect("a game");
        let comments: Vec<Option<&str>> = game.comments.iter().map(|c| c.as_deref()).collect();
        assert_eq!(
            comments,
            [
                Some("book"),
                Some("+0.35/12 0.123s"),
                Some("-M5/20 0.01s, White mates"),
                Some("unclosed")
            ]
        );
    }

    #[test]
    fn a_game_without_result_ends_at_the_next_tags_and_junk_does_not_panic() {
        let text = "[A \"1\"]\n1. e4 e5\n[B \"2\"]\n1. c4 1/2-1/2";
        let games: Vec<Game> = Reader::new(text).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].result, None);
        assert_eq!(games[1].moves, ["c4"]);
        for junk in ["[", "{", "(((", "[X", "1.", "$", "é ü ]}) [\"", "%"] {
            let _: Vec<Game> = Reader::new(junk).collect();
        }
        assert_eq!(Reader::new("").next_game(), None);
        assert_eq!(Reader::new("  \n\n ").next_game(), None);
    }
}
