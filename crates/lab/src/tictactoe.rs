//! Tic-tac-toe: small enough to search completely, with a known game tree
//! (549,946 positions, root included) and a known value (a draw).

use super::game::{Game, Value};

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A board: cells 0..9 row by row from the top left; X (MAX) moves first.
#[derive(Clone, Debug, Default)]
pub struct TicTacToe {
    /// 0 empty, 1 X, 2 O.
    cells: [u8; 9],
    history: Vec<usize>,
}

impl TicTacToe {
    /// Plays a sequence of cells named `a1`..`c3` (column a-c, row 1-3 from the top).
    pub fn from_moves(text: &str) -> Result<Self, String> {
        let mut game = Self::default();
        for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
            let cell = parse_cell(word)?;
            if game.is_over() || game.cells[cell] != 0 {
                return Err(format!("tic-tac-toe move '{word}' is not legal here"));
            }
            game.play(cell);
        }
        Ok(game)
    }

    /// The cells row by row from a1: 'X', 'O' or ' '.
    pub fn cells(&self) -> [char; 9] {
        self.cells.map(|c| match c {
            1 => 'X',
            2 => 'O',
            _ => ' ',
        })
    }

    /// 'X' or 'O' for a completed line, None otherwise.
    pub fn winner_mark(&self) -> Option<char> {
        match self.winner() {
            1 => Some('X'),
            2 => Some('O'),
            _ => None,
        }
    }

    /// 1 if X has a line, 2 if O has, 0 otherwise.
    fn winner(&self) -> u8 {
        for [a, b, c] in LINES {
            let p = self.cells[a];
            if p != 0 && p == self.cells[b] && p == self.cells[c] {
                return p;
            }
        }
        0
    }
}

fn parse_cell(word: &str) -> Result<usize, String> {
    let b = word.as_bytes();
    let bad = || format!("cannot parse tic-tac-toe cell '{word}' (a1..c3)");
    if b.len() != 2 {
        return Err(bad());
    }
    let col = b[0].to_ascii_lowercase().wrapping_sub(b'a') as usize;
    let row = b[1].wrapping_sub(b'1') as usize;
    if col > 2 || row > 2 {
        return Err(bad());
    }
    Ok(row * 3 + col)
}

impl Game for TicTacToe {
    type Move = usize;

    fn moves(&mut self) -> Vec<usize> {
        if self.is_over() {
            return Vec::new();
        }
        (0..9).filter(|&i| self.cells[i] == 0).collect()
    }

    fn is_over(&mut self) -> bool {
        self.history.len() == 9 || self.winner() != 0
    }

    /// +1 for a line of X, -1 for a line of O, 0 otherwise (also as the
    /// heuristic when a depth limit stops the search early).
    fn evaluate(&mut self) -> Value {
        match self.winner() {
            1 => 1,
            2 => -1,
            _ => 0,
        }
    }

    fn max_to_move(&self) -> bool {
        self.history.len().is_multiple_of(2)
    }

    fn play(&mut self, cell: usize) {
        self.cells[cell] = if self.max_to_move() { 1 } else { 2 };
        self.history.push(cell);
    }

    fn undo(&mut self) {
        if let Some(cell) = self.history.pop() {
            self.cells[cell] = 0;
        }
    }

    fn move_name(&mut self, cell: usize) -> String {
        let col = (b'a' + (cell % 3) as u8) as char;
        format!("{col}{}", cell / 3 + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_wins() {
        let mut g = TicTacToe::from_moves("a1 b1 a2 b2 a3").unwrap();
        assert!(g.is_over());
        assert_eq!(g.evaluate(), 1);
        assert!(g.moves().is_empty());
        assert!(TicTacToe::from_moves("a1 a1").is_err());
        assert!(TicTacToe::from_moves("d4").is_err());
    }
}
