package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.code.AsmEmitter;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.generated.GeneratedKernels;
import dev.finegrain.compiler.backend.jvm.layout.AlignedStorage;
import dev.finegrain.compiler.backend.jvm.layout.HyperplaneStorage;
import dev.finegrain.compiler.backend.jvm.layout.RingStorage;
import dev.finegrain.compiler.backend.jvm.layout.StorageLayout;
import dev.finegrain.compiler.backend.jvm.tokens.JvmTokens;
import dev.finegrain.compiler.plan.RingFolding;
import dev.finegrain.runtime.jvm.RingCounters;
import dev.finegrain.compiler.backend.jvm.layout.ReadyTileGrids;
import dev.finegrain.compiler.backend.jvm.layout.StepBarriers;
import dev.finegrain.compiler.backend.jvm.layout.SyncLayout;
import dev.finegrain.compiler.backend.reference.HaloPoints;
import dev.finegrain.compiler.backend.reference.PaddedFields;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelExecutionException;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.plan.DataParallelPlan;
import dev.finegrain.compiler.plan.DynamicDataflowPlan;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.ParamSpec;
import dev.finegrain.runtime.jvm.TableIndex;
import dev.finegrain.runtime.jvm.PackedReadyWords;
import dev.finegrain.runtime.jvm.SenseBarrier;
import dev.finegrain.runtime.jvm.StepBarrier;
import dev.finegrain.runtime.jvm.StallException;
import dev.finegrain.runtime.jvm.TeamTask;
import dev.finegrain.runtime.jvm.WaitDescriber;
import dev.finegrain.runtime.jvm.Watchdog;
import dev.finegrain.runtime.jvm.WorkerTeam;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongPredicate;

/**
 * One variant compiled to a generated class, ready to run many times: {@link #prepare} allocates fresh state
 * (halos filled), sync words and the kernel object; {@link Prepared#runOn} runs it on a team. Benchmarks and the
 * {@code jvm} backend both use it, so what they time is the same thing: the team's run alone.
 */
public final class CompiledJvmKernel {

    private final Variant variant;
    private final MethodHandle constructor;
    /** The row layout the class expects of its storage, if it aligns rows ({@link JClass#ROW_SKEW_FIELD}). */
    private final Optional<JClass.RowAlignment> rows;
    /** Per field, whether the class keeps it in a {@code byte[]} (an input declared {@code Storage.BYTE}). */
    private final boolean[] bytes;
    /** Spsc-ring's blocks and rings, where the variant's mechanism counts blocks ({@link RingFolding}, the plan's decision). */
    private final Optional<RingFolding> rings;

    /**
     * Whether the class cuts tiles short at the high edges, so any size runs: its fingerprint says so ({@link JvmCodegen}'s
     * ragged classes), so a class for whole tiles can never be run at a size it would leave partly uncomputed.
     */
    private final boolean raggedTiles;

    CompiledJvmKernel(Variant variant, Class<?> kernelClass) {
        this.variant = variant;
        this.raggedTiles = fingerprintOf(kernelClass).endsWith(JvmCodegen.RAGGED_SUFFIX);
        this.constructor = constructorOf(kernelClass);
        this.rows = rowsOf(kernelClass);
        this.bytes = bytesOf(variant.graph(), kernelClass);
        this.rings = variant.plan() instanceof DataflowPlan dataflow && variant.mechanism().filter(JvmTokens::countsBlocks).isPresent()
                ? RingFolding.of(dataflow).rings() : Optional.empty();
    }

    /**
     * The least bytes a point moves in this class's storage ({@link dev.finegrain.compiler.backend.MemoryBound}): a byte
     * for an input it keeps in bytes, 8 for long and double, 4 for the rest (bools are ints), none for a field folded into a
     * ring; 0 when no field moves any (every one a sequence or folded), and then the run has no memory bound.
     */
    long bytesPerPoint() {
        // a field folded into a ring moves no bytes to or from memory per point: its few rows stay in cache
        return dev.finegrain.compiler.backend.MemoryBound.bytesPerPoint(variant.graph(), field -> bytes[field.id()] ? 1
                : rings.isPresent() && rings.get().folds(field.id()) ? 0
                : field.type() == dev.finegrain.dsl.Type.LONG || field.type() == dev.finegrain.dsl.Type.DOUBLE ? 8 : 4);
    }

