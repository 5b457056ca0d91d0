#!/usr/bin/env python3
"""Makes the site's sounds and its favicon from nothing but arithmetic, so that every byte of them is
the project's own (dedicated to the public domain, CC0 1.0, like this script). Run from the
repository's root: python3 tools/make-assets.py. Writes src/web/static/sounds/*.wav and
src/web/static/favicon.ico."""

import math
import random
import struct
import wave
import zlib

RATE = 22050


def write_wav(path, samples):
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(b"".join(struct.pack("<h", int(max(-1, min(1, s)) * 32000)) for s in samples))


def envelope(t, attack, decay):
    return min(1.0, t / attack) * math.exp(-t / decay) if attack else math.exp(-t / decay)


def card():
    """A card laid on cloth: a short burst of filtered noise."""
    rng = random.Random(7)
    n = int(RATE * 0.09)
    out, last = [], 0.0
    for i in range(n):
        t = i / RATE
        last = 0.55 * last + 0.45 * rng.uniform(-1, 1)
        out.append(0.8 * last * envelope(t, 0.002, 0.018))
    return out


def tones(notes, length, decay, volume=0.45):
    """Soft bell-like notes, one after another: (frequency, start in s)."""
    n = int(RATE * length)
    out = [0.0] * n
    for freq, start in notes:
        for i in range(int(RATE * start), n):
            t = i / RATE - start
            e = envelope(t, 0.004, decay)
            out[i] += volume * e * (math.sin(2 * math.pi * freq * t) + 0.3 * math.sin(4 * math.pi * freq * t))
    return out


def png(size, pixel):
    raw = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(size)) for y in range(size))
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def favicon():
    """A cream card with a teal border and a red diamond, on a transparent ground."""
    size = 32

    def pixel(x, y):
        inside = 5 <= x <= 26 and 1 <= y <= 30
        if not inside:
            return (0, 0, 0, 0)
        border = x in (5, 6, 25, 26) or y in (1, 2, 29, 30)
        if border:
            return (21, 94, 99, 255)
        if abs(x - 15.5) / 6.5 + abs(y - 15.5) / 9.5 <= 1:
            return (178, 34, 52, 255)
        return (251, 246, 233, 255)

    image = png(size, pixel)
    entry = struct.pack("<BBBBHHII", size, size, 0, 0, 1, 32, len(image), 6 + 16)
    return struct.pack("<HHH", 0, 1, 1) + entry + image


if __name__ == "__main__":
    base = "src/web/static"
    write_wav(f"{base}/sounds/card.wav", card())
    write_wav(f"{base}/sounds/turn.wav", tones([(660, 0), (880, 0.09)], 0.35, 0.08, 0.3))
    write_wav(f"{base}/sounds/won.wav", tones([(523, 0), (659, 0.1), (784, 0.2), (1047, 0.3)], 0.8, 0.16))
    write_wav(f"{base}/sounds/lost.wav", tones([(392, 0), (330, 0.14), (262, 0.28)], 0.7, 0.16))
    with open(f"{base}/favicon.ico", "wb") as out:
        out.write(favicon())
