package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.jvm.code.AsmEmitter;
import dev.finegrain.compiler.backend.jvm.code.JClass;
import dev.finegrain.compiler.backend.jvm.code.JExpr.Binary.Op;
import dev.finegrain.compiler.backend.jvm.code.JExpr.LaneOp;
import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.code.JavaSourceEmitter;
import dev.finegrain.compiler.backend.jvm.generated.GeneratedKernels;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.runtime.jvm.TeamTask;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.CheckClassAdapter;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The loop IR's vector nodes, spelled by both emitters: a class using each of them passes the bytecode checker, its
 * bytecode and its compiled Java source compute the same lanes, and those are what plain Java computes lane by lane.
 */
class VectorLoopIrTest {

    private static final JType INT_VECTOR = JType.vectorOf(JType.INT);
    private static final JExpr.Species INTS = new JExpr.Species(JType.INT, 128);
    private static final JExpr.Species DOUBLES = new JExpr.Species(JType.DOUBLE, 256);
    private static final JExpr.Species LONGS = new JExpr.Species(JType.LONG, 128);

    private static final int[] INTS_IN = {5, -7, 12, 0, 3, 9, -4, 8};
    private static final double[] DOUBLES_IN = {0.5, -2.25, 3.0, -0.0, 7.5, -1.0, 2.0, 0.25};
    private static final long[] LONGS_IN = {Long.MAX_VALUE, -3, 4, 9};

    /** The class: ints, doubles and longs in arrays 0..2, their results in arrays 3..5. */
    private static JClass probe(String name) {
        List<JExpr.Local> locals = new ArrayList<>();
        List<JClass.FieldBinding> fields = new ArrayList<>();
        List<JStmt> run = new ArrayList<>();
        JType[] arrays = {JType.INT_ARRAY, JType.DOUBLE_ARRAY, JType.LONG_ARRAY, JType.INT_ARRAY, JType.DOUBLE_ARRAY, JType.LONG_ARRAY,
                JType.INT_ARRAY};
        JExpr.Local[] array = new JExpr.Local[arrays.length];
        int slot = 3;
        for (int a = 0; a < arrays.length; a++) {
            array[a] = new JExpr.Local(slot++, "array" + a, arrays[a]);
            locals.add(array[a]);
            fields.add(new JClass.FieldBinding(array[a].name(), arrays[a], JClass.Source.ARRAYS, a));
            run.add(new JStmt.Assign(array[a], new JExpr.Field(array[a].name(), arrays[a])));
        }
        JExpr.Local a = new JExpr.Local(slot++, "a", INT_VECTOR);
        JExpr.Local b = new JExpr.Local(slot++, "b", INT_VECTOR);
        locals.addAll(List.of(a, b));
        run.add(new JStmt.Assign(a, new JExpr.VectorLoad(INTS, array[0], JExpr.Const.ofInt(0))));
        run.add(new JStmt.Assign(b, new JExpr.VectorLoad(INTS, array[0], JExpr.Const.ofInt(4))));
        JExpr mixed = new JExpr.Lanewise(LaneOp.XOR, new JExpr.Lanewise(LaneOp.MAX, new JExpr.Lanewise(LaneOp.ADD, a, b),
                new JExpr.Broadcast(INTS, JExpr.Const.ofInt(3))), b);
        JExpr mask = new JExpr.Lanewise(LaneOp.NOT, new JExpr.Lanewise(LaneOp.AND, new JExpr.LaneCompare(Op.LT, a, b),
                new JExpr.LaneCompare(Op.GT, b, new JExpr.Broadcast(INTS, JExpr.Const.ofInt(0)))), null);
        JExpr blended = new JExpr.Blend(mask, new JExpr.Lanewise(LaneOp.NEG, a, null), mixed);
        JExpr indexes = new JExpr.VectorLoad(INTS, new JExpr.NewArray(JType.INT, List.of(JExpr.Const.ofInt(7), JExpr.Const.ofInt(0),
                JExpr.Const.ofInt(5), JExpr.Const.ofInt(2))), JExpr.Const.ofInt(0));
        run.add(new JStmt.VectorStore(new JExpr.Permute(indexes, blended, new JExpr.Lanewise(LaneOp.NOT, a, null)), array[3],
                JExpr.Const.ofInt(0)));
        JExpr.Local fresh = new JExpr.Local(slot++, "fresh", JType.INT_ARRAY);
        locals.add(fresh);
        run.add(new JStmt.Assign(fresh, new JExpr.NewArrayOfLength(JType.INT, JExpr.Const.ofInt(4))));
        run.add(new JStmt.MaskedVectorStore(a, fresh, JExpr.Const.ofInt(0), new JExpr.LaneCompare(Op.GT, a, new JExpr.Broadcast(INTS, JExpr.Const.ofInt(0)))));
        run.add(new JStmt.VectorStore(new JExpr.VectorLoad(INTS, fresh, JExpr.Const.ofInt(0)), array[6], JExpr.Const.ofInt(0)));
        // a masked load that starts 2 elements before the array, with those lanes unset
        run.add(new JStmt.VectorStore(new JExpr.MaskedVectorLoad(INTS, array[0], JExpr.Const.ofInt(-2), new JExpr.LaneCompare(Op.GE,
                new JExpr.VectorLoad(INTS, new JExpr.NewArray(JType.INT, List.of(JExpr.Const.ofInt(0), JExpr.Const.ofInt(1), JExpr.Const.ofInt(2),
                        JExpr.Const.ofInt(3))), JExpr.Const.ofInt(0)), new JExpr.Broadcast(INTS, JExpr.Const.ofInt(2)))), array[6], JExpr.Const.ofInt(4)));
        run.add(new JStmt.Store(array[6], JExpr.Const.ofInt(8), new JExpr.LaneValue(b, 2)));
        for (int half = 0; half < 2; half++) {
            JExpr x = new JExpr.VectorLoad(DOUBLES, array[1], JExpr.Const.ofInt(4 * half));
            JExpr y = new JExpr.Lanewise(LaneOp.MIN, new JExpr.Lanewise(LaneOp.MUL, x, new JExpr.Broadcast(DOUBLES, JExpr.Const.ofDouble(0.5))),
                    new JExpr.Lanewise(LaneOp.SUB, new JExpr.Lanewise(LaneOp.ABS, x, null), new JExpr.Broadcast(DOUBLES, JExpr.Const.ofDouble(1.0))));
            run.add(new JStmt.VectorStore(new JExpr.Blend(new JExpr.LaneCompare(Op.GE, x, new JExpr.Broadcast(DOUBLES, JExpr.Const.ofDouble(0.0))),
                    new JExpr.Lanewise(LaneOp.MAX, x, y), y), array[4], JExpr.Const.ofInt(4 * half)));
            JExpr l = new JExpr.VectorLoad(LONGS, array[2], JExpr.Const.ofInt(2 * half));
            run.add(new JStmt.VectorStore(new JExpr.Lanewise(LaneOp.OR, new JExpr.Lanewise(LaneOp.ADD, l, l),
                    new JExpr.Broadcast(LONGS, JExpr.Const.ofLong(1))), array[5], JExpr.Const.ofInt(2 * half)));
        }
        return new JClass("dev.finegrain.compiler.backend.jvm.generated." + name, List.of(LoweringContext.RUNTIME + "TeamTask"),
                "Every vector node of the loop IR.\n", fields, locals, run, List.of(), java.util.Optional.empty());
    }

