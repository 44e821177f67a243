#!/usr/bin/env python3
# var_table.py DIR ARM,ARM,... -- Kobalt us per item, median over the rounds, per arm (* = fastest)
import csv, glob, os, re, statistics, sys
from collections import defaultdict
d = sys.argv[1]; arms = sys.argv[2].split(',')
t = defaultdict(list)
for f in glob.glob(os.path.join(d, '*.csv')):
    m = re.match(r"(\w+)-mem-(\w+)-(\d+)\.csv", os.path.basename(f))
    if not m: continue
    for r in csv.DictReader(open(f)):
        if r['contender'] == 'kobalt' and r['ok'] == '1':
            t[(m.group(1), r['prec'], int(r['n']), m.group(2))].append(float(r['us_per_item']))
cfgs = sorted({k[0] for k in t}); ns = sorted({k[2] for k in t})
for cfg in cfgs:
    for p in 'ds':
        print(f"{cfg} {p}: us/item medians; arms {arms}")
        for n in ns:
            vals = [statistics.median(t[(cfg,p,n,a)]) if t.get((cfg,p,n,a)) else float('nan') for a in arms]
            best = min(vals)
            print(f"  n={n:4d} " + " ".join(f"{v:8.4g}{'*' if v==best else ' '}" for v in vals))
