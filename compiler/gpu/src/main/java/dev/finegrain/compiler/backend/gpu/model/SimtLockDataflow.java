package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.GlobalReads;
import dev.finegrain.compiler.backend.gpu.GpuLoweringException;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.backend.gpu.LockDataflowMapping;
import dev.finegrain.compiler.backend.gpu.SyncChannel;
import dev.finegrain.compiler.backend.gpu.WaitForm;
import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.internal.DependenceMath;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.dsl.Type;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Spells a {@link LockDataflowMapping} in the model ISA: a prologue that copies this thread's word of every field
 * into shared memory and puts the tokens in place, the state-free work before any wait, then the wait and fire in the
 * mapping's wait form, with the mechanism's {@link SimtSync} protocol at every sync point, and the write-back.
 */
final class SimtLockDataflow {

    /** P1..P4 hold "channel c's token is held"; P0 and P5 are scratch, P6 says "this thread computes a point". */
    private static final int MAX_CHANNELS = 4;

    private final LockDataflowMapping mapping;
    private final KernelGraph graph;
    private final GlobalLayout layout;
    private final SimtSync sync;
    private final SimtAssembler asm = new SimtAssembler();
    private final SimtSyncContext cx;
    private SimtExpressions expressions;
    private String globalOffset;
    /** This thread's point in the global fields and in the shared tile copies, for 4- and 8-byte elements. */
    private SimtFieldAddress global;
    private SimtFieldAddress shared;
    private String[] point;
    private final Map<Integer, String> params = new HashMap<>();
    /** This point's values by field, for later actors of the point and the write-back. */
    private final Map<Integer, String> produced = new LinkedHashMap<>();

    private SimtLockDataflow(LockDataflowMapping mapping, GlobalLayout layout) {
        this.mapping = mapping;
        this.graph = mapping.graph();
        this.layout = layout;
        this.sync = SimtSyncs.of(mapping.mechanism().id());
        this.cx = new SimtSyncContext(asm, mapping);
    }

    /** Why the model ISA cannot spell a program that synchronises this many channels per point (its predicates). */
    static Optional<String> unsupported(KernelGraph graph, LockMechanism mechanism, GpuTarget target, int channels) {
        Optional<String> protocolLimit = SimtSyncs.of(mechanism)
                .unsupportedChannels(graph, target, channels);
        if (protocolLimit.isPresent()) {
            return protocolLimit;
        }
        if (channels > MAX_CHANNELS) {
            return Optional.of("kernel " + graph.name() + " has " + channels + " channels to synchronise per point; the"
                    + " GPU model's lowering holds at most " + MAX_CHANNELS);
        }
        return Optional.empty();
    }

    static SimtKernel emit(LockDataflowMapping mapping, GlobalLayout layout) {
        unsupported(mapping.graph(), mapping.mechanism().id(), mapping.target(), mapping.channels().size())
                .ifPresent(reason -> {
                    throw new GpuLoweringException(reason);
                });
        return new SimtLockDataflow(mapping, layout).emit();
    }

    private SimtKernel emit() {
        emitProgram();
        var resources = mapping.resources();
        return new SimtKernel(asm.text(), mapping.launchPlan(), mapping.threadsPerBlock(), mapping.blocksPerLaunch(),
                mapping.sharedBytes(), resources.claimedLockBits(), layout.totalBytes(), new SimtKernel.Resources(
                resources.syncSharedBytes(), resources.dataSharedBytes(), resources.explicitLockBits(),
                resources.implicitLockBits(), resources.namedBarriers(), asm.registersUsed()));
    }

