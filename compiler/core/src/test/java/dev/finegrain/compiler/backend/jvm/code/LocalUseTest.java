package dev.finegrain.compiler.backend.jvm.code;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What an outlined helper takes as parameters: the locals its statements may read before writing them. */
class LocalUseTest {

    private static final JExpr.Local A = new JExpr.Local(3, "a", JType.INT);
    private static final JExpr.Local B = new JExpr.Local(4, "b", JType.INT);
    private static final JExpr.Local C = new JExpr.Local(5, "c", JType.INT);
    private static final JExpr.Local ARRAY = new JExpr.Local(6, "array", JType.INT_ARRAY);
    private static final JExpr ONE = JExpr.Const.ofInt(1);

    private static JExpr plus(JExpr left, JExpr right) {
        return new JExpr.Binary(JExpr.Binary.Op.ADD, left, right);
    }

    @Test
    void aLocalWrittenBeforeItIsReadIsNotNeeded() {
        List<JStmt> statements = List.of(new JStmt.Assign(A, ONE), new JStmt.Store(ARRAY, A, plus(A, B)));
        assertEquals(Set.of(ARRAY, B), LocalUse.readBeforeWritten(statements));
        assertEquals(Set.of(A, ARRAY, B), LocalUse.mentioned(statements));
    }

    @Test
    void anAssignmentReadsItsValueBeforeItWrites() {
        assertEquals(Set.of(A), LocalUse.readBeforeWritten(List.of(new JStmt.Assign(A, plus(A, ONE)))));
    }

    @Test
    void aLoopBodyMayRunZeroTimes() {
        // for (c = 0; c < b; c++) { a = c; }  array[0] = a;  -- a is read after the loop, which may not have written it
        List<JStmt> statements = List.of(new JStmt.Loop(C, JExpr.Const.ofInt(0), B, ONE, List.of(new JStmt.Assign(A, C))),
                new JStmt.Store(ARRAY, JExpr.Const.ofInt(0), A));
        assertEquals(Set.of(B, ARRAY, A), LocalUse.readBeforeWritten(statements));
    }

    @Test
    void aValueCarriedToTheNextIterationComesFromBeforeTheLoopTheFirstTime() {
        // for (c = 0; c < 4; c++) { array[c] = a; a = c; }
        List<JStmt> statements = List.of(new JStmt.Loop(C, JExpr.Const.ofInt(0), JExpr.Const.ofInt(4), ONE,
                List.of(new JStmt.Store(ARRAY, C, A), new JStmt.Assign(A, C))));
        assertEquals(Set.of(ARRAY, A), LocalUse.readBeforeWritten(statements));
    }

    @Test
    void onlyWhatBothBranchesWriteIsWrittenAfterAnIf() {
        JExpr condition = new JExpr.Binary(JExpr.Binary.Op.LT, C, ONE);
        List<JStmt> bothWrite = List.of(new JStmt.If(condition, List.of(new JStmt.Assign(A, ONE)), List.of(new JStmt.Assign(A, B))),
                new JStmt.Store(ARRAY, ONE, A));
        assertEquals(Set.of(C, B, ARRAY), LocalUse.readBeforeWritten(bothWrite));
        List<JStmt> oneWrites = List.of(new JStmt.If(condition, List.of(new JStmt.Assign(A, ONE)), List.of()),
                new JStmt.Store(ARRAY, ONE, A));
        assertEquals(Set.of(C, ARRAY, A), LocalUse.readBeforeWritten(oneWrites));
    }

    @Test
    void aLoopReadsItsBoundAndStepWithItsVariableWritten() {
        // for (c = a; c < c + b; c += b) { }  -- from reads a; to and step read the loop variable and b
        List<JStmt> statements = List.of(new JStmt.Loop(C, A, plus(C, B), B, List.of()));
        assertEquals(Set.of(A, B), LocalUse.readBeforeWritten(statements));
        // a step that reads what the body certainly wrote needs nothing from before the loop
        List<JStmt> stepFromBody = List.of(new JStmt.Loop(C, JExpr.Const.ofInt(0), JExpr.Const.ofInt(4), A, List.of(new JStmt.Assign(A, ONE))));
        assertEquals(Set.of(), LocalUse.readBeforeWritten(stepFromBody));
    }

    @Test
    void aCallToAHelperReadsItsParameters() {
        JClass.Helper helper = new JClass.Helper("h", "why", List.of(A, ARRAY), List.of(), List.of(new JStmt.Store(ARRAY, ONE, A)));
        assertEquals(Set.of(ARRAY), LocalUse.readBeforeWritten(List.of(new JStmt.Assign(A, ONE), new JStmt.CallHelper(helper))));
        assertEquals(Set.of(A, ARRAY), LocalUse.mentioned(List.of(new JStmt.CallHelper(helper))));
    }

    @Test
    void operandsInsideVectorExpressionsAreFound() {
        JExpr.Species ints = new JExpr.Species(JType.INT, 128);
        JExpr.Local vector = new JExpr.Local(7, "v", JType.vectorOf(JType.INT));
        List<JStmt> statements = List.of(new JStmt.VectorStore(new JExpr.Lanewise(JExpr.LaneOp.ABS,
                new JExpr.VectorLoad(ints, ARRAY, plus(A, B)), null), ARRAY, C), new JStmt.Assign(vector, new JExpr.Broadcast(ints, A)));
        assertEquals(Set.of(ARRAY, A, B, C), LocalUse.readBeforeWritten(statements));
    }
}
