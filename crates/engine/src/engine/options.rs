//! The engine's options, each declared once: UCI name, type, range, getter
//! and setter. A default is what the getter reads from `Options::default()`,
//! so `uci` advertises the values the engine really starts with. The
//! defaults of the search's own settings are `search::Settings::default()`.

use std::sync::Arc;

use super::{Engine, debug_log};
use crate::book::BookOptions;
use crate::book::options::NO_BOOK;
use crate::eval::nnue::{self, Network};
use crate::eval::wdl;
use crate::search::Settings;
use crate::search::config::SearchConfig;
use crate::search::strength::{self, Strength};
use crate::tablebase::options::{EMPTY_PATH, SyzygyOptions};
use crate::time::nodestime;

pub const MAX_HASH_MB: i64 = 32768;
pub const MAX_THREADS: i64 = 1024;
/// `Contempt` runs from minus this to this, in centipawns.
pub const MAX_CONTEMPT: i64 = 100;
/// Transposition table size of a new engine, in MB.
const DEFAULT_HASH_MB: usize = 16;

/// The type and range of an option, as UCI declares it.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Spin { min: i64, max: i64 },
    Check,
    Button,
    Text,
}

/// A value of an option (`None` for a button).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Text(String),
    None,
}

/// One option: how UCI names and types it, how to read and set it.
pub struct UciOption {
    pub name: &'static str,
    pub kind: Kind,
    /// The option's value in `options`.
    pub get: fn(&Options) -> Value,
    /// Sets a value already checked against `kind`; only between searches.
    pub set: fn(&mut Engine, Value) -> Result<(), String>,
}

impl UciOption {
    /// The value a new engine starts with.
    pub fn default_value(&self) -> Value {
        (self.get)(&Options::default())
    }
}

fn int(v: Value) -> Result<i64, String> {
    match v {
        Value::Int(i) => Ok(i),
        _ => Err("an integer is needed".into()),
    }
}

fn flag(v: Value) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(b),
        _ => Err("true or false is needed".into()),
    }
}

fn text(v: Value) -> Result<String, String> {
    match v {
        Value::Text(t) => Ok(t),
        _ => Err("a string is needed".into()),
    }
}

