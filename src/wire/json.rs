//! Compact JSON written straight into a frame's buffer. It writes what `serde_json::to_writer` writes
//! (the tests hold it to that), only faster: a view is mostly short keys and card codes, and this
//! writer copies a string that needs no escape in one go instead of looking at it byte by byte through
//! a writer trait.

use std::fmt::{self, Display, Write as _};

use serde::ser::{self, Impossible, Serialize};

/// Why a value could not be written (a map key that is not a string or a number, or a custom error
/// from a `Serialize` impl).
#[derive(Debug)]
pub struct Error(String);

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: Display>(msg: T) -> Error {
        Error(msg.to_string())
    }
}

/// Appends `value` as compact JSON to `out`.
pub fn write(out: &mut Vec<u8>, value: &(impl Serialize + ?Sized)) -> Result<(), Error> {
    value.serialize(&mut Writer { out })
}

/// A value as a JSON string.
pub fn to_string(value: &(impl Serialize + ?Sized)) -> Result<String, Error> {
    let mut out = Vec::with_capacity(128);
    write(&mut out, value)?;
    String::from_utf8(out).map_err(|e| Error(e.to_string()))
}

struct Writer<'a> {
    out: &'a mut Vec<u8>,
}

/// The `Serializer` methods for every integer type, each written by `$write(self, value)`.
macro_rules! integers {
    (|$this:ident, $v:ident| $write:expr) => {
        integers!(@each $this $v $write; serialize_i8 i8, serialize_i16 i16, serialize_i32 i32,
            serialize_i64 i64, serialize_i128 i128, serialize_u8 u8, serialize_u16 u16,
            serialize_u32 u32, serialize_u64 u64, serialize_u128 u128);
    };
    (@each $this:ident $v:ident $write:expr; $($method:ident $ty:ty),*) => {$(
        fn $method(self, $v: $ty) -> Result<(), Error> {
            let $this = self;
            $write
        }
    )*};
}

/// Whether a byte must be escaped inside a JSON string.
#[inline]
fn needs_escape(byte: u8) -> bool {
    byte < 0x20 || byte == b'"' || byte == b'\\'
}

/// Whether any byte of `bytes` must be escaped, eight bytes at a time.
#[inline]
fn any_needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // A byte of `word` is below `n` when subtracting `n` borrows into its high bit (for bytes < 0x80).
    let below = |word: u64, n: u64| word.wrapping_sub(ONES * n) & !word & HIGHS;
    let has = |word: u64, byte: u64| below(word ^ (ONES * byte), 1);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("chunks of eight"));
        if below(word, 0x20) | has(word, 0x22) | has(word, 0x5c) != 0 {
            return true;
        }
    }
    chunks.remainder().iter().any(|&b| needs_escape(b))
}

