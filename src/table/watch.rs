//! Watch links. A table's watch link is `/w/{watch}`, where `watch` is the table's id enciphered with
//! the site's watch key (one AES-128 block: the id is 128 bits). The server deciphers it back to the
//! table, so no index of watch links is kept anywhere; a watcher, without the key, cannot work out the
//! table's id, and so cannot take a free seat through the seat link. The key is the `watch_secret`
//! setting, or (unset) a random one: per process alone, shared through Redis by several nodes.

use aes::cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
use aes::Aes128;
use base64::Engine;
use rand::RngCore;

use super::{looks_like_secret, TableId};

const URL_SAFE: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The key that turns table ids into watch ids and back.
#[derive(Clone)]
pub struct WatchKey {
    cipher: Aes128,
}

impl std::fmt::Debug for WatchKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WatchKey(..)")
    }
}

impl WatchKey {
    /// A fresh random key.
    pub fn random() -> WatchKey {
        let mut key = [0u8; 16];
        rand::rngs::OsRng.fill_bytes(&mut key);
        WatchKey::from_bytes(key)
    }

    fn from_bytes(key: [u8; 16]) -> WatchKey {
        WatchKey {
            cipher: Aes128::new(&key.into()),
        }
    }

    /// A key written as 32 hex digits (the `watch_secret` setting), or why it is not one.
    pub fn from_hex(text: &str) -> Result<WatchKey, String> {
        let text = text.trim();
        let bad = || "watch_secret is 32 hex digits (16 random bytes)".to_string();
        if text.len() != 32 || !text.is_ascii() {
            return Err(bad());
        }
        let mut key = [0u8; 16];
        hex::decode_to_slice(text, &mut key).map_err(|_| bad())?;
        Ok(WatchKey::from_bytes(key))
    }

    /// 32 random hex digits, for a key to share.
    pub fn random_hex() -> String {
        let mut key = [0u8; 16];
        rand::rngs::OsRng.fill_bytes(&mut key);
        hex::encode(key)
    }

    /// The watch id of a table.
    pub fn watch_id(&self, table: &TableId) -> String {
        let mut block = [0u8; 16];
        // Every table id this server makes is 16 bytes written URL-safe.
        if URL_SAFE.decode_slice(table.as_str(), &mut block) != Ok(16) {
            return String::new();
        }
        let mut block = block.into();
        self.cipher.encrypt_block(&mut block);
        URL_SAFE.encode(block)
    }

    /// The table a watch id stands for, if it has the shape of one.
    pub fn table(&self, watch: &str) -> Option<TableId> {
        if !looks_like_secret(watch) {
            return None;
        }
        let mut block = [0u8; 16];
        if URL_SAFE.decode_slice(watch, &mut block) != Ok(16) || URL_SAFE.encode(block) != watch {
            return None;
        }
        let mut block = block.into();
        self.cipher.decrypt_block(&mut block);
        TableId::parse(&URL_SAFE.encode(block))
    }

    /// The watch link of a table.
    pub fn link(&self, table: &TableId) -> String {
        format!("/w/{}", self.watch_id(table))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watch_id_leads_back_to_its_table_and_to_no_other() {
        let key = WatchKey::random();
        for _ in 0..200 {
            let table = TableId::random();
            let watch = key.watch_id(&table);
            assert!(looks_like_secret(&watch), "{watch}");
            assert_ne!(watch, table.as_str());
            assert_eq!(key.table(&watch), Some(table.clone()));
            // Another key reads it as another table.
            assert_ne!(WatchKey::random().table(&watch), Some(table));
        }
        assert_eq!(key.table("short"), None);
        assert_eq!(key.table("!!!!!!!!!!!!!!!!!!!!!!"), None);
        // 22 characters whose last carries bits past the 128: not a watch id this server made.
        assert_eq!(key.table("AAAAAAAAAAAAAAAAAAAAAB"), None);
    }

    /// A watch id is plain AES-128 of the table id (the example of FIPS-197, appendix C.1), so that
    /// nodes built with any version of the cipher's crate read each other's watch links.
    #[test]
    fn a_watch_id_is_the_table_id_under_aes_128() {
        let key = WatchKey::from_hex("000102030405060708090a0b0c0d0e0f").unwrap();
        let plain: [u8; 16] = [
            0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd,
            0xee, 0xff,
        ];
        let enciphered: [u8; 16] = [
            0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4,
            0xc5, 0x5a,
        ];
        let table = TableId::parse(&URL_SAFE.encode(plain)).unwrap();
        assert_eq!(key.watch_id(&table), URL_SAFE.encode(enciphered));
        assert_eq!(key.table(&URL_SAFE.encode(enciphered)), Some(table));
    }

    #[test]
    fn a_key_is_read_from_32_hex_digits() {
        let hex = WatchKey::random_hex();
        let (a, b) = (
            WatchKey::from_hex(&hex).unwrap(),
            WatchKey::from_hex(&hex).unwrap(),
        );
        let table = TableId::random();
        assert_eq!(a.watch_id(&table), b.watch_id(&table));
        for bad in [
            "",
            "00",
            &"g".repeat(32),
            &"ab".repeat(17),
            "é".repeat(16).as_str(),
        ] {
            assert!(WatchKey::from_hex(bad).is_err(), "{bad}");
        }
    }
}
