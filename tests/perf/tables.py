#!/usr/bin/env python3
"""Tables for the sleep-and-wake measures, with nothing but Python's standard library (3.11 or later).

    tables.py open --url URL --tables N [--moves K] [--concurrency C] --out FILE
        Opens N computer tables (POST /api/tables), and at each connects its seat over a WebSocket,
        says its hello, adds its number to the shuffle and plays K of the actions its views offer
        (chosen at random, --seed), then closes the socket: the table is left mid-deal with K of its
        seat's moves and the computers' answers in its record. Writes one line per table, its id and
        seat token, to FILE.
    tables.py wake --url URL --file FILE [--concurrency C]
        Opens each table of FILE again, C at once: connects its seat's WebSocket, says hello and times
        the upgrade (the server finds the table, waking it from the store if it sleeps) and the first
        view, then closes. Prints one JSON object: the client's p50/p99/max, and the server's own wake
        time over the same run from chaikhana_wake_seconds (its count, mean, and p50/p99 read from the
        histogram's buckets as Prometheus's histogram_quantile does).
    tables.py wait-asleep --url URL --slept N [--timeout S]
        Waits until chaikhana_tables_slept_total has reached N and /readyz counts no table in memory;
        prints how long that took.
    tables.py half-sent --url URL --sockets N --bytes B --marks DIR
        Opens N/4 computer tables and four sockets at each (a seat's most), each saying its hello and
        reading its first view. Phases, each marked by an empty file in DIR once done and followed by
        four seconds' wait: "baseline" (every socket opened and closed again), "open" (every socket
        opened again), "half" (each has sent B bytes of a text message in 1 KiB fragments, the last
        never sent), "finished" (each has sent its message's last fragment: the server refuses it, too
        long, and the socket stays open), "closed" (every socket closed with 1000).
    tables.py metric --url URL NAME...
        Prints the sum of each metric's samples (every label).
    tables.py answers --url URL [--game G] [--level L] [--tables N] [--moves K]
        Opens N computer tables at level L one after another and plays K of the seat's moves at each;
        prints how long each computer move took to reach the seat (from the view after the seat's
        own move to the view giving it its next turn, over the computer moves between): p50, mean
        and p90 in ms. At the default move delay a computer move takes `bot_delay_ms`, whatever its
        level, when its thinking fits inside the delay.
    tables.py histogram --url URL NAME
        Prints one JSON object for the histogram NAME (without labels): its count, mean, and p50/p99
        read from its buckets.

The WebSocket client is the least RFC 6455 asks of a client (masked text frames, pings answered,
a close handshake); the server's frames are read as the pages read them (docs/protocol.md): a view
leaves out what this socket was last sent unchanged, so the status is kept from the last view that
carried it.
"""

import argparse
import asyncio
import base64
import hashlib
import json
import os
import random
import struct
import sys
import time
import urllib.parse


# --- HTTP/1.1 and the WebSocket, over asyncio streams ------------------------------------------------


async def read_head(reader):
    """The status code and the headers (lower-case names) of an HTTP answer."""
    line = await reader.readline()
    if not line:
        raise ConnectionError("the server closed the connection")
    status = int(line.split()[1])
    headers = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            return status, headers
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()


async def read_body(reader, headers):
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while True:
            size = int((await reader.readline()).split(b";")[0], 16)
            if size == 0:
                await reader.readline()
                return body
            body += await reader.readexactly(size)
            await reader.readline()
    return await reader.readexactly(int(headers.get("content-length", "0")))


