#!/bin/bash
# mpich-testsuite.sh - build MPICH's own test suite (test/mpi of the MPICH source, ~1000 small C
# programs written by other people) against a nodempi build directory, run it directory by
# directory and print per directory: tests run, passed, failed, skipped. Not run by CI (it
# downloads the MPICH source from Debian and takes ~1 hour on 2 cores). Run it by hand:
#
#   tests/external/mpich-testsuite.sh [BUILD_DIR] [DIR...]    e.g.  ... build pt2pt coll
#
# BUILD_DIR defaults to ./build (it must hold bin/mpicc and bin/mpiexec); DIRs default to the
# directories listed below. Environment: WORKDIR=dir uses (and reuses) a work directory (default
# /tmp/nodempi-mpich-tests), MAXNP=8 skips tests that need more ranks, TIMEOUT=60 seconds per
# test (a testlist's timeLimit replaces it, up to 180), MPICH_VERSION=4.0.2 (Debian 12's).
# ONLY=regex runs only the tests whose "dir/program np args" matches; NONSTRICT=1 also runs the
# tests a testlist marks strict=false: in datatype, errors/datatype and errhan they use the MPI-1
# names MPI-3.0 removed, which nodempi keeps (MPI_Type_extent, MPI_LB ...); elsewhere (coll's
# persistent collectives, ft) they test MPICH extensions, so use it for those three; mpix=true
# tests stay skipped. TAG=name names the work
# subdirectory (default: the MPI); THREADS=single|multiple configures the suite for that thread
# level (default multiple when the threads directory is asked for, else single; a multiple
# configuration lives in <tag>-mt); MPI=mpich runs the same tests with Debian's MPICH
# (mpicc.mpich/mpiexec.mpich) for comparison; FORTRAN=1 builds the suite's Fortran tests with
# the MPI's mpifort (DIRs then default to f77 f90 f08; the configuration lives in <tag>-fortran).
# Results go to WORKDIR/<tag>/results.txt (one line per test, appended) and failing outputs to
# WORKDIR/<tag>/logs/. Results and known failures: docs/external-tests.md. Exit status 1 when any
# test failed.
set -euo pipefail

build=$(cd "${1:-build}" && pwd)
shift || true
fortran=${FORTRAN:-0}
if [ "$fortran" = 1 ]; then default_dirs="f77 f90 f08"
else default_dirs="attr coll comm datatype errhan group info init mpi_t pt2pt part rma topo io errors"; fi
dirs=${*:-$default_dirs}
case " $dirs " in *" threads "*) threads=${THREADS:-multiple} ;; *) threads=${THREADS:-single} ;; esac
# The spawn tests need a suite configured with --enable-spawn (in <tag>-spawn): its other
# directories then also run their spawn-using tests.
case " $dirs " in *" spawn "*) spawn=enable ;; *) spawn=disable ;; esac
# The spawn tests spawn only while MPI_UNIVERSE_SIZE exceeds the world size (MTestSpawnPossible),
# in the children too; nodempi's default is the larger of the job and the cores (2 here).
[ "$spawn" = disable ] || export NODEMPI_UNIVERSE_SIZE=${NODEMPI_UNIVERSE_SIZE:-16}
version=${MPICH_VERSION:-4.0.2}
work=${WORKDIR:-/tmp/nodempi-mpich-tests}
mpi=${MPI:-nodempi}
mkdir -p "$work"

# 1. The MPICH source from Debian's archive (deb-src for bookworm; only test/mpi is unpacked).
src="$work/mpich-$version/test/mpi"
if [ ! -d "$src" ]; then
    if ! ls "$work"/mpich_"$version".orig.tar.* > /dev/null 2>&1; then
        list=/etc/apt/sources.list.d/nodempi-deb-src.sources
        if ! apt-get source --download-only --print-uris mpich > /dev/null 2>&1; then
            cat > "$list" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
            apt-get update -q > /dev/null
        fi
        (cd "$work" && apt-get source --download-only "mpich=$version*" > /dev/null 2>&1 ||
            apt-get source --download-only mpich > /dev/null)
    fi
    tar -xJf "$work"/mpich_"$version".orig.tar.xz -C "$work" "mpich-$version/test/mpi"
