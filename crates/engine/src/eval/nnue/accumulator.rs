//! Accumulators and their per-ply stack.
//!
//! The stack holds one accumulator per ply of the current line. Making a
//! move only records what it changes; the accumulator is brought up to date
//! when an evaluation needs it, from the nearest computed ancestor. Nodes cut
//! off by the table or by pruning before they evaluate never pay for it.
//!
//! Each perspective is brought up to date on its own: a move that changes a
//! perspective's view (a king crossing the d/e line with a mirrored feature
//! set, or changing king bucket) cannot be applied as a difference, so that
//! perspective is computed afresh from the board at the ply that needs it,
//! while the other is updated incrementally. Afresh means from the refresh
//! cache ([`super::cache`]): the last accumulator computed in that view,
//! plus and minus the pieces that differ.
//!
//! The bookkeeping of moves (push, pop) does not depend on the hidden size;
//! the accumulators themselves are arrays of the network's size `H`, behind a
//! trait object made once for the network ([`Accumulators`]), so the hot
//! loops run at a size known when compiling.

use std::sync::Arc;

use super::cache::RefreshCache;
use super::features::{Change, Feature, FeatureSet, Kind, View, index, placed};
use super::{Network, simd, with_hidden};
use crate::board::{Board, Color, Move};

/// The first layer's output of both perspectives, White's then Black's, for
/// a network of `H` neurons.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
struct Acc<const H: usize> {
    vals: [[i16; H]; 2],
}

impl<const H: usize> Acc<H> {
    const ZERO: Self = Self { vals: [[0; H]; 2] };

    /// Computes `perspective` from scratch: the biases plus the row of every
    /// piece, in one pass.
    fn refresh(&mut self, perspective: Color, net: &Network, board: &Board) {
        let view = net
            .features
            .view(perspective as usize, board.king(perspective) as usize);
        let mut rows: [&[i16; H]; 64] = [net.bias::<H>(); 64];
        let mut n = 0;
        for (c, piece, sq) in placed(board) {
            rows[n] = net.row::<H>(index(perspective, view, c, piece, sq));
            n += 1;
        }
        simd::update::<H>(
            &mut self.vals[perspective as usize],
            net.bias::<H>(),
            &rows[..n],
            &[],
        );
    }

    /// `self = parent + change` for perspective `p`, which reads the board
    /// through `view` (`rows` are the network's weight rows). The rows
    /// added and removed are arrays of the change's counts, so the loops
    /// over them unroll.
    #[inline(always)]
    fn apply(&mut self, parent: &Self, p: usize, view: View, change: &Change, rows: &[[i16; H]]) {
        let (dst, src) = (&mut self.vals[p], &parent.vals[p]);
        let row = |f: Feature| &rows[f.input(p, view)];
        let (a, r) = (change.added, change.removed);
        match change.kind {
            Kind::Quiet => simd::update::<H>(dst, src, &[row(a[0])], &[row(r[0])]),
            Kind::Capture => simd::update::<H>(dst, src, &[row(a[0])], &[row(r[0]), row(r[1])]),
            Kind::Castle => {
                simd::update::<H>(dst, src, &[row(a[0]), row(a[1])], &[row(r[0]), row(r[1])])
            }
            Kind::Null => *dst = *src,
        }
    }

    /// The score for the side to move of `board`.
    #[inline(always)]
    fn evaluate(&self, net: &Network, board: &Board) -> i32 {
        let stm = board.side_to_move();
        let pieces = board.occupied().len();
        net.output::<H>(&self.vals[stm as usize], &self.vals[!stm as usize], pieces)
    }

    fn to_dynamic(&self) -> Accumulator {
        Accumulator {
            vals: [self.vals[0].to_vec(), self.vals[1].to_vec()],
        }
    }
}

/// The first layer's output, from White's view and from Black's, of a
/// network of any size: for the `eval` command and tests (the search keeps
/// its accumulators in an [`AccumulatorStack`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    vals: [Vec<i16>; 2],
}

impl Accumulator {
    /// Computes both perspectives from scratch.
    pub fn refresh(net: &Network, board: &Board) -> Self {
        with_hidden!(net.hidden(), H => {
            let mut acc = Box::new(Acc::<H>::ZERO);
            for color in Color::ALL {
                acc.refresh(color, net, board);
            }
            acc.to_dynamic()
        })
    }

    /// The values of `perspective`.
    pub fn values(&self, perspective: Color) -> &[i16] {
        &self.vals[perspective as usize]
    }

