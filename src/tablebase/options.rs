//! The `Syzygy*` UCI options, kept apart from the general option code.

use std::sync::Arc;

use super::{Syzygy, Tablebase};
use crate::uci::options::{Kind, UciOption, Value};

pub const EMPTY_PATH: &str = "<empty>";

pub const OPTIONS: [UciOption; 4] = [
    UciOption {
        name: "SyzygyPath",
        kind: Kind::Text {
            default: EMPTY_PATH,
        },
    },
    UciOption {
        name: "SyzygyProbeDepth",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
    },
    UciOption {
        name: "SyzygyProbeLimit",
        kind: Kind::Spin {
            default: 7,
            min: 0,
            max: 7,
        },
    },
    UciOption {
        name: "Syzygy50MoveRule",
        kind: Kind::Check { default: true },
    },
];

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
    /// Applies one `Syzygy*` option. A path that cannot be opened leaves no
    /// tables in use (the old ones are closed first: one set per process).
    pub fn set(&mut self, name: &str, value: Value) -> Result<(), String> {
        match (name, value) {
            ("SyzygyPath", Value::Text(path)) => {
                self.tables = None;
                if !path.is_empty() && path != EMPTY_PATH {
                    self.tables = Some(Tablebase::open(&path)?);
                }
            }
            ("SyzygyProbeDepth", Value::Int(v)) => self.probe_depth = v as i32,
            ("SyzygyProbeLimit", Value::Int(v)) => self.probe_limit = v as u32,
            ("Syzygy50MoveRule", Value::Bool(b)) => self.rule50 = b,
            _ => return Err(format!("option {name} cannot take that value")),
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
