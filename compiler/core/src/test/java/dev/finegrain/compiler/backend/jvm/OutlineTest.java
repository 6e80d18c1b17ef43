package dev.finegrain.compiler.backend.jvm;

import dev.finegrain.compiler.backend.jvm.code.JExpr;
import dev.finegrain.compiler.backend.jvm.code.JStmt;
import dev.finegrain.compiler.backend.jvm.code.JType;
import dev.finegrain.compiler.backend.jvm.layout.VectorWidth;
import dev.finegrain.compiler.backend.jvm.lowering.LoweringContext;
import dev.finegrain.compiler.pass.GoldenKernels;
import dev.finegrain.compiler.pass.Pipeline;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** What {@link LoweringContext#outline} makes of a region: a helper with the locals it needs, or the region itself. */
class OutlineTest {

    private static LoweringContext context() {
        return new LoweringContext(Pipeline.compile(GoldenKernels.needlemanWunsch()), null, VectorWidth.none("a test"));
    }

    /** Sums {@code inputs} into a fresh local and stores the sum into {@code array[0]}. */
    private static List<JStmt> sumInto(LoweringContext cx, JExpr.Local array, List<JExpr.Local> inputs) {
        JExpr.Local sum = cx.local("sum", JType.LONG);
        List<JStmt> region = new ArrayList<>(List.of(new JStmt.Assign(sum, JExpr.Const.ofLong(0))));
        for (JExpr.Local input : inputs) {
            region.add(new JStmt.Assign(sum, new JExpr.Binary(JExpr.Binary.Op.ADD, sum, input)));
        }
        region.add(new JStmt.Store(array, JExpr.Const.ofInt(0), sum));
        return region;
    }

    @Test
    void aHelperTakesWhatItReadsFirstAndOwnsWhatItWritesFirst() {
        LoweringContext cx = context();
        JExpr.Local array = cx.local("out", JType.reference("[J"));
        List<JExpr.Local> inputs = List.of(cx.local("a", JType.LONG), cx.local("b", JType.LONG));
        List<JStmt> call = cx.outline("sum", "why", sumInto(cx, array, inputs));
        JStmt.CallHelper helper = assertInstanceOf(JStmt.CallHelper.class, call.getFirst());
        assertEquals(List.of("out", "a", "b"), helper.helper().parameters().stream().map(JExpr.Local::name).toList());
        assertEquals(List.of("sum"), helper.helper().locals().stream().map(JExpr.Local::name).toList());
        assertEquals("([JJJ)V", helper.helper().descriptor());
        assertEquals("sum2", assertInstanceOf(JStmt.CallHelper.class, cx.outline("sum", "why", sumInto(cx, array, inputs)).getFirst())
                .helper().name());
    }

    @Test
    void aRegionWhoseParametersPassTheJvmsSlotsStaysWhereItIs() {
        LoweringContext cx = context();
        JExpr.Local array = cx.local("out", JType.reference("[J"));
        List<JExpr.Local> inputs = new ArrayList<>();
        for (int i = 0; i < 127; i++) {
            inputs.add(cx.local("v", JType.LONG));
        }
        List<JStmt> region = sumInto(cx, array, inputs);
        // this, the array and 127 longs of two slots each: 256 slots
        assertEquals(region, cx.outline("sum", "why", region));
        assertEquals(List.of(), cx.helpers);
        inputs.removeLast();
        List<JStmt> fits = sumInto(cx, array, inputs);
        assertInstanceOf(JStmt.CallHelper.class, cx.outline("sum", "why", fits).getFirst());
    }
}
