//! Giving freed memory back to the system. The server's allocator, mimalloc (chosen in `main.rs`),
//! hands memory that has been free for a second (its purge delay) back to the system only when the
//! thread that freed it next allocates: a worker left idle after a burst keeps it. So 600 sockets that
//! each held 31 KiB of a half-sent message, once closed, left the process 23 MiB larger than before
//! they came, however long it then waited (tests/perf/log/2026-12.md, "Half-sent messages").
//!
//! Each worker therefore asks mimalloc to collect its own heap every [`EVERY`]: pages with nothing
//! left in use go back to mimalloc's arenas, and what has been free past the purge delay goes back to
//! the system. Asked on a thread with nothing to give back, it costs a look at the heap's page lists.
//! In a process with another allocator (the tests'), it only looks at mimalloc's own empty heap.

use std::time::Duration;

/// How often each worker gives back what it freed.
pub const EVERY: Duration = Duration::from_secs(2);

/// Gives back, every [`EVERY`], what this thread has freed; runs on the thread's runtime for ever.
pub async fn give_back_freed_memory() {
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        // SAFETY: mi_collect only walks and trims this thread's own heap; it takes no pointer.
        unsafe { libmimalloc_sys::mi_collect(false) };
    }
}
