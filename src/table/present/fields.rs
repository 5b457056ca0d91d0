//! A seat's view of the deal, written once per change, and sent to each socket as only the fields
//! that differ from what that socket was last sent.
//!
//! From one move to the next most of a deal view stays the same (the trump, who guessed, the hand of
//! the seat that did not move, the hints of the seat that waits): about a third of a Panjpar view
//! frame's bytes. A view frame's `view` therefore carries the deal view's top-level fields that
//! changed since that socket's last view frame, and a page lays them over the ones it has
//! (`docs/protocol.md`). A view sent to one socket alone (its first, the answer to `resync`, the one
//! after a stale version) carries them all, as does a replay.
//!
//! The fields are found as serde_json writes the view, through its [`Formatter`] hooks, so the
//! games' view types need nothing of their own, and a field is compared as the JSON it was written
//! to.

use std::borrow::Cow;
use std::cell::Cell;
use std::io;
use std::ops::Range;
use std::sync::Arc;

use serde::Serialize;
use serde_json::ser::Formatter;

/// Which fields of a view a socket is to be sent, a bit per field in the view's order.
pub(super) type FieldSet = u64;

/// A field of a view, `"name":value` as written, as a range of the view's JSON.
type Field = Range<usize>;

/// A deal view as JSON, with where each top-level field lies in it.
#[derive(Debug)]
pub(super) struct ViewFields {
    /// UTF-8, as serde_json writes it; checked once the frame it goes into is made.
    json: Vec<u8>,
    /// Its fields in order. Empty when the view has more fields than a [`FieldSet`] holds, or is not
    /// an object: then it is always sent whole.
    fields: Vec<Field>,
}

impl ViewFields {
    /// Writes `view` and finds its fields.
    pub(super) fn new(view: &impl Serialize) -> Arc<ViewFields> {
        let (json, fields) = write(view);
        Arc::new(ViewFields { json, fields })
    }

    /// Every field.
    pub(super) fn all(&self) -> FieldSet {
        // `write` keeps fewer fields than a set has bits.
        (1 << self.fields.len()) - 1
    }

    /// The fields of this view that differ from `shown`, the last one a socket was sent (all of them
    /// when it was sent none, or one laid out otherwise).
    pub(super) fn news(&self, shown: Option<&ViewFields>) -> FieldSet {
        let Some(shown) = shown.filter(|s| s.fields.len() == self.fields.len()) else {
            return self.all();
        };
        let mut news = 0;
        for (i, (now, was)) in self.fields.iter().zip(&shown.fields).enumerate() {
            if self.json[now.clone()] != shown.json[was.clone()] {
                news |= 1 << i;
            }
        }
        news
    }

    /// The view with only the fields of `set`, as JSON.
    pub(super) fn only(&self, set: FieldSet) -> Cow<'_, [u8]> {
        if set == self.all() {
            return Cow::Borrowed(&self.json);
        }
        let mut json = Vec::with_capacity(self.json.len());
        json.push(b'{');
        for (i, field) in self.fields.iter().enumerate() {
            if set & (1 << i) != 0 {
                if json.len() > 1 {
                    json.push(b',');
                }
                json.extend_from_slice(&self.json[field.clone()]);
            }
        }
        json.push(b'}');
        Cow::Owned(json)
    }
}

thread_local! {
    /// What the views of this thread are written into before each is copied out at its length: a view
    /// is kept until its socket's next one, so it is allocated once at its size rather than grown
    /// and then shrunk.
    static SCRATCH: Cell<(Vec<u8>, Vec<Field>)> = const { Cell::new((Vec::new(), Vec::new())) };
}

/// Writes `view` as JSON, finding where each top-level field lies as it is written: the fields, or
/// none when `view` is not an object or has more fields than a [`FieldSet`] holds.
fn write(view: &impl Serialize) -> (Vec<u8>, Vec<Field>) {
    let (mut json, fields) = SCRATCH.take();
    let at = Cell::new(0);
    let mut finder = FieldFinder {
        at: &at,
        depth: 0,
        fields,
        start: 0,
    };
    let mut serializer = serde_json::Serializer::with_formatter(
        Tally {
            out: &mut json,
            at: &at,
        },
        &mut finder,
    );
    view.serialize(&mut serializer)
        .expect("server frames always serialize");
    let mut fields = finder.fields;
    if fields.len() >= 64 || json.first() != Some(&b'{') {
        fields.clear();
    }
    let written = (json.to_vec(), fields.to_vec());
    json.clear();
    fields.clear();
    SCRATCH.set((json, fields));
    written
}

