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
import java.util.concurrent.ConcurrentHashMap;

/**
 * An exclusive lock on a lock file, held while a command writes a folder: a second command is refused with one line
 * naming the holder (the pid and command line the holder wrote into the file). The operating system releases it when
 * the holder's process ends, however it ends, so a killed run never leaves a folder locked. The file itself stays:
 * deleting it could let a second run lock a file that a third then replaces.
 *
 * <p>Within one JVM the locks held are also kept in a map, asked before any file is opened: the operating system's
 * record locks belong to the process, and closing any channel on a locked file releases them all, so a refused second
 * taker must never open one.
 */
public final class FolderLock implements AutoCloseable {

    /** The lock files this JVM holds, by real path, with how their holder named itself. */
    private static final ConcurrentHashMap<Path, String> HELD = new ConcurrentHashMap<>();

    private final Path key;
    private final FileChannel channel;
    private final FileLock lock;

    private FolderLock(Path key, FileChannel channel, FileLock lock) {
        this.key = key;
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
        Path key = realPath(lockFile);
        String mine = "pid " + ProcessHandle.current().pid() + ": " + holder;
        String other = HELD.putIfAbsent(key, mine);
        if (other != null) {
            throw inUse(what, other);
        }
        try {
            return lock(key, lockFile, what, mine);
        } catch (RuntimeException refused) {
            HELD.remove(key, mine);
            throw refused;
        }
    }

    private static FolderLock lock(Path key, Path lockFile, String what, String mine) {
        FileChannel channel;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException problem) {
            throw new UsageException("cannot write into " + what + ": " + AtomicFiles.reason(problem));
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException inThisJvm) {
            // this JVM holds the file under another name (a link): closing this channel would release that lock, so
            // the channel is left open, and the refusal names what the map knows
            throw inUse(what, "this process, through another path to " + lockFile.getFileName());
        } catch (IOException problem) {
            closeQuietly(channel);
            throw new UsageException("cannot lock " + what + ": " + AtomicFiles.reason(problem));
        }
        if (lock == null) {
            String other = readHolder(lockFile);
            closeQuietly(channel);   // another process holds it: this process holds no lock on the file to lose
            throw inUse(what, other);
        }
        try {
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((mine + "\n").getBytes(StandardCharsets.UTF_8)));
            channel.force(false);
        } catch (IOException problem) {
            closeQuietly(channel);
            throw new UsageException("cannot write into " + what + ": " + AtomicFiles.reason(problem));
        }
        return new FolderLock(key, channel, lock);
    }

    /** The lock file's path with its folder's links resolved, so that two spellings of one folder are one key. */
    private static Path realPath(Path lockFile) {
        Path absolute = lockFile.toAbsolutePath().normalize();
        try {
            return absolute.getParent().toRealPath().resolve(absolute.getFileName());
        } catch (IOException noFolderYet) {
            return absolute;
        }
    }

    private static UsageException inUse(String what, String holder) {
        return new UsageException(what + " is in use by another finegrain run (" + holder
                + "); wait for it to finish or choose another folder");
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // the lock dies with the channel, and with the process
        } finally {
            closeQuietly(channel);
            HELD.remove(key);
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
