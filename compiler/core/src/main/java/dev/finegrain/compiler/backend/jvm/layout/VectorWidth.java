package dev.finegrain.compiler.backend.jvm.layout;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JType;

/**
 * How many bits one vector of a generated class holds, fixed when the class is generated: lanes of strips are
 * unrolled in the code (one local per lane and step), so their number is a compile-time constant. By default it is
 * the preferred vector shape of the JVM that generates the class ({@code VectorShape.preferredShape()}: 512 bits with
 * AVX-512, 256 with AVX2), or none when that JVM runs without the Vector API module
 * ({@code --add-modules jdk.incubator.vector}); a class generated ahead of time therefore wants a machine like the
 * one that built it.
 *
 * @param bits   0 for no lanes, else 64, 128, 256 or 512
 * @param origin why the width is what it is, as {@code show --java} prints it
 */
public record VectorWidth(int bits, String origin) {

    public static final String MODULE = "jdk.incubator.vector";

    public VectorWidth {
        if (bits != 0 && bits != 64 && bits != 128 && bits != 256 && bits != 512) {
            throw new IllegalArgumentException("no vector width of " + bits + " bits");
        }
    }

    /** No lanes: every kernel keeps its scalar loops. */
    public static VectorWidth none(String why) {
        return new VectorWidth(0, why);
    }

    /** A width chosen by the caller (tests use narrow ones, so that small domains hold whole strips). */
    public static VectorWidth of(int bits) {
        return new VectorWidth(bits, "a width of " + bits + " bits chosen by the caller");
    }

    /** The preferred shape of this JVM's Vector API, or none when the module is not loaded. */
    public static VectorWidth preferred() {
        if (ModuleLayer.boot().findModule(MODULE).isEmpty()) {
            return none("this JVM runs without --add-modules " + MODULE);
        }
        try {
            Object shape = Class.forName(MODULE + ".VectorShape").getMethod("preferredShape").invoke(null);
            int bits = (int) shape.getClass().getMethod("vectorBitSize").invoke(shape);
            return new VectorWidth(bits, "the preferred vector shape of the JVM that generated this class");
        } catch (ReflectiveOperationException unexpected) {
            throw new IllegalStateException("cannot ask the Vector API for its preferred shape", unexpected);
        }
    }

    /** Lanes of {@code lane} per vector: 16 ints or 8 longs in 512 bits; 0 without lanes. */
    public int lanes(JType lane) {
        return bits / (lane.isWide() ? 64 : 32);
    }

    public JExpr.Species species(JType lane) {
        return new JExpr.Species(lane, bits);
    }
}
