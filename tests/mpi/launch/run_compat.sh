#!/bin/bash
# run_compat.sh - the MPICH (Hydra) and Open MPI spellings mpiexec accepts: environment
# passing (-genv, -env, -genvlist, -envlist, -genvnone, -envnone, -genvall), counts per node
# (-ppn, -N, --npernode), host lists and hostfiles with slots, labels (-l), --mca (ignored),
# --report-bindings and the -bind-to values; bad values are usage errors naming them.
# Usage: run_compat.sh <mpiexec> <report program>
. "$(dirname "$0")/lib.sh"

# Environment: Hydra's two-word forms, global and per program.
run -n 2 -genv G1 one -genv G2=two --env G3 three -x G4=four "$REPORT" G1 G2 G3 G4
expect_size 2
for v in G1=one G2=two G3=three G4=four; do
    expect_line "$OUT" "rank 1 env $v"
done
run -n 1 -env ONLY first -envlist HOME "$REPORT" ONLY HOME : -n 1 "$REPORT" ONLY
expect_status 0
expect_line "$OUT" "rank 0 env ONLY=first"
expect_line "$OUT" "rank 0 env HOME=$HOME"
expect_line "$OUT" "rank 1 env ONLY unset"
run -n 1 -env BOTH program "$REPORT" BOTH : -n 1 "$REPORT" BOTH : -genv BOTH job "$REPORT" BOTH
expect_status 0 # a program's -env wins over -genv, wherever -genv is
expect_line "$OUT" "rank 0 env BOTH=program"
expect_line "$OUT" "rank 1 env BOTH=job"
expect_line "$OUT" "rank 2 env BOTH=job"
export KEEP=kept DROP=dropped
run -n 2 -genvnone -genvlist KEEP,NOT_SET_ANYWHERE -genv SET set "$REPORT" KEEP DROP SET
expect_size 2
expect_line "$OUT" "rank 1 env KEEP=kept"
expect_line "$OUT" "rank 1 env DROP unset"
expect_line "$OUT" "rank 1 env SET=set"
expect_no_line "$OUT" "rank 1 env NOT_SET_ANYWHERE="
run -n 1 -envnone "$REPORT" DROP : -n 1 -envall "$REPORT" DROP
expect_status 0
expect_line "$OUT" "rank 0 env DROP unset"
expect_line "$OUT" "rank 1 env DROP=dropped"
run -genvall "$REPORT" DROP
expect_line "$OUT" "rank 0 env DROP=dropped"
run -genv ONLYNAME
expect_usage_error "^mpiexec: option -genv needs a value"
run -genvlist A=1 "$REPORT"
expect_usage_error "^mpiexec: -genvlist needs comma-separated variable names, not 'A=1'"

# Ranks per node: the rank count on one node; -n must agree.
run -ppn 2 "$REPORT"
expect_size 2
run -N 3 "$REPORT"
expect_size 3
run -n 2 --npernode 2 "$REPORT"
expect_size 2
run -n 3 --npernode 2 "$REPORT"
expect_usage_error "^mpiexec: --npernode 2: this node runs all 3 ranks"
run -ppn x "$REPORT"
expect_usage_error "^mpiexec: -ppn needs a rank count per node from 1 to [0-9]+, not 'x'"

# Host lists and hostfiles: slots give the count without -n; every host must be this node.
run --host localhost:2,localhost "$REPORT"
expect_size 3
for spelling in -host -hosts --host -H; do
    run $spelling "localhost,$(hostname)" "$REPORT"
    expect_size 2
done
printf '# two slots here\nlocalhost slots=2 max_slots=4\n\n%s:1\n' "$(hostname)" > "$WORK/hosts"
for spelling in -f -hostfile --hostfile -machinefile; do
    run $spelling "$WORK/hosts" "$REPORT"
    expect_size 3