pub const OPTIONS: &[UciOption] = &[
    UciOption {
        name: "Hash",
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MB,
        },
        get: |o| Value::Int(o.hash_mb as i64),
        set: |e, v| e.set_hash(int(v)? as usize),
    },
    UciOption {
        name: "Threads",
        kind: Kind::Spin {
            min: 1,
            max: MAX_THREADS,
        },
        get: |o| Value::Int(o.threads as i64),
        set: |e, v| e.set_threads(int(v)? as usize),
    },
    UciOption {
        name: "MultiPV",
        kind: Kind::Spin { min: 1, max: 256 },
        get: |o| Value::Int(o.multipv as i64),
        set: |e, v| int(v).map(|n| e.options.multipv = n as usize),
    },
    // GUIs offer pondering only to engines that declare it; the engine
    // itself needs nothing from it (`go ponder` says when to ponder).
    UciOption {
        name: "Ponder",
        kind: Kind::Check,
        get: |_| Value::Bool(false),
        set: |_, v| flag(v).map(drop),
    },
    // Win/draw/loss chances beside each score (`eval::wdl`), as Stockfish.
    UciOption {
        name: "UCI_ShowWDL",
        kind: Kind::Check,
        get: |o| Value::Bool(o.show_wdl),
        set: |e, v| flag(v).map(|b| e.options.show_wdl = b),
    },
    // A GUI analysing wants a search and scores: no book moves then.
    UciOption {
        name: "UCI_AnalyseMode",
        kind: Kind::Check,
        get: |o| Value::Bool(o.analyse_mode),
        set: |e, v| flag(v).map(|b| e.options.analyse_mode = b),
    },
    // Draws by rule and stalemate score -Contempt for the engine's side,
    // +Contempt for the other (normalised centipawns); 0 in analysis.
    UciOption {
        name: "Contempt",
        kind: Kind::Spin {
            min: -MAX_CONTEMPT,
            max: MAX_CONTEMPT,
        },
        get: |o| Value::Int(i64::from(o.contempt)),
        set: |e, v| int(v).map(|n| e.options.contempt = n as i32),
    },
    UciOption {
        name: "Move Overhead",
        kind: Kind::Spin { min: 0, max: 5000 },
        get: |o| Value::Int(o.move_overhead as i64),
        set: |e, v| int(v).map(|n| e.options.move_overhead = n as u64),
    },
    UciOption {
        name: "UCI_Chess960",
        kind: Kind::Check,
        get: |o| Value::Bool(o.chess960),
        set: |e, v| flag(v).map(|b| e.set_chess960(b)),
    },
    // Strength limiting (crates/engine/src/search/strength.rs, docs/strength.md), named
    // as in Stockfish; off, the search is exactly as without them.
    UciOption {
        name: "UCI_LimitStrength",
        kind: Kind::Check,
        get: |o| Value::Bool(o.limit_strength),
        set: |e, v| flag(v).map(|b| e.options.limit_strength = b),
    },
    UciOption {
        name: "UCI_Elo",
        kind: Kind::Spin {
            min: strength::MIN_ELO as i64,
            max: strength::MAX_ELO as i64,
        },
        get: |o| Value::Int(i64::from(o.elo)),
        set: |e, v| int(v).map(|n| e.options.elo = n as i32),
    },
    // 0 to 20, as in Stockfish; 20 is full strength, a lower level plays at
    // the `UCI_Elo` of `strength::skill_elo`. One knob wins, as in
    // Stockfish: `UCI_LimitStrength` true makes `UCI_Elo` decide whatever
    // the level and the order of `setoption`s; false, `UCI_Elo` is no limit
    // and a level below 20 limits alone (`Options::strength`).
    UciOption {
        name: "Skill Level",
        kind: Kind::Spin {
            min: 0,
            max: strength::MAX_SKILL as i64,
        },
        get: |o| Value::Int(i64::from(o.skill_level)),
        set: |e, v| int(v).map(|n| e.options.skill_level = n as i32),
    },
    // Testing: time controls played in nodes, this many a millisecond
    // (`time::nodestime`); 0, on the wall clock. Named as in Stockfish.
    UciOption {
        name: "nodestime",
        kind: Kind::Spin {
            min: 0,
            max: nodestime::MAX_NODES_PER_MS,
        },
        get: |o| Value::Int(o.nodestime as i64),
        set: |e, v| int(v).map(|n| e.set_nodestime(n as u64)),
    },
    // Every line in and out appended to this file (`engine::debug_log`),
    // as in Stockfish; `<empty>`, none.
    UciOption {
        name: "Debug Log File",
        kind: Kind::Text,
        get: |o| Value::Text(o.debug_log_file.clone()),
        set: |e, v| e.set_debug_log_file(&text(v)?),
    },
    UciOption {
        name: "Clear Hash",
        kind: Kind::Button,
        get: |_| Value::None,
        set: |e, _| {
            e.clear_hash();
            Ok(())
        },
    },
    UciOption {
        name: "UseNNUE",
        kind: Kind::Check,
        get: |o| Value::Bool(o.use_nnue),
        set: |e, v| flag(v).map(|b| e.options.use_nnue = b),
    },
    UciOption {
        name: "EvalFile",
        kind: Kind::Text,
        get: |o| Value::Text(o.eval_file.clone()),
        set: |e, v| e.set_eval_file(&text(v)?),
    },
    // The opening book (crates/engine/src/book): a book move is played at once.
    UciOption {
        name: "OwnBook",
        kind: Kind::Check,
        get: |o| Value::Bool(o.book.own_book),
        set: |e, v| flag(v).map(|b| e.options.book.own_book = b),
    },
    UciOption {
        name: "BookFile",
        kind: Kind::Text,
        get: |o| Value::Text(o.book_file.clone()),
        set: |e, v| {
            let path = text(v)?;
            e.options.book_file = NO_BOOK.to_string();
            e.options.book.load(&path)?;
            e.options.book_file = path;
            Ok(())
        },
    },
    UciOption {
        name: "BookDepth",
        kind: Kind::Spin { min: 0, max: 1000 },
        get: |o| Value::Int(i64::from(o.book.depth)),
        set: |e, v| int(v).map(|n| e.options.book.depth = n as u32),
    },
    UciOption {
        name: "BookBestMove",
        kind: Kind::Check,
        get: |o| Value::Bool(o.book.best_move),
        set: |e, v| flag(v).map(|b| e.options.book.best_move = b),
    },
    // Syzygy tablebases (crates/engine/src/tablebase), named as in Stockfish.
    UciOption {
        name: "SyzygyPath",
        kind: Kind::Text,
        get: |o| Value::Text(o.syzygy_path.clone()),
        set: |e, v| {
            let path = text(v)?;
            e.wait(); // the last search may still hold the old tables
            e.options.syzygy_path = EMPTY_PATH.to_string();
            e.options.syzygy.set_path(&path)?;
            e.options.syzygy_path = path;
            Ok(())
        },
    },
    UciOption {
        name: "SyzygyProbeDepth",
        kind: Kind::Spin { min: 1, max: 100 },
        get: |o| Value::Int(i64::from(o.syzygy.probe_depth)),
        set: |e, v| int(v).map(|n| e.options.syzygy.probe_depth = n as i32),
    },
    UciOption {
        name: "SyzygyProbeLimit",
        kind: Kind::Spin { min: 0, max: 7 },
        get: |o| Value::Int(i64::from(o.syzygy.probe_limit)),
        set: |e, v| int(v).map(|n| e.options.syzygy.probe_limit = n as u32),
    },
    UciOption {
        name: "Syzygy50MoveRule",
        kind: Kind::Check,
        get: |o| Value::Bool(o.syzygy.rule50),
        set: |e, v| flag(v).map(|b| e.options.syzygy.rule50 = b),
    },
];

