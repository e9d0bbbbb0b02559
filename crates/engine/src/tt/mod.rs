//! The transposition table: a hash table of search results keyed by Zobrist
//! key, shared by all search threads.
//!
//! The same position is reached by many move orders (transpositions); storing
//! each searched node's score, bound, depth and best move lets the search reuse
//! them: cut off at once when the stored bound already decides the node, and
//! otherwise search the stored move first.
//!
//! Layout: 64-byte buckets (one cache line) of four 16-byte entries. Each
//! entry is two `AtomicU64`s written with the "XOR trick" (Hyatt and Mann): the
//! first word holds `key ^ data`, the second `data`. A reader recomputes
//! `key ^ data` and accepts the entry only if it matches, so an entry torn by
//! two threads writing at once is simply a miss. No locks, no `unsafe`, no data
//! race in the Rust sense (all accesses are atomic, relaxed ordering suffices:
//! the key check validates the pair).
//!
//! The table knows nothing of what its numbers mean: scores and evaluations
//! are the search's, which stores mate scores relative to the node
//! (`search::score::score_to_tt`) and chooses how entries are replaced
//! (`Replacement`, from its tunables).

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::board::{Move, Piece, Square};

pub const ENTRIES_PER_BUCKET: usize = 4;

/// How a stored score relates to the true value of the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    /// The score is exact (a PV node).
    Exact,
    /// The true value is at least the score (a fail high: beta cutoff).
    Lower,
    /// The true value is at most the score (a fail low: all moves failed).
    Upper,
}

/// What a probe returns and a store is given. Scores are kept in 16 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    pub mv: Option<Move>,
    /// The node's score, relative to the node (mates count from it).
    pub score: i32,
    /// The node's static evaluation.
    pub eval: i32,
    pub depth: i32,
    pub bound: TtBound,
    /// The node was on a principal variation when stored, or had been
    /// (the flag is kept while the position is searched again).
    pub pv: bool,
}

// Why threads racing on a slot never make the search play a wrong move:
// the memory-ordering argument.
//
// - Each word is one `AtomicU64`: a load returns a value some `write` stored
//   whole, never a mix of two stores' bits. `Relaxed` gives no order between
//   the two words, so a reader may pair `check` from one write with `data`
//   from another (a torn entry).
// - The pair is used only if `check ^ data == key`. For a torn pair that
//   means `key_a ^ data_a ^ data_b == key`: if both writes were for `key`,
//   then `data_a == data_b` (the entry is whole after all); otherwise it is
//   a 64-bit coincidence, as likely as two positions sharing a key, which
//   any Zobrist table accepts.
// - `data` is self-contained (no pointer, no index into other memory), so
//   no acquire/release is needed to make anything else visible with it,
//   and every data word came from `pack`: it always decodes.
// - An accepted entry from another position can only mislead the score
//   (like a key collision); it cannot produce an illegal move: the move
//   picker plays the hash move only after `Board::is_legal` (its `TtMove`
//   stage), the root searches its own generated moves, and PV lines are
//   replayed with `is_legal` (`pv_to_uci`). `bestmove` comes from the root.
// - `clear` and resizing happen only between searches (`Engine` stops the
//   search first; a resize takes `&mut`, which the pool has only while
//   every search thread is parked). `age` is only a replacement hint: a stale read
//   costs nothing but a worse choice of victim.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    slots: [Slot; ENTRIES_PER_BUCKET],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    /// Search generation, so entries from older searches are replaced first.
    age: AtomicU8,
}

/// Depths of quiescence results: with quiet checks searched (or in check,
/// where every evasion is), and captures only. Main-search entries (depth 1
/// and more) answer both.
pub const QS_DEPTH_CHECKS: i32 = 0;
pub const QS_DEPTH_NO_CHECKS: i32 = -1;

// Packing of the data word: move 16 bits | score 16 | eval 16 | depth 7 +
// pv 1 | bound 2 + age 6. Depth is stored plus `DEPTH_OFFSET`, so that the
// lowest (a captures-only quiescence result) is 0.
const DEPTH_OFFSET: i32 = -QS_DEPTH_NO_CHECKS;
/// The depth's seven bits.
const DEPTH_MASK: u64 = 0x7f;

/// The deepest result an entry holds (deeper than any search reaches:
/// the ply limit is `MAX_PLY`).
pub const MAX_STORED_DEPTH: i32 = DEPTH_MASK as i32 - DEPTH_OFFSET;