    /** The fields the class keeps in bytes, from its {@link JClass#BYTE_FIELDS_FIELD}. */
    private static boolean[] bytesOf(KernelGraph graph, Class<?> kernelClass) {
        boolean[] bytes = new boolean[graph.fields().size()];
        try {
            for (String id : ((String) kernelClass.getField(JClass.BYTE_FIELDS_FIELD).get(null)).split(",")) {
                bytes[Integer.parseInt(id)] = true;
            }
        } catch (NoSuchFieldException none) {
            // the class keeps every field in its own type
        } catch (IllegalAccessException failure) {
            throw new IllegalArgumentException(kernelClass + " hides its byte fields", failure);
        }
        return bytes;
    }

    /**
     * The template with each input the class keeps in bytes narrowed to a {@code byte[]}. A class generated for another
     * declaration of the input has another fingerprint, which {@code CompiledKernel.load} refuses; that the values fit
     * is checked by {@link #checkNarrowable} just before, on the invocation's own arrays.
     */
    private Object[] narrowed(Object[] template) {
        Object[] out = template.clone();
        for (int f = 0; f < bytes.length; f++) {
            if (bytes[f]) {
                out[f] = dev.finegrain.compiler.ir.KernelGraph.narrowed((int[]) template[f]);
            }
        }
        return out;
    }

    /**
     * Refuses an invocation whose {@code Storage.BYTE} inputs no longer fit a byte, where this class reads them into the
     * bytes it keeps. {@code Invocation.build()} checked them, but the invocation shares its arrays with the caller,
     * who may have written them since; without this check a 1000 would wrap to -24 here while every other backend
     * (which keeps ints) computed with 1000. Checked here rather than made impossible by copying every input at
     * {@code build()}: a copy would double the memory of every invocation's inputs on every backend to guard the one
     * place that narrows, and the message is the invocation's own (the input, the element, the value).
     */
    private void checkNarrowable(Invocation invocation) {
        for (boolean narrow : bytes) {
            if (narrow) {
                invocation.checkStorage();
                return;
            }
        }
    }

    /** Compiles a variant (from the resolver) to a hidden class of this JVM. */
    public static CompiledJvmKernel compile(Variant variant) {
        return compile(variant, false);
    }

    /** The same, for sizes its tiles need not divide ({@code raggedTiles}: {@link JvmCodegen#tilesCutShort}). */
    public static CompiledJvmKernel compile(Variant variant, boolean raggedTiles) {
        try {
            Class<?> type = GeneratedKernels.define(AsmEmitter.emit(JvmCodegen.generate(variant.plan(), variant.mechanism(),
                    GeneratedKernels.PACKAGE, JvmCodegen.preferredWidth(), raggedTiles)));
            return new CompiledJvmKernel(variant, type);
        } catch (IllegalAccessException failure) {
            throw new IllegalStateException("cannot define the generated class of " + variant.graph().name(), failure);
        }
    }

    /** A variant whose class was generated earlier, e.g. ahead of time by the Maven plugin, and loaded by the caller. */
    public static CompiledJvmKernel of(Variant variant, Class<?> kernelClass) {
        return new CompiledJvmKernel(variant, kernelClass);
    }

    /** A class's {@link JClass#FINGERPRINT_FIELD} ({@link JvmCodegen#fingerprint}), or "none" for a class without one. */
    public static String fingerprintOf(Class<?> kernelClass) {
        try {
            java.lang.reflect.Field field = kernelClass.getField(JClass.FINGERPRINT_FIELD);
            return java.lang.reflect.Modifier.isStatic(field.getModifiers()) ? String.valueOf(field.get(null)) : "none";
        } catch (NoSuchFieldException | IllegalAccessException none) {
            return "none";
        }
    }

    private static Optional<JClass.RowAlignment> rowsOf(Class<?> kernelClass) {
        try {
            return Optional.of(new JClass.RowAlignment(kernelClass.getField(JClass.ROW_SKEW_FIELD).getInt(null),
                    kernelClass.getField(JClass.ROW_LANES_FIELD).getInt(null), optionalInt(kernelClass, JClass.ROW_BAND_GROUP_FIELD),
                    optionalInt(kernelClass, JClass.ROW_BLOCK_COLUMNS_FIELD), optionalInt(kernelClass, JClass.ROW_HYPERPLANES_FIELD) == 1));
        } catch (NoSuchFieldException dense) {
            return Optional.empty();
        } catch (IllegalAccessException failure) {
            throw new IllegalArgumentException(kernelClass + " hides its row layout", failure);
        }
    }

