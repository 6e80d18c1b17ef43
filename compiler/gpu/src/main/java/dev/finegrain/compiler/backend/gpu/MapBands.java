package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandEdge;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandRead;
import dev.finegrain.compiler.backend.gpu.mechanism.GpuMechanism;
import dev.finegrain.compiler.backend.gpu.mechanism.GpuMechanisms;
import dev.finegrain.compiler.backend.gpu.mechanism.TokenStorage;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.ir.Loads;
import dev.finegrain.compiler.plan.DataflowPlan;
import dev.finegrain.compiler.plan.LockChoices;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.LockMechanism;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Maps lock-dataflow:persistent onto a GPU as bands of columns ({@link BandMapping}): which reads come along the
 * band and which cross its edge, how the edge's tokens are kept, and how many warps stay resident; throws
 * {@link GpuLoweringException} with the reason when the kernel, the mechanism or the machine does not fit.
 */
final class MapBands {

    private static final int WARP = GpuTarget.WARP;
    /** A lane keeps its last values in registers; reads reaching further back than this would spill them. */
    static final int MAX_STEPS_BACK = 16;
    private static final int WARPS_PER_BLOCK = 4;
    /** Helper warps are taken up to two bands an SM, as far as they were measured (256 bands on the H200's 132 SMs). */
    private static final int HELPED_BANDS_PER_SM = 2;

    private MapBands() {}

    /** Why no size of the kernel maps onto bands with this mechanism (none given: any) on this machine, if none does. */
    static Optional<String> unsupported(DataflowPlan plan, Optional<LockMechanism> mechanism, GpuTarget target) {
        KernelGraph graph = plan.graph();
        try {
            check(graph, target);
            if (mechanism.isPresent()) {
                checkMechanism(graph, plan.lockChoices(), gpuForm(mechanism.get()), target, edgeFields(graph));
            }
            return Optional.empty();
        } catch (GpuLoweringException reason) {
            return Optional.of(reason.getMessage());
        }
    }

