//! The store's log: each change is first committed as one row appended to the `log` table (rows of
//! one commit lie side by side, so a commit writes a few pages however many tables it serves), and
//! kept here in memory until the writer folds it into its table's rows (`records`, `played`,
//! `expires`) a second or so later, many moves of a table at once. A read of a table lays its
//! unfolded changes over its rows; a store opened after a crash reads its log back first.
//!
//! A row is a header line, `{W|P} {from} {until} {touched} {table id}`, then the change: for `W` the
//! table's whole record (its game, a newline, the snapshot's JSON), for `P` the lines of the actions
//! accepted, the first of which made version `from`.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use crate::table::Change;

/// The changes of one table not yet folded into its rows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pending {
    /// Its whole record, when one was logged: it replaces the record and the actions stored.
    pub whole: Option<Vec<u8>>,
    /// The actions accepted since, a line each, every line begun with a newline (as a `Played`
    /// change gives them), and the version the first made.
    pub lines: Vec<u8>,
    pub from: Option<u64>,
    /// When it expires and when it last changed (Unix ms).
    pub until: u64,
    pub touched: u64,
    /// The log rows holding these changes.
    pub rows: Vec<u64>,
}

/// One logged change, as read from its row.
#[derive(Debug, PartialEq)]
pub struct Entry {
    pub id: String,
    pub whole: Option<Vec<u8>>,
    /// The actions' lines (each begun with a newline) and the version the first made.
    pub lines: Vec<u8>,
    pub from: u64,
    pub until: u64,
    pub touched: u64,
}

impl Pending {
    /// Lays `entry`, logged in row `row`, over what is pending.
    pub fn add(&mut self, entry: Entry, row: u64) {
        if let Some(whole) = entry.whole {
            self.whole = Some(whole);
            self.lines.clear();
            self.from = None;
        }
        if !entry.lines.is_empty() {
            self.from.get_or_insert(entry.from);
            self.lines.extend_from_slice(&entry.lines);
        }
        self.until = entry.until;
        self.touched = entry.touched;
        self.rows.push(row);
    }

    /// The table's record (`game\njson` and a line per action) laid over `stored`, what its rows
    /// hold (none when they hold nothing).
    pub fn over(&self, stored: Option<Vec<u8>>) -> Option<Vec<u8>> {
        let mut record = self.whole.clone().or(stored)?;
        record.extend_from_slice(&self.lines);
        Some(record)
    }
}

/// Every table's unfolded changes, and where the log stands.
#[derive(Debug, Default)]
pub struct Unfolded {
    pub tables: HashMap<String, Pending>,
    /// Tables whose record the rows are known to hold (a `Played` change needs one), so that the
    /// writer looks each up once, not at every move.
    pub recorded: HashSet<String>,
    /// The key of the next log row.
    pub next_row: u64,
    /// Changes pending, and since when the oldest has been.
    pub count: usize,
    pub since: Option<Instant>,
}

impl Unfolded {
    pub fn add(&mut self, entry: Entry, row: u64) {
        self.count += 1;
        self.since.get_or_insert_with(Instant::now);
        let id = entry.id.clone();
        self.tables.entry(id).or_default().add(entry, row);
    }

    /// Every pending change is now in its table's rows: those whose whole record was pending hold
    /// one.
    pub fn folded(&mut self) {
        let wholes = self.tables.drain().filter(|(_, p)| p.whole.is_some());
        self.recorded.extend(wholes.map(|(id, _)| id));
        self.count = 0;
        self.since = None;
    }

    /// Whether a whole record of `id` is pending.
    pub fn has_whole(&self, id: &str) -> bool {
        self.tables.get(id).is_some_and(|p| p.whole.is_some())
    }
}

