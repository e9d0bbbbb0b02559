//! `Debug Log File`: every line in and out of the engine appended to a
//! file, as Stockfish's option of that name does. Each line is written as
//! `<UTC time> >> <line>` (in, from the GUI) or `<UTC time> << <line>` (out,
//! from the engine), the time as `2026-11-27T23:45:01.123Z`. The file is
//! opened for appending, so earlier sessions stay; an empty name or
//! `<empty>` stops the logging.
//!
//! The engine owns the log (the option sets it); the UCI layer writes to
//! it: the input loop each line it reads, its output each line it prints,
//! under the output's lock and before printing it, so the log keeps the
//! order of the output, and a GUI's answer to a line comes after it.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

/// The option's value when nothing is logged.
pub const NO_LOG: &str = "<empty>";

/// The log file, if one is open; clones share it.
#[derive(Clone, Debug, Default)]
pub struct DebugLog(Arc<Mutex<Option<File>>>);

impl DebugLog {
    /// Logs to `path` from now on (appending), or to nothing for an empty
    /// path or `<empty>`. A file that cannot be opened is an error, and
    /// then nothing is logged.
    pub fn open(&self, path: &str) -> Result<(), String> {
        let mut file = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        *file = None;
        if path.is_empty() || path == NO_LOG {
            return Ok(());
        }
        let opened = OpenOptions::new().create(true).append(true).open(path);
        *file = Some(opened.map_err(|e| format!("cannot open debug log file {path}: {e}"))?);
        Ok(())
    }

    /// True while a file is open.
    pub fn is_on(&self) -> bool {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some()
    }

    /// A line read from the GUI.
    pub fn input(&self, line: &str) {
        self.write(">>", line);
    }

    /// Text printed to the GUI (one line or several).
    pub fn output(&self, text: &str) {
        self.write("<<", text);
    }

    /// Each line of `text` with the time and `marker`, in one write. A
    /// failed write is not the GUI's concern: it is dropped.
    fn write(&self, marker: &str, text: &str) {
        let mut file = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(file) = file.as_mut() else {
            return;
        };
        let time = utc(SystemTime::now());
        let mut out = String::new();
        for line in text.split('\n') {
            out.push_str(&format!(
                "{time} {marker} {}\n",
                line.trim_end_matches('\r')
            ));
        }
        let _ = file.write_all(out.as_bytes());
    }
}

/// `t` as UTC, `YYYY-MM-DDTHH:MM:SS.mmmZ`.
fn utc(t: SystemTime) -> String {
    let since = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (year, month, day) = civil_from_days((secs / 86_400) as i64);
    let s = secs % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        s / 3600,
        s / 60 % 60,
        s % 60,
        since.subsec_millis()
    )
}

/// The date (year, month, day) `days` after 1970-01-01, in the proleptic
/// Gregorian calendar (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn times_are_utc_dates() {
        let at = |s: u64, ms: u64| utc(UNIX_EPOCH + Duration::from_millis(s * 1000 + ms));
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(at(1_795_823_101, 123), "2026-11-27T23:45:01.123Z");
        assert_eq!(at(4_107_542_399, 999), "2100-02-28T23:59:59.999Z");
    }
}
