//! How a tunable parameter is declared once (in `search::params` and
//! `time::params`) and read.
//!
//! `declare_tunables!` turns each `name: type = default, min, max, step;`
//! into an accessor `name()` and a row of `TUNABLES`. In a normal build the
//! accessor is a `const fn` returning the default, which the compiler folds
//! in as it would a `const`. With the `spsa` feature it reads an atomic
//! (relaxed: a plain load on the search threads, no data race) that a UCI
//! option sets, so SPSA can try values without rebuilding.

/// OpenBench's `r_end` (final learning rate) of every parameter: its usual
/// default, since no parameter here needs another.
pub const R_END: f64 = 0.002;

/// A tunable as OpenBench's SPSA sees it. Values are integers; a factor is
/// declared in hundredths (names ending in `_pct`).
#[derive(Clone, Copy, Debug)]
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// OpenBench's `c_end`: the final perturbation, in the parameter's units.
    pub step: f64,
}

impl Tunable {
    /// The line of OpenBench's SPSA input: `name, int, value, min, max, c_end, r_end`.
    pub fn spsa_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.name, self.default, self.min, self.max, self.step, R_END
        )
    }
}

/// Every tunable in OpenBench's SPSA input format, one line each.
pub fn spsa_input<'a>(tunables: impl IntoIterator<Item = &'a Tunable>) -> String {
    tunables.into_iter().map(|t| t.spsa_line() + "\n").collect()
}

/// Declares the tunables listed as `$(#[doc])* name: type = default, min,
/// max, step;`: the accessors, `Id` (each one's index), `TUNABLES`, and in a
/// `spsa` build their atomics and `set`. A default outside its range does
/// not compile.
macro_rules! declare_tunables {
    ($( $(#[$doc:meta])* $name:ident: $ty:ty = $default:literal, $min:literal, $max:literal, $step:literal; )*) => {
        /// The index of each tunable in `TUNABLES`.
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Id { $($name),* }

        /// Every tunable, in declaration order.
        pub const TUNABLES: &[$crate::tunable::Tunable] = &[$(
            $crate::tunable::Tunable {
                name: stringify!($name),
                default: $default,
                min: $min,
                max: $max,
                step: $step as f64,
            }
        ),*];

        $(const _: () = assert!(
            $min <= $default && $default <= $max,
            concat!(stringify!($name), ": the default must be within min..=max"),
        );)*

        #[cfg(feature = "spsa")]
        static VALUES: [::std::sync::atomic::AtomicI32; TUNABLES.len()] =
            [$(::std::sync::atomic::AtomicI32::new($default)),*];

        /// Sets a tunable for the searches started from now on (a `spsa`
        /// build; between searches); a value outside its range is refused.
        #[cfg(feature = "spsa")]
        pub fn set(id: Id, value: i32) -> Result<(), String> {
            let t = &TUNABLES[id as usize];
            if !(t.min..=t.max).contains(&value) {
                return Err(format!("{} must be in {}..={}", t.name, t.min, t.max));
            }
            VALUES[id as usize].store(value, ::std::sync::atomic::Ordering::Relaxed);
            Ok(())
        }

        $(
            $(#[$doc])*
            #[cfg(not(feature = "spsa"))]
            #[inline(always)]
            pub const fn $name() -> $ty {
                $default
            }

            $(#[$doc])*
            #[cfg(feature = "spsa")]
            #[inline(always)]
            #[allow(clippy::unnecessary_cast)] // most are i32 already
            pub fn $name() -> $ty {
                VALUES[Id::$name as usize].load(::std::sync::atomic::Ordering::Relaxed) as $ty
            }
        )*
    };
}
pub(crate) use declare_tunables;

#[cfg(test)]
#[path = "tunable_tests.rs"]
mod tests;