/// The tunables as spin options, in a `spsa` build (for SPSA tuning,
/// docs/search.md): named and ranged as declared in `search::params` and
/// `time::params`; the `params` in scope where the list is expanded sets
/// them. `get` gives the declared default; the value set lives in the
/// declaring module's atomics, not in `Options`.
#[cfg(feature = "spsa")]
macro_rules! tunable_options {
    ($( $(#[$doc:meta])* $name:ident: $ty:ty = $default:literal, $min:literal, $max:literal, $step:literal; )*) => {
        &[$(UciOption {
            name: stringify!($name),
            kind: Kind::Spin { min: $min, max: $max },
            get: |_| Value::Int($default),
            set: |_, v| params::set(params::Id::$name, int(v)? as i32),
        }),*]
    };
}
#[cfg(feature = "spsa")]
const TUNABLE_OPTIONS: [&[UciOption]; 2] = [
    {
        use crate::search::params;
        params::for_each_tunable!(tunable_options)
    },
    {
        use crate::time::params;
        params::for_each_tunable!(tunable_options)
    },
];
#[cfg(not(feature = "spsa"))]
const TUNABLE_OPTIONS: [&[UciOption]; 0] = [];

/// Every option `uci` lists: the table, then a `spsa` build's tunables.
pub fn all() -> impl Iterator<Item = &'static UciOption> {
    OPTIONS.iter().chain(TUNABLE_OPTIONS.into_iter().flatten())
}

/// The option named `name`, case-insensitively (as UCI requires).
pub fn find(name: &str) -> Option<&'static UciOption> {
    all().find(|o| o.name.eq_ignore_ascii_case(name))
}

/// The engine's option values; read through the getters, written only
/// through the engine's setters (`Hash` must resize the table).
#[derive(Clone, Debug)]
pub struct Options {
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    move_overhead: u64,
    chess960: bool,
    /// `UCI_LimitStrength` and `UCI_Elo`.
    limit_strength: bool,
    elo: i32,
    /// `Skill Level`: below `strength::MAX_SKILL`, an Elo of its own.
    skill_level: i32,
    /// `nodestime`: nodes a millisecond of the time control (0: off).
    nodestime: u64,
    /// `Debug Log File`: the file every line in and out is appended to.
    debug_log_file: String,
    /// Evaluate with the network (else the hand-crafted evaluation).
    use_nnue: bool,
    /// The network used when `use_nnue` is on, and the file it came from.
    network: Arc<Network>,
    eval_file: String,
    /// Technique switches (hidden `Search_*` options).
    switches: SearchConfig,
    book: BookOptions,
    book_file: String,
    syzygy: SyzygyOptions,
    syzygy_path: String,
    /// `UCI_ShowWDL`: info lines carry win/draw/loss chances.
    show_wdl: bool,
    /// `UCI_AnalyseMode`: the book is not played, contempt is 0.
    analyse_mode: bool,
    /// `Contempt`, normalised centipawns.
    contempt: i32,
}

impl Default for Options {
    fn default() -> Self {
        let s = Settings::default();
        Self {
            hash_mb: DEFAULT_HASH_MB,
            threads: s.threads,
            multipv: s.multipv,
            move_overhead: s.move_overhead,
            chess960: false,
            limit_strength: false,
            elo: strength::MIN_ELO,
            skill_level: strength::MAX_SKILL,
            nodestime: 0,
            debug_log_file: debug_log::NO_LOG.to_string(),
            use_nnue: s.network.is_some(),
            network: s.network.unwrap_or_else(nnue::default_network),
            eval_file: nnue::EMBEDDED_NET.to_string(),
            switches: s.config,
            book: BookOptions::default(),
            book_file: NO_BOOK.to_string(),
            syzygy: SyzygyOptions::default(),
            syzygy_path: EMPTY_PATH.to_string(),
            show_wdl: false,
            analyse_mode: false,
            contempt: 0,
        }
    }
}

