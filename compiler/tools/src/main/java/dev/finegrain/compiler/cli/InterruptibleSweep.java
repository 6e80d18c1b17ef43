package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.Comparison;
import dev.finegrain.compiler.compare.ComparisonRunner;
import dev.finegrain.compiler.compare.OutputFolder;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.compiler.compare.RowListener;
import dev.finegrain.compiler.compare.Sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A sweep as the command line runs it, so that nothing it finished is lost: each row is journaled as it settles, and
 * Ctrl-C or {@code SIGTERM} (which run the JVM's shutdown hooks) stop it starting rows and write the rows settled so
 * far, in the sweep's order, marked incomplete. Exactly one of the two ends writes the outputs, whichever comes first:
 * the run that finished, or the signal's hook; the other waits for it, and the folder stays locked until the writing
 * is done. A {@code kill -9} runs no hook; the journal holds the rows then.
 */
final class InterruptibleSweep implements RowListener {

    /** How long a signal's hook waits for a run that was already writing its outputs. */
    private static final long WAIT_FOR_WRITER_SECONDS = 60;

    private final ConcurrentSkipListMap<Integer, ResultRow> settled = new ConcurrentSkipListMap<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicBoolean writing = new AtomicBoolean();
    private final CountDownLatch written = new CountDownLatch(1);
    private volatile OutputFolder journal;

    /** Whether the run is being interrupted: the runner starts no further row. */
    BooleanSupplier stopped() {
        return stop::get;
    }

    /** Where the rows are journaled from now on. */
    void journalInto(OutputFolder folder) {
        journal = folder;
    }

    @Override
    public void finished(int position, ResultRow row) {
        settled.put(position, row);
        OutputFolder folder = journal;
        if (folder != null) {
            folder.append(row);
        }
    }

    @Override
    public void kept(int position, ResultRow row) {
        settled.put(position, row);
    }

    /**
     * Runs the sweep, keeping the rows {@code earlier} (a resume) in their place. On a signal, {@code writeIncomplete} gets the rows settled so far, in the sweep's order, and the JVM
     * exits with the signal's status once it returns; this method then never returns. Otherwise the comparison comes
     * back for the caller to write, and the caller calls {@link #written()} when done, which a late signal waits for.
     */
    Comparison run(Sweep sweep, List<ResultRow> earlier, Consumer<List<ResultRow>> writeIncomplete) {
        Thread onSignal = new Thread(() -> {
            stop.set(true);
            if (writing.compareAndSet(false, true)) {
                try {
                    writeIncomplete.accept(new ArrayList<>(settled.values()));
                } finally {
                    written.countDown();
                }
            } else {
                awaitWriter();
            }
        }, "finegrain-interrupted");
        Runtime.getRuntime().addShutdownHook(onSignal);
        Optional<RuntimeException> failure = Optional.empty();
        Comparison comparison = null;
        try {
            comparison = ComparisonRunner.run(sweep, earlier);
        } catch (RuntimeException bug) {
            failure = Optional.of(bug);
        }
        if (!writing.compareAndSet(false, true)) {
            parkUntilTheJvmExits();   // a signal came first: its hook writes, and the JVM exits with the signal's status
        }
        try {
            Runtime.getRuntime().removeShutdownHook(onSignal);
        } catch (IllegalStateException shuttingDown) {
            // a signal came while this thread took the writing over: the hook waits for written()
        }
        if (failure.isPresent()) {
            written.countDown();
            throw failure.get();
        }
        return comparison;
    }

    /** The caller has written the outputs of a run that was not interrupted. */
    void written() {
        written.countDown();
    }

    private void awaitWriter() {
        try {
            written.await(WAIT_FOR_WRITER_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void parkUntilTheJvmExits() {
        while (true) {
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException ignored) {
                // nothing is left for this thread to do; the JVM is shutting down
            }
        }
    }
}
