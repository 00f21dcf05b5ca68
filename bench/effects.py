#!/usr/bin/env python3
"""bench/effects: the effect of each nodempi mechanism alone, measured by switching it off.

Every mechanism of issue 5 has a NODEMPI_* switch. For each one this runs the benchmark where it
matters with the mechanism as shipped (auto) and with it off, interleaved job by job (order
rotated every repetition) and next to a fresh measurement of the hardware floor, then reports
medians and the ratio off / on per point (the speed-up the mechanism brings: >1 means the
mechanism helps, for times and bandwidths alike). Uses the benchmark binaries and helpers of
bench/compare (compare.py); nodempi only, from <repo>/build.

Usage: bench/effects [--reps N] [--budget S] [--only name,...] [--out DIR] [--rt]
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

# name: (what it is, benchmark program, args, ranks, env when off, metric filter)
MECHANISMS = [
    ("fastbox", "records of up to 64 B through 16 cells per pair instead of the pair ring",
     "latency", ["-s", "1,8,32,64,128"], 2, {"NODEMPI_FASTBOX": "off"}, None),
    ("recv_in_place", "blocking MPI_Recv copies an eager message straight from the peer's cell "
     "or ring record (no request, no queue, no poll of other peers)",
     "latency", ["-s", "1,8,64,1K,4K"], 2, {"NODEMPI_RECV_IN_PLACE": "off"}, None),
    ("wait_in_place", "MPI_Wait / MPI_Waitall (and Waitany with one request pending) on the "
     "oldest posted receive from one source takes the eager message from the peer's cell or "
     "record into the request, MPI_Test after one look (no progress round; same switch as "
     "recv_in_place)",
     "latency", ["-s", "8,64,1K,4K", "-c", "irecv,nonblocking,test,waitany"], 2,
     {"NODEMPI_RECV_IN_PLACE": "off"}, None),
    ("ring_lap", "pair ring used as an 8 KiB lap while the consumer keeps up (the whole 64 KiB "
     "ring every lap when off)",
     "latency", ["-s", "256,512,1K,2K,4K"], 2, {"NODEMPI_RING_LAP": "0"}, None),
    ("idle_eager", "a message above the eager limit that fits one ring record goes eagerly "
     "when the pair's ring is idle (rendezvous when off)",
     "latency", ["-s", "4K,8K,12K,16K"], 2, {"NODEMPI_IDLE_EAGER": "off"}, None),
    ("idle_eager_bw", "idle eager, windowed bandwidth (a stream finds the ring busy)",
     "bw", ["-s", "8K,12K"], 2, {"NODEMPI_IDLE_EAGER": "off"}, None),
    ("stream_eager", "a one-way stream of messages above the eager limit that fit one ring "
     "record goes eagerly (rendezvous once the ring is busy when off); bi: exchanges keep the "
     "rendezvous either way",
     "bw", ["-s", "8K,12K,16K"], 2, {"NODEMPI_STREAM_EAGER": "off"}, None),
    ("stream_eager_skew", "stream eager against a lagging receiver: the producer's time per "
     "round stays flat (messages set aside once the receiver stops taking records)",
     "skew", ["-s", "0,2,10,100", "-m", "16K"], 2, {"NODEMPI_STREAM_EAGER": "off"}, None),
    ("fastbox_rate", "fastbox, message rate (window of 64 nonblocking sends)",
     "bw", ["-s", "8,64", "-c", "uni"], 2, {"NODEMPI_FASTBOX": "off"}, None),
    ("fastbox_pack", "eager messages of up to 36 B in a stream packed two or four to a fastbox "
     "cell (one per cell when off)",
     "bw", ["-s", "1,8,32"], 2, {"NODEMPI_FASTBOX_PACK": "off"}, None),
    ("fastbox_pack_lat", "fastbox packing, ping-pong (cells either way: the peer answers)",
     "latency", ["-s", "1,8,32"], 2, {"NODEMPI_FASTBOX_PACK": "off"}, None),
    ("single_copy", "CMA single copy (rendezvous pull) vs pipelined copy through the ring",
     "bw", ["-s", "64K,256K,1M,4M,16M"], 2, {"NODEMPI_SINGLE_COPY": "none"}, None),
    ("shared_heap", "large malloc'd buffers in the shared heap, copied with memcpy through "
     "the peer's mapping (src/shm/heap.c) vs process_vm_readv/writev",
     "bw", ["-s", "64K,256K,1M,4M,16M"], 2, {"NODEMPI_SHARED_HEAP": "off"}, None),
    ("shared_heap_lat", "shared heap, ping-pong",
     "latency", ["-s", "64K,256K,1M,4M"], 2, {"NODEMPI_SHARED_HEAP": "off"}, None),
    ("copy_pieces", "receive buffers 16 bytes past a page (as malloc's are): copies at that short "
     "page distance by a vector loop (src/shm/copy.h) vs one memcpy (glibc's rep movsb)",
     "latency", ["-s", "4K,16K,64K,256K,1M", "-a", "16"], 2, {"NODEMPI_COPY_PIECES": "off"},
     None),
    ("copy_pieces_bw", "copy pieces, streaming (receive buffers 16 bytes past a page)",
     "bw", ["-s", "16K,64K,256K,1M", "-a", "16", "-c", "uni,bi"], 2,
     {"NODEMPI_COPY_PIECES": "off"}, None),
    ("fastbox_tail", "a receive waiting in place asks for the fastbox cell's second line too "
     "(src/p2p/recv.c)",
     "latency", ["-s", "8,32,48,64"], 2, {"NODEMPI_FASTBOX_TAIL": "off"}, None),
    ("split_copy", "sender helps the receiver copy (process_vm_writev chunks)",
     "bw", ["-s", "64K,256K,1M,4M,16M", "-c", "uni"], 2, {"NODEMPI_SPLIT_COPY": "off"}, None),
    ("split_copy_lat", "split copy, ping-pong",
     "latency", ["-s", "256K,1M,4M"], 2, {"NODEMPI_SPLIT_COPY": "off"}, None),
    ("topology_threshold", "per-pair single-copy threshold of the pair's distance class (64 KiB "
     "for shared_l3 here) vs single copy for every rendezvous message",
     "bw", ["-s", "8K,32K,64K,128K"], 2, {"NODEMPI_CMA_THRESHOLD": "4097"}, None),
    ("memcpy_ring", "pipelined fragments written with memcpy (the default) instead of streaming "
     "stores (single copy off in both)",
     "bw", ["-s", "64K,256K,1M,4M"], 2, {"NODEMPI_STREAM_COPY": "on"}, None),
    ("chunk_16k", "16 KiB pipeline fragments (the default: the largest ring record, well inside "
     "the shared cache) instead of session 1's 8 KiB (single copy off in both)",
     "bw", ["-s", "64K,256K,1M,4M"], 2, {"NODEMPI_PIPELINE_CHUNK": "8192"}, None),
    ("copy_adapt", "single copy or pipeline chosen by the pair's measured receive times "
     "(NODEMPI_COPY_ADAPT, p2p/adapt.c) vs the fixed 64 KiB threshold, ping-pong",
     "latency", ["-s", "16K,32K,64K,256K,1M,4M"], 2, {"NODEMPI_COPY_ADAPT": "off"}, None),
    ("copy_adapt_bw", "the same, windowed bandwidth one way and both ways",
     "bw", ["-s", "64K,256K,1M,4M"], 2, {"NODEMPI_COPY_ADAPT": "off"}, None),
    ("copy_adapt_coll", "blocking collectives under the same switch: reductions pipeline, the "
     "others keep the fixed threshold (coll/copy_choice.c), 2 ranks",
     "coll", ["-s", "64K,256K,1M", "-c", "bcast,reduce,allreduce,allgather,alltoall"], 2,
     {"NODEMPI_COPY_ADAPT": "off"}, None),
    ("skew", "skew-aware eager limit (seed 001 §4.2), producer time c3 vs consumer compute c2",
     "skew", ["-s", "0,2,5,10,20,50", "-m", "16K"], 2, {"NODEMPI_SKEW": "off"}, None),
    ("skew_bw", "skew adaptation must not cost bandwidth without skew",
     "bw", ["-s", "16K,64K,256K,1M"], 2, {"NODEMPI_SKEW": "off"}, None),
    ("wait_4", "waiting (auto: spin while awake ranks fit the cores, else yield, then futex) vs "
     "always yield, 4 ranks on 2 cores",
     "latency", ["-s", "8,512,4K,64K"], 4, {"NODEMPI_WAIT": "yield"}, None),
    ("wait_8", "the same, 8 ranks on 2 cores",
     "latency", ["-s", "8,512,4K,64K"], 8, {"NODEMPI_WAIT": "yield"}, None),
]
# memcpy_ring and chunk_16k only act on the pipelined path: measure both settings there.
BASE_ENV = {"memcpy_ring": {"NODEMPI_SINGLE_COPY": "none"},
            "chunk_16k": {"NODEMPI_SINGLE_COPY": "none"}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--budget", type=float, default=0.1)
    ap.add_argument("--only", help="comma list of mechanism names")
    ap.add_argument("--out", help="write the markdown table here too")
    ap.add_argument("--rt", action="store_true", help="as bench/compare --rt: jobs with a core "
                    "per rank and the floor probe under SCHED_FIFO")
    args = ap.parse_args()
    mechs = [m for m in MECHANISMS if not args.only or m[0] in args.only.split(",")]

    nodempi = compare.Mpi("nodempi", os.path.join(compare.REPO, "build", "bin", "mpicc"),
                          os.path.join(compare.REPO, "build", "bin", "mpiexec"))
    compare.build(nodempi)
    if not nodempi.ok:
        print("bench/effects: cannot build the benchmarks against nodempi: %s" % nodempi.why)
        return 1
    hw = compare.build_hw()
    ncpus = len(os.sched_getaffinity(0))
    base_env = compare.run_env()
    values = {}   # (mech, setting, bench, x, metric) -> [values]
    floors = []
    t0 = time.time()
    for rep in range(args.reps):
        for name, _, prog, pargs, n, off, _ in mechs:
            if hw:
                rc, o = compare.run_quiet(compare.realtime_prefix(args.rt) +
                                          [hw, "-c", "cacheline", "-t", "0.05"], timeout=30)
                floors += [v for b, x, r, me, v in compare.parse_csv(o) if me == "oneway_ns"]
            settings = [("on", {}), ("off", off)]
            if rep % 2:
                settings.reverse()
            for setting, extra in settings:
                env = dict(base_env, **BASE_ENV.get(name, {}), **extra)
                cmd = nodempi.launch(n, prog, pargs + ["-t", str(args.budget)], ncpus, args.rt)
                rows, err, dt = compare.run_job(cmd, 300, env)
                if err:
                    compare.log("FAIL %s %s: %s" % (name, setting, err))
                for b, x, r, me, v in rows or []:
                    values.setdefault((name, setting, b, x, me), []).append(v)
        compare.log("repetition %d/%d done, %.0f s" % (rep + 1, args.reps, time.time() - t0))

    lines = ["nodempi mechanisms one at a time, %s, %d reps, budget %.2f s per point%s; "
             "hardware floor (one-way cache-line) during the run: median %.0f ns, min %.0f, "
             "max %.0f" % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), args.reps,
                           args.budget, " (--rt: SCHED_FIFO)" if args.rt else "", statistics.median(floors) if floors else 0,
                           min(floors) if floors else 0, max(floors) if floors else 0), ""]
    for name, what, prog, pargs, n, off, _ in mechs:
        offs = " ".join("%s=%s" % kv for kv in off.items())
        base = " ".join("%s=%s" % kv for kv in BASE_ENV.get(name, {}).items())
        lines.append("**%s** (%d ranks): %s. Off = `%s`%s." %
                     (name, n, what, offs, (", both with `%s`" % base) if base else ""))
        lines.append("")
        lines.append("| benchmark | metric | x | on (median) | off (median) | speed-up of the "
                     "mechanism |")
        lines.append("|---|---|---|---|---|---|")
        keys = sorted({(b, x, me) for (m, s, b, x, me) in values if m == name},
                      key=lambda k: (k[2], k[1]))
        for b, x, me in keys:
            on = values.get((name, "on", b, x, me))
            of = values.get((name, "off", b, x, me))
            if not on or not of:
                continue
            mon, mof = statistics.median(on), statistics.median(of)
            lower_better = me.endswith("_us") or me.endswith("_ns")
            gain = (mof / mon) if lower_better else (mon / mof)
            xs = ("%g" % x) if b == "skew" else compare_size(x)
            lines.append("| %s | %s | %s | %s | %s | %.2fx |" % (b, me, xs, num(mon), num(mof), gain))
        lines.append("")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    return 0


def num(v):
    return "%.0f" % v if v >= 1000 else "%.3g" % v


def compare_size(x):
    x = int(x)
    for unit, s in ((1 << 20, "M"), (1 << 10, "K")):
        if x >= unit and x % unit == 0:
            return "%d%s" % (x // unit, s)
    return str(x)


if __name__ == "__main__":
    sys.exit(main())
