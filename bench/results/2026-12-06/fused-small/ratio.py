import sys, re, statistics as st, collections
d=collections.defaultdict(list)
cfg=None
for l in open(sys.argv[1]):
    m=re.match(r'== (\S+) layout (\S+)',l)
    if m: cfg,lay=m.groups(); continue
    f=l.split()
    if len(f)>10 and f[0].endswith('fused'):
        kob=float(f[4]); k3=float(f[-3])
        d[(lay,f[0],int(f[1]),cfg)].append(k3/kob)
cfgs=sorted({k[3] for k in d})
print('kobalt3 / fused within each line, median (min..max):', cfgs)
for key in sorted({k[:3] for k in d}):
    print(*key, ' | '.join('%s %.2f (%.2f..%.2f)'%(c,st.median(d[key+(c,)]),min(d[key+(c,)]),max(d[key+(c,)])) for c in cfgs if key+(c,) in d))