    /** A static int field of the class's row layout that only some classes declare (the blocks' band group or width, hyperplanes), else 0. */
    private static int optionalInt(Class<?> kernelClass, String field) throws IllegalAccessException {
        try {
            return kernelClass.getField(field).getInt(null);
        } catch (NoSuchFieldException wholeRows) {
            return 0;
        }
    }

    static MethodHandle constructorOf(Class<?> kernelClass) {
        try {
            return MethodHandles.lookup().findConstructor(kernelClass, MethodType.methodType(void.class, Object[].class,
                    long[].class, double[].class, int[].class, Object[].class, Watchdog.class));
        } catch (ReflectiveOperationException failure) {
            throw new IllegalArgumentException(kernelClass + " has no kernel constructor", failure);
        }
    }

    public Variant variant() {
        return variant;
    }

    /** A kernel object bound to fresh storage, for one run on a team of {@code workers} threads. */
    public final class Prepared {
        private final Object[] arrays;
        /** The layout of {@code arrays} when the class has one of its own; null for the reference's layout. */
        private final StorageLayout layout;
        /** The run's sync objects, where the workers leave what they computed beside the fields (streamed reductions). */
        private final Object[] sync;
        private final TeamTask task;
        private final int[] sizes;
        private final int workers;
        private final AtomicBoolean ran = new AtomicBoolean();

        private Prepared(Object[] arrays, StorageLayout layout, Object[] sync, TeamTask task, int[] sizes, int workers) {
            this.arrays = arrays;
            this.sync = sync;
            this.layout = layout;
            this.task = task;
            this.sizes = sizes;
            this.workers = workers;
        }

        /**
         * Runs the kernel once on {@code team}, which must have the number of workers this run was prepared for
         * (its barrier and its deal of work count them).
         *
         * @throws IllegalArgumentException when the team's size differs
         * @throws IllegalStateException when this run has run already (its state and watchdog are used up)
         */
        public void runOn(WorkerTeam team) {
            if (team.size() != workers) {
                throw new IllegalArgumentException("this run of kernel '" + variant.graph().name() + "' was prepared for "
                        + workers + " workers but the team has " + team.size() + "; prepare it with team.size()");
            }
            if (!ran.compareAndSet(false, true)) {
                throw new IllegalStateException("this run of kernel '" + variant.graph().name() + "' has run already; "
                        + "prepare a new one for each run");
            }
            try {
                team.run(task);
            } catch (ArithmeticException division) {
                throw divisionByZero();
            } catch (TableIndex.OutOfRange outside) {
                throw KernelExecutionException.lookupOutOfRange(variant.graph(), outside.table(), outside.axis(), outside.value());
            }
        }

        private KernelExecutionException divisionByZero() {
            return new KernelExecutionException("kernel '" + variant.graph().name() + "': integer division by zero in an actor "
                    + "body on the jvm backend; guard the divisor with select(...)");
        }

        public KernelOutputs outputs() {
            return layout == null ? KernelOutputs.fromPadded(variant.graph(), sizes, arrays)
                    : layout.outputs(variant.graph(), sizes, arrays, sync);
        }
    }

    /** One run of {@code invocation} on fresh storage: {@code runsOf(invocation).prepare(workers, stallTimeoutNanos)}. */
    public Prepared prepare(Invocation invocation, int workers, long stallTimeoutNanos) {
        return runsOf(invocation).prepare(workers, stallTimeoutNanos);
    }

    /**
     * Storage for many runs of one invocation, as a measurement makes them: the storage is laid out once (per team size
     * where the class splits it into the workers' bands), and each run gets fresh copies of the state fields while
     * sharing the inputs, so a run allocates only its state. The state's halos are computed from the inputs here, and
     * aligned rows copy the inputs (at the first run of each team size, for band blocks): the invocation's arrays must
     * not change while its runs are prepared.
     */
    public Runs runsOf(Invocation invocation) {
        return runsOf(invocation, AlignedStorage::startsOnLine);
    }

    /** The same, with {@code startsOnLine} saying which array sizes start on a cache line ({@link AlignedStorage}). */
    Runs runsOf(Invocation invocation, LongPredicate startsOnLine) {
        if (!raggedTiles) {
            DataParallelPlan.tilesOf(variant.plan()).ifPresent(tiles -> tiles.checkSizes(invocation.sizes()));
        }
        Runs runs = new Runs(invocation, prepareArrays(variant, invocation, rings), startsOnLine);
        if (rows.isEmpty() || !rows.get().perTeam()) {
            runs.storage(1);
        }
        return runs;
    }

