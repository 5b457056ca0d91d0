//! A whole match of a game at each kind of table, over real HTTP and WebSockets, every frame each
//! seat received checked against the truth.

use crate::support::leaks::Tested;
use crate::support::*;

/// A short match against the computer, played to its end by the one player.
pub async fn against_the_computer<G: Tested>() {
    let server = TestServer::start(|s| s.bot_delay_ms = 1);
    let (client, deals) = computer_match::<G>(&server, G::short(), 31, G::leaks).await;
    assert!(deals >= 1, "{}: a deal was played", G::NAME);
    let last = client.last_view();
    assert_eq!(last["status"], "match-over", "{}: {last}", G::NAME);
    for seat in 1..G::SEATS {
        assert_eq!(last["seats"][seat]["who"], "computer", "{}", G::NAME);
    }
}

/// A short match among friends, each seat taken through the link and played by its own socket.
pub async fn among_friends<G: Tested>() {
    let server = TestServer::start(|_| {});
    let (table, clients) = friends_match::<G>(&server, G::short(), 32, G::leaks).await;
    let record = server.record(&table).await;
    assert!(!record.deals.is_empty(), "{}", G::NAME);
    for client in &clients {
        assert_eq!(client.last_view()["version"], record.version, "{}", G::NAME);
    }
}
