//! A WebSocket served on its TCP stream alone, once the HTTP upgrade has been answered: the HTTP
//! dispatcher has let go of the connection and of its two 8 KiB buffers. An idle socket holds no
//! buffer at all: one is taken for each read and given back when it has been decoded, and the writer
//! writes the queued frames' own bytes.

use std::io::{self, IoSlice};
use std::pin::Pin;
use std::task::{Context, Poll};

use actix_http::ws::{Codec, Frame as FromBrowser, ProtocolError};
use bytes::{Bytes, BytesMut};
use futures_util::Stream;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt, ReadBuf};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;

use super::{queue, Drain, Outlet};

/// Room taken for one read: a move is a few hundred bytes; a longer frame is read in several.
const READ_ROOM: usize = 1024;
/// Frames written in one system call, at most.
const WRITE_BATCH: usize = 16;
/// How long a connection whose session has ended is still read (and what comes discarded).
const LINGER: std::time::Duration = std::time::Duration::from_secs(2);

/// Serves a WebSocket on `io` (whose upgrade has been answered; `read` holds whatever the browser sent
/// after its request): the way into the socket's queue of at most `capacity` frames, written by a task
/// on the current thread, and the browser's frames, none longer than `max_frame` bytes.
pub fn serve(
    io: TcpStream,
    read: BytesMut,
    max_frame: usize,
    capacity: usize,
) -> (Outlet, Incoming) {
    let (reader, writer) = io.into_split();
    let (outlet, drain) = queue(capacity);
    actix_rt::spawn(write_out(writer, drain));
    let incoming = Incoming {
        io: Some(reader),
        buf: read,
        codec: Codec::new().max_size(max_frame),
        ended: false,
    };
    (outlet, incoming)
}

/// Writes the queued frames as they come, several to a system call, until the queue ends (after a close
/// frame) or the connection fails; then the write half is dropped, which tells the browser the server
/// is done.
async fn write_out(mut io: OwnedWriteHalf, drain: Drain) {
    let mut frames: Vec<Bytes> = Vec::new();
    loop {
        let open = std::future::poll_fn(|cx| drain.poll_frames(cx, &mut frames, WRITE_BATCH)).await;
        if write_all(&mut io, &mut frames).await.is_err() {
            break;
        }
        if !open {
            break;
        }
        // An idle socket does not keep the longer list a burst needed.
        if frames.capacity() > 4 {
            frames = Vec::new();
        }
    }
}

async fn write_all(io: &mut OwnedWriteHalf, frames: &mut Vec<Bytes>) -> io::Result<()> {
    while !frames.is_empty() {
        let mut slices = [IoSlice::new(&[]); WRITE_BATCH];
        let count = frames.len().min(WRITE_BATCH);
        for (slice, frame) in slices.iter_mut().zip(frames.iter()) {
            *slice = IoSlice::new(frame);
        }
        match io.write_vectored(&slices[..count]).await? {
            0 => return Err(io::ErrorKind::WriteZero.into()),
            mut written => {
                let done = frames
                    .iter()
                    .take_while(|frame| {
                        let whole = frame.len() <= written;
                        if whole {
                            written -= frame.len();
                        }
                        whole
                    })
                    .count();
                frames.drain(..done);
                if let Some(partly) = frames.first_mut() {
                    let _ = partly.split_to(written);
                }
            }
        }
    }
    Ok(())
}

/// The browser's frames, decoded from the connection.
pub struct Incoming {
    /// `None` only once dropped.
    io: Option<OwnedReadHalf>,
    buf: BytesMut,
    codec: Codec,
    ended: bool,
}

