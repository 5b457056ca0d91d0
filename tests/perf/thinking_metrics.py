"""The thinking pool's metrics for the perf scripts, read once and compared between two readings.

`python3 thinking_metrics.py < metrics.txt` turns a server's /metrics text into the JSON the scripts
keep (unbounded.sh's `thinking_metrics`): every metric summed over its labels, the pool's CPU also by
level, and the wait histogram's buckets. `Between(before, after)` gives what changed between two such
readings: a sum's difference, and a quantile of the waits as Prometheus's histogram_quantile reads it.
"""
import json
import sys


def read(lines):
    sums, wait = {}, {}
    for line in lines:
        if line.startswith("#") or not line.strip():
            continue
        name_labels, value = line.rsplit(" ", 1)
        name = name_labels.split("{", 1)[0]
        sums[name] = sums.get(name, 0.0) + float(value)
        if name.startswith("chaikhana_thinking_cpu_seconds_") and 'level="' in name_labels:
            level = name + "/" + name_labels.split('level="', 1)[1].split('"', 1)[0]
            sums[level] = sums.get(level, 0.0) + float(value)
        if name == "chaikhana_thinking_wait_seconds_bucket":
            wait[name_labels.split('le="', 1)[1].split('"', 1)[0]] = float(value)
    return {"sums": sums, "wait": wait}


class Between:
    """What the metrics counted between the readings kept at `before` and `after` (file paths)."""

    def __init__(self, before, after):
        self.before, self.after = (json.load(open(p)) for p in (before, after))

    def delta(self, name):
        return self.after["sums"].get(name, 0.0) - self.before["sums"].get(name, 0.0)

    def wait_at(self, q):
        """The q-quantile of the pool's waits between the readings, as text ("-" for none)."""
        buckets = sorted((float(le), self.after["wait"][le] - self.before["wait"].get(le, 0.0))
                         for le in self.after["wait"])
        total = buckets[-1][1] if buckets else 0
        if total <= 0:
            return "-"
        rank, low, below = q * total, 0.0, 0.0
        for le, count in buckets:
            if count >= rank:
                if le == float("inf"):
                    return f"> {low:g} s"
                return f"{(low + (le - low) * (rank - below) / max(count - below, 1e-9)) * 1000:.0f} ms"
            low, below = le, count
        return "-"


if __name__ == "__main__":
    print(json.dumps(read(sys.stdin)))