    static BandMapping map(DataflowPlan plan, LockMechanism requested, GpuTarget target, int[] sizes) {
        KernelGraph graph = plan.graph();
        LockChoices choices = plan.lockChoices();
        check(graph, target);
        GpuMechanism mechanism = gpuForm(requested);
        List<BandRead> reads = reads(graph);
        List<IrField> edgeFields = edgeFields(graph);
        checkMechanism(graph, choices, mechanism, target, edgeFields);
        int rows = sizes[0];
        int laneColumns = choices.laneColumns().orElse(1);
        int bands = Math.ceilDiv(sizes[1], WARP * laneColumns);
        int[] history = new int[graph.fields().size()];
        int columns = 0;
        int rowsBack = 0;
        for (BandRead read : reads) {
            history[read.field().id()] = Math.max(history[read.field().id()], read.stepsBack());
            if (read.columnsBack() > 0) {
                columns = Math.max(columns, read.columnsBack());
                rowsBack = Math.max(rowsBack, read.rowsBack());
            }
        }
        boolean readyWords = readyWords(mechanism, target, edgeFields);
        int groupRows = choices.warpShared() ? choices.groupSize() : 1;
        BandEdge everyRow = BandEdge.of(edgeFields, columns, rowsBack, readyWords, groupRows, 0, rows, bands);
        List<BandMapping.Ring> inputRings = new ArrayList<>();
        List<BandMapping.Ring> outputRings = new ArrayList<>();
        // a band alone in its block (few bands) that moves rows through shared memory hands that to helper warps,
        // whose rings are longer; where those would not fit a block, the band moves its rows itself
        String oneWarpBecause = !target.bandHelpers() ? ""
                : !BandFolding.foldedFields(graph).isEmpty() ? "the band folds its state, so it moves no rows"
                : bands > HELPED_BANDS_PER_SM * target.smCount() ? bands + " bands, more than " + HELPED_BANDS_PER_SM + " an SM" : "";
        boolean helpers = target.bandHelpers() && oneWarpBecause.isEmpty();
        int ringBytes = rings(graph, target, laneColumns, inputRings, outputRings, BandFolding.foldedFields(graph), helpers);
        List<LaneProfile> profiles = LaneProfile.of(graph, BandMapping.laneSequences(graph), laneColumns, ringBytes);
        if (helpers) {
            oneWarpBecause = whyNoHelpers(target, bands, warpBytes(ringBytes, profiles) + BandMapping.windowsPerBand(true) * everyRow.windowBytes()
                    + BandMapping.stagedTableBytes(graph), inputRings.isEmpty() && outputRings.isEmpty()).orElse("");
        }
        if (helpers && !oneWarpBecause.isEmpty()) {
            helpers = false;
            inputRings.clear();
            outputRings.clear();
            ringBytes = rings(graph, target, laneColumns, inputRings, outputRings, BandFolding.foldedFields(graph), false);
            profiles = LaneProfile.of(graph, BandMapping.laneSequences(graph), laneColumns, ringBytes);
        }
        int warpBytes = warpBytes(ringBytes, profiles);
        int windowPerWarp = BandMapping.windowsPerBand(helpers) * everyRow.windowBytes();   // the edge window(s), in static shared memory
        int tableBytes = BandMapping.stagedTableBytes(graph);
        if (!profiles.isEmpty() && warpBytes + windowPerWarp + tableBytes > target.sharedBytesPerBlockOptIn()) {
            profiles = List.of();   // one warp with its profiles would not fit a block: its lookups read the tables as they are
            warpBytes = ringBytes;
        }
        int warpsPerBlock = helpers ? 1 : warpsPerBlock(bands, target, warpBytes + windowPerWarp, tableBytes);
        int blockBytes = warpsPerBlock * (warpBytes + windowPerWarp) + tableBytes;
        if (blockBytes > target.sharedBytesPerBlockOptIn()) {
            throw new GpuLoweringException("lock-dataflow:persistent of kernel '" + graph.name() + "' needs " + blockBytes
                    + " bytes of shared memory for one warp's rings; " + target.name() + " gives a block at most "
                    + target.sharedBytesPerBlockOptIn() + "; use " + (laneColumns > 1 ? "fewer columns per lane or " : "")
                    + "lock-dataflow");
        }
        // every block must be resident at once, since band b waits for band b - 1 (the launch is cooperative, which
        // checks it): no more blocks than the SMs hold by threads, blocks and shared memory
        int threads = BandMapping.threadsPerBlock(helpers, warpsPerBlock);
        int perSm = target.residentBlocksPerSm(threads, blockBytes);
        int blocks = Math.min(Math.ceilDiv(bands, warpsPerBlock), target.smCount() * Math.max(1, perSm));
        // a kernel that folds holds its edge as a ring, whose length the resident warps decide
        BandEdge edge = !everyRow.crossed() || BandFolding.foldedFields(graph).isEmpty() ? everyRow
                : BandEdge.of(edgeFields, columns, rowsBack, readyWords, groupRows,
                        EdgeRing.rows(rows, groupRows, everyRow.lookbackRows(), blocks * warpsPerBlock), rows, bands);
        RaggedBand ragged = RaggedBand.of(graph, sizes[1], laneColumns, outputRings, profiles);
        BandFolding folding = BandFolding.of(graph, sizes, bands, columns, edge.heldRows(rows), edgeFields, !readyWords,
                ragged.runsAsFull() ? WARP * laneColumns : 0, BandMapping.TOKEN_BASE_BYTES + edge.tokenBytes());
        FirstChunk first = FirstChunk.of(graph, helpers, rows, ragged, inputRings, BandMapping.laneSequences(graph), folding);
        GuardedSteps guarded = GuardedSteps.of(graph, helpers, outputRings, profiles, folding);
        GpuMapping.Resources resources = new GpuMapping.Resources(0, blockBytes, 0, 0, 0, 0);
        StaticChecks.check(graph, target, threads, new GpuMapping.Resources(0, 0, 0, 0, 0, 0), requested);
        return new BandMapping(graph, target, sizes, requested, mechanism, bands, laneColumns, warpsPerBlock, blocks, reads, history, edge,
                inputRings, outputRings, profiles, warpBytes, resources, folding, ragged, first, guarded, oneWarpBecause);
    }

