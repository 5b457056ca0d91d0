//! The router: the one part that knows where a table lives. Sessions and HTTP handlers find tables only
//! through it. The local router keeps an in-process address book; the Redis router of the scaling work
//! implements the same trait.

mod local;

pub use local::LocalRouter;

use crate::table::{TableHandle, TableId};

/// Where tables are found.
pub trait Router: Send + Sync + 'static {
    /// Makes a new table reachable.
    fn register(&self, handle: TableHandle);
    /// The table with this id, if it is open.
    fn find(&self, id: &TableId) -> Option<TableHandle>;
    /// Forgets a closed table.
    fn remove(&self, id: &TableId);
    /// How many tables are open here.
    fn open_tables(&self) -> usize;
}
