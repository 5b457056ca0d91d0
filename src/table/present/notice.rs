//! The frame of a notice (an answer, or news every socket hears) as `docs/protocol.md` writes it.

use crate::protocol::ServerMsg;
use crate::table::core::Notice;

/// The protocol's frame for a notice.
pub(super) fn message(notice: &Notice) -> ServerMsg<'_> {
    match notice {
        Notice::Refused { code, message, id } => ServerMsg::Error {
            code: code.as_str(),
            message,
            id: id.as_deref(),
        },
        Notice::Seats { seats, watching } => ServerMsg::Seats {
            seats,
            watching: *watching,
        },
        Notice::Phrase { seat, id } => ServerMsg::Phrase {
            seat: *seat,
            id: *id,
        },
        Notice::Signal { from, kind, data } => ServerMsg::Signal {
            from: *from,
            kind: *kind,
            data,
        },
        Notice::Hint {
            version,
            action,
            value,
            unit,
            why,
        } => ServerMsg::Hint {
            version: *version,
            action,
            value: *value,
            unit,
            why,
        },
        Notice::Shuffle(shuffle) => ServerMsg::Shuffle { shuffle },
        Notice::Analysing { deal, done, of } => ServerMsg::Analysing {
            deal: *deal,
            done: *done,
            of: *of,
        },
        Notice::Analysis { deal, analysis } => ServerMsg::Analysis {
            deal: *deal,
            analysis,
        },
    }
}
