//! Giving freed memory back to the system.
//!
//! glibc's malloc raises its mmap threshold when a large block is freed, so a
//! hash table allocated later comes from the heap, and once that one is freed
//! too it stays resident (measured: Hash 64 then 1 left the idle engine at
//! 29 MB where a fresh one with Hash 1 has 11 MB; search threads' freed data
//! stays the same way). After a Hash or Threads change the engine asks the
//! allocator to hand back what is free.

/// Returns free heap memory to the system (glibc only; elsewhere nothing).
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: malloc_trim takes no pointer; it locks glibc's own arenas
        // and returns only pages that no live allocation owns.
        unsafe {
            malloc_trim(0);
        }
    }
}
