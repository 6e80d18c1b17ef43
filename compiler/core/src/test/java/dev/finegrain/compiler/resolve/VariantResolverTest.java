package dev.finegrain.compiler.resolve;

import dev.finegrain.compiler.backend.Variant;
import dev.finegrain.compiler.backend.jvm.JvmBackend;
import dev.finegrain.compiler.backend.jvm.JvmCodegen;
import dev.finegrain.compiler.backend.reference.ReferenceBackend;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.LockChoices;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockGranularity;
import dev.finegrain.dsl.LockMechanism;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dataParallel;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lockDataflow;
import static dev.finegrain.dsl.Finegrain.wavefront;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one road from a request to a variant: what it decides once, and each reason it can skip for. */
class VariantResolverTest {

    private static final Kernel NW = GoldenKernels.needlemanWunsch();
    private static final JvmBackend JVM = new JvmBackend();

    private static Variant resolved(VariantResolver resolver, VariantRequest request) {
        return resolver.resolve(request).orElseThrow(skip -> new IllegalStateException("skipped: " + skip.message()));
    }

    @Test
    void theScheduleLockChoicesRideOnThePlanAndWinOverTheKernels() {
        Kernel declared = NW.toBuilder().channelPolicy(ChannelPolicy.SHARED).build();
        Variant variant = resolved(new VariantResolver(), VariantRequest.of(declared,
                lockDataflow().warpShared(32).channels(ChannelPolicy.PRIVATE), JVM).withMechanism(LockMechanism.BLOCKING));
        LockChoices choices = variant.plan().lockChoices();
        assertEquals(new LockChoices(Optional.empty(), LockGranularity.WARP_SHARED, 32, ChannelPolicy.PRIVATE,
                dev.finegrain.dsl.WaitPolicy.ADAPTIVE, Optional.empty()), choices);
        assertTrue(variant.graph().channels().stream().allMatch(c -> c.policy() == ChannelPolicy.PRIVATE),
                "every channel the kernel left to the default takes the schedule's policy: " + variant.graph().channels());
        assertEquals("NwLockDataflowBlockingWarpSharedPrivate", JvmCodegen.className(variant.plan(), variant.mechanism()),
                "the jvm class is the warp-shared one the schedule asks for (it was per-thread when the schedule's choice was lost)");
    }

    @Test
    void aChannelPolicyTheKernelDeclaredForOneReadSurvivesTheSchedulesDefault() {
        Kernel overridden = NW.toBuilder().channelPolicy("cell", "score", ChannelPolicy.SHARED, -1, 0).build();
        Variant variant = resolved(new VariantResolver(), VariantRequest.of(overridden,
                lockDataflow().channels(ChannelPolicy.PRIVATE), JVM));
        IrChannel north = variant.graph().channels().stream().filter(c -> c.vector()[0] == 1 && c.vector()[1] == 0)
                .findFirst().orElseThrow();
        IrChannel west = variant.graph().channels().stream().filter(c -> c.vector()[0] == 0 && c.vector()[1] == 1)
                .findFirst().orElseThrow();
        assertEquals(ChannelPolicy.SHARED, north.policy(), "declared for its read");
        assertEquals(ChannelPolicy.PRIVATE, west.policy(), "the schedule's default");
    }

    @Test
    void eachKernelIsCompiledAndEachSchedulePlannedOnce() {
        VariantResolver resolver = new VariantResolver();
        Variant first = resolved(resolver, VariantRequest.of(NW, lockDataflow(), JVM).withMechanism(LockMechanism.TINY_LOCK));
        Variant second = resolved(resolver, VariantRequest.of(NW, lockDataflow(), JVM).withMechanism(LockMechanism.BLOCKING));
        assertSame(first.plan(), second.plan());
        assertSame(resolver.graph(NW), first.graph(), "a schedule that changes no policy shares the kernel's graph");
        assertSame(resolver.plan(NW, dataParallel(16)).plan().orElseThrow(),
                resolver.plan(NW, dataParallel(16, 16)).plan().orElseThrow(), "a one-extent tile is the same schedule spelled in full");
    }