    /**
     * Warps per block: one, each band a block of its own, wherever that keeps every band resident; else the fewest that
     * do (two, four); where none does, the one that keeps the most warps resident (they then walk bands). Bands in one
     * block run side by side on one SM, neighbours on the chain; spread one a block, they ran faster on an H200 (132 SMs,
     * tiny-lock, 2026-11-30): needleman-wunsch-seq 65536² with four columns a lane (512 bands) 9.90 ms as 512 blocks of
     * one warp against 13.19 as 128 blocks of four, smith-waterman-seq 12.08 against 13.65 (`bench/cuda/band-probe`, the
     * generated units with the edge's predicated stores); the hand-written `rows-probe.cu` 9.75 ms against 12.42 as 256
     * blocks of two and 12.35 as 128 blocks of four.
     */
    static int warpsPerBlock(int bands, GpuTarget target, int bytesPerWarp, int tableBytes) {
        int most = 1;
        long mostResident = -1;
        for (int warps = 1; warps <= WARPS_PER_BLOCK; warps *= 2) {
            int blockBytes = warps * bytesPerWarp + tableBytes;
            if (blockBytes > target.sharedBytesPerBlockOptIn()) {
                break;
            }
            long resident = (long) warps * target.smCount() * target.residentBlocksPerSm(warps * WARP, blockBytes);
            if (resident >= bands) {
                return warps;
            }
            if (resident > mostResident) {
                most = warps;
                mostResident = resident;
            }
        }
        return most;
    }

    private static GpuMechanism gpuForm(LockMechanism requested) {
        return GpuMechanisms.of(requested).orElseThrow(() -> new GpuLoweringException(GpuMechanisms.whyNoGpuForm(requested)));
    }

    /** What bands need of every kernel and machine: a 2D domain, warp shuffles, and reads a lane's registers can hold. */
    private static void check(KernelGraph graph, GpuTarget target) {
        if (graph.rank() != 2) {
            throw new GpuLoweringException("lock-dataflow:persistent deals bands of columns to warps, which needs a 2D domain;"
                    + " kernel '" + graph.name() + "' has " + graph.rank() + " dimension(s); use lock-dataflow");
        }
        if (!target.warpShuffle()) {
            throw new GpuLoweringException("lock-dataflow:persistent carries values along a band by warp shuffle, which "
                    + target.called() + " does not model; run it on the cuda backend, or use lock-dataflow here");
        }
        for (BandRead read : reads(graph)) {
            if (read.columnsBack() >= WARP) {
                throw new GpuLoweringException("kernel '" + graph.name() + "' reads " + read.field().name() + " "
                        + read.columnsBack() + " columns back, beyond the band to the left (bands are " + WARP
                        + " columns wide); use lock-dataflow");
            }
            if (read.stepsBack() > MAX_STEPS_BACK) {
                throw new GpuLoweringException("kernel '" + graph.name() + "' reads " + read.field().name() + " "
                        + read.rowsBack() + " rows and " + read.columnsBack() + " columns back, " + read.stepsBack()
                        + " steps of a band; a lane keeps its last " + MAX_STEPS_BACK + " values; use lock-dataflow");
            }
        }
    }

    private static void checkMechanism(KernelGraph graph, LockChoices choices, GpuMechanism mechanism, GpuTarget target,
                                       List<IrField> edgeFields) {
        mechanism.unsupportedOn(target).ifPresent(reason -> {
            throw new GpuLoweringException(reason);
        });
        mechanism.noDeviceTokens(target).ifPresent(reason -> {
            throw new GpuLoweringException(reason);
        });
        if (readyWords(mechanism, target, edgeFields) && choices.warpShared()) {
            throw new GpuLoweringException(mechanism.id() + "'s token is the ready bit beside each value, one per point;"
                    + " for warp-shared groups on a band edge use acquire-release or atomic-spin-lock");
        }
    }

    /**
     * Whether each edge value carries its own ready bit in one 64-bit word (tiny-lock's form): only where every edge
     * field is 32 bits wide; a long or double edge has no room for the bit, and its rows take a ready word each
     * beside the values, released after them and acquired before them (the token words of acquire-release), as
     * tiny-lock's tiles do.
     */
    private static boolean readyWords(GpuMechanism mechanism, GpuTarget target, List<IrField> edgeFields) {
        return mechanism.deviceStorage(target) == TokenStorage.READY_BIT_BESIDE_VALUE
                && edgeFields.stream().allMatch(field -> GpuTarget.elementBytes(field.type()) <= 4);
    }

    /** A warp's dynamic shared memory: its rings, then its query profiles. */
    private static int warpBytes(int ringBytes, List<LaneProfile> profiles) {
        return profiles.isEmpty() ? ringBytes : profiles.getLast().offsetBytes() + profiles.getLast().bytes();
    }

