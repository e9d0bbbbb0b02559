//! The UCI side of the options: their `option` lines for `uci`, and
//! `setoption` checked at once and applied now or after the search. The
//! options themselves (names, ranges, defaults, setters) are the engine's.

use crate::engine::Engine;
use crate::engine::options::{self as table, Kind, UciOption, Value};
use crate::search::config::SearchConfig;

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// The `option ...` line for `uci`, with the engine's default.
pub fn declaration(opt: &UciOption) -> String {
    let name = opt.name;
    match (opt.kind, opt.default_value()) {
        (Kind::Spin { min, max }, Value::Int(d)) => {
            format!("option name {name} type spin default {d} min {min} max {max}")
        }
        (Kind::Check, Value::Bool(d)) => format!("option name {name} type check default {d}"),
        (Kind::Text, Value::Text(d)) => format!("option name {name} type string default {d}"),
        _ => format!("option name {name} type button"),
    }
}

/// Prefix of the technique switches (`Search_NullMove`, ...), one check
/// option per field of `SearchConfig`, for ablation matches.
pub const SWITCH_PREFIX: &str = "Search_";

/// Every `option ...` line for `uci`: the engine's options (a `spsa`
/// build's tunables among them), then, with `lab`, the technique switches (which `setoption` accepts either way).
pub fn declarations(lab: bool) -> Vec<String> {
    let mut out: Vec<String> = table::all().map(declaration).collect();
    if !lab {
        return out;
    }
    let defaults = table::Options::default().switches();
    for &(name, field) in SearchConfig::SWITCHES {
        let mut config = defaults;
        let on = *field(&mut config);
        out.push(format!(
            "option name {SWITCH_PREFIX}{name} type check default {on}"
        ));
    }
    out
}

fn validate(name: &str, kind: Kind, value: Option<&str>) -> Result<Value, String> {
    match kind {
        Kind::Button => Ok(Value::None),
        Kind::Text => Ok(Value::Text(value.unwrap_or("").trim().to_string())),
        Kind::Spin { min, max } => {
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
        Kind::Check => match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            Some("true") => Ok(Value::Bool(true)),
            Some("false") => Ok(Value::Bool(false)),
            _ => Err(format!("option {name} needs true or false")),
        },
    }
}

/// A checked `setoption`, ready to apply (now, or after the search).
pub enum Setting {
    Switch(&'static str, bool),
    Option(&'static UciOption, Value),
}

/// Checks a `setoption`. Names are case-insensitive, as UCI requires.
pub fn parse(name: &str, value: Option<&str>) -> Result<Setting, String> {
    if let Some(switch) = strip_prefix_ignore_case(name, SWITCH_PREFIX) {
        let Value::Bool(on) = validate("Search switch", Kind::Check, value)? else {
            unreachable!("check options validate to booleans")
        };
        let (switch, _) = SearchConfig::SWITCHES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(switch))
            .ok_or_else(|| format!("unknown option '{name}'"))?;
        return Ok(Setting::Switch(switch, on));
    }
    let opt = table::find(name).ok_or_else(|| format!("unknown option '{name}'"))?;
    Ok(Setting::Option(opt, validate(opt.name, opt.kind, value)?))
}

/// Applies a checked setting; only between searches.
pub fn apply(engine: &mut Engine, setting: Setting) -> Result<(), String> {
    match setting {
        Setting::Switch(name, on) => {
            engine.set_switch(name, on);
            Ok(())
        }
        Setting::Option(opt, value) => (opt.set)(engine, value),
    }
}

/// Checks and applies `setoption` at once (no search running).
pub fn set(engine: &mut Engine, name: &str, value: Option<&str>) -> Result<(), String> {
    apply(engine, parse(name, value)?)
}
