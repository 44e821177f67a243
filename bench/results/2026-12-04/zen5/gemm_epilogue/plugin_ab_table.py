# table.py AB.TXT -- per layout, precision and n: the median time (us per item) of OLD and
# NEW over run.sh's rounds, NEW's speedup over OLD, and the best peer's (KokkosBatched or
# Eigen, whichever column was faster in each line) median time over NEW's.
import re, collections, statistics, sys
d = collections.defaultdict(list)
cur = None
for l in open(sys.argv[1]):
    m = re.match(r'== (\S+) layout (\S+)', l)
    if m: cur = m.groups(); continue
    m = re.match(r'([ds])(\w+)\s+(\d+)\s+\d+ \|\s+(\S+)', l)
    if m and cur:
        prec, rt, n, t = m.groups()
        d[(cur[1], prec + rt, int(n), cur[0])].append(float(t))
        peers = [float(x) for x in l.split('|')[2].split() if x != '-']
        d[(cur[1], prec + rt, int(n), 'peer')].append(min(peers))
print("layout routine n: OLD NEW (us/item, medians) NEW-speedup  best-peer/OLD best-peer/NEW")
for key in sorted({k[:3] for k in d}):
    o, nw, pr = (statistics.median(d[key + (c,)]) for c in ('OLD', 'NEW', 'peer'))
    print(*key, f"{o:.4f} {nw:.4f} {o / nw:.2f}x  {pr / o:.2f} {pr / nw:.2f}")
