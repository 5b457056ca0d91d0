#!/usr/bin/env python3
"""Quick pairing ("Play a person now") under a minute of arrivals; Python's standard library only.

    pairing.py --nodes URL [URL ...] [--visitors N] [--duration S] [--mix GAME[:LENGTH]=WEIGHT ...]
               [--patience S] [--seed K]

N visitors arrive at random times spread uniformly over S seconds, through the nodes in turn by
their order of arrival (two nodes sharing a Redis, or one node alone). Each is a page with a browser
id of its own: it enters its queue (POST /api/pairing), then asks where it stands (POST
/api/pairing/ask) every 500 ms through the node it arrived on, over a keep-alive connection of its
own, until seated; seated, it asks once more and must be told the same place. One unseated after
--patience seconds leaves (POST /api/pairing/leave). --mix draws each visitor's game and length by
weight (default panjpar:1=1; e.g. panjpar:1=4 ganjifa:3=1). The time to pair runs from sending the
entry to reading the answer that seats the visitor: the entry itself for the one who completes a
table, the next ask (up to 500 ms later) for those who waited.

Checks, and exits 1 if any fails:
- every visitor was seated once (and told the same place when it asked again), or is one of at most
  needed - 1 left over in its queue at the end; no refused or failed request, no lost ticket (404);
- every table has its game's seat count of visitors, all of one queue, on seats 0..needed-1; no
  (table, seat) and no token given twice;
- nobody waited while a partner waited: the span each visitor surely waited (from reading its first
  "waiting" to sending the request of its last) never overlaps those of needed - 1 others of its
  queue, and no answer counts needed or more waiting;
- the nodes' own counts (/metrics, before and after): the tables the pairing made are those the
  visitors were seated at, and no waiting visitor was dropped as gone silent.
"""

import argparse
import asyncio
import collections
import json
import math
import random
import sys
import time
import urllib.parse

SEATS = {"panjpar": 2, "pishe-pasha": 2, "ganjifa": 3}
ASK_EVERY = 0.5


class Http:
    """One keep-alive HTTP/1.1 connection to a node, opened when first used and again if the node
    closed it while it was kept."""

    def __init__(self, base):
        url = urllib.parse.urlsplit(base)
        self.host, self.port = url.hostname, url.port or 80
        self.reader = self.writer = None

    async def request(self, method, path, body=None, timeout=10.0):
        """Answers (status, the body as JSON, or as text if it is not JSON)."""
        for _ in range(2):
            fresh = self.writer is None
            if fresh:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            try:
                return await asyncio.wait_for(self.exchange(method, path, body), timeout)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if fresh:
                    raise
            except BaseException:
                self.close()
                raise

    async def exchange(self, method, path, body):
        data = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n")
        self.writer.write(head.encode() + data)
        await self.writer.drain()
        status = int((await self.reader.readuntil(b"\r\n")).split()[1])
        headers = {}
        while (line := await self.reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip().lower()
        if "content-length" not in headers:
            raise ValueError(f"{method} {path} answered {status} with no Content-Length")
        payload = await self.reader.readexactly(int(headers["content-length"]))
        if headers.get("connection") == "close":
            self.close()
        try:
            return status, json.loads(payload)
        except ValueError:
            return status, payload.decode(errors="replace")

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Visitor:
    """A page in the queue: where it arrives and goes, and what its answers told it."""

    def __init__(self, number, run, at, node, game, length):
        self.number, self.at, self.node, self.game, self.length = number, at, node, game, length
        self.queue, self.needed = game if length is None else f"{game}:{length}", SEATS[game]
        self.browser = f"bench-{run}-{number:05d}"
        self.entered = self.late = self.paired_ms = self.problem = None
        self.place = None  # (table, seat, token)
        self.surely_waiting = [None, None]  # read the first "waiting", sent the last
        self.on_entry = self.left = False
        self.most_waiting = 0

    def stand(self, answer, sent, read, on_entry=False):
        state = answer.get("state")
        if state == "waiting":
            if self.surely_waiting[0] is None:
                self.surely_waiting[0] = read
            self.surely_waiting[1] = sent
            self.most_waiting = max(self.most_waiting, answer["waiting"])
        elif state == "seated":
            self.place = (answer["table"], answer["seat"], answer["token"])
            self.paired_ms = (read - self.entered) * 1000
            self.on_entry = on_entry
            if answer.get("link") != f"/t/{answer['table']}":
                self.problem = f"seated with the link {answer.get('link')!r}"
        elif state != "forming":
            raise ValueError(f"an answer of no known state: {answer}")


async def visit(v, began, patience, stats):
    await asyncio.sleep(max(0.0, began + v.at - time.monotonic()))
    http = Http(v.node)

    async def post(path, body):
        stats["requests"] += 1
        return await http.request("POST", path, body)

    try:
        v.entered = time.monotonic()
        v.late = v.entered - began - v.at
        body = {"game": v.game, "length": v.length, "browser": v.browser}
        status, answer = await post("/api/pairing", body)
        if status != 201:
            v.problem = f"the entry answered {status}: {answer}"
            return
        ticket = {"ticket": answer["ticket"]}
        v.stand(answer, v.entered, time.monotonic(), on_entry=True)
        while v.place is None:
            now = time.monotonic()
            if now - v.entered > patience:
                status, answer = await post("/api/pairing/leave", ticket)
                v.left = True
                if status != 200 or answer.get("left") is not True:
                    v.problem = f"leaving after {patience} s answered {status}: {answer}"
                return
            await asyncio.sleep(ASK_EVERY * (math.floor((now - v.entered) / ASK_EVERY) + 1)
                                - (now - v.entered))
            sent = time.monotonic()
            status, answer = await post("/api/pairing/ask", ticket)
            if status != 200:
                v.problem = f"an ask answered {status}: {answer}"
                return
            v.stand(answer, sent, time.monotonic())
        status, again = await post("/api/pairing/ask", ticket)
        if status != 200 or (again.get("table"), again.get("seat"), again.get("token")) != v.place:
            v.problem = f"asked again once seated, answered {status}: {again}"
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError, KeyError,
            AttributeError) as e:
        v.problem = f"{type(e).__name__}: {e}"
    finally:
        http.close()


