//! A real server on an ephemeral port, and WebSocket clients that talk to it as a browser would.

#![allow(dead_code)]

pub mod bystander;
mod client;
pub mod cluster;
mod friends;
pub mod leaks;
mod play;
pub mod players;
pub mod pledging;
mod process;
mod programs;
pub mod raw;
pub mod redis_procs;
pub mod restarts;
mod seal;
mod server;
pub mod slow;
mod truth;

pub use client::*;
pub use friends::*;
pub use play::*;
pub use programs::*;
pub use seal::*;
pub use server::*;
pub use truth::*;

/// The suites that each keep both cores busy for a minute or more, and time what they watch: a
/// browser (Chromium, chromedriver and the server: a page's waits) and a multi-node fault scene (three
/// processes and Redis: play resumed within two lease times). Two of them side by side on a two-core
/// machine starve each other past those times, so each of their tests holds this while it runs;
/// everything else runs beside them.
pub async fn heavy() -> tokio::sync::MutexGuard<'static, ()> {
    static HEAVY: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    HEAVY.lock().await
}

/// A folder of its own for one server's store, under the build's scratch folder.
pub fn fresh_data_dir() -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("data-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}
