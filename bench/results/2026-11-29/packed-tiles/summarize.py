# summarize.py OUTDIR ROUNDS: medians of old/new per row and the range of per-round old/new time ratios (ab.sh prints the same)
import sys,re,statistics as st
out,R=sys.argv[1],int(sys.argv[2])
def rd(f):
    d={}
    for L in open(f):
        m=re.match(r'^(\w+)\s+(\d+)\s+(\d+) \|\s+([\d.]+)\s+\S+\s+\S+\s+(\d+)%',L)
        if m: d[(m[1],int(m[2]))]=(float(m[4]),int(m[5]))
    return d
o=[rd(f'{out}/old.{r}.txt') for r in range(1,R+1)]; n=[rd(f'{out}/new.{r}.txt') for r in range(1,R+1)]
for k in o[0]:
    rs=[a[k][0]/b[k][0] for a,b in zip(o,n)]
    print(f'{k[0]:8s} {k[1]:3d} old {st.median([a[k][0] for a in o]):.4f} new {st.median([b[k][0] for b in n]):.4f}  speedup {min(rs):.2f}-{max(rs):.2f}  %bw old {st.median([a[k][1] for a in o])} new {st.median([b[k][1] for b in n])}')
