# table.py AB.TXT -- per layout, precision and n: each configuration's median time (us per
# item) over the rounds, and in brackets the best peer's median time over it (>= 1: ahead).
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
        d[(cur[1], prec + rt, int(n), cur[0])].append(float(t))
        peers = [float(x) for x in l.split('|')[2].split() if x != '-']
        if peers: d[(cur[1], prec + rt, int(n), 'peer')].append(min(peers))
print("layout routine n:", " ".join(f"{c} (peer/{c})" for c in cfgs), " peer")
for key in sorted({k[:3] for k in d}):
    pr = statistics.median(d[key + ('peer',)]) if d[key + ('peer',)] else float('nan')
    row = []
    for c in cfgs:
        t = statistics.median(d[key + (c,)])
        row.append(f"{t:.4f} ({pr / t:.2f})")
    print(*key, " ".join(row), f" {pr:.4f}")
