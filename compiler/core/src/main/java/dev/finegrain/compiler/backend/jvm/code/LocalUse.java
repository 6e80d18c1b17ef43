package dev.finegrain.compiler.backend.jvm.code;

import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which locals a list of statements uses: all it mentions, and those it reads before it has certainly written them
 * (the values it needs from the code before it), by Java's rules of definite assignment: a loop's body may run zero
 * times, and only what both branches of an if write is written after it.
 */
public final class LocalUse {

    private LocalUse() {}

    /** Every local the statements read or write, loop variables included. */
    public static Set<JExpr.Local> mentioned(List<JStmt> statements) {
        Set<JExpr.Local> out = new LinkedHashSet<>();
        for (JStmt statement : statements) {
            collect(statement, out);
        }
        return out;
    }

    /** The locals the statements may read before they write them. */
    public static Set<JExpr.Local> readBeforeWritten(List<JStmt> statements) {
        Set<JExpr.Local> exposed = new LinkedHashSet<>();
        block(statements, new HashSet<>(), exposed);
        return exposed;
    }

    /** Walks {@code statements} with {@code written} the locals certainly written so far; returns it updated. */
    private static Set<JExpr.Local> block(List<JStmt> statements, Set<JExpr.Local> written, Set<JExpr.Local> exposed) {
        for (JStmt statement : statements) {
            switch (statement) {
                case JStmt.Assign assign -> {
                    reads(assign.value(), written, exposed);
                    written.add(assign.local());
                }
                case JStmt.Loop loop -> {
                    reads(loop.from(), written, exposed);
                    written.add(loop.variable());
                    reads(loop.to(), written, exposed);
                    Set<JExpr.Local> inBody = block(loop.body(), new HashSet<>(written), exposed);
                    reads(loop.step(), inBody, exposed);
                }
                case JStmt.If branch -> {
                    reads(branch.condition(), written, exposed);
                    Set<JExpr.Local> then = block(branch.then(), new HashSet<>(written), exposed);
                    Set<JExpr.Local> otherwise = block(branch.otherwise(), new HashSet<>(written), exposed);
                    then.retainAll(otherwise);
                    written.addAll(then);
                }
                case JStmt.CallHelper call -> call.helper().parameters().stream().filter(l -> !written.contains(l)).forEach(exposed::add);
                case JStmt.Store store -> reads(store, written, exposed);
                case JStmt.VectorStore store -> reads(store, written, exposed);
                case JStmt.MaskedVectorStore store -> reads(store, written, exposed);
                case JStmt.Evaluate evaluate -> reads(evaluate, written, exposed);
                case JStmt.Comment comment -> { }
            }
        }
        return written;
    }

    /** Adds the locals {@code node} reads that are not yet written to {@code exposed}. */
    private static void reads(Object node, Set<JExpr.Local> written, Set<JExpr.Local> exposed) {
        Set<JExpr.Local> read = new LinkedHashSet<>();
        collect(node, read);
        read.stream().filter(l -> !written.contains(l)).forEach(exposed::add);
    }

    /**
     * Collects the locals in a statement or expression. Every JStmt and JExpr is a record of its operands (null for an
     * absent one), so a walk of record components finds them all, and stays right when a new kind of node is added.
     */
    private static void collect(Object node, Set<JExpr.Local> out) {
        switch (node) {
            case null -> { }
            case JExpr.Local local -> out.add(local);
            case JStmt.CallHelper call -> out.addAll(call.helper().parameters());
            case Collection<?> items -> items.forEach(item -> collect(item, out));
            case Record record -> {
                for (RecordComponent component : record.getClass().getRecordComponents()) {
                    try {
                        collect(component.getAccessor().invoke(record), out);
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException("cannot read " + component + " of " + record, e);
                    }
                }
            }
            default -> { }
        }
    }
}
