import csv, sys, statistics, collections
# markdown table: median per MPI, per-rep ratio median (ref / best of peers), min ratio
f, ref, peers, mode = sys.argv[1], sys.argv[2], sys.argv[3].split(","), sys.argv[4]
ops = sys.argv[5].split(",") if len(sys.argv) > 5 and sys.argv[5] else None
extra = sys.argv[6] if len(sys.argv) > 6 else None  # a second column set: e.g. base for before/after
v = collections.defaultdict(dict)
for r in csv.reader(open(f)):
    if len(r) != 7: continue
    rep, m, b, x, n, met, val = r
    v[(b, met, int(n), int(float(x)))][(int(rep), m)] = float(val)
def hum(x):
    for u, s in (("M", 20), ("K", 10)):
        if x >= 1 << s and x % (1 << s) == 0: return "%d %siB" % (x >> s, u)
    return "%d B" % x
def fmt(x):
    return "%.0f" % x if x >= 100 else "%.1f" % x if x >= 10 else "%.2f" % x
order = ops or []
if not ops:
    for k in v:
        if k[0] not in order: order.append(k[0])
mpis = [ref] + ([extra] if extra else []) + peers
names = {"nodempi": "nodempi", "base": "nodempi before" if extra else "nodempi", "openmpi": "Open MPI", "mpich": "MPICH"}
if extra: names["nodempi"] = "nodempi after"
hdr = ["op", "metric", "ranks", "size"] + [names[m] for m in mpis] + ["ratio", "min ratio"]
print("| " + " | ".join(hdr) + " |"); print("|" + "---|" * len(hdr))
for k in sorted((k for k in v if k[0] in order), key=lambda k: (k[2], order.index(k[0]), k[1], k[3])):
    d = v[k]; reps = sorted({r for r, m in d})
    rat = []
    for r in reps:
        if (r, ref) in d:
            p = [d[(r, m)] for m in peers if (r, m) in d]
            if p: rat.append(d[(r, ref)] / max(min(p), 1e-9))
    med = {m: statistics.median([d[(r, m)] for r in reps if (r, m) in d]) for m in mpis if any((r, m) in d for r in reps)}
    mins = {m: min([d[(r, m)] for r in reps if (r, m) in d]) for m in med}
    if not rat or ref not in mins: continue
    pm = [mins[m] for m in peers if m in mins]
    minrat = mins[ref] / max(min(pm), 1e-9)
    r = statistics.median(rat)
    if mode == "slow" and not (r > 1.25 and minrat > 1.25): continue
    print("| " + " | ".join([k[0], k[1].replace("_us", ""), str(k[2]), hum(k[3])] + [fmt(med[m]) if m in med else "-" for m in mpis] + ["%.2f" % r, "%.2f" % minrat]) + " |")
