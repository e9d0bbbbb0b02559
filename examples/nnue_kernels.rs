//! Times the network's hot loops on each kernel: the incremental update of
//! one accumulator (two rows added, two removed, as a capture does) and the
//! SCReLU output of both perspectives. `cargo run --release --example
//! nnue_kernels`; prints nanoseconds per call and the SIMD/scalar ratio.

use std::hint::black_box;
use std::time::Instant;

use cutoff_engine::eval::nnue::{DEFAULT_HIDDEN, Kernel, default_network};

/// The embedded network's size, which the kernels are timed at.
const H: usize = DEFAULT_HIDDEN;

fn time(label: &str, kernel: Kernel, rounds: u32) -> (f64, f64) {
    let net = default_network();
    assert_eq!(net.hidden(), H, "the embedded network's size");
    let (a, b, c, d) = (
        net.row::<H>(10),
        net.row::<H>(100),
        net.row::<H>(400),
        net.row::<H>(700),
    );
    let mut acc = *net.bias::<H>();
    let mut out = [0i16; H];
    let start = Instant::now();
    for _ in 0..rounds {
        kernel.update_n::<H, 2, 2>(&mut out, black_box(&acc), &[a, b], &[c, d]);
        std::mem::swap(&mut acc, &mut out);
    }
    let update = start.elapsed().as_nanos() as f64 / f64::from(rounds);
    let (w_us, w_them) = net.output_weights[..2 * H].split_at(H); // bucket 0
    let (w_us, w_them): (&[i16; H], &[i16; H]) = (
        w_us.try_into().expect("H weights"),
        w_them.try_into().expect("H weights"),
    );
    let start = Instant::now();
    let mut sum = 0i32;
    for _ in 0..rounds {
        sum = sum.wrapping_add(kernel.screlu_dot2(black_box(&acc), w_us, black_box(&out), w_them));
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
