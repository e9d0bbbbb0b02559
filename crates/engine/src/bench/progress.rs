//! A running count for the long subcommands (`speedtest`, `epd`), on
//! standard error and only when that is a terminal: a person watching sees
//! the run move, while pipes and tests read the same output as before.

use std::io::{IsTerminal, Write};

/// The status line after `done` of `total` items.
pub fn status(label: &str, done: usize, total: usize, extra: &str) -> String {
    format!("{label}: {done}/{total}{extra}")
}

/// Shows the status line in place of the last one, the cursor left at its
/// start so that a result printed meanwhile writes over it; the line is
/// wiped once `done` reaches `total`.
pub fn show(label: &str, done: usize, total: usize, extra: &str) {
    let mut err = std::io::stderr();
    if !err.is_terminal() {
        return;
    }
    let line = status(label, done, total, extra);
    // Progress is a courtesy: a failed write must not stop the run.
    let _ = if done >= total {
        write!(err, "{}\r", " ".repeat(line.len()))
    } else {
        write!(err, "{line}\r")
    };
    let _ = err.flush();
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_status_counts_what_is_done() {
        assert_eq!(
            super::status("epd", 3, 300, ", 2 solved"),
            "epd: 3/300, 2 solved"
        );
    }
}
