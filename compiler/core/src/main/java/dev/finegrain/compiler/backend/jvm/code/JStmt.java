package dev.finegrain.compiler.backend.jvm.code;

import java.util.List;

/** A statement of the loop IR. */
public sealed interface JStmt {

    record Assign(JExpr.Local local, JExpr value) implements JStmt {}

    record Store(JExpr array, JExpr index, JExpr value) implements JStmt {}

    /** {@code for (variable = from; variable < to; variable += step) body}, on ints; {@code to} is read every iteration. */
    record Loop(JExpr.Local variable, JExpr from, JExpr to, JExpr step, List<JStmt> body) implements JStmt {
        public Loop {
            body = List.copyOf(body);
        }
    }

    record If(JExpr condition, List<JStmt> then, List<JStmt> otherwise) implements JStmt {
        public If {
            then = List.copyOf(then);
            otherwise = List.copyOf(otherwise);
        }
    }

    /** {@code vector.intoArray(array, index)}: the lanes stored to the elements from {@code index} on. */
    record VectorStore(JExpr vector, JExpr array, JExpr index) implements JStmt {}

    /** {@code vector.intoArray(array, index, mask)}: the lanes where the mask is set stored, the others left alone. */
    record MaskedVectorStore(JExpr vector, JExpr array, JExpr index, JExpr mask) implements JStmt {}

    /** Evaluates a call for its effect; a value it returns is dropped. */
    record Evaluate(JExpr call) implements JStmt {}

    /** Calls a helper of the class, passing the caller's values of the helper's parameters (the same locals). */
    record CallHelper(JClass.Helper helper) implements JStmt {}

    /** A comment carried into the Java source (and dropped from bytecode): why the next statements exist. */
    record Comment(String text) implements JStmt {}
}