    private void emitProgram() {
        asm.section(graph.name() + ": lock-dataflow, " + mapping.mechanism().id() + ", " + mapping.tile().describe());
        emitPrologue();
        expressions = new SimtExpressions(asm, operands(), cx.one, layout, mapping.target());
        asm.section("independent computation: every part of the actors that reads no state, before any wait");
        asm.comment("only threads that compute a point: a halo thread's neighbours may lie outside the tile");
        asm.emit("!P6", "BRA independent_done");
        for (int actorId : graph.actorOrder()) {
            expressions.precomputeStateFree(graph.actor(actorId).body(), field -> graph.field(field).isState());
        }
        asm.place("independent_done");
        String phaseStart = asm.register();
        asm.emit("S2R " + phaseStart + ", SR_CLOCKLO");
        switch (mapping.waitForm()) {
            case WARP -> emitWarpWaitFire(phaseStart);
            case IN_TURN -> emitWaitInTurn(phaseStart);
            case CRITICAL_SECTION -> emitCriticalSection(phaseStart);
        }
        asm.place("end");
        asm.emit("EXIT");
    }

    private void emitPrologue() {
        asm.section("prologue: who am I, copy my word of every field into shared memory, lock my own tokens");
        cx.tid = asm.register();
        asm.emit("S2R " + cx.tid + ", SR_TID.X");
        cx.one = asm.constant(1);
        cx.sharedOffset = asm.register();
        asm.emit("SHL " + cx.sharedOffset + ", " + cx.tid + ", 0x2");
        if (layout.hasWideFields() || cx.packed) {
            cx.wideSharedOffset = asm.register();
            asm.emit("IADD " + cx.wideSharedOffset + ", " + cx.sharedOffset + ", " + cx.sharedOffset);
        }
        SimtTileWord mine = SimtTileWord.of(asm, mapping.tile(), layout, cx.tid);
        String row = mine.row();
        String column = mine.column();
        String plane = mine.plane();
        int[] low = layout.haloLow();
        point = mine.point();
        globalOffset = mine.globalOffset();
        asm.emit("SHL " + globalOffset + ", " + globalOffset + ", 0x2");
        global = new SimtFieldAddress(layout, globalOffset, layout.hasWideFields() ? asm.register() : null);
        shared = new SimtFieldAddress(layout, cx.sharedOffset, cx.wideSharedOffset);
        global.emitWide(asm);
        asm.comment("P6: my word lies in the padded fields");
        emitInside(layout.haloHigh());
        emitSkewedColumnAtLeast(graph.rank() == 2 ? -low[1] : 0);
        Map<IrField, String> packedWords = new LinkedHashMap<>();
        for (IrField field : GlobalReads.stagedFields(graph)) {
            String width = SimtAssembler.width(field.type());
            boolean packedWord = cx.packed && field.isState();
            String value = packedWord ? asm.pair() : asm.register(field.type());
            asm.emit("MOV" + width + " " + value + ", RZ");
            asm.emit("P6", "LDG" + width + " " + value + ", " + global.at(field.id(), layout.fieldByte(field.id())));
            if (packedWord) {
                packedWords.put(field, value);   // stored below, with its ready bit
            } else {
                asm.emit("STS" + width + " " + shared.at(field.id(), mapping.dataBase()[field.id()]) + ", " + value);
            }
        }
        asm.comment("P6: I compute a point (inside the tile's interior and the domain)");
        emitInside(new int[graph.rank()]);
        emitSkewedColumnAtLeast(0);
        int[] interior = mapping.tile().interior();
        low = mapping.tile().haloLow();   // the tile's own halo: the common one, or the skewed reads'
        if (graph.rank() == 3) {
            asm.emit("ISETP.GE.AND P6, PT, " + plane + ", " + SimtAssembler.immediate(low[0]) + ", P6");
            asm.emit("ISETP.LT.AND P6, PT, " + plane + ", " + SimtAssembler.immediate(low[0] + interior[0]) + ", P6");
        }
        if (graph.rank() >= 2) {
            int r = graph.rank() - 2;
            asm.emit("ISETP.GE.AND P6, PT, " + row + ", " + SimtAssembler.immediate(low[r]) + ", P6");
            asm.emit("ISETP.LT.AND P6, PT, " + row + ", " + SimtAssembler.immediate(low[r] + interior[r]) + ", P6");
        }
        int last = graph.rank() - 1;
        asm.emit("ISETP.GE.AND P6, PT, " + column + ", " + SimtAssembler.immediate(low[last]) + ", P6");
        asm.emit("ISETP.LT.AND P6, PT, " + column + ", " + SimtAssembler.immediate(low[last] + interior[last]) + ", P6");
        if (!packedWords.isEmpty()) {
            asm.comment("the ready bit beside each state value: set for halo words, clear for the producers'");
        }
        for (Map.Entry<IrField, String> word : packedWords.entrySet()) {
            asm.emit("SEL " + SimtAssembler.high(word.getValue()) + ", RZ, " + cx.one + ", P6");
            asm.emit("STS.64 " + cx.ownDataAddress(word.getKey().id(), 0) + ", " + word.getValue());
        }
        params.putAll(SimtParams.load(asm, graph, layout));
        if (mapping.waitForm() == WaitForm.WARP) {
            emitWarpRegisters();
        }
        sync.initTokens(cx);
        if (mapping.blockBarrierAfterCopy()) {
            asm.comment("every word and token is in place");
            asm.emit("BAR.RED.POPC RZ, RZ");
        }
    }