    private static Object[] runs(Class<?> type) throws Throwable {
        Object[] arrays = {INTS_IN.clone(), DOUBLES_IN.clone(), LONGS_IN.clone(), new int[4], new double[8], new long[4], new int[9]};
        TeamTask task = (TeamTask) CompiledJvmKernel.constructorOf(type).invoke(arrays, new long[0], new double[0], new int[0],
                new Object[0], null);
        task.run(0, 1);
        return arrays;
    }

    @Test
    void bytecodeSourceAndPlainJavaAgree() throws Throwable {
        JClass generated = probe("VectorProbe");
        StringWriter problems = new StringWriter();
        byte[] bytecode = AsmEmitter.emit(generated);
        CheckClassAdapter.verify(new ClassReader(bytecode), getClass().getClassLoader(), false, new PrintWriter(problems));
        assertEquals("", problems.toString());
        Object[] fromBytecode = runs(GeneratedKernels.define(bytecode));
        Object[] fromSource = runs(SourceCompiler.compile(generated.name(), JavaSourceEmitter.emit(generated).toString()));

        int[] lanes = new int[8];
        int[] not = new int[4];
        for (int l = 0; l < 4; l++) {
            int a = INTS_IN[l];
            int b = INTS_IN[4 + l];
            lanes[l] = !(a < b && b > 0) ? -a : Math.max(a + b, 3) ^ b;
            not[l] = ~a;
            lanes[4 + l] = not[l];
        }
        int[] permuted = {lanes[7], lanes[0], lanes[5], lanes[2]};
        double[] doubles = new double[8];
        for (int l = 0; l < 8; l++) {
            double x = DOUBLES_IN[l];
            double y = Math.min(x * 0.5, Math.abs(x) - 1.0);
            doubles[l] = x >= 0.0 ? Math.max(x, y) : y;
        }
        long[] longs = new long[4];
        for (int l = 0; l < 4; l++) {
            longs[l] = (LONGS_IN[l] + LONGS_IN[l]) | 1L;
        }
        int[] masked = new int[9];
        for (int l = 0; l < 4; l++) {
            masked[l] = INTS_IN[l] > 0 ? INTS_IN[l] : 0;
            masked[4 + l] = l >= 2 ? INTS_IN[l - 2] : 0;
        }
        masked[8] = INTS_IN[6];
        for (Object[] result : List.of(fromBytecode, fromSource)) {
            assertArrayEquals(masked, (int[]) result[6]);
            assertArrayEquals(permuted, (int[]) result[3]);
            assertArrayEquals(doubles, (double[]) result[4]);
            assertArrayEquals(longs, (long[]) result[5]);
        }
    }

    @Test
    void vectorTypesSpellTheirJavaNamesAndDescriptors() {
        assertEquals("jdk.incubator.vector.DoubleVector", JType.vectorOf(JType.DOUBLE).javaName());
        assertEquals("Ljdk/incubator/vector/IntVector;", INT_VECTOR.descriptor());
        assertEquals("jdk.incubator.vector.VectorMask<java.lang.Long>", JType.maskOf(JType.LONG).javaName());
        assertEquals(4, INTS.lanes());
        assertEquals(2, LONGS.lanes());
        assertEquals("SPECIES_256", DOUBLES.constant());
    }
}
