//! The network's hot loops: adding and subtracting weight rows to an
//! accumulator, and the SCReLU dot product of the output layer.
//!
//! Every function is generic over the hidden size `H` (a multiple of 32),
//! so each size of [`super::SUPPORTED_HIDDEN`] gets loops of fixed length.
//!
//! Three paths give bit-identical results: AVX-512 or AVX2 intrinsics where
//! the processor has them, and portable scalar code. Integer sums wrap in both, and a
//! wrapping sum does not depend on the order of its terms.

use super::QA;

/// Which implementation of the hot loops to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Scalar,
    /// Only constructed where the processor supports AVX2 ([`Kernel::avx2`]).
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2Token),
    /// Only constructed where the processor supports AVX-512 BW ([`Kernel::avx512`]).
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512Token),
}

/// Proof that AVX-512 (F and BW) was detected: only [`Kernel::avx512`] makes one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx512Token(());

/// Proof that AVX2 was detected: only [`Kernel::avx2`] makes one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2Token(());

impl Kernel {
    /// The fastest kernel this processor runs.
    pub fn best() -> Self {
        #[cfg(target_arch = "x86_64")]
        if let Some(k) = Self::avx512().or_else(Self::avx2) {
            return k;
        }
        Kernel::Scalar
    }

    /// The AVX-512 kernel, if the processor has AVX-512 F and BW.
    #[cfg(target_arch = "x86_64")]
    pub fn avx512() -> Option<Self> {
        (is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw"))
            .then_some(Kernel::Avx512(Avx512Token(())))
    }

    /// The AVX2 kernel, if the processor has AVX2.
    #[cfg(target_arch = "x86_64")]
    pub fn avx2() -> Option<Self> {
        is_x86_feature_detected!("avx2").then_some(Kernel::Avx2(Avx2Token(())))
    }

    /// `dst = src + rows in add - rows in sub`, with as many rows as a move
    /// changes (`A` added, `S` removed, each 0 to 2): the loops over the rows
    /// unrolled for each count, for the incremental updates.
    #[inline(always)]
    pub fn update_n<const H: usize, const A: usize, const S: usize>(
        self,
        dst: &mut [i16; H],
        src: &[i16; H],
        add: &[&[i16; H]; A],
        sub: &[&[i16; H]; S],
    ) {
        const { assert!(H.is_multiple_of(32), "the kernels take 32 values at a time") };
        match self {
            Kernel::Scalar => scalar::update(dst, src, add, sub),
            // SAFETY: an `Avx2` kernel exists only where AVX2 was detected,
            // and every array holds `H` values, a multiple of 32.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2(_) => unsafe { avx2::update_n(dst, src, add, sub) },
            // SAFETY: as above, with AVX-512 detected.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512(_) => unsafe { avx512::update_n(dst, src, add, sub) },
        }
    }

    /// [`Kernel::update_n`] for both perspectives at once (`dst[p] = src[p]
    /// + add[p] - sub[p]`): one dispatch for the two passes.
    #[inline(always)]
    pub fn update_pair<const H: usize, const A: usize, const S: usize>(
        self,
        dst: &mut [[i16; H]; 2],
        src: &[[i16; H]; 2],
        add: &[[&[i16; H]; A]; 2],
        sub: &[[&[i16; H]; S]; 2],
    ) {
        const { assert!(H.is_multiple_of(32), "the kernels take 32 values at a time") };
        match self {
            Kernel::Scalar => {
                for p in 0..2 {
                    scalar::update(&mut dst[p], &src[p], &add[p], &sub[p]);
                }
            }
            // SAFETY: an `Avx2` kernel exists only where AVX2 was detected,
            // and every array holds `H` values, a multiple of 32.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2(_) => unsafe { avx2::update_pair(dst, src, add, sub) },
            // SAFETY: as above, with AVX-512 detected.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512(_) => unsafe { avx512::update_pair(dst, src, add, sub) },
        }
    }

    /// `dst = src + rows in add - rows in sub`, any number of rows (a
    /// refresh adds every piece's row at once).
    #[inline(always)]
    pub fn update<const H: usize>(
        self,
        dst: &mut [i16; H],
        src: &[i16; H],
        add: &[&[i16; H]],
        sub: &[&[i16; H]],
    ) {
        const { assert!(H.is_multiple_of(32), "the kernels take 32 values at a time") };
        match self {
            Kernel::Scalar => scalar::update(dst, src, add, sub),
            // SAFETY: an `Avx2` kernel exists only where AVX2 was detected,
            // and every array holds `H` values, a multiple of 32.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2(_) => unsafe { avx2::update(dst, src, add, sub) },
            // SAFETY: as above, with AVX-512 detected.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512(_) => unsafe { avx512::update(dst, src, add, sub) },
        }
    }

    /// `screlu_dot(us, w_us) + screlu_dot(them, w_them)`, wrapping: the
    /// output layer's sum in one pass and one horizontal add.
    #[inline(always)]
    pub fn screlu_dot2<const H: usize>(
        self,
        us: &[i16; H],
        w_us: &[i16; H],
        them: &[i16; H],
        w_them: &[i16; H],
    ) -> i32 {
        const { assert!(H.is_multiple_of(32), "the kernels take 32 values at a time") };
        match self {
            Kernel::Scalar => {
                scalar::screlu_dot(us, w_us).wrapping_add(scalar::screlu_dot(them, w_them))
            }
            // SAFETY: as in `update`: AVX2 was detected, `H` values each.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2(_) => unsafe { avx2::screlu_dot2(us, w_us, them, w_them) },
            // SAFETY: as above, with AVX-512 detected.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512(_) => unsafe { avx512::screlu_dot2(us, w_us, them, w_them) },
        }
    }
}

mod scalar {
    use super::QA;

