import csv,statistics,collections,sys
R=sys.argv[1]; K=int(sys.argv[2])
t=collections.defaultdict(lambda: collections.defaultdict(list))
for s in 'AB':
    for k in range(1,K+1):
        for r in csv.DictReader(open(f'{R}/{s}_{k}.csv')):
            t[(r['prec'],r['layout'],r['trans'],r['beta'],int(r['n']))][s].append(float(r['median_s']))
rows=collections.defaultdict(dict)
for key,v in t.items():
    sp=[a/b for a,b in zip(v['A'],v['B'])]
    rows[key[:4]][key[4]]=(statistics.median(sp),min(sp),max(sp))
ns=sorted({k[4] for k in t})
print('| prec layout trans beta | '+' | '.join(f'n={n}' for n in ns)+' |')
print('|---|'+'---|'*len(ns))
for key in sorted(rows):
    print('| '+' '.join(key)+' | '+' | '.join(f'{rows[key][n][0]:.2f} [{rows[key][n][1]:.2f}-{rows[key][n][2]:.2f}]' for n in ns)+' |')