    /** See {@link #runsOf}: the storage every run starts from, per team size, and the sizes the class is constructed with. */
    public final class Runs {
        private final Invocation invocation;
        private final Object[] padded;
        private final LongPredicate startsOnLine;
        private final Map<Integer, Storage> storage = new ConcurrentHashMap<>();

        /** The arrays a run's state is copied from, their layout (null: the reference's), and the frame. */
        private record Storage(Object[] template, StorageLayout layout, int[] frame) {}

        private Runs(Invocation invocation, Object[] padded, LongPredicate startsOnLine) {
            this.invocation = invocation;
            this.padded = padded;
            this.startsOnLine = startsOnLine;
        }

        /** The storage of a team of {@code workers}: one for all team sizes unless the class splits it into bands. */
        private Storage storage(int workers) {
            int key = rows.isPresent() && rows.get().perTeam() ? workers : 0;
            return storage.computeIfAbsent(key, k -> {
                checkNarrowable(invocation);
                if (rings.isPresent() && !rings.get().folded().isEmpty()) {
                    RingStorage layout = new RingStorage(variant.graph(), invocation.sizes(), rings.get());
                    return new Storage(narrowed(layout.align(padded)), layout, layout.frame());
                }
                if (rows.isEmpty()) {
                    return new Storage(narrowed(padded), null, invocation.sizes());
                }
                StorageLayout layout = rows.get().hyperplanes() ? HyperplaneStorage.of(variant.graph(), invocation.sizes(), rows.get().skew())
                        : AlignedStorage.of(variant.graph(), invocation.sizes(), rows.get(), padded, workers, startsOnLine);
                return new Storage(narrowed(layout.align(padded)), layout, layout.frame());
            });
        }

        /** A kernel object bound to fresh state (a copy of the template's) and the shared inputs. */
        public Prepared prepare(int workers, long stallTimeoutNanos) {
            Storage laidOut = storage(workers);
            Object[] arrays = laidOut.template().clone();
            for (IrField field : variant.graph().fields()) {
                if (field.isState()) {
                    arrays[field.id()] = switch (laidOut.template()[field.id()]) {
                        case int[] ints -> ints.clone();
                        case long[] longs -> longs.clone();
                        case double[] doubles -> doubles.clone();
                        default -> throw new IllegalStateException("field storage is int[], long[] or double[]");
                    };
                }
            }
            Object[] sync = syncObjects(invocation.sizes(), workers);
            return new Prepared(arrays, laidOut.layout(), sync, instantiate(invocation, arrays, laidOut.frame().clone(), sync,
                    stallTimeoutNanos), invocation.sizes(), workers);
        }
    }

    /** The reference's storage for a run; a field folded into a ring only as the halo the ring starts from needs. */
    private static Object[] prepareArrays(Variant variant, Invocation invocation, Optional<RingFolding> rings) {
        Object[] arrays = rings.isPresent() ? PaddedFields.prepare(variant.graph(), invocation, rings.get()::folds)
                : PaddedFields.prepare(variant.graph(), invocation);
        if (variant.mechanism().orElse(null) == LockMechanism.TINY_LOCK) {
            for (IrField field : variant.graph().fields()) {
                if (field.isState()) {
                    arrays[field.id()] = packWithHaloReady(field, invocation.sizes(), (int[]) arrays[field.id()]);
                }
            }
        }
        return arrays;
    }

    /** Long words holding each int value; halo words are ready from the start, interior words not yet. */
    private static long[] packWithHaloReady(IrField field, int[] sizes, int[] values) {
        long[] words = PackedReadyWords.create(values.length);
        HaloPoints.forEach(sizes, field.haloLow(), field.haloHigh(), (index, point) -> PackedReadyWords.publish(words, index, values[index]));
        return words;
    }