class Http:
    """One kept-alive connection for plain requests."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def request(self, method, path, body=None):
        for attempt in range(2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            data = b"" if body is None else json.dumps(body).encode()
            head = (
                f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
            )
            try:
                self.writer.write(head.encode() + data)
                await self.writer.drain()
                status, headers = await read_head(self.reader)
                answer = await read_body(self.reader, headers)
                if headers.get("connection", "").lower() == "close":
                    self.close()
                return status, answer
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Socket:
    """A WebSocket client: text frames out (masked), frames in."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer

    @staticmethod
    async def connect(host, port, path):
        reader, writer = await asyncio.open_connection(host, port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        status, headers = await read_head(reader)
        if status != 101:
            body = await read_body(reader, headers)
            writer.close()
            raise ConnectionError(f"upgrade answered {status}: {body[:200].decode(errors='replace')}")
        return Socket(reader, writer)

    def send_frame(self, opcode, payload, last=True):
        """One masked frame; `last` False leaves its message unfinished (more fragments to come)."""
        mask = os.urandom(4)
        n = len(payload)
        first = (0x80 if last else 0) | opcode
        if n < 126:
            head = struct.pack("!BB", first, 0x80 | n)
        elif n < 65536:
            head = struct.pack("!BBH", first, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", first, 0x80 | 127, n)
        words = (n + 3) // 4
        key = int.from_bytes(mask * words, "big")
        padded = payload + b"\0" * (words * 4 - n)
        masked = (int.from_bytes(padded, "big") ^ key).to_bytes(words * 4, "big")[:n]
        self.writer.write(head + mask + masked)

    async def send(self, message):
        self.send_frame(0x1, json.dumps(message, separators=(",", ":")).encode())
        await self.writer.drain()

    async def receive(self):
        """The next text message as JSON; None once the server closes."""
        message = b""
        while True:
            first, second = await self.reader.readexactly(2)
            n = second & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", await self.reader.readexactly(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", await self.reader.readexactly(8))
            payload = await self.reader.readexactly(n)
            opcode = first & 0x0F
            if opcode == 0x8:
                return None
            if opcode == 0x9:
                self.send_frame(0xA, payload)
                continue
            if opcode in (0x1, 0x0):
                message += payload
                if first & 0x80:
                    return json.loads(message)

    async def close(self):
        try:
            self.send_frame(0x8, struct.pack("!H", 1000))
            await self.writer.drain()
            while await asyncio.wait_for(self.receive(), 2) is not None:
                pass
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.TimeoutError):
            pass
        self.writer.close()


# --- Playing a seat ----------------------------------------------------------------------------------


class Page:
    """A seat's part in the fair shuffle, as a page takes it (verify.js): a pledge (the hash of its
    number) the first time a frame shows a coming deal, the number once the table shows the closed
    list of pledges with that pledge in it. `sent` counts the frames it sent."""

    def __init__(self, rng):
        self.rng = rng
        self.seat = None
        self.answered = {}  # commitment -> [number, pledge, given]
        self.sent = 0

    async def answer(self, socket, frame):
        if frame["type"] == "view" and "seat" in frame:
            self.seat = frame["seat"]
        shuffle = frame.get("shuffle")
        if not shuffle or self.seat is None or shuffle["contributed"][self.seat]:
            return
        commitment = shuffle["commitment"]
        if commitment not in self.answered:
            number = f"{self.rng.getrandbits(128):032x}"
            pledge = hashlib.sha256(f"chaikhana-pledge|{number}".encode()).hexdigest()
            self.answered[commitment] = [number, pledge, False]
            self.sent += 1
            await socket.send({"type": "pledge", "commitment": commitment, "hash": pledge})
        number, pledge, given = self.answered[commitment]
        if shuffle.get("closed") and not given and shuffle["pledges"][self.seat] == pledge:
            self.answered[commitment][2] = True
            self.sent += 1
            await socket.send({"type": "contribute", "commitment": commitment, "value": number})


async def play(host, port, table, token, moves, rng, answers=None):
    """Connects the seat, plays `moves` of its actions (taking its part in each shuffle as a page
    does, asking for the next deal when one ends) and closes once the last is acknowledged. With a list `answers`, adds
    to it the time each computer move took to reach the seat: from the view after the seat's own move
    to the view that gives it its next turn, over the computer moves made between them."""
    socket = await Socket.connect(host, port, f"/ws/{table}")
    await socket.send({"type": "hello", "token": token})
    status, answered, made, page = None, 0, 0, Page(rng)
    moved = None  # (version, when) of the view that followed the seat's last move
    while made < moves:
        frame = await asyncio.wait_for(socket.receive(), 10)
        if frame is None:
            raise ConnectionError("the server closed the socket")
        if frame["type"] == "error":
            raise RuntimeError(f"refused: {frame.get('code')}: {frame.get('message')}")
        await page.answer(socket, frame)
        if frame["type"] != "view":
            continue
        status = frame.get("status", status)
        version = frame.get("version", 0)
        if answers is not None and version == answered + 1 and moved is None:
            moved = (version, time.perf_counter())
        if version <= answered:
            continue
        actions = frame.get("actions") or []
        if actions and answers is not None and moved is not None and status == "playing":
            if version > moved[0]:
                answers.append((time.perf_counter() - moved[1]) / (version - moved[0]))
        if actions:
            moved = None
            answered = version
            made += 1
            await socket.send({"type": "action", "version": version, "action": rng.choice(actions)})
        elif status == "deal-over":
            answered = version
            await socket.send({"type": "next-deal", "version": version})
        elif status == "match-over":
            break
    # The last move's answer: a view with a newer version.
    while True:
        frame = await asyncio.wait_for(socket.receive(), 10)
        if frame is None or (frame["type"] == "view" and frame.get("version", 0) > answered):
            break
    await socket.close()


