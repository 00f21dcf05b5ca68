"""bench/compare: nodempi vs Open MPI vs MPICH vs the hardware limit, in one interleaved run.

Builds bench/*.c with each MPI's mpicc (make BUILD=build-<mpi>), then for every repetition runs
every benchmark job with every MPI back to back (the MPI order rotating per repetition), so slow
drifts of this shared machine hit all MPIs alike. Before each job it samples the one-way
cache-line latency between the two cores (bench/hwlimit), the floor that moves between ~35 and
~300 ns here; once per repetition it measures memcpy bandwidth per size. Reports medians over
repetitions, the spread, and nodempi / best peer computed within each repetition.
Run through the bench/compare wrapper; bench/README.md documents the options.
"""

import argparse
import csv
import datetime
import json
import math
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

MPIS = ["nodempi", "openmpi", "mpich"]
LABEL = {"nodempi": "nodempi", "openmpi": "Open MPI", "mpich": "MPICH"}
PEERS = ["openmpi", "mpich"]
APT = {"openmpi": ["openmpi-bin", "libopenmpi-dev"], "mpich": ["mpich", "libmpich-dev"]}
GROUPS = ["latency", "bw", "multipair", "skew", "coll", "collx", "imb_p2p", "rma", "halo2d",
          "cg"]
COLL_OPS = ["barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall",
            "reduce_scatter", "gather", "scatter"]
# collx: the rest of what IMB-MPI1, IMB-NBC and the OSU collectives measure (bench/coll.c too)
COLLX_BLOCKING = ["allgatherv", "gatherv", "scatterv", "alltoallv", "reduce_scatter_block",
                  "scan", "exscan", "reduce_local"]
COLLX_NONBLOCKING = ["ibarrier", "ibcast", "ireduce", "iallreduce", "iallgather", "iallgatherv",
                     "ialltoall", "ialltoallv", "igather", "igatherv", "iscatter", "iscatterv",
                     "ireduce_scatter", "ireduce_scatter_block", "iscan", "iexscan"]
COLLX_OPS = COLLX_BLOCKING + COLLX_NONBLOCKING
IMB_P2P = ["pingping", "sendrecv", "exchange"]
RMA_XFER = ["put", "get", "acc"]
RMA_SYNC = ["fetch_and_op", "cas", "lock_unlock", "fence"]

# Sweeps. Full: what docs/benchmarks.md shows. Quick: the same shapes with fewer points, two
# rank counts and three repetitions, so the whole thing stays under 3 minutes on this machine.
FULL = dict(latency="1:4M", bw="1:4M", multipair="1:4M:4", coll="4:4M:4", collx="4:4M:4",
            imb_p2p="0,1:4M:4", rma="4:1M:4",
            skew="0,1,2,5,10,20,50,100", halo2d="64,256,1024", cg="1K,16K,256K",
            ranks="2,4,8", reps=5, budget=0.1, timeout=600)
QUICK = dict(latency="8:2M:8", bw="8:2M:8", multipair="8,2K,64K", coll="4,512,16K,256K",
             collx="4,16K,256K", imb_p2p="0,512,16K,256K",
             rma="8,2K,64K", skew="0,5,20,50", halo2d="64,512", cg="1K,64K",
             ranks="2,4", reps=3, budget=0.015, timeout=90)
SMOKE = dict(latency="8", bw="8", multipair="8", coll="8", collx="8", imb_p2p="0,8", rma="8",
             skew="1", halo2d="16", cg="64", ranks="2", reps=1, budget=0.001, timeout=60)


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def run_quiet(cmd, timeout=600, env=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=timeout, env=env)
        return p.returncode, p.stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        return -1, str(e)


def parse_sizes(spec):
    """Same grammar as bench/common.c: '4:4M' powers of two, '4:4M:4' factor 4, lists."""
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}

    def one(t):
        t = t.strip()
        return int(t[:-1]) * mult[t[-1].upper()] if t[-1].upper() in mult else int(t)

    out = []
    for part in spec.split(","):
        f = part.split(":")
        if len(f) == 1:
            out.append(one(f[0]))
            continue
        a, b, k = one(f[0]), one(f[1]), (one(f[2]) if len(f) > 2 else 2)
        while a <= b:
            out.append(a)
            a *= k
    return out


def human(n):
    n = int(n)
    for unit, sh in (("M", 20), ("K", 10)):
        if n >= 1 << sh and n % (1 << sh) == 0:
            return "%d%s" % (n >> sh, unit)
    return str(n)


def fmt(v):
    if v is None:
        return "n/a"
    a = abs(v)
    if a >= 100:
        return "%.0f" % v
    if a >= 10:
        return "%.1f" % v
    if a >= 1:
        return "%.2f" % v
    return "%.3g" % v


def lower_is_better(metric):
    return not metric.endswith("MBps")


# ---------------------------------------------------------------- MPIs: find, install, build

class Mpi:
    def __init__(self, name, mpicc, mpiexec):
        self.name, self.mpicc, self.mpiexec = name, mpicc, mpiexec
        self.build = os.path.join(HERE, "build-" + name)
        self.ok = False
        self.why = ""
        self.has_rma = False
        self.version = ""

    def launch(self, n, prog, args, ncpus, rt=False):
        bind = "core" if n <= ncpus else "none"
        exe = os.path.join(self.build, prog)
        pre = realtime_prefix(rt and n <= ncpus)
        if self.name == "mpich":
            return pre + [self.mpiexec, "-n", str(n), "-bind-to", bind, exe] + args
        cmd = pre + [self.mpiexec, "-n", str(n), "--bind-to", bind]
        if self.name == "openmpi" and n > ncpus:
            cmd.append("--oversubscribe")
        return cmd + [exe] + args


def realtime_prefix(on):
    """--rt: run a job whose ranks each have a core under SCHED_FIFO, so the other tenants of a
    shared machine (builds, tests) cannot preempt it; the kernel's real-time throttling still
    leaves them 5% of every second. Never for oversubscribed jobs: ranks of one priority that
    busy-wait (MPICH) would starve each other."""
    return ["chrt", "-f", "10"] if on else []


def run_env():
    env = dict(os.environ)
    # Open MPI refuses root without these.
    env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    # Open MPI 4.1's default one-sided component (osc/rdma over btl/vader) segfaults in
    # MPI_Compare_and_swap on 64-bit types (open-mpi/ompi#11349, #7967); osc/sm is its
    # shared-memory one-sided component and the fastest it has on one node. Affects RMA only.
    env.setdefault("OMPI_MCA_osc", "sm")
    return env


