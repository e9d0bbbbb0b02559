//! The transposition table: what is stored is found, threads racing on a
//! slot never read another key's data, resizing and clearing (in parallel
//! parts), and `hashfull`.

use super::*;

/// The search's defaults (`tt_keep_deeper`, `tt_age_plies`).
const REPLACE: Replacement = Replacement {
    keep_deeper: 3,
    age_plies: 8,
};

/// An entry of a node that was never on a principal variation.
fn entry(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: TtBound) -> TtEntry {
    TtEntry {
        mv,
        score,
        eval,
        depth,
        bound,
        pv: false,
    }
}

#[test]
fn stores_and_finds_entries() {
    let tt = TranspositionTable::new(1).unwrap();
    let mv: Move = "e7e8q".parse().unwrap();
    tt.store(42, entry(Some(mv), -1234, 56, 7, TtBound::Lower), REPLACE);
    let e = tt.probe(42).unwrap();
    assert_eq!(e.mv, Some(mv));
    assert_eq!(
        (e.score, e.eval, e.depth, e.bound),
        (-1234, 56, 7, TtBound::Lower)
    );
    assert!(tt.probe(43).is_none());
    tt.clear(1);
    assert!(tt.probe(42).is_none());
}

#[test]
fn quiescence_depths_stay_apart() {
    // 0 (quiet checks searched) and -1 (captures only) must read back as
    // stored, or a captures-only result answers for one with checks.
    let tt = TranspositionTable::new(1).unwrap();
    for (key, depth) in [(1, -1), (2, 0), (3, 1), (4, MAX_STORED_DEPTH)] {
        tt.store(key, entry(None, 10, 20, depth, TtBound::Upper), REPLACE);
        assert_eq!(tt.probe(key).unwrap().depth, depth);
    }
}

#[test]
fn the_pv_flag_is_kept_apart_from_depth_bound_and_age() {
    // The flag shares the depth's byte: neither may leak into the other,
    // at any depth an entry holds, nor into the bound beside them.
    let tt = TranspositionTable::new(1).unwrap();
    let mut key = 1;
    for depth in QS_DEPTH_NO_CHECKS..=MAX_STORED_DEPTH {
        for pv in [false, true] {
            for bound in [TtBound::Exact, TtBound::Lower, TtBound::Upper] {
                tt.new_search();
                let e = TtEntry {
                    pv,
                    ..entry(None, -7, 9, depth, bound)
                };
                tt.store(key, e, REPLACE);
                assert_eq!(tt.probe(key), Some(e), "depth {depth}, pv {pv}");
                key += 1;
            }
        }
    }
}

#[test]
fn racing_threads_only_ever_read_their_own_key() {
    // Four threads store and probe 12 keys that share one bucket of 4
    // slots, so writes interleave and replace each other. A hit must be
    // an entry stored for that key (the XOR check), never half of two.
    // Run under Miri or ThreadSanitizer this also checks for data races.
    let tt = TranspositionTable::new(1).unwrap();
    let keys: Vec<u64> = (0..12).map(|i| (0xABCD << 48) | (i * 0x1_0001)).collect();
    assert!(
        keys.iter()
            .all(|&k| std::ptr::eq(tt.bucket(k), tt.bucket(keys[0])))
    );
    let rounds = if cfg!(miri) { 150 } else { 200_000 };
    let tag = |key: u64| (key % 1000) as i32;
    let hits = AtomicU64::new(0);
    std::thread::scope(|s| {
        for t in 0..4 {
            let (tt, keys, hits, tag) = (&tt, &keys, &hits, &tag);
            s.spawn(move || {
                for i in 0..rounds {
                    let key = keys[(i * 7 + t * 3) % keys.len()];
                    let e = entry(None, tag(key), -tag(key), (i % 20) as i32, TtBound::Exact);
                    tt.store(key, e, REPLACE);
                    let probed = keys[(i * 5 + t) % keys.len()];
                    if let Some(e) = tt.probe(probed) {
                        let want = (tag(probed), -tag(probed));
                        assert_eq!((e.score, e.eval), want, "key {probed:#x}");
                        hits.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    assert!(hits.load(Ordering::Relaxed) > 0);
}

#[test]
fn size_follows_the_hash_option() {
    let tt = TranspositionTable::new(8).unwrap();
    assert_eq!(tt.size_mb(), 8);
    assert_eq!(tt.buckets.len(), 8 * 1024 * 1024 / 64);
}

#[test]
fn a_resize_is_in_place_and_empties_the_table() {
    let mut tt = TranspositionTable::new(2).unwrap();
    tt.new_search();
    tt.store(42, entry(None, 5, 6, 7, TtBound::Exact), REPLACE);
    tt.resize(3, 2).unwrap();
    assert_eq!(tt.size_mb(), 3);
    assert!(tt.probe(42).is_none());
    assert_eq!(tt.age.load(Ordering::Relaxed), 0);
    // Too large to allocate: an error, and the old size stays.
    assert!(tt.resize(usize::MAX / (1 << 20), 2).is_err());
    assert_eq!(tt.size_mb(), 3);
}

#[test]
fn parts_cover_the_table_and_a_small_one_is_one_part() {
    let min = MIN_BUCKETS_PER_THREAD;
    for (len, threads, parts) in [
        (1, 1, 1),
        (min - 1, 8, 1),
        (2 * min, 1, 1),
        (2 * min, 2, 2),
        (2 * min + 1, 2, 2),
        (5 * min, 1024, 5),
        (1000 * min, 3, 3),
    ] {
        let chunk = chunk_len(len, threads);
        assert_eq!(
            len.div_ceil(chunk),
            parts,
            "{len} buckets, {threads} threads"
        );
    }
    let sum = std::sync::atomic::AtomicUsize::new(0);
    in_parallel((1..=100usize).map(|i| vec![i; i]), |part| {
        sum.fetch_add(part.iter().sum(), Ordering::Relaxed);
    });
    assert_eq!(sum.into_inner(), (1..=100).map(|i| i * i).sum());
}

#[test]
fn a_table_written_and_cleared_by_several_threads_is_empty() {
    let is_empty = |tt: &TranspositionTable| {
        tt.buckets.iter().all(|b| {
            b.slots.iter().all(|s| {
                s.check.load(Ordering::Relaxed) == 0 && s.data.load(Ordering::Relaxed) == 0
            })
        })
    };
    // 130 MB: two parts of 64 MB and more.
    let mut tt = TranspositionTable::new(1).unwrap();
    tt.resize(130, 3).unwrap();
    assert_eq!(tt.size_mb(), 130);
    assert!(is_empty(&tt));
    // Keys spread over the whole table (the bucket is the key's top bits).
    let keys: Vec<u64> = (0..4096u64).map(|i| (i << 52) | 1).collect();
    for &k in &keys {
        tt.store(k, entry(None, 1, 2, 3, TtBound::Exact), REPLACE);
    }
    assert!(keys.iter().all(|&k| tt.probe(k).is_some()));
    tt.clear(3);
    assert!(is_empty(&tt));
}

#[test]
fn hashfull_counts_this_search_only() {
    let tt = TranspositionTable::new(1).unwrap();
    for k in 0..100_000u64 {
        tt.store(
            k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            entry(None, 0, 0, 1, TtBound::Exact),
            REPLACE,
        );
    }
    assert!(tt.hashfull() > 500);
    tt.new_search();
    assert_eq!(tt.hashfull(), 0);
}
