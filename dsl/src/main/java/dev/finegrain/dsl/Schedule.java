package dev.finegrain.dsl;

import java.util.List;
import java.util.Optional;

/**
 * How to order a kernel's actor instances, kept apart from the kernel itself (Halide's algorithm/schedule
 * split): one kernel, many schedules. Create with {@link Finegrain#wavefront()}, {@link Finegrain#lockDataflow()}
 * and {@link Finegrain#dataParallel(int...)}; the compiler lowers each to an execution plan.
 */
public sealed interface Schedule {

    /** The name used on the command line and in reports. */
    String cliName();

    /** Lamport hyperplane steps: all points of one step in parallel, a barrier between steps. */
    record Wavefront() implements Schedule {
        @Override
        public String cliName() {
            return "wavefront";
        }
    }

    /** Every actor instance fires as soon as the tokens of its channels are ready; no global barrier. */
    record LockDataflow() implements Schedule {
        @Override
        public String cliName() {
            return "lock-dataflow";
        }
    }

    /**
     * Rodinia's structure: the domain is cut into tiles (one extent per dimension, or one for all); a tile runs
     * sequentially, the tiles of one block-diagonal run in parallel, a barrier between block-diagonals.
     */
    record DataParallel(List<Integer> tile) implements Schedule {
        public DataParallel {
            tile = List.copyOf(tile);
        }

        @Override
        public String cliName() {
            return tile.stream().map(String::valueOf).reduce((a, b) -> a + "x" + b)
                    .map(extent -> "data-parallel:" + extent).orElse("data-parallel");
        }

        /** The tile extent along dimension d of a kernel of the given rank. */
        public int extent(int dimension, int rank) {
            return tile.size() == 1 ? tile.getFirst() : tile.get(dimension);
        }
    }

    /**
     * Parses a command-line spelling: {@code wavefront}, {@code lock-dataflow}, {@code data-parallel} (tile 16)
     * or {@code data-parallel:B} / {@code data-parallel:BxB}.
     */
    static Optional<Schedule> parse(String text) {
        return switch (text) {
            case "wavefront" -> Optional.of(new Wavefront());
            case "lock-dataflow" -> Optional.of(new LockDataflow());
            case "data-parallel" -> Optional.of(new DataParallel(List.of(16)));
            default -> parseDataParallel(text);
        };
    }

    private static Optional<Schedule> parseDataParallel(String text) {
        String prefix = "data-parallel:";
        if (!text.startsWith(prefix) || !text.substring(prefix.length()).matches("[1-9][0-9]{0,5}(x[1-9][0-9]{0,5}){0,2}")) {
            return Optional.empty();
        }
        List<Integer> tile = java.util.Arrays.stream(text.substring(prefix.length()).split("x"))
                .map(Integer::parseInt).toList();
        return Optional.of(new DataParallel(tile));
    }
}
