//! Embeds the network: `src/eval/nnue/default.nnue` of this crate, or the file named by
//! the `CUTOFF_EVALFILE` environment variable (`make EVALFILE=<net>`, as
//! OpenBench builds engines, sets it).

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=CUTOFF_EVALFILE");
    let net = match std::env::var("CUTOFF_EVALFILE") {
        Ok(path) if !path.trim().is_empty() => PathBuf::from(path),
        _ => PathBuf::from("src/eval/nnue/default.nnue"),
    };
    println!("cargo:rerun-if-changed={}", net.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("net.nnue");
    if let Err(e) = std::fs::copy(&net, &out) {
        eprintln!("error: cannot read the network {}: {e}", net.display());
        std::process::exit(1);
    }
}
