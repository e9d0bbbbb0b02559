//! The network's hot loops: adding and subtracting weight rows to an
//! accumulator ([`update`]), and the SCReLU dot product of the output layer
//! ([`screlu_dot2`]).
//!
//! Each loop is written once, over a handful of vector operations ([`Ops`])
//! that each instruction set implements: AVX-512, AVX2, and portable scalar
//! code. The build picks one when compiling, the widest its target CPU has
//! ([`Native`]; `-C target-cpu`, native in `.cargo/config.toml`), so no call
//! chooses at run time and every loop inlines into its caller.
//!
//! The loops take [`CHUNK`] values at a time (one AVX-512 register, two AVX2
//! registers) and are generic over the hidden size `H` (a multiple of
//! [`CHUNK`]), so each size of [`super::SUPPORTED_HIDDEN`] gets loops of
//! fixed length. All op sets give bit-identical results: integer sums wrap,
//! and a wrapping sum does not depend on the order of its terms.

use super::QA;

/// Values a loop takes at a time.
pub const CHUNK: usize = 32;

/// The vector operations the loops need, on [`CHUNK`] i16 values at a time
/// and on the i32 sums of their products.
pub trait Ops {
    /// Name of the instruction set, for messages.
    const NAME: &'static str;
    /// [`CHUNK`] lanes of i16.
    type I16: Copy;
    /// Half as many lanes of i32.
    type I32: Copy;

    fn load(src: &[i16; CHUNK]) -> Self::I16;
    fn store(dst: &mut [i16; CHUNK], v: Self::I16);
    fn splat(x: i16) -> Self::I16;
    /// Lane-wise, wrapping.
    fn add(a: Self::I16, b: Self::I16) -> Self::I16;
    /// Lane-wise, wrapping.
    fn sub(a: Self::I16, b: Self::I16) -> Self::I16;
    fn max(a: Self::I16, b: Self::I16) -> Self::I16;
    fn min(a: Self::I16, b: Self::I16) -> Self::I16;
    /// Lane-wise products, their low 16 bits.
    fn mul_lo(a: Self::I16, b: Self::I16) -> Self::I16;
    /// Products of lanes `2i` and `2i + 1` summed into i32 lane `i`.
    fn madd(a: Self::I16, b: Self::I16) -> Self::I32;
    fn zero_i32() -> Self::I32;
    /// Lane-wise, wrapping.
    fn add_i32(a: Self::I32, b: Self::I32) -> Self::I32;
    /// The wrapping sum of every lane.
    fn sum_i32(v: Self::I32) -> i32;
}

/// The op set of this build: AVX-512 (F and BW) where the target CPU has it.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512bw"
))]
pub type Native = avx512::Avx512;

/// The op set of this build: AVX2 where the target CPU has it, not AVX-512.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    not(all(target_feature = "avx512f", target_feature = "avx512bw"))
))]
pub type Native = avx2::Avx2;

/// The op set of this build: portable code for a target CPU without AVX2.
#[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
pub type Native = Scalar;

/// `dst = src + rows in add - rows in sub`, with the build's op set. A
/// move adds and removes a row or two (arrays of fixed length, so the loops
/// over the rows unroll); a refresh adds every piece's row.
#[inline(always)]
pub fn update<const H: usize>(
    dst: &mut [i16; H],
    src: &[i16; H],
    add: &[&[i16; H]],
    sub: &[&[i16; H]],
) {
    update_with::<Native, H>(dst, src, add, sub);
}

/// `screlu_dot(us, w_us) + screlu_dot(them, w_them)`, wrapping, with the
/// build's op set: the output layer's sum in one pass and one horizontal add.
#[inline(always)]
pub fn screlu_dot2<const H: usize>(
    us: &[i16; H],
    w_us: &[i16; H],
    them: &[i16; H],
    w_them: &[i16; H],
) -> i32 {
    screlu_dot2_with::<Native, H>(us, w_us, them, w_them)
}

/// [`update`] with the op set `O`.
#[inline(always)]
pub fn update_with<O: Ops, const H: usize>(
    dst: &mut [i16; H],
    src: &[i16; H],
    add: &[&[i16; H]],
    sub: &[&[i16; H]],
) {
    const { assert!(H.is_multiple_of(CHUNK), "H must be a multiple of CHUNK") };
    let chunk = |row: &[i16; H], i: usize| -> O::I16 { O::load(&row.as_chunks().0[i]) };
    let dst = dst.as_chunks_mut::<CHUNK>().0;
    for (i, out) in dst.iter_mut().enumerate() {
        let mut v = chunk(src, i);
        for row in add {
            v = O::add(v, chunk(row, i));
        }
        for row in sub {
            v = O::sub(v, chunk(row, i));
        }
        O::store(out, v);
    }
}

