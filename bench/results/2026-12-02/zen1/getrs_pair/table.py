# table.py AB.TXT -- medians per layout, precision and n of run.sh's configurations, with
# Eigen's time over each (above 1: faster than Eigen).
import re, collections, statistics, sys
d = collections.defaultdict(list)
cur = None
for l in open(sys.argv[1]):
    m = re.match(r'== (\S+) layout (\S+)', l)
    if m: cur = m.groups(); continue
    m = re.match(r'([ds])getrs\s+(\d+)\s+\d+ \|\s+(\S+)', l)
    if m and cur:
        prec, n, t = m.groups()
        d[(cur[1], prec, int(n), cur[0])].append(float(t))
        d[(cur[1], prec, int(n), 'eigen')].append(float(l.split('|')[2].split()[3]))
print("layout prec n: median us (Eigen / it) for P6 P4 P0 FIX; Eigen")
for lay in ['col', 'row']:
    for p in 'ds':
        for n in range(2, 7):
            row = [statistics.median(d[(lay, p, n, c)]) for c in ['P6', 'P4', 'P0', 'FIX', 'eigen']]
            print(lay, p, n, ' '.join(f"{x:.4f}({row[4] / x:.2f})" for x in row[:4]), f"eigen {row[4]:.4f}")
