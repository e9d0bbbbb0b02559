//! The network file: `CUTOFFNN`, a format version and the hidden size (u32
//! each), from version 2 the number of output buckets (u32), from version 3
//! the input feature set (u32, [`FeatureSet::id`]), then the i16 weights in
//! the order of [`Network`]'s fields, all little-endian. Version 1 (no bucket
//! count) is one bucket and plain inputs, version 2 plain inputs. A network
//! is written in the oldest version that holds it (a plain one-bucket network
//! as version 1), so files stay byte-identical and older builds read what
//! they can run. The exact length is checked, so a truncated or foreign file
//! is refused with a clear message.

use super::{FeatureSet, MAX_OUTPUT_BUCKETS, Network, SUPPORTED_HIDDEN, is_supported_hidden};

const MAGIC: &[u8; 8] = b"CUTOFFNN";
/// Version 1: one output; version 2: output buckets; version 3: the input
/// feature set.
const VERSION: u32 = 3;
/// The largest hidden size read (a bound on what a header may claim).
pub const MAX_HIDDEN: usize = 4096;
/// Magic, version and hidden size; version 2 adds the bucket count, version
/// 3 the feature set.
const HEADER_V1: usize = 16;
const HEADER_V2: usize = HEADER_V1 + 4;
const HEADER_V3: usize = HEADER_V2 + 4;

/// Number of i16 values of a network with `inputs` inputs, `hidden` neurons
/// and `buckets` output buckets.
fn values(inputs: usize, hidden: usize, buckets: usize) -> usize {
    inputs * hidden + hidden + buckets * (2 * hidden + 1)
}

/// The format version `net` is written in: the oldest that holds it.
pub fn version_of(net: &Network) -> u32 {
    if net.features != FeatureSet::Plain {
        3
    } else if net.buckets() != 1 {
        2
    } else {
        1
    }
}

/// The file's bytes for `net`.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let (hidden, buckets) = (net.hidden(), net.buckets());
    let inputs = net.features.inputs();
    let mut out = Vec::with_capacity(HEADER_V3 + 2 * values(inputs, hidden, buckets));
    out.extend_from_slice(MAGIC);
    let version = version_of(net);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(hidden as u32).to_le_bytes());
    if version >= 2 {
        out.extend_from_slice(&(buckets as u32).to_le_bytes());
    }
    if version >= 3 {
        out.extend_from_slice(&net.features.id().to_le_bytes());
    }
    let all = net
        .feature_weights
        .iter()
        .chain(&net.feature_bias)
        .chain(&net.output_weights)
        .chain(&net.output_bias);
    for v in all {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

/// Reads a network file's bytes, if the engine can run it (its hidden size
/// is one of [`SUPPORTED_HIDDEN`]).
pub fn parse(bytes: &[u8]) -> Result<Network, String> {
    parse_with(bytes, true)
}

/// Reads a network file's bytes whatever its hidden size (1 to
/// [`MAX_HIDDEN`], [`Network::hidden`]): the trainer reads and widens
/// networks the engine does not run this way.
pub fn parse_sized(bytes: &[u8]) -> Result<Network, String> {
    parse_with(bytes, false)
}

/// The hidden sizes the engine runs, for messages: "32, 64, ... or 2048".
fn supported_list() -> String {
    let all: Vec<String> = SUPPORTED_HIDDEN.iter().map(|h| h.to_string()).collect();
    let (last, rest) = all.split_last().expect("sizes");
    format!("{} or {last}", rest.join(", "))
}

/// Reads a network file's bytes; with `runnable`, a network of a hidden
/// size the engine has no kernels for is refused as such (before its
/// length, which may be wrong too).
fn parse_with(bytes: &[u8], runnable: bool) -> Result<Network, String> {
    if bytes.len() < HEADER_V1 || &bytes[..8] != MAGIC {
        return Err("not a Cutoff network file (no CUTOFFNN header)".into());
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let version = word(8);
    if !(1..=VERSION).contains(&version) {
        return Err(format!(
            "network format version {version} (this build reads 1 to {VERSION})"
        ));
    }
    let hidden = word(12) as usize;
    if !(1..=MAX_HIDDEN).contains(&hidden) {
        return Err(format!(
            "network has {hidden} hidden neurons (1 to {MAX_HIDDEN} are read)"
        ));
    }
    if runnable && !is_supported_hidden(hidden) {
        return Err(format!(
            "network has {hidden} hidden neurons; this build runs {}",
            supported_list()
        ));
    }
    let header = match version {
        1 => HEADER_V1,
        2 => HEADER_V2,
        _ => HEADER_V3,
    };
    if bytes.len() < header {
        return Err("network file header cut short".into());
    }
    let buckets = if version >= 2 {
        word(HEADER_V1) as usize
    } else {
        1
    };
    if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
        return Err(format!(
            "network has {buckets} output buckets (1 to {MAX_OUTPUT_BUCKETS} are read)"
        ));
    }
    let features = if version >= 3 {
        let id = word(HEADER_V2);
        FeatureSet::from_id(id).ok_or_else(|| {
            format!(
                "network has input feature set {id}; this build knows {}",
                FeatureSet::known()
            )
        })?
    } else {
        FeatureSet::Plain
    };
    let inputs = features.inputs();
    let expected = header + 2 * values(inputs, hidden, buckets);
    if bytes.len() != expected {
        return Err(format!(
            "network file has {} bytes, expected {expected}",
            bytes.len()
        ));
    }
    let mut values = bytes[header..]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]));
    let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
    Ok(Network {
        features,
        feature_weights: take(inputs * hidden),
        feature_bias: take(hidden),
        output_weights: take(buckets * 2 * hidden),
        output_bias: take(buckets),
    })
}

/// Reads a network file the engine can run ([`parse`]); errors name the file.
pub fn load(path: &std::path::Path) -> Result<Network, String> {
    load_with(path, true)
}

/// Reads a network file of any hidden size ([`parse_sized`]).
pub fn load_sized(path: &std::path::Path) -> Result<Network, String> {
    load_with(path, false)
}

/// Reads a network file as [`parse_with`] does; errors name the file.
fn load_with(path: &std::path::Path, runnable: bool) -> Result<Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_with(&bytes, runnable).map_err(|e| format!("{}: {e}", path.display()))
}
