#!/usr/bin/env python3
"""Draws throughput and p99 against tables as an SVG, from the lines tests/perf/loadgen-sweep.sh prints."""
import json
import sys

W, H, PAD = 640, 360, 60


def main(path):
    runs = []
    for line in open(path):
        tables, report = line.split(" ", 1)
        runs.append((int(tables), json.loads(report)))
    xs = [t for t, _ in runs]
    rates = [r["actions_per_second"] for _, r in runs]
    p99s = [r["p99_ms"] or 0.0 for _, r in runs]
    top_rate = max(rates) * 1.1 or 1.0
    top_p99 = max(max(p99s) * 1.1, 10.0)

    def x(i):
        return PAD + i * (W - 2 * PAD) / max(len(xs) - 1, 1)

    def y(value, top):
        return H - PAD - value * (H - 2 * PAD) / top

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<line x1="{PAD}" y1="{H-PAD}" x2="{W-PAD}" y2="{H-PAD}" stroke="black"/>',
           f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{H-PAD}" stroke="black"/>',
           f'<line x1="{W-PAD}" y1="{PAD}" x2="{W-PAD}" y2="{H-PAD}" stroke="black"/>',
           f'<text x="{W/2}" y="{H-15}" text-anchor="middle">tables</text>',
           f'<text x="{PAD}" y="{PAD-20}" fill="#1f5fa8">actions per second (solid, left; max {top_rate:.0f})</text>',
           f'<text x="{W-PAD}" y="{PAD-5}" text-anchor="end" fill="#b03a2e">p99 ms (dashed, right; max {top_p99:.1f})</text>',
           f'<line x1="{PAD}" y1="{y(10, top_p99):.1f}" x2="{W-PAD}" y2="{y(10, top_p99):.1f}" stroke="#b03a2e" stroke-opacity="0.3"/>',
           f'<text x="{W-PAD-4}" y="{y(10, top_p99)-4:.1f}" text-anchor="end" fill="#b03a2e">10 ms</text>']
    for i, t in enumerate(xs):
        out.append(f'<text x="{x(i):.1f}" y="{H-PAD+16}" text-anchor="middle">{t}</text>')
    rate_points = " ".join(f"{x(i):.1f},{y(v, top_rate):.1f}" for i, v in enumerate(rates))
    p99_points = " ".join(f"{x(i):.1f},{y(v, top_p99):.1f}" for i, v in enumerate(p99s))
    out.append(f'<polyline points="{rate_points}" fill="none" stroke="#1f5fa8" stroke-width="2"/>')
    out.append(f'<polyline points="{p99_points}" fill="none" stroke="#b03a2e" stroke-width="2" stroke-dasharray="6 4"/>')
    for i, (r, p) in enumerate(zip(rates, p99s)):
        out.append(f'<text x="{x(i):.1f}" y="{y(r, top_rate)-6:.1f}" text-anchor="middle" fill="#1f5fa8">{r:.0f}</text>')
        out.append(f'<text x="{x(i):.1f}" y="{y(p, top_p99)+16:.1f}" text-anchor="middle" fill="#b03a2e">{p:.1f}</text>')
    out.append("</svg>")
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