/// The row logging `change` of table `id`, and the entry it stands for.
pub fn row(id: &str, change: &Change, until: u64, touched: u64) -> (Vec<u8>, Entry) {
    let (kind, from, body, entry_whole, lines) = match change {
        Change::Whole { game, json } => {
            let mut record = Vec::with_capacity(game.len() + 1 + json.len());
            record.extend_from_slice(game.as_bytes());
            record.push(b'\n');
            record.extend_from_slice(json.as_bytes());
            (b'W', 0, record.clone(), Some(record), Vec::new())
        }
        Change::Played { lines, from } => (
            b'P',
            *from,
            lines.as_bytes().to_vec(),
            None,
            lines.as_bytes().to_vec(),
        ),
    };
    let header = format!(" {from} {until} {touched} {id}\n");
    let mut row = Vec::with_capacity(1 + header.len() + body.len());
    row.push(kind);
    row.extend_from_slice(header.as_bytes());
    row.extend_from_slice(&body);
    let entry = Entry {
        id: id.to_string(),
        whole: entry_whole,
        lines,
        from,
        until,
        touched,
    };
    (row, entry)
}

/// Reads a row back into the entry it logged.
pub fn read(row: &[u8]) -> Result<Entry, String> {
    let bad = || "a log row of the table store that cannot be read".to_string();
    let newline = row.iter().position(|b| *b == b'\n').ok_or_else(bad)?;
    let header = std::str::from_utf8(&row[..newline]).map_err(|_| bad())?;
    let body = &row[newline + 1..];
    let mut fields = header.split(' ');
    let kind = fields.next().ok_or_else(bad)?;
    let mut number =
        || -> Result<u64, String> { fields.next().and_then(|f| f.parse().ok()).ok_or_else(bad) };
    let (from, until, touched) = (number()?, number()?, number()?);
    let id = fields.next().ok_or_else(bad)?.to_string();
    let (whole, lines) = match kind {
        "W" => (Some(body.to_vec()), Vec::new()),
        "P" => (None, body.to_vec()),
        _ => return Err(bad()),
    };
    Ok(Entry {
        id,
        whole,
        lines,
        from,
        until,
        touched,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_reads_back_as_the_change_it_logged() {
        let whole = Change::Whole {
            game: "panjpar",
            json: "{\"a\":\"b c\\nd\"}".into(),
        };
        let (text, entry) = row("T1d", &whole, 99, 7);
        assert_eq!(read(&text), Ok(entry));
        let played = Change::Played {
            lines: "\n[0,{\"x\":1},5]\n[1,{\"x\":2},6]".into(),
            from: 5,
        };
        let (text, entry) = row("T1d", &played, 100, 8);
        assert_eq!(entry.from, 5);
        assert_eq!(entry.lines.split(|b| *b == b'\n').count(), 3);
        assert_eq!(read(&text), Ok(entry));
        assert!(read(b"Q 1 2 3 x\n").is_err());
        assert!(read(b"W 1 2\n").is_err());
    }

    #[test]
    fn pending_changes_lay_over_the_stored_record() {
        let mut pending = Pending::default();
        let played = |from, n: u64| Entry {
            id: "t".into(),
            whole: None,
            lines: (from..from + n)
                .flat_map(|v| format!("\n[{v}]").into_bytes())
                .collect(),
            from,
            until: 1,
            touched: 1,
        };
        pending.add(played(3, 2), 0);
        pending.add(played(5, 0), 7);
        assert_eq!(
            pending.from,
            Some(3),
            "the version the first pending line made"
        );
        let over = pending.over(Some(b"g\n{}".to_vec())).unwrap();
        assert_eq!(over, b"g\n{}\n[3]\n[4]");
        assert_eq!(pending.over(None), None, "no record to add to");
        let whole = Entry {
            whole: Some(b"g\n{\"new\":1}".to_vec()),
            ..played(0, 0)
        };
        pending.add(whole, 1);
        pending.add(played(5, 1), 2);
        let over = pending.over(Some(b"g\n{}".to_vec())).unwrap();
        assert_eq!(over, b"g\n{\"new\":1}\n[5]");
        assert_eq!(pending.from, Some(5));
        assert_eq!(pending.rows, vec![0, 7, 1, 2]);
    }
}
