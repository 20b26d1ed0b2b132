#!/bin/sh
# segment.sh -- `make bench-segment`: speed of SRX segmentation with the
# shipped rules against ICU's sentence BreakIterator, on English text
# generated at run time (SEGMENT_MB megabytes, default 20).
# Env: SEGMENT_BENCH (the segment_bench program), SEGMENT_MB.
set -eu
: "${SEGMENT_BENCH:?SEGMENT_BENCH is not set}"
mb=${SEGMENT_MB:-20}
echo "# bench-segment: ${mb} MB, $(uname -m), $(date -u +%Y-%m-%d)"
"$SEGMENT_BENCH" "$mb"
