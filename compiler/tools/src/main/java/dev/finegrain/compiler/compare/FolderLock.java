package dev.finegrain.compiler.compare;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a lock file, held while a command writes a folder: a second command is refused with one line
 * naming the holder (the pid and command line the holder wrote into the file). The operating system releases it when
 * the holder's process ends, however it ends, so a killed run never leaves a folder locked. The file itself stays:
 * deleting it could let a second run lock a file that a third then replaces.
 */
public final class FolderLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private FolderLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock on {@code lockFile} (created when missing).
     *
     * @param what   the folder it guards, in the user's words, for the refusal
     * @param holder how this run names itself to a second one (its command line)
     * @throws UsageException when another run holds it, or the file cannot be made
     */
    public static FolderLock take(Path lockFile, String what, String holder) {
        FileChannel channel;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException problem) {
            throw new UsageException("cannot write into " + what + ": " + OutputFolder.reason(problem));
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException inThisJvm) {
            lock = null;
        } catch (IOException problem) {
            closeQuietly(channel);
            throw new UsageException("cannot lock " + what + ": " + OutputFolder.reason(problem));
        }
        if (lock == null) {
            String other = readHolder(lockFile);
            closeQuietly(channel);
            throw new UsageException(what + " is in use by another finegrain run (" + other
                    + "); wait for it to finish or choose another folder");
        }
        try {
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + ": " + holder + "\n")
                    .getBytes(StandardCharsets.UTF_8)));
            channel.force(false);
        } catch (IOException problem) {
            closeQuietly(channel);
            throw new UsageException("cannot write into " + what + ": " + OutputFolder.reason(problem));
        }
        return new FolderLock(channel, lock);
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // the lock dies with the channel, and with the process
        } finally {
            closeQuietly(channel);
        }
    }

    /** The pid and command line of the run that holds it, as it wrote them when it took the lock. */
    private static String readHolder(Path lockFile) {
        try {
            String text = Files.readString(lockFile, StandardCharsets.UTF_8).strip();
            return text.isEmpty() ? "it is starting" : text;
        } catch (IOException unreadable) {
            return "unknown holder";
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing held to give back
        }
    }
}