impl Stream for Incoming {
    type Item = Result<FromBrowser, ProtocolError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        use actix_codec::Decoder;
        let this = self.get_mut();
        loop {
            if let Some(frame) = this.codec.decode(&mut this.buf)? {
                return Poll::Ready(Some(Ok(frame)));
            }
            if this.ended {
                return Poll::Ready(None);
            }
            let held = this.buf.len();
            this.buf.resize(held + READ_ROOM, 0);
            let Some(io) = this.io.as_mut() else {
                return Poll::Ready(None);
            };
            let mut room = ReadBuf::new(&mut this.buf[held..]);
            let read = Pin::new(io).poll_read(cx, &mut room);
            let got = room.filled().len();
            this.buf.truncate(held + got);
            match read {
                Poll::Ready(Ok(())) => this.ended = got == 0,
                Poll::Ready(Err(e)) => {
                    this.ended = true;
                    return Poll::Ready(Some(Err(ProtocolError::Io(e))));
                }
                Poll::Pending => {
                    if this.buf.is_empty() {
                        // Idle: no buffer is held until the browser sends again.
                        this.buf = BytesMut::new();
                    }
                    return Poll::Pending;
                }
            }
        }
    }
}

impl Drop for Incoming {
    /// The session has ended, and its close frame may be on the way: the browser may still be sending
    /// (its own close, say). Reading on for a moment lets the connection end cleanly, where closing it
    /// with bytes unread would reset it, and the browser could miss the close frame.
    fn drop(&mut self) {
        let Some(mut io) = self.io.take().filter(|_| !self.ended) else {
            return;
        };
        if tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        actix_rt::spawn(async move {
            let mut discard = [0u8; 256];
            let _ = tokio::time::timeout(LINGER, async {
                while matches!(io.read(&mut discard).await, Ok(n) if n > 0) {}
            })
            .await;
        });
    }
}

#[cfg(test)]
mod tests {
    use actix_codec::Encoder;
    use actix_http::ws::Message;
    use futures_util::StreamExt;
    use tokio::io::AsyncWriteExt;
    use tokio::net::TcpListener;

    use super::*;
    use crate::wire::Frame;

    async fn pair() -> (TcpStream, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap());
        let (client, accepted) = tokio::join!(client, listener.accept());
        (client.unwrap(), accepted.unwrap().0)
    }

    #[actix_rt::test]
    async fn frames_go_out_whole_and_in_order_and_the_connection_ends_after_the_close() {
        let (mut browser, server) = pair().await;
        let (outlet, _incoming) = serve(server, BytesMut::new(), 1 << 20, 8);
        // Larger than a socket buffer takes at once: written in parts.
        let big = "x".repeat(3 << 20);
        let frames = [
            Frame::text("a"),
            Frame::text(&big),
            Frame::close(1001, "bye"),
        ];
        let mut expected = Vec::new();
        for frame in frames {
            expected.extend_from_slice(&frame.0);
            outlet.send(frame).unwrap();
        }
        let mut got = Vec::new();
        browser.read_to_end(&mut got).await.unwrap();
        assert!(
            got == expected,
            "{} bytes, not {}",
            got.len(),
            expected.len()
        );
    }

    #[actix_rt::test]
    async fn the_browsers_frames_are_decoded_as_they_come_until_it_leaves() {
        let (mut browser, server) = pair().await;
        let (_outlet, mut incoming) = serve(server, BytesMut::new(), 1 << 16, 8);
        let mut codec = Codec::new().client_mode();
        let mut bytes = BytesMut::new();
        for text in ["first", &"y".repeat(5000)] {
            codec
                .encode(Message::Text(text.to_string().into()), &mut bytes)
                .unwrap();
        }
        // Sent in two pieces, the cut inside the second frame.
        browser.write_all(&bytes[..100]).await.unwrap();
        match incoming.next().await {
            Some(Ok(FromBrowser::Text(text))) => assert_eq!(&text[..], b"first"),
            other => panic!("{other:?}"),
        }
        browser.write_all(&bytes[100..]).await.unwrap();
        match incoming.next().await {
            Some(Ok(FromBrowser::Text(text))) => assert_eq!(text.len(), 5000),
            other => panic!("{other:?}"),
        }
        browser.shutdown().await.unwrap();
        assert!(incoming.next().await.is_none());
    }
}
