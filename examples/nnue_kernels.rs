//! Times the network's hot loops on each kernel: the incremental update of
//! one accumulator (two rows added, two removed, as a capture does) and the
//! SCReLU output of both perspectives. `cargo run --release --example
//! nnue_kernels`; prints nanoseconds per call and the SIMD/scalar ratio.

use std::hint::black_box;
use std::time::Instant;

use cutoff_engine::eval::nnue::{HIDDEN, Kernel, default_network};

fn time(label: &str, kernel: Kernel, rounds: u32) -> (f64, f64) {
    let net = default_network();
    let (a, b, c, d) = (net.row(10), net.row(100), net.row(400), net.row(700));
    let mut acc = vec![0i16; HIDDEN];
    acc.copy_from_slice(&net.feature_bias);
    let mut out = vec![0i16; HIDDEN];
    let start = Instant::now();
    for _ in 0..rounds {
        kernel.update(&mut out, black_box(&acc), &[a, b], &[c, d]);
        std::mem::swap(&mut acc, &mut out);
    }
    let update = start.elapsed().as_nanos() as f64 / f64::from(rounds);
    let (w_us, w_them) = net.output_weights[..2 * HIDDEN].split_at(HIDDEN); // bucket 0
    let start = Instant::now();
    let mut sum = 0i32;
    for _ in 0..rounds {
        sum = sum.wrapping_add(kernel.screlu_dot(black_box(&acc), w_us));
        sum = sum.wrapping_add(kernel.screlu_dot(black_box(&out), w_them));
    }
    black_box(sum);
    let output = start.elapsed().as_nanos() as f64 / f64::from(rounds);
    println!("{label:>7}: update {update:7.1} ns, output {output:7.1} ns");
    (update, output)
}

fn main() {
    let rounds = 2_000_000;
    let scalar = time("scalar", Kernel::Scalar, rounds);
    #[cfg(target_arch = "x86_64")]
    for (name, kernel) in [("avx2", Kernel::avx2()), ("avx512", Kernel::avx512())] {
        let Some(kernel) = kernel else { continue };
        let simd = time(name, kernel, rounds);
        println!(
            "{name} / scalar speed: update x{:.1}, output x{:.1}",
            scalar.0 / simd.0,
            scalar.1 / simd.1
        );
    }
}