fi

# 2. Configure standalone (VPATH) with the MPI's wrappers: C (or Fortran), the threads tests
# only with THREADS=multiple (nodempi grants MPI_THREAD_MULTIPLE), spawn only when the spawn
# directory is asked for; --enable-strictmpi skips
# tests of MPICH extensions (strict=false in a testlist).
if [ "$mpi" = mpich ]; then cc=$(command -v mpicc.mpich); run=$(command -v mpiexec.mpich)
    fc=$(command -v mpifort.mpich || true)
else cc=$build/bin/mpicc; run=$build/bin/mpiexec; fc=$build/bin/mpifort; fi
[ -x "$cc" ] && [ -x "$run" ] || { echo "mpich-testsuite.sh: no $cc or $run" >&2; exit 2; }
obj="$work/${TAG:-$mpi}"
[ "$threads" = single ] || obj="$obj-mt"
[ "$spawn" = disable ] || obj="$obj-spawn"
fortran_args=(--disable-fortran)
if [ "$fortran" = 1 ]; then
    [ -x "$fc" ] || { echo "mpich-testsuite.sh: no Fortran wrapper $fc" >&2; exit 2; }
    fortran_args=(--enable-fortran=all F77="$fc" FC="$fc" MPIF77="$fc" MPIFC="$fc")
    obj="$obj-fortran"
fi
if [ ! -f "$obj/runtests" ]; then
    mkdir -p "$obj"
    (cd "$obj" && "$src/configure" CC="$cc" MPICC="$cc" MPIEXEC="$run" "${fortran_args[@]}" \
        --disable-cxx --enable-threads=$threads --$spawn-spawn --enable-rma --enable-part \
        --enable-romio --enable-strictmpi > config.out 2>&1) || { tail "$obj/config.out"; exit 1; }
    # dtpools (the datatype pool behind the testlist.dtp tests) still calls MPI_Type_hvector and
    # MPI_Type_hindexed, removed in MPI-3.0; their MPI-2 replacements take the same arguments.
    # The suite builds its f08 helper library only inside an MPICH build (FROM_MPICH=yes, which
    # changes much else): switch its automake conditional on by hand.
    [ "$fortran" = 1 ] && sed -i -E '/^#.*(libmtest_f08|mtest_f08)/ s/^#//' "$obj/util/Makefile"
    make -C "$obj/util" > /dev/null
    [ "$fortran" = 1 ] ||   # the Fortran tests use no datatype pool
    make -C "$obj/dtpools" CPPFLAGS="-DMPI_Type_hvector=MPI_Type_create_hvector \
        -DMPI_Type_hindexed=MPI_Type_create_hindexed" > /dev/null 2>&1
fi

# 3. Run: our own small driver instead of MPICH's runtests, which would shrink a test's rank
# count to -maxnp instead of skipping it. Pass/fail is judged as runtests judges it.
python3 - "$obj" "$src" "$run" "${MAXNP:-8}" "${TIMEOUT:-60}" $dirs <<'PYEOF'
import os, re, signal, subprocess, sys, time
obj, src, mpiexec, maxnp, timeout = sys.argv[1:4] + [int(a) for a in sys.argv[4:6]]
os.makedirs(f"{obj}/logs", exist_ok=True)
built, results = {}, open(f"{obj}/results.txt", "a")
only = os.environ.get("ONLY")  # a regular expression: run only the tests whose name matches

def lists(d):  # a directory's testlists: generated ones in obj, plain ones in src
    for name in ("testlist", "testlist.dtp"):
        for root in (obj, src):
            if os.path.isfile(f"{root}/{d}/{name}"):
                yield f"{root}/{d}/{name}"
                break

