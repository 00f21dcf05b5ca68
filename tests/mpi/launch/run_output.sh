#!/bin/bash
# run_output.sh - where mpiexec puts the ranks' output and input, as Open MPI 4.1 and Hydra do:
# --output-filename DIR (DIR/1/rank.N/stdout and stderr, copied to the terminal unless
# :nocopy; :nojobid drops the 1/), -outfile-pattern and -errfile-pattern (%r %g %p %h %t %%,
# that stream no longer on the terminal), -l/--tag-output and -prepend-pattern in files too,
# --merge-stderr-to-stdout, --stdin N|all|none, -print-all-exitcodes; bad values are usage errors
# naming the option, and no rank starts.
# Usage: run_output.sh <mpiexec> <report program>
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1

# A rank that writes one line to each stream, naming itself.
SPEAK=(sh -c 'echo "out $NODEMPI_RANK"; echo "err $NODEMPI_RANK" >&2')

# expect_file <path> <exact content, lines joined by \n>
expect_file() {
    CHECKS=$((CHECKS + 1))
    [ -f "$1" ] || launch_fail "no file $1"
    [ "$(cat "$1")" = "$(printf "$2")" ] || launch_fail "$1 holds '$(cat "$1")', not '$2'"
}

expect_empty() {
    CHECKS=$((CHECKS + 1))
    [ ! -s "$1" ] || launch_fail "$(basename "$1") is not empty: $(head -c 200 "$1")"
}

# Open MPI: every rank's two files, and a copy on the terminal.
run -n 2 --output-filename "$WORK/files" "${SPEAK[@]}"
expect_status 0
for r in 0 1; do
    expect_file "$WORK/files/1/rank.$r/stdout" "out $r"
    expect_file "$WORK/files/1/rank.$r/stderr" "err $r"
    expect_line "$OUT" "out $r"
    expect_line "$ERR" "err $r"
done
CHECKS=$((CHECKS + 1))
[ "$(stat -c %a "$WORK/files/1/rank.0")" = 750 ] || launch_fail "rank directory mode not 750"
rm -rf "$WORK/files"

# Zero-padded to the digits of the rank count; empty streams still get their file; a relative
# DIR is under mpiexec's directory, not the rank's -wdir.
mkdir -p "$WORK/elsewhere"
run -n 10 -wdir "$WORK/elsewhere" -output-filename rel true
expect_status 0
expect_file "$WORK/rel/1/rank.00/stdout" ""
expect_file "$WORK/rel/1/rank.09/stderr" ""
CHECKS=$((CHECKS + 1))
[ ! -e "$WORK/rel/1/rank.10" ] && [ ! -e "$WORK/elsewhere/rel" ] ||
    launch_fail "rank.10, or files under -wdir"

# :nocopy keeps the terminal quiet; :nojobid drops the job level; tags go into the files; an
# existing file is overwritten.
mkdir -p "$WORK/quiet/rank.1" && echo stale > "$WORK/quiet/rank.1/stdout"
run -n 2 -l --output-filename "$WORK/quiet:nojobid,NOCOPY" "${SPEAK[@]}"
expect_status 0
expect_empty "$OUT"
expect_empty "$ERR"
expect_file "$WORK/quiet/rank.1/stdout" "[1] out 1"
expect_file "$WORK/quiet/rank.0/stderr" "[0] err 0"

# --merge-stderr-to-stdout: one stdout file with both streams in the order written, and
# stderr on the terminal's stdout.
run -n 1 --merge-stderr-to-stdout --output-filename "$WORK/merged" "${SPEAK[@]}"
expect_status 0
expect_file "$WORK/merged/1/rank.0/stdout" "out 0\nerr 0"
CHECKS=$((CHECKS + 1))
[ ! -e "$WORK/merged/1/rank.0/stderr" ] || launch_fail "merged: a stderr file was created"
expect_line "$OUT" "err 0"
expect_empty "$ERR"
run -n 2 --merge-stderr-to-stdout --tag-output "${SPEAK[@]}"
expect_status 0
expect_line "$OUT" "[1] err 1"
expect_empty "$ERR"

# Hydra: one file per rank from the pattern, that stream off the terminal, the other on it.
run -n 2 -outfile-pattern "$WORK/o.%r.%g.%p.%h.%%" "${SPEAK[@]}"
expect_status 0
host=$(hostname)
expect_file "$WORK/o.0.0.0.$host.%" "out 0"
expect_file "$WORK/o.1.0.0.$host.%" "out 1"
expect_empty "$OUT"
expect_line "$ERR" "err 1"
run -n 2 -l -errfile-pattern "$WORK/e.%r" -outfile-pattern "$WORK/o.%r" "${SPEAK[@]}"
expect_status 0
expect_file "$WORK/e.1" "[1] err 1"
expect_file "$WORK/o.0" "[0] out 0"
expect_empty "$OUT"
expect_empty "$ERR"
CHECKS=$((CHECKS + 1))
[ "$(stat -c %a "$WORK/o.0")" = 600 ] || launch_fail "pattern file mode not 600"
# A rank that writes nothing gets no file (Hydra opens it at the first output); a pattern
# without %r is one file all ranks append their lines to; %t is the seconds to that output.
run -n 2 -outfile-pattern "$WORK/shared.%t" -errfile-pattern "$WORK/none.%r" "${SPEAK[@]}"
expect_status 0
CHECKS=$((CHECKS + 1)) # one file, unless the two first writes fall in different seconds
[ "$(cat "$WORK"/shared.[0-9]* | sort | tr '\n' ,)" = "out 0,out 1," ] ||
    launch_fail "shared file: $(cat "$WORK"/shared.*)"
