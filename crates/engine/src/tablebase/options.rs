//! What the `Syzygy*` UCI options (declared in `engine::options`) set.

use std::sync::Arc;

use super::{Syzygy, Tablebase};

pub const EMPTY_PATH: &str = "<empty>";

/// The options' values and the open tables.
#[derive(Clone, Debug)]
pub struct SyzygyOptions {
    pub tables: Option<Arc<Tablebase>>,
    pub probe_depth: i32,
    pub probe_limit: u32,
    pub rule50: bool,
}

impl Default for SyzygyOptions {
    fn default() -> Self {
        Self {
            tables: None,
            probe_depth: 1,
            probe_limit: 7,
            rule50: true,
        }
    }
}

impl SyzygyOptions {
    /// Opens the tables of `path` (`:`-separated folders; none for an empty
    /// path or `<empty>`). A path that cannot be opened leaves no tables in
    /// use (the old ones are closed first: one set per process).
    pub fn set_path(&mut self, path: &str) -> Result<(), String> {
        self.tables = None;
        if !path.is_empty() && path != EMPTY_PATH {
            self.tables = Some(Tablebase::open(path)?);
        }
        Ok(())
    }

    /// What the search uses: `None` without tables or with a zero limit.
    pub fn settings(&self) -> Option<Syzygy> {
        let tables = Arc::clone(self.tables.as_ref()?);
        (self.probe_limit > 0).then(|| Syzygy {
            tables,
            probe_depth: self.probe_depth,
            probe_limit: self.probe_limit,
            rule50: self.rule50,
        })
    }
}
