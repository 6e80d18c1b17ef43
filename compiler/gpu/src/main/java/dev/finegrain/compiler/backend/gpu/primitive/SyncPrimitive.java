package dev.finegrain.compiler.backend.gpu.primitive;

import dev.finegrain.runtime.jvm.WaitPolicy;
import dev.finegrain.runtime.jvm.Watchdog;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One of Stuart and Owens' primitives, spelled for every target: the model ISA, CUDA and the JVM. Entering is the
 * barrier itself, a mutex's lock, a semaphore's wait; leaving is nothing, the unlock, the post. The algorithm is the
 * paper's, described on each class; the words it uses are {@link PrimitiveLayout}'s.
 */
public sealed interface SyncPrimitive
        permits AtomicBarrier, XfBarrier, SpinMutex, FetchAddMutex, SpinSemaphore, SleepingSemaphore {

    /** Every primitive, in the paper's order: barriers, mutexes, semaphores. */
    List<SyncPrimitive> ALL = List.of(new AtomicBarrier(), new XfBarrier(), new SpinMutex(false), new SpinMutex(true),
            new FetchAddMutex(), new SpinSemaphore(false), new SpinSemaphore(true), new SleepingSemaphore());

    /** The name a user types, e.g. {@code xf-barrier}. */
    String name();

    PrimitiveKind kind();

    /** The paper's name for it, as its figures and Table 5 use it. */
    String paperName();

    /** One sentence: how it works. */
    String algorithm();

    /** Model ISA: enter (registers and words as {@link PrimitiveLayout} has them; barriers run on every thread). */
    void sassEnter(SassText out);

    /** Model ISA: leave (the master thread only; nothing for a barrier). */
    default void sassLeave(SassText out) {
    }

    /** Words set before the launch, by byte address, for a primitive of this capacity. */
    default Map<Integer, Integer> initialWords(int capacity) {
        return Map.of();
    }

    /** CUDA: statements that enter, with {@code fgp::State& s}, {@code capacity}, {@code step} and {@code backoff_i} in scope. */
    String cudaEnter();

    /** CUDA: statements that leave. */
    default String cudaLeave() {
        return "";
    }

    /** How the JVM form's failed attempts pause: spinning, or the paper's backoff's JVM counterpart. */
    default WaitPolicy jvmWaitPolicy() {
        return WaitPolicy.SPIN;
    }

    /** The JVM form for {@code parties} workers. */
    JvmPrimitive jvm(int parties, int capacity, Watchdog watchdog);

    /** Enter and leave on the JVM, for worker {@code worker}. */
    interface JvmPrimitive {
        void enter(int worker);

        void leave(int worker);

        static JvmPrimitive of(dev.finegrain.runtime.jvm.StepBarrier barrier, Watchdog watchdog) {
            return new JvmPrimitive() {
                @Override
                public void enter(int worker) {
                    barrier.await(worker, watchdog);
                }

                @Override
                public void leave(int worker) {
                }
            };
        }

        static JvmPrimitive of(dev.finegrain.runtime.jvm.Exclusion exclusion) {
            return new JvmPrimitive() {
                @Override
                public void enter(int worker) {
                    exclusion.acquire(worker);
                }

                @Override
                public void leave(int worker) {
                    exclusion.release(worker);
                }
            };
        }
    }

    static Optional<SyncPrimitive> named(String name) {
        return ALL.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** The names, for a message that lists what exists. */
    static String names() {
        return ALL.stream().map(SyncPrimitive::name).collect(Collectors.joining(", "));
    }
}
