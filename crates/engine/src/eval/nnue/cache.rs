//! The refresh cache (a "Finny table"): for each perspective and each view
//! it can take (mirror and king bucket), the accumulator last computed in
//! that view and the pieces it was computed for. A perspective whose king
//! changed view is brought from there by the pieces that differ, usually a
//! handful, instead of from the biases by all thirty-odd pieces. The sums
//! wrap, so the order of the rows does not matter: the result is the
//! refresh's, bit for bit.

use super::features::{FeatureSet, index};
use super::{INPUTS, Network, simd};
use crate::board::{BitBoard, Board, Color, Piece};

/// One view's accumulator and the pieces it holds, by colour and kind.
#[derive(Clone)]
#[repr(C, align(64))]
struct Entry<const H: usize> {
    vals: [i16; H],
    pieces: [[BitBoard; 6]; 2],
}

/// The cache of one accumulator stack, for a network of `H` neurons: empty
/// for a feature set that never refreshes (plain).
#[derive(Clone)]
pub(super) struct RefreshCache<const H: usize> {
    entries: Vec<Entry<H>>,
    /// Views per perspective: two mirrors per king bucket.
    views: usize,
}

impl<const H: usize> RefreshCache<H> {
    /// Every entry at the biases with no pieces, so its first use adds them all.
    pub(super) fn new(net: &Network) -> Self {
        let views = if net.features.uses_king() {
            2 * net.features.king_buckets()
        } else {
            0
        };
        let empty = Entry {
            vals: *net.bias::<H>(),
            pieces: [[BitBoard::EMPTY; 6]; 2],
        };
        Self {
            entries: vec![empty; 2 * views],
            views,
        }
    }

    /// True for a feature set that never refreshes.
    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Sets `dst` to `perspective`'s accumulator of `board`, as
    /// `Acc::refresh` computes it, from the cached one of the same view.
    ///
    /// # Panics
    /// If the feature set does not use the king (the cache is empty).
    // Out of line: the plain feature set never comes here, and its
    // incremental path stays as compact as without the cache.
    #[inline(never)]
    pub(super) fn refresh(
        &mut self,
        dst: &mut [i16; H],
        perspective: Color,
        net: &Network,
        board: &Board,
    ) {
        let features: FeatureSet = net.features;
        let view = features.view(perspective as usize, board.king(perspective) as usize);
        let slot = view.base / INPUTS * 2 + usize::from(view.flip & 7 != 0);
        let entry = &mut self.entries[perspective as usize * self.views + slot];
        // At most 32 pieces on either board, and every square once.
        let mut add: [&[i16; H]; 64] = [net.bias::<H>(); 64];
        let mut sub: [&[i16; H]; 64] = [net.bias::<H>(); 64];
        let (mut added, mut removed) = (0, 0);
        for color in Color::ALL {
            for piece in Piece::ALL {
                let now = board.colored_pieces(color, piece);
                let was = std::mem::replace(&mut entry.pieces[color as usize][piece as usize], now);
                for sq in now & !was {
                    add[added] = net.row::<H>(index(perspective, view, color, piece, sq));
                    added += 1;
                }
                for sq in was & !now {
                    sub[removed] = net.row::<H>(index(perspective, view, color, piece, sq));
                    removed += 1;
                }
            }
        }
        simd::update::<H>(dst, &entry.vals, &add[..added], &sub[..removed]);
        entry.vals = *dst;
    }
}