/// [`screlu_dot2`] with the op set `O`.
#[inline(always)]
pub fn screlu_dot2_with<O: Ops, const H: usize>(
    us: &[i16; H],
    w_us: &[i16; H],
    them: &[i16; H],
    w_them: &[i16; H],
) -> i32 {
    const { assert!(H.is_multiple_of(CHUNK), "H must be a multiple of CHUNK") };
    let sum = screlu_dot::<O, H>(O::zero_i32(), us, w_us);
    O::sum_i32(screlu_dot::<O, H>(sum, them, w_them))
}

/// `sum` plus `clamp(acc, 0, QA)^2 * weights`, in i32 lanes, computed as
/// `(v * w) * v` with `v * w` kept in 16 bits, which holds because training
/// clips the output weights (`v <= 255`, `|w| <= 127`).
#[inline(always)]
fn screlu_dot<O: Ops, const H: usize>(
    mut sum: O::I32,
    acc: &[i16; H],
    weights: &[i16; H],
) -> O::I32 {
    let (zero, qa) = (O::splat(0), O::splat(QA as i16));
    for (a, w) in acc.as_chunks().0.iter().zip(weights.as_chunks().0) {
        let v = O::min(O::max(O::load(a), zero), qa);
        sum = O::add_i32(sum, O::madd(O::mul_lo(v, O::load(w)), v));
    }
    sum
}

/// Portable code, one lane at a time (which LLVM vectorises as far as the
/// target CPU allows).
pub struct Scalar;

impl Ops for Scalar {
    const NAME: &'static str = "scalar";
    type I16 = [i16; CHUNK];
    type I32 = [i32; CHUNK / 2];

    #[inline(always)]
    fn load(src: &[i16; CHUNK]) -> Self::I16 {
        *src
    }
    #[inline(always)]
    fn store(dst: &mut [i16; CHUNK], v: Self::I16) {
        *dst = v;
    }
    #[inline(always)]
    fn splat(x: i16) -> Self::I16 {
        [x; CHUNK]
    }
    #[inline(always)]
    fn add(a: Self::I16, b: Self::I16) -> Self::I16 {
        std::array::from_fn(|i| a[i].wrapping_add(b[i]))
    }
    #[inline(always)]
    fn sub(a: Self::I16, b: Self::I16) -> Self::I16 {
        std::array::from_fn(|i| a[i].wrapping_sub(b[i]))
    }
    #[inline(always)]
    fn max(a: Self::I16, b: Self::I16) -> Self::I16 {
        std::array::from_fn(|i| a[i].max(b[i]))
    }
    #[inline(always)]
    fn min(a: Self::I16, b: Self::I16) -> Self::I16 {
        std::array::from_fn(|i| a[i].min(b[i]))
    }
    #[inline(always)]
    fn mul_lo(a: Self::I16, b: Self::I16) -> Self::I16 {
        std::array::from_fn(|i| a[i].wrapping_mul(b[i]))
    }
    #[inline(always)]
    fn madd(a: Self::I16, b: Self::I16) -> Self::I32 {
        let product = |i: usize| i32::from(a[i]) * i32::from(b[i]);
        std::array::from_fn(|i| product(2 * i).wrapping_add(product(2 * i + 1)))
    }
    #[inline(always)]
    fn zero_i32() -> Self::I32 {
        [0; CHUNK / 2]
    }
    #[inline(always)]
    fn add_i32(a: Self::I32, b: Self::I32) -> Self::I32 {
        std::array::from_fn(|i| a[i].wrapping_add(b[i]))
    }
    #[inline(always)]
    fn sum_i32(v: Self::I32) -> i32 {
        v.into_iter().fold(0, i32::wrapping_add)
    }
}

/// AVX2: two 256-bit registers per chunk.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
pub mod avx2 {
    use std::arch::x86_64::*;

    use super::{CHUNK, Ops};

    pub struct Avx2;

    /// `$e`, AVX2 intrinsics that take no pointers.
    macro_rules! avx2 {
        ($e:expr) => {
            // SAFETY: this module is compiled only into builds that enable
            // AVX2 (its cfg), which run only on processors that have it; the
            // intrinsics read and write no memory.
            unsafe { $e }
        };
    }