def apt_install(pkgs):
    if not shutil.which("apt-get"):
        log("cannot install %s: no apt-get" % " ".join(pkgs))
        return False
    pre = [] if os.geteuid() == 0 else (["sudo"] if shutil.which("sudo") else None)
    if pre is None:
        log("cannot install %s: not root and no sudo" % " ".join(pkgs))
        return False
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    log("installing with apt-get: " + " ".join(pkgs))
    subprocess.run(pre + ["apt-get", "update"], env=env, stdout=subprocess.DEVNULL)
    return subprocess.run(pre + ["apt-get", "install", "-y"] + pkgs, env=env,
                          stdout=subprocess.DEVNULL).returncode == 0


def find_mpis(wanted, args):
    mpis = []
    need = []
    for m in wanted:
        if m in APT and not (shutil.which("mpicc." + m) and shutil.which("mpiexec." + m)):
            need += APT[m]
    if not shutil.which("make"):
        need.append("make")
    if need and args.install:
        apt_install(need)
    for m in wanted:
        if m == "nodempi":
            prefix = args.nodempi_prefix or os.path.join(REPO, "build")
            mpi = Mpi(m, os.path.join(prefix, "bin", "mpicc"), os.path.join(prefix, "bin", "mpiexec"))
            if not (os.access(mpi.mpicc, os.X_OK) and os.access(mpi.mpiexec, os.X_OK)):
                mpi.why = "not built yet (no %s)" % os.path.relpath(mpi.mpicc, REPO)
        else:
            mpi = Mpi(m, shutil.which("mpicc." + m) or "mpicc." + m,
                      shutil.which("mpiexec." + m) or "mpiexec." + m)
            if not shutil.which(mpi.mpicc):
                mpi.why = "not installed (%s missing)" % mpi.mpicc
        mpis.append(mpi)
    return mpis


def build(mpi):
    if mpi.why:
        return
    # -B: always rebuild, so a rebuilt nodempi library is never measured through stale binaries.
    rc, out = run_quiet(["make", "-B", "-j2", "-C", HERE, "MPICC=" + mpi.mpicc,
                         "BUILD=build-" + mpi.name])
    if rc != 0:
        mpi.why = "build failed (see %s/build.log)" % os.path.relpath(mpi.build, REPO)
        os.makedirs(mpi.build, exist_ok=True)
        with open(os.path.join(mpi.build, "build.log"), "w") as f:
            f.write(out)
        log("%s: %s\n%s" % (mpi.name, mpi.why, out[-3000:]))
        return
    mpi.ok = True
    mpi.has_rma = os.path.exists(os.path.join(mpi.build, "rma"))
    if not mpi.has_rma:
        log("%s: no MPI-3 RMA, one-sided benchmarks skipped" % mpi.name)
    rc, out = run_quiet([mpi.mpiexec, "--version"], timeout=10, env=run_env())
    lines = [l.strip() for l in out.splitlines() if l.strip()] if rc == 0 else []
    if mpi.name == "mpich":
        lines = [l for l in lines if l.startswith("Version:")] or lines
    mpi.version = " ".join(lines[0].split()) if lines else "?"


def build_hw():
    rc, out = run_quiet(["make", "-B", "-C", HERE, "BUILD=build-hw", "hwlimit"])
    if rc != 0:
        log("hwlimit build failed; no hardware limit\n" + out[-2000:])
        return None
    return os.path.join(HERE, "build-hw", "hwlimit")


# ---------------------------------------------------------------- jobs

class Job:
    def __init__(self, group, prog, args, ranks, rma=False):
        self.group, self.prog, self.args, self.ranks, self.rma = group, prog, args, ranks, rma

    def __str__(self):
        return "%s -n %d %s" % (self.prog, self.ranks, " ".join(self.args))


# The two vCPUs sit either close (one-way cache-line latency 24-60 ns here) or far (150-300 ns);
# the host moves them every few seconds.
PLACEMENT_SPLIT_NS = 110


def measure_floor(hw, rt, rep, t_start, raw_hw, floor_samples):
    """One cache-line latency probe: appended to raw_hw and floor_samples (with the load
    average, to see why numbers move); returns the one-way ns or None."""
    rc, o = run_quiet(realtime_prefix(rt) + [hw, "-c", "cacheline", "-t", "0.05"], timeout=30)
    ns = None
    for b, x, n, me, v in parse_csv(o):
        raw_hw.append(dict(rep=rep, benchmark=b, x=x, ranks=n, metric=me, value=v,
                           t=round(time.time() - t_start, 1)))
        if me == "oneway_ns":
            ns = v
            floor_samples.append((round(time.time() - t_start, 1), v,
                                  round(os.getloadavg()[0], 1)))
    return ns


def placement_of(before, after):
    if before is None or after is None:
        return ""
    a, b = before < PLACEMENT_SPLIT_NS, after < PLACEMENT_SPLIT_NS
    return "mixed" if a != b else ("close" if a else "far")


def placement_lines(raw, markdown):
    """Ratios nodempi / best peer taken only between runs of one repetition that started and
    ended at the same placement (2-rank latency, sizes up to 64 KiB: where the placement
    decides the time). Per placement: the median ratio and how many (repetition, size) pairs
    had nodempi and at least one peer there."""
    cells = {}
    for r in raw:
        if (r.get("place") in ("close", "far") and r["ranks"] == 2 and
                r["benchmark"] == "latency" and r["metric"] == "lat_us" and r["x"] <= 65536):
            cells.setdefault((r["x"], r["place"], r["rep"]), {})[r["mpi"]] = r["value"]
    by = {}
    for (x, place, rep), per in cells.items():
        peers = [per[p] for p in PEERS if p in per]
        if "nodempi" in per and peers and min(peers) > 0:
            by.setdefault((x, place), []).append(per["nodempi"] / min(peers))
    if not by:
        return ""
    head = ["size", "close: ratio", "pairs", "far: ratio", "pairs"]
    body = []
    for x in sorted({k[0] for k in by}):
        line = [human(x)]
        for place in ("close", "far"):
            v = by.get((x, place), [])
            line += [fmt(statistics.median(v)) if v else "-", str(len(v))]
        body.append(line)
    title = ("latency lat_us, 2 ranks, same placement only (ratio = nodempi / best peer among "
             "the runs of the same repetition that began and ended at nodempi's placement; "
             "close: floor < %d ns)" % PLACEMENT_SPLIT_NS)
    return render(title, head, body, markdown)