async def scrape(base):
    """The node's pairing metrics, each summed over its labels (leaves by how); None if unread."""
    http = Http(base)
    status, text = await http.request("GET", "/metrics")
    http.close()
    sums = collections.Counter()
    for line in text.splitlines() if status == 200 else []:
        name, _, value = line.rpartition(" ")
        if name.startswith("chaikhana_pair"):
            key = name.split("{")[0]
            if 'how="' in name:
                key += "/" + name.split('how="')[1].split('"')[0]
            sums[key] += float(value)
    return sums if status == 200 else None


def most_at_once(spans):
    """The most spans overlapping at one moment (one ending as another begins is not counted)."""
    events = sorted([(a, 1) for a, b in spans if b > a] + [(b, -1) for a, b in spans if b > a])
    most = now = 0
    for _, step in events:
        now += step
        most = max(most, now)
    return most


def rank(values, q):
    values = sorted(values)
    return round(values[max(0, math.ceil(q * len(values)) - 1)], 1) if values else None


def report(visitors, args, before, after, requests, elapsed):
    """Prints the run's figures; answers the checks that failed."""
    problems = [v for v in visitors if v.problem]
    failed = [f"visitor {v.number} ({v.queue}, {v.node}): {v.problem}" for v in problems[:5]]
    if len(problems) > 5:
        failed.append(f"... and {len(problems) - 5} more visitors with a problem")
    queues = collections.defaultdict(list)
    for v in visitors:
        queues[v.queue].append(v)
    at_once = {}
    for queue, members in sorted(queues.items()):
        needed = members[0].needed
        left = sum(v.left for v in members)
        if left > needed - 1:
            failed.append(f"{queue}: {left} visitors left unpaired (at most {needed - 1} may be)")
        at_once[queue] = most_at_once([v.surely_waiting for v in members
                                       if v.surely_waiting[1] is not None])
        if at_once[queue] >= needed:
            failed.append(f"{queue}: {at_once[queue]} visitors surely waited at once")
        most = max(v.most_waiting for v in members)
        if most >= needed:
            failed.append(f"{queue}: an answer counted {most} waiting, enough for a table")
    seated = [v for v in visitors if v.place]
    tables = collections.defaultdict(list)
    for v in seated:
        tables[v.place[0]].append(v)
    for table, members in tables.items():
        seats = sorted(v.place[1] for v in members)
        if len({v.queue for v in members}) != 1 or seats != list(range(members[0].needed)):
            failed.append(f"table {table}: seats {seats} for {[v.queue for v in members]}")
    for what, count in collections.Counter([v.place[:2] for v in seated]
                                           + [v.place[2] for v in seated]).items():
        if count > 1:
            failed.append(f"{what} given {count} times")
    read = None not in before + after

    def grown(metric):
        return sum(a[metric] - b[metric] for b, a in zip(before, after)) if read else 0

    made, gone = grown("chaikhana_pairs_made_total"), grown("chaikhana_pairing_leaves_total/gone")
    if not read:
        failed.append("the nodes' /metrics could not be read")
    elif made != len(tables):
        failed.append(f"the nodes made {made:.0f} tables, the visitors sat at {len(tables)}")
    if gone:
        failed.append(f"the nodes dropped {gone:.0f} waiting visitors as gone silent")
    wait = grown("chaikhana_pairing_wait_seconds_sum") * 1000
    wait /= max(1, grown("chaikhana_pairing_wait_seconds_count"))
    by_node = " + ".join(str(sum(v.node == n for v in visitors)) for n in args.nodes)
    print(f"{len(visitors)} visitors over {args.duration:g} s through {len(args.nodes)} node(s) "
          f"({by_node}): {', '.join(f'{q} {len(m)}' for q, m in sorted(queues.items()))}; "
          f"{requests} requests in {elapsed:.1f} s")
    across = sum(len({v.node for v in m}) > 1 for m in tables.values())
    print(f"seated {len(seated)} ({sum(v.on_entry for v in seated)} by their own entry), left over "
          f"{sum(v.left for v in visitors)}, with a problem {len(problems)}; tables {len(tables)} "
          f"({across} of them across nodes)")
    by_entry = [v.paired_ms for v in seated if v.on_entry]
    by_ask = [v.paired_ms for v in seated if not v.on_entry]
    times = [f"{what}: p50 {rank(ms, 0.5)} ms, p99 {rank(ms, 0.99)} ms, max {rank(ms, 1)} ms"
             for what, ms in (("time to pair", by_entry + by_ask),
                              ("seated by their entry", by_entry), ("by an ask", by_ask))]
    print("; ".join(times))
    print(f"most surely waiting at once: {', '.join(f'{q} {n}' for q, n in at_once.items())}; "
          f"the nodes' tables made {made:.0f}, their mean wait {wait:.1f} ms; entries late "
          f"p99 {rank([v.late * 1000 for v in visitors if v.late is not None], 0.99)} ms")
    print("checks: " + ("all passed" if not failed else "FAILED\n  " + "\n  ".join(failed)))
    return failed