    type Pair = [__m256i; 2];

    /// `f` on the low registers and on the high ones.
    #[inline(always)]
    fn each(a: Pair, b: Pair, f: impl Fn(__m256i, __m256i) -> __m256i) -> Pair {
        [f(a[0], b[0]), f(a[1], b[1])]
    }

    impl Ops for Avx2 {
        const NAME: &'static str = "avx2";
        type I16 = Pair;
        type I32 = Pair;

        #[inline(always)]
        fn load(src: &[i16; CHUNK]) -> Pair {
            let p = src.as_ptr().cast::<__m256i>();
            // SAFETY: `src` is 64 readable bytes, the two registers' worth;
            // unaligned loads accept any address.
            unsafe { [_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1))] }
        }
        #[inline(always)]
        fn store(dst: &mut [i16; CHUNK], v: Pair) {
            let p = dst.as_mut_ptr().cast::<__m256i>();
            // SAFETY: `dst` is 64 writable bytes, the two registers' worth;
            // unaligned stores accept any address.
            unsafe {
                _mm256_storeu_si256(p, v[0]);
                _mm256_storeu_si256(p.add(1), v[1]);
            }
        }
        #[inline(always)]
        fn splat(x: i16) -> Pair {
            avx2!([_mm256_set1_epi16(x); 2])
        }
        #[inline(always)]
        fn add(a: Pair, b: Pair) -> Pair {
            each(a, b, |x, y| avx2!(_mm256_add_epi16(x, y)))
        }
        #[inline(always)]
        fn sub(a: Pair, b: Pair) -> Pair {
            each(a, b, |x, y| avx2!(_mm256_sub_epi16(x, y)))
        }
        #[inline(always)]
        fn max(a: Pair, b: Pair) -> Pair {
            each(a, b, |x, y| avx2!(_mm256_max_epi16(x, y)))
        }
        #[inline(always)]
        fn min(a: Pair, b: Pair) -> Pair {
            each(a, b, |x, y| avx2!(_mm256_min_epi16(x, y)))
        }
        #[inline(always)]
        fn mul_lo(a: Pair, b: Pair) -> Pair {
            each(a, b, |x, y| avx2!(_mm256_mullo_epi16(x, y)))
        }
        #[inline(always)]
        fn madd(a: Pair, b: Pair) -> Pair {
            each(a, b, |x, y| avx2!(_mm256_madd_epi16(x, y)))
        }
        #[inline(always)]
        fn zero_i32() -> Pair {
            avx2!([_mm256_setzero_si256(); 2])
        }
        #[inline(always)]
        fn add_i32(a: Pair, b: Pair) -> Pair {
            each(a, b, |x, y| avx2!(_mm256_add_epi32(x, y)))
        }
        #[inline(always)]
        fn sum_i32(v: Pair) -> i32 {
            avx2!({
                let eight = _mm256_add_epi32(v[0], v[1]);
                let four = _mm_add_epi32(
                    _mm256_castsi256_si128(eight),
                    _mm256_extracti128_si256::<1>(eight),
                );
                let two = _mm_add_epi32(four, _mm_shuffle_epi32::<0b0100_1110>(four));
                let one = _mm_add_epi32(two, _mm_shuffle_epi32::<0b1011_0001>(two));
                _mm_cvtsi128_si32(one)
            })
        }
    }
}

/// AVX-512 (F and BW): one 512-bit register per chunk.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512bw"
))]
pub mod avx512 {
    use std::arch::x86_64::*;

    use super::{CHUNK, Ops};

    pub struct Avx512;

    /// `$e`, AVX-512 intrinsics that take no pointers.
    macro_rules! avx512 {
        ($e:expr) => {
            // SAFETY: this module is compiled only into builds that enable
            // AVX-512 F and BW (its cfg), which run only on processors that
            // have them; the intrinsics read and write no memory.
            unsafe { $e }
        };
    }

    impl Ops for Avx512 {
        const NAME: &'static str = "avx512";
        type I16 = __m512i;
        type I32 = __m512i;

