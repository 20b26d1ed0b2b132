# slurm.sh -- sourced by what runs a Slurm cluster of its own (the batch
# test, the scale-out benchmark), after pg.sh, which gives skip(). The
# cluster is one slurmctld and two slurmd, nodes n1 and n2 of one CPU
# each, all on this machine on free TCP ports, with a munged of their
# own; everything lives under $tmp/slurm and is stopped by slurm_stop.
# Sets SLURM_CONF (exported).

# slurm_start: the cluster up, both nodes idle; skips (77) where Slurm or
# munge is missing or does not start.
slurm_start() {
  for p in slurmctld slurmd munged mungekey sbatch squeue; do
    command -v "$p" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin
    command -v "$p" >/dev/null 2>&1 ||
      skip "$p not installed (Debian packages slurmctld slurmd slurm-client munge)"
  done
  [ "$(id -u)" -eq 0 ] || skip "the daemons are started as root here"
  # shellcheck disable=SC2046
  set -- $(python3 -c 'import socket
ss = [socket.socket() for _ in range(4)]
for s in ss: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in ss))') || exit 99
  chmod 711 "$tmp"
  mkdir -p "$tmp/slurm/ctld" "$tmp/slurm/n1" "$tmp/slurm/n2" || exit 99
  mungekey -c -f -k "$tmp/munge.key" 2>/dev/null ||
    skip "mungekey cannot make a key"
  munged -f -S "$tmp/munge.sock" --key-file="$tmp/munge.key" \
    --log-file="$tmp/munged.log" --pid-file="$tmp/munged.pid" \
    --seed-file="$tmp/munged.seed" || skip "munged does not start"
  cat >"$tmp/slurm.conf" <<EOD
ClusterName=xliffmt
SlurmctldHost=localhost
SlurmctldPort=$1
SlurmdPort=$2
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/slurm/ctld
SlurmdSpoolDir=$tmp/slurm/%n
SlurmctldPidFile=$tmp/slurm/ctld.pid
SlurmdPidFile=$tmp/slurm/%n.pid
SlurmctldLogFile=$tmp/slurm/ctld.log
SlurmdLogFile=$tmp/slurm/%n.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=5
InactiveLimit=0
KillWait=2
MinJobAge=600
MailProg=/bin/true
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=n1 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$3 CPUs=1 State=UNKNOWN
NodeName=n2 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$4 CPUs=1 State=UNKNOWN
PartitionName=p Nodes=n1,n2 Default=YES MaxTime=INFINITE State=UP
EOD
  SLURM_CONF=$tmp/slurm.conf
  export SLURM_CONF
  slurmctld -f "$SLURM_CONF" || skip "slurmctld does not start"
  slurmd -f "$SLURM_CONF" -N n1 || skip "slurmd does not start"
  slurmd -f "$SLURM_CONF" -N n2 || skip "slurmd does not start"
  slurm_i=0
  until [ "$(sinfo -h -o '%D %t' 2>/dev/null)" = "2 idle" ]; do
    slurm_i=$((slurm_i + 1))
    [ $slurm_i -lt 60 ] ||
      skip "the nodes did not come up: $(sinfo 2>&1 | tail -n 2)"
    sleep 0.5
  done
}

# slurm_stop: every daemon and task of the cluster killed.
slurm_stop() {
  # each kill may find its process gone (n1 killed before): no status,
  # so that a caller under set -e stops them all
  for f in "$tmp"/slurm/ctld.pid "$tmp"/slurm/n1.pid "$tmp"/slurm/n2.pid; do
    if [ -f "$f" ]; then kill -9 "$(cat "$f")" 2>/dev/null || :; fi
  done
  # the tasks' processes, wherever they are
  for p in $(pgrep -f "slurmstepd: \[" 2>/dev/null); do
    if grep -qz "^SLURM_CONF=$tmp/" "/proc/$p/environ" 2>/dev/null; then
      kill -9 "$p" 2>/dev/null || :
    fi
  done
  if [ -f "$tmp/munged.pid" ]; then
    kill "$(cat "$tmp/munged.pid")" 2>/dev/null || :
  fi
}

# slurm_kill_n1 JOB PATTERN: node n1 dies with the task of JOB it runs:
# its slurmd, the task's step and session, and the processes whose
# command line matches PATTERN there.
slurm_kill_n1() {
  kill -9 "$(cat "$tmp/slurm/n1.pid")" 2>/dev/null || :
  for p in $(pgrep -f "slurmstepd: \[$1\.batch\]"); do
    slurm_sid=$(ps -o sid= -p "$p" | tr -d ' ')
    [ -z "$slurm_sid" ] || pkill -9 -s "$slurm_sid" 2>/dev/null || :
    kill -9 "$p" 2>/dev/null || :
  done
  for p in $(pgrep -f "$2"); do
    if grep -qz '^SLURMD_NODENAME=n1$' "/proc/$p/environ" 2>/dev/null; then
      kill -9 "$p" 2>/dev/null || :
    fi
  done
}

# slurm_wait_array JOB TASK SECONDS: waits (at most SECONDS) for the job
# array JOB to end. Slurm holds a requeued task back for two minutes (its
# rule for a requeued job); task TASK (the one whose node died) is let
# start at once, as an operator would (scontrol update StartTime=now).
# Sets released to 1 when it was.
slurm_wait_array() {
  slurm_i=0
  released=0
  while [ -n "$(squeue -h -j "$1" 2>/dev/null)" ]; do
    slurm_i=$((slurm_i + 1))
    [ $slurm_i -lt $(($3 * 2)) ] || break
    if [ $released -eq 0 ] &&
      [ "$(squeue -h -j "$2" -o '%T %r' 2>/dev/null)" = 'PENDING BeginTime' ]; then
      scontrol update JobId="$2" StartTime=now && released=1
    fi
    sleep 0.5
  done
}

# slurm_wait_job JOB SECONDS: waits (at most SECONDS) for JOB to end.
slurm_wait_job() {
  slurm_i=0
  while [ -n "$(squeue -h -j "$1" 2>/dev/null)" ]; do
    slurm_i=$((slurm_i + 1))
    [ $slurm_i -lt $(($2 * 2)) ] || break
    sleep 0.5
  done
}
