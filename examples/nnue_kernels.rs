//! Times the network's hot loops with each op set of the build: the
//! incremental update of one accumulator (two rows added, two removed, as a
//! capture does) and the SCReLU output of both perspectives. `cargo run
//! --release --example nnue_kernels`; prints nanoseconds per call and the
//! ratio to the scalar op set.

use std::hint::black_box;
use std::time::Instant;

use cutoff_engine::eval::nnue::default_network;
use cutoff_engine::eval::nnue::simd::{self, Ops, Scalar};

/// The embedded network's size, which the loops are timed at.
const H: usize = 384;

fn time<O: Ops>(rounds: u32) -> (f64, f64) {
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
        simd::update_with::<O, H>(&mut out, black_box(&acc), &[a, b], &[c, d]);
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
        let (us, them) = (black_box(&acc), black_box(&out));
        sum = sum.wrapping_add(simd::screlu_dot2_with::<O, H>(us, w_us, them, w_them));
    }
    black_box(sum);
    let output = start.elapsed().as_nanos() as f64 / f64::from(rounds);
    println!(
        "{:>7}: update {update:7.1} ns, output {output:7.1} ns",
        O::NAME
    );
    (update, output)
}

/// Times `O` and prints its speed against the scalar op set's.
fn against_scalar<O: Ops>(scalar: (f64, f64), rounds: u32) {
    let fast = time::<O>(rounds);
    println!(
        "{} / scalar speed: update x{:.1}, output x{:.1}",
        O::NAME,
        scalar.0 / fast.0,
        scalar.1 / fast.1
    );
}

fn main() {
    let rounds = 2_000_000;
    println!("this build's op set: {}", <simd::Native as Ops>::NAME);
    let scalar = time::<Scalar>(rounds);
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    against_scalar::<simd::avx2::Avx2>(scalar, rounds);
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512f",
        target_feature = "avx512bw"
    ))]
    against_scalar::<simd::avx512::Avx512>(scalar, rounds);
}
