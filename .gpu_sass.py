# TEMPORARY (semimm device call 1): opcode histograms of the double tile instances' SASS
import re, sys, collections, os
src, out = sys.argv[1], sys.argv[2]
funcs = {}; cur = None
for line in open(src):
    m = re.search(r'Function : (\S+)', line)
    if m: cur = m.group(1); funcs[cur] = []; continue
    if cur is None: continue
    m = re.match(r'\s+/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)', line)
    if m: funcs[cur].append(line.rstrip())
pat = re.compile(r'semiring_tileILi(20[26])ELi([34])ELi([0-9])EdNS_7Strided')
for f, lines in sorted(funcs.items()):
    m = pat.search(f)
    if not m: continue
    s, tm, v = m.groups()
    name = f"{'minplus' if s=='202' else 'minmax'}_tm{tm}_v{v}"
    hist = collections.Counter(re.match(r'\s+/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9]*)', l).group(1) for l in lines)
    top = ' '.join(f'{k}:{c}' for k, c in hist.most_common(14))
    print(f'{name}: {len(lines)} instr | {top}')
    if (tm, v) in (('4','0'), ('4','1'), ('4','3'), ('3','0'), ('3','7')) and s == '202' or (s=='206' and tm=='4' and v in '01'):
        open(os.path.join(out, name + '.sass'), 'w').write('\n'.join(lines))
