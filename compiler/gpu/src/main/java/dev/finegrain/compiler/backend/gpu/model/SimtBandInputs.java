package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.LaneProfile;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.dsl.TableSpec;

import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The persistent bands' inputs that are not rows of the domain, spelled in the model ISA as {@code CudaBands} spells
 * them: the lookup tables copied into each block's shared memory before any band runs (where the mapping stages them),
 * each sequence along the columns read once a band into a register (my column's value), and each query profile filled
 * once a band, my lane's entries only (so no barrier), from the staged copy or global memory. In a step, the
 * expressions read them through {@link #operands}.
 */
final class SimtBandInputs {

    private final SimtBandContext cx;
    private final SimtAssembler asm;
    private final BandMapping mapping;
    private final KernelGraph graph;

    SimtBandInputs(SimtBandContext cx) {
        this.cx = cx;
        this.asm = cx.asm;
        this.mapping = cx.mapping;
        this.graph = mapping.graph();
    }

    /** The shared bytes the block's copies of the tables take, where the mapping stages them. */
    int stagedTableBytes() {
        return mapping.stagesTables() ? BandMapping.stagedTableBytes(graph) : 0;
    }

    /**
     * Before any band: every thread of the block copies every {@code blockDim}-th element of each table into the block's
     * shared memory from byte {@code sharedByte} on, then the block meets, as CUDA's {@code __syncthreads()}.
     */
    void stageTables(String tid, int sharedByte) {
        if (!mapping.stagesTables()) {
            return;
        }
        asm.section("the lookup tables, copied into the block's shared memory once");
        int mark = asm.mark();
        int at = sharedByte;
        for (int t = 0; t < graph.kernel().tables().size(); t++) {
            TableSpec table = graph.kernel().tables().get(t);
            int bytes = GpuTarget.elementBytes(table.type());
            cx.stagedTableBytes.put(t, at);
            String w = asm.register();
            String address = asm.register();
            String value = asm.register(table.type());
            String loop = asm.label("stage_table");
            String done = asm.label("staged");
            asm.emit("MOV " + w + ", " + tid);
            asm.place(loop);
            asm.emit("ISETP.GE.AND P0, PT, " + w + ", " + SimtAssembler.immediate(table.length()) + ", PT");
            asm.emit("P0", "BRA " + done);
            asm.emit("SHL " + address + ", " + w + ", " + SimtAssembler.immediate(Integer.numberOfTrailingZeros(bytes)));
            asm.emit("LDG" + SimtAssembler.width(table.type()) + " " + value + ", " + SimtAssembler.address(address, cx.layout.tableByte(t)));
            asm.emit("STS" + SimtAssembler.width(table.type()) + " " + SimtAssembler.address(address, at) + ", " + value + "   // "
                    + table.name() + ", element w");
            asm.emit("IADD " + w + ", " + w + ", " + SimtAssembler.immediate(mapping.threadsPerBlock()));
            asm.emit("BRA " + loop);
            asm.place(done);
            at += table.length() * bytes;
        }
        asm.emit("BAR.RED.POPC RZ, RZ   // every table is in shared memory before any band reads it");
        asm.release(mark);
    }

    /**
     * In the prologue: the registers of my lane sequences, and each profile's entry of my lane at index 0, per column of
     * mine ([other index][column][lane]: a column is 32 entries on; a wide profile, [other index][column / 4][lane][column
     * % 4], which the model reads a word at a time where CUDA loads four columns in one 16-byte load).
     */
    void declare(String warpRings) {
        for (IrField field : mapping.laneSequences()) {
            String[] values = new String[cx.lanes];
            for (int c = 0; c < cx.lanes; c++) {
                values[c] = asm.register(field.type());
            }
            cx.laneSequences.put(field, values);
        }
        for (LaneProfile profile : mapping.profiles()) {
            int bytes = GpuTarget.elementBytes(graph.kernel().tables().get(profile.table()).type());
            String[] entries = new String[cx.lanes];
            String at = asm.register();
            asm.emit("IMAD " + at + ", " + cx.lane + ", " + SimtAssembler.immediate((long) profile.columnsALoad() * bytes) + ", " + warpRings);
            asm.emit("IADD " + at + ", " + at + ", " + SimtAssembler.immediate(profile.offsetBytes()) + "   // my lane's entry of the"
                    + " query profile of " + graph.kernel().tables().get(profile.table()).name() + ", other index 0");
            entries[0] = at;
            for (int c = 1; c < cx.lanes; c++) {
                entries[c] = asm.register();
                asm.emit("IADD " + entries[c] + ", " + at + ", " + SimtAssembler.immediate(profile.columnByte(c, bytes)) + "   // column " + c);
            }
            cx.profileLanes.put(profile, entries);
        }
    }

    /**
     * At a band's start, my column known: my lane sequences' values (0 right of the domain), then each query profile's
     * entries for my column, the lane's sequence value checked once here, instead of in every step.
     */
    void bandStart() {
        for (var entry : cx.laneSequences.entrySet()) {
            IrField field = entry.getKey();
            for (int c = 0; c < cx.lanes; c++) {
                String value = entry.getValue()[c];
                String address = asm.register();
                String inDomain = "P1";   // my column is in the domain: set by the band's start where I own one column
                if (cx.lanes > 1) {
                    inDomain = "P0";
                    asm.emit("ISETP.LT.AND P0, PT, " + cx.columns[c] + ", " + SimtAssembler.immediate(mapping.columns()) + ", PT");
                }
                asm.emit("MOV" + SimtAssembler.width(field.type()) + " " + value + ", RZ");
                asm.emit("SHL " + address + ", " + cx.columns[c] + ", " + SimtAssembler.immediate(SimtAssembler.isWide(field.type()) ? 3 : 2));
                asm.emit(inDomain, SimtTableReads.READ_ONLY_LOAD + SimtAssembler.width(field.type()) + " " + value + ", "
                        + SimtAssembler.address(address, cx.layout.fieldByte(field.id())) + "   // sequence '" + field.name() + "' at my column"
                        + (cx.lanes == 1 ? "" : " " + c) + ", for every step");
            }
        }
        for (LaneProfile profile : mapping.profiles()) {
            for (int c = 0; c < cx.lanes; c++) {
                fillProfile(profile, c);
            }
        }
    }

    /**
     * My lane's entries of one query profile in one of my columns, every other index, from the staged table or global
     * memory, at the column's entry {@link #declare} set (a row of the profile is all my columns' entries further on).
     */
    private void fillProfile(LaneProfile profile, int c) {
        TableSpec table = graph.kernel().tables().get(profile.table());
        int bytes = GpuTarget.elementBytes(table.type());
        int mark = asm.mark();
        asm.comment("my column" + (cx.lanes == 1 ? "" : " " + c) + " of table '" + table.name() + "' at sequence '" + profile.sequence().name() + "', for every step");
        String t = SimtTableReads.checkIndex(asm, cx.layout, profile.table(), profile.laneAxis(), cx.laneSequences.get(profile.sequence())[c]);
        String x = asm.register();
        String flat = asm.register();
        String value = asm.register(table.type());
        String entry = asm.register();
        String loop = asm.label("profile_row");
        String done = asm.label("profile_filled");
        int second = table.extents().get(1);
        asm.emit("MOV " + x + ", RZ");
        asm.place(loop);
        asm.emit("ISETP.GE.AND P0, PT, " + x + ", " + SimtAssembler.immediate(profile.otherExtent()) + ", PT");
        asm.emit("P0", "BRA " + done);
        if (profile.laneAxis() == 1) {
            asm.emit("IMAD " + flat + ", " + x + ", " + SimtAssembler.immediate(second) + ", " + t);
        } else {
            asm.emit("IMAD " + flat + ", " + t + ", " + SimtAssembler.immediate(second) + ", " + x);
        }
        asm.emit("SHL " + flat + ", " + flat + ", " + SimtAssembler.immediate(Integer.numberOfTrailingZeros(bytes)));
        Integer staged = cx.stagedTableBytes.get(profile.table());
        asm.emit((staged != null ? "LDS" : SimtTableReads.READ_ONLY_LOAD) + SimtAssembler.width(table.type()) + " " + value + ", "
                + SimtAssembler.address(flat, staged != null ? staged : cx.layout.tableByte(profile.table())));
        asm.emit("IMAD " + entry + ", " + x + ", " + SimtAssembler.immediate((long) cx.lanes * GpuTarget.WARP * bytes) + ", "
                + cx.profileLanes.get(profile)[c]);
        asm.emit("STS" + SimtAssembler.width(table.type()) + " " + SimtAssembler.address(entry, 0) + ", " + value);
        asm.emit("IADD " + x + ", " + x + ", 0x1");
        asm.emit("BRA " + loop);
        asm.place(done);
        asm.release(mark);
    }

    /** The axis of a profiled lookup that the step indexes. */
    int otherAxis(IrExpr.Lookup lookup) {
        return LaneProfile.of(mapping.profiles(), graph, mapping.laneSequences(), lookup).orElseThrow().otherAxis();
    }

    /**
     * The step's operands for my column {@code c}: {@code point}'s, with the lane sequences, the sequences along the rows a
     * steady step holds already ({@code rowAhead}, by field), the staged tables and the query profiles. A profiled
     * lookup's other index that the step checked once for all my columns is in {@code checkedRows} ({@link BandMapping#rowLookups}:
     * the lookups every cell evaluates), as CUDA's step checks it once; any other is checked where it is evaluated.
     */
    SimtExpressions.Operands operands(int c, Map<IrField, String> rowAhead, Map<IrExpr.Lookup, String> checkedRows, PointOperands point) {
        return new SimtExpressions.Operands() {
            @Override
            public String index(int dimension) {
                return point.index(dimension);
            }

            @Override
            public String param(int param) {
                return point.param(param);
            }

            @Override
            public String load(IrExpr.Load load) {
                return point.load(load);
            }

            @Override
            public Optional<String> heldSequence(IrExpr.Load load) {
                IrField field = graph.field(load.field());
                if (rowAhead.containsKey(field)) {
                    return Optional.of(rowAhead.get(field));   // a sequence has no halo: read at the point's own row
                }
                return load.offset()[1] == 0 && cx.laneSequences.containsKey(field) ? Optional.of(cx.laneSequences.get(field)[c])
                        : Optional.empty();
            }

            @Override
            public boolean holdsCheckedIndex(IrExpr.Lookup lookup) {
                return checkedRows.containsKey(lookup);
            }

            @Override
            public Optional<Integer> stagedTableByte(int table) {
                return Optional.ofNullable(cx.stagedTableBytes.get(table));
            }

            @Override
            public Optional<String> profiled(IrExpr.Lookup lookup, IntFunction<String> checkedHere) {
                return LaneProfile.of(mapping.profiles(), graph, mapping.laneSequences(), lookup).map(profile -> {
                    int bytes = GpuTarget.elementBytes(graph.kernel().tables().get(profile.table()).type());
                    // an index the step checked once for all my columns (an unconditional lookup's), else checked here
                    String index = checkedRows.containsKey(lookup) ? checkedRows.get(lookup) : checkedHere.apply(profile.otherAxis());
                    String at = asm.register();
                    asm.emit("IMAD " + at + ", " + index + ", " + SimtAssembler.immediate((long) cx.lanes * GpuTarget.WARP * bytes) + ", "
                            + cx.profileLanes.get(profile)[c]);
                    return at;
                });
            }
        };
    }
}