def queue_of(text):
    """GAME[:LENGTH][=WEIGHT] as (game, length or None, weight); a length is a number or a name."""
    queue, _, weight = text.partition("=")
    game, _, length = queue.partition(":")
    if game not in SEATS:
        raise argparse.ArgumentTypeError(f"no game {game!r}: {', '.join(SEATS)}")
    return game, int(length) if length.isdigit() else length or None, float(weight or 1)


async def run(args):
    rng = random.Random(args.seed)
    queues, weights = [q[:2] for q in args.mix], [q[2] for q in args.mix]
    run_id = f"{rng.getrandbits(32):08x}"
    arrivals = sorted(rng.uniform(0, args.duration) for _ in range(args.visitors))
    visitors = [Visitor(i, run_id, at, args.nodes[i % len(args.nodes)],
                        *rng.choices(queues, weights)[0])
                for i, at in enumerate(arrivals)]
    before = [await scrape(n) for n in args.nodes]
    stats = {"requests": 0}
    began = time.monotonic() + 0.5
    await asyncio.gather(*(visit(v, began, args.patience, stats) for v in visitors))
    elapsed = time.monotonic() - began
    after = [await scrape(n) for n in args.nodes]
    return report(visitors, args, before, after, stats["requests"], elapsed)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", nargs="+", required=True, help="the nodes' base URLs")
    parser.add_argument("--visitors", type=int, default=2000)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of arrivals")
    parser.add_argument("--mix", nargs="+", type=queue_of, default=[("panjpar", 1, 1.0)],
                        help="GAME[:LENGTH]=WEIGHT")
    parser.add_argument("--patience", type=float, default=15.0, help="seconds before leaving")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.exit(1 if asyncio.run(run(args)) else 0)


if __name__ == "__main__":
    main()
