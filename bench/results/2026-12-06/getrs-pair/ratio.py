# ratio.py AB.TXT -- per layout, precision and n: for each configuration, the median over the
# rounds of (best peer time / Kobalt time) taken within each kobalt-bench line, so that the
# machine's slow and fast memory phases (times here jump by 1.5x between invocations) cancel.
import re, collections, statistics, sys
d = collections.defaultdict(list)
cfgs = []
cur = None
for l in open(sys.argv[1]):
    m = re.match(r'== (\S+) layout (\S+)', l)
    if m:
        cur = m.groups()
        if cur[0] not in cfgs: cfgs.append(cur[0])
        continue
    m = re.match(r'([ds])(\w+)\s+(\d+)\s+\d+ \|\s+(\S+)', l)
    if m and cur:
        prec, rt, n, t = m.groups()
        peers = [float(x) for x in l.split('|')[2].split() if x != '-']
        if peers: d[(cur[1], prec + rt, int(n), cur[0])].append(min(peers) / float(t))
print("layout routine n: median (min..max) of best-peer / Kobalt within each line, per configuration:", *cfgs)
for key in sorted({k[:3] for k in d}):
    row = []
    for c in cfgs:
        v = d[key + (c,)]
        row.append(f"{statistics.median(v):.2f} ({min(v):.2f}..{max(v):.2f})")
    print(*key, " | ".join(row))