fn pack(e: TtEntry, age: u8) -> u64 {
    let TtEntry {
        mv,
        score,
        eval,
        depth,
        bound,
        pv,
    } = e;
    let bound_bits = match bound {
        TtBound::Exact => 1,
        TtBound::Lower => 2,
        TtBound::Upper => 3,
    };
    (encode_move(mv) as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (((depth.clamp(QS_DEPTH_NO_CHECKS, MAX_STORED_DEPTH) + DEPTH_OFFSET) as u64) << 48)
        | ((pv as u64) << 55)
        | (((bound_bits | (age << 2)) as u64) << 56)
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match (data >> 56) & 3 {
        1 => TtBound::Exact,
        2 => TtBound::Lower,
        3 => TtBound::Upper,
        _ => return None, // empty slot
    };
    Some(TtEntry {
        mv: decode_move(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & DEPTH_MASK) as i32 - DEPTH_OFFSET,
        bound,
        pv: (data >> 55) & 1 == 1,
    })
}

fn age_of(data: u64) -> u8 {
    (data >> 58) as u8
}

/// 16-bit move: from 6 bits, to 6 bits, promotion 3 bits (0 = none), bit 15 set.
fn encode_move(mv: Option<Move>) -> u16 {
    let Some(mv) = mv else { return 0 };
    let promo = mv.promotion.map_or(0, |p| p as u16);
    0x8000 | (mv.from as u16) | ((mv.to as u16) << 6) | (promo << 12)
}

fn decode_move(bits: u16) -> Option<Move> {
    if bits & 0x8000 == 0 {
        return None;
    }
    let promo = (bits >> 12) & 7;
    Some(Move {
        from: Square::index((bits & 63) as usize),
        to: Square::index(((bits >> 6) & 63) as usize),
        promotion: (promo != 0).then(|| Piece::index(promo as usize)),
    })
}

/// How a store chooses what to keep: the search's tunables.
#[derive(Clone, Copy, Debug)]
pub struct Replacement {
    /// An entry of this search this many plies deeper is kept against a
    /// non-exact result for the same position.
    pub keep_deeper: i32,
    /// Each generation an entry is old counts as this many plies less
    /// depth when choosing the entry to replace.
    pub age_plies: i32,
}

/// True if a stored bound makes the score usable against `beta`: a lower
/// bound at or above beta, an upper bound below it, or an exact score.
pub fn bound_decides(bound: TtBound, score: i32, beta: i32) -> bool {
    match bound {
        TtBound::Exact => true,
        TtBound::Lower => score >= beta,
        TtBound::Upper => score < beta,
    }
}

/// True if a hash score is a better estimate than the static evaluation: a
/// lower bound above it, an upper bound below it, or an exact score.
pub fn improves_eval(bound: TtBound, score: i32, static_eval: i32) -> bool {
    match bound {
        TtBound::Exact => true,
        TtBound::Lower => score > static_eval,
        TtBound::Upper => score < static_eval,
    }
}

impl TranspositionTable {
    /// A table of exactly `mb` megabytes (rounded down to whole buckets).
    pub fn new(mb: usize) -> Result<Self, String> {
        Ok(Self {
            buckets: allocate(mb, 1)?,
            age: AtomicU8::new(0),
        })
    }

    /// Resizes the table to `mb` megabytes, empty, its memory first written
    /// by up to `threads` threads. The old buckets are freed first, so that
    /// old and new need not fit in memory together; if the new size cannot
    /// be had, the old one is taken again.
    pub fn resize(&mut self, mb: usize, threads: usize) -> Result<(), String> {
        let old = self.size_mb();
        self.buckets = Vec::new();
        *self.age.get_mut() = 0;
        match allocate(mb, threads) {
            Ok(buckets) => {
                self.buckets = buckets;
                Ok(())
            }
            Err(e) => {
                self.buckets = allocate(old, threads)
                    .or_else(|_| allocate(1, 1))
                    .unwrap_or_else(|_| vec![Bucket::default()]);
                Err(e)
            }
        }
    }

    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Maps a key to a bucket without needing a power-of-two size.
    fn bucket(&self, key: u64) -> &Bucket {
        let idx = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[idx]
    }

    /// Starts a new search generation (call once per `go`).
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & 63, Ordering::Relaxed);
    }

    /// Empties the table, split among up to `threads` threads (each clears
    /// its own part; a small table is cleared by fewer).
    pub fn clear(&self, threads: usize) {
        let chunk = chunk_len(self.buckets.len(), threads);
        in_parallel(self.buckets.chunks(chunk), |buckets| {
            for b in buckets {
                for s in &b.slots {
                    s.check.store(0, Ordering::Relaxed);
                    s.data.store(0, Ordering::Relaxed);
                }
            }
        });
        self.age.store(0, Ordering::Relaxed);
    }

    /// Asks the CPU to start loading `key`'s bucket, so that the probe a few
    /// hundred cycles later (in the child node) finds it in cache.
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let ptr = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: a prefetch is only a hint: it never faults and reads
            // nothing the program sees; `ptr` points into our own table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for s in &self.bucket(key).slots {
            let data = s.data.load(Ordering::Relaxed);
            if s.check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a result. Replaces the same position's entry, else the entry
    /// least worth keeping: shallow and from an old search.
    pub fn store(&self, key: u64, entry: TtEntry, replace: Replacement) {
        let TtEntry {
            score,
            eval,
            depth,
            bound,
            ..
        } = entry;
        // Packed into 16 bits: a larger number would wrap, not fail.
        debug_assert!(
            i16::try_from(score).is_ok() && i16::try_from(eval).is_ok(),
            "stored score {score} or evaluation {eval} beyond 16 bits"
        );
        debug_assert!(
            (QS_DEPTH_NO_CHECKS..=MAX_STORED_DEPTH).contains(&depth),
            "depth {depth} does not fit the entry's 7 bits"
        );
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut worst = i32::MAX;
        for s in &bucket.slots {
            let data = s.data.load(Ordering::Relaxed);
            if s.check.load(Ordering::Relaxed) ^ data == key {
                let old = unpack(data);
                // Keep a deeper entry of this search unless the new one is exact.
                if let Some(old) = old
                    && bound != TtBound::Exact
                    && old.depth > depth + replace.keep_deeper
                    && age_of(data) == age
                {
                    return;
                }
                let mv = entry.mv.or(old.and_then(|o| o.mv));
                return write(s, key, pack(TtEntry { mv, ..entry }, age));
            }
            let value = match unpack(data) {
                None => i32::MIN,
                Some(e) => {
                    e.depth - replace.age_plies * ((age.wrapping_sub(age_of(data)) & 63) as i32)
                }
            };
            if value < worst {
                worst = value;
                victim = s;
            }
        }
        write(victim, key, pack(entry, age));
    }

    /// Permille of sampled entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for s in &b.slots {
                let data = s.data.load(Ordering::Relaxed);
                if unpack(data).is_some() && age_of(data) == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