    /**
     * Why a band may not have helper warps, if it may not: it moves no rows, its block would not fit, or not every band
     * would get a resident block of its own (a block's bands would run one after the other, as the longer rings leave
     * fewer blocks an SM).
     */
    private static Optional<String> whyNoHelpers(GpuTarget target, int bands, int blockBytes, boolean movesNoRows) {
        if (movesNoRows) {
            return Optional.of("the band moves no rows through shared memory");
        }
        if (blockBytes > target.sharedBytesPerBlockOptIn()) {
            return Optional.of("their rings would take " + blockBytes + " bytes a block, over the " + target.sharedBytesPerBlockOptIn()
                    + " of " + target.called());
        }
        int perSm = target.residentBlocksPerSm(BandMapping.threadsPerBlock(true, 1), blockBytes);
        return (long) perSm * target.smCount() >= bands ? Optional.empty()
                : Optional.of("only " + perSm * target.smCount() + " blocks of " + blockBytes + " bytes are resident at once, for "
                        + bands + " bands");
    }

    /**
     * Chooses the rings of one warp (adding them to the lists) and returns their bytes: an input ring for every input
     * the bodies read only in the lane's own column, within the ring's reach, where the machine copies asynchronously;
     * an output ring for every state field an actor writes and the band does not fold. With helper warps the rings are
     * longer ({@link BandMapping#HELPER_INPUT_RING_ROWS}): the input rows are copied two chunks ahead of the steps, not one.
     */
    private static int rings(KernelGraph graph, GpuTarget target, int laneColumns, List<BandMapping.Ring> inputRings,
                             List<BandMapping.Ring> outputRings, List<IrField> folded, boolean helpers) {
        int inputRows = helpers ? BandMapping.HELPER_INPUT_RING_ROWS : BandMapping.INPUT_RING_ROWS;
        int ahead = helpers ? 64 : 32;   // rows beyond the chunk's span that are landed or landing
        int stride = BandMapping.ringStride(laneColumns);
        int offset = 0;
        if (target.asyncCopy()) {
            for (IrField field : graph.fields()) {
                if (!field.isInput() || !GlobalReads.staged(field)) {
                    continue;
                }
                int[] lowest = {Integer.MAX_VALUE};
                int[] highest = {Integer.MIN_VALUE};
                boolean[] ownColumn = {true};
                boolean[] read = {false};
                for (IrActor actor : graph.actors()) {
                    Loads.forEach(actor.body(), load -> {
                        if (load.field() == field.id()) {
                            read[0] = true;
                            ownColumn[0] &= load.offset()[1] == 0;
                            lowest[0] = Math.min(lowest[0], -load.offset()[0]);
                            highest[0] = Math.max(highest[0], -load.offset()[0]);
                        }
                    });
                }
                // the ring holds the 63 rows a chunk spans, their reach and the rows copied ahead of it
                if (read[0] && ownColumn[0] && 63 + (highest[0] - lowest[0]) + ahead <= inputRows) {
                    boolean bytes = DeviceStorage.packsBytes(graph, field, target);
                    BandMapping.Ring ring = new BandMapping.Ring(field, inputRows,
                            bytes ? BandMapping.byteRingStride(laneColumns) : stride, offset, lowest[0], highest[0],
                            DeviceStorage.elementBytes(graph, field, target));
                    inputRings.add(ring);
                    offset += ring.bytes();
                }
            }
        }
        for (int actorId : graph.actorOrder()) {
            IrField field = graph.field(graph.actor(actorId).writes());
            if (!folded.contains(field) && outputRings.stream().noneMatch(ring -> ring.field().equals(field))) {
                BandMapping.Ring ring = new BandMapping.Ring(field, helpers ? BandMapping.HELPER_OUTPUT_RING_ROWS : BandMapping.OUTPUT_RING_ROWS,
                        stride, offset, 0, 0,
                        GpuTarget.elementBytes(field.type()));
                outputRings.add(ring);
                offset += ring.bytes();
            }
        }
        return offset;
    }

    /** The distinct reads of state fields in the actors' bodies, in the order they first appear. */
    static List<BandRead> reads(KernelGraph graph) {
        Set<List<Integer>> seen = new LinkedHashSet<>();
        List<BandRead> reads = new ArrayList<>();
        for (int actorId : graph.actorOrder()) {
            IrActor actor = graph.actor(actorId);
            Loads.forEach(actor.body(), load -> {
                IrField field = graph.field(load.field());
                if (field.isState() && seen.add(List.of(load.field(), -load.offset()[0], -load.offset()[1]))) {
                    reads.add(new BandRead(field, -load.offset()[0], -load.offset()[1]));
                }
            });
        }
        return reads;
    }

    /** The state fields some read takes across a band's left edge. */
    private static List<IrField> edgeFields(KernelGraph graph) {
        return reads(graph).stream().filter(read -> read.columnsBack() > 0).map(BandRead::field).distinct().toList();
    }
}