impl Writer<'_> {
    #[inline]
    fn string(&mut self, text: &str) {
        self.out.push(b'"');
        self.fragment(text);
        self.out.push(b'"');
    }

    /// The inside of a string, escaped as serde_json escapes it.
    #[inline]
    fn fragment(&mut self, text: &str) {
        let bytes = text.as_bytes();
        if !any_needs_escape(bytes) {
            if bytes.len() <= 16 {
                // Card codes and most keys: a short loop beats a call to memcpy.
                self.out.extend(bytes.iter().copied());
            } else {
                self.out.extend_from_slice(bytes);
            }
            return;
        }
        let mut run = 0;
        for (i, &byte) in bytes.iter().enumerate() {
            if !needs_escape(byte) {
                continue;
            }
            self.out.extend_from_slice(&bytes[run..i]);
            run = i + 1;
            let short = match byte {
                b'"' => b'"',
                b'\\' => b'\\',
                0x08 => b'b',
                0x0c => b'f',
                b'\n' => b'n',
                b'\r' => b'r',
                b'\t' => b't',
                _ => 0,
            };
            if short != 0 {
                self.out.extend_from_slice(&[b'\\', short]);
            } else {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let hex = [HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 0xf)]];
                self.out
                    .extend_from_slice(&[b'\\', b'u', b'0', b'0', hex[0], hex[1]]);
            }
        }
        self.out.extend_from_slice(&bytes[run..]);
    }

    /// A struct's field name and its colon. Field names are the code's own identifiers (or their
    /// kebab-case renames), which never need an escape.
    #[inline]
    fn field_name(&mut self, name: &'static str) {
        debug_assert!(!any_needs_escape(name.as_bytes()), "{name}");
        self.out.reserve(name.len() + 3);
        self.out.push(b'"');
        self.out.extend(name.as_bytes().iter().copied());
        self.out.extend_from_slice(b"\":");
    }

    #[inline]
    fn integer(&mut self, n: impl itoa::Integer) {
        self.out
            .extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
    }

    fn float(&mut self, n: f64) -> Result<(), Error> {
        serde_json::to_writer(&mut *self.out, &n).map_err(|e| Error(e.to_string()))
    }

    /// Opens `{"variant":` for an externally tagged enum variant.
    fn variant_key(&mut self, variant: &str) {
        self.out.push(b'{');
        self.string(variant);
        self.out.push(b':');
    }
}

/// Writes a `Display` value into a string, escaping as it goes.
struct Escaping<'w, 'a>(&'w mut Writer<'a>);

impl fmt::Write for Escaping<'_, '_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.fragment(s);
        Ok(())
    }
}

/// An array, object, or an enum variant's value, being written.
pub struct Compound<'w, 'a> {
    w: &'w mut Writer<'a>,
    first: bool,
    /// What closes it: `]`, `}`, or, for a variant, that and the `}` of `{"variant":...}`.
    close: &'static [u8],
}

impl Compound<'_, '_> {
    #[inline]
    fn comma(&mut self) {
        if self.first {
            self.first = false;
        } else {
            self.w.out.push(b',');
        }
    }

    fn end(self) -> Result<(), Error> {
        self.w.out.extend_from_slice(self.close);
        Ok(())
    }
}

