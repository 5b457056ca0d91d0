//! Client frames parsed and refused, server frames written as the browser reads them.

use super::*;

#[test]
fn client_frames_parse_and_refuse_clearly() {
    let ok =
        ClientMsg::parse(r#"{"type":"action","version":3,"id":"a1","action":{"type":"pick-up"}}"#)
            .unwrap();
    assert!(matches!(ok, ClientMsg::Action { version: 3, .. }));
    assert!(matches!(
        ClientMsg::parse(r#"{"type":"resync"}"#),
        Ok(ClientMsg::Resync {})
    ));
    assert_eq!(
        ClientMsg::parse(r#"{"type":"dance"}"#).unwrap_err().code,
        ProtocolCode::UnknownType
    );
    for bad in [
        "",
        "{",
        "[]",
        "42",
        r#"{"type":"action"}"#,
        r#"{"type":"action","version":"3","action":{}}"#,
        r#"{"type":"action","version":-1,"action":{}}"#,
        r#"{"type":"action","version":1,"action":{},"extra":1}"#,
        r#"{"type":"resync","x":1}"#,
        r#"{"version":1}"#,
    ] {
        assert_eq!(
            ClientMsg::parse(bad).unwrap_err().code,
            ProtocolCode::Malformed,
            "{bad}"
        );
    }
    let offer = ClientMsg::parse(
        r#"{"type":"signal","to":1,"kind":"offer","data":{"type":"offer","sdp":"v=0"}}"#,
    )
    .unwrap();
    assert!(offer.is_voice());
    assert!(matches!(
        offer,
        ClientMsg::Signal {
            kind: SignalKind::Offer,
            ..
        }
    ));
    assert!(matches!(
        ClientMsg::parse(r#"{"type":"voice","on":true}"#),
        Ok(ClientMsg::Voice { on: true })
    ));
    for bad in [
        r#"{"type":"voice"}"#,
        r#"{"type":"voice","on":"yes"}"#,
        r#"{"type":"signal","to":1,"kind":"hello","data":{}}"#,
        r#"{"type":"signal","to":-1,"kind":"ice","data":{}}"#,
        r#"{"type":"signal","to":1,"kind":"ice"}"#,
    ] {
        assert_eq!(
            ClientMsg::parse(bad).unwrap_err().code,
            ProtocolCode::Malformed,
            "{bad}"
        );
    }
    let big = format!(
        r#"{{"type":"signal","to":1,"kind":"offer","data":"{}"}}"#,
        "x".repeat(MAX_SIGNAL_DATA)
    );
    assert_eq!(
        ClientMsg::parse(&big).unwrap_err().code,
        ProtocolCode::TooLarge
    );
    let long_id = format!(
        r#"{{"type":"action","version":1,"id":"{}","action":{{}}}}"#,
        "x".repeat(65)
    );
    assert_eq!(
        ClientMsg::parse(&long_id).unwrap_err().code,
        ProtocolCode::Malformed
    );
}

#[test]
fn coach_frames_are_read_like_every_frame() {
    assert!(matches!(
        ClientMsg::parse(r#"{"type":"hint","version":4}"#),
        Ok(ClientMsg::Hint { version: 4 })
    ));
    assert!(matches!(
        ClientMsg::parse(r#"{"type":"analyse"}"#),
        Ok(ClientMsg::Analyse { deal: None })
    ));
    for (bad, field) in [
        (r#"{"type":"hint","version":"x"}"#, "`version`"),
        (r#"{"type":"hint"}"#, "`version`"),
        (r#"{"type":"analyse","deal":-1}"#, "`deal`"),
        (r#"{"type":"analyse","deal":"0"}"#, "`deal`"),
        (r#"{"type":"analyse","deal":0,"seat":1}"#, "`seat`"),
        (r#"{"type":"replay","deal":0,"step":"1"}"#, "`step`"),
    ] {
        let refused = ClientMsg::parse(bad).unwrap_err();
        assert_eq!(refused.code, ProtocolCode::Malformed, "{bad}");
        assert!(
            refused.message.contains(field),
            "{bad}: {}",
            refused.message
        );
    }
    // The list of types names every type there is, the coach's too.
    let unknown = ClientMsg::parse(r#"{"type":"hnit"}"#).unwrap_err();
    assert_eq!(unknown.code, ProtocolCode::UnknownType);
    for kind in ["action", "hint", "analyse", "signal", "offer-seat"] {
        assert!(unknown.message.contains(kind), "{}", unknown.message);
    }
}

#[test]
fn action_frames_read_directly_are_the_ones_the_enum_reads() {
    for text in [
        r#"{"type":"action","version":3,"id":"a1","action":{"type":"pick-up"}}"#,
        r#"{"action":{"type":"pick-up"},"version":3,"type":"action"}"#,
        r#"{"type":"action","version":3,"id":null,"action":[1,2]}"#,
        r#"{"type":"action","version":0,"action":null}"#,
        r#"{ "type" : "action" , "version" : 7 , "action" : "x" }"#,
        r#"{"\u0074ype":"action","version":3,"action":{}}"#,
        r#"{"type":"action","type":"action","version":3,"action":{}}"#,
        r#"{"type":"action","version":3,"version":4,"action":{}}"#,
        r#"{"type":"action","version":3,"action":{},"step":1}"#,
        r#"{"type":"action","version":3.5,"action":{}}"#,
        r#"{"type":"action","version":3,"id":7,"action":{}}"#,
        r#"{"type":"Action","version":3,"action":{}}"#,
        r#"{"type":"action","version":3}"#,
        r#"{"type":"resync"}"#,
    ] {
        let direct = serde_json::from_str::<ActionFrame>(text).map(ClientMsg::from);
        let by_enum = serde_json::from_str::<ClientMsg>(text);
        match (direct, by_enum) {
            (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{text}"),
            (Err(_), Err(_)) => {}
            (Err(_), Ok(ClientMsg::Resync {})) => {}
            (a, b) => panic!("{text}: read directly {a:?}, by the enum {b:?}"),
        }
    }
}

#[test]
fn server_frames_are_tagged() {
    let phrase = ServerMsg::Phrase {
        seat: Seat::new(1),
        id: Phrase::WellPlayed,
    };
    assert_eq!(
        phrase.to_text(),
        r#"{"type":"phrase","seat":1,"id":"well-played"}"#
    );
    let error = ServerMsg::Error {
        code: "stale-version",
        message: "Your view is out of date.",
        id: None,
    };
    assert_eq!(
        error.to_text(),
        r#"{"type":"error","code":"stale-version","message":"Your view is out of date."}"#
    );
}

#[test]
fn protocol_codes_are_written_the_same_by_serde_and_as_str() {
    use strum::IntoEnumIterator;
    let written: Vec<&str> = ProtocolCode::iter().map(ProtocolCode::as_str).collect();
    assert_eq!(
        written,
        ["malformed", "too-large", "unknown-type", "hello-expected"]
    );
    for code in ProtocolCode::iter() {
        assert_eq!(serde_json::to_value(code).unwrap(), code.as_str());
    }
}
