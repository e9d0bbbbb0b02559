//! A scheduling hint where Linux has it (elsewhere it does nothing): the
//! thread that reads UCI commands asks for a short time slice.
//!
//! With as many search threads as cores, a `stop` wakes the input thread on a
//! machine with no idle CPU. Linux's EEVDF scheduler (6.6 on, custom slices
//! from 6.12) lets a waking thread preempt the running one sooner when its
//! slice is shorter, so the input thread asks for the shortest slice (0.1 ms)
//! and the search threads it starts go back to the slice it had: only the
//! thread that runs for microseconds per command is favoured (measured in
//! docs/reliability.md, section 3). Older kernels ignore the field; a
//! refusal is harmless.

use std::sync::atomic::{AtomicU64, Ordering};

/// The shortest slice Linux grants, in nanoseconds.
pub const SHORT_SLICE_NS: u64 = 100_000;

/// The slice the input thread had before it shortened its own (0: never
/// shortened), restored by the threads it starts.
static INHERITED_NS: AtomicU64 = AtomicU64::new(0);

/// Gives the calling thread the short slice; threads it starts inherit it
/// until they call [`restore_slice`].
pub fn shorten_slice() {
    if let Some(previous) = sys::slice_ns() {
        // A second call must not record the short slice as the one to restore.
        let _ = INHERITED_NS.compare_exchange(0, previous, Ordering::Relaxed, Ordering::Relaxed);
        sys::set_slice_ns(SHORT_SLICE_NS);
    }
}

/// Gives the calling thread the slice the input thread had before
/// [`shorten_slice`]; does nothing if no thread shortened its slice.
pub fn restore_slice() {
    let inherited = INHERITED_NS.load(Ordering::Relaxed);
    if inherited != 0 {
        sys::set_slice_ns(inherited);
    }
}

/// The calling thread's slice in nanoseconds, where the system reports one.
#[cfg(test)]
fn slice_ns() -> Option<u64> {
    sys::slice_ns()
}

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64"),
    not(miri)
))]
mod sys {
    /// `struct sched_attr` as of Linux 3.14 (SCHED_ATTR_SIZE_VER0).
    #[repr(C)]
    #[derive(Default)]
    struct SchedAttr {
        size: u32,
        policy: u32,
        flags: u64,
        nice: i32,
        priority: u32,
        runtime: u64,
        deadline: u64,
        period: u64,
    }

    #[cfg(target_arch = "x86_64")]
    const SYS_SETATTR: i64 = 314;
    #[cfg(target_arch = "x86_64")]
    const SYS_GETATTR: i64 = 315;
    #[cfg(target_arch = "aarch64")]
    const SYS_SETATTR: i64 = 274;
    #[cfg(target_arch = "aarch64")]
    const SYS_GETATTR: i64 = 275;
    const SIZE: u32 = std::mem::size_of::<SchedAttr>() as u32;
    /// SCHED_OTHER and SCHED_BATCH: the fair policies, whose `runtime` is the slice.
    const FAIR: [u32; 2] = [0, 3];

    // Through libc's `syscall`: glibc wraps these calls only from 2.41.
    // Every argument is passed as a full register (`i64`), as the kernel reads them.
    unsafe extern "C" {
        fn syscall(number: i64, ...) -> i64;
    }

    /// The calling thread's attributes, if it runs under a fair policy.
    fn get() -> Option<SchedAttr> {
        let mut attr = SchedAttr::default();
        // SAFETY: pid 0 is the calling thread; the kernel writes at most
        // `SIZE` bytes into `attr`, a live, writable `SchedAttr` of that size.
        let status = unsafe {
            syscall(
                SYS_GETATTR,
                0i64,
                &mut attr as *mut SchedAttr,
                SIZE as i64,
                0i64,
            )
        };
        (status == 0 && FAIR.contains(&attr.policy)).then_some(attr)
    }

    pub fn slice_ns() -> Option<u64> {
        get().map(|attr| attr.runtime).filter(|&ns| ns > 0)
    }

    /// Changes only the slice: policy and nice are written back as read, so a
    /// `nice`d engine stays as nice as it was started.
    pub fn set_slice_ns(ns: u64) {
        if let Some(mut attr) = get() {
            attr.size = SIZE;
            attr.flags = 0;
            attr.runtime = ns;
            // SAFETY: pid 0 is the calling thread; the kernel reads `SIZE`
            // bytes from `attr`, a live `SchedAttr` of that size.
            unsafe { syscall(SYS_SETATTR, 0i64, &attr as *const SchedAttr, 0i64) };
        }
    }
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64"),
    not(miri)
)))]
mod sys {
    pub fn slice_ns() -> Option<u64> {
        None
    }

    pub fn set_slice_ns(_ns: u64) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In a thread of its own: the slice is per thread and inherited.
    #[test]
    fn the_short_slice_is_set_and_search_threads_restore_the_old_one() {
        std::thread::spawn(|| {
            let Some(before) = slice_ns() else {
                return; // no slices here: the hint is a no-op
            };
            shorten_slice();
            let shortened = slice_ns();
            let child = std::thread::spawn(|| (slice_ns(), restore_slice(), slice_ns()));
            let (inherited, (), restored) = child.join().unwrap();
            if shortened == Some(before) {
                return; // a kernel without custom slices (before 6.12)
            }
            assert_eq!(shortened, Some(SHORT_SLICE_NS));
            assert_eq!(inherited, Some(SHORT_SLICE_NS));
            assert_eq!(restored, Some(before));
        })
        .join()
        .unwrap();
    }
}
