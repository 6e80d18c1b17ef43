package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.backend.RunSettings;
import dev.finegrain.compiler.compare.Backends;
import dev.finegrain.compiler.compare.Comparison;
import dev.finegrain.compiler.compare.KernelCatalog;
import dev.finegrain.compiler.compare.MechanismChoice;
import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.dsl.LibraryKernel;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Schedule;

import picocli.CommandLine.Model.CommandSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Turns command-line words into kernels, sizes, schedules, backends and mechanisms, or one clear usage error. */
final class CliValues {

    private CliValues() {}

    static LibraryKernel kernel(KernelCatalog catalog, String name) {
        if (name.contains(",") && catalog.find(name).isEmpty()) {
            throw new UsageException("'" + name + "' names more than one kernel, and a command takes one; run it once per kernel");
        }
        return catalog.find(name).orElseThrow(() -> new UsageException("unknown kernel '" + name + "'; known kernels: "
                + String.join(", ", catalog.names()) + " (a kernel of your own needs its classes on --classpath or $"
                + FinegrainCli.CLASSPATH_VARIABLE + ")"));
    }

    /**
     * One size: {@code N} (every dimension N) or {@code NxM[xK]}, one extent per dimension of a kernel of the given
     * rank. Commas separate sizes in a list ({@code compare --sizes 64,128x32}), never the extents of one size.
     */
    static int[] size(String text, dev.finegrain.dsl.Kernel of) {
        int rank = of.rank();
        String kernel = of.name();
        if (text.contains(",")) {
            throw new UsageException("size '" + text + "' holds a comma, which separates sizes in a list; write one size as N"
                    + " or as extents joined by 'x' (" + text.replace(",", "x") + ")");
        }
        String[] parts = text.split("x", -1);
        int[] extents = new int[parts.length];
        for (int d = 0; d < parts.length; d++) {
            try {
                extents[d] = Integer.parseInt(parts[d].trim());
            } catch (NumberFormatException notANumber) {
                if (parts[d].trim().matches("[0-9]+")) {
                    throw new UsageException("size '" + text + "' has an extent of " + parts[d].trim() + ", above the largest, "
                            + Integer.MAX_VALUE + "; choose smaller extents");
                }
                throw new UsageException("size '" + text + "' is not a size; write N, or one extent per dimension as NxM");
            }
            if (extents[d] < 1) {
                throw new UsageException("size '" + text + "' has an extent below 1; sizes are positive");
            }
        }
        if (extents.length == 1 && rank > 1) {
            int[] square = new int[rank];
            Arrays.fill(square, extents[0]);
            extents = square;
        }
        if (extents.length != rank) {
            throw new UsageException("size '" + text + "' has " + extents.length + " extents but kernel '" + kernel
                    + "' has " + dev.finegrain.compiler.backend.gpu.Plural.of(rank, "dimension")
                    + (rank == 1 ? "; give one extent N" : "; give N or " + rank + " extents joined by 'x'"));
        }
        // arrays are int-indexed (2^30 points, with room for halos), but a kernel that keeps its state fields in part and
        // reads sequences holds none over the domain where a run folds them: its size is refused only for what it holds
        java.util.Optional<String> tooLarge = dev.finegrain.compiler.backend.DomainLimits.tooLarge(of, extents);
        if (tooLarge.isPresent()) {
            throw new UsageException(tooLarge.get());
        }
        return extents;
    }

    /**
     * A comma-separated list of sizes ({@code --sizes}), each {@code N} or {@code NxM}. An empty list, or an empty entry
     * in one, is a usage error: split on its own, {@code ","} would give no size at all, and a command given no size
     * would run nothing and blame the skipped rows.
     */
    static List<int[]> sizes(String text, dev.finegrain.dsl.Kernel kernel) {
        String[] parts = text.split(",", -1);
        if (Arrays.stream(parts).allMatch(String::isBlank)) {
            throw new UsageException("--sizes '" + text + "' is an empty list; give one or more sizes separated by commas, e.g. "
                    + "--sizes 64,128 or --sizes 64x32");
        }
        List<int[]> sizes = new ArrayList<>();
        for (String part : parts) {
            if (part.isBlank()) {
                throw new UsageException("--sizes '" + text + "' has an empty entry; separate sizes with single commas, e.g. "
                        + "--sizes 64,128 or --sizes 64x32,128x64");
            }
            sizes.add(size(part.trim(), kernel));
        }
        return sizes;
    }

    static Schedule schedule(String text) {
        Optional<Schedule> parsed;
        try {
            parsed = Schedule.parse(text.trim());
        } catch (IllegalArgumentException badTile) {
            throw new UsageException("schedule '" + text.trim() + "': " + badTile.getMessage());
        }
        return parsed.orElseThrow(() -> new UsageException("unknown schedule '" + text
                + "'; use wavefront[:" + java.util.Arrays.stream(dev.finegrain.dsl.GridBarrier.values())
                .map(dev.finegrain.dsl.GridBarrier::cliName).collect(java.util.stream.Collectors.joining("|")) + "], lock-dataflow,"
                + " lock-dataflow:persistent[:columns=C], lock-dataflow:interleaved, any lock-dataflow with :capacity=K,"
                + " data-parallel or data-parallel:B (tiles B x B, or BxC for B rows by C columns),"
                + " or dynamic-dataflow[:B][:" + java.util.Arrays.stream(dev.finegrain.dsl.ReadyQueue.values())
                .map(dev.finegrain.dsl.ReadyQueue::cliName).collect(java.util.stream.Collectors.joining("|")) + "]"));
    }

