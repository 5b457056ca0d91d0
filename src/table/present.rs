//! The presenter: turns the frames the table core writes into the outbox's frames, the one place where
//! the core's output meets the WebSocket library.

use super::core::Frame as Written;
use crate::outbox::Frame;

/// The socket's frame of a frame the core wrote (its bytes shared, not copied).
pub fn frame(written: Written) -> Frame {
    let latest = written.is_superseding();
    let frame = Frame::json_bytes(written.into_bytes());
    if latest {
        frame.superseding()
    } else {
        frame
    }
}
