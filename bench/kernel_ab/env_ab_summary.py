#!/usr/bin/env python3
"""env_ab_summary.py [FILE]: env_ab.sh's output (stdin without FILE) as, per job and
configuration, the base configuration's time / this one's (above 1: faster than the base),
paired within each round: median (min .. max) over the rounds. The base is the first
configuration of the first job."""
import collections
import statistics
import sys

lines = [l.split(None, 1) for l in (open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin) if l.strip()]
base = lines[0][0] if lines else None
last, ratios = {}, collections.defaultdict(list)
for name, rest in lines:
    job, value = rest.split(':')
    ns = float(value.split()[0])
    if name == base:
        last[job] = ns
    elif job in last:
        ratios[(job, name)].append(last[job] / ns)
for (job, name), r in sorted(ratios.items()):
    print(f'{job}: {base} / {name} median {statistics.median(r):.3f} ({min(r):.3f} .. {max(r):.3f}), {len(r)} rounds')
