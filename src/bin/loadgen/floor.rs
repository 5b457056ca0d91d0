//! `chaikhana-loadgen store-floor`: what the embedded store's file costs without a server around it.
//! A bare loop of redb write transactions, each appending `changes` rows of `bytes` bytes to one
//! table (as the store's writer logs the moves of one group commit) and committing, with `fsync`
//! (`Durability::Immediate`, as the server does) or without (`--no-fsync`, `Durability::None`, which
//! the server never uses). It reports the commits a second, the commit time and the CPU of the
//! process per commit and per row, split into user and system time, so that a profile of the server
//! can be set against the floor of the disk and of redb alone.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use redb::{Durability, TableDefinition};

const ROWS: TableDefinition<u64, &[u8]> = TableDefinition::new("log");

#[derive(clap::Args)]
pub struct FloorArgs {
    /// The folder for the store's file (a new file is made in it, and removed after).
    #[arg(long)]
    dir: PathBuf,
    /// Seconds to commit for.
    #[arg(long, default_value_t = 5)]
    duration: u64,
    /// Rows appended by each commit.
    #[arg(long, default_value_t = 17)]
    changes: usize,
    /// Bytes of each row.
    #[arg(long, default_value_t = 120)]
    bytes: usize,
    /// Commits a second at most (0: one after another, flat out).
    #[arg(long, default_value_t = 0)]
    rate: u64,
    /// Commit without fsync (redb's `Durability::None`).
    #[arg(long)]
    no_fsync: bool,
    /// Empty the table every this many commits, as the server folds its log about once a second.
    #[arg(long, default_value_t = 1000)]
    fold_every: u64,
}

/// The process's user and system CPU so far.
fn cpu() -> (Duration, Duration) {
    // SAFETY: getrusage writes the struct it is given; a zeroed rusage is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: RUSAGE_SELF with a valid pointer to a rusage owned here.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    (time(usage.ru_utime), time(usage.ru_stime))
}

pub fn run(args: &FloorArgs) -> Result<String, String> {
    std::fs::create_dir_all(&args.dir).map_err(|e| e.to_string())?;
    let path = args.dir.join("floor.redb");
    let _ = std::fs::remove_file(&path);
    let db = redb::Database::create(&path).map_err(|e| e.to_string())?;
    let row = vec![b'x'; args.bytes];
    let gap = (args.rate > 0).then(|| Duration::from_secs_f64(1.0 / args.rate as f64));
    let mut times = Vec::new();
    let (mut key, mut commits) = (0u64, 0u64);
    let (user0, system0) = cpu();
    let began = Instant::now();
    let end = began + Duration::from_secs(args.duration);
    while Instant::now() < end {
        let at = Instant::now();
        let mut write = db.begin_write().map_err(|e| e.to_string())?;
        if args.no_fsync {
            write
                .set_durability(Durability::None)
                .map_err(|e| e.to_string())?;
        }
        {
            let mut rows = write.open_table(ROWS).map_err(|e| e.to_string())?;
            if commits > 0 && commits % args.fold_every == 0 {
                rows.retain(|_, _| false).map_err(|e| e.to_string())?;
            }
            for _ in 0..args.changes {
                rows.insert(key, row.as_slice())
                    .map_err(|e| e.to_string())?;
                key += 1;
            }
        }
        write.commit().map_err(|e| e.to_string())?;
        times.push(at.elapsed());
        commits += 1;
        if let Some(gap) = gap {
            let next = began + gap * commits as u32;
            std::thread::sleep(next.saturating_duration_since(Instant::now()));
        }
    }
    let took = began.elapsed();
    let (user1, system1) = cpu();
    drop(db);
    let _ = std::fs::remove_file(&path);
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e3;
    let per = |d: Duration, n: u64| d.as_secs_f64() * 1e6 / n as f64;
    let (user, system) = (user1 - user0, system1 - system0);
    let rows = commits * args.changes as u64;
    Ok(format!(
        "{} commits of {} rows of {} bytes{}: {:.0} commits/s, commit p50 {:.3} ms, p99 {:.3} ms; \
         CPU per commit {:.1} µs (user {:.1} + system {:.1}), per row {:.2} µs",
        commits,
        args.changes,
        args.bytes,
        if args.no_fsync { ", no fsync" } else { "" },
        commits as f64 / took.as_secs_f64(),
        at(0.5),
        at(0.99),
        per(user + system, commits),
        per(user, commits),
        per(system, commits),
        per(user + system, rows),
    ))
}
