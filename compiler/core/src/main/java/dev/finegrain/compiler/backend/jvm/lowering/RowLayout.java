package dev.finegrain.compiler.backend.jvm.lowering;

import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.layout.AlignedStorage;
import dev.finegrain.compiler.backend.jvm.layout.HyperplaneStorage;
import dev.finegrain.compiler.ir.IrField;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.mul;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.sub;

/**
 * How a class's fields lie in storage, chosen once per class before any row base or delta is lowered: dense rows (the
 * reference's layout), rows aligned for strips ({@link #alignRows}), blocks of columns, the workers' bands
 * ({@link #alignRowsInBands}) or a tile's width ({@link #alignRowsInColumnBlocks}), or no rows at all but hyperplanes
 * ({@link #alongHyperplanes}). A layout of rows binds each field's pitch, front and block stride from the frame, as
 * {@link AlignedStorage} laid the storage out, and gives {@link LoweringContext#rowBases} the index each field's row
 * bases count from.
 */
public final class RowLayout {

    private final LoweringContext cx;
    private Optional<JClass.RowAlignment> rows = Optional.empty();
    private JExpr.Local[] front;
    private JExpr.Local blockAlignment;
    /** With blocks of columns: per field, the storage index its row bases count from (the current block less its first column). */
    private JExpr.Local[] blockOrigin;
    private JExpr.Local[] blockStride;

    RowLayout(LoweringContext cx) {
        this.cx = cx;
    }

    /**
     * Lays every field's rows out for strips of {@code lanes} lanes, lane r {@code skew * r} columns behind lane 0: the
     * row pitch and the elements before the field's first one (its front) come from the frame, as {@link
     * AlignedStorage} chose them when it allocated the storage. Where it knows that an array starts on a cache line it
     * makes the pitch skew modulo lanes and puts the field's first point on a line, so the k row loads of a block
     * starting at the right column ({@code LaneStrips}) are whole vectors of one line each; elsewhere the rows stay
     * dense. Before any row base or delta is lowered.
     */
    public void alignRows(int skew, int lanes) {
        bindRows(new JClass.RowAlignment(skew, lanes));
        blockAlignment = cx.bind("blockAlignment", JType.INT, JClass.Source.SIZES, AlignedStorage.blockAlignmentIndex(cx.rank, front.length));
    }

    /**
     * Lays every field's rows out in band blocks ({@link AlignedStorage}) for row scans of {@code lanes} lanes: bands
     * whole multiples of {@code group} columns, each band's first column on a line where the storage is aligned; each
     * field's pitch, front and block stride come from the frame, and {@link #blockOrigins} must run before the first
     * row base. Before any row base or delta is lowered.
     */
    public void alignRowsInBands(int lanes, int group) {
        bindBlocks(new JClass.RowAlignment(0, lanes, group, 0));
    }

    /**
     * Lays every field's rows out in blocks of {@code columns} columns ({@link AlignedStorage}), each block's rows dense:
     * a tile that wide then reads and writes one contiguous run of storage. Each field's pitch, front and block stride
     * come from the frame, and {@link #blockOrigins} must run before the first row base. Before any row base or delta is
     * lowered.
     */
    public void alignRowsInColumnBlocks(int lanes, int columns) {
        bindBlocks(new JClass.RowAlignment(0, lanes, 0, columns));
    }

    /**
     * Lays every field out along the hyperplanes (skew, 1) ({@link HyperplaneStorage}) for vectors of {@code lanes}
     * lanes: no rows, so nothing binds from the frame, and nothing may lower a row base or delta; the lowering finds
     * each hyperplane through the runtime's {@code HyperplaneLayout}. Before any row base or delta is lowered.
     */
    public void alongHyperplanes(int skew, int lanes) {
        checkUnset();
        rows = Optional.of(JClass.RowAlignment.alongHyperplanes(skew, lanes));
    }

    private void checkUnset() {
        if (cx.last == 0 || rows.isPresent() || cx.lowersDeltas()) {
            throw new IllegalStateException("rows are aligned once, for a kernel of rank 2 or more, before any delta is lowered");
        }
    }

    private void bindBlocks(JClass.RowAlignment alignment) {
        bindRows(alignment);
        blockOrigin = new JExpr.Local[cx.graph.fields().size()];
        blockStride = new JExpr.Local[cx.graph.fields().size()];
        for (IrField field : cx.graph.fields()) {
            int f = field.id();
            blockStride[f] = cx.bind(field.name() + "BlockStride", JType.INT, JClass.Source.SIZES,
                    AlignedStorage.blockStrideIndex(cx.rank, cx.graph.fields().size(), f));
            blockOrigin[f] = cx.local(field.name() + "BlockOrigin", JType.INT);
        }
    }

    private void bindRows(JClass.RowAlignment alignment) {
        checkUnset();
        rows = Optional.of(alignment);
        front = new JExpr.Local[cx.graph.fields().size()];
        for (IrField field : cx.graph.fields()) {
            int f = field.id();
            JExpr pitch = bindLayout(field.name() + "Pitch", AlignedStorage.pitchIndex(cx.rank, f));
            cx.prologue.set(cx.pitchStatement[f], new JStmt.Assign(cx.stride[f][cx.last - 1], pitch));
            front[f] = cx.bind(field.name() + "Front", JType.INT, JClass.Source.SIZES, AlignedStorage.frontIndex(cx.rank, f));
        }
    }

    /** With blocks of columns: where block {@code band} (its first column {@code bandStart}) has its rows, per field. */
    public List<JStmt> blockOrigins(JExpr band, JExpr bandStart) {
        List<JStmt> origins = new ArrayList<>();
        for (IrField field : cx.graph.fields()) {
            int f = field.id();
            origins.add(new JStmt.Assign(blockOrigin[f], sub(add(front[f], mul(band, blockStride[f])), bandStart)));
        }
        return origins;
    }

    /** With blocks of columns: where the current block of field {@code field} has its rows ({@link #blockOrigins}). */
    public JExpr.Local blockOrigin(int field) {
        return blockOrigin[field];
    }

    /** With blocks of columns: the elements from one block of field {@code field} to the next. */
    public JExpr.Local blockStride(int field) {
        return blockStride[field];
    }

    /**
     * After {@link #alignRows}: the number of columns a strip's first block is aligned to, from the frame (lanes or 1);
     * null where the rows are not aligned for strips (dense, or in blocks of columns).
     */
    public JExpr.Local blockAlignment() {
        return blockAlignment;
    }

    /**
     * A final int field bound from the frame's sizes at {@code index}, read where the statement it replaces stood
     * ({@link LoweringContext#bind} would read it into a local at the end of the prologue, after the strides that need it).
     */
    private JExpr bindLayout(String name, int index) {
        String unique = cx.uniqueName(name);
        cx.bindings.add(new JClass.FieldBinding(unique, JType.INT, JClass.Source.SIZES, index));
        return new JExpr.Field(unique, JType.INT);
    }

    /** The row layout {@link #alignRows} chose, if it was called. */
    public Optional<JClass.RowAlignment> rows() {
        return rows;
    }

    /** The storage index field {@code field}'s row bases count from: the current block's origin, the front, or none (null). */
    JExpr origin(int field) {
        if (rows.isPresent() && rows.get().hyperplanes()) {
            throw new IllegalStateException("storage along hyperplanes has no rows to count row bases from");
        }
        return blockOrigin != null ? blockOrigin[field] : rows.isPresent() ? front[field] : null;
    }
}