impl Options {
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    pub fn chess960(&self) -> bool {
        self.chess960
    }

    pub fn switches(&self) -> SearchConfig {
        self.switches
    }

    pub fn book(&self) -> &BookOptions {
        &self.book
    }

    pub fn show_wdl(&self) -> bool {
        self.show_wdl
    }

    pub fn analyse_mode(&self) -> bool {
        self.analyse_mode
    }

    /// The network evaluating positions, if `UseNNUE` is on.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.use_nnue.then_some(&self.network)
    }

    /// The strength limit: `UCI_Elo` with `UCI_LimitStrength` (which comes
    /// first, as in Stockfish), else a `Skill Level` below full strength.
    fn strength(&self) -> Option<Strength> {
        if self.limit_strength {
            return Some(Strength::new(self.elo));
        }
        strength::skill_elo(self.skill_level).map(Strength::new)
    }

    /// The strength in force, as the line `go` prints: the Elo, where it
    /// comes from and the node budget; `None` at full strength.
    pub fn strength_text(&self) -> Option<String> {
        let s = self.strength()?;
        let from = match (self.limit_strength, self.skill_level) {
            (false, level) => format!("Skill Level {level}"),
            (true, strength::MAX_SKILL) => "UCI_LimitStrength".to_string(),
            (true, level) => format!("UCI_LimitStrength, not Skill Level {level}"),
        };
        Some(format!(
            "strength UCI_Elo {} from {from}, {} nodes a move",
            s.elo(),
            s.node_budget()
        ))
    }

    /// What a search started now gets from the options.
    pub fn settings(&self) -> Settings {
        Settings {
            move_overhead: self.move_overhead,
            clock_lag: 0,
            multipv: self.multipv,
            threads: self.threads,
            config: self.switches,
            network: self.network().cloned(),
            syzygy: self.syzygy.settings(),
            strength: self.strength(),
            nodes_per_ms: (self.nodestime > 0).then_some(self.nodestime),
            // An analysis wants the position's value, not the player's wish.
            contempt: if self.analyse_mode {
                0
            } else {
                wdl::raw(self.contempt)
            },
        }
    }
}

impl Engine {
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Sets a technique switch (`Search_*`); false for an unknown name.
    pub fn set_switch(&mut self, name: &str, on: bool) -> bool {
        self.options.switches.set(name, on)
    }

    /// `Debug Log File`: logs to `path` from now on (nothing for an empty
    /// path or `<empty>`); a file that cannot be opened is an error, and
    /// then nothing is logged.
    pub fn set_debug_log_file(&mut self, path: &str) -> Result<(), String> {
        self.options.debug_log_file = debug_log::NO_LOG.to_string();
        self.debug_log.open(path)?;
        if !path.is_empty() {
            self.options.debug_log_file = path.to_string();
        }
        Ok(())
    }

    /// `nodestime`: a new rate starts the node clocks again.
    pub fn set_nodestime(&mut self, per_ms: u64) {
        self.options.nodestime = per_ms;
        self.node_clock.forget();
    }

    /// `UCI_Chess960`: how castling moves are written, now and in later
    /// positions.
    pub fn set_chess960(&mut self, on: bool) {
        self.options.chess960 = on;
        self.position.set_chess960(on);
    }

    /// Loads the network file at `path` (the embedded one for `<embedded>` or
    /// an empty path). On an error the current network stays.
    pub fn set_eval_file(&mut self, path: &str) -> Result<(), String> {
        self.options.network = if path.is_empty() || path == nnue::EMBEDDED_NET {
            nnue::default_network()
        } else {
            Arc::new(nnue::file::load(std::path::Path::new(path))?)
        };
        self.options.eval_file = if path.is_empty() {
            nnue::EMBEDDED_NET.to_string()
        } else {
            path.to_string()
        };
        Ok(())
    }

    /// Resizes the transposition table (`Hash`, in MB) in place, between
    /// searches; the threads keep their histories.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        self.stop();
        self.pool.resize_hash(mb)?;
        self.options.hash_mb = mb;
        crate::memory::release_free_memory();
        Ok(())
    }

    /// Sets the search threads: the pool ends its threads and starts this
    /// many new ones (with fresh histories), unless it has them already.
    /// Fewer threads leave their data free: it goes back too.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        self.stop();
        let result = self.pool.set_threads(threads);
        self.options.threads = self.pool.threads();
        crate::memory::release_free_memory();
        result
    }
}
