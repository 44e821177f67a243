#!/bin/bash
# ab.sh ROUNDS "routine n batch" ...: CFGS="name=ENV VARS;name2=ENV VARS" alternated within
# each job of each round, one process per measurement (./$LOOP, default ./loop: loop.c built
# against the plugin, e.g. gcc -O2 -fopenmp loop.c -I include -L build-host/lib -lkobalt
# -Wl,-rpath,build-host/lib -o loop; -DLOOP_FLOAT for float). med.py OUT BASE: BASE / config.
R=$1; shift; jobs=("$@")
IFS=';' read -ra cs <<< "$CFGS"
for r in $(seq $R); do for job in "${jobs[@]}"; do read -r w n b <<< "$job"; for c in "${cs[@]}"; do name=${c%%=*}; env=${c#*=}; echo "$name $(env $env OMP_WAIT_POLICY=PASSIVE ./${LOOP:-loop} $n $b 7 $w)"; done; done; done