    /** With skewed tiles, P6 also needs my column at least {@code lowest}: a skewed tile's words reach left of the halo. */
    private void emitSkewedColumnAtLeast(int lowest) {
        if (mapping.tile().skew().skews()) {
            asm.emit("ISETP.GE.AND P6, PT, " + point[1] + ", " + SimtAssembler.immediate(lowest) + ", P6");
        }
    }

    /** P6 = every coordinate of my point is below size + extra. */
    private void emitInside(int[] extra) {
        for (int d = 0; d < graph.rank(); d++) {
            asm.emit("ISETP.LT.AND P6, PT, " + point[d] + ", " + SimtAssembler.immediate(layout.size(d) + extra[d])
                    + ", " + (d == 0 ? "PT" : "P6"));
        }
    }

    /** Warp mechanisms: my warp, its token offset, P5 = I am its representative, P4 = some lane of it computes. */
    private void emitWarpRegisters() {
        cx.warp = asm.register();
        asm.emit("SHR " + cx.warp + ", " + cx.tid + ", 0x5");
        cx.warpOffset = asm.register();
        asm.emit("SHL " + cx.warpOffset + ", " + cx.warp + ", 0x2");
        String lane = asm.register();
        asm.emit("LOP.AND " + lane + ", " + cx.tid + ", 0x1f");
        asm.comment("P5: lane 0, the warp's representative; P4: some lane of my warp computes");
        asm.emit("ISETP.EQ.AND P5, PT, " + lane + ", RZ, PT");
        asm.emit("VOTE.ANY RZ, P4, P6");
    }

    // ------------------------------------------------------------------------------- per-thread critical section

