import sys
from adjudicator.core import registry
from adjudicator.core.verify import settle
from adjudicator.core.playout import playout
for gid in sys.argv[1].split(","):
    g = registry.get(gid)
    bad = 0; n = 0
    for seed in range(int(sys.argv[2])):
        log, _ = playout(g, seed, max_events=3000, with_derived=True)
        st = g.initial_state(log[0])
        for e in log[1:]:
            st = g.apply(st, e); n += 1
            inv = g.invariants(st)
            if inv:
                bad += 1
                if bad < 4: print(gid, seed, type(e).__name__, inv[:3])
    print(gid, "positions", n, "broken", bad)