/// The JSON being written, and how many bytes of it there are so far.
struct Tally<'a> {
    out: &'a mut Vec<u8>,
    at: &'a Cell<usize>,
}

impl io::Write for Tally<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.out.extend_from_slice(bytes);
        self.at.set(self.out.len());
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// serde_json's compact layout, noting where each field of the outermost object starts and ends.
struct FieldFinder<'a> {
    at: &'a Cell<usize>,
    /// How many objects the writing is inside.
    depth: usize,
    fields: Vec<Field>,
    /// Where the outermost object's field being written starts.
    start: usize,
}

impl Formatter for &mut FieldFinder<'_> {
    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth -= 1;
        writer.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        if self.depth == 1 {
            self.start = self.at.get();
        }
        Ok(())
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        if self.depth == 1 {
            self.fields.push(self.start..self.at.get());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn laid_over(last: &Value, delta: &[u8]) -> Value {
        let mut whole = last.as_object().cloned().unwrap_or_default();
        let delta: Value = serde_json::from_slice(delta).unwrap();
        whole.extend(delta.as_object().unwrap().clone());
        Value::Object(whole)
    }

    #[test]
    fn only_the_changed_fields_are_sent_and_laying_them_over_gives_the_view() {
        let first =
            json!({"trump": "clubs", "hand": ["5C", "AS"], "battle": null, "counts": [5, 5]});
        let next = json!({"trump": "clubs", "hand": ["5C"], "battle": {"attack": ["AS"]}, "counts": [4, 5]});
        let (first, next) = (ViewFields::new(&first), ViewFields::new(&next));
        let news = next.news(Some(&first));
        // serde_json's objects keep their fields sorted: battle, counts, hand, trump.
        assert_eq!(news, 0b0111, "trump stayed the same");
        let delta = next.only(news);
        assert_eq!(
            &*delta,
            br#"{"battle":{"attack":["AS"]},"counts":[4,5],"hand":["5C"]}"#
        );
        let first_value: Value = serde_json::from_slice(&first.json).unwrap();
        let next_value: Value = serde_json::from_slice(&next.json).unwrap();
        assert_eq!(laid_over(&first_value, &delta), next_value);
    }

    #[test]
    fn a_socket_sent_nothing_yet_gets_every_field() {
        let view = ViewFields::new(&json!({"a": 1, "b": "x"}));
        assert_eq!(view.news(None), 0b11);
        assert_eq!(&*view.only(view.news(None)), br#"{"a":1,"b":"x"}"#);
    }

    #[test]
    fn an_unchanged_view_sends_an_empty_object() {
        let a = ViewFields::new(&json!({"a": 1, "b": [1, 2]}));
        let b = ViewFields::new(&json!({"a": 1, "b": [1, 2]}));
        assert_eq!(b.news(Some(&a)), 0);
        assert_eq!(&*b.only(0), b"{}");
    }

    #[test]
    fn views_laid_out_otherwise_are_sent_whole() {
        let a = ViewFields::new(&json!({"a": 1}));
        let b = ViewFields::new(&json!({"a": 1, "b": 2}));
        assert_eq!(b.news(Some(&a)), b.all());
        let c = ViewFields::new(&json!({"c": 1}));
        assert_eq!(c.news(Some(&a)), 1, "a field of another name is news");
    }

    #[test]
    fn what_is_not_an_object_or_too_wide_is_always_whole() {
        for odd in [json!([1, 2]), json!("text"), json!(null)] {
            let view = ViewFields::new(&odd);
            assert_eq!(view.only(view.news(Some(&view))), view.json);
        }
        let wide: serde_json::Map<String, Value> =
            (0..70).map(|i| (format!("f{i:02}"), json!(i))).collect();
        let view = ViewFields::new(&wide);
        assert_eq!(view.only(view.news(Some(&view))), view.json);
    }

    #[test]
    fn nested_objects_and_escaped_names_are_kept_whole_inside_their_field() {
        let first = json!({"a \"b\"": 1, "deep": [{"x": {"y": 1}}, 2], "z": "q"});
        let next = json!({"a \"b\"": 2, "deep": [{"x": {"y": 1}}, 2], "z": "q"});
        let (first, next) = (ViewFields::new(&first), ViewFields::new(&next));
        assert_eq!(first.fields.len(), 3);
        assert_eq!(next.news(Some(&first)), 0b001);
        assert_eq!(&*next.only(0b001), br#"{"a \"b\"":2}"#);
        assert_eq!(&*next.only(0b010), br#"{"deep":[{"x":{"y":1}},2]}"#);
    }
}
