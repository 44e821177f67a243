# med.py OUT BASE: from ab.sh's output, BASE's time / each other configuration's, per job, paired
# within each round; median (min..max).
import sys,collections,statistics as st
d=collections.defaultdict(list)
rows=[l.split() for l in open(sys.argv[1]) if l.strip()]
# pair each config line with the base config line of the same job in the same round
base=sys.argv[2]; last={}
for f in rows:
    name=f[0]; job=f[1]+' '+f[2]; v=float(f[4])
    if name==base: last[job]=v
    elif job in last: d[(job,name)].append(last[job]/v)
for k in sorted(d): print(k[0],k[1],'%s / it: median %.3f (%.3f..%.3f) n=%d'%(base,st.median(d[k]),min(d[k]),max(d[k]),len(d[k])))
