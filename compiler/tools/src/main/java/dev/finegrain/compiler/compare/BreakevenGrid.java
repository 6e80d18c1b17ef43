package dev.finegrain.compiler.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Seed 003's break-even read from rows run elsewhere (an exported bundle's, on a real GPU) on a grid of a param's
 * values: in each group of rows that differ only in the param (one backend, size, seed and value of every other axis),
 * the data-parallel rows with one tile, the whole chain, are the single-thread loop, and each lock-dataflow variant
 * (a mechanism, with its granularity and channels) is a threaded one; the break-even is the least grid value at which
 * the threaded one costs less. Rows that would make an answer ambiguous (two of one variant at one value) or that did
 * not verify make that variant's answer a reason instead.
 */
public final class BreakevenGrid {

    /** One variant's answer, or why there is none. */
    public record Answer(String variant, Optional<Crossover.Result> result, String notRun) {}

    /** One group's answers: rows alike in everything but the param. */
    public record Group(String backend, String context, String single, List<Answer> answers) {}

    private BreakevenGrid() {}

    /** The groups of {@code rows} that sweep {@code param}, in the order first met. */
    public static List<Group> of(List<ResultRow> rows, String param) {
        String axis = SweepAxes.PREFIX + param;
        Map<String, List<ResultRow>> groups = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            if (row.details().containsKey(axis)) {
                groups.computeIfAbsent(groupKey(row, axis), key -> new ArrayList<>()).add(row);
            }
        }
        List<Group> out = new ArrayList<>();
        groups.values().forEach(group -> out.add(group(group, axis)));
        return out;
    }

    /** What rows of one group share: everything but the param (and the schedule and mechanism, which the group spans). */
    private static String groupKey(ResultRow row, String axis) {
        StringBuilder key = new StringBuilder(row.backend() + "|" + row.size() + "|" + row.seed());
        new TreeMap<>(row.details()).forEach((name, value) -> {
            if (name.startsWith(SweepAxes.PREFIX) && !name.equals(axis)) {
                key.append('|').append(name).append('=').append(value);
            }
        });
        return key.toString();
    }

    private static Group group(List<ResultRow> rows, String axis) {
        ResultRow first = rows.getFirst();
        String single = "data-parallel:" + first.size();
        String context = "size " + first.size() + ", seed " + first.seed() + otherAxes(first, axis);
        Map<Long, ResultRow> singles = new TreeMap<>();
        List<Long> repeated = new ArrayList<>();
        for (ResultRow row : rows) {
            if (row.verified() && row.schedule().equals(single) && singles.put(value(row, axis), row) != null) {
                repeated.add(value(row, axis));
            }
        }
        Map<String, List<ResultRow>> threaded = new LinkedHashMap<>();
        rows.stream().filter(row -> row.schedule().equals("lock-dataflow") && !row.mechanism().equals("-"))
                .forEach(row -> threaded.computeIfAbsent(variant(row), key -> new ArrayList<>()).add(row));
        List<Answer> answers = new ArrayList<>();
        threaded.forEach((variant, variantRows) -> answers.add(answer(variant, variantRows, singles, repeated, axis)));
        return new Group(first.backend(), context, single, answers);
    }

    private static Answer answer(String variant, List<ResultRow> rows, Map<Long, ResultRow> singles, List<Long> repeated,
                                 String axis) {
        Optional<ResultRow> problem = rows.stream().filter(row -> !row.verified()).findFirst();
        if (problem.isPresent()) {
            return new Answer(variant, Optional.empty(), problem.get().status().label() + ": " + problem.get().problem());
        }
        if (!repeated.isEmpty()) {
            return new Answer(variant, Optional.empty(), "the single-thread loop has two rows at " + repeated.getFirst()
                    + "; give the results of one run");
        }
        List<Crossover.Probe> probes = new ArrayList<>();
        List<Long> seen = new ArrayList<>();
        for (ResultRow row : rows) {
            long value = value(row, axis);
            if (seen.contains(value)) {
                return new Answer(variant, Optional.empty(), "two rows at " + value + "; give the results of one run");
            }
            seen.add(value);
            if (singles.containsKey(value)) {
                probes.add(new Crossover.Probe(value, Crossover.cost(row), Crossover.cost(singles.get(value))));
            }
        }
        if (probes.isEmpty()) {
            return new Answer(variant, Optional.empty(), "no value of the grid has a single-thread row (" + "data-parallel"
                    + " with one tile) beside it");
        }
        return new Answer(variant, Optional.of(Crossover.Result.ofGrid(probes)), null);
    }

    /** A lock-dataflow variant: its mechanism, with its granularity and channels where they are not the defaults. */
    private static String variant(ResultRow row) {
        return row.mechanism() + (row.granularity().equals("per-thread") ? "" : " " + row.granularity())
                + (row.channels().equals("shared") ? "" : " " + row.channels() + " channels");
    }

    private static String otherAxes(ResultRow row, String axis) {
        StringBuilder text = new StringBuilder();
        new TreeMap<>(row.details()).forEach((name, value) -> {
            if (name.startsWith(SweepAxes.PREFIX) && !name.equals(axis)) {
                text.append(", ").append(name.substring(SweepAxes.PREFIX.length())).append(' ').append(value);
            }
        });
        return text.toString();
    }

    private static long value(ResultRow row, String axis) {
        String text = String.valueOf(row.details().get(axis));
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException notWhole) {
            throw new UsageException("row " + row.combination() + " has " + axis.substring(SweepAxes.PREFIX.length())
                    + " " + text + "; a break-even counts work in whole rounds");
        }
    }
}
