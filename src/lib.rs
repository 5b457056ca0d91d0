//! chaikhana: Panjpar, Pishe Pasha and Ganjifa, played through a shared link or against the computer.
//!
//! The rules cores, their computers and self-play are the crate `chaikhana_rules`, pure by its
//! dependencies; here, the catalog ([`catalog`]) seats them at tables, which are actors ([`table`])
//! found through a router ([`routing`]), and the actix-web app ([`server`]) serves the pages and the
//! WebSocket play.

pub mod catalog;
pub mod lobby;
pub mod memory;
pub mod metrics;
#[cfg(test)]
mod module_graph;
pub mod outbox;
pub mod protocol;
pub mod routing;
pub mod server;
pub mod settings;
pub mod table;
pub mod thinking;
