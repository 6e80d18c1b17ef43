package dev.finegrain.runtime.jvm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class WorkerTeamTest {

    @Test
    void teamIsReusedAcrossAThousandRunsEachWorkerOncePerRun() {
        try (WorkerTeam team = new WorkerTeam(2)) {
            int[] runsPerWorker = new int[2];
            long[] cells = new long[4096];
            for (int run = 1; run <= 1000; run++) {
                int r = run;
                team.run((worker, workers) -> {
                    runsPerWorker[worker]++;
                    for (int i = worker; i < cells.length; i += workers) {
                        cells[i] += r;
                    }
                });
                assertArrayEquals(new int[] {r, r}, runsPerWorker, "run " + r);
            }
            long[] expected = new long[cells.length];
            Arrays.fill(expected, 1000L * 1001 / 2);
            assertArrayEquals(expected, cells);
        }
    }

    /** Pauses longer than the idle spin make every worker (and the caller) park, so each run must unpark them. */
    @Test
    void parkedWorkersWakeForEveryRun() {
        try (WorkerTeam team = new WorkerTeam(2)) {
            int[] runsPerWorker = new int[2];
            for (int run = 1; run <= 50; run++) {
                LockSupport.parkNanos(2_000_000L);
                team.run((worker, workers) -> {
                    LockSupport.parkNanos(200_000L);
                    runsPerWorker[worker]++;
                });
                assertArrayEquals(new int[] {run, run}, runsPerWorker, "run " + run);
            }
        }
    }

    @Test
    void workerZeroIsTheCallerAndTheOthersAreNamedDaemonThreadsCreatedOnce() {
        Set<Thread> seen = ConcurrentHashMap.newKeySet();
        Thread caller = Thread.currentThread();
        try (WorkerTeam team = new WorkerTeam(3)) {
            assertEquals(3, team.size());
            for (int run = 0; run < 20; run++) {
                team.run((worker, workers) -> {
                    Thread t = Thread.currentThread();
                    if (worker == 0) {
                        assertEquals(caller, t);
                    } else {
                        assertEquals("finegrain-worker-" + worker, t.getName());
                        assertTrue(t.isDaemon());
                        seen.add(t);
                    }
                    assertEquals(3, workers);
                });
            }
        }
        assertEquals(2, seen.size());
        seen.forEach(t -> assertFalse(t.isAlive(), t.getName()));
    }

    @Test
    void aTaskFailureIsRethrownOnTheCallerAndTheTeamStaysUsable() {
        try (WorkerTeam team = new WorkerTeam(2)) {
            IllegalArgumentException boom = new IllegalArgumentException("boom");
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> team.run((worker, workers) -> {
                if (worker == 1) {
                    throw boom;
                }
            }));
            assertSame(boom, thrown);
            int[] ran = new int[2];
            team.run((worker, workers) -> ran[worker] = 1);
            assertArrayEquals(new int[] {1, 1}, ran);
        }
    }

    @Test
    void aStallIsRethrownInPreferenceToOtherFailuresWhichAreSuppressed() {
        try (WorkerTeam team = new WorkerTeam(2)) {
            Watchdog watchdog = Concurrently.shortWatchdog();
            int[] flags = ReadyFlags.create(1);
            StallException stall = assertThrows(StallException.class, () -> team.run((worker, workers) -> {
                if (worker == 0) {
                    throw new IllegalStateException("worker 0 failed");
                }
                ReadyFlags.await(flags, 0, watchdog, 0, 5, 4);
            }));
            assertEquals(1, stall.getSuppressed().length);
            assertEquals("worker 0 failed", stall.getSuppressed()[0].getMessage());
        }
    }

    /**
     * Found in review: when a failing worker aborted the run, the waits it abandoned were rethrown as a stall
     * ("no progress for N ms"), hiding the failure. The failure is what the run throws now.
     */
    @Test
    void aWorkersOwnFailureIsBlamedOverTheWaitsItsAbortEnded() {
        try (WorkerTeam team = new WorkerTeam(2)) {
            Watchdog watchdog = Concurrently.watchdog();
            int[] flags = ReadyFlags.create(1);
            IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> team.run((worker, workers) -> {
                if (worker == 0) {
                    watchdog.abort();
                    throw new IllegalStateException("worker 0 failed");
                }
                ReadyFlags.await(flags, 0, watchdog, 0, 5, 4);
            }));
            assertEquals("worker 0 failed", thrown.getMessage());
            StallException abandoned = (StallException) thrown.getSuppressed()[0];
            assertTrue(abandoned.getMessage().startsWith("stopped waiting because another worker failed; 1 wait: "),
                    abandoned.getMessage());
        }
    }

    /** A broken plan: each worker waits for a token only the other would publish after its own wait. */
    @Test
    void aBrokenPlanStallsAndTheReportNamesEveryWaitingInstance() {
        try (WorkerTeam team = new WorkerTeam(2)) {
            Watchdog watchdog = Concurrently.shortWatchdog();
            int[] flags = ReadyFlags.create(2);
            long start = System.nanoTime();
            StallException stall = assertThrows(StallException.class, () -> team.run((worker, workers) -> {
                int other = 1 - worker;
                ReadyFlags.await(flags, other, watchdog, 0, worker, other);
                ReadyFlags.publish(flags, worker);
            }));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis >= 200 && millis < 5_000, "stall took " + millis + " ms");
            assertEquals(Set.of("cell 0 waits on channel 0 for cell 1", "cell 1 waits on channel 0 for cell 0"),
                    Set.copyOf(stall.waits()));
            assertTrue(stall.getMessage().startsWith("stall: a wait made no progress for 200 ms; 2 waits: "),
                    stall.getMessage());
        }
    }

    @Test
    void runFromAWorkerOrAfterCloseIsRefused() {
        WorkerTeam team = new WorkerTeam(1);
        List<Throwable> inner = new ArrayList<>();
        team.run((worker, workers) -> {
            try {
                team.run((w, n) -> { });
            } catch (IllegalStateException e) {
                inner.add(e);
            }
            // found in review: close from a worker waited for the run lock its caller holds, a deadlock
            try {
                team.close();
            } catch (IllegalStateException e) {
                inner.add(e);
            }
        });
        assertEquals(2, inner.size());
        team.close();
        team.close();
        assertThrows(IllegalStateException.class, () -> team.run((worker, workers) -> { }));
    }

    @Test
    void zeroThreadsIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new WorkerTeam(0));
    }
}
