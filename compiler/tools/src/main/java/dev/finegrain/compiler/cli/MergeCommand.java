package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.compare.Comparison;
import dev.finegrain.compiler.compare.ImportCheck;
import dev.finegrain.compiler.compare.ImportedRows;
import dev.finegrain.compiler.compare.OutputFolder;
import dev.finegrain.compiler.compare.ReportWriter;
import dev.finegrain.compiler.compare.ResultFormat;
import dev.finegrain.compiler.compare.ResultRow;
import dev.finegrain.compiler.compare.Shard;
import dev.finegrain.compiler.compare.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code finegrain merge}: the {@code --out} folders of the shards of one sweep ({@code compare --shard I/N}) as one
 * comparison, in the sweep's order, as the unsharded sweep would have written it. Rows of another sweep, a row given
 * twice and a shard that did not finish are refused with one line; every verified row is checked as {@code compare
 * --results} checks imported rows; rows missing from the shards given are named in a note.
 */
@Command(name = "merge", description = "Put the --out folders of a sharded sweep (compare ... --shard I/N --out DIR) together:"
        + " one table, and with --out the JSON, CSV and report, in the sweep's order.")
final class MergeCommand extends CatalogCommand implements Callable<Integer> {

    @Parameters(paramLabel = "DIR", arity = "1..*", description = "the shards' --out folders")
    List<Path> shards;

    @Option(names = "--out", paramLabel = "DIR", description = "also write DIR/results.json, DIR/results.csv and DIR/report.html")
    Path outDir;

    @Option(names = "--format", defaultValue = "table", paramLabel = "F", description = "table, json or csv (default: ${DEFAULT-VALUE})")
    String format;

    @Override
    public Integer call() {
        ResultFormat resultFormat;
        try {
            resultFormat = ResultFormat.valueOf(format.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException unknown) {
            throw new UsageException("unknown format '" + format + "'; use table, json or csv");
        }
        Map<Long, Path> ownerOfRow = new HashMap<>();
        List<ResultRow> rows = new ArrayList<>();
        String sweep = null;
        Path first = null;
        long total = 0;
        for (Path dir : shards) {
            for (ResultRow row : rowsOf(dir)) {
                if (!(row.details().get(Shard.SWEEP) instanceof String identity)
                        || !(row.details().get(Shard.ROW) instanceof Long position)
                        || !(row.details().get(Shard.ROWS) instanceof Long rowsOfSweep)) {
                    throw new UsageException(dir + " holds rows that are not a shard's (no sweep identity): give the --out"
                            + " folders of compare ... --shard I/N");
                }
                if (sweep == null) {
                    sweep = identity;
                    first = dir;
                    total = rowsOfSweep;
                } else if (!sweep.equals(identity)) {
                    throw new UsageException(dir + " holds rows of another sweep (" + identity + ") than " + first + " ("
                            + sweep + "): merge the shards of one compare command");
                }
                Path earlier = ownerOfRow.putIfAbsent(position, dir);
                if (earlier != null) {
                    throw new UsageException("row " + position + " of the sweep is in both " + earlier + " and " + dir
                            + ": one shard given twice?");
                }
                rows.add(row);
            }
        }
        if (rows.isEmpty()) {
            throw new UsageException("the shard folders hold no rows");
        }
        rows.sort(Comparator.comparingLong(row -> (Long) row.details().get(Shard.ROW)));
        String kernel = rows.getFirst().kernel();
        List<ResultRow> merged = ImportCheck.check(rows.stream().map(MergeCommand::untagged).toList(),
                CliValues.kernel(catalog(), kernel), List.of());
        List<String> notes = new ArrayList<>();
        notes.add("merged " + rows.size() + " rows of kernel '" + kernel + "' from " + shards.size() + " shard folders");
        if (rows.size() < total) {
            notes.add("incomplete: " + rows.size() + " of the sweep's " + total + " rows; run the missing shards and merge"
                    + " again");
        }
        Comparison comparison = new Comparison(merged, notes);
        notes.forEach(note -> err().println("note: " + note));
        out().print(resultFormat.render(comparison.rows()));
        if (outDir != null) {
            String commandLine = CliValues.commandLine(spec);
            try (OutputFolder folder = OutputFolder.take(outDir, commandLine)) {
                err().println("report: " + ReportWriter.into(folder.dir()).write(comparison, commandLine, ZonedDateTime.now()));
            }
        }
        int status = CliValues.exitStatus(comparison, err());
        return rows.size() < total ? Math.max(status, FinegrainCli.EXIT_NOT_VERIFIED) : status;
    }

    /**
     * A shard folder's rows, from its results.json; a shard that did not finish (killed, interrupted, or running now:
     * no completion mark) is the user's to finish first.
     */
    private static List<ResultRow> rowsOf(Path dir) {
        Path results = dir.resolve(ReportWriter.JSON_FILE);
        if (!OutputFolder.isComplete(dir)) {
            throw new UsageException(Files.exists(dir.resolve(OutputFolder.JOURNAL_FILE))
                    ? dir + " is a shard that did not finish: finish it with its compare command and --resume, then merge"
                    : dir + " holds no finished sweep: give the --out folders of compare ... --shard I/N");
        }
        return ImportedRows.read(results);
    }

    /** The row as the unsharded sweep writes it: without the shard's note of its place. */
    private static ResultRow untagged(ResultRow row) {
        Map<String, Object> details = new LinkedHashMap<>(row.details());
        details.keySet().removeAll(List.of(Shard.SWEEP, Shard.ROW, Shard.ROWS));
        return row.withDetails(details);
    }
}
