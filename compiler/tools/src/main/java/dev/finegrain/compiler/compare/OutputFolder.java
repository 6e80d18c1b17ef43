package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.json.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A folder a command writes into, held for the command's whole run so that nothing it writes is lost or mixed with
 * another run's: a lock that a second run is refused on (naming the holder), a journal of the rows as they finish
 * (one JSON line each, appended with one write, so a killed run leaves every finished row and at most one torn last
 * line), and files replaced by a rename of a complete temporary file, never truncated in place (a full disk leaves the
 * old file).
 */
public final class OutputFolder implements AutoCloseable {

    /** The rows as they finish, one JSON object a line, what {@code --resume} reads back. */
    public static final String JOURNAL_FILE = "rows.jsonl";
    static final String LOCK_FILE = ".finegrain.lock";

    private final Path dir;
    private final FolderLock lock;
    private FileChannel journal;

    private OutputFolder(Path dir, FolderLock lock) {
        this.dir = dir;
        this.lock = lock;
    }

    /**
     * Creates the folder when missing and takes its lock.
     *
     * @param holder how this run names itself to a second one (its command line)
     * @throws UsageException when the folder cannot be made or written, or another run holds it
     */
    public static OutputFolder take(Path dir, String holder) {
        if (dir.toString().isBlank()) {
            throw new UsageException("--out needs a folder name");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException problem) {
            throw new UsageException("cannot create report folder " + dir + ": " + reason(problem));
        }
        FolderLock lock = FolderLock.take(dir.resolve(LOCK_FILE), "output folder " + dir, holder);
        return new OutputFolder(dir, lock);
    }

    public Path dir() {
        return dir;
    }

    /** Starts the journal: empty for a fresh run, kept (to be appended to) when the run resumes an earlier one. */
    public void startJournal(boolean resume) {
        try {
            journal = resume
                    ? FileChannel.open(dir.resolve(JOURNAL_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                            StandardOpenOption.APPEND)
                    : FileChannel.open(dir.resolve(JOURNAL_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException problem) {
            throw new UsageException("cannot write " + dir.resolve(JOURNAL_FILE) + ": " + reason(problem));
        }
    }

    /**
     * The rows an earlier run of this folder finished, from its journal; a torn last line (the run was killed while
     * writing it) is left out, and so is the row, which then runs again.
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
            throw new UsageException("cannot read " + file + ": " + reason(problem));
        }
        List<ResultRow> rows = new ArrayList<>();
        for (int l = 0; l < lines.size(); l++) {
            String line = lines.get(l);
            if (line.isBlank()) {
                continue;
            }
            Object parsed;
            try {
                parsed = Json.parse(line);
            } catch (IllegalArgumentException torn) {
                if (l == lines.size() - 1) {
                    break;   // the line a killed run was writing
                }
                throw new UsageException(file + ": line " + (l + 1) + " is not a row (" + torn.getMessage() + "); move the"
                        + " file away to start the sweep afresh");
            }
            if (!(parsed instanceof Map<?, ?> object)) {
                throw new UsageException(file + ": line " + (l + 1) + " is not a row object");
            }
            rows.add(ImportedRows.row(file, l, object));
        }
        return rows;
    }

    /** Appends one finished row to the journal with one write, and forces it to the disk. */
    public synchronized void append(ResultRow row) {
        byte[] line = (ResultFormat.jsonObject(row) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            ByteBuffer buffer = ByteBuffer.wrap(line);
            while (buffer.hasRemaining()) {
                journal.write(buffer);
            }
            journal.force(false);
        } catch (IOException problem) {
            throw new UncheckedIOException("cannot append to " + dir.resolve(JOURNAL_FILE), problem);
        }
    }

    /**
     * Replaces {@code name} in the folder with {@code text}: written whole to a temporary file beside it, then renamed
     * over it, so a reader sees the old file or the new one, never a part.
     *
     * @throws UsageException naming the file when it cannot be written
     */
    public Path replace(String name, String text) {
        return replaceAtomically(dir.resolve(name), text);
    }

    /** {@link #replace} for any file: a temporary sibling written whole, then renamed over it. */
    public static Path replaceAtomically(Path file, String text) {
        if (Files.isDirectory(file)) {
            throw new UsageException("cannot write " + file + ": a folder is in the way");
        }
        Path parent = file.toAbsolutePath().getParent();
        Path temporary = null;
        try {
            // a plain new file (the umask's permissions, as the file it replaces had), not createTempFile's owner-only one
            temporary = parent.resolve("." + file.getFileName() + "." + ProcessHandle.current().pid() + "-"
                    + Long.toHexString(System.nanoTime()) + ".partial");
            Files.writeString(temporary, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException notHere) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
            return file;
        } catch (IOException problem) {
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // the original problem is what the user needs to hear
                }
            }
            throw new UsageException("cannot write " + file + ": " + reason(problem));
        }
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

    static String reason(IOException problem) {
        return switch (problem) {
            case AccessDeniedException denied -> "permission denied";
            case FileAlreadyExistsException exists -> "a file is in the way";
            case FileSystemException other when other.getReason() != null -> other.getReason();
            default -> problem.getMessage() == null ? problem.getClass().getSimpleName() : problem.getMessage();
        };
    }
}
