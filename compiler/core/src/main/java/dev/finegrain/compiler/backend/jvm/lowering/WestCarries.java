package dev.finegrain.compiler.backend.jvm.lowering;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.Loads;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.add;
import static dev.finegrain.compiler.backend.jvm.lowering.LoweringContext.valueType;

/**
 * Keeps every state field that an actor reads one column west of the point in a local carried along the point
 * loop: each point stores its value there too, so the next point reads a register instead of loading what the
 * previous iteration has just stored (a load that waits on that store).
 *
 * <p>A schedule that wants this calls {@link #carryWestReads}, runs the point loop in column order, calls
 * {@link #seed} before each such loop and {@link #advance} after each point, and says with {@link #readFromLocals}
 * in which loop bodies the reads may use the locals.
 */
public final class WestCarries {

    private final LoweringContext cx;
    private final Map<Integer, Carry> carries = new LinkedHashMap<>();
    private boolean fromLocals;

    /** A state field's value one column west of the point ({@code west}) and the one this point stores ({@code current}). */
    private record Carry(JExpr.Local west, JExpr.Local current) {}

    WestCarries(LoweringContext cx) {
        this.cx = cx;
    }

    /** Carries every state field that some actor reads one column west of the point. */
    public void carryWestReads() {
        for (IrField field : cx.graph.fields()) {
            if (field.isState() && cx.graph.actors().stream().anyMatch(actor -> reads(actor.body(), field.id(), west()))) {
                JType type = valueType(field.type());
                carries.put(field.id(), new Carry(cx.local(field.name() + "West", type), cx.local(field.name() + "Here", type)));
            }
        }
    }

    /** Whether expressions lowered from now on read carried fields' west values from their locals. */
    public void readFromLocals(boolean fromLocals) {
        this.fromLocals = fromLocals;
    }

    public boolean readingFromLocals() {
        return fromLocals;
    }

    /** Whether {@code load} reads a carried field's west value, which is then in {@link #westValue}. */
    boolean replaces(IrExpr.Load load) {
        return fromLocals && carries.containsKey(load.field()) && Arrays.equals(load.offset(), west());
    }

    /** The local holding carried field {@code field}'s value one column west of the point. */
    JExpr.Local westValue(int field) {
        return carries.get(field).west();
    }

    /** The value to store for field {@code field}: where the field is carried, {@code value} is first kept in its local. */
    JExpr keep(int field, JExpr value, List<JStmt> out) {
        Carry carry = carries.get(field);
        if (carry == null) {
            return value;
        }
        out.add(new JStmt.Assign(carry.current(), value));
        return carry.current();
    }

    /** Loads every carried field's value west of column {@code from}, before a point loop that starts there. */
    public List<JStmt> seed(JExpr from) {
        List<JStmt> seeds = new ArrayList<>();
        carries.forEach((field, carry) -> seeds.add(new JStmt.Assign(carry.west(),
                cx.value(field, add(add(cx.rowBase[field], from), cx.delta(field, west()))))));
        return seeds;
    }

    /** After a point: the value it stored is the next point's west value. */
    public List<JStmt> advance() {
        return carries.values().stream().<JStmt>map(carry -> new JStmt.Assign(carry.west(), carry.current())).toList();
    }

    /** The offset one column west along the last dimension: (0, ..., 0, -1). */
    private int[] west() {
        int[] west = new int[cx.rank];
        west[cx.last] = -1;
        return west;
    }

    private static boolean reads(IrExpr expr, int field, int[] offset) {
        return Loads.anyMatch(expr, load -> load.field() == field && Arrays.equals(load.offset(), offset));
    }
}
