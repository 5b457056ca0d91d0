//! The presenter driven by a real table core: what each socket is written of what the core shows it.

use serde_json::{json, Value};

use super::*;
use crate::protocol::ClientMsg;
use crate::table::core::tests_support::{friends_dealt, turn};
use crate::table::core::{Effect, TableCore};
use chaikhana_rules::games::panjpar::Panjpar;

/// A frame's JSON, read.
fn read(text: Option<&str>) -> Value {
    serde_json::from_str(text.unwrap()).unwrap()
}

/// Carries out the table's effects through `presenter`: each frame a socket is sent, as it is sent
/// and, for a view, as a presenter that has sent that socket nothing yet writes it (the whole view).
fn sent(table: &mut TableCore<Panjpar>, presenter: &mut Presenter) -> Vec<(ConnId, Value, Value)> {
    let mut effects = Vec::new();
    table.move_effects(&mut effects);
    let mut frames = Vec::new();
    for effect in effects {
        match effect {
            Effect::Show(showing) => {
                let mut wholes = Vec::new();
                Presenter::new().show(&showing, |_, frame| wholes.push(read(frame.text_payload())));
                let mut wholes = wholes.into_iter();
                presenter.show(&showing, |conn, frame| {
                    frames.push((conn, read(frame.text_payload()), wholes.next().unwrap()));
                });
            }
            Effect::Send(conn, notice) => {
                let frame = read(presenter.tell(conn, &notice).text_payload());
                frames.push((conn, frame.clone(), frame));
            }
            Effect::Forget(conn) => presenter.forget(conn),
            _ => {}
        }
    }
    frames
}

/// The view frames sent to `conn`, each with the whole view it stands for.
fn views_to(frames: &[(ConnId, Value, Value)], conn: ConnId) -> Vec<(Value, Value)> {
    let views = frames
        .iter()
        .filter(|(to, frame, _)| *to == conn && frame["type"] == "view");
    views
        .map(|(_, frame, whole)| (frame.clone(), whole.clone()))
        .collect()
}

/// Every part and head field a whole view carries.
const WHOLE: [&str; 12] = [
    "table", "seats", "match", "deal", "shuffle", "game", "kind", "level", "status", "seat",
    "watching", "outcome",
];

/// Lays a view over the page's last one, as a page does: the deal view's fields over the last deal
/// view's, every other field over the last one, `ack` not kept.
fn lay_over(page: &mut Value, view: &Value) {
    let page = page.as_object_mut().unwrap();
    page.remove("ack");
    for (key, value) in view.as_object().unwrap() {
        match (page.get_mut(key), value) {
            (Some(Value::Object(deal)), Value::Object(news)) if key == "view" => {
                deal.extend(news.clone());
            }
            _ => {
                page.insert(key.clone(), value.clone());
            }
        }
    }
}