    /// The score in centipawns for the side to move of `board`, the
    /// position this accumulator is of.
    pub fn evaluate(&self, net: &Network, board: &Board) -> i32 {
        with_hidden!(net.hidden(), H => {
            let mut acc = Box::new(Acc::<H>::ZERO);
            for (dst, src) in acc.vals.iter_mut().zip(&self.vals) {
                dst.copy_from_slice(src);
            }
            acc.evaluate(net, board)
        })
    }
}

/// What a ply of the line changed, and how far its accumulator is computed.
#[derive(Clone, Copy, Debug, Default)]
struct Ply {
    /// What the move into this ply changed (nothing for a null move).
    change: Change,
    /// Each side's king square (as an index, a1 = 0) after the move; kept
    /// only for feature sets that use it.
    kings: [u8; 2],
    /// Per perspective: the accumulator of this ply is up to date.
    computed: [bool; 2],
    /// Per perspective: the move changed the perspective's view, so
    /// its accumulator cannot be had from the parent's by a difference.
    refresh: [bool; 2],
}

/// The accumulators of a stack, one per ply, for one hidden size: the part
/// of [`AccumulatorStack`] that depends on the size, made once for a
/// network ([`accumulators`]).
trait Accumulators: Send + Sync {
    /// Brings ply `top` up to date (the plies are `plies`, the board is the
    /// position at `top`) and evaluates it for the side to move.
    fn evaluate(&mut self, plies: &mut [Ply], top: usize, net: &Network, board: &Board) -> i32;

    /// Computes ply 0 from scratch at `board`.
    fn reset(&mut self, net: &Network, board: &Board);

    /// Ply `ply`'s accumulator, copied out (for tests).
    fn get(&self, ply: usize) -> Accumulator;

    fn clone_box(&self) -> Box<dyn Accumulators>;
}

/// An empty stack of accumulators for `net`'s hidden size.
///
/// # Panics
/// If the size is not one of [`super::SUPPORTED_HIDDEN`] (the network file
/// refuses those).
fn accumulators(net: &Network) -> Box<dyn Accumulators> {
    with_hidden!(net.hidden(), H => Box::new(Fixed::<H> {
        accs: vec![Acc::ZERO],
        cache: RefreshCache::new(net),
    }))
}

/// The accumulators for a network of `H` neurons, one per ply, and the
/// cache that recomputes a perspective whose view changed.
#[derive(Clone)]
struct Fixed<const H: usize> {
    accs: Vec<Acc<H>>,
    cache: RefreshCache<H>,
}

impl<const H: usize> Fixed<H> {
    /// The last ply whose accumulator holds `color`'s perspective, walking
    /// back from `top` (ply 0 is computed by `reset`). If a move since
    /// changed the perspective's view, `top` is computed afresh from the
    /// cache and is that ply.
    #[inline(always)]
    fn computed_from(
        &mut self,
        plies: &mut [Ply],
        top: usize,
        color: Color,
        net: &Network,
        board: &Board,
    ) -> usize {
        let p = color as usize;
        let mut from = top;
        while !plies[from].computed[p] && !plies[from].refresh[p] {
            from -= 1;
        }
        if !plies[from].computed[p] {
            let dst = &mut self.accs[top].vals[p];
            self.cache.refresh(dst, color, net, board);
            plies[top].computed[p] = true;
            return top;
        }
        from
    }
}

impl<const H: usize> Accumulators for Fixed<H> {
    fn evaluate(&mut self, plies: &mut [Ply], top: usize, net: &Network, board: &Board) -> i32 {
        if self.accs.len() <= top {
            self.accs.resize(plies.len(), Acc::ZERO);
        }
        let from = Color::ALL.map(|color| self.computed_from(plies, top, color, net, board));
        // No move after `from[p]` changed `p`'s view: the one at `top` holds
        // for every ply updated.
        let views = [0, 1].map(|p| net.features.view(p, usize::from(plies[top].kings[p])));
        let rows = net.rows::<H>();
        let accs = &mut self.accs;
        for ply in from[0].min(from[1]) + 1..=top {
            let (done, rest) = accs.split_at_mut(ply);
            let (parent, acc, info) = (&done[ply - 1], &mut rest[0], &mut plies[ply]);
            let need = [ply > from[0], ply > from[1]];
            if need == [true, true] {
                // Constant perspectives: each update's rows are found
                // without a run-time index into the views.
                acc.apply(parent, 0, views[0], &info.change, rows);
                acc.apply(parent, 1, views[1], &info.change, rows);
            } else {
                let p = usize::from(need[1]);
                acc.apply(parent, p, views[p], &info.change, rows);
            }
            info.computed = [info.computed[0] | need[0], info.computed[1] | need[1]];
        }
        let accs = &self.accs;
        // The incremental updates must give what a refresh gives: a wrong
        // feature in a move's change, a missed push or pop or a missed change
        // of view would otherwise only show as weaker play.
        #[cfg(debug_assertions)]
        {
            let mut fresh = Acc::<H>::ZERO;
            for color in Color::ALL {
                fresh.refresh(color, net, board);
            }
            debug_assert!(
                accs[top] == fresh,
                "accumulator at ply {top} differs from a refresh of {board}"
            );
        }
        accs[top].evaluate(net, board)
    }

