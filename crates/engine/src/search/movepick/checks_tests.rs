//! Tests of `checks`.

use super::*;

/// The queue against the partition it stands for, on random sequences of
/// noisy moves and quiet moves (checks or not).
#[test]
fn queue_keeps_the_partitions_order_of_checks() {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut rand = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut reordered = 0;
    for _ in 0..2_000 {
        let len = rand(60) as usize;
        // (move, noisy, check), moves told apart by their squares.
        let seq: Vec<(Move, bool, bool)> = (0..len)
            .map(|i| {
                let mv = Move {
                    from: Square::index(i / 64),
                    to: Square::index(i % 64),
                    promotion: None,
                };
                let noisy = rand(3) == 0;
                (mv, noisy, !noisy && rand(3) == 0)
            })
            .collect();
        // The partition, as the picker's full generation does it.
        let mut list = seq.clone();
        let mut noisy_end = 0;
        for i in 0..list.len() {
            if list[i].1 {
                list.swap(i, noisy_end);
                noisy_end += 1;
            }
        }
        let want: Vec<Move> = list[noisy_end..]
            .iter()
            .filter(|e| e.2)
            .map(|e| e.0)
            .collect();
        let mut queue = CheckQueue::new();
        for &(mv, noisy, check) in &seq {
            if noisy {
                queue.rotate();
            } else {
                queue.push_quiet(mv, check);
            }
        }
        let got: Vec<Move> = queue.checks().collect();
        assert_eq!(got, want, "{seq:?}");
        let generated: Vec<Move> = seq.iter().filter(|e| e.2).map(|e| e.0).collect();
        reordered += usize::from(got != generated);
    }
    // The partition does reorder the checks, so the queue is needed.
    assert!(reordered > 100, "only {reordered} sequences reordered");
}