    @Test
    void theDefaultMechanismIsTheSchedulesOrKernelsElseTheTargets() {
        VariantResolver resolver = new VariantResolver();
        assertEquals(Optional.of(LockMechanism.ACQUIRE_RELEASE_FLAG),
                resolved(resolver, VariantRequest.of(NW, lockDataflow(), JVM)).mechanism());
        assertEquals(Optional.of(LockMechanism.TINY_LOCK),
                resolved(resolver, VariantRequest.of(NW, lockDataflow().mechanism(LockMechanism.TINY_LOCK), JVM)).mechanism());
        assertEquals(Optional.of(LockMechanism.ATOMIC_SPIN_LOCK), resolved(resolver, VariantRequest.of(
                NW.toBuilder().mechanism(LockMechanism.ATOMIC_SPIN_LOCK).build(), lockDataflow(), JVM)).mechanism());
        assertEquals(Optional.empty(), resolved(resolver, VariantRequest.of(NW, lockDataflow(), new ReferenceBackend()))
                .mechanism(), "a backend that models sync abstractly takes none");
        assertEquals(Optional.empty(), resolved(resolver, VariantRequest.of(NW, wavefront(), JVM)).mechanism());
    }

    @Test
    void everySkipSaysWhatStoodInTheWay() {
        VariantResolver resolver = new VariantResolver();
        Kernel anti = kernel("anti").domain(dim("i", "n"), dim("j", "m")).state("s", INT, boundary(constant(0)))
                .actor("a", "s", c -> c.read("s", -1, 1).plus(1)).build();
        assertSkip(Skip.Reason.SCHEDULE_DOES_NOT_FIT_KERNEL, "data-parallel:4x4 cannot run kernel 'anti': rectangular tiles"
                + " cannot respect dependence (1,-1)", resolver.resolve(VariantRequest.of(anti, dataParallel(4), JVM)));
        assertSkip(Skip.Reason.TARGET_NEVER_RUNS_SCHEDULE, "backend 'flat' never runs lock-dataflow:persistent: its machine"
                + " has no persistent launches", resolver.resolve(VariantRequest.of(NW, lockDataflow().persistent(),
                new WithoutPersistence())));
        assertSkip(Skip.Reason.SCHEDULE_TAKES_NO_MECHANISM, "wavefront synchronises with barriers only; drop the mechanism",
                resolver.resolve(VariantRequest.of(NW, wavefront(), JVM).withMechanism(LockMechanism.TINY_LOCK)));
        assertSkip(Skip.Reason.MECHANISM_DOES_NOT_FIT, "backend 'jvm' cannot use mechanism 'named-barrier' for kernel 'nw':"
                + " named-barrier is a GPU warp mechanism", resolver.resolve(
                        VariantRequest.of(NW, lockDataflow(), JVM).withMechanism(LockMechanism.NAMED_BARRIER)));
        // a backend that needs whole tiles (none of the built-in ones: they cut the tiles at the high edges short)
        assertSkip(Skip.Reason.TILES_DO_NOT_DIVIDE_SIZE, "data-parallel:16x16 tiles do not divide size 30x32 of kernel 'nw'",
                resolver.resolve(VariantRequest.of(NW, dataParallel(16), new WithoutPersistence()), new int[] {30, 32}));
        assertTrue(resolver.resolve(VariantRequest.of(NW, dataParallel(16), new WithoutPersistence()), new int[] {32, 32}).variant().isPresent());
        assertTrue(resolver.resolve(VariantRequest.of(NW, dataParallel(16), JVM), new int[] {30, 32}).variant().isPresent());
        // beyond the points an int-indexed array holds, only a backend that folds every field of the variant runs it
        Kernel scoreOnly = kernel("score-only").domain(dim("i", "n"), dim("j", "m"))
                .state("s", INT, boundary(constant(0))).actor("a", "s", c -> c.read("s", -1, -1).plus(1))
                .keep("s", dev.finegrain.dsl.Keep.FINAL).build();
        assertSkip(Skip.Reason.SIZE_BEYOND_ARRAYS, "size 65536x65536 has 4294967296 points, more than an int-indexed array over"
                + " the domain holds (1073741824), and backend 'jvm' indexes the domain with ints under this schedule",
                resolver.resolve(VariantRequest.of(scoreOnly, lockDataflow(), JVM), new int[] {65536, 65536}));
        assertTrue(resolver.resolve(VariantRequest.of(scoreOnly, lockDataflow(), JVM), new int[] {32768, 32768}).variant().isPresent());
        // spsc-ring folds the score into a ring of rows on the JVM: no array over the domain
        assertTrue(resolver.resolve(VariantRequest.of(scoreOnly, lockDataflow(), JVM).withMechanism(LockMechanism.SPSC_RING),
                new int[] {65536, 65536}).variant().isPresent());
        Kernel kept = kernel("kept").domain(dim("i", "n"), dim("j", "m"))
                .state("s", INT, boundary(constant(0))).actor("a", "s", c -> c.read("s", -1, -1).plus(1)).build();
        assertTrue(resolver.resolve(VariantRequest.of(kept, lockDataflow(), JVM).withMechanism(LockMechanism.SPSC_RING),
                new int[] {65536, 65536}).skip().isPresent(), "a field kept whole needs an array over the domain");
    }