#[test]
fn a_socket_is_written_its_whole_view_then_what_changed_and_whole_again_when_it_comes_back() {
    let (mut table, now, tokens) = friends_dealt();
    let mut presenter = Presenter::new();
    table.attach(1, &tokens[0], now).unwrap();
    table.attach(2, &tokens[1], now).unwrap();
    let frames = sent(&mut table, &mut presenter);
    // The first view is whole: every part, the head, and every field of the deal view.
    let mut page = json!({});
    for (view, whole) in views_to(&frames, 2) {
        assert_eq!(view, whole);
        for part in WHOLE {
            assert!(view.get(part).is_some(), "{part}: {view}");
        }
        lay_over(&mut page, &view);
    }
    // Then each move's view carries what changed: a move changes neither the table nor the match,
    // and (once the seats frames of the attaching are behind) neither the seats nor the head; of the
    // deal view, only the fields the move changed.
    let mut deltas = 0;
    for moves in 0..6 {
        let (mover, action) = turn(&mut table);
        table.from_seat(mover, action, now);
        let frames = sent(&mut table, &mut presenter);
        let views = views_to(&frames, 2);
        assert_eq!(views.len(), 1, "{frames:?}");
        let (view, whole) = &views[0];
        assert!(
            view.get("table").is_none() && view.get("match").is_none(),
            "{view}"
        );
        if moves > 0 && whole["status"] == "playing" {
            assert!(
                view.get("seats").is_none() && view.get("status").is_none(),
                "{view}"
            );
        }
        let fields = |v: &Value| v["view"].as_object().map_or(0, |o| o.len());
        assert!(fields(view) <= fields(whole), "{view}");
        deltas += usize::from(fields(view) < fields(whole));
        lay_over(&mut page, view);
        let (mut now, mut whole) = (page.clone(), whole.clone());
        lay_over(&mut now, &json!({}));
        lay_over(&mut whole, &json!({}));
        assert_eq!(
            now, whole,
            "move {moves}: laid over the last view, the whole view"
        );
        if whole["status"] != "playing" {
            break;
        }
    }
    assert!(
        deltas > 0,
        "every view carried every field of the deal view"
    );
    // The socket goes: its memory goes with it. Coming back (as the same connection, here), it is
    // written its whole view again.
    table.detach(2, now);
    sent(&mut table, &mut presenter);
    assert!(!presenter.shown.contains_key(&2));
    table.attach(2, &tokens[1], now).unwrap();
    let frames = sent(&mut table, &mut presenter);
    let views = views_to(&frames, 2);
    let (view, whole) = &views[0];
    assert_eq!(view, whole);
    for part in WHOLE {
        assert!(view.get(part).is_some(), "{part}: {view}");
    }
    // A resync is whole too, though the socket has been sent everything.
    table.from_seat(2, ClientMsg::Resync {}, now);
    let frames = sent(&mut table, &mut presenter);
    let (view, whole) = &views_to(&frames, 2)[0];
    assert_eq!(view, whole);
}

#[test]
fn sockets_sent_the_same_share_one_frame_and_a_notice_is_written_once() {
    let (mut table, now, tokens) = friends_dealt();
    let mut presenter = Presenter::new();
    table.attach(1, &tokens[0], now).unwrap();
    table.attach(2, &tokens[1], now).unwrap();
    table.watch(8).unwrap();
    table.watch(9).unwrap();
    sent(&mut table, &mut presenter);
    let (mover, action) = turn(&mut table);
    table.from_seat(mover, action, now);
    table.from_seat(
        2,
        ClientMsg::Name {
            name: "Leyla".into(),
        },
        now,
    );
    let mut effects = Vec::new();
    table.move_effects(&mut effects);
    let mut written = Vec::new();
    for effect in &effects {
        match effect {
            Effect::Show(showing) => presenter.show(showing, |conn, frame| {
                written.push((conn, frame.into_message()));
            }),
            Effect::Send(conn, notice) => {
                written.push((*conn, presenter.tell(*conn, notice).into_message()));
            }
            _ => {}
        }
    }
    let bytes = |conn: ConnId, kind: &str| {
        let messages = written.iter().filter(|(to, _)| *to == conn);
        let mut texts = messages.map(|(_, message)| message.clone().into_text().unwrap());
        texts.find(|text| text.starts_with(kind)).unwrap()
    };
    // The watchers are sent the same view, and everyone the same seats frame, as the same bytes.
    let (view, seats) = ("{\"type\":\"view\"", "{\"type\":\"seats\"");
    assert_eq!(bytes(8, view), bytes(9, view));
    assert_eq!(bytes(8, view).as_ptr(), bytes(9, view).as_ptr());
    for conn in [2, 8, 9] {
        assert_eq!(bytes(1, seats).as_ptr(), bytes(conn, seats).as_ptr());
    }
    assert_ne!(
        bytes(mover, view),
        bytes(3 - mover, view),
        "each seat its own view"
    );
}
