//! The UCI options: their declaration (for `uci`) and `setoption` handling.

use crate::engine::Engine;
use crate::search::config::SearchConfig;

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// The type and range of an option, as UCI declares it.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Button,
    Text { default: &'static str },
}

#[derive(Clone, Copy, Debug)]
pub struct UciOption {
    pub name: &'static str,
    pub kind: Kind,
}

pub const MAX_HASH_MB: i64 = 32768;
pub const MAX_THREADS: i64 = 256;

pub const OPTIONS: &[UciOption] = &[
    UciOption {
        name: "Hash",
        kind: Kind::Spin {
            default: 16,
            min: 1,
            max: MAX_HASH_MB,
        },
    },
    UciOption {
        name: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS,
        },
    },
    UciOption {
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    UciOption {
        name: "Ponder",
        kind: Kind::Check { default: false },
    },
    UciOption {
        name: "Move Overhead",
        kind: Kind::Spin {
            default: 10,
            min: 0,
            max: 5000,
        },
    },
    UciOption {
        name: "UCI_Chess960",
        kind: Kind::Check { default: false },
    },
    UciOption {
        name: "Clear Hash",
        kind: Kind::Button,
    },
    UciOption {
        name: "UseNNUE",
        kind: Kind::Check { default: true },
    },
    UciOption {
        name: "EvalFile",
        kind: Kind::Text {
            default: EMBEDDED_NET,
        },
    },
];

use crate::eval::nnue::EMBEDDED_NET;
use crate::tablebase::options::OPTIONS as SYZYGY;

/// The `option ...` line for `uci`.
pub fn declaration(opt: &UciOption) -> String {
    match opt.kind {
        Kind::Spin { default, min, max } => {
            format!(
                "option name {} type spin default {default} min {min} max {max}",
                opt.name
            )
        }
        Kind::Check { default } => format!("option name {} type check default {default}", opt.name),
        Kind::Button => format!("option name {} type button", opt.name),
        Kind::Text { default } => format!("option name {} type string default {default}", opt.name),
    }
}

/// The options above, then the book's.
fn all_options() -> impl Iterator<Item = &'static UciOption> {
    OPTIONS
        .iter()
        .chain(crate::book::options::OPTIONS)
        .chain(&SYZYGY)
}

/// Prefix of the technique switches (`Search_NullMove`, ...), one check
/// option per field of `SearchConfig`, for ablation matches.
pub const SWITCH_PREFIX: &str = "Search_";

/// Every `option ...` line for `uci`: the options above, the book and
/// tablebase options, then the switches.
pub fn declarations() -> Vec<String> {
    let mut out: Vec<String> = all_options().map(declaration).collect();
    for (name, _) in SearchConfig::SWITCHES {
        out.push(format!(
            "option name {SWITCH_PREFIX}{name} type check default true"
        ));
    }
    out
}

/// A validated option value.
pub enum Value {
    Int(i64),
    Bool(bool),
    Text(String),
    None,
}

fn validate(opt: &UciOption, value: Option<&str>) -> Result<Value, String> {
    let name = opt.name;
    match opt.kind {
        Kind::Button => Ok(Value::None),
        Kind::Text { .. } => Ok(Value::Text(value.unwrap_or("").trim().to_string())),
        Kind::Spin { min, max, .. } => {
            let text = value.ok_or_else(|| format!("option {name} needs a value"))?;
            let v: i64 = text
                .trim()
                .parse()
                .map_err(|_| format!("option {name} needs an integer, got '{text}'"))?;
            if !(min..=max).contains(&v) {
                return Err(format!(
                    "option {name} value {v} is out of range {min}..{max}"
                ));
            }
            Ok(Value::Int(v))
        }
        Kind::Check { .. } => match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            Some("true") => Ok(Value::Bool(true)),
            Some("false") => Ok(Value::Bool(false)),
            _ => Err(format!("option {name} needs true or false")),
        },
    }
}

/// A checked `setoption`, ready to apply (now, or after the search).
pub enum Setting {
    Switch(&'static str, bool),
    Option(&'static str, Value),
}

/// Checks a `setoption`. Names are case-insensitive, as UCI requires.
pub fn parse(name: &str, value: Option<&str>) -> Result<Setting, String> {
    if let Some(switch) = strip_prefix_ignore_case(name, SWITCH_PREFIX) {
        let check = UciOption {
            name: "Search switch",
            kind: Kind::Check { default: true },
        };
        let Value::Bool(on) = validate(&check, value)? else {
            unreachable!("check options validate to booleans")
        };
        let (switch, _) = SearchConfig::SWITCHES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(switch))
            .ok_or_else(|| format!("unknown option '{name}'"))?;
        return Ok(Setting::Switch(switch, on));
    }
    let opt = all_options()
        .find(|o| o.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown option '{name}'"))?;
    Ok(Setting::Option(opt.name, validate(opt, value)?))
}

/// Applies a checked setting; only between searches.
pub fn apply(engine: &mut Engine, setting: Setting) -> Result<(), String> {
    let o = &mut engine.options;
    if let Setting::Option(name, value) = &setting
        && crate::book::options::apply(&mut o.book, name, value)?
    {
        return Ok(());
    }
    match setting {
        Setting::Switch(name, on) => {
            o.search.set(name, on);
        }
        Setting::Option("Hash", Value::Int(v)) => engine.set_hash(v as usize)?,
        Setting::Option("Threads", Value::Int(v)) => o.threads = v as usize,
        Setting::Option("MultiPV", Value::Int(v)) => o.multipv = v as usize,
        Setting::Option("Ponder", Value::Bool(b)) => o.ponder = b,
        Setting::Option("Move Overhead", Value::Int(v)) => o.move_overhead = v as u64,
        Setting::Option("UCI_Chess960", Value::Bool(b)) => {
            o.chess960 = b;
            engine.position.set_chess960(b);
        }
        Setting::Option("Clear Hash", _) => engine.clear_hash(),
        Setting::Option("UseNNUE", Value::Bool(b)) => o.use_nnue = b,
        Setting::Option("EvalFile", Value::Text(path)) => engine.set_eval_file(&path)?,
        Setting::Option(name, value) if name.starts_with("Syzygy") => {
            engine.wait(); // the last search may still hold the old tables
            engine.options.syzygy.set(name, value)?;
        }
        Setting::Option(name, _) => return Err(format!("option {name} cannot take that value")),
    }
    Ok(())
}

/// Checks and applies `setoption` at once (no search running).
pub fn set(engine: &mut Engine, name: &str, value: Option<&str>) -> Result<(), String> {
    apply(engine, parse(name, value)?)
}
