#!/bin/bash
# run_standard.sh - mpiexec's keys of the MPI standard (MPI 4.1 11.5) on one node: -n with
# -soft (the largest allowed count), -host (this node only), -arch (this machine's only),
# -wdir, -path, -file (refused), -initial-errhandler; and what MPI_INFO_ENV reports for them.
# Usage: run_standard.sh <mpiexec> <report program>
. "$(dirname "$0")/lib.sh"

# -soft: the largest count in the union of the triplets that is at most -n.
run -n 4 -soft 1,3,5:9:2 "$REPORT"
expect_size 3
expect_line "$OUT" "rank 2 info soft=1,3,5:9:2"
expect_line "$OUT" "rank 0 info maxprocs=4"
run -soft 1:3 "$REPORT"
expect_size 3
expect_line "$OUT" "rank 0 info maxprocs=3"
run -n 3 -soft 7:1:-3 "$REPORT"
expect_size 1
run -soft 0:3 "$REPORT"
expect_usage_error "^mpiexec: -soft needs .*'0:3'"
run -n 2 -soft 3:5 "$REPORT"
expect_usage_error "^mpiexec: -soft '3:5' allows no rank count from 1 to 2"
run -soft 2:4:0 "$REPORT"
expect_usage_error "-soft needs .*'2:4:0'"

# -host: only this node, under any of its names; slots give the count without -n.
run -n 2 -host localhost "$REPORT"
expect_size 2
expect_line "$OUT" "rank 1 info host=localhost"
run -host "$(hostname)":2 "$REPORT"
expect_size 2
run -host 127.0.0.1,localhost "$REPORT"
expect_size 2
run -host node7.invalid "$REPORT"
expect_usage_error "^mpiexec: -host node7.invalid: host 'node7.invalid' is not this node"
run -host localhost:0 "$REPORT"
expect_usage_error "^mpiexec: -host localhost:0: 'localhost:0' needs a slot count"

# -arch: this machine's architecture only; MPI_INFO_ENV reports it.
run -arch "$(uname -m)" "$REPORT"
expect_size 1
expect_line "$OUT" "rank 0 info arch=$(uname -m)"
run -arch sparc64 "$REPORT"
expect_usage_error "^mpiexec: -arch sparc64: this node's architecture is $(uname -m)"

# -wdir and the default keys.
run -n 2 -wdir "$WORK" "$REPORT" HOME
expect_size 2
expect_line "$OUT" "rank 1 info wdir=$WORK"
expect_line "$OUT" "rank 0 info command=$REPORT"
expect_line "$OUT" "rank 0 info argv=HOME"
expect_line "$OUT" "rank 0 info maxprocs=2"
expect_line "$OUT" "rank 0 info thread_level=MPI_THREAD_SINGLE"
expect_line "$OUT" "rank 0 info file unset"
expect_line "$OUT" "rank 0 info soft unset"
expect_line "$OUT" "rank 0 info host=$(hostname)"
expect_line "$OUT" "rank 1 errhandler world=fatal self=fatal"
# Every rank leads its own session, as Hydra's ranks do: under the kernel's autogroup
# scheduling a job then gets a CPU share per rank, not one share for all its ranks.
expect_line "$OUT" "rank 0 session leader yes"
expect_line "$OUT" "rank 1 session leader yes"
run -n 1 "$REPORT" --provoke
CHECKS=$((CHECKS + 1)) # the default handler, MPI_ERRORS_ARE_FATAL, ends the job
[ "$STATUS" -ne 0 ] && grep -q "^nodempi: MPI_Comm_size: invalid communicator" "$ERR" &&
    ! grep -q "provoked class" "$OUT" ||
    launch_fail "MPI_ERRORS_ARE_FATAL by default: the job did not end with the error"

# -path: where a bare program name is looked for, instead of PATH.
mkdir -p "$WORK/bin"
cp "$REPORT" "$WORK/bin/report-copy"
run -n 2 -path "/nonexistent:$WORK/bin" report-copy
expect_size 2
run -path /nonexistent report-copy
expect_status 127
CHECKS=$((CHECKS + 1))
grep -q "^mpiexec: report-copy: not found in -path /nonexistent" "$ERR" ||
    launch_fail "no message naming the program and -path"

# -configfile: one program section a line, as in the MPI standard's example.
cat > "$WORK/config" <<CONFIG
# two programs of one job
-n 2 -env WHO "first program" $REPORT WHO
-n 1 -wdir $WORK \\
    $REPORT WHO   # continued line
CONFIG
run -configfile "$WORK/config"
expect_status 0
expect_line "$OUT" "rank 1 size 3 appnum 0"
expect_line "$OUT" "rank 1 env WHO=first program"
expect_line "$OUT" "rank 2 size 3 appnum 1"
expect_line "$OUT" "rank 2 env WHO unset"
expect_line "$OUT" "rank 2 info wdir=$WORK"
run -configfile "$WORK/config" extra
expect_usage_error "^mpiexec: -configfile must be the last option, 'extra' follows it"
printf -- '-n 2 "%s\n' "$REPORT" > "$WORK/badconfig"
run -configfile "$WORK/badconfig"
expect_usage_error "^mpiexec: -configfile $WORK/badconfig: a quote is not closed"

# -file: its format is the implementation's; nodempi has none and says so.
run -file "$WORK/none" "$REPORT"
expect_usage_error "^mpiexec: -file $WORK/none: not supported"

# -initial-errhandler: MPI_COMM_WORLD's and MPI_COMM_SELF's handler after MPI_Init, also for
# an error outside any communicator.
run -n 2 -initial-errhandler mpi_errors_return "$REPORT" --provoke
expect_status 0
expect_line "$OUT" "rank 1 errhandler world=return self=return"
CHECKS=$((CHECKS + 1))
grep -Eq '^rank 1 provoked class ([0-9]+) \(MPI_ERR_COMM \1\)$' "$OUT" ||
    launch_fail "MPI_ERRORS_RETURN: no MPI_ERR_COMM returned for MPI_COMM_NULL"
run -n 2 -initial-errhandler MPI_ERRORS_ABORT "$REPORT" --provoke
# Whichever rank errs first ends the job, maybe before the other printed anything; it printed
# its handlers before it erred.
CHECKS=$((CHECKS + 1))
grep -Eq '^rank [01] errhandler world=abort self=abort$' "$OUT" ||
    launch_fail "MPI_ERRORS_ABORT is not the initial handler"
CHECKS=$((CHECKS + 1))
[ "$STATUS" -ne 0 ] && ! grep -q "provoked class" "$OUT" ||
    launch_fail "MPI_ERRORS_ABORT: the error returned or the job succeeded (status $STATUS)"
run -initial-errhandler mpi_errors_are_fatal "$REPORT"
expect_line "$OUT" "rank 0 errhandler world=fatal self=fatal"
run -initial-errhandler errors_maybe "$REPORT"
expect_usage_error "^mpiexec: -initial-errhandler accepts .*not 'errors_maybe'"

launch_pass
