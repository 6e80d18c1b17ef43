package dev.finegrain.dsl;

import dev.finegrain.dsl.internal.Diagnostics;
import dev.finegrain.dsl.internal.SequenceDiagnostics;

import java.util.List;

/**
 * The rules of sequence inputs, lookup tables, keeps and reductions that need the whole kernel; {@link KernelValidator}
 * runs them after it has checked that names are unique. A lookup's own rules (its table, arity and index types) are
 * the type checker's.
 */
final class SequenceAndKeepRules {

    private SequenceAndKeepRules() {}

    static void check(Kernel kernel) {
        checkSequencesAndTables(kernel);
        checkKeepsAndReductions(kernel);
    }

    /** A sequence spans distinct domain dimensions named in domain order; a table's name is not a field's. */
    private static void checkSequencesAndTables(Kernel kernel) {
        List<String> indices = kernel.domain().stream().map(Dimension::index).toList();
        for (FieldSpec field : kernel.fields()) {
            if (field.isSequence()) {
                List<Integer> positions = field.along().stream().map(indices::indexOf).toList();
                boolean ordered = java.util.stream.IntStream.range(1, positions.size()).allMatch(k -> positions.get(k - 1) < positions.get(k));
                if (positions.contains(-1) || !ordered) {
                    throw SequenceDiagnostics.alongNotInDomain(kernel.name(), field.name(), field.along(), indices, field.site());
                }
                if (positions.size() == indices.size()) {
                    throw SequenceDiagnostics.alongEveryDimension(kernel.name(), field.name(), field.along(), field.site());
                }
            }
            if (field.boundary() instanceof Boundary.FromInput(String input) && kernel.field(input).filter(FieldSpec::isSequence).isPresent()) {
                throw SequenceDiagnostics.boundaryFromSequence(kernel.name(), field.name(), input, field.site());
            }
        }
        for (TableSpec table : kernel.tables()) {
            if (kernel.field(table.name()).isPresent()) {
                throw SequenceDiagnostics.nameTakenByField(kernel.name(), table.name(), table.site());
            }
        }
    }

    /** A keep or a reduction names a state field, once each; reductions are of INT or LONG fields, positions of extremes. */
    private static void checkKeepsAndReductions(Kernel kernel) {
        List<String> states = kernel.fields().stream().filter(FieldSpec::isState).map(FieldSpec::name).toList();
        java.util.Map<String, CallSite> keeps = new java.util.HashMap<>();
        for (KeepSpec keep : kernel.keeps()) {
            CallSite first = keeps.putIfAbsent(keep.field(), keep.site());
            if (first != null) {
                throw SequenceDiagnostics.declaredTwice(kernel.name(), "keep of '" + keep.field() + "'", first,
                        "keep one of them", keep.site());
            }
        }
        java.util.Map<String, CallSite> reductions = new java.util.HashMap<>();
        for (ReductionSpec reduction : kernel.reductions()) {
            CallSite first = reductions.putIfAbsent(reduction.name(), reduction.site());
            if (first != null) {
                throw SequenceDiagnostics.declaredTwice(kernel.name(), reduction.name(), first,
                        "keep one of them (reduceWithPosition gives the value too)", reduction.site());
            }
        }
        for (KeepSpec keep : kernel.keeps()) {
            requireState(kernel, states, "keep of '" + keep.field() + "'", keep.field(), keep.site());
        }
        for (ReductionSpec reduction : kernel.reductions()) {
            requireState(kernel, states, reduction.name(), reduction.field(), reduction.site());
            Type type = kernel.field(reduction.field()).orElseThrow().type();
            if (type != Type.INT && type != Type.LONG) {
                throw SequenceDiagnostics.reductionType(kernel.name(), reduction, type);
            }
            if (reduction.withPosition() && !reduction.reduction().hasPosition()) {
                throw SequenceDiagnostics.sumHasNoPosition(kernel.name(), reduction);
            }
        }
    }

    /** That {@code name} is a state field: a declared input or table gets a line saying keeps and reductions take state fields. */
    private static void requireState(Kernel kernel, List<String> states, String what, String name, CallSite site) {
        if (states.contains(name)) {
            return;
        }
        if (kernel.field(name).isPresent()) {
            throw SequenceDiagnostics.notAState(kernel.name(), what, name, "input", site);
        }
        if (kernel.table(name).isPresent()) {
            throw SequenceDiagnostics.notAState(kernel.name(), what, name, "table", site);
        }
        throw Diagnostics.unknownName(Diagnostics.inKernel(kernel.name()) + ", " + what, "state field", name, states, site);
    }
}
