//! The requests this node has asked other nodes and waits on: each has a number of its own, and its
//! answer, heard on this node's channel, goes to whoever waits for it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use tokio::sync::oneshot;

use super::between_nodes::Answer;
use super::stand_ins::lock;

#[derive(Default)]
pub struct Pending {
    next: AtomicU64,
    waiting: Mutex<HashMap<u64, oneshot::Sender<Answer>>>,
}

impl Pending {
    /// A new request's number, and where its answer will come.
    pub fn wait(&self) -> (u64, oneshot::Receiver<Answer>) {
        let req = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let (tell, told) = oneshot::channel();
        lock(&self.waiting).insert(req, tell);
        (req, told)
    }

    /// Hands `answer` to whoever waits for request `req`; false when nobody does (it was answered,
    /// given up, or never asked here).
    pub fn answer(&self, req: u64, answer: Answer) -> bool {
        match lock(&self.waiting).remove(&req) {
            Some(tell) => tell.send(answer).is_ok(),
            None => false,
        }
    }

    /// Stops waiting for request `req` (answered or not).
    pub fn forget(&self, req: u64) {
        lock(&self.waiting).remove(&req);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_reaches_its_own_request_once() {
        let pending = Pending::default();
        let (first, mut first_told) = pending.wait();
        let (second, mut second_told) = pending.wait();
        assert_ne!(first, second);
        assert!(pending.answer(second, Answer::Adopted));
        assert!(matches!(second_told.try_recv(), Ok(Answer::Adopted)));
        assert!(
            first_told.try_recv().is_err(),
            "the other request still waits"
        );
        assert!(!pending.answer(second, Answer::Adopted), "answered once");
        assert!(!pending.answer(first + 100, Answer::Adopted), "never asked");
    }

    #[test]
    fn a_request_given_up_takes_no_answer() {
        let pending = Pending::default();
        let (req, told) = pending.wait();
        pending.forget(req);
        assert!(!pending.answer(req, Answer::Adopted));
        drop(told);
        let (again, told) = pending.wait();
        drop(told);
        assert!(
            !pending.answer(again, Answer::Adopted),
            "nobody listens any more"
        );
    }
}
