//! A table a restart test plays: its seats (one at a computer table, every seat among friends),
//! played a number of acknowledged moves, deal after deal and rematch after rematch.

use serde_json::{json, Value};

use super::{Acked, Player};
use crate::support::{join_table, open_table, Rng};

/// A table the test plays: its seats (one at a computer table, every seat at a friends table).
pub struct Table {
    pub game: &'static str,
    pub kind: &'static str,
    pub players: Vec<Player>,
    /// How many rematches it started, and how many acknowledged actions of the matches before were
    /// let go then (a rematch clears the table's record: the test checks them against the store
    /// before it starts one).
    pub rematches: usize,
    pub let_go: usize,
}

impl Table {
    /// Opens a table of `game` against the computer, or among friends with every seat taken, and
    /// connects its seats.
    pub async fn open(base: &str, game: &'static str, kind: &'static str, length: Value) -> Table {
        let body = json!({ "game": game, "opponents": kind, "length": length });
        let (host, _) = open_table(base, &body).await;
        let table = host.table.clone();
        let mut seated = vec![host];
        if kind == "friends" {
            let seats = match game {
                "ganjifa" => 3,
                _ => 2,
            };
            for _ in 1..seats {
                seated.push(join_table(base, &table).await);
            }
        }
        let mut players = Vec::new();
        for seated in seated {
            players.push(Player::connect(base, seated).await);
        }
        let mut table = Table::of(game, kind, players);
        table.settle().await;
        table
    }

    pub fn of(game: &'static str, kind: &'static str, players: Vec<Player>) -> Table {
        Table {
            game,
            kind,
            players,
            rematches: 0,
            let_go: 0,
        }
    }

    pub fn id(&self) -> &str {
        &self.players[0].seated.table
    }

    /// The highest version any seat was shown.
    pub fn highest(&self) -> u64 {
        self.players.iter().map(|p| p.highest).max().unwrap_or(0)
    }

    pub fn acked(&self) -> Vec<Acked> {
        self.players
            .iter()
            .flat_map(|p| p.acked.iter().cloned())
            .collect()
    }

    /// Reads every seat's views until the table waits for one of them: at a computer table, until
    /// the person's turn or the deal's end; among friends, until every seat has been shown the
    /// table's latest version (each accepted change is shown to every seat).
    async fn settle(&mut self) {
        if self.kind == "computer" {
            let player = &mut self.players[0];
            while !(player.to_act()
                || matches!(
                    player.latest["status"].as_str(),
                    Some("deal-over" | "match-over")
                ))
            {
                player.next_view().await;
            }
            return;
        }
        let target = self.highest();
        for player in self.players.iter_mut() {
            while player.version() < target {
                player.next_view().await;
            }
        }
    }

    /// Plays `moves` acknowledged actions, dealing the next deal (or starting a rematch) whenever one
    /// has ended, and stops mid-deal, with a seat to act.
    pub async fn play(&mut self, moves: usize, rng: &mut Rng) {
        let mut made = 0;
        loop {
            self.settle().await;
            let status = self.players[0].latest["status"]
                .as_str()
                .unwrap_or("")
                .to_string();
            match status.as_str() {
                "deal-over" | "match-over" => {
                    let kind = if status == "deal-over" {
                        "next-deal"
                    } else {
                        "rematch"
                    };
                    let on = self.highest();
                    if kind == "rematch" {
                        self.rematches += 1;
                        for player in self.players.iter_mut() {
                            self.let_go += player.acked.len();
                            player.acked.clear();
                        }
                    }
                    for player in self.players.iter_mut() {
                        player.send_on_latest(kind).await;
                    }
                    for player in self.players.iter_mut() {
                        while player.version() <= on {
                            player.next_view().await;
                        }
                    }
                }
                "playing" if made >= moves => return,
                "playing" => {
                    let acting = self
                        .players
                        .iter()
                        .position(Player::to_act)
                        .expect("a seat acts mid-deal");
                    self.players[acting].act(rng).await;
                    made += 1;
                }
                other => panic!("a table in play was {other}: {}", self.players[0].latest),
            }
        }
    }

    /// Reads what every seat's socket still carries until it closes (the process has stopped).
    pub async fn until_closed(&mut self) {
        for player in self.players.iter_mut() {
            player.until_closed().await;
        }
    }

    /// Every seat's socket closes, as their pages closed.
    pub async fn close(&mut self) {
        for player in self.players.iter_mut() {
            player.close().await;
        }
    }

    /// Every seat reconnects; answers the lowest version they came back at.
    pub async fn reconnect(&mut self, base: &str) -> u64 {
        let mut lowest = u64::MAX;
        for player in self.players.iter_mut() {
            lowest = lowest.min(player.reconnect(base).await);
        }
        lowest
    }
}