async def open_tables(args):
    if args.opponents != "computer" and args.moves:
        sys.exit("moves are played at computer tables only (a friends table waits for its friends): "
                 "--moves 0 with --opponents friends")
    url = urllib.parse.urlsplit(args.url)
    host, port = url.hostname, url.port or 80
    rng = random.Random(args.seed)
    opened = []
    counter = iter(range(args.tables))
    errors = []
    began = time.perf_counter()

    async def worker(n):
        http = Http(host, port)
        mine = random.Random(rng.getrandbits(64))
        for _ in counter:
            status, body = await http.request(
                "POST", "/api/tables", {"game": args.game, "opponents": args.opponents}
            )
            if status != 201:
                errors.append(f"POST /api/tables answered {status}: {body[:200]!r}")
                continue
            answer = json.loads(body)
            try:
                if args.moves:
                    await play(host, port, answer["table"], answer["token"], args.moves, mine)
                opened.append((answer["table"], answer["token"]))
            except Exception as e:  # noqa: BLE001 (counted and reported)
                errors.append(f"{answer['table']}: {e!r}")
        http.close()

    await asyncio.gather(*(worker(n) for n in range(args.concurrency)))
    with open(args.out, "w") as out:
        for table, token in opened:
            out.write(f"{table} {token}\n")
    print(
        json.dumps(
            {
                "tables": len(opened),
                "moves_each": args.moves,
                "seconds": round(time.perf_counter() - began, 2),
                "errors": len(errors),
                "first_errors": errors[:3],
            }
        )
    )


# --- Messages left half-sent ------------------------------------------------------------------------


