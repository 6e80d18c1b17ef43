package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.json.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A folder a sweep writes into, held for the sweep's whole run so that nothing it writes is lost or mixed with
 * another run's: a {@link FolderLock} that a second run is refused on; a journal of the rows as they finish (a header
 * naming the sweep, then one JSON line a row, each appended with one write and forced to the disk, so a killed run
 * leaves every finished row and at most one torn last line, which a resume cuts off); and a completion mark written
 * last, which a merge asks for. Its files are replaced through {@link AtomicFiles}.
 */
public final class OutputFolder implements AutoCloseable {

    /** The rows as they finish, one JSON object a line after a header, what {@code --resume} reads back. */
    public static final String JOURNAL_FILE = "rows.jsonl";
    /** Written last by a run that finished, holding its sweep's identity; removed when a run starts. */
    public static final String COMPLETE_FILE = "complete";
    static final String LOCK_FILE = ".finegrain.lock";
    private static final String HEADER_KEY = "journal_of_sweep";

    private final Path dir;
    private final FolderLock lock;
    private FileChannel journal;
    private int skippedLines;

    private OutputFolder(Path dir, FolderLock lock) {
        this.dir = dir;
        this.lock = lock;
    }

    /**
     * Creates the folder when missing and takes its lock.
     *
     * @param holder how this run names itself to a second one (its command line)
     * @throws UsageException when the folder cannot be made, or another run holds it
     */
    public static OutputFolder take(Path dir, String holder) {
        if (dir.toString().isBlank()) {
            throw new UsageException("--out needs a folder name");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException problem) {
            throw new UsageException("cannot create report folder " + dir + ": " + AtomicFiles.reason(problem));
        }
        return new OutputFolder(dir, FolderLock.take(dir.resolve(LOCK_FILE), "output folder " + dir, holder));
    }

    public Path dir() {
        return dir;
    }

    /** The sweep whose rows the journal holds, as its header names it; empty when there is no journal. */
    public Optional<String> journaledSweep() {
        Path file = dir.resolve(JOURNAL_FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
            return lines.findFirst().flatMap(OutputFolder::headerOf);
        } catch (IOException | UncheckedIOException problem) {
            throw new UsageException("cannot read " + file + ": " + problem.getMessage());
        }
    }

    private static Optional<String> headerOf(String line) {
        try {
            return Json.parse(line) instanceof Map<?, ?> object && object.get(HEADER_KEY) instanceof String sweep
                    ? Optional.of(sweep) : Optional.empty();
        } catch (IllegalArgumentException notJson) {
            return Optional.empty();
        }
    }

    /**
     * The rows an earlier run of this folder finished, from its journal. A line that is not a row (the torn line a
     * killed run was writing) is left out, and its row runs again; {@link #skippedJournalLines} says how many.
     */
    public List<ResultRow> journaledRows() {
        Path file = dir.resolve(JOURNAL_FILE);
        if (!Files.exists(file)) {
            return List.of();
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException problem) {
            throw new UsageException("cannot read " + file + ": " + AtomicFiles.reason(problem));
        }
        List<ResultRow> rows = new ArrayList<>();
        for (int l = 0; l < lines.size(); l++) {
            String line = lines.get(l);
            if (line.isBlank() || (l == 0 && headerOf(line).isPresent())) {
                continue;
            }
            try {
                if (Json.parse(line) instanceof Map<?, ?> object) {
                    rows.add(ImportedRows.row(file, l, object));
                    continue;
                }
            } catch (IllegalArgumentException | UsageException torn) {
                // counted below
            }
            skippedLines++;
        }
        return rows;
    }

    /** How many journal lines {@link #journaledRows} left out as no row. */
    public int skippedJournalLines() {
        return skippedLines;
    }

    /**
     * Starts the journal of {@code sweep}: a new one (the old one emptied), or, resuming, the old one with a torn last
     * line cut off, so that the rows this run appends start on a line of their own.
     */
    public void startJournal(boolean resume, String sweep) {
        Path file = dir.resolve(JOURNAL_FILE);
        try {
            journal = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            if (resume) {
                journal.truncate(endOfLastLine(journal));
                journal.position(journal.size());
            } else {
                journal.truncate(0);
                write(("{\"" + HEADER_KEY + "\": " + Json.quote(sweep) + "}\n").getBytes(StandardCharsets.UTF_8));
            }
            Files.deleteIfExists(dir.resolve(COMPLETE_FILE));
        } catch (IOException problem) {
            throw new UsageException("cannot write " + file + ": " + AtomicFiles.reason(problem));
        }
    }

    /** Where the journal's last whole line ends (0 when it has none). */
    private static long endOfLastLine(FileChannel channel) throws IOException {
        long size = channel.size();
        ByteBuffer one = ByteBuffer.allocate(1);
        for (long at = size - 1; at >= 0; at--) {
            one.clear();
            channel.read(one, at);
            if (one.get(0) == '\n') {
                return at + 1;
            }
        }
        return 0;
    }

    /**
     * Appends one finished row to the journal with one write, and forces it to the disk; a write that fails is cut
     * off again, so the next row still starts on a line of its own.
     */
    public synchronized void append(ResultRow row) {
        byte[] line = (ResultFormat.jsonObject(row) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            write(line);
        } catch (IOException problem) {
            throw new UncheckedIOException("cannot append to " + dir.resolve(JOURNAL_FILE), problem);
        }
    }

    private void write(byte[] line) throws IOException {
        long start = journal.position();
        try {
            ByteBuffer buffer = ByteBuffer.wrap(line);
            while (buffer.hasRemaining()) {
                journal.write(buffer);
            }
            journal.force(false);
        } catch (IOException failed) {
            journal.truncate(start);
            journal.position(start);
            throw failed;
        }
    }

    /** Marks the folder's sweep as finished: the last thing a run that was not interrupted writes. */
    public void markComplete(String sweep) {
        AtomicFiles.replace(dir.resolve(COMPLETE_FILE), sweep + "\n");
    }

    /** Whether a run into {@code dir} finished: a merge takes no shard that did not. */
    public static boolean isComplete(Path dir) {
        return Files.isRegularFile(dir.resolve(COMPLETE_FILE));
    }

    /** Releases the lock; the journal stays, for a later {@code --resume}. */
    @Override
    public void close() {
        try {
            if (journal != null) {
                journal.close();
            }
        } catch (IOException ignored) {
            // every row was forced to the disk as it was appended
        } finally {
            lock.close();
        }
    }
}