    fn reset(&mut self, net: &Network, board: &Board) {
        for color in Color::ALL {
            self.accs[0].refresh(color, net, board);
        }
    }

    fn get(&self, ply: usize) -> Accumulator {
        self.accs[ply].to_dynamic()
    }

    fn clone_box(&self) -> Box<dyn Accumulators> {
        Box::new(self.clone())
    }
}

/// One accumulator per ply of the line being searched, updated lazily.
pub struct AccumulatorStack {
    plies: Vec<Ply>,
    top: usize,
    accs: Box<dyn Accumulators>,
    net: Arc<Network>,
    /// `net.features`, at hand for every move.
    features: FeatureSet,
}

impl Clone for AccumulatorStack {
    fn clone(&self) -> Self {
        Self {
            plies: self.plies.clone(),
            top: self.top,
            accs: self.accs.clone_box(),
            net: self.net.clone(),
            features: self.features,
        }
    }
}

impl AccumulatorStack {
    /// A stack for `net`.
    ///
    /// # Panics
    /// If `net`'s hidden size is not one of [`super::SUPPORTED_HIDDEN`]
    /// (the network file refuses those).
    pub fn new(net: Arc<Network>) -> Self {
        Self {
            plies: vec![Ply::default()],
            top: 0,
            accs: accumulators(&net),
            features: net.features,
            net,
        }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Starts a new line at `board`.
    pub fn reset(&mut self, board: &Board) {
        self.top = 0;
        self.plies[0] = Ply {
            change: Change::default(),
            kings: Color::ALL.map(|c| board.king(c) as u8),
            computed: [true; 2],
            refresh: [false; 2],
        };
        self.accs.reset(&self.net, board);
    }

    /// Records the move `mv`, about to be played on `board`.
    #[inline]
    pub fn push(&mut self, board: &Board, mv: Move) {
        let change = Change::of_move(board, mv);
        let mut kings = self.plies[self.top].kings;
        let mut refresh = [false; 2];
        if self.features.uses_king()
            && let Some((color, to)) = change.king_to()
        {
            let c = color as usize;
            refresh[c] = self
                .features
                .needs_refresh(c, usize::from(kings[c]), to as usize);
            kings[c] = to as u8;
        }
        self.push_ply(Ply {
            change,
            kings,
            computed: [false; 2],
            refresh,
        });
    }

    /// Records a null move (nothing changes).
    #[inline]
    pub fn push_null(&mut self) {
        let kings = self.plies[self.top].kings;
        self.push_ply(Ply {
            kings,
            ..Ply::default()
        });
    }

    #[inline]
    fn push_ply(&mut self, ply: Ply) {
        self.top += 1;
        if self.top == self.plies.len() {
            self.plies.push(ply);
        } else {
            self.plies[self.top] = ply;
        }
    }

    /// Takes back the last push.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "accumulator pop without a push");
        self.top = self.top.saturating_sub(1);
    }

    /// The score of `board` (the position the pushes led to) for its side to
    /// move. A stack never reset starts at `board`.
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        if !self.plies[0].computed[0] {
            self.first_reset(board);
        }
        self.accs
            .evaluate(&mut self.plies, self.top, &self.net, board)
    }

    /// The reset of a stack evaluated before any `reset`: out of line, so
    /// the evaluation's path saves no registers for it.
    #[cold]
    #[inline(never)]
    fn first_reset(&mut self, board: &Board) {
        assert_eq!(self.top, 0, "moves pushed before the first reset");
        self.reset(board);
    }

    /// The current accumulator, brought up to date (for tests); `board` is
    /// the position the pushes led to.
    pub fn current(&mut self, board: &Board) -> Accumulator {
        self.evaluate(board);
        self.accs.get(self.top)
    }
}

#[cfg(test)]
#[path = "accumulator_tests.rs"]
mod tests;
