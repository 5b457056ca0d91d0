//! A thinking thread's priority, lowered below the tables' threads.

/// Lowers this thread's priority to the nice value `nice` (Linux sets it per thread), never raising
/// it: a thread already nicer keeps its own.
pub(super) fn lower_priority(nice: i32) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid has no preconditions; getpriority reads this thread's nice value (errno,
        // cleared first, tells its -1 from an error); setpriority changes only this thread's.
        unsafe {
            let thread = libc::gettid() as libc::id_t;
            *libc::__errno_location() = 0;
            let now = libc::getpriority(libc::PRIO_PROCESS, thread);
            let now = if now == -1 && *libc::__errno_location() != 0 {
                0
            } else {
                now
            };
            let nice = nice.clamp(now, 19);
            if nice != now && libc::setpriority(libc::PRIO_PROCESS, thread, nice) != 0 {
                tracing::warn!(
                    nice,
                    error = %std::io::Error::last_os_error(),
                    "a thinking thread could not lower its priority"
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = nice;
}