    /**
     * The per-thread loop: poll every channel not yet held, fire once all are. Under independent thread scheduling the
     * loop is spelled as nvcc compiles the CUDA emitter's (read from the H200's cuobjdump of the generated tiles: with
     * two channels about 20 instructions a failing pass where the predicate form has 8; with one, the predicate form,
     * as nvcc keeps no flag there); on Fermi's profiles as seed 001's hand-written SASS spells it, in predicates
     * (Listing 15). How a poll loads its word is {@link SimtPollLoad}'s.
     */
    private void emitCriticalSection(String phaseStart) {
        asm.section("wait and fire, critical-section form: a lane fires inside the loop once it holds every token");
        asm.emit("!P6", "BRA end");
        String done = asm.register();
        asm.emit("MOV " + done + ", RZ");
        // with one channel a flag is true only in the pass that fires, so nvcc keeps none: poll, test, fire predicated
        boolean flagsInRegisters = cx.asNvcc() && cx.channels() > 1;
        String[] heldFlags = new String[cx.channels()];
        if (flagsInRegisters) {
            for (int c = 0; c < cx.channels(); c++) {
                heldFlags[c] = asm.register();
                asm.emit("MOV " + heldFlags[c] + ", RZ");
            }
        }
        cx.napStart();
        asm.place("spin");
        if (flagsInRegisters) {
            asm.comment("as nvcc compiles the loop for independent thread scheduling (the H200's SASS of the generated"
                    + " tiles): each channel's held flag is a bool in a register, made a predicate (LOP3) before its poll and"
                    + " after it, and the divergent fire inside a convergence barrier (BSSY, BSYNC)");
        }
        for (int c = 0; c < cx.channels(); c++) {
            SyncChannel channel = cx.channel(c);
            asm.comment("channel " + channel.channel().via() + " " + DependenceMath.format(channel.channel().vector()));
            if (flagsInRegisters) {
                asm.emit("ISETP.NE.AND " + held(c) + ", PT, " + heldFlags[c] + ", RZ, PT   // the held flag's predicate");
            }
            sync.tryTake(cx, c, held(c));
            if (flagsInRegisters) {
                asm.emit("SEL " + heldFlags[c] + ", " + cx.one + ", RZ, " + held(c) + "   // back into the flag");
                asm.emit("LOP.AND " + heldFlags[c] + ", " + heldFlags[c] + ", 0xff   // the bool's byte (PRMT)");
                asm.emit("ISETP.NE.AND " + held(c) + ", PT, " + heldFlags[c] + ", RZ, PT   // and its predicate again");
            }
        }
        asm.comment("P0: every token held");
        asm.emit("PSETP.AND.AND P0, PT, " + held(0) + ", " + held(1) + ", PT");
        if (cx.channels() > 2) {
            asm.emit("PSETP.AND.AND P0, PT, P0, " + held(2) + ", " + held(3));
        }
        if (flagsInRegisters) {
            // nvcc's YIELD here is in the poll loop's cost (pollLoop.yieldCycles), not an instruction of the model's
            asm.emit("NOP   // BSSY: the convergence barrier the fire's lanes meet at");
        }
        asm.emit("!P0", "BRA check");
        asm.section("fire: compute, publish my token, finalize private channels");
        Map<Integer, String> fired = emitFire();
        String phaseEnd = asm.register();
        asm.emit("S2R " + phaseEnd + ", SR_CLOCKLO");
        for (int c = 0; c < cx.channels() && cx.privateChannels(); c++) {
            sync.finalizePrivate(cx, c);
        }
        asm.emit("MOV32I " + done + ", 0x1");
        asm.place("check");
        if (flagsInRegisters) {
            asm.emit("NOP   // BSYNC");
        }
        asm.emit("ISETP.EQ.AND P0, PT, " + done + ", RZ, PT");
        cx.pause("P0");
        asm.emit("P0", "BRA spin");
        emitWriteBack("PT", fired, phaseStart, phaseEnd);
    }

    /** The predicate that says channel c's token is held; PT for channels the kernel does not have. */
    private String held(int channel) {
        return channel < cx.channels() ? "P" + (channel + 1) : "PT";
    }

    /**
     * Every channel links different warps: lanes that got their tokens wait at the loop's end for the others, whose
     * producers are in other warps and so can still fire. Tokens are restored (shared channels) or freed (private
     * ones) after publishing.
     */
    private void emitWaitInTurn(String phaseStart) {
        asm.section("wait: every channel links different warps, so each lane waits for its tokens in turn");
        asm.emit("!P6", "BRA end");
        for (int c = 0; c < cx.channels(); c++) {
            IrChannel channel = cx.channel(c).channel();
            String wait = asm.label("wait");
            asm.comment("channel " + channel.via() + " " + DependenceMath.format(channel.vector()));
            cx.napStart();
            asm.place(wait);
            sync.waitInTurn(cx, c, wait);
        }
        asm.section("fire: compute, publish my token");
        Map<Integer, String> fired = emitFire();
        String phaseEnd = asm.register();
        asm.emit("S2R " + phaseEnd + ", SR_CLOCKLO");
        for (int c = 0; c < cx.channels(); c++) {
            if (cx.privateChannels()) {
                sync.finalizePrivate(cx, c);
            } else {
                sync.restore(cx, c);
            }
        }
        emitWriteBack("PT", fired, phaseStart, phaseEnd);
    }