def plan(cfg, groups, ranks, sizes_override, recv_offset=0):
    s = dict(cfg)
    if sizes_override:
        for k in ("latency", "bw", "multipair", "coll", "collx", "imb_p2p", "rma"):
            s[k] = sizes_override
    t = ["-t", str(cfg["budget"])]
    jobs = []
    # Two-process benchmarks run on 2 ranks, one per core.
    # --recv-offset: receive buffers that many bytes past a page, as malloc'd ones are.
    a = ["-a", str(recv_offset)] if recv_offset else []
    # bw also with one receive buffer (OSU's way, where the 4 MiB-vs-memcpy target is read).
    two = {"latency": [], "bw": ["-c", "uni,bi,uni_onebuf,bi_onebuf"]}
    for g in ("latency", "bw"):
        if g in groups:
            jobs.append(Job(g, g, ["-s", s[g]] + two[g] + a + t, 2))
    if "latency" in groups:
        # The nonblocking forms real codes use (Irecv + Send + Wait; Irecv + Isend + Waitall;
        # an MPI_Test loop; MPI_Waitany), at the sizes where the software path, not the copy,
        # sets the time.
        nb_sizes = ",".join(x for x in s["latency"].split(",") if ":" not in x) \
            if ":" not in s["latency"] else "8,64,512,4K,64K"
        jobs.append(Job("latency", "latency", ["-s", nb_sizes, "-c", "irecv,nonblocking,test,waitany"] + a + t, 2))
    if "skew" in groups:
        # 16 KiB as seed 001 Fig. 6; 1 KiB is eager in every MPI, for contrast.
        for m in ("16K", "1K"):
            jobs.append(Job("skew", "skew", ["-s", s["skew"], "-m", m] + t, 2))
    for n in ranks:
        if "latency" in groups and n > 2:
            # Issue 5's oversubscribed case: ranks 0 and 1 ping-pong while the others wait in
            # the timing agreement (a collective), up to the largest size that stays cheap.
            jobs.append(Job("latency", "latency", ["-s", "8,512,4K,64K"] + t, n))
        if "multipair" in groups:
            jobs.append(Job("multipair", "multipair", ["-s", s["multipair"]] + t, n))
        if "coll" in groups:
            jobs.append(Job("coll", "coll", ["-s", s["coll"], "-c", ",".join(COLL_OPS)] + t, n))
        if "collx" in groups:
            # the nonblocking ones twice: post + wait, and overlapped with compute (exposed_us)
            sel = ",".join(COLLX_OPS + ["overlap"])
            jobs.append(Job("collx", "coll", ["-s", s["collx"], "-c", sel] + t, n))
        if "imb_p2p" in groups and n <= 4:  # IMB's PingPing, Sendrecv, Exchange at 2 and 4
            jobs.append(Job("imb_p2p", "imb_p2p", ["-s", s["imb_p2p"]] + t, n))
        if "rma" in groups:
            # Passive-target ops are between ranks 0 and 1 whatever n is; only the fence epoch
            # involves every rank, so that is all that runs at the oversubscribed counts.
            extra = [] if n == 2 else ["-c", "fence"]
            jobs.append(Job("rma", "rma", ["-s", s["rma"]] + extra + t, n, rma=True))
        for g in ("halo2d", "cg"):
            if g in groups:
                jobs.append(Job(g, g, ["-s", s[g]] + t, n))
    return jobs


def parse_csv(out):
    rows = []
    for line in out.splitlines():
        f = line.strip().split(",")
        if len(f) != 5 or f[0] == "benchmark":
            continue
        try:
            rows.append((f[0], float(f[1]), int(f[2]), f[3], float(f[4])))
        except ValueError:
            pass
    return rows


def run_job(cmd, timeout, env):
    """Run one MPI job in its own process group; on timeout kill that group, nothing else."""
    t0 = time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                break
            try:
                out, err = p.communicate(timeout=5)
                break
            except subprocess.TimeoutExpired:
                continue
        return None, "timeout after %.0f s" % timeout, time.time() - t0
    if p.returncode != 0:
        tail = " | ".join(l for l in err.strip().splitlines()[-3:])
        return parse_csv(out), "exit %d: %s" % (p.returncode, tail[:300]), time.time() - t0
    return parse_csv(out), None, time.time() - t0


# ---------------------------------------------------------------- statistics

def spread(vals):
    """Half the interquartile range relative to the median, in percent (half the full range
    below 5 repetitions, where quartiles mean nothing)."""
    med = statistics.median(vals)
    if not med or len(vals) < 2:
        return 0.0
    if len(vals) >= 5:
        q = statistics.quantiles(vals, n=4, method="inclusive")
        lo, hi = q[0], q[2]
    else:
        lo, hi = min(vals), max(vals)
    return (hi - lo) / 2 / med * 100


def pm(c):
    sp = c["spread_pct"]
    return "%s ±%s" % (fmt(c["median"]), ">999%" if sp > 999 else "%.0f%%" % sp)


def summarize(raw):
    """raw: dicts with rep, mpi, benchmark, x, ranks, metric, value. Returns summary rows."""
    cells = {}
    for r in raw:
        key = (r["benchmark"], r["metric"], r["ranks"], r["x"])
        cells.setdefault(key, {}).setdefault(r["mpi"], {})[r["rep"]] = r["value"]
    out = []
    for key in sorted(cells, key=lambda k: (k[0], k[1], k[2], k[3])):
        per = cells[key]
        row = dict(benchmark=key[0], metric=key[1], ranks=key[2], x=key[3])
        for m in MPIS:
            vals = list(per.get(m, {}).values())
            if vals:
                row[m] = dict(median=statistics.median(vals), min=min(vals), max=max(vals),
                              n=len(vals), spread_pct=spread(vals))
        # nodempi / best peer within each repetition, then the median of those ratios.
        ratios = []
        low = lower_is_better(key[1])
        for rep, v in per.get("nodempi", {}).items():
            peers = [per[p][rep] for p in PEERS if p in per and rep in per[p]]
            if peers:
                best = min(peers) if low else max(peers)
                if best:
                    ratios.append(v / best)
        if ratios:
            row["ratio"] = dict(median=statistics.median(ratios), min=min(ratios),
                                max=max(ratios), n=len(ratios))
        out.append(row)
    return out


