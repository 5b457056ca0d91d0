"""Writes tests/fixtures/fair-vectors.json: the fair-deal shuffle (docs/fair.md) worked out a third
time, here, so that the server's copy (src/table/mix.rs) and the page's (static/verify.js) are both
checked against figures neither of them made. Run: python3 tools/fair-vectors.py"""
import hashlib
import json
import pathlib


def key_of(text):
    return hashlib.sha256(text.encode()).digest()


def players_key(commitment, numbers):
    return key_of(f"chaikhana-deal|{commitment}|" + ",".join(n or "" for n in numbers))


class Stream:
    def __init__(self, key):
        self.key, self.counter, self.block, self.used = key, 0, b"", 32

    def word(self):
        if self.used == 32:
            self.block = hashlib.sha256(self.key + self.counter.to_bytes(4, "big")).digest()
            self.counter += 1
            self.used = 0
        word = int.from_bytes(self.block[self.used:self.used + 4], "big")
        self.used += 4
        return word

    def below(self, m):
        limit = 2**32 - 2**32 % m
        while True:
            w = self.word()
            if w < limit:
                return w % m

    def shuffle(self, n):
        places = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            places[i], places[j] = places[j], places[i]
        return places


streams = []
for text in ["chaikhana", "chaikhana-order|" + "00" * 32]:
    s = Stream(key_of(text))
    streams.append({"key_text": text, "words": [s.word() for _ in range(20)]})

shuffles = []
cases = [
    ("ab" * 32, ["01" * 16, None], 52, 1),
    ("5c" * 32, ["0f" * 16, "e1" * 16], 52, 1),
    ("07" * 32, [None, "aa" * 16, "bb" * 16], 96, 2),
    ("ff" * 32, [None, None, None], 7, 3),
]
for commitment, numbers, n, rounds in cases:
    s = Stream(players_key(commitment, numbers))
    shuffles.append({"commitment": commitment, "numbers": numbers, "n": n,
                     "rounds": [s.shuffle(n) for _ in range(rounds)]})

out = pathlib.Path(__file__).resolve().parent.parent / "tests/fixtures/fair-vectors.json"
out.write_text(json.dumps({"streams": streams, "shuffles": shuffles}) + "\n")
