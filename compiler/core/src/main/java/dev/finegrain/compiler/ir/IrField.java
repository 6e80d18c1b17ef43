package dev.finegrain.compiler.ir;

import dev.finegrain.dsl.FieldSpec;
import dev.finegrain.dsl.Type;

import java.util.Arrays;

/**
 * A field and its storage: the domain padded by {@code haloLow[d]} cells before and {@code haloHigh[d]} after
 * along each dimension d. Inputs use their declared halo on both sides; state fields get what their reads need.
 * A state field's halo values come from {@code boundary} (an expression) or from input {@code boundaryInput}.
 */
public record IrField(int id, String name, Type type, FieldSpec.Role role, IrExpr boundary, int boundaryInput,
                      int[] haloLow, int[] haloHigh) {

    public static final int NO_INPUT = -1;

    public boolean isInput() {
        return role == FieldSpec.Role.INPUT;
    }

    public boolean isState() {
        return role == FieldSpec.Role.STATE;
    }

    public IrField withHalo(int[] low, int[] high) {
        return new IrField(id, name, type, role, boundary, boundaryInput, low.clone(), high.clone());
    }

    public boolean hasHalo() {
        return Arrays.stream(haloLow).anyMatch(h -> h > 0) || Arrays.stream(haloHigh).anyMatch(h -> h > 0);
    }
}
