//! How much work a job will take, guessed from the work it has done: the
//! page's progress bar, and the early end of a job that cannot fit its node
//! budget (better at once than after minutes of searching).

/// The nodes of depths 1..=`depth` in all, from the measured cost of the
/// first depths (`costs[i]`: nodes of depth i + 1), each further depth
/// costing `growth` times the one before. `None` without a growth factor.
pub fn by_depth(costs: &[u64], growth: Option<f64>, depth: u32) -> Option<u64> {
    let growth = growth?;
    let done: f64 = costs.iter().map(|&c| c as f64).sum();
    let mut next = *costs.last()? as f64;
    let mut total = done;
    for _ in costs.len()..depth as usize {
        next *= growth;
        total += next;
    }
    Some(total.min(u64::MAX as f64) as u64)
}

/// The last depth's cost over the one before (at least 1: trees never
/// shrink for long); `None` before two depths. Compare takes it from
/// minimax's nodes, which are most of the work and grow most steadily.
pub fn growth(costs: &[u64]) -> Option<f64> {
    let [.., before, last] = costs else {
        return None;
    };
    Some((*last as f64 / (*before).max(1) as f64).max(1.0))
}

/// Depths measured before an estimate may end a job: the first depths'
/// growth is noisy (few nodes, whole subtrees ending in mate).
pub const TRUSTED_DEPTHS: usize = 3;

/// An error if depths 1..=`depth` will need more than `budget` nodes by
/// [`by_depth`], naming the deepest depth that fits.
pub fn check_budget(
    costs: &[u64],
    growth: Option<f64>,
    depth: u32,
    budget: u64,
) -> Result<(), String> {
    if costs.len() < TRUSTED_DEPTHS {
        return Ok(());
    }
    let Some(total) = by_depth(costs, growth, depth).filter(|&t| t > budget) else {
        return Ok(());
    };
    let fits = (costs.len() as u32..depth)
        .rev()
        .find(|&d| by_depth(costs, growth, d).is_some_and(|t| t <= budget))
        .unwrap_or(costs.len() as u32);
    Err(format!(
        "depth {depth} would need about {} nodes in all (estimated from depths 1 to {}), \
         more than the node budget of {}; depth {fits} fits",
        thousands(total),
        costs.len(),
        thousands(budget),
    ))
}

/// Ordering and ablation: the work done over the share of steps done.
pub fn by_steps(nodes: u64, done: usize, total: usize) -> Option<u64> {
    (done > 0 && nodes > 0).then(|| (nodes as f64 * total as f64 / done as f64) as u64)
}

/// 1234567 as "1,234,567".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_extrapolates() {
        let g = growth(&[10, 100]);
        assert_eq!(growth(&[10]), None);
        assert_eq!(by_depth(&[10], None, 3), None);
        assert_eq!(by_depth(&[10, 100], g, 2), Some(110));
        assert_eq!(by_depth(&[10, 100], g, 4), Some(10 + 100 + 1000 + 10000));
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(12), "12");
    }

    #[test]
    fn budgets_fail_early() {
        // Kiwipete's minimax: about 48 times more nodes per depth.
        let costs = [49, 2_039, 97_862];
        let g = growth(&costs);
        assert!(check_budget(&costs, g, 5, 1_000_000_000).is_ok());
        let e = check_budget(&costs, g, 6, 1_000_000_000).unwrap_err();
        assert!(e.contains("depth 5 fits"), "{e}");
        let early = check_budget(&costs[..2], g, 9, 10);
        assert!(early.is_ok(), "too early to tell");
    }
}
