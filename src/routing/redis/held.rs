//! The leases this node holds: how long one lasts, the token of each table's lease (see
//! `keys::token`), and the lock that a round of refreshing and a hand-over take, so that a refresh in
//! flight never takes a released lease again.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use super::stand_ins::lock;
use crate::table::TableId;

pub struct Leases {
    lasts: Duration,
    tokens: Mutex<HashMap<TableId, String>>,
    round: tokio::sync::Mutex<()>,
}

impl Leases {
    /// Leases that last `lasts` unless refreshed.
    pub fn new(lasts: Duration) -> Leases {
        Leases {
            lasts,
            tokens: Mutex::default(),
            round: tokio::sync::Mutex::new(()),
        }
    }

    /// How long a lease lasts unless refreshed.
    pub fn lasts(&self) -> Duration {
        self.lasts
    }

    /// The same in milliseconds, as the scripts take it.
    pub fn lasts_ms(&self) -> String {
        self.lasts.as_millis().to_string()
    }

    /// The table's lease is held here under `token` (a newer epoch's replaces an older one).
    pub fn hold(&self, table: TableId, token: String) {
        lock(&self.tokens).insert(table, token);
    }

    /// The table's lease is no longer held here: its token, if it was.
    pub fn release(&self, table: &TableId) -> Option<String> {
        lock(&self.tokens).remove(table)
    }

    /// Every lease held here, with its token.
    pub fn held(&self) -> Vec<(TableId, String)> {
        lock(&self.tokens)
            .iter()
            .map(|(id, token)| (id.clone(), token.clone()))
            .collect()
    }

    /// Waits for any round of refreshing under way, and keeps others out while the guard lives.
    pub async fn round(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.round.lock().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_is_held_under_its_newest_token_until_released() {
        let leases = Leases::new(Duration::from_millis(1500));
        assert_eq!(leases.lasts_ms(), "1500");
        let (a, b) = (TableId::random(), TableId::random());
        leases.hold(a.clone(), "n:1".into());
        leases.hold(b.clone(), "n:1".into());
        leases.hold(a.clone(), "n:2".into());
        let mut held = leases.held();
        held.sort_by(|x, y| x.1.cmp(&y.1).then(x.0.as_str().cmp(y.0.as_str())));
        assert_eq!(held, [(b.clone(), "n:1".into()), (a.clone(), "n:2".into())]);
        assert_eq!(leases.release(&a).as_deref(), Some("n:2"));
        assert_eq!(leases.release(&a), None);
        assert_eq!(leases.held(), [(b, "n:1".to_string())]);
    }

    #[test]
    fn a_round_waits_for_the_one_under_way() {
        let leases = Leases::new(Duration::from_secs(1));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        runtime.block_on(async {
            let first = leases.round().await;
            let second = tokio::time::timeout(Duration::from_millis(20), leases.round()).await;
            assert!(second.is_err(), "held by the first round");
            drop(first);
            let third = tokio::time::timeout(Duration::from_millis(20), leases.round()).await;
            assert!(third.is_ok());
        });
    }
}