    // --------------------------------------------------------------------------------------------- warp tokens

    private void emitWarpWaitFire(String phaseStart) {
        asm.section("wait: one token per producer warp");
        asm.emit("!P4", "BRA waited");
        for (int c = 0; c < cx.channels(); c++) {
            int warpDistance = cx.channel(c).warpDistance();
            asm.comment("channel " + cx.channel(c).channel().via() + ": the warp " + warpDistance + " before mine");
            cx.napStart();
            sync.waitForWarp(cx, c, warpDistance);
        }
        asm.place("waited");
        asm.emit("!P6", "BRA fired");
        asm.section("fire");
        Map<Integer, String> fired = emitFire();
        asm.place("fired");
        asm.section("publish: the warp's token, once its lanes have reconverged");
        sync.publishWarp(cx);
        String phaseEnd = asm.register();
        asm.emit("S2R " + phaseEnd + ", SR_CLOCKLO");
        emitWriteBack("P6", fired, phaseStart, phaseEnd);
    }

    // ---------------------------------------------------------------------------------------------------- fire

    /** Loads read the value a token brought (tiny-lock's LDSLK), else the shared tile. */
    private SimtExpressions.Operands operands() {
        return new PointOperands(point, params, produced, load -> {
            for (Map.Entry<Integer, String> token : cx.tokenValues.entrySet()) {
                IrChannel channel = cx.channel(token.getKey()).channel();
                if (graph.actor(channel.producer()).writes() == load.field()
                        && Arrays.equals(negate(channel.vector()), load.offset())) {
                    return token.getValue();
                }
            }
            Type type = graph.field(load.field()).type();
            String value = asm.register(type);
            // a packed state word's value is its low word, which a narrow load of the 8-byte word's address takes
            asm.emit("LDS" + SimtAssembler.width(type) + " " + value + ", " + cx.ownDataAddress(load.field(),
                    (long) cx.elementBytes(load.field()) * mapping.tile().wordOffset(load.offset()))
                    + (cx.packed && graph.field(load.field()).isState() ? "   // the value, beside its ready bit" : ""));
            return value;
        });
    }

    /** Computes and publishes the point's values; returns them by field, for the write-back after the loop. */
    private Map<Integer, String> emitFire() {
        expressions.lowerActors(graph, produced, (actor, value) -> sync.publish(cx, actor, value));
        return produced;
    }

    /** Global stores come after the sync phase: no consumer in the block waits for them, so the spin loop stays short. */
    private void emitWriteBack(String guard, Map<Integer, String> fired, String phaseStart, String phaseEnd) {
        asm.section("write back my point and my sync phase's clocks");
        for (Map.Entry<Integer, String> field : fired.entrySet()) {
            asm.emit(guard, "STG" + SimtAssembler.width(graph.field(field.getKey()).type()) + " "
                    + global.at(field.getKey(), layout.fieldByte(field.getKey())) + ", " + field.getValue());
        }
        String slot = asm.register();
        String block = asm.register();
        asm.emit("S2R " + block + ", SR_CTAID.X");
        asm.emit("IMAD " + slot + ", " + block + ", " + SimtAssembler.immediate(mapping.tile().words()) + ", " + cx.tid);
        asm.emit("SHL " + slot + ", " + slot + ", 0x3");
        asm.emit(guard, "STG " + SimtAssembler.address(slot, layout.totalBytes()) + ", " + phaseStart);
        asm.emit(guard, "STG " + SimtAssembler.address(slot, layout.totalBytes() + 4) + ", " + phaseEnd);
    }

    private static int[] negate(int[] vector) {
        return Arrays.stream(vector).map(x -> -x).toArray();
    }
}
