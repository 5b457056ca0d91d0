//! What each socket is sent of its view: the parts it has already are left out, and laid over its last view they make the whole one.

use super::*;

/// Lays a view over the page's last one, as a page does: what it leaves out is kept, `ack` is not,
/// and the deal view's fields are laid over the last deal view's.
fn lay_over(page: &mut serde_json::Value, view: &serde_json::Value) {
    let page = page.as_object_mut().unwrap();
    page.remove("ack");
    let fields = view.as_object().unwrap();
    for (key, value) in fields {
        match (page.get_mut(key), value) {
            (Some(serde_json::Value::Object(deal)), serde_json::Value::Object(news))
                if key == "view" =>
            {
                deal.extend(news.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            _ => {
                page.insert(key.clone(), value.clone());
            }
        }
    }
}

#[test]
fn a_view_leaves_out_what_its_socket_has_and_laid_over_the_last_one_is_the_whole_view() {
    let (mut table, now, tokens) = friends_dealt(false);
    table.attach(1, &tokens[0], now).unwrap();
    table.attach(2, &tokens[1], now).unwrap();
    let mut did = done(&mut table);
    let mut pages = [serde_json::json!({}), serde_json::json!({})];
    let (mut views, mut without_match, mut without_trump) = (0, 0, 0);
    let (mut without_head, mut heads_at_a_deals_end) = (0, 0);
    for step in 0..300 {
        for conn in [1, 2] {
            let page = &mut pages[conn as usize - 1];
            for frame in sent_to(&did, conn) {
                // Who is connected also comes in `seats` frames, which a page lays over its view.
                if frame["type"] == "seats" {
                    page["seats"] = frame["seats"].clone();
                    page["watching"] = frame["watching"].clone();
                }
                if frame["type"] != "view" {
                    continue;
                }
                let view = frame;
                views += 1;
                without_match += usize::from(view.get("match").is_none());
                without_trump += usize::from(view["view"].get("trump").is_none());
                let was_playing = page.get("status").is_some_and(|s| s == "playing");
                match view.get("status") {
                    None => without_head += 1,
                    Some(status) if was_playing && *status != "playing" => {
                        heads_at_a_deals_end += 1;
                        assert!(view["outcome"].is_object(), "step {step}: {view}");
                    }
                    Some(_) => {}
                }
                lay_over(page, view);
            }
            // The parts kept from earlier views are the ones a presenter with nothing kept writes.
            let whole = whole_view(&table, Some(Seat::new(conn as usize - 1)));
            lay_over(page, &serde_json::json!({}));
            assert_eq!(*page, whole, "step {step}, socket {conn}");
        }
        // A seat pledges a number to the coming deal's shuffle: the shuffle part changes mid-deal.
        if step % 5 == 2 {
            let commitment = table.dealer.coming().commitment().to_string();
            let hash = crate::table::pledge_of(&format!("{step:032x}"));
            table.from_seat(1, ClientMsg::Pledge { commitment, hash }, now);
        }
        // A name changes the seats: they come in a `seats` frame, and again in the next view.
        if step % 7 == 3 {
            table.from_seat(
                1,
                ClientMsg::Name {
                    name: format!("Ali {step}"),
                },
                now,
            );
        }
        let version = table.version();
        match table.state.as_ref().and_then(Panjpar::to_act) {
            Some(_) => {
                let (mover, chosen) = turn(&mut table);
                table.from_seat(mover, action(version, chosen), now);
            }
            None if table.matchup.winners().is_some() => {
                for conn in [1, 2] {
                    table.from_seat(
                        conn,
                        ClientMsg::Rematch {
                            version,
                            level: None,
                        },
                        now,
                    );
                }
            }
            None => {
                for conn in [1, 2] {
                    table.from_seat(conn, ClientMsg::NextDeal { version }, now);
                }
            }
        }
        did = done(&mut table);
    }
    assert!(
        without_match > views / 2,
        "{without_match} of {views} views"
    );
    // The trump is the same all deal long: a deal view sends it once per socket and deal or so.
    assert!(
        without_trump > views * 3 / 4,
        "{without_trump} of {views} views"
    );
    // The head changes at a deal's end and start, and when a seats frame may have been dropped.
    assert!(without_head > views / 2, "{without_head} of {views} views");
    assert!(heads_at_a_deals_end > 0, "no deal ended in {views} views");
}

#[test]
fn after_a_seats_frame_the_next_view_carries_the_seats_again() {
    let (mut table, now) = friends_at_play(false);
    let play = |table: &mut TableCore<Panjpar>| {
        let (mover, chosen) = turn(table);
        table.from_seat(mover, action(table.version(), chosen), now);
        done(table)
    };
    // Both pages have the seats as they are, so a move's views leave them out.
    play(&mut table);
    let did = play(&mut table);
    assert!(last_view(&did, 1).unwrap().get("seats").is_none());
    // A watcher comes and goes: two `seats` frames, which may be dropped when frames pile up, and
    // the seats end as they were.
    table.watch(9).unwrap();
    table.detach(9, now);
    done(&mut table);
    let did = play(&mut table);
    for conn in [1, 2] {
        let view = last_view(&did, conn).unwrap();
        assert!(view.get("seats").is_some(), "{conn}: {view}");
        // How many watch comes in the head, and in the seats frames.
        assert_eq!(view["watching"], 0, "{conn}: {view}");
        assert_eq!(view["seat"], conn - 1, "{conn}: {view}");
        assert!(view.get("match").is_none(), "{conn}: {view}");
    }
}

#[test]
fn a_view_sent_to_one_socket_alone_is_whole() {
    let (mut table, now) = friends_at_play(false);
    let (mover, chosen) = turn(&mut table);
    table.from_seat(mover, action(table.version(), chosen), now);
    let did = done(&mut table);
    assert!(last_view(&did, mover).unwrap().get("match").is_none());
    table.from_seat(mover, ClientMsg::Resync {}, now);
    let version = table.version();
    let (next, chosen) = turn(&mut table);
    table.from_seat(next, action(version - 1, chosen), now);
    let did = done(&mut table);
    for conn in [mover, next] {
        let view = last_view(&did, conn).unwrap();
        for part in [
            "table", "seats", "match", "deal", "shuffle", "status", "seat", "outcome",
        ] {
            assert!(view.get(part).is_some(), "{part} to {conn}: {view}");
        }
    }
}
