//! The network file: `CUTOFFNN`, a format version and the hidden size (u32
//! each), then the i16 weights in the order of [`Network`]'s fields, all
//! little-endian. The exact length is checked, so a truncated or foreign file
//! is refused with a clear message.

use super::{HIDDEN, INPUTS, Network};

const MAGIC: &[u8; 8] = b"CUTOFFNN";
const VERSION: u32 = 1;
const HEADER: usize = 16;
const VALUES: usize = INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN + 1;

/// The file's bytes for `net`.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + 2 * VALUES);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
    let all = net
        .feature_weights
        .iter()
        .chain(&net.feature_bias)
        .chain(&net.output_weights)
        .chain(std::iter::once(&net.output_bias));
    for v in all {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

/// Reads a network file's bytes.
pub fn parse(bytes: &[u8]) -> Result<Network, String> {
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err("not a Cutoff network file (no CUTOFFNN header)".into());
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    if word(8) != VERSION {
        return Err(format!(
            "network format version {} (this build reads {VERSION})",
            word(8)
        ));
    }
    if word(12) as usize != HIDDEN {
        return Err(format!(
            "network has {} hidden neurons, this build {HIDDEN}",
            word(12)
        ));
    }
    if bytes.len() != HEADER + 2 * VALUES {
        return Err(format!(
            "network file has {} bytes, expected {}",
            bytes.len(),
            HEADER + 2 * VALUES
        ));
    }
    let mut values = bytes[HEADER..]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]));
    let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<i16>>();
    let feature_weights = take(INPUTS * HIDDEN);
    let feature_bias = take(HIDDEN);
    let output_weights = take(2 * HIDDEN);
    let output_bias = take(1)[0];
    Ok(Network {
        feature_weights,
        feature_bias,
        output_weights,
        output_bias,
    })
}

/// Reads a network file.
pub fn load(path: &std::path::Path) -> Result<Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}