        #[inline(always)]
        fn load(src: &[i16; CHUNK]) -> __m512i {
            // SAFETY: `src` is 64 readable bytes, one register's worth;
            // unaligned loads accept any address.
            unsafe { _mm512_loadu_si512(src.as_ptr().cast()) }
        }
        #[inline(always)]
        fn store(dst: &mut [i16; CHUNK], v: __m512i) {
            // SAFETY: `dst` is 64 writable bytes, one register's worth;
            // unaligned stores accept any address.
            unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), v) }
        }
        #[inline(always)]
        fn splat(x: i16) -> __m512i {
            avx512!(_mm512_set1_epi16(x))
        }
        #[inline(always)]
        fn add(a: __m512i, b: __m512i) -> __m512i {
            avx512!(_mm512_add_epi16(a, b))
        }
        #[inline(always)]
        fn sub(a: __m512i, b: __m512i) -> __m512i {
            avx512!(_mm512_sub_epi16(a, b))
        }
        #[inline(always)]
        fn max(a: __m512i, b: __m512i) -> __m512i {
            avx512!(_mm512_max_epi16(a, b))
        }
        #[inline(always)]
        fn min(a: __m512i, b: __m512i) -> __m512i {
            avx512!(_mm512_min_epi16(a, b))
        }
        #[inline(always)]
        fn mul_lo(a: __m512i, b: __m512i) -> __m512i {
            avx512!(_mm512_mullo_epi16(a, b))
        }
        #[inline(always)]
        fn madd(a: __m512i, b: __m512i) -> __m512i {
            avx512!(_mm512_madd_epi16(a, b))
        }
        #[inline(always)]
        fn zero_i32() -> __m512i {
            avx512!(_mm512_setzero_si512())
        }
        #[inline(always)]
        fn add_i32(a: __m512i, b: __m512i) -> __m512i {
            avx512!(_mm512_add_epi32(a, b))
        }
        #[inline(always)]
        fn sum_i32(v: __m512i) -> i32 {
            avx512!(_mm512_reduce_add_epi32(v))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pseudo_random<const H: usize>(seed: u64, range: i16) -> [i16; H] {
        let mut x = seed | 1;
        std::array::from_fn(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % (2 * range as u64 + 1)) as i16 - range
        })
    }

    /// Every op set this build has gives what the scalar code gives, at
    /// every hidden size the engine runs.
    #[test]
    fn every_op_set_agrees_with_scalar() {
        agree_at_every_size::<Native>();
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        agree_at_every_size::<avx2::Avx2>();
        #[cfg(all(
            target_arch = "x86_64",
            target_feature = "avx512f",
            target_feature = "avx512bw"
        ))]
        agree_at_every_size::<avx512::Avx512>();
    }

    fn agree_at_every_size<O: Ops>() {
        for &h in super::super::SUPPORTED_HIDDEN {
            super::super::with_hidden!(h, H => agree::<O, H>());
        }
    }

    fn agree<O: Ops, const H: usize>() {
        for seed in 1..20 {
            let acc = pseudo_random::<H>(seed, 600);
            let w = pseudo_random::<H>(seed * 7, 127);
            let (acc2, w2) = (
                pseudo_random::<H>(seed * 3, 600),
                pseudo_random::<H>(seed * 5, 127),
            );
            assert_eq!(
                screlu_dot2_with::<Scalar, H>(&acc, &w, &acc2, &w2),
                screlu_dot2_with::<O, H>(&acc, &w, &acc2, &w2),
                "{} at {H}",
                O::NAME
            );
            let rows: Vec<[i16; H]> = (0..6).map(|k| pseudo_random(seed + 100 * k, 500)).collect();
            let rows: Vec<&[i16; H]> = rows.iter().collect();
            for (added, removed) in [(1, 1), (1, 2), (2, 2), (6, 0), (0, 0)] {
                let (add, sub) = (&rows[..added], &rows[added..added + removed]);
                let (mut a, mut b) = ([0; H], [0; H]);
                update_with::<Scalar, H>(&mut a, &acc, add, sub);
                update_with::<O, H>(&mut b, &acc, add, sub);
                assert_eq!(a, b, "{} at {H}: +{added} -{removed}", O::NAME);
                assert_eq!(a == acc, added + removed == 0);
            }
        }
    }

    /// The scalar SCReLU is the formula itself: `clamp(a, 0, QA)^2 * w`.
    #[test]
    fn scalar_screlu_is_the_formula() {
        let acc = pseudo_random::<64>(3, 600);
        let w = pseudo_random::<64>(4, 127);
        let zero = [0; 64];
        let want: i32 = acc
            .iter()
            .zip(&w)
            .map(|(&a, &w)| i32::from(a).clamp(0, QA).pow(2) * i32::from(w))
            .sum();
        assert_eq!(screlu_dot2_with::<Scalar, 64>(&acc, &w, &zero, &zero), want);
    }
}
