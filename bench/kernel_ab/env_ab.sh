#!/bin/bash
# env_ab.sh ROUNDS "PREC ROUTINE N BATCH" ... -- A/B of backend settings, one process per
# measurement: CFGS="name=VAR=value VAR2=value;name2=..." (the first configuration is the
# base; an empty setting is the defaults), alternated within each job of each round, each
# run a fresh kobalt-one-call (ONE_CALL, default build-host/bin/kobalt-one-call; REPS, default 7).
# Pipe the output into env_ab_summary.py for base / configuration per job, paired by round:
#   CFGS="base=;tiles=KOBALT_PACKED_TILE_MAX_BYTES=512" bench/kernel_ab/env_ab.sh 5 \
#       "d getrf 8 131072" "d fused 7 131072" | tee ab.txt | bench/kernel_ab/env_ab_summary.py
set -eu
[ $# -ge 2 ] || { echo "usage: CFGS='a=ENV;b=ENV' $0 ROUNDS 'PREC ROUTINE N BATCH' ..." >&2; exit 2; }
rounds=$1; shift
bin=${ONE_CALL:-build-host/bin/kobalt-one-call}
IFS=';' read -ra cfgs <<< "${CFGS:?CFGS names the configurations}"
for r in $(seq "$rounds"); do
  for job in "$@"; do
    read -r prec routine n batch <<< "$job"
    for c in "${cfgs[@]}"; do
      name=${c%%=*}; settings=${c#*=}
      [ "$settings" = "$c" ] && settings=""
      # shellcheck disable=SC2086 # settings are VAR=value words
      echo "$name $(env $settings OMP_WAIT_POLICY=PASSIVE "$bin" "$prec" "$routine" "$n" "$batch" "${REPS:-7}")"
    done
  done
done