impl<'w, 'a> ser::Serializer for &'w mut Writer<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'w, 'a>;
    type SerializeTuple = Compound<'w, 'a>;
    type SerializeTupleStruct = Compound<'w, 'a>;
    type SerializeTupleVariant = Compound<'w, 'a>;
    type SerializeMap = Compound<'w, 'a>;
    type SerializeStruct = Compound<'w, 'a>;
    type SerializeStructVariant = Compound<'w, 'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    integers!(|writer, v| {
        writer.integer(v);
        Ok(())
    });
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        serde_json::to_writer(&mut *self.out, &v).map_err(|e| Error(e.to_string()))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.float(v)
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.string(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        let mut seq = ser::Serializer::serialize_seq(self, Some(v.len()))?;
        for byte in v {
            ser::SerializeSeq::serialize_element(&mut seq, byte)?;
        }
        seq.end()
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.string(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.variant_key(variant);
        value.serialize(&mut *self)?;
        self.out.push(b'}');
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'w, 'a>, Error> {
        self.out.push(b'[');
        Ok(Compound {
            w: self,
            first: true,
            close: b"]",
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'w, 'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        len: usize,
    ) -> Result<Compound<'w, 'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'w, 'a>, Error> {
        self.variant_key(variant);
        self.out.push(b'[');
        Ok(Compound {
            w: self,
            first: true,
            close: b"]}",
        })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'w, 'a>, Error> {
        self.out.push(b'{');
        Ok(Compound {
            w: self,
            first: true,
            close: b"}",
        })
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Compound<'w, 'a>, Error> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'w, 'a>, Error> {
        self.variant_key(variant);
        self.out.push(b'{');
        Ok(Compound {
            w: self,
            first: true,
            close: b"}}",
        })
    }
    fn collect_str<T: ?Sized + Display>(self, value: &T) -> Result<(), Error> {
        self.out.push(b'"');
        write!(Escaping(&mut *self), "{value}").map_err(|e| Error(e.to_string()))?;
        self.out.push(b'"');
        Ok(())
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.comma();
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

/// Tuples of every sort are written as arrays.
macro_rules! as_array {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for Compound<'_, '_> {
            type Ok = ();
            type Error = Error;
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
                ser::SerializeSeq::serialize_element(self, value)
            }
            fn end(self) -> Result<(), Error> {
                Compound::end(self)
            }
        }
    )*};
}

as_array!(
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Error> {
        self.comma();
        key.serialize(MapKey(&mut *self.w))
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.w.out.push(b':');
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.comma();
        self.w.field_name(key);
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

/// A map key: a string, or a number or a bool written as one (as serde_json does).
struct MapKey<'w, 'a>(&'w mut Writer<'a>);

impl MapKey<'_, '_> {
    fn quoted(self, text: &str) -> Result<(), Error> {
        self.0.out.push(b'"');
        self.0.out.extend_from_slice(text.as_bytes());
        self.0.out.push(b'"');
        Ok(())
    }
}

fn key_must_be_a_string() -> Error {
    Error("a map key must be a string".into())
}

impl ser::Serializer for MapKey<'_, '_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.quoted(if v { "true" } else { "false" })
    }
    integers!(|key, v| key.quoted(itoa::Buffer::new().format(v)));
    fn serialize_f32(self, _: f32) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_f64(self, _: f64) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.0.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.0.string(v);
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_none(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.0.string(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(key_must_be_a_string())
    }
    fn collect_str<T: ?Sized + Display>(self, value: &T) -> Result<(), Error> {
        let MapKey(writer) = self;
        writer.out.push(b'"');
        write!(Escaping(&mut *writer), "{value}").map_err(|e| Error(e.to_string()))?;
        writer.out.push(b'"');
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;
    use serde_json::json;

    use super::to_string;

    #[derive(Serialize)]
    #[serde(tag = "type", rename_all = "kebab-case")]
    enum Tagged {
        Attack { cards: Vec<&'static str>, n: u8 },
        Pass,
    }

    #[derive(Serialize)]
    enum Outer {
        Unit,
        New(i32),
        Tuple(u8, bool),
        Fields { a: Option<u8>, b: char },
    }

    #[derive(Serialize)]
    struct Flat {
        x: i64,
        #[serde(flatten)]
        inner: BTreeMap<String, u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        gone: Option<u8>,
        unit: (),
        pair: (u8, &'static str),
    }

    fn same<T: Serialize>(value: &T) {
        assert_eq!(
            to_string(value).unwrap(),
            serde_json::to_string(value).unwrap()
        );
    }

    #[test]
    fn writes_what_serde_json_writes() {
        same(&json!({"a": [1, -2, 3.5, null, true, false], "b": {"c": "d"}, "e": 1e300}));
        same(&"plain");
        same(&"quote \" backslash \\ slash / tab \t newline \n bell \u{7} nul \0 unit \u{1f}");
        same(&"Persian: پنج‌پر, emoji: 🂡");
        same(&vec![
            Tagged::Attack {
                cards: vec!["7H", "10S"],
                n: 3,
            },
            Tagged::Pass,
        ]);
        same(&vec![
            Outer::Unit,
            Outer::New(-7),
            Outer::Tuple(1, true),
            Outer::Fields { a: None, b: '"' },
        ]);
        let mut inner = BTreeMap::new();
        inner.insert("k\"ey".to_string(), 9);
        same(&Flat {
            x: i64::MIN,
            inner,
            gone: None,
            unit: (),
            pair: (255, ""),
        });
        let mut numbered = BTreeMap::new();
        numbered.insert(3u8, "three");
        numbered.insert(10u8, "ten");
        same(&numbered);
        same(&(u64::MAX, i128::MIN, f32::NAN, f64::INFINITY, 'x'));
        same(&format_args!("a {} b", "\"q\""));
    }
}
