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

#[cfg(all(target_os = "linux", not(miri)))]
mod sys {
    use libc::{
        SCHED_BATCH, SCHED_OTHER, SYS_sched_getattr, SYS_sched_setattr, c_long, sched_attr,
    };

    /// The size the kernel is told: `sched_attr` as of Linux 3.14
    /// (SCHED_ATTR_SIZE_VER0), the fields libc declares.
    const SIZE: u32 = std::mem::size_of::<sched_attr>() as u32;
    /// The fair policies, whose `sched_runtime` is the slice.
    const FAIR: [u32; 2] = [SCHED_OTHER as u32, SCHED_BATCH as u32];

    fn zeroed() -> sched_attr {
        sched_attr {
            size: 0,
            sched_policy: 0,
            sched_flags: 0,
            sched_nice: 0,
            sched_priority: 0,
            sched_runtime: 0,
            sched_deadline: 0,
            sched_period: 0,
        }
    }

    // Through `syscall`: glibc wraps these calls only from 2.41. Every
    // argument is passed as a full register (`c_long`), as the kernel reads them.

    /// The calling thread's attributes, if it runs under a fair policy.
    fn get() -> Option<sched_attr> {
        let mut attr = zeroed();
        // SAFETY: pid 0 is the calling thread; the kernel writes at most
        // `SIZE` bytes into `attr`, a live, writable `sched_attr` of that size.
        let status = unsafe {
            libc::syscall(
                SYS_sched_getattr,
                0 as c_long,
                &mut attr as *mut sched_attr,
                SIZE as c_long,
                0 as c_long,
            )
        };
        (status == 0 && FAIR.contains(&attr.sched_policy)).then_some(attr)
    }

    pub fn slice_ns() -> Option<u64> {
        get().map(|attr| attr.sched_runtime).filter(|&ns| ns > 0)
    }

    /// Changes only the slice: policy and nice are written back as read, so a
    /// `nice`d engine stays as nice as it was started.
    pub fn set_slice_ns(ns: u64) {
        if let Some(mut attr) = get() {
            attr.size = SIZE;
            attr.sched_flags = 0;
            attr.sched_runtime = ns;
            // SAFETY: pid 0 is the calling thread; the kernel reads `SIZE`
            // bytes from `attr`, a live `sched_attr` of that size.
            unsafe {
                libc::syscall(
                    SYS_sched_setattr,
                    0 as c_long,
                    &attr as *const sched_attr,
                    0 as c_long,
                )
            };
        }
    }
}

#[cfg(not(all(target_os = "linux", not(miri))))]
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
