//! Accumulators and their per-ply stack.
//!
//! The stack holds one accumulator per ply of the current line. Making a
//! move only records what it changes; the accumulator is brought up to date
//! when an evaluation needs it, from the nearest computed ancestor. Nodes cut
//! off by the table or by pruning before they evaluate never pay for it.

use std::sync::Arc;

use super::features::{Change, Placed, index, placed};
use super::{HIDDEN, Kernel, Network};
use crate::board::{Board, Color, Move};

/// The first layer's output, from White's view and from Black's.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    vals: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// Computes both perspectives from scratch.
    pub fn refresh(net: &Network, board: &Board, kernel: Kernel) -> Self {
        let mut acc = Self {
            vals: [[0; HIDDEN]; 2],
        };
        for color in Color::ALL {
            let vals = &mut acc.vals[color as usize];
            vals.copy_from_slice(&net.feature_bias);
            for (c, piece, sq) in placed(board) {
                let before = *vals;
                kernel.update(vals, &before, &[net.row(index(color, c, piece, sq))], &[]);
            }
        }
        acc
    }

    /// Both perspectives from scratch, every piece's row added in one pass:
    /// the reference the incrementally updated accumulators are checked
    /// against in debug builds (a second way to the same sums).
    fn recomputed(net: &Network, board: &Board, kernel: Kernel) -> Self {
        let mut acc = Self {
            vals: [[0; HIDDEN]; 2],
        };
        for color in Color::ALL {
            let rows: Vec<&[i16]> = placed(board)
                .map(|(c, piece, sq)| net.row(index(color, c, piece, sq)))
                .collect();
            kernel.update(&mut acc.vals[color as usize], &net.feature_bias, &rows, &[]);
        }
        acc
    }

    /// The score in centipawns for the side to move of `board`, the
    /// position this accumulator is of.
    pub fn evaluate(&self, net: &Network, board: &Board, kernel: Kernel) -> i32 {
        let stm = board.side_to_move();
        let pieces = board.occupied().len();
        net.output(
            &self.vals[stm as usize],
            &self.vals[!stm as usize],
            pieces,
            kernel,
        )
    }

    /// `self = parent + change`, for both perspectives.
    fn apply(&mut self, parent: &Self, change: &Change, net: &Network, kernel: Kernel) {
        for color in Color::ALL {
            let rows = |list: &[Option<Placed>; 2]| {
                let mut out: [&[i16]; 2] = [&[], &[]];
                let mut n = 0;
                for &(c, piece, sq) in list.iter().flatten() {
                    out[n] = net.row(index(color, c, piece, sq));
                    n += 1;
                }
                (out, n)
            };
            let (add, n_add) = rows(&change.added);
            let (sub, n_sub) = rows(&change.removed);
            kernel.update(
                &mut self.vals[color as usize],
                &parent.vals[color as usize],
                &add[..n_add],
                &sub[..n_sub],
            );
        }
    }
}

#[derive(Clone)]
struct Entry {
    acc: Accumulator,
    /// What the move into this ply changed (nothing for a null move).
    change: Change,
    computed: bool,
}

/// One accumulator per ply of the line being searched, updated lazily.
#[derive(Clone)]
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    top: usize,
    net: Arc<Network>,
    kernel: Kernel,
}

impl AccumulatorStack {
    pub fn new(net: Arc<Network>, kernel: Kernel) -> Self {
        let acc = Accumulator {
            vals: [[0; HIDDEN]; 2],
        };
        Self {
            entries: vec![Entry {
                acc,
                change: Change::default(),
                computed: false,
            }],
            top: 0,
            net,
            kernel,
        }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Starts a new line at `board`.
    pub fn reset(&mut self, board: &Board) {
        self.top = 0;
        self.entries[0].acc = Accumulator::refresh(&self.net, board, self.kernel);
        self.entries[0].computed = true;
    }

    /// Records the move `mv`, about to be played on `board`.
    pub fn push(&mut self, board: &Board, mv: Move) {
        self.push_change(Change::of_move(board, mv));
    }

    /// Records a null move (nothing changes).
    pub fn push_null(&mut self) {
        self.push_change(Change::default());
    }

    fn push_change(&mut self, change: Change) {
        self.top += 1;
        if self.top == self.entries.len() {
            let acc = self.entries[0].acc.clone();
            self.entries.push(Entry {
                acc,
                change,
                computed: false,
            });
        } else {
            let e = &mut self.entries[self.top];
            e.change = change;
            e.computed = false;
        }
    }

    /// Takes back the last push.
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "accumulator pop without a push");
        self.top = self.top.saturating_sub(1);
    }

    /// The score of `board` (the position the pushes led to) for its side to
    /// move. A stack never reset starts at `board`.
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        if !self.entries[0].computed {
            assert_eq!(self.top, 0, "moves pushed before the first reset");
            self.reset(board);
        }
        self.update_top();
        // The incremental updates must give what a refresh gives: a wrong
        // feature in `Change::of_move` or a missed push or pop would
        // otherwise only show as weaker play.
        debug_assert!(
            self.entries[self.top].acc == Accumulator::recomputed(&self.net, board, self.kernel),
            "accumulator at ply {} differs from a refresh of {board}",
            self.top
        );
        self.entries[self.top]
            .acc
            .evaluate(&self.net, board, self.kernel)
    }

    /// The current accumulator, brought up to date (for tests).
    pub fn current(&mut self) -> &Accumulator {
        self.update_top();
        &self.entries[self.top].acc
    }

    fn update_top(&mut self) {
        let mut from = self.top;
        while !self.entries[from].computed {
            from -= 1; // entry 0 is computed by `reset`
        }
        for ply in from + 1..=self.top {
            let (done, rest) = self.entries.split_at_mut(ply);
            let e = &mut rest[0];
            e.acc
                .apply(&done[ply - 1].acc, &e.change, &self.net, self.kernel);
            e.computed = true;
        }
    }
}