done
run -n 1 -f "$WORK/hosts" "$REPORT"
expect_size 1
printf 'localhost\nremote7.invalid slots=2\n' > "$WORK/remote"
run -f "$WORK/remote" "$REPORT"
expect_usage_error "^mpiexec: -f $WORK/remote line 2: host 'remote7.invalid' is not this node"
printf 'localhost slots=two\n' > "$WORK/badslots"
run --hostfile "$WORK/badslots" "$REPORT"
expect_usage_error "^mpiexec: --hostfile $WORK/badslots line 1: cannot use 'slots=two'"
printf '# nothing\n\n' > "$WORK/empty"
run -machinefile "$WORK/empty" "$REPORT"
expect_usage_error "^mpiexec: -machinefile $WORK/empty: no host in the file"
run -f "$WORK/missing" "$REPORT"
expect_usage_error "^mpiexec: -f $WORK/missing: No such file"

# Labels: -l and -prepend-rank are --tag-output.
for spelling in -l -prepend-rank; do
    run -n 2 $spelling "$REPORT"
    expect_status 0
    expect_line "$OUT" "[1] rank 1 size 2 appnum 0"
    CHECKS=$((CHECKS + 1))
    [ "$(grep -vc '^\[[01]\] ' "$OUT")" -eq 0 ] || launch_fail "unlabelled lines with $spelling"
done

# Open MPI component parameters: accepted and ignored.
run -n 2 --mca btl self,vader -mca pml ob1 --gmca plm_base_verbose 5 "$REPORT"
expect_size 2
run --mca btl "$REPORT" # "btl" and the program's path are KEY and VALUE: no program is left
expect_usage_error "^mpiexec: no program given"

# Bindings: printed as placement decides them, and what the ranks get.
run -n 2 --report-bindings "$REPORT"
expect_size 2
expect_bindings_as_reported 2
run -n 2 -bind-to hwthread -print-rank-map "$REPORT"
expect_size 2
expect_bindings_as_reported 2
run -n 2 --bind-to socket --display-map "$REPORT"
expect_size 2
expect_bindings_as_reported 2
for unit in numa l3cache core; do
    run -n 2 --bind-to $unit --report-bindings "$REPORT"
    expect_size 2
    expect_bindings_as_reported 2
done
run -n 2 --bind-to none --report-bindings "$REPORT"
expect_size 2
CHECKS=$((CHECKS + 1))
grep -Eq '^mpiexec: rank 1 not bound \(any of [0-9]+ CPUs\)$' "$ERR" ||
    launch_fail "--bind-to none: no 'not bound' report"
run -bind-to board "$REPORT"
expect_usage_error "^mpiexec: -bind-to accepts core, hwthread, .* or none, not 'board'"

# The rank variables Open MPI's and Hydra's launchers set, for scripts that read them; in an
# MPMD job they number the whole job.
vars="OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_SIZE OMPI_COMM_WORLD_LOCAL_RANK OMPI_COMM_WORLD_LOCAL_SIZE OMPI_COMM_WORLD_NODE_RANK PMI_RANK PMI_SIZE MPI_LOCALRANKID MPI_LOCALNRANKS"
run -n 1 "$REPORT" $vars : -n 2 "$REPORT" $vars
expect_status 0
for r in 0 1 2; do
    for v in OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_LOCAL_RANK OMPI_COMM_WORLD_NODE_RANK PMI_RANK MPI_LOCALRANKID; do
        expect_line "$OUT" "rank $r env $v=$r"
    done
    for v in OMPI_COMM_WORLD_SIZE OMPI_COMM_WORLD_LOCAL_SIZE PMI_SIZE MPI_LOCALNRANKS; do
        expect_line "$OUT" "rank $r env $v=3"
    done
done

# Anything else stays unknown.
run --frobnicate-output "$WORK/out" "$REPORT"
expect_usage_error "^mpiexec: unknown option '--frobnicate-output'"

launch_pass
