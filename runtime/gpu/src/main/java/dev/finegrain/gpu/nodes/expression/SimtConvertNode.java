package dev.finegrain.gpu.nodes.expression;

import com.oracle.truffle.api.nodes.NodeInfo;
import dev.finegrain.gpu.isa.SimtInstruction;
import dev.finegrain.gpu.nodes.SimtInstructionNode;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * {@code I2F}, {@code F2I}, {@code F2F} with the destination and source types as modifiers ({@code I2F.F64.S32}).
 * Integer to floating point rounds to nearest; floating point to integer truncates toward zero, saturates at the
 * destination's range and maps NaN to 0 (PTX's {@code cvt.rzi}, which is also Java's cast).
 */
@NodeInfo(shortName = "CVT")
public final class SimtConvertNode extends SimtInstructionNode {
    /** The value types of the conversions. */
    public enum Type { S32, S64, F32, F64 }

    private final Type to;
    private final Type from;
    private final int destination;
    private final int latency;
    @Child private SimtWideOperandNode source;

    public SimtConvertNode(SimtInstruction instruction, Type to, Type from, int destination,
                           SimtWideOperandNode source, int latency) {
        super(instruction);
        this.to = to;
        this.from = from;
        this.destination = destination;
        this.source = source;
        this.latency = latency;
    }

    @Override
    protected int execute(SimtWarp warp, int active) {
        for (int lanes = active; lanes != 0; lanes &= lanes - 1) {
            int lane = Integer.numberOfTrailingZeros(lanes);
            long bits = source.read(warp, lane);
            long result = switch (from) {
                case S32 -> convert((int) bits);
                case S64 -> convert(bits);
                case F32 -> convert((double) Float.intBitsToFloat((int) bits));
                case F64 -> convert(Double.longBitsToDouble(bits));
            };
            if (to == Type.S64 || to == Type.F64) {
                warp.writePair(lane, destination, result);
            } else {
                warp.writeRegister(lane, destination, (int) result);
            }
        }
        fallThrough(warp);
        return completed(warp, latency);
    }

    private long convert(long integer) {
        return switch (to) {
            case S32 -> (int) integer;
            case S64 -> integer;
            case F32 -> Float.floatToRawIntBits((float) integer);
            case F64 -> Double.doubleToRawLongBits((double) integer);
        };
    }

    /** From a floating-point value (an F32 source widened exactly); Java's casts truncate and saturate. */
    private long convert(double value) {
        return switch (to) {
            case S32 -> (int) value;
            case S64 -> (long) value;
            case F32 -> Float.floatToRawIntBits((float) value);
            case F64 -> Double.doubleToRawLongBits(value);
        };
    }
}
