#!/usr/bin/env python3
"""How long a deal takes to start as a page sees it, with the page's part in the fair shuffle.

    deal-start.py --url URL [--game G] [--tables N] [--seed S]

For each of N computer tables in turn: opens it (POST /api/tables), connects its seat, says hello and
takes a page's part in the shuffle: a pledge (the SHA-256 of its number) on the first view that shows
a coming deal, its number on the `shuffle` frame that closes the list of pledges. It times:

- first: from the hello to the first view of the table's first deal (the pledge and the number go
  between them, one round trip each);
- next: from `next-deal` to the first view of the second deal, whose pledge and number were sent
  while the first was played.

It plays the first deal out with random actions (run the server with a short `bot_delay_ms`).
Prints one JSON object: p50 and p99 of each in ms, and the frames the seat sent before each deal.
Run it against a server with `shuffle_wait_ms=0` (the deal dealt at once, no number asked for) for
the floor. Python's standard library only (3.11 or later).
"""

import argparse
import asyncio
import json
import random
import time
import urllib.parse

from tables import Http, Page, Socket


async def next_view(socket, page, status):
    """Reads frames, answering them as a page does, until a view; keeps its status in `status`."""
    while True:
        frame = await asyncio.wait_for(socket.receive(), 30)
        if frame is None:
            raise ConnectionError("the server closed the socket")
        await page.answer(socket, frame)
        if frame["type"] == "view":
            status[0] = frame.get("status", status[0])
            return frame


async def until_playing(socket, page, status):
    """Reads frames, answering them as a page does, until a view of a deal being played."""
    while True:
        frame = await next_view(socket, page, status)
        if status[0] == "playing":
            return frame


async def one_table(host, port, http, game, rng):
    status, body = await http.request("POST", "/api/tables", {"game": game, "opponents": "computer"})
    if status != 201:
        raise SystemExit(f"POST /api/tables answered {status}: {body[:200]!r}")
    answer = json.loads(body)
    socket = await Socket.connect(host, port, f"/ws/{answer['table']}")
    page, state = Page(rng), [None]
    started = time.perf_counter()
    await socket.send({"type": "hello", "token": answer["token"]})
    view = await until_playing(socket, page, state)
    first = time.perf_counter() - started
    sent_first = page.sent
    # The first deal played out at random, its next deal's pledge and number sent on the way.
    version = view["version"]
    while state[0] == "playing":
        if view.get("actions"):
            await socket.send({"type": "action", "version": version, "action": rng.choice(view["actions"])})
        view = await next_view(socket, page, state)
        version = view["version"]
    sent_before_next = page.sent
    started = time.perf_counter()
    if state[0] == "match-over":
        await socket.send({"type": "rematch", "version": version})
    else:
        await socket.send({"type": "next-deal", "version": version})
    await until_playing(socket, page, state)
    following = time.perf_counter() - started
    await socket.close()
    return first, following, sent_first, page.sent - sent_before_next


async def run(args):
    url = urllib.parse.urlsplit(args.url)
    host, port = url.hostname, url.port or 80
    rng = random.Random(args.seed)
    http = Http(host, port)
    firsts, nexts, sent_first, sent_next = [], [], [], []
    for _ in range(args.tables):
        first, following, a, b = await one_table(host, port, http, args.game, rng)
        firsts.append(first)
        nexts.append(following)
        sent_first.append(a)
        sent_next.append(b)
    http.close()

    def at(values, q):
        values = sorted(values)
        return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 2)

    print(json.dumps({
        "game": args.game,
        "tables": args.tables,
        "first_deal_p50_ms": at(firsts, 0.5),
        "first_deal_p99_ms": at(firsts, 0.99),
        "next_deal_p50_ms": at(nexts, 0.5),
        "next_deal_p99_ms": at(nexts, 0.99),
        "frames_sent_before_first_deal": max(sent_first),
        "frames_sent_after_next_deal_asked": max(sent_next),
    }))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--game", default="panjpar")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