    private static void assertSkip(Skip.Reason reason, String messageStart, Resolution resolution) {
        Skip skip = resolution.skip().orElseThrow(() -> new AssertionError("resolved, expected " + reason));
        assertEquals(reason, skip.reason(), skip.message());
        assertTrue(skip.message().startsWith(messageStart), skip.message());
    }

    @Test
    void aScheduleThatWouldOnlyRepeatAnotherRowStillResolvesForASingleRequest() {
        assertTrue(JVM.repeatsAnotherRow(lockDataflow().persistent()).isPresent(), "a sweep leaves it out");
        Variant persistent = resolved(new VariantResolver(), VariantRequest.of(NW, lockDataflow().persistent(), JVM));
        assertEquals("NwLockDataflowPersistentAcquireReleasePerThreadShared",
                JvmCodegen.className(persistent.plan(), persistent.mechanism()), "the Java API and the plugin compile it");
    }

    @Test
    void thePlanOfADataflowVariantIsADataflowPlanWithItsWaits() {
        Variant variant = resolved(new VariantResolver(), VariantRequest.of(NW, lockDataflow(), JVM));
        DataflowPlan plan = (DataflowPlan) variant.plan();
        assertEquals(List.copyOf(plan.graph().syncChannels()), plan.waits());
    }

    /** A target whose machine cannot express persistent launches, as the GPU model without warp shuffles. */
    private static final class WithoutPersistence implements dev.finegrain.compiler.backend.Backend {
        @Override
        public String name() {
            return "flat";
        }

        @Override
        public boolean modelsSyncAbstractly() {
            return true;
        }

        @Override
        public List<LockMechanism> sweep() {
            return List.of();
        }

        @Override
        public Optional<String> neverRuns(dev.finegrain.dsl.Schedule schedule) {
            return schedule instanceof dev.finegrain.dsl.Schedule.LockDataflow dataflow && dataflow.persistentLaunch()
                    ? Optional.of("its machine has no persistent launches") : Optional.empty();
        }

        @Override
        public Optional<String> unsupported(dev.finegrain.compiler.plan.ExecutionPlan plan, LockMechanism mechanism) {
            return Optional.of("it takes none");
        }

        @Override
        public dev.finegrain.compiler.backend.BackendRun run(Variant variant, dev.finegrain.dsl.Invocation invocation,
                                                             dev.finegrain.compiler.backend.RunSettings settings) {
            throw new UnsupportedOperationException("never run in this test");
        }
    }
}
