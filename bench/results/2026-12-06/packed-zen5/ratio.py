# ratio.py SWEEP [BASE]: per routine, layout and n, each configuration's time against BASE
# (default: "default") in the same round (BASE / config: > 1 means the configuration is faster), median and range
# over the rounds; for the fused lines also kobalt3 / fused within each line (goal 3.3).
import sys, re, statistics as st, collections
t = collections.defaultdict(dict)    # (round, layout, routine, n) -> {cfg: time}
k3 = collections.defaultdict(list)   # (layout, routine, n, cfg) -> [kobalt3 / kobalt]
cfg = None
for l in open(sys.argv[1]):
    m = re.match(r'== (\S+) layout (\S+) round (\d+)', l)
    if m: cfg, lay, rnd = m.groups(); continue
    f = l.split()
    if len(f) < 10: continue
    key = (rnd, lay, f[0], int(f[1]))
    t[key][cfg] = float(f[4])
    if f[0].endswith('fused') and f[-3] != '-':
        k3[(lay, f[0], int(f[1]), cfg)].append(float(f[-3]) / float(f[4]))
base = sys.argv[2] if len(sys.argv) > 2 else 'default'
cfgs = sorted({c for v in t.values() for c in v if c != base})
r = collections.defaultdict(list)
for (rnd, lay, rt, n), v in t.items():
    for c in cfgs:
        if c in v and base in v: r[(lay, rt, n, c)].append(v[base] / v[c])
fmt = lambda xs: '%.2f (%.2f..%.2f)' % (st.median(xs), min(xs), max(xs))
print(base, '/ configuration, same round, median (min..max); for fused: kobalt3 / fused per configuration')
for key in sorted({k[:3] for k in r}):
    line = ' | '.join('%s %s' % (c, fmt(r[key + (c,)])) for c in cfgs if key + (c,) in r)
    if key[1].endswith('fused'):
        line += ' || k3/fused ' + ' '.join('%s %.2f' % (c, st.median(k3[key + (c,)])) for c in [base] + cfgs if key + (c,) in k3)
    print(*key, line)
