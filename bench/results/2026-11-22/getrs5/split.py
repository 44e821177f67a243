import re,sys
def ents(f):
    t=open(f).read(); out={}
    parts=re.split(r'\n(?=\.visible \.entry|\.entry|\.weak \.entry)',t)
    for p in parts:
        m=re.search(r'getrs_pipeILi(\d)ELi(\d)ENS_(\w+?)IKd',p)
        if m and '.entry' in p.split('\n')[0]:
            key=m.groups(); body=re.sub(r"\$L__BB\d+_","L_",re.sub(r"_GLOBAL__N__\w+?_keep","",p)); out[key]=body
    return out
o=ents('old.ptx'); n=ents('new.ptx')
for k in sorted(n):
    if k in o: print(k, 'IDENTICAL' if o[k]==n[k] else 'DIFF', len(o[k].splitlines()), len(n[k].splitlines()))
    else: print(k,'new only', len(n[k].splitlines()))
