#!/bin/bash
# run.sh - compare nodempi's queue designs (NODEMPI_QUEUE=pair|orq|cor|hybrid, and the default)
# with Open MPI and MPICH on the NAS-like kernels of seed 000 Table 6.1 (cg_like, is_like,
# mg_like) at several rank counts; prints one markdown table per kernel: median time per
# iteration in ms over REPS runs (the run order rotates every repetition so that drifting load
# on a shared machine hits every column alike), and the fastest nodempi design.
#
# Usage: bench/nas_like/run.sh            (from anywhere)
# Environment:
#   NODEMPI_PREFIX  nodempi build or install dir with bin/mpicc, bin/mpiexec (default: build)
#   RANKS           rank counts (default "8 16 32 64 128")
#   KERNELS         default "cg is mg"
#   COLUMNS         default "pair orq cor hybrid default openmpi mpich" (missing MPIs: n/a)
#   REPS            repetitions per point (default 3)
#   TIMEOUT         seconds per run before it counts as "timeout" (default 120)
#   OUT             directory for binaries and raw results (default /tmp/nas_like-$USER)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
PREFIX=${NODEMPI_PREFIX:-$REPO/build}
RANKS=${RANKS:-"8 16 32 64 128"}
KERNELS=${KERNELS:-"cg is mg"}
COLUMNS=${COLUMNS:-"pair orq cor hybrid default openmpi mpich"}
REPS=${REPS:-3}
TIMEOUT=${TIMEOUT:-120}
OUT=${OUT:-/tmp/nas_like-${USER:-root}}
CFLAGS="-O2 -std=c11 -Wall -Wextra"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$OUT"

# Problem sizes: NAS class A vector length for CG, class W keys for IS, a 64^3 grid for MG
# (between classes S and W). Iterations keep one run at a few seconds on 2 cores at 128 ranks.
args_for() { # kernel
    case $1 in
    cg) echo "60 14000" ;;
    is) echo "8 20" ;;
    mg) echo "10 6" ;;
    esac
}

# MPICH (ch4) polls without yielding, so oversubscribed it is 10-100x slower: fewer
# iterations keep its runs within the timeout (the report is per iteration either way).
scaled_args() { # mpi kernel
    set -- "$1" $(args_for "$2")
    local mpi=$1 iters=$2 size=$3
    [ "$mpi" = mpich ] && iters=$(((iters + 9) / 10))
    echo "$iters $size"
}

mpi_of() { # column -> nodempi | openmpi | mpich
    case $1 in openmpi | mpich) echo "$1" ;; *) echo nodempi ;; esac
}

build() { # mpi
    local cc
    case $1 in
    nodempi) cc=$PREFIX/bin/mpicc ;;
    *) cc=mpicc.$1 ;;
    esac
    command -v "$cc" >/dev/null 2>&1 || [ -x "$cc" ] || return 1
    for k in cg is mg; do
        "$cc" $CFLAGS -o "$OUT/${k}_like.$1" "$HERE/${k}_like.c" 2>"$OUT/build.$1.log" || return 1
    done
}

launch() { # column nranks -> command prefix
    case $1 in
    openmpi) echo "mpiexec.openmpi --oversubscribe --bind-to none -n $2" ;;
    mpich) echo "mpiexec.mpich -n $2" ;;
    default) echo "env -u NODEMPI_QUEUE $PREFIX/bin/mpiexec -n $2" ;;
    *) echo "env NODEMPI_QUEUE=$1 $PREFIX/bin/mpiexec -n $2" ;;
    esac
}

declare -A have
for mpi in nodempi openmpi mpich; do
    if build $mpi; then have[$mpi]=1; else have[$mpi]=0; echo "($mpi: not available)" >&2; fi
done

# One run: prints ms per iteration, "timeout" or "fail".
run_one() { # column kernel nranks
    local mpi
    mpi=$(mpi_of "$1")
    [ "${have[$mpi]}" = 1 ] || { echo n/a; return; }
    local line
    # shellcheck disable=SC2046
    line=$(timeout -k 5 "$TIMEOUT" $(launch "$1" "$3") "$OUT/$2_like.$mpi" \
        $(scaled_args "$mpi" "$2") 2>"$OUT/last.err" </dev/null)
    local rc=$?
    [ $rc = 124 ] || [ $rc = 137 ] && { echo timeout; return; }
    case $line in
    *check=ok*) echo "$line" | sed 's/.*us_per_iter=\([0-9.]*\).*/\1/' |
        awk '{ printf "%.2f\n", $1 / 1000 }' ;;
    *) echo fail ;;
    esac
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (v[1] !~ /^[0-9]/) print v[NR]; else print v[int((NR + 1) / 2)] }'; }

raw=$OUT/raw.txt
: >"$raw"
cols=($COLUMNS)
for rep in $(seq 1 "$REPS"); do
    for k in $KERNELS; do
        for n in $RANKS; do
            # rotate the column order each repetition
            shift_by=$(((rep - 1) % ${#cols[@]}))
            order=("${cols[@]:$shift_by}" "${cols[@]:0:$shift_by}")
            for c in "${order[@]}"; do
                v=$(run_one "$c" "$k" "$n")
                echo "$k $n $c $v" >>"$raw"
                echo "rep $rep: $k np=$n $c: $v" >&2
            done
        done
    done
done

echo "NAS-like kernels, ms per iteration (median of $REPS), $(nproc) cores, $(date +%F)"
for k in $KERNELS; do
    echo
    echo "### ${k}_like $(args_for "$k" | awk '{ print "(iters " $1 ", size " $2 ")" }')"
    printf "| ranks |"
    for c in "${cols[@]}"; do printf " %s |" "$c"; done
    printf " best nodempi design |\n|---|"
    for c in "${cols[@]}"; do printf -- "---|"; done
    printf -- "---|\n"
    for n in $RANKS; do
        printf "| %s |" "$n"
        best=""
        bestv=""
        for c in "${cols[@]}"; do
            m=$(awk -v k="$k" -v n="$n" -v c="$c" '$1 == k && $2 == n && $3 == c { print $4 }' \
                "$raw" | median)
            printf " %s |" "$m"
            case $c in pair | orq | cor | hybrid)
                if [[ $m =~ ^[0-9] ]] && { [ -z "$bestv" ] ||
                    awk -v a="$m" -v b="$bestv" 'BEGIN { exit !(a < b) }'; }; then
                    best=$c
                    bestv=$m
                fi ;;
            esac
        done
        printf " %s |\n" "${best:--}"
    done
done