    /** Refuses, in one line, a schedule the backend never runs (it says why). */
    static void requireRuns(Backend backend, Schedule schedule) {
        backend.neverRuns(schedule).or(() -> backend.repeatsAnotherRow(schedule)).ifPresent(reason -> {
            throw new UsageException("backend '" + backend.name() + "' does not run " + schedule.cliName() + ": " + reason);
        });
    }

    static List<Schedule> schedules(String text) {
        return Arrays.stream(text.split(",")).map(CliValues::schedule).toList();
    }

    static Backend backend(String text) {
        return Backends.byName(text.trim()).orElseThrow(() -> new UsageException("unknown backend '" + text
                + "'; available backends: " + String.join(", ", Backends.names())));
    }

    static List<Backend> backends(String text) {
        return Arrays.stream(text.split(",")).map(CliValues::backend).toList();
    }

    static LockMechanism mechanism(String text) {
        return LockMechanism.fromCliName(text.trim()).orElseThrow(() -> new UsageException("unknown mechanism '" + text
                + "'; mechanisms: " + Arrays.stream(LockMechanism.values()).map(LockMechanism::cliName).collect(Collectors.joining(", "))));
    }

    static List<LockMechanism> mechanisms(String text) {
        return Arrays.stream(text.split(",")).map(CliValues::mechanism).toList();
    }

    static int threads(int requested) {
        if (requested < 1 || requested > 1024) {
            throw new UsageException("--threads " + requested + " is out of range; use 1 to 1024");
        }
        return requested;
    }

    /** {@code --jobs}: the number given, checked, or available processors when none was. */
    static int jobs(Integer requested) {
        if (requested == null) {
            return RunSettings.defaultThreads();
        }
        if (requested < 1 || requested > 1024) {
            throw new UsageException("--jobs " + requested + " is out of range; use 1 to 1024");
        }
        return requested;
    }

    /** {@code all}, or a comma-separated list of mechanisms. */
    static MechanismChoice mechanismChoice(String text) {
        return text.trim().equals("all") ? MechanismChoice.all() : MechanismChoice.listed(mechanisms(text));
    }

    /**
     * The exit status of a comparison: 1 when a row is wrong or failed, 2 when nothing ran at all (every combination
     * was skipped: the table gives each reason, and one line on {@code err} says so), else 0.
     */
    static int exitStatus(Comparison comparison, java.io.PrintWriter err) {
        if (comparison.hasProblems()) {
            return FinegrainCli.EXIT_NOT_VERIFIED;
        }
        if (!comparison.anyRan()) {
            err.println(comparison.rows().isEmpty()
                    ? "finegrain: nothing ran: every combination was left out, for the reasons in the notes above"
                    : "finegrain: nothing ran: every combination was skipped, for the reasons in the table");
            return FinegrainCli.EXIT_USAGE;
        }
        return 0;
    }

    /** The command as typed, quoting arguments a shell would split, for a report to say how it was made. */
    static String commandLine(CommandSpec spec) {
        StringBuilder line = new StringBuilder(spec.root().name());
        for (String argument : spec.root().commandLine().getParseResult().originalArgs()) {
            boolean plain = !argument.isEmpty() && argument.chars().allMatch(c -> Character.isLetterOrDigit(c) || "-_.,:/=+@%".indexOf(c) >= 0);
            line.append(' ').append(plain ? argument : "'" + argument.replace("'", "'\\''") + "'");
        }
        return line.toString();
    }

    /** The schedules compare and export run when none are asked for, as the help spells them ({@link #allSchedules}). */
    static final String DEFAULT_SCHEDULES = "wavefront,lock-dataflow,lock-dataflow:persistent,data-parallel,dynamic-dataflow";

    /** The backends compare runs when none are asked for, as the help spells them ({@code Backends.available()}). */
    static final String DEFAULT_BACKENDS = "reference,jvm";

    static List<Schedule> allSchedules() {
        return List.of(new Schedule.Wavefront(), new Schedule.LockDataflow(), new Schedule.LockDataflow().persistent(),
                new Schedule.DataParallel(List.of(16)), new Schedule.DynamicDataflow());
    }

    /** The processor, its count and the JVM, for the provenance of measured numbers. */
    static String machine() {
        String cpu = "";
        try {
            cpu = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim() + ", ").orElse("");
        } catch (java.io.IOException | RuntimeException unreadable) {
            // another OS: the processor count and the JVM still say what ran it
        }
        return cpu + Runtime.getRuntime().availableProcessors() + " processors, Java " + Runtime.version();
    }
}
