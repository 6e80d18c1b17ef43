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
    /**
     * LDSLK attempts that found their bit held by a thread of another block: co-resident blocks' words aliasing in the
     * SM's lock unit (seed 001 §4.4.2), which a lowering must never produce unless an experiment asks for it.
     */
    public long lockBitAliases;
    /** Lock box (profiles with {@code feature.lockBox}): LBACQ lanes, those suspended, LBREL lanes, hand-offs. */
    public long lockBoxAcquires;
    public long lockBoxSuspensions;
    public long lockBoxReleases;
    public long lockBoxGrants;
    /** Cycles lanes spent suspended by the lock box (waiting for a lock and its restart penalty), summed over lanes. */
    public long lockBoxSuspendedLaneCycles;

    /** The counters by name, for tables and JSON; the lock box's only when {@code lockBox} (the profile has one). */
    public Map<String, Long> asMap(boolean lockBox) {
        Map<String, Long> map = asMap();
        if (lockBox) {
            map.put("lockBoxAcquires", lockBoxAcquires);
            map.put("lockBoxSuspensions", lockBoxSuspensions);
            map.put("lockBoxReleases", lockBoxReleases);
            map.put("lockBoxGrants", lockBoxGrants);
            map.put("lockBoxSuspendedLaneCycles", lockBoxSuspendedLaneCycles);
        }
        return map;
    }

    /** The counters every profile has, by name, for tables and JSON. */
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
        if (lockBitAliases > 0) {
            // only where it happened: a run without aliasing (every lowered one) keeps its counters as they were
            map.put("lockBitAliases", lockBitAliases);
        }
        return map;
    }
}
