package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.KeptBox;
import dev.finegrain.compiler.backend.gpu.BandFolding;
import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.RaggedBand;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.dsl.ReductionSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Storage folding on the persistent bands ({@link BandFolding}), spelled in the model ISA as {@code CudaBands} and
 * {@code CudaBandStep} spell it: a folded field gets no output ring and no rows written after a chunk; a lane stores a
 * value only where the kept box holds its point, and feeds it to its running reductions; at a band's end the warp
 * combines its lanes and lane 0 writes the band's partial; a second launch of one warp combines the partials.
 *
 * <p>Where the model's memory differs from CUDA's, the instructions do not: the model keeps a folded field's array
 * over the padded domain (its halo is the frame CUDA uploads, its kept points are where a lane stores them, and a
 * token-word edge is written where an unfolded edge would be, one store each as CUDA's edge array takes), so a folded
 * run costs the same loads and stores on either.
 */
final class SimtBandFolding {

    private final SimtBandContext cx;
    private final SimtAssembler asm;
    private final BandMapping mapping;
    private final BandFolding folding;
    private final List<SimtReductions> reductions = new ArrayList<>();
    /** Per field kept in registers, my register of each column. */
    private final java.util.Map<IrField, String[]> keptRegisters = new java.util.HashMap<>();

    SimtBandFolding(SimtBandContext cx) {
        this.cx = cx;
        this.asm = cx.asm;
        this.mapping = cx.mapping;
        this.folding = mapping.folding();
    }

    /** In the prologue: the lanes' running reductions. */
    void declare() {
        for (ReductionSpec reduction : folding.reductions()) {
            reductions.add(new SimtReductions(asm, reduction, mapping.graph().field(reduction.field()).type(), mapping.laneColumns()));
        }
    }

    /** At a band's start: every running reduction back to its start. */
    void bandStart() {
        reductions.forEach(SimtReductions::reset);
    }

    /** In the prologue: my registers of each kept box held in registers ({@link BandKeptValues#inRegisters}), one a column. */
    void declareKeptRegisters() {
        for (IrField field : folding.fields()) {
            if (mapping.kept().inRegisters(field)) {
                String[] registers = new String[mapping.laneColumns()];
                for (int c = 0; c < registers.length; c++) {
                    registers[c] = asm.register(field.type());
                }
                keptRegisters.put(field, registers);
            }
        }
    }

    /**
     * At a band's end, before its reductions: each kept value held in a register into the field (the model keeps a
     * folded field's padded array, its kept points where a lane stores them), where its column lies in the box.
     */
    void storeKeptRegisters() {
        for (IrField field : folding.fields()) {
            if (!mapping.kept().inRegisters(field)) {
                continue;
            }
            KeptBox kept = mapping.kept().box(field);
            int mark = asm.mark();
            String row = asm.register();
            String offset = asm.register();
            asm.emit("MOV32I " + row + ", " + SimtAssembler.immediate(kept.first()[0]) + "   // the kept row");
            cx.layout.emitPaddedIndex(asm, offset, new String[] {row, cx.columns[0]});
            int elementBytes = dev.finegrain.compiler.backend.gpu.machine.GpuTarget.elementBytes(field.type());
            asm.emit("SHL " + offset + ", " + offset + ", " + SimtAssembler.immediate(Integer.numberOfTrailingZeros(elementBytes))
                    + "   // my first column's point in the kept row");
            for (int c = 0; c < mapping.laneColumns(); c++) {
                // every band is full: a column lies in the box where it is not left of it
                String in = "PT";
                if (kept.first()[1] > 0) {
                    asm.emit("ISETP.GE.AND P0, PT, " + cx.columns[c] + ", " + SimtAssembler.immediate(kept.first()[1]) + ", PT");
                    in = "P0";
                }
                String store = "STG" + SimtAssembler.width(field.type()) + " " + SimtAssembler.address(offset, cx.layout.fieldByte(field.id())
                        + (long) c * elementBytes) + ", " + keptRegisters.get(field)[c] + "   // kept ("
                        + mapping.graph().kernel().keep(field.name()).cliName() + ")";
                asm.emitWhere(in, store);
            }
            asm.release(mark);
        }
    }

    boolean folds(IrField field) {
        return folding.folds(field);
    }

    /**
     * ANDs into P0 what a steady chunk needs of the folded fields: it lies above every kept box that starts below row 0,
     * or its band left of the box ({@link BandKeptValues#bandsLeftOf}).
     */
    void steadyTests(String base, String band) {
        for (IrField field : folding.fields()) {
            if (mapping.kept().rowsCheckChunks(field)) {
                String above = SimtAssembler.immediate(mapping.kept().box(field).first()[0] - 31L);
                int left = mapping.kept().bandsLeftOf(field);
                if (left == 0) {
                    asm.emit("ISETP.LT.AND P0, PT, " + base + ", " + above + ", P0   // above " + field.name() + "'s kept rows");
                } else {
                    asm.emit("ISETP.LT.AND P1, PT, " + base + ", " + above + ", PT   // above " + field.name() + "'s kept rows");
                    asm.emit("ISETP.LT.OR P1, PT, " + band + ", " + SimtAssembler.immediate(left) + ", P1   // or left of its columns");
                    asm.emit("PSETP.AND.AND P0, PT, P0, P1, PT");
                }
            }
        }
    }

    /**
     * My computed value of a folded field at (i, j) (registers), at byte address {@code point} of the field: stored where
     * the kept box holds the point (a steady step stores only a box that spans every row), or taken into my register of
     * it ({@link BandKeptValues#inRegisters}), and taken into the lane's running reductions of the field. {@code steady}:
     * every lane computes every column untested (a steady or a guarded step); {@code inside}: a guarded step's predicate
     * "my row is in the domain", which holds every store and reduction candidate, else null.
     */
    void store(IrField field, int c, String i, String j, String value, String point, boolean steady, String inside) {
        RaggedBand ragged = mapping.raggedBand();
        if (mapping.kept().inRegisters(field) && inside != null) {
            asm.emit("ISETP.EQ.AND P0, PT, " + i + ", " + SimtAssembler.immediate(mapping.kept().box(field).first()[0]) + ", PT   // the kept row");
            asm.emit("SEL" + SimtAssembler.width(field.type()) + " " + keptRegisters.get(field)[c] + ", " + value + ", "
                    + keptRegisters.get(field)[c] + ", P0   // kept (" + mapping.graph().kernel().keep(field.name()).cliName()
                    + "), stored at the band's end");
        } else if (mapping.kept().storedByStep(field, steady, inside != null)) {
            KeptBox kept = mapping.kept().box(field);
            String in = inside == null ? "PT" : inside;
            if (kept.first()[0] > 0 || kept.first()[1] > 0) {
                asm.emit("ISETP.GE.AND P0, PT, " + i + ", " + SimtAssembler.immediate(kept.first()[0]) + ", " + in);
                asm.emit("ISETP.GE.AND P0, PT, " + j + ", " + SimtAssembler.immediate(kept.first()[1]) + ", P0");
                in = "P0";
            }
            // CUDA's kept values of one row take a column right of the domain in slack after them; the model's kept points
            // lie in the field's padded array, where such a column is another point, so the model tests every column
            if (ragged.masksColumns(steady, mapping.laneColumns())) {
                asm.emit("ISETP.LT.AND P0, PT, " + j + ", " + SimtAssembler.immediate(mapping.columns()) + ", " + in
                        + "   // my column may lie right of the domain");
                in = "P0";
            }
            String store = "STG" + SimtAssembler.width(field.type()) + " " + point + ", " + value + "   // kept ("
                    + mapping.graph().kernel().keep(field.name()).cliName() + ")";
            asm.emitWhere(in, store);
        }
        for (int r = 0; r < reductions.size(); r++) {
            if (folding.reductions().get(r).field().equals(field.name())) {
                SimtReductions reduction = reductions.get(r);
                // in the last band, a lane that straddles the domain's right edge holds this column outside it
                boolean masked = ragged.masksColumns(steady, mapping.laneColumns()) && ragged.testsReductionColumn(c);
                int mark = asm.mark();
                String taken = masked ? reduction.orIdentity(value, j, mapping.columns()) : value;
                if (reduction.onceAStep()) {
                    reduction.take(c, taken);   // a guarded step masks the step's extreme: SimtReductions.stepEnd
                } else {
                    reduction.update(inside == null ? taken : reduction.orIdentityUnless(inside, taken), i, j, mapping.columns());
                }
                if (masked || (inside != null && !reduction.onceAStep())) {
                    asm.release(mark);
                }
            }
        }
    }

    /** Before a step's columns, in a step that is not steady: the reductions taken once a step have none yet. */
    void stepStart(boolean steady) {
        if (!steady) {
            reductions.stream().filter(SimtReductions::onceAStep).forEach(SimtReductions::stepStart);
        }
    }

    /**
     * After a step's columns: the reductions taken once a step take the step at row {@code i}; {@code seen} as
     * {@link SimtReductions#stepEnd}.
     */
    void stepEnd(String i, String seen, String inside) {
        reductions.stream().filter(SimtReductions::onceAStep).forEach(reduction -> reduction.stepEnd(i, seen, inside));
    }

    /** Whether some reduction is taken once a step. */
    boolean takesSteps() {
        return reductions.stream().anyMatch(SimtReductions::onceAStep);
    }

    /** At a band's end: the warp combines its lanes' reductions, and lane 0 writes the band's partial. */
    void bandEnd() {
        if (reductions.isEmpty()) {
            return;
        }
        asm.section("a band's end: its reductions, from its lanes', written by lane 0");
        if (mapping.raggedBand().dropsLanesOutside()) {
            asm.emit("ISETP.GE.AND P0, PT, " + cx.columns[0] + ", " + SimtAssembler.immediate(mapping.columns())
                    + ", PT   // my columns lie right of the domain: I add nothing");
            reductions.forEach(reduction -> reduction.reset("P0"));
        }
        for (SimtReductions reduction : reductions) {
            if (reduction.onceAStep()) {
                reduction.resolvePoint(cx.columns, mapping.columns());
            }
        }
        for (int r = 0; r < reductions.size(); r++) {
            reductions.get(r).combineWarp(cx.lane);
        }
        String skip = asm.label("partials_written");
        asm.emit("ISETP.NE.AND P0, PT, " + cx.lane + ", RZ, PT");
        asm.emit("P0", "BRA " + skip);
        for (int r = 0; r < reductions.size(); r++) {
            int mark = asm.mark();
            String address = asm.register();
            asm.emit("IMAD " + address + ", " + cx.band + ", " + SimtAssembler.immediate(BandFolding.REDUCED_BYTES) + ", "
                    + asm.constant(scratch(BandFolding.partialsKey(folding.reductions().get(r)))));
            reductions.get(r).store(address);
            asm.release(mark);
        }
        asm.place(skip);
    }

    /**
     * The second launch, whose every warp but the first leaves at once (the model runs one block size for all of a
     * variant's launches; CUDA launches one warp): each reduction combined over the bands' partials, each lane every
     * 32nd, then the warp's lanes; lane 0 writes the result.
     */
    void combineLaunch(String tid) {
        asm.section("launch 2: the bands' partial reductions, combined by one warp");
        asm.emit("ISETP.GE.AND P0, PT, " + tid + ", 0x20, PT");
        asm.emit("P0", "EXIT");
        for (int r = 0; r < reductions.size(); r++) {
            SimtReductions reduction = reductions.get(r);
            ReductionSpec spec = folding.reductions().get(r);
            int mark = asm.mark();
            reduction.reset();
            String b = asm.register();
            String address = asm.register();
            String loop = asm.label("partial");
            String done = asm.label("partials_done");
            asm.emit("MOV " + b + ", " + tid);
            asm.place(loop);
            asm.emit("ISETP.GE.AND P0, PT, " + b + ", " + SimtAssembler.immediate(mapping.bands()) + ", PT");
            asm.emit("P0", "BRA " + done);
            asm.emit("IMAD " + address + ", " + b + ", " + SimtAssembler.immediate(BandFolding.REDUCED_BYTES) + ", "
                    + asm.constant(scratch(BandFolding.partialsKey(spec))));
            reduction.combineStored(address);
            asm.emit("IADD " + b + ", " + b + ", 0x20");
            asm.emit("BRA " + loop);
            asm.place(done);
            reduction.combineWarp(tid);
            String skip = asm.label("result_written");
            asm.emit("ISETP.NE.AND P0, PT, " + tid + ", RZ, PT");
            asm.emit("P0", "BRA " + skip);
            asm.emit("MOV32I " + address + ", " + SimtAssembler.immediate(scratch(BandFolding.resultKey(spec))));
            reduction.store(address);
            asm.place(skip);
            asm.release(mark);
        }
        asm.emit("EXIT");
    }

    /** The byte of global memory where part {@code key} of the folding lies: in the run's scratch memory. */
    private long scratch(String key) {
        return cx.layout.scratchByte() + folding.offset(key);
    }

    /** Where the result of {@code reduction} lies in global memory, for the backend to read after the last launch. */
    static long resultByte(GlobalLayout layout, BandFolding folding, ReductionSpec reduction) {
        return layout.scratchByte() + folding.offset(BandFolding.resultKey(reduction));
    }
}
