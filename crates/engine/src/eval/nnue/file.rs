//! The network file: `CUTOFFNN`, a format version and the hidden size (u32
//! each), from version 2 the number of output buckets (u32), then the i16
//! weights in the order of [`Network`]'s fields, all little-endian. Version 1
//! (no bucket count) is one bucket; a one-bucket network is written as
//! version 1, so it stays byte-identical and older builds read it. The exact
//! length is checked, so a truncated or foreign file is refused with a clear
//! message.

use super::{HIDDEN, INPUTS, MAX_OUTPUT_BUCKETS, Network};

const MAGIC: &[u8; 8] = b"CUTOFFNN";
/// Version 1: one output; version 2: output buckets.
const VERSION: u32 = 2;
/// The largest hidden size read (a bound on what a header may claim).
const MAX_HIDDEN: usize = 4096;
/// Magic, version and hidden size; version 2 adds the bucket count.
const HEADER_V1: usize = 16;
const HEADER_V2: usize = HEADER_V1 + 4;

/// Number of i16 values of a network with `hidden` neurons and `buckets`
/// output buckets.
fn values(hidden: usize, buckets: usize) -> usize {
    INPUTS * hidden + hidden + buckets * (2 * hidden + 1)
}

/// The file's bytes for `net`.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let buckets = net.buckets();
    let mut out = Vec::with_capacity(HEADER_V2 + 2 * values(HIDDEN, buckets));
    out.extend_from_slice(MAGIC);
    let version: u32 = if buckets == 1 { 1 } else { VERSION };
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
    if version >= 2 {
        out.extend_from_slice(&(buckets as u32).to_le_bytes());
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

/// Reads a network file's bytes.
pub fn parse(bytes: &[u8]) -> Result<Network, String> {
    parse_with(bytes, Some(HIDDEN))
}

/// Reads a network file's bytes whatever its hidden size
/// ([`Network::hidden`]): the trainer widens a smaller network this way.
/// Only networks of the build's size can be evaluated.
pub fn parse_sized(bytes: &[u8]) -> Result<Network, String> {
    parse_with(bytes, None)
}

/// Reads a network file's bytes; with `want`, a network of another hidden
/// size is refused as such (before its length, which differs too).
fn parse_with(bytes: &[u8], want: Option<usize>) -> Result<Network, String> {
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
    if let Some(want) = want.filter(|&w| w != hidden) {
        return Err(format!(
            "network has {hidden} hidden neurons, this build {want}"
        ));
    }
    if !(1..=MAX_HIDDEN).contains(&hidden) {
        return Err(format!(
            "network has {hidden} hidden neurons (1 to {MAX_HIDDEN} are read)"
        ));
    }
    let (header, buckets) = match version {
        1 => (HEADER_V1, 1),
        _ if bytes.len() < HEADER_V2 => return Err("network file header cut short".into()),
        _ => (HEADER_V2, word(HEADER_V1) as usize),
    };
    if !(1..=MAX_OUTPUT_BUCKETS).contains(&buckets) {
        return Err(format!(
            "network has {buckets} output buckets (1 to {MAX_OUTPUT_BUCKETS} are read)"
        ));
    }
    let expected = header + 2 * values(hidden, buckets);
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
        feature_weights: take(INPUTS * hidden),
        feature_bias: take(hidden),
        output_weights: take(buckets * 2 * hidden),
        output_bias: take(buckets),
    })
}

/// Reads a network file.
pub fn load(path: &std::path::Path) -> Result<Network, String> {
    load_with(path, Some(HIDDEN))
}

/// Reads a network file of any hidden size ([`parse_sized`]).
pub fn load_sized(path: &std::path::Path) -> Result<Network, String> {
    load_with(path, None)
}

/// Reads a network file as [`parse_with`] does; errors name the file.
fn load_with(path: &std::path::Path, want: Option<usize>) -> Result<Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_with(&bytes, want).map_err(|e| format!("{}: {e}", path.display()))
}
