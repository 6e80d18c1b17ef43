package dev.finegrain.compiler.compare;

import java.io.IOException;
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

/**
 * Files written whole or not at all: the text goes to a new file beside the target, is forced to the disk, and is
 * renamed over the target, so a reader (or a later run) sees the old file or the new one, never a part; a full disk or a
 * kill leaves the old file. The new file gets the umask's permissions, as any new file; a symbolic link at the target
 * is replaced by the file.
 */
public final class AtomicFiles {

    private AtomicFiles() {}

    /** @throws UsageException naming the file when it cannot be written */
    public static Path replace(Path file, String text) {
        if (Files.isDirectory(file)) {
            throw new UsageException("cannot write " + file + ": a folder is in the way");
        }
        Path parent = file.toAbsolutePath().getParent();
        Path temporary = parent.resolve("." + file.getFileName() + "." + ProcessHandle.current().pid() + "-"
                + Long.toHexString(System.nanoTime()) + ".partial");
        try {
            try (FileChannel out = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                out.write(StandardCharsets.UTF_8.encode(text));
                out.force(true);
            }
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException notHere) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
            return file;
        } catch (IOException problem) {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException ignored) {
                // the original problem is what the user needs to hear
            }
            throw new UsageException("cannot write " + file + ": " + reason(problem));
        }
    }

    /** A file system problem in a user's words. */
    static String reason(IOException problem) {
        return switch (problem) {
            case AccessDeniedException denied -> "permission denied";
            case FileAlreadyExistsException exists -> "a file is in the way";
            case FileSystemException other when other.getReason() != null -> other.getReason();
            case FileSystemException other -> "the file system refused it (" + other.getClass().getSimpleName() + ")";
            default -> problem.getMessage() == null ? problem.getClass().getSimpleName() : problem.getMessage();
        };
    }
}
