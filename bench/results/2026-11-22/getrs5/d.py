import re,sys,difflib
exec(open(__file__.replace('d.py','split.py')).read().split('o=ents')[0])
a=ents(sys.argv[1]); b=ents(sys.argv[2])
for k in sorted(b):
    if k in a:
        if a[k]==b[k]: print(k,'IDENTICAL'); continue
        d=[l for l in difflib.unified_diff(a[k].splitlines(),b[k].splitlines(),lineterm='',n=0) if l[:1] in '+-' and not l.startswith(('---','+++'))]
        print(k,'DIFF',len(d)); print('\n'.join(d[:8]))