    /** The kernel object over {@code arrays}; {@code frame} is the sizes it is constructed with ({@link StorageLayout#frame}). */
    private TeamTask instantiate(Invocation invocation, Object[] arrays, int[] frame, Object[] sync, long stallTimeoutNanos) {
        List<ParamSpec> params = variant.graph().kernel().params();
        long[] integral = new long[params.size()];
        double[] real = new double[params.size()];
        for (int p = 0; p < params.size(); p++) {
            Object value = invocation.param(params.get(p).name());
            switch (value) {
                case Double d -> real[p] = d;
                case Boolean b -> integral[p] = b ? 1 : 0;
                case Number n -> integral[p] = n.longValue();
                default -> throw new IllegalStateException("validated param is " + value);
            }
        }
        Watchdog watchdog = new Watchdog(stallTimeoutNanos, describer(invocation.sizes()), waitPolicy());
        TeamTask kernel;
        try {
            kernel = (TeamTask) constructor.invoke(arrays, integral, real, frame, sync, watchdog);
        } catch (Throwable failure) {
            throw new IllegalStateException("cannot instantiate the generated kernel of " + variant.graph().name(), failure);
        }
        StepBarrier barrier = sync.length == 1 && sync[0] instanceof StepBarrier steps ? steps : null;
        return (worker, teamSize) -> {
            try {
                kernel.run(worker, teamSize);
            } catch (StallException stall) {
                // a wait that ended: the stall is already declared (or an abort already told), nothing new failed
                throw stall;
            } catch (RuntimeException | Error failure) {
                // the other workers stop waiting for what this one will never publish, and the run blames this failure
                watchdog.abort();
                throw failure;
            }
            if (barrier != null) {
                barrier.depart();
            }
        };
    }

    private Object[] syncObjects(int[] sizes, int workers) {
        if (variant.plan() instanceof DynamicDataflowPlan dynamic) {
            return new Object[] {ReadyTileGrids.create(dynamic, sizes, workers)};
        }
        if (!(variant.plan() instanceof DataflowPlan dataflow)) {
            return new Object[] {StepBarriers.create(variant.plan(), workers)};
        }
        SyncLayout layout = SyncLayout.of(dataflow, variant.mechanism().orElseThrow());
        int last = sizes.length - 1;
        int rows = 1;
        for (int d = 0; d < last; d++) {
            rows *= sizes[d];
        }
        int words = layout.countsBlocks() ? workers
                : layout.group() == 1 ? new Domain(sizes).points() : rows * Math.ceilDiv(sizes[last], layout.group());
        Object[] sync = new Object[layout.arrays()];
        for (int a = 0; a < sync.length; a++) {
            sync[a] = layout.tokens().create(words);
        }
        return sync;
    }

    /** The run's wait policy, as the plan's lock choices have it (a wavefront's barrier waits take its own). */
    private dev.finegrain.runtime.jvm.WaitPolicy waitPolicy() {
        return dev.finegrain.runtime.jvm.WaitPolicy.valueOf(variant.plan().lockChoices().waitPolicy().name());
    }

    /** Names a stalled wait: the waiting actor instance, the channel, and the instance that should have produced it. */
    private WaitDescriber describer(int[] sizes) {
        KernelGraph graph = variant.graph();
        List<IrChannel> waits = variant.plan() instanceof DataflowPlan dataflow ? dataflow.waits() : List.of();
        // points are longs: a folded run may have more points than an int can number (DomainLimits)
        return (channel, consumerPoint, producerPoint) -> {
            if (channel == SenseBarrier.ABANDONED_CHANNEL) {
                return "a worker waits at the barrier between steps, but another finished its task without arriving "
                        + "(the workers took different numbers of steps)";
            }
            if (channel == dev.finegrain.runtime.jvm.ReadyTiles.WAIT_CHANNEL) {
                return "a worker waits for a ready tile, and no tile has finished (a worker stopped, or a tile's"
                        + " neighbour below never finishes)";
            }
            if (channel == RingCounters.SPACE_CHANNEL) {
                int[] consumer = new int[sizes.length];
                int[] producer = new int[sizes.length];
                Domain.coordinates(sizes, consumerPoint, consumer);
                Domain.coordinates(sizes, Math.max(0, producerPoint), producer);
                return "the point at " + Arrays.toString(consumer) + " waits for ring space: the work up to "
                        + Arrays.toString(producer) + " has not finished reading the slots it would overwrite";
            }
            if (channel < 0 || channel >= waits.size()) {
                return "a worker waits at the barrier between steps";
            }
            IrChannel wait = waits.get(channel);
            int[] consumer = new int[sizes.length];
            int[] producer = new int[sizes.length];
            Domain.coordinates(sizes, consumerPoint, consumer);
            Domain.coordinates(sizes, producerPoint, producer);
            return graph.actor(wait.consumer()).name() + Arrays.toString(consumer) + " waits on channel " + wait.via()
                    + " for " + graph.actor(wait.producer()).name() + Arrays.toString(producer);
        };
    }
}
