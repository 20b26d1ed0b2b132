#!/bin/sh
# final.sh -- the last pass after shares.sh, run once every task of the
# array has ended however it ended (--dependency=afterany): the whole
# collection, where every document a task finished is up to date and a
# document no task finished is translated, its sentences taken from the
# cache where a task sent them. Its report says what was left: after
# tasks that all succeeded, 0 documents translated and 0 segments sent.
# Same environment as shares.sh.
#SBATCH --cpus-per-task=4
set -eu
: "${DOCS:?} ${OUT:?} ${CACHE:?}"
exec "${XLIFFMT:-xliffmt}" batch "$DOCS" -o "$OUT" \
  -s "${SOURCE:-en}" -t "${TARGET:-es}" --mt "${MT:-apertium:eng-spa}" \
  -j "${SLURM_CPUS_PER_TASK:-1}" -q --cache "$CACHE" \
  --report "$OUT.final.json"