    pub fn update<const H: usize>(
        dst: &mut [i16; H],
        src: &[i16; H],
        add: &[&[i16; H]],
        sub: &[&[i16; H]],
    ) {
        for (i, d) in dst.iter_mut().enumerate() {
            let mut v = src[i];
            for row in add {
                v = v.wrapping_add(row[i]);
            }
            for row in sub {
                v = v.wrapping_sub(row[i]);
            }
            *d = v;
        }
    }

    pub fn screlu_dot<const H: usize>(acc: &[i16; H], weights: &[i16; H]) -> i32 {
        let mut sum = 0i32;
        for (&a, &w) in acc.iter().zip(weights) {
            let v = i32::from(a).clamp(0, QA);
            // v * w fits in i16 because training clips the output weights;
            // the AVX2 path relies on the same (mullo keeps 16 bits).
            let vw = (v * i32::from(w)) as i16;
            sum = sum.wrapping_add(i32::from(vw) * v);
        }
        sum
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::QA;

    const LANES: usize = 16;

    /// `$sum += clamp(acc, 0, QA)^2 * weights`, in i32 lanes.
    macro_rules! screlu_body {
        ($sum:ident, $acc:expr, $weights:expr) => {
            let zero = _mm256_setzero_si256();
            let qa = _mm256_set1_epi16(QA as i16);
            for i in (0..H).step_by(LANES) {
                // SAFETY: i + LANES <= H (a multiple of LANES), every array's length.
                let (a, w) = unsafe {
                    (
                        _mm256_loadu_si256($acc.as_ptr().add(i).cast()),
                        _mm256_loadu_si256($weights.as_ptr().add(i).cast()),
                    )
                };
                let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
                let vw = _mm256_mullo_epi16(v, w);
                $sum = _mm256_add_epi32($sum, _mm256_madd_epi16(vw, v));
            }
        };
    }

    /// `dst = src + rows in add - rows in sub`, for arrays or slices of rows.
    macro_rules! update_body {
        ($dst:expr, $src:expr, $add:expr, $sub:expr) => {
            for i in (0..H).step_by(LANES) {
                // SAFETY: i + LANES <= H (a multiple of LANES), every array's
                // length; unaligned loads and stores accept any address.
                unsafe {
                    let mut v = _mm256_loadu_si256($src.as_ptr().add(i).cast());
                    for row in $add {
                        v = _mm256_add_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i).cast()));
                    }
                    for row in $sub {
                        v = _mm256_sub_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i).cast()));
                    }
                    _mm256_storeu_si256($dst.as_mut_ptr().add(i).cast(), v);
                }
            }
        };
    }

    /// # Safety
    /// AVX2 must be available; `H` must be a multiple of the lanes.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update<const H: usize>(
        dst: &mut [i16; H],
        src: &[i16; H],
        add: &[&[i16; H]],
        sub: &[&[i16; H]],
    ) {
        update_body!(dst, src, add, sub);
    }

    /// # Safety
    /// AVX2 must be available; `H` must be a multiple of the lanes.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update_n<const H: usize, const A: usize, const S: usize>(
        dst: &mut [i16; H],
        src: &[i16; H],
        add: &[&[i16; H]; A],
        sub: &[&[i16; H]; S],
    ) {
        update_body!(dst, src, add, sub);
    }

    /// # Safety
    /// AVX2 must be available; `H` must be a multiple of the lanes.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update_pair<const H: usize, const A: usize, const S: usize>(
        dst: &mut [[i16; H]; 2],
        src: &[[i16; H]; 2],
        add: &[[&[i16; H]; A]; 2],
        sub: &[[&[i16; H]; S]; 2],
    ) {
        for p in 0..2 {
            update_body!(dst[p], src[p], add[p], sub[p]);
        }
    }

    /// # Safety
    /// AVX2 must be available; `H` must be a multiple of the lanes.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot2<const H: usize>(
        us: &[i16; H],
        w_us: &[i16; H],
        them: &[i16; H],
        w_them: &[i16; H],
    ) -> i32 {
        let mut sum = _mm256_setzero_si256();
        screlu_body!(sum, us, w_us);
        screlu_body!(sum, them, w_them);
        hsum(sum)
    }

    /// The sum of the eight i32 lanes.
    #[target_feature(enable = "avx2")]
    fn hsum(sum: __m256i) -> i32 {
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256(sum, 1),
        );
        let quad = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0b0100_1110));
        let pair = _mm_add_epi32(quad, _mm_shuffle_epi32(quad, 0b1011_0001));
        _mm_cvtsi128_si32(pair)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::QA;

    const LANES: usize = 32;

    /// `$sum += clamp(acc, 0, QA)^2 * weights`, in i32 lanes.
    macro_rules! screlu_body {
        ($sum:ident, $acc:expr, $weights:expr) => {
            let zero = _mm512_setzero_si512();
            let qa = _mm512_set1_epi16(QA as i16);
            for i in (0..H).step_by(LANES) {
                // SAFETY: i + LANES <= H (a multiple of LANES), every array's length.
                let (a, w) = unsafe {
                    (
                        _mm512_loadu_si512($acc.as_ptr().add(i).cast()),
                        _mm512_loadu_si512($weights.as_ptr().add(i).cast()),
                    )
                };
                let v = _mm512_min_epi16(_mm512_max_epi16(a, zero), qa);
                $sum = _mm512_add_epi32($sum, _mm512_madd_epi16(_mm512_mullo_epi16(v, w), v));
            }
        };
    }

    /// `dst = src + rows in add - rows in sub`, for arrays or slices of rows.
    macro_rules! update_body {
        ($dst:expr, $src:expr, $add:expr, $sub:expr) => {
            for i in (0..H).step_by(LANES) {
                // SAFETY: i + LANES <= H (a multiple of LANES), every array's
                // length; unaligned loads and stores accept any address.
                unsafe {
                    let mut v = _mm512_loadu_si512($src.as_ptr().add(i).cast());
                    for row in $add {
                        v = _mm512_add_epi16(v, _mm512_loadu_si512(row.as_ptr().add(i).cast()));
                    }
                    for row in $sub {
                        v = _mm512_sub_epi16(v, _mm512_loadu_si512(row.as_ptr().add(i).cast()));
                    }
                    _mm512_storeu_si512($dst.as_mut_ptr().add(i).cast(), v);
                }
            }
        };
    }

    /// # Safety
    /// AVX-512 F and BW must be available; `H` must be a multiple of the lanes.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn update<const H: usize>(
        dst: &mut [i16; H],
        src: &[i16; H],
        add: &[&[i16; H]],
        sub: &[&[i16; H]],
    ) {
        update_body!(dst, src, add, sub);
    }

    /// # Safety
    /// AVX-512 F and BW must be available; `H` must be a multiple of the lanes.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn update_n<const H: usize, const A: usize, const S: usize>(
        dst: &mut [i16; H],
        src: &[i16; H],
        add: &[&[i16; H]; A],
        sub: &[&[i16; H]; S],
    ) {
        update_body!(dst, src, add, sub);
    }

    /// # Safety
    /// AVX-512 F and BW must be available; `H` must be a multiple of the lanes.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn update_pair<const H: usize, const A: usize, const S: usize>(
        dst: &mut [[i16; H]; 2],
        src: &[[i16; H]; 2],
        add: &[[&[i16; H]; A]; 2],
        sub: &[[&[i16; H]; S]; 2],
    ) {
        for p in 0..2 {
            update_body!(dst[p], src[p], add[p], sub[p]);
        }
    }

    /// # Safety
    /// AVX-512 F and BW must be available; `H` must be a multiple of the lanes.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn screlu_dot2<const H: usize>(
        us: &[i16; H],
        w_us: &[i16; H],
        them: &[i16; H],
        w_them: &[i16; H],
    ) -> i32 {
        let mut sum = _mm512_setzero_si512();
        screlu_body!(sum, us, w_us);
        screlu_body!(sum, them, w_them);
        _mm512_reduce_add_epi32(sum)
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

    #[test]
    fn simd_and_scalar_agree() {
        let kernels: Vec<Kernel> = [Kernel::avx2(), Kernel::avx512()]
            .into_iter()
            .flatten()
            .collect();
        if kernels.is_empty() {
            eprintln!("no AVX2 here: only the scalar path runs");
        }
        for fast in kernels {
            agree::<32>(fast);
            agree::<256>(fast);
            agree::<384>(fast);
        }
    }

    fn agree<const H: usize>(fast: Kernel) {
        for seed in 1..50 {
            let acc = pseudo_random::<H>(seed, 600);
            let w = pseudo_random::<H>(seed * 7, 127);
            let rows: Vec<[i16; H]> = (0..4).map(|k| pseudo_random(seed + 100 * k, 500)).collect();
            let zero = [0; H];
            assert_eq!(
                Kernel::Scalar.screlu_dot2(&acc, &w, &zero, &zero),
                fast.screlu_dot2(&acc, &w, &zero, &zero)
            );
            let (acc2, w2) = (
                pseudo_random::<H>(seed * 3, 600),
                pseudo_random::<H>(seed * 5, 127),
            );
            assert_eq!(
                Kernel::Scalar.screlu_dot2(&acc, &w, &acc2, &w2),
                fast.screlu_dot2(&acc, &w, &acc2, &w2)
            );
            let (mut a, mut b) = ([0; H], [0; H]);
            let add = [&rows[0], &rows[1]];
            let sub = [&rows[2], &rows[3]];
            Kernel::Scalar.update(&mut a, &acc, &add, &sub);
            fast.update(&mut b, &acc, &add, &sub);
            assert_eq!(a, b);
            assert_ne!(a, acc, "the update changed something");
        }
    }
}
