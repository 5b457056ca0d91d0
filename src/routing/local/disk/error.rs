//! What can go wrong reading or writing the store, once it is open. (Opening it answers a sentence
//! for the operator instead: the process stops with it.)

use std::fmt;

/// A read or a write of the store that did not happen.
#[derive(Debug)]
pub enum StoreError {
    /// redb could not do it: an I/O error, a damaged page, a transaction it refused.
    Redb(redb::Error),
    /// The store was closed (the process is on its way out).
    Closed,
    /// A row that does not read as what the store writes.
    BadRow(String),
    /// The file was written by a newer release, whose rows this one may not read.
    NewerFormat(u64),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Redb(e) => write!(f, "{e}"),
            StoreError::Closed => f.write_str("the store is closed"),
            StoreError::BadRow(why) => write!(f, "a row that cannot be read: {why}"),
            StoreError::NewerFormat(format) => write!(
                f,
                "its format {format} is newer than this release's {}",
                super::STORE_FORMAT
            ),
        }
    }
}

impl std::error::Error for StoreError {}

impl StoreError {
    /// Whether what was read is damaged (a row or a page that does not read), rather than out of
    /// reach for now: reading it again will not help.
    pub fn damaged(&self) -> bool {
        matches!(
            self,
            StoreError::BadRow(_) | StoreError::Redb(redb::Error::Corrupted(_))
        )
    }
}

/// Each of redb's errors is one of its `redb::Error`.
macro_rules! from_redb {
    ($($error:ty),*) => {
        $(impl From<$error> for StoreError {
            fn from(e: $error) -> StoreError {
                StoreError::Redb(e.into())
            }
        })*
    };
}

from_redb!(
    redb::Error,
    redb::DatabaseError,
    redb::TransactionError,
    redb::TableError,
    redb::SetDurabilityError,
    redb::StorageError,
    redb::CommitError
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_says_what_happened() {
        assert_eq!(StoreError::Closed.to_string(), "the store is closed");
        let newer = StoreError::NewerFormat(super::super::STORE_FORMAT + 1).to_string();
        assert!(newer.contains("is newer than this release's"), "{newer}");
        let redb = StoreError::from(redb::StorageError::Corrupted("page 7".into()));
        assert!(matches!(redb, StoreError::Redb(_)));
        assert!(redb.to_string().contains("page 7"), "{redb}");
    }
}