expect_file "$WORK/none.0" "err 0"
run -n 2 -errfile-pattern "$WORK/silent.%r" sh -c 'test $NODEMPI_RANK = 0 || echo spoke >&2'
expect_status 0
CHECKS=$((CHECKS + 1))
[ ! -e "$WORK/silent.0" ] || launch_fail "a file for a rank that wrote nothing"
expect_file "$WORK/silent.1" "spoke"

# -prepend-pattern: Hydra's own prefix, on the terminal and in files.
run -n 2 -prepend-pattern "<%r@%h> " "${SPEAK[@]}"
expect_status 0
expect_line "$OUT" "<1@$host> out 1"
expect_line "$ERR" "<0@$host> err 0"

# Bad patterns and places: refused before any rank runs, naming the option.
run -n 2 -outfile-pattern "$WORK/x.%q" "${SPEAK[@]}"
expect_usage_error "^mpiexec: -outfile-pattern $WORK/x.%q: unknown substitution '%q'"
run -n 2 -errfile-pattern "$WORK/missing/e.%r" "${SPEAK[@]}"
expect_usage_error \
    "^mpiexec: -errfile-pattern $WORK/missing/e.%r: cannot create files in $WORK/missing"
run -n 2 -prepend-pattern "%t " "${SPEAK[@]}"
expect_usage_error "^mpiexec: -prepend-pattern %t : unknown substitution '%t'"
touch "$WORK/plainfile"
run -n 1 --output-filename "$WORK/plainfile" "${SPEAK[@]}"
expect_usage_error \
    "^mpiexec: --output-filename $WORK/plainfile: cannot create $WORK/plainfile/1/rank.0: Not a"
run -n 1 --output-filename "$WORK/d:copy" "${SPEAK[@]}"
expect_usage_error "^mpiexec: --output-filename $WORK/d:copy: unknown directive 'copy'"
run -n 1 --output-filename "$WORK/d" -outfile-pattern "$WORK/o" "${SPEAK[@]}"
expect_usage_error "^mpiexec: --output-filename and -outfile-pattern/-errfile-pattern"
run --output-filename
expect_usage_error "^mpiexec: option --output-filename needs a value"

# --stdin: rank 0 by default, another rank, every rank (a copy each), or none.
READ=(sh -c 'read line; echo "rank $NODEMPI_RANK read ${line:-nothing}"')
echo hello > "$WORK/hello"
stdin_run() {
    run_from "$WORK/hello" "$@"
}
stdin_run -n 2 "${READ[@]}"
expect_status 0
expect_line "$OUT" "rank 0 read hello"
expect_line "$OUT" "rank 1 read nothing"
stdin_run -n 2 --stdin 1 "${READ[@]}"
expect_line "$OUT" "rank 0 read nothing"
expect_line "$OUT" "rank 1 read hello"
stdin_run -n 2 -stdin none "${READ[@]}"
expect_line "$OUT" "rank 0 read nothing"
run -n 2 --stdin 2 true
expect_usage_error "^mpiexec: --stdin 2: the job has ranks 0 to 1"
stdin_run -n 3 --stdin all "${READ[@]}"
expect_status 0
for r in 0 1 2; do
    expect_line "$OUT" "rank $r read hello"
done
# Every rank gets all of a large input, whatever pace each reads it at.
seq 1 20000 > "$WORK/numbers"
run_from "$WORK/numbers" -n 2 --stdin all \
    sh -c 'test $NODEMPI_RANK = 0 || sleep 1; echo "rank $NODEMPI_RANK counted $(wc -l)"'
expect_status 0
expect_line "$OUT" "rank 0 counted 20000"
expect_line "$OUT" "rank 1 counted 20000"
# A rank that stops reading does not hold the others back.
run_from "$WORK/numbers" -n 2 --stdin all \
    sh -c 'test $NODEMPI_RANK = 0 && exec 0<&- || echo "rank 1 counted $(wc -l)"'
expect_status 0
expect_line "$OUT" "rank 1 counted 20000"
run -n 2 --stdin x true
expect_usage_error "^mpiexec: --stdin accepts none, all or a rank, not 'x'"

# -print-all-exitcodes: Hydra's line on stdout, each rank's wait status.
run -n 2 -print-all-exitcodes sh -c 'exit 0'
expect_status 0
short=${host%%.*}
expect_line "$OUT" "[mpiexec@$short] Exit codes: [$short] 0,0"
run -n 1 -print-all-exitcodes sh -c 'exit 3'
expect_status 3
expect_line "$OUT" "[mpiexec@$short] Exit codes: [$short] 768"

launch_pass