async def half_sent(args):
    url = urllib.parse.urlsplit(args.url)
    host, port = url.hostname, url.port or 80
    http = Http(host, port)
    seats = []
    for _ in range((args.sockets + 3) // 4):
        status, body = await http.request("POST", "/api/tables", {"game": "panjpar", "opponents": "computer"})
        if status != 201:
            sys.exit(f"POST /api/tables answered {status}: {body[:200]!r}")
        seats.append(json.loads(body))
    http.close()
    seats = [seats[n // 4] for n in range(args.sockets)]

    async def connect(seat):
        socket = await Socket.connect(host, port, f"/ws/{seat['table']}")
        await socket.send({"type": "hello", "token": seat["token"]})
        if await socket.receive() is None:
            raise ConnectionError("the socket closed after its hello")
        return socket

    async def phase(name):
        open(os.path.join(args.marks, name), "w").close()
        await asyncio.sleep(4)

    sockets = await asyncio.gather(*(connect(seat) for seat in seats))
    await asyncio.gather(*(socket.close() for socket in sockets))
    await phase("baseline")
    sockets = await asyncio.gather(*(connect(seat) for seat in seats))
    await phase("open")
    piece = b"x" * 1024
    for socket in sockets:
        for n in range(args.bytes // len(piece)):
            socket.send_frame(0x1 if n == 0 else 0x0, piece, last=False)
    await asyncio.gather(*(socket.writer.drain() for socket in sockets))
    await phase("half")
    for socket in sockets:
        socket.send_frame(0x0, piece)
    await asyncio.gather(*(socket.writer.drain() for socket in sockets))
    await phase("finished")
    await asyncio.gather(*(socket.close() for socket in sockets))
    await phase("closed")


# --- Metrics -----------------------------------------------------------------------------------------


async def computer_answers(args):
    """Opens computer tables at --level one after another and plays --moves of the seat's actions at
    each; prints how long each computer move took to reach the seat (p50, mean, p90), in ms."""
    url = urllib.parse.urlsplit(args.url)
    host, port = url.hostname, url.port or 80
    rng = random.Random(args.seed)
    http = Http(host, port)
    answers = []
    for _ in range(args.tables):
        order = {"game": args.game, "opponents": "computer", "level": args.level}
        status, body = await http.request("POST", "/api/tables", order)
        if status != 201:
            sys.exit(f"POST /api/tables answered {status}: {body[:200]!r}")
        answer = json.loads(body)
        await play(host, port, answer["table"], answer["token"], args.moves, rng, answers)
    answers.sort()
    at = lambda q: round(answers[min(len(answers) - 1, int(q * len(answers)))] * 1000, 1)
    print(json.dumps({
        "game": args.game,
        "level": args.level,
        "computer_moves_timed": len(answers),
        "p50_ms": at(0.5),
        "mean_ms": round(sum(answers) / len(answers) * 1000, 1),
        "p90_ms": at(0.9),
    }))


async def scrape(host, port):
    http = Http(host, port)
    status, body = await http.request("GET", "/metrics")
    http.close()
    samples = {}
    for line in body.decode().splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            samples[name] = float(value)
    return samples


def total(samples, metric):
    return sum(v for k, v in samples.items() if k == metric or k.startswith(metric + "{"))


def buckets(samples, metric):
    """The cumulative buckets of a histogram without labels: [(le, count)] in order."""
    out = []
    for key, value in samples.items():
        if key.startswith(metric + "_bucket{le="):
            le = key.split('"')[1]
            out.append((float("inf") if le == "+Inf" else float(le), value))
    return sorted(out)


def quantile(q, cumulative):
    """histogram_quantile as Prometheus computes it: linear within the bucket the rank falls in."""
    if not cumulative or cumulative[-1][1] == 0:
        return None
    rank = q * cumulative[-1][1]
    lower_le, lower_count = 0.0, 0.0
    for le, count in cumulative:
        if count >= rank:
            if le == float("inf"):
                return lower_le
            return lower_le + (le - lower_le) * (rank - lower_count) / max(count - lower_count, 1e-12)
        lower_le, lower_count = le, count
    return None


def ms(seconds):
    return None if seconds is None else round(seconds * 1000, 3)


async def wake(args):
    url = urllib.parse.urlsplit(args.url)
    host, port = url.hostname, url.port or 80
    tables = [line.split() for line in open(args.file) if line.strip()]
    before = await scrape(host, port)
    upgrades, views, errors = [], [], []
    todo = iter(tables)

    async def worker():
        for table, token in todo:
            began = time.perf_counter()
            try:
                socket = await Socket.connect(host, port, f"/ws/{table}")
                upgraded = time.perf_counter()
                await socket.send({"type": "hello", "token": token})
                while True:
                    frame = await asyncio.wait_for(socket.receive(), 10)
                    if frame is None or frame["type"] in ("view", "error"):
                        break
                seen = time.perf_counter()
                if frame is None or frame["type"] != "view":
                    errors.append(f"{table}: {frame}")
                else:
                    upgrades.append(upgraded - began)
                    views.append(seen - began)
                await socket.close()
            except Exception as e:  # noqa: BLE001 (counted and reported)
                errors.append(f"{table}: {e!r}")

    began = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(args.concurrency)))
    seconds = time.perf_counter() - began
    after = await scrape(host, port)

    def exact(q, values):
        values = sorted(values)
        return values[min(len(values) - 1, int(q * len(values)))] if values else None

    wakes = [
        (le, count - dict(buckets(before, "chaikhana_wake_seconds")).get(le, 0))
        for le, count in buckets(after, "chaikhana_wake_seconds")
    ]
    woken = total(after, "chaikhana_tables_woken_total") - total(before, "chaikhana_tables_woken_total")
    spent = total(after, "chaikhana_wake_seconds_sum") - total(before, "chaikhana_wake_seconds_sum")
    print(
        json.dumps(
            {
                "tables": len(tables),
                "concurrency": args.concurrency,
                "seconds": round(seconds, 2),
                "errors": len(errors),
                "first_errors": errors[:3],
                "client_upgrade_ms": {
                    "p50": ms(exact(0.5, upgrades)),
                    "p99": ms(exact(0.99, upgrades)),
                    "max": ms(max(upgrades, default=None)),
                },
                "client_first_view_ms": {
                    "p50": ms(exact(0.5, views)),
                    "p99": ms(exact(0.99, views)),
                    "max": ms(max(views, default=None)),
                },
                "server_woken": int(woken),
                "server_wake_ms": {
                    "mean": ms(spent / woken) if woken else None,
                    "p50": ms(quantile(0.5, wakes)),
                    "p99": ms(quantile(0.99, wakes)),
                },
            }
        )
    )


async def wait_asleep(args):
    url = urllib.parse.urlsplit(args.url)
    host, port = url.hostname, url.port or 80
    began = time.perf_counter()
    while True:
        slept = total(await scrape(host, port), "chaikhana_tables_slept_total")
        http = Http(host, port)
        _, body = await http.request("GET", "/readyz")
        http.close()
        awake = json.loads(body)["tables"]
        if slept >= args.slept and awake == 0:
            print(json.dumps({"slept": int(slept), "awake": awake,
                              "seconds": round(time.perf_counter() - began, 2)}))
            return
        if time.perf_counter() - began > args.timeout:
            sys.exit(f"after {args.timeout} s: {int(slept)} tables slept, {awake} still in memory")
        await asyncio.sleep(0.2)


async def metric(args):
    url = urllib.parse.urlsplit(args.url)
    samples = await scrape(url.hostname, url.port or 80)
    for name in args.names:
        value = total(samples, name)
        print(f"{name} {int(value) if value == int(value) else value}")


async def histogram(args):
    url = urllib.parse.urlsplit(args.url)
    samples = await scrape(url.hostname, url.port or 80)
    count = total(samples, args.name + "_count")
    spent = total(samples, args.name + "_sum")
    cumulative = buckets(samples, args.name)
    print(
        json.dumps(
            {
                "count": int(count),
                "mean": spent / count if count else None,
                "p50": quantile(0.5, cumulative),
                "p99": quantile(0.99, cumulative),
            }
        )
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    o = commands.add_parser("open")
    o.add_argument("--url", required=True)
    o.add_argument("--tables", type=int, required=True)
    o.add_argument("--moves", type=int, default=10)
    o.add_argument("--game", default="panjpar")
    o.add_argument("--opponents", default="computer")
    o.add_argument("--concurrency", type=int, default=20)
    o.add_argument("--seed", type=int, default=1)
    o.add_argument("--out", required=True)
    w = commands.add_parser("wake")
    w.add_argument("--url", required=True)
    w.add_argument("--file", required=True)
    w.add_argument("--concurrency", type=int, default=1)
    a = commands.add_parser("wait-asleep")
    a.add_argument("--url", required=True)
    a.add_argument("--slept", type=int, required=True)
    a.add_argument("--timeout", type=float, default=120)
    f = commands.add_parser("half-sent")
    f.add_argument("--url", required=True)
    f.add_argument("--sockets", type=int, default=600)
    f.add_argument("--bytes", type=int, default=31 * 1024)
    f.add_argument("--marks", required=True)
    m = commands.add_parser("metric")
    m.add_argument("--url", required=True)
    m.add_argument("names", nargs="+")
    c = commands.add_parser("answers")
    c.add_argument("--url", required=True)
    c.add_argument("--game", default="panjpar")
    c.add_argument("--level", default="standard")
    c.add_argument("--tables", type=int, default=3)
    c.add_argument("--moves", type=int, default=20)
    c.add_argument("--seed", type=int, default=1)
    h = commands.add_parser("histogram")
    h.add_argument("--url", required=True)
    h.add_argument("name")
    args = parser.parse_args()
    run = {
        "open": open_tables,
        "wake": wake,
        "wait-asleep": wait_asleep,
        "half-sent": half_sent,
        "metric": metric,
        "histogram": histogram,
        "answers": computer_answers,
    }
    asyncio.run(run[args.command](args))


if __name__ == "__main__":
    main()