def judge(out, rc, kind):
    if kind in ("TestStatus", "TestErrFatal"):  # these tests must exit non-zero
        return "pass" if rc != 0 else "fail"
    lines = [l for l in out.splitlines() if l.strip() and "FORTRAN STOP" not in l]
    ok = any(re.match(r"^\s*No [Ee]rrors\s*$", l) for l in lines)
    extra = [l for l in lines if not re.match(r"^\s*(No [Ee]rrors|Test Passed)\s*$", l)]
    return "pass" if ok and not extra and rc == 0 else ("timeout" if rc == 124 else "fail")

def run_test(d, words, counts):
    prog, np = words[0], int(words[1]) if len(words) > 1 else 2
    opt = {"args": [], "env": {}, "mpiexecargs": []}
    for w in words[2:]:
        k, _, v = w.partition("=")
        if k == "arg": opt["args"].append(v)
        elif k == "env": opt["env"].update([v.split("=", 1)])
        elif k == "mpiexecarg": opt["mpiexecargs"].append(v)
        else: opt[k] = v
    sub = os.path.dirname(prog)
    cwd, prog = os.path.join(obj, d, sub), os.path.basename(prog)
    name = " ".join([os.path.join(d, sub, prog), str(np)] + opt["args"])
    if only and not re.search(only, name):
        return
    nonstrict = opt.get("strict", "").lower() == "false" and os.environ.get("NONSTRICT") != "1"
    if nonstrict or opt.get("mpix", "").lower() == "true":
        status, secs = "skip-nonstandard", 0
    elif np > maxnp:
        status, secs = f"skip-np>{maxnp}", 0
    else:
        key = (cwd, prog)
        if key not in built:
            b = subprocess.run(["make", prog], cwd=cwd, capture_output=True, text=True)
            built[key] = b.returncode == 0
            if b.returncode:
                open(f"{obj}/logs/{d.replace('/', '_')}-{prog}.build", "w").write(b.stdout + b.stderr)
        if not built[key]:
            status, secs = "fail-build", 0
        else:
            limit = min(int(opt.get("timeLimit", timeout)), 180)
            env = dict(os.environ, **opt["env"])
            cmd = [mpiexec, "-n", str(np)] + opt["mpiexecargs"] + [f"./{prog}"] + opt["args"]
            t0 = time.time()
            p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, start_new_session=True)
            try:
                out, rc = p.communicate(timeout=limit)[0], p.returncode
            except subprocess.TimeoutExpired:  # the job's own process group, nothing else
                os.killpg(p.pid, signal.SIGKILL)
                out, rc = p.communicate()[0], 124
            out = out.decode(errors="replace")
            secs = time.time() - t0
            status = judge(out, rc, opt.get("resultTest"))
            if status != "pass":
                tag = re.sub(r"[^\w.=-]+", "_", name)[:150]
                open(f"{obj}/logs/{tag}.out", "w").write(f"$ {' '.join(cmd)}\nrc={rc}\n{out}")
    counts[status.split("-")[0]] = counts.get(status.split("-")[0], 0) + 1
    results.write(f"{status:18} {secs:6.1f}s {name}\n")
    results.flush()

def run_dir(d, counts):
    for path in lists(d):
        for line in open(path):
            words = line.split("#")[0].split()
            if not words:
                continue
            if os.path.isdir(os.path.join(obj, d, words[0])) and \
                    any(lists(os.path.join(d, words[0]))):
                run_dir(os.path.join(d, words[0]), counts)
            else:
                run_test(d, words, counts)

bad = 0
for d in sys.argv[6:]:
    counts = {}
    run_dir(d, counts)
    c = lambda k: counts.get(k, 0)
    failed = c("fail") + c("timeout")
    bad += failed
    print(f"{d:10} run {c('pass') + failed:4}  passed {c('pass'):4}  failed {failed:4}"
          f"  skipped {c('skip'):4}", flush=True)
sys.exit(1 if bad else 0)
PYEOF