def hw_limits(raw_hw, ncpus):
    floors = [r["value"] for r in raw_hw if r["benchmark"] == "cacheline" and r["metric"] == "oneway_ns"]
    per = {"memcpy": {}, "xcopy": {}}
    for r in raw_hw:
        if r["benchmark"] in per:
            per[r["benchmark"]].setdefault(int(r["x"]), []).append(r["value"])
    memcpy = {k: statistics.median(v) for k, v in per["memcpy"].items()}
    xcopy = {k: statistics.median(v) for k, v in per["xcopy"].items()}
    floor = statistics.median(floors) if floors else None
    return floor, memcpy, xcopy


def limit_for(row, floor, memcpy, ncpus):
    """The hardware bound for a summary row, or None where no simple one applies."""
    b, m, n, x = row["benchmark"], row["metric"], row["ranks"], int(row["x"])
    mcb = memcpy.get(x if x > 0 else 1)
    if mcb is None:
        return None
    copy_us = x / mcb  # bytes / (1e6 B/s) = microseconds
    if (b, m) == ("latency", "lat_us") or (b == "multipair" and m.startswith("lat_") and n <= ncpus):
        # one cache-line crossing plus one copy of the payload
        return floor / 1000 + copy_us if floor is not None else None
    if (b, m) == ("bw", "uni_MBps"):
        return mcb
    if (b, m) == ("bw", "bi_MBps"):
        return min(2, ncpus) * mcb
    if b == "multipair" and m.startswith("bw_"):
        return min(max(n // 2, 1), ncpus) * mcb
    return None


# ---------------------------------------------------------------- tables

def group_rows(summary):
    groups = {}
    for r in summary:
        groups.setdefault((r["benchmark"], r["metric"], r["ranks"]), []).append(r)
    order = {b: i for i, b in enumerate(["latency", "bw", "multipair", "skew"] + IMB_P2P +
                                         COLL_OPS + COLLX_OPS + RMA_XFER + RMA_SYNC +
                                         ["halo2d", "cg"])}
    return sorted(groups.items(), key=lambda kv: (order.get(kv[0][0], 99), kv[0][1], kv[0][2]))


XNAME = {"skew": "c2 (us)", "halo2d": "n", "cg": "n"}
SYNC_ONE = set(RMA_SYNC)


def tables(summary, floor, memcpy, ncpus, markdown=False):
    cols = [LABEL[m] for m in MPIS]
    parts = []
    groups = group_rows(summary)
    # One-point RMA synchronisation results: one combined table per rank count.
    sync = [(k, rows) for k, rows in groups if k[0] in SYNC_ONE]
    other = [(k, rows) for k, rows in groups if k[0] not in SYNC_ONE]
    for (b, metric, n), rows in other:
        better = "lower" if lower_is_better(metric) else "higher"
        title = "%s %s, %d ranks%s (%s is better; ratio = nodempi / best peer)" % (
            b, metric, n, " oversubscribed" if n > ncpus else "", better)
        if b == "skew":
            title += "; message %sB, c1 = 1 us, window 64" % metric.split("_")[1]
        head = [XNAME.get(b, "size")] + cols + ["ratio", "limit"]
        body = []
        for r in rows:
            x = r["x"]
            xs = str(int(x)) if b in XNAME else human(x)
            line = [xs]
            for m in MPIS:
                c = r.get(m)
                line.append(pm(c) if c else "n/a")
            line.append(fmt(r["ratio"]["median"]) if "ratio" in r else "n/a")
            lim = limit_for(r, floor, memcpy, ncpus)
            line.append(fmt(lim) if lim is not None else "-")
            body.append(line)
        parts.append(render(title, head, body, markdown))
    by_n = {}
    for (b, metric, n), rows in sync:
        by_n.setdefault(n, []).extend(rows)
    for n, rows in sorted(by_n.items()):
        title = "rma synchronisation and atomics lat_us, %d ranks (lower is better)" % n
        head = ["operation"] + cols + ["ratio"]
        body = []
        for r in rows:
            line = [r["benchmark"]]
            for m in MPIS:
                c = r.get(m)
                line.append(pm(c) if c else "n/a")
            line.append(fmt(r["ratio"]["median"]) if "ratio" in r else "n/a")
            body.append(line)
        parts.append(render(title, head, body, markdown))
    return parts


def render(title, head, body, markdown):
    if markdown:
        s = "**%s**\n\n| %s |\n|%s\n" % (title, " | ".join(head), "---|" * len(head))
        return s + "".join("| %s |\n" % " | ".join(l) for l in body)
    w = [max(len(str(r[i])) for r in [head] + body) for i in range(len(head))]
    lines = [title, "  ".join(h.rjust(w[i]) for i, h in enumerate(head))]
    lines += ["  ".join(str(c).rjust(w[i]) for i, c in enumerate(l)) for l in body]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- plots

COLOR = {"nodempi": "tab:red", "openmpi": "tab:blue", "mpich": "tab:green"}


def get_mpl(install):
    try:
        import matplotlib
    except ImportError:
        if not install:
            return None
        if sys.executable.startswith("/usr/bin/") and shutil.which("apt-get"):
            apt_install(["python3-matplotlib"])
        else:
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", "matplotlib"])
        try:
            import matplotlib
        except ImportError:
            return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def series(summary, b, metric, n, mpi):
    pts = [(r["x"], r[mpi]) for r in summary
           if r["benchmark"] == b and r["metric"] == metric and r["ranks"] == n and mpi in r]
    pts.sort(key=lambda p: p[0])
    return ([p[0] for p in pts], [p[1]["median"] for p in pts],
            [p[1]["median"] - p[1]["min"] for p in pts], [p[1]["max"] - p[1]["median"] for p in pts])


def draw(ax, summary, b, metric, n, limit=None, style="-", label_suffix="", logx=True, logy=True):
    any_ = False
    for m in MPIS:
        x, y, lo, hi = series(summary, b, metric, n, m)
        if not x:
            continue
        any_ = True
        if logx:
            x = [max(v, 0.5) for v in x]
        ax.errorbar(x, y, yerr=[lo, hi], fmt=style, marker="o", ms=3, capsize=2,
                    color=COLOR[m], label=LABEL[m] + label_suffix)
    if limit:
        lx, ly = limit
        if lx:
            ax.plot(lx, ly, "k--", lw=1, label="hardware limit" + label_suffix)
    if logx:
        ax.set_xscale("log", base=2)
    if logy:
        ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    return any_


def limit_line(summary, b, metric, n, floor, memcpy, ncpus):
    xs = sorted({r["x"] for r in summary if r["benchmark"] == b and r["metric"] == metric
                 and r["ranks"] == n})
    pts = [(x, limit_for(dict(benchmark=b, metric=metric, ranks=n, x=x), floor, memcpy, ncpus))
           for x in xs]
    pts = [p for p in pts if p[1] is not None]
    return [max(p[0], 0.5) for p in pts], [p[1] for p in pts]


def plots(plt, summary, out, floor, memcpy, xcopy, ncpus, ranks, floor_samples):
    made = []

    def save(fig, name):
        fig.tight_layout()
        fig.savefig(os.path.join(out, name), dpi=110)
        plt.close(fig)
        made.append(name)

    have = {(r["benchmark"], r["metric"], r["ranks"]) for r in summary}
    if ("latency", "lat_us", 2) in have or ("bw", "uni_MBps", 2) in have:
        fig, axs = plt.subplots(1, 3, figsize=(15, 4.5))
        for ax, (b, met, ttl) in zip(axs, [("latency", "lat_us", "ping-pong latency (us)"),
                                           ("bw", "uni_MBps", "unidirectional bandwidth (MB/s), window 64"),
                                           ("bw", "bi_MBps", "bidirectional bandwidth (MB/s), window 64")]):
            draw(ax, summary, b, met, 2, limit_line(summary, b, met, 2, floor, memcpy, ncpus))
            if b == "bw" and xcopy:
                k = 2 if met == "bi_MBps" else 1
                xs = sorted(xcopy)
                ax.plot(xs, [k * xcopy[x] for x in xs], "k:", lw=1, label="cross-core copy")
            ax.set_title(ttl + ", 2 ranks")
            ax.set_xlabel("message bytes")
            ax.legend(fontsize=8)
        save(fig, "p2p.png")
    mp_ranks = [n for n in ranks if ("multipair", "bw_noreuse_MBps", n) in have]
    if mp_ranks:
        fig, axs = plt.subplots(2, len(mp_ranks), figsize=(5 * len(mp_ranks), 8), squeeze=False)
        for j, n in enumerate(mp_ranks):
            for i, kind in enumerate(("bw", "lat")):
                ax = axs[i][j]
                for reuse, st in (("noreuse", "-"), ("reuse", ":")):
                    met = "%s_%s_%s" % (kind, reuse, "MBps" if kind == "bw" else "us")
                    draw(ax, summary, "multipair", met, n,
                         limit_line(summary, "multipair", met, n, floor, memcpy, ncpus)
                         if reuse == "noreuse" else None, style=st, label_suffix=" " + reuse)
                ax.set_title("multi-pair %s, %d ranks (%d pairs)%s" % (
                    "aggregate MB/s" if kind == "bw" else "latency us", n, n // 2,
                    " oversub." if n > ncpus else ""))
                ax.set_xlabel("message bytes")
                ax.legend(fontsize=7)
        save(fig, "multipair.png")
    for n in ranks:
        ops = [op for op in COLL_OPS if (op, "lat_us", n) in have]
        if not ops:
            continue
        fig, axs = plt.subplots(3, 3, figsize=(14, 11), squeeze=False)
        for k, op in enumerate(COLL_OPS):
            ax = axs[k // 3][k % 3]
            if op not in ops:
                ax.axis("off")
                continue
            if op == "barrier":  # one point per MPI: bars
                vals = [(m, r[m]["median"]) for r in summary for m in MPIS
                        if r["benchmark"] == "barrier" and r["ranks"] == n and m in r]
                ax.bar([LABEL[m] for m, _ in vals], [v for _, v in vals],
                       color=[COLOR[m] for m, _ in vals])
                ax.set_ylabel("us")
                ax.set_yscale("log")
            else:
                draw(ax, summary, op, "lat_us", n)
                ax.set_xlabel("bytes")
                ax.legend(fontsize=7)
            ax.set_title("%s latency (us), %d ranks" % (op, n))
        save(fig, "coll_%dranks.png" % n)
    skew_metrics = sorted({met for (b, met, n) in have if b == "skew"},
                          key=lambda m: parse_sizes(m.split("_")[1]))
    if skew_metrics:
        fig, axs = plt.subplots(1, len(skew_metrics), figsize=(6.5 * len(skew_metrics), 4.5),
                                squeeze=False)
        for ax, met in zip(axs[0], skew_metrics):
            draw(ax, summary, "skew", met, 2, logx=False, logy=False)
            xs = sorted({r["x"] for r in summary if r["benchmark"] == "skew"})
            ax.plot(xs, [64 * 1.0 for _ in xs], "k:", lw=1, label="eager ideal 64*c1")
            ax.plot(xs, [64 * x for x in xs], "k--", lw=1, label="receiver-bound 64*c2")
            ax.set_xlabel("consumer compute c2 per message (us)")
            ax.set_ylabel("producer time c3 (us)")
            ax.set_title("process skew (seed 001 Fig. 5): %sB, c1 = 1 us, window 64"
                         % met.split("_")[1])
            ax.legend(fontsize=8)
        save(fig, "skew.png")
    if any((b, "lat_us", 2) in have for b in RMA_XFER):
        fig, axs = plt.subplots(2, 3, figsize=(15, 8))
        for j, b in enumerate(RMA_XFER):
            for i, met in enumerate(("lat_us", "bw_MBps")):
                draw(axs[i][j], summary, b, met, 2)
                axs[i][j].set_title("MPI_%s %s, 2 ranks" % (
                    {"put": "Put", "get": "Get", "acc": "Accumulate"}[b],
                    "latency + flush (us)" if i == 0 else "bandwidth, 64 per flush (MB/s)"))
                axs[i][j].set_xlabel("bytes")
                axs[i][j].legend(fontsize=7)
        save(fig, "rma.png")
    sync_n = sorted({n for (b, met, n) in have if b in SYNC_ONE})
    if sync_n:
        fig, axs = plt.subplots(1, len(sync_n), figsize=(6 * len(sync_n), 4.5), squeeze=False)
        for j, n in enumerate(sync_n):
            ax = axs[0][j]
            ops = [b for b in RMA_SYNC if (b, "lat_us", n) in have]
            present = [m for m in MPIS if any(r["benchmark"] in ops and r["ranks"] == n and m in r
                                              for r in summary)]
            w = 0.8 / max(len(present), 1)
            for k, m in enumerate(present):
                ys = []
                for b in ops:
                    r = [r for r in summary if r["benchmark"] == b and r["ranks"] == n and m in r]
                    ys.append(r[0][m]["median"] if r else 0)
                ax.bar([i + k * w for i in range(len(ops))], ys, w, color=COLOR[m], label=LABEL[m])
            ax.set_xticks([i + w * (len(present) - 1) / 2 for i in range(len(ops))])
            ax.set_xticklabels(ops)
            ax.set_yscale("log")
            ax.set_ylabel("us")
            ax.set_title("RMA atomics and epochs, %d ranks" % n)
            ax.legend(fontsize=7)
        save(fig, "rma_sync.png")
    apps = [b for b in ("halo2d", "cg") if any(k[0] == b for k in have)]
    if apps:
        fig, axs = plt.subplots(len(apps), len(ranks), figsize=(5 * len(ranks), 4 * len(apps)),
                                squeeze=False)
        for i, b in enumerate(apps):
            for j, n in enumerate(ranks):
                ax = axs[i][j]
                draw(ax, summary, b, "iter_us", n)
                ax.set_title("%s time per iteration (us), %d ranks" % (b, n))
                ax.set_xlabel("local grid edge n" if b == "halo2d" else "unknowns per rank")
                ax.legend(fontsize=7)
        save(fig, "apps.png")
    if floor_samples:
        fig, ax = plt.subplots(figsize=(8, 3.5))
        ax.plot([s[0] for s in floor_samples], [s[1] for s in floor_samples], ".-", color="k")
        ax.set_xlabel("seconds into the run")
        ax.set_ylabel("one-way cache-line latency (ns)")
        ax.set_title("hardware floor measured during the run (core 0 <-> core 1)")
        ax.grid(True, alpha=0.3)
        if all(len(s) > 2 for s in floor_samples):
            ax2 = ax.twinx()
            ax2.plot([s[0] for s in floor_samples], [s[2] for s in floor_samples], "-",
                     color="tab:orange", alpha=0.6)
            ax2.set_ylabel("host load average (1 min)", color="tab:orange")
        save(fig, "hw_floor.png")
    return made


# ---------------------------------------------------------------- machine description

def machine():
    d = {"host_python": sys.version.split()[0], "kernel": platform.release()}
    rc, out = run_quiet(["lscpu"], timeout=10)
    if rc == 0:
        for line in out.splitlines():
            k, _, v = line.partition(":")
            if k.strip() in ("Model name", "CPU(s)", "Hypervisor vendor", "L1d cache", "L2 cache",
                             "L3 cache", "Thread(s) per core", "NUMA node(s)"):
                d[k.strip()] = v.strip()
    try:
        with open("/proc/meminfo") as f:
            d["MemTotal"] = f.readline().split(":")[1].strip()
        with open("/etc/debian_version") as f:
            d["debian"] = f.read().strip()
    except OSError:
        pass
    return d


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(prog="bench/compare", description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer points, ranks 2,4, 3 reps (< 3 min)")
    ap.add_argument("--smoke", action="store_true",
                    help="CI: build against nodempi only, run every benchmark once, tiny; "
                         "exit 1 on any failure")
    ap.add_argument("--mpis", help="comma list of %s (default all; --smoke: nodempi)" % ",".join(MPIS))
    ap.add_argument("--bench", help="comma list of %s (default all)" % ",".join(GROUPS))
    ap.add_argument("--sizes", help="override the message sizes of latency, bw, multipair, coll "
                                    "and rma, e.g. 8,1K,64K or 4:4M:4")
    ap.add_argument("--ranks", help="rank counts for multi-rank benchmarks (default 2,4,8)")
    ap.add_argument("--reps", type=int, help="repetitions of every measurement (default 5)")
    ap.add_argument("--recv-offset", type=int, default=0,
                    help="2-rank latency and bw receive into buffers this many bytes past a page "
                         "(e.g. 16, where malloc puts them; default 0: page-aligned)")
    ap.add_argument("--budget", type=float, help="seconds of timed work per point (default 0.1)")
    ap.add_argument("--timeout", type=float, help="seconds before one MPI job is killed")
    ap.add_argument("--out", help="output directory (default bench/results/<date>)")
    ap.add_argument("--nodempi-prefix", help="nodempi install or build dir holding bin/mpicc, "
                                             "bin/mpiexec (default <repo>/build)")
    ap.add_argument("--no-install", dest="install", action="store_false",
                    help="never apt-get/pip install anything")
    ap.add_argument("--no-plots", dest="plots", action="store_false")
    ap.add_argument("--rt", action="store_true",
                    help="run jobs with a core per rank (and the hardware probe) under "
                         "SCHED_FIFO (chrt -f 10; needs root or CAP_SYS_NICE): a shared, busy "
                         "machine then measures like a quiet one")
    ap.add_argument("--report", metavar="DIR", help="run nothing: redo tables, JSON and plots "
                                                    "from DIR/raw.csv of an earlier run")
    args = ap.parse_args()
    if args.report:
        report(args.report, *load_run(args.report), args)
        return 0

    cfg = dict(SMOKE if args.smoke else QUICK if args.quick else FULL)
    for k in ("reps", "budget", "timeout"):
        if getattr(args, k) is not None:
            cfg[k] = getattr(args, k)
    ranks = [int(r) for r in (args.ranks or cfg["ranks"]).split(",")]
    groups = args.bench.split(",") if args.bench else GROUPS
    if args.quick and not args.bench:  # collx alone would take --quick past its 3 minutes
        groups = [g for g in groups if g != "collx"]
    bad = [g for g in groups if g not in GROUPS]
    wanted = args.mpis.split(",") if args.mpis else (["nodempi"] if args.smoke else MPIS)
    bad += [m for m in wanted if m not in MPIS]
    if bad:
        ap.error("unknown: " + ",".join(bad))
    ncpus = len(os.sched_getaffinity(0))
    if args.smoke:
        args.install = args.install and any(m in APT for m in wanted)
    t_start = time.time()
    date = datetime.date.today().isoformat()  # the day the run started

    mpis = find_mpis(wanted, args)
    for m in mpis:
        build(m)
    for m in mpis:
        log("%-8s %s" % (m.name, ("built, " + m.version) if m.ok else m.why))
    live = [m for m in mpis if m.ok]
    if args.smoke and len(live) < len(mpis):
        log("smoke: FAILED (an MPI did not build)")
        return 1
    hw = build_hw() if not args.smoke else None
    jobs = plan(cfg, groups, ranks, args.sizes, args.recv_offset)
    env = run_env()

    out = None if (args.smoke and not args.out) else (args.out or os.path.join(HERE, "results", date))
    if out:
        os.makedirs(out, exist_ok=True)

    # memcpy sizes: every size a limit column can need
    memcpy_sizes = sorted({max(int(x), 1) for g in ("latency", "bw", "multipair")
                           for x in parse_sizes(args.sizes or cfg[g])})
    window_sizes = sorted(x for x in {int(x) for x in parse_sizes(args.sizes or cfg["bw"])}
                          if x >= (1 << 20)) if "bw" in groups else []
    raw, raw_hw, floor_samples, failures, runs = [], [], [], [], []
    for rep in range(cfg["reps"]):
        order = live[rep % len(live):] + live[:rep % len(live)] if live else []
        if hw:
            rc, o = run_quiet(realtime_prefix(args.rt) +
                              [hw, "-c", "memcpy,xcopy", "-t", "0.05",
                               "-s", ",".join(str(s) for s in memcpy_sizes)], timeout=120)
            if window_sizes:  # memcpy into bw's 64 receive buffers in turn (DRAM from 1 MiB)
                rc, ow = run_quiet(realtime_prefix(args.rt) +
                                   [hw, "-c", "memcpy_window", "-t", "0.05",
                                    "-s", ",".join(str(s) for s in window_sizes)], timeout=300)
                o += "\n".join(ow.splitlines()[1:]) + "\n"
            raw_hw += [dict(rep=rep, benchmark=b, x=x, ranks=n, metric=me, value=v, t=None)
                       for b, x, n, me, v in parse_csv(o)]
        for job in jobs:
            if hw:  # the floor right now, next to the numbers it bounds
                measure_floor(hw, args.rt, rep, t_start, raw_hw, floor_samples)
            before = floor_samples[-1][1] if hw and floor_samples else None
            for m in order:
                if job.rma and not m.has_rma:
                    continue
                cmd = m.launch(job.ranks, job.prog, job.args, ncpus, args.rt)
                rows, err, dt = run_job(cmd, cfg["timeout"], env)
                place = ""
                if hw and job.ranks == 2 and not args.smoke:
                    # The floor again: a run is "close" or "far" when it starts and ends at one
                    # placement of the vCPUs (else "mixed"), so that ratios can be taken between
                    # runs that had the same hardware under them (placement_lines).
                    after = measure_floor(hw, args.rt, rep, t_start, raw_hw, floor_samples)
                    place = placement_of(before, after)
                    before = after
                if err is None and not rows:
                    err = "no result lines"
                runs.append(dict(rep=rep, mpi=m.name, job=str(job), seconds=round(dt, 2),
                                 error=err))
                if err:
                    failures.append(dict(rep=rep, mpi=m.name, job=str(job), error=err))
                    log("FAIL %s [%s] %s" % (m.name, job, err))
                for b, x, n, me, v in rows or []:
                    raw.append(dict(rep=rep, mpi=m.name, benchmark=b, x=x, ranks=n, metric=me,
                                    value=v, t=round(time.time() - t_start, 1), place=place))
                if args.smoke:
                    log("%-5s %-8s %-40s %.1f s" % ("ok" if not err else "FAIL", m.name, job, dt))
        log("repetition %d/%d done, %.0f s" % (rep + 1, cfg["reps"], time.time() - t_start))

    if args.smoke:
        skipped = [m.name for m in live if not m.has_rma and "rma" in groups]
        if skipped:
            log("smoke: rma skipped for %s (no MPI-3 RMA)" % ",".join(skipped))
        log("smoke: %s in %.0f s" % ("FAILED" if failures else "passed", time.time() - t_start))
        return 1 if failures else 0

    meta = dict(date=date, command="bench/compare " + " ".join(sys.argv[1:]),
                elapsed_s=round(time.time() - t_start, 1), config=cfg, ranks=ranks,
                groups=groups, machine=machine(), ncpus=ncpus,
                mpis={m.name: dict(ok=m.ok, why=m.why, version=m.version, rma=m.has_rma,
                                   mpicc=m.mpicc, mpiexec=m.mpiexec) for m in mpis},
                floor_samples=floor_samples)
    with open(os.path.join(out, "raw.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["rep", "mpi", "benchmark", "x", "ranks", "metric", "value", "t_s",
                    "placement"])
        for r in raw:
            w.writerow([r["rep"], r["mpi"], r["benchmark"], r["x"], r["ranks"], r["metric"],
                        r["value"], r["t"], r.get("place", "")])
        for r in raw_hw:
            w.writerow([r["rep"], "hardware", r["benchmark"], r["x"], r["ranks"], r["metric"],
                        r["value"], "" if r["t"] is None else r["t"], ""])
    report(out, meta, raw, raw_hw, failures, runs, args)
    log("in %.0f s" % (time.time() - t_start))
    return 0


def load_run(out):
    """Read back a finished run (raw.csv + results.json) so --report can redo its outputs."""
    raw, raw_hw = [], []
    with open(os.path.join(out, "raw.csv")) as f:
        for row in csv.DictReader(f):
            d = dict(rep=int(row["rep"]), benchmark=row["benchmark"], x=float(row["x"]),
                     ranks=int(row["ranks"]), metric=row["metric"], value=float(row["value"]),
                     t=float(row["t_s"]) if row["t_s"] else None,
                     place=row.get("placement") or "")
            if row["mpi"] == "hardware":
                raw_hw.append(d)
            else:
                d["mpi"] = row["mpi"]
                raw.append(d)
    with open(os.path.join(out, "results.json")) as f:
        j = json.load(f)
    meta = j["meta"]
    if "floor_samples" not in meta:
        meta["floor_samples"] = meta.get("floor_ns", {}).get("samples", [])
    return meta, raw, raw_hw, j.get("failures", []), j.get("runs", [])


def memcpy_lines(summary, memcpy, raw_hw):
    """nodempi's one-way bandwidth at each size from 1 MiB against memcpy of that size in the
    same run (issue 5: at least 0.9x at 4 MiB): in cache (one source, one destination) and,
    where the run measured it, into 64 destinations in turn (hwlimit -c memcpy_window), the
    working set of windowed bw's 64 receive buffers."""
    per = {}
    for r in raw_hw:
        if r["benchmark"] == "memcpy_window":
            per.setdefault(int(r["x"]), []).append(r["value"])
    window = {k: statistics.median(v) for k, v in per.items()}
    out = []
    for r in summary:
        if (r["benchmark"] == "bw" and r["ranks"] == 2 and r["x"] >= (1 << 20) and
                r["metric"] in ("uni_MBps", "uni_onebuf_MBps") and "nodempi" in r and
                memcpy.get(int(r["x"]))):
            m, got = memcpy[int(r["x"])], r["nodempi"]["median"]
            line = ("  %s %s: nodempi %.0f MB/s = %.2fx memcpy of that size (%.0f MB/s)" %
                    (r["metric"], human(r["x"]), got, got / m, m))
            w = window.get(int(r["x"]))
            if w and r["metric"] == "uni_MBps":
                line += ", %.2fx memcpy into 64 buffers in turn (%.0f MB/s)" % (got / w, w)
            out.append(line)
    return (["nodempi one way vs memcpy (median of reps; windowed bw keeps 64 messages in "
             "flight, so from 1 MiB its data is not in cache):"] + out) if out else []


def scoreboard(summary, markdown):
    """One line per table: nodempi's speed relative to the best peer, geometric mean over the
    sizes (>1 = nodempi faster, whichever way the metric points), and how many sizes it wins."""
    head = ["benchmark", "metric", "ranks", "nodempi speed vs best peer", "wins"]
    body = []
    for (b, metric, n), rows in group_rows(summary):
        sp = [r["ratio"]["median"] for r in rows if "ratio" in r and r["ratio"]["median"] > 0]
        if not sp:
            continue
        if lower_is_better(metric):
            sp = [1 / v for v in sp]
        g = math.exp(sum(math.log(v) for v in sp) / len(sp))
        body.append([b, metric, str(n), "%.2f" % g, "%d/%d" % (sum(v > 1 for v in sp), len(sp))])
    if not body:
        return ""
    return render("Scoreboard: nodempi speed relative to the best of Open MPI and MPICH "
                  "(geometric mean over sizes of the per-size median ratio; >1 = nodempi faster)",
                  head, body, markdown)


def report(out, meta, raw, raw_hw, failures, runs, args):
    ncpus, cfg, date = meta["ncpus"], meta["config"], meta["date"]
    floor_samples = [tuple(s) for s in meta["floor_samples"]]
    summary = summarize(raw)
    floor, memcpy, xcopy = hw_limits(raw_hw, ncpus)
    for r in summary:
        r["limit"] = limit_for(r, floor, memcpy, ncpus)
    floors = [s[1] for s in floor_samples]

    hdr = ["nodempi vs Open MPI vs MPICH, %s, %d CPUs, %d reps: medians, ± = half the %srange "
           "over reps relative to the median" % (date, ncpus, cfg["reps"],
                                                 "interquartile " if cfg["reps"] >= 5 else "")]
    for name in MPIS:
        m = meta["mpis"].get(name)
        if m:
            hdr.append("  %-8s %s" % (LABEL[name] + ":", (m["version"] + ("" if m["rma"] else ", no RMA"))
                                      if m["ok"] else "n/a - " + m["why"]))
    if floors:
        hdr.append("  cache-line one-way latency core0<->core1: median %.0f ns, min %.0f, max %.0f "
                   "over %d samples" % (statistics.median(floors), min(floors), max(floors), len(floors)))
    loads = [s[2] for s in floor_samples if len(s) > 2]
    if loads:
        hdr.append("  host load average (1 min) during the run: median %.1f, max %.1f on %d CPUs"
                   % (statistics.median(loads), max(loads), ncpus))
    hdr.append("  limit: latency = one-way cache-line latency + size / memcpy bandwidth; "
               "bandwidth = memcpy bandwidth x copying cores")
    board = scoreboard(summary, False)
    vs_memcpy = memcpy_lines(summary, memcpy, raw_hw)
    if vs_memcpy:
        board += "\n" + "\n".join(vs_memcpy) + "\n"
    same_place = placement_lines(raw, False)
    if same_place:
        board += "\n" + same_place + "\n"
    text = "\n".join(hdr) + "\n\n" + "\n".join(tables(summary, floor, memcpy, ncpus)) + "\n" + board
    print(text)
    if failures:
        print("FAILURES (%d):" % len(failures))
        for f in failures:
            print("  rep %d %s [%s]: %s" % (f["rep"], f["mpi"], f["job"], f["error"]))

    with open(os.path.join(out, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["benchmark", "metric", "ranks", "x"] +
                   ["%s_%s" % (m, k) for m in MPIS for k in ("median", "min", "max")] +
                   ["ratio_median", "ratio_min", "ratio_max", "limit"])
        for r in summary:
            line = [r["benchmark"], r["metric"], r["ranks"], r["x"]]
            for m in MPIS:
                line += [r[m][k] if m in r else "" for k in ("median", "min", "max")]
            line += [r["ratio"][k] if "ratio" in r else "" for k in ("median", "min", "max")]
            line.append("" if r["limit"] is None else r["limit"])
            w.writerow(line)
    plt = get_mpl(args.install) if args.plots else None
    made = []
    if plt:
        made = plots(plt, summary, out, floor, memcpy, xcopy, ncpus, meta["ranks"], floor_samples)
    elif args.plots:
        log("matplotlib unavailable: no plots")
    meta = dict(meta, floor_ns=dict(median=statistics.median(floors) if floors else None,
                                    min=min(floors) if floors else None,
                                    max=max(floors) if floors else None),
                memcpy_MBps=memcpy, xcopy_MBps=xcopy, plots=made)
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(dict(meta=meta, summary=summary, failures=failures, runs=runs), f, indent=1)
    with open(os.path.join(out, "tables.txt"), "w") as f:
        f.write(text)
    with open(os.path.join(out, "tables.md"), "w") as f:
        f.write(hdr[0] + "\n\n" + "".join("- %s\n" % h.strip() for h in hdr[1:]) + "\n")
        f.write(scoreboard(summary, True) + "\n")
        if vs_memcpy:
            f.write(vs_memcpy[0] + "\n\n" + "".join("- %s\n" % l.strip() for l in vs_memcpy[1:]) +
                    "\n")
        if same_place:
            f.write(placement_lines(raw, True) + "\n")
        f.write("\n".join(tables(summary, floor, memcpy, ncpus, markdown=True)))
    log("wrote %s: raw.csv summary.csv results.json tables.txt tables.md %s" % (
        os.path.relpath(out), " ".join(made)))


if __name__ == "__main__":
    sys.exit(main())
