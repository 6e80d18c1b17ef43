package dev.finegrain.compiler.ir;

import dev.finegrain.dsl.FieldSpec;
import dev.finegrain.dsl.Type;

import java.util.Arrays;

/**
 * A field and its storage: the domain padded by {@code haloLow[d]} cells before and {@code haloHigh[d]} after
 * along each dimension d. Inputs use their declared halo on both sides; state fields get what their reads need.
 * A state field's halo values come from {@code boundary} (an expression) or from input {@code boundaryInput}.
 *
 * <p>{@code spans[d]} says whether the field spans dimension d: every field does, but a sequence input (declared
 * {@code along} some dimensions), whose storage has extent 1 and no halo along the others. Its loads still carry one
 * offset per domain dimension, 0 along those it does not span, so analyses need not tell the two apart; only address
 * computation does ({@link #paddedExtent}).
 */
public record IrField(int id, String name, Type type, FieldSpec.Role role, IrExpr boundary, int boundaryInput,
                      int[] haloLow, int[] haloHigh, boolean[] spans) {

    public static final int NO_INPUT = -1;

    public boolean isInput() {
        return role == FieldSpec.Role.INPUT;
    }

    public boolean isState() {
        return role == FieldSpec.Role.STATE;
    }

    public IrField withHalo(int[] low, int[] high) {
        return new IrField(id, name, type, role, boundary, boundaryInput, low.clone(), high.clone(), spans);
    }

    /** Whether the field leaves out some dimension of the domain: a sequence input. */
    public boolean isSequence() {
        for (boolean spanned : spans) {
            if (!spanned) {
                return true;
            }
        }
        return false;
    }

    /** The extent of the field's storage along dimension d for a domain of {@code size} there: 1 where it does not span d. */
    public int paddedExtent(int d, int size) {
        return spans[d] ? size + haloLow[d] + haloHigh[d] : 1;
    }

    public boolean hasHalo() {
        return Arrays.stream(haloLow).anyMatch(h -> h > 0) || Arrays.stream(haloHigh).anyMatch(h -> h > 0);
    }
}
