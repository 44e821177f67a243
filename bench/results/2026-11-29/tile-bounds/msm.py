import sys,re,glob,statistics as st,collections
out=sys.argv[1]
def rd(f):
    d={}
    for L in open(f):
        m=re.match(r'^(\w+)\s+(\d+)\s+(\d+) \|\s+([\d.]+)\s+\S+\s+\S+\s+(\d+)%',L)
        if m: d[(m[1],int(m[2]))]=float(m[4])
    return d
V=collections.defaultdict(list)
for f in sorted(glob.glob(f'{out}/*.txt')): V[f.split('/')[-1].split('.')[0]].append(rd(f))
names=sorted(V); keys=list(V[names[0]][0])
print('row      '+' '.join(f'{n:>22s}' for n in names))
for k in keys:
    cells=[]
    for n in names:
        x=sorted(r[k] for r in V[n]); cells.append(f'{x[0]:.4f}/{x[len(x)//4]:.4f}/{st.median(x):.4f}')
    print(f'{k[0]:6s} {k[1]:2d} '+' '.join(f'{c:>22s}' for c in cells))
print('cells: min/q1/median us per item')
