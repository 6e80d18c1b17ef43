package dev.finegrain.compiler.backend.jvm.tokens;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Mutex;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A lock mechanism's tokens on the JVM, one class per mechanism that keeps its tokens in words of their own: the
 * runtime object a run's words live in, and the calls a generated class makes to await and publish one. The one place
 * that maps a {@link LockMechanism} to its JVM form is {@link #of}; the lowering and the run ask the form, never the
 * mechanism. Tiny-lock keeps its ready bit in the data word itself and has no words of its own (it is
 * {@code PackedReadyWords}, spelled where the data is); the GPU warp mechanisms have no JVM form.
 */
public sealed interface JvmTokens permits ReadyFlagTokens, ParkingTokens, SpinLockWords, TicketWords, LockBoxTokens,
        RingCounterTokens {

    String RUNTIME = "dev/finegrain/runtime/jvm/";
    JType WATCHDOG = JType.reference(RUNTIME + "Watchdog");
    /** The parameters after the word of every await: the watchdog, the channel, the consumer and the producer points. */
    List<JType> WAIT_PARAMETERS = List.of(JType.INT, WATCHDOG, JType.INT, JType.INT, JType.INT);

    /** The JVM form of a mechanism that keeps words of its own, its mutex the default one. */
    static Optional<JvmTokens> of(LockMechanism mechanism) {
        return of(mechanism, Mutex.TEST_AND_TEST_AND_SET);
    }

    /**
     * The JVM form of a mechanism that keeps words of its own, a lock-holding one taking its lock as {@code mutex} says;
     * empty for tiny-lock and the GPU warp mechanisms.
     */
    static Optional<JvmTokens> of(LockMechanism mechanism, Mutex mutex) {
        return Optional.ofNullable(switch (mechanism) {
            case ACQUIRE_RELEASE_FLAG -> new ReadyFlagTokens();
            case BLOCKING -> new ParkingTokens();
            case ATOMIC_SPIN_LOCK, SHARED_SPIN_LOCK -> mutex == Mutex.TICKET ? new TicketWords()
                    : new SpinLockWords(mutex == Mutex.TEST_AND_SET);
            case LOCK_BOX -> new LockBoxTokens();
            case SPSC_RING -> new RingCounterTokens();
            case TINY_LOCK, NAMED_BARRIER, WARP_VOTE, MBARRIER, MBARRIER_WARP -> null;
        });
    }

    /** The type of the value a run's words live in, as the generated class binds it. */
    JType wordsType();

    /** A run's words, {@code words} of them, each token not yet published. */
    Object create(int words);

    /** Awaits the token in word {@code word} of {@code tokens}: reads it, or takes it where a token is a lock. */
    JStmt await(JExpr tokens, JExpr word, JExpr watchdog, JExpr channel, JExpr consumer, JExpr producer);

    /**
     * Where a consumer takes the token (a lock), the call that hands it back for the producer's other consumers (a
     * shared token, or a group's); empty where a published token stays readable by all.
     */
    default Optional<JExpr> giveBack(JExpr tokens, JExpr word) {
        return Optional.empty();
    }

    /** Publishes the token in word {@code word} of {@code tokens}, after the producer's writes. */
    JExpr publish(JExpr tokens, JExpr word);

    /**
     * Whether it counts whole blocks or band rows, one counter per worker ({@link RingCounterTokens}), rather than
     * keeping a word per token: its run has a word per worker, and the lowering awaits and counts blocks and rows.
     */
    default boolean countsBlocks() {
        return false;
    }

    /** Whether {@code mechanism}'s JVM form counts blocks ({@link #countsBlocks}): the one test of it for a mechanism. */
    static boolean countsBlocks(LockMechanism mechanism) {
        return of(mechanism).map(JvmTokens::countsBlocks).orElse(false);
    }

    /** Whether it holds a lock, so that the plan's mutex choice applies to it. */
    default boolean holdsALock() {
        return false;
    }

    /**
     * Whether its waits pause as the plan's wait policy says; a mechanism that parks by its own protocol (woken by its
     * producer) has no use for one.
     */
    default boolean followsWaitPolicy() {
        return true;
    }

    /** A call of a static method of the runtime class {@code owner}. */
    static JExpr runtime(String owner, String name, JType result, List<JType> parameters, JExpr... arguments) {
        return new JExpr.InvokeStatic(RUNTIME + owner, name, parameters, result, List.of(arguments));
    }

    static List<JType> prepend(JType first, List<JType> rest) {
        List<JType> all = new ArrayList<>();
        all.add(first);
        all.addAll(rest);
        return all;
    }
}
