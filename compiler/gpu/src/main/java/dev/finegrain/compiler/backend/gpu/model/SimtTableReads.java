package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.ir.IrExpr;

/**
 * The reads of an expression that are neither a point's fields nor registers ({@link SimtExpressions}): a sequence
 * input's value by its own index, and a lookup table's element, each index checked against its axis (a miss sets the
 * run's error word). Both are data no kernel writes, read as CUDA reads them with {@code __ldg}, through the read-only
 * cache, unless the schedule holds them already (a band's lane sequences, staged tables and query profiles).
 */
final class SimtTableReads {

    /** CUDA's {@code __ldg}: a global load through the read-only cache, for data no kernel writes while it runs. */
    static final String READ_ONLY_LOAD = "LDG.CONSTANT";

    private final SimtAssembler asm;
    private final SimtExpressions expressions;
    private final GlobalLayout layout;

    SimtTableReads(SimtAssembler asm, SimtExpressions expressions, GlobalLayout layout) {
        this.asm = asm;
        this.expressions = expressions;
        this.layout = layout;
    }

    /** Whether a load reads a sequence input (global memory, by its own index). */
    boolean isSequence(IrExpr.Load load) {
        return graph().field(load.field()).isSequence();
    }

    private dev.finegrain.compiler.ir.KernelGraph graph() {
        return layout.graph();
    }

    /**
     * A sequence input's value, read from global memory by its own index (row-major over the dimensions it spans, where
     * the layout keeps it whole): {@code GlobalReads} stages no sequence. A register, or a pair for 64 bits.
     */
    String sequenceLoad(IrExpr.Load load) {
        java.util.Optional<String> held = expressions.operands().heldSequence(load);
        if (held.isPresent()) {
            return held.get();
        }
        dev.finegrain.compiler.ir.IrField field = graph().field(load.field());
        String index = asm.register();
        boolean first = true;
        for (int d = 0; d < layout.rank(); d++) {
            if (!field.spans()[d]) {
                continue;
            }
            if (first) {
                asm.emit("IADD " + index + ", " + expressions.operands().index(d) + ", " + SimtAssembler.immediate(load.offset()[d]));
                first = false;
            } else {
                asm.emit("IMAD " + index + ", " + index + ", " + SimtAssembler.immediate(layout.size(d)) + ", " + expressions.operands().index(d));
                asm.emit("IADD " + index + ", " + index + ", " + SimtAssembler.immediate(load.offset()[d]));
            }
        }
        return loadElement(index, field.type(), layout.fieldByte(field.id()));
    }

    /**
     * A lookup table's element: each index checked against its axis (a miss sets the run's error word, naming the
     * table and axis, and reads element 0 in its place), then read from the schedule's query profile or its copy of
     * the table in shared memory where it has one, else from global memory.
     */
    String lookup(IrExpr.Lookup lookup) {
        dev.finegrain.dsl.TableSpec table = graph().kernel().tables().get(lookup.table());
        java.util.Optional<String> profile = expressions.operands().profiled(lookup, axis -> checkedIndex(lookup, axis));
        if (profile.isPresent()) {
            String at = profile.get();
            String value = asm.register(table.type());
            asm.emit("LDS" + SimtAssembler.width(table.type()) + " " + value + ", " + SimtAssembler.address(at, 0) + "   // "
                    + table.name() + " from my query profile");
            return value;
        }
        String flat = null;
        for (int axis = 0; axis < lookup.indices().size(); axis++) {
            String checked = checkedIndex(lookup, axis);
            if (flat == null) {
                flat = checked;
            } else {
                String next = asm.register();
                asm.emit("IMAD " + next + ", " + flat + ", " + SimtAssembler.immediate(table.extents().get(axis)) + ", " + checked);
                flat = next;
            }
        }
        java.util.Optional<Integer> staged = expressions.operands().stagedTableByte(lookup.table());
        if (staged.isPresent()) {
            String address = asm.register();
            asm.emit("SHL " + address + ", " + flat + ", " + SimtAssembler.immediate(SimtAssembler.isWide(table.type()) ? 3 : 2));
            String value = asm.register(table.type());
            asm.emit("LDS" + SimtAssembler.width(table.type()) + " " + value + ", " + SimtAssembler.address(address, staged.get())
                    + "   // " + table.name() + " from the block's copy");
            return value;
        }
        return loadElement(flat, table.type(), layout.tableByte(lookup.table()));
    }

    /** A lookup's index on {@code axis}, lowered and checked against the axis ({@link #checkIndex}). */
    String checkedIndex(IrExpr.Lookup lookup, int axis) {
        return checkIndex(lookup.table(), axis, expressions.lower(lookup.indices().get(axis)));
    }

    /**
     * {@code index} (a register) checked against axis {@code axis} of table {@code table}: a miss sets the run's error
     * word, naming the table and axis, and gives 0. Returns the checked register.
     */
    private String checkIndex(int table, int axis, String index) {
        return checkIndex(asm, layout, table, axis, index);
    }

    /** {@link #checkIndex(int, int, String)} for a lowering without expressions of its own (a query profile's fill). */
    static String checkIndex(SimtAssembler asm, GlobalLayout layout, int table, int axis, String index) {
        int extent = layout.graph().kernel().tables().get(table).extents().get(axis);
        asm.emit("ISETP.GE.U32.AND P0, PT, " + index + ", " + SimtAssembler.immediate(extent) + ", PT");
        String code = asm.constant(GlobalLayout.lookupError(table, axis));
        asm.emit("P0", "STG [" + SimtAssembler.immediate(layout.errorByte()) + "], " + code + "   // a lookup index outside its table: the run fails");
        String checked = asm.register();
        asm.emit("SEL " + checked + ", RZ, " + index + ", P0");
        return checked;
    }

    /**
     * Element {@code index} (a register) of an array of {@code type} at byte {@code base} of global memory: a sequence
     * or a table, which no kernel writes, read through the read-only cache as CUDA's {@code __ldg} reads it.
     */
    private String loadElement(String index, dev.finegrain.dsl.Type type, int base) {
        String address = asm.register();
        asm.emit("SHL " + address + ", " + index + ", " + SimtAssembler.immediate(SimtAssembler.isWide(type) ? 3 : 2));
        String value = asm.register(type);
        asm.emit(READ_ONLY_LOAD + SimtAssembler.width(type) + " " + value + ", " + SimtAssembler.address(address, base));
        return value;
    }
}
