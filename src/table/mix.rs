//! The one shuffle every fair deal uses, on the server and in the page: a Fisher–Yates shuffle driven by
//! SHA-256 in counter mode. `docs/fair.md` writes it out; `static/verify.js` is its other copy, and
//! `tests/fixtures/fair-vectors.json` holds vectors both must give.
//!
//! - The key is the SHA-256 of a text (the table's secret for its own order, the commitment and the
//!   seats' numbers for the players' shuffle: see [`players_key`]).
//! - Block `b` (from 0) is the SHA-256 of the key's 32 bytes followed by `b` as 4 bytes big-endian;
//!   the stream is the blocks one after another, read 4 bytes at a time as big-endian numbers.
//! - A number below `m` is drawn by taking words until one is below `2^32 - 2^32 mod m`, and keeping
//!   it modulo `m`.
//! - A shuffle of `n` places starts from `0, 1, ..., n - 1` and, for `i` from `n - 1` down to 1,
//!   swaps place `i` with place `j`, `j` a number below `i + 1`.
//!
//! ```
//! use chaikhana::table::mix::{Stream, players_key};
//! let key = players_key(&"c".repeat(64), &[Some("11".repeat(16)), None]);
//! let order = Stream::new(key).shuffle(5);
//! let mut sorted = order.clone();
//! sorted.sort();
//! assert_eq!(sorted, vec![0, 1, 2, 3, 4]);
//! ```
#![deny(clippy::disallowed_methods, clippy::disallowed_types)]

use sha2::{Digest, Sha256};

/// The SHA-256 of `text`, as bytes: a stream's key.
pub fn key_of(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

/// The key of the players' shuffle of a deal: the SHA-256 of `chaikhana-deal|{commitment}|{n0},{n1},...`,
/// `ni` being seat `i`'s number, or nothing for a seat that gave none.
pub fn players_key(commitment: &str, numbers: &[Option<String>]) -> [u8; 32] {
    let joined: Vec<&str> = numbers.iter().map(|n| n.as_deref().unwrap_or("")).collect();
    key_of(&format!("chaikhana-deal|{commitment}|{}", joined.join(",")))
}

/// SHA-256 in counter mode under one key.
pub struct Stream {
    key: [u8; 32],
    counter: u32,
    block: [u8; 32],
    used: usize,
}

impl Stream {
    pub fn new(key: [u8; 32]) -> Stream {
        Stream {
            key,
            counter: 0,
            block: [0; 32],
            used: 32,
        }
    }

    /// The next 4 bytes of the stream, big-endian.
    pub fn word(&mut self) -> u32 {
        if self.used == 32 {
            let mut hasher = Sha256::new();
            hasher.update(self.key);
            hasher.update(self.counter.to_be_bytes());
            self.block = hasher.finalize().into();
            self.counter += 1;
            self.used = 0;
        }
        let word = &self.block[self.used..self.used + 4];
        self.used += 4;
        u32::from_be_bytes(word.try_into().expect("four bytes"))
    }

    /// A number below `m` (at least 1), each as likely as any other.
    pub fn below(&mut self, m: u32) -> u32 {
        let m64 = u64::from(m);
        let limit = (1u64 << 32) - (1u64 << 32) % m64;
        loop {
            let word = u64::from(self.word());
            if word < limit {
                return (word % m64) as u32;
            }
        }
    }

    /// The next Fisher–Yates shuffle of `n` places, as the place each new place takes its card from.
    pub fn shuffle(&mut self, n: usize) -> Vec<usize> {
        let mut places: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = self.below(i as u32 + 1) as usize;
            places.swap(i, j);
        }
        places
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Vectors {
        streams: Vec<StreamVector>,
        shuffles: Vec<ShuffleVector>,
    }

    #[derive(serde::Deserialize)]
    struct StreamVector {
        key_text: String,
        words: Vec<u32>,
    }

    #[derive(serde::Deserialize)]
    struct ShuffleVector {
        commitment: String,
        numbers: Vec<Option<String>>,
        n: usize,
        rounds: Vec<Vec<usize>>,
    }

    #[test]
    fn the_shared_vectors_hold() {
        let text = include_str!("../../tests/fixtures/fair-vectors.json");
        let vectors: Vectors = serde_json::from_str(text).unwrap();
        assert!(!vectors.streams.is_empty() && !vectors.shuffles.is_empty());
        for v in vectors.streams {
            let mut stream = Stream::new(key_of(&v.key_text));
            let words: Vec<u32> = (0..v.words.len()).map(|_| stream.word()).collect();
            assert_eq!(words, v.words, "{}", v.key_text);
        }
        for v in vectors.shuffles {
            let mut stream = Stream::new(players_key(&v.commitment, &v.numbers));
            for round in &v.rounds {
                assert_eq!(&stream.shuffle(v.n), round, "{}", v.commitment);
            }
        }
    }

    #[test]
    fn a_number_below_m_stays_below_it_and_covers_it() {
        let mut stream = Stream::new(key_of("below"));
        let mut seen = [false; 7];
        for _ in 0..200 {
            let n = stream.below(7);
            seen[n as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
        assert_eq!(stream.below(1), 0);
    }

    #[test]
    fn every_number_changes_the_shuffle() {
        let c = "ab".repeat(32);
        let base = vec![Some("01".repeat(16)), None, Some("02".repeat(16))];
        let order = Stream::new(players_key(&c, &base)).shuffle(52);
        for seat in 0..base.len() {
            let mut other = base.clone();
            other[seat] = Some("03".repeat(16));
            assert_ne!(Stream::new(players_key(&c, &other)).shuffle(52), order);
        }
        assert_ne!(
            Stream::new(players_key(&"ac".repeat(32), &base)).shuffle(52),
            order
        );
    }
}
