package dev.finegrain.gpu.runtime;

import java.util.LinkedHashMap;
import java.util.Map;

/** What a run did, counted as the machine goes; printed in the order declared here. */
public final class SimtCounters {
    public long warpInstructions;
    public long threadInstructions;
    public long sharedLoads;
    public long sharedStores;
    public long sharedBankConflictReplays;
    public long globalLoads;
    public long globalStores;
    public long atomics;
    public long lockAttempts;
    public long lockFailures;
    public long lockReleases;
    public long barrierArrivals;
    public long barrierWaits;
    public long divergentBranches;
    public long votes;
    public long sleeps;

    /** The counters by name, for tables and JSON. */
    public Map<String, Long> asMap() {
        Map<String, Long> map = new LinkedHashMap<>();
        map.put("warpInstructions", warpInstructions);
        map.put("threadInstructions", threadInstructions);
        map.put("sharedLoads", sharedLoads);
        map.put("sharedStores", sharedStores);
        map.put("sharedBankConflictReplays", sharedBankConflictReplays);
        map.put("globalLoads", globalLoads);
        map.put("globalStores", globalStores);
        map.put("atomics", atomics);
        map.put("lockAttempts", lockAttempts);
        map.put("lockFailures", lockFailures);
        map.put("lockReleases", lockReleases);
        map.put("barrierArrivals", barrierArrivals);
        map.put("barrierWaits", barrierWaits);
        map.put("divergentBranches", divergentBranches);
        map.put("votes", votes);
        map.put("sleeps", sleeps);
        return map;
    }
}