/// `mb` megabytes of empty buckets (at least one), written first by up to
/// `threads` threads, each its own part. The first write of a page is
/// when the system really provides it (and zeroes it), which is most of
/// the time a large table takes to be ready; split, it is done sooner.
fn allocate(mb: usize, threads: usize) -> Result<Vec<Bucket>, String> {
    let count = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
    let mut buckets: Vec<Bucket> = Vec::new();
    buckets
        .try_reserve_exact(count)
        .map_err(|_| format!("cannot allocate a {mb} MB hash table"))?;
    // Before the first write, so that the pages are huge from the start.
    let bytes = count * std::mem::size_of::<Bucket>();
    crate::memory::advise_huge_pages(buckets.as_ptr().cast(), bytes);
    let fresh = &mut buckets.spare_capacity_mut()[..count];
    in_parallel(fresh.chunks_mut(chunk_len(count, threads)), |part| {
        for b in part {
            b.write(Bucket::default());
        }
    });
    // SAFETY: the capacity is at least `count` (reserved above), and each of
    // the first `count` elements was written just above: the chunks cover
    // `fresh` whole, and `in_parallel` returns once every chunk is done.
    unsafe { buckets.set_len(count) };
    Ok(buckets)
}

/// A table part smaller than this (in buckets, 64 MB) is not given a
/// thread of its own: starting one costs tens of microseconds, and 64 MB
/// take milliseconds to write.
const MIN_BUCKETS_PER_THREAD: usize = (64 << 20) / std::mem::size_of::<Bucket>();

/// The length of the parts `len` buckets are split into for `threads`
/// threads: one part per thread, no smaller than `MIN_BUCKETS_PER_THREAD`
/// (so a small table is one part).
fn chunk_len(len: usize, threads: usize) -> usize {
    let parts = threads.clamp(1, (len / MIN_BUCKETS_PER_THREAD).max(1));
    len.div_ceil(parts).max(1)
}

/// Runs `f` on every part, the parts shared out among a thread per part
/// (the caller's thread among them); returns when all are done. The parts
/// are disjoint slices, so no two threads touch the same bucket. If the
/// system refuses a thread, the others take its part.
fn in_parallel<P: Send>(parts: impl Iterator<Item = P>, f: impl Fn(P) + Sync) {
    let parts: Vec<P> = parts.collect();
    let helpers = parts.len().saturating_sub(1);
    let queue = Mutex::new(parts);
    let next = || queue.lock().unwrap_or_else(PoisonError::into_inner).pop();
    let work = || {
        while let Some(part) = next() {
            f(part);
        }
    };
    std::thread::scope(|s| {
        for _ in 0..helpers {
            let started = std::thread::Builder::new()
                .name("tt-clear".into())
                .spawn_scoped(s, work);
            if started.is_err() {
                break;
            }
        }
        work();
    });
}

fn write(slot: &Slot, key: u64, data: u64) {
    slot.check.store(key ^ data, Ordering::Relaxed);
    slot.data.store(data, Ordering::Relaxed);
}

#[cfg(test)]
#[path = "tt_tests.rs"]
mod tests;
