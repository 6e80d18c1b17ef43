package dev.finegrain.dsl.internal;

import dev.finegrain.dsl.CallSite;
import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.dsl.ReductionSpec;
import dev.finegrain.dsl.TableSpec;
import dev.finegrain.dsl.Type;

import java.util.Arrays;
import java.util.List;

import static dev.finegrain.dsl.internal.Diagnostics.error;
import static dev.finegrain.dsl.internal.Diagnostics.inBoundary;
import static dev.finegrain.dsl.internal.Diagnostics.inKernel;

/**
 * The messages for sequence inputs (declared {@code along} some dimensions), lookup tables, keeps and reductions, in the shape of
 * {@link Diagnostics}: {@code <where>: <what is wrong>; <what to do> (at File.java:line)}.
 */
public final class SequenceDiagnostics {

    private SequenceDiagnostics() {}

    public static KernelDefinitionException badTableExtents(String kernel, String table, int[] extents, CallSite site) {
        return error(inKernel(kernel), "table '" + table + "' has extents " + Arrays.toString(extents),
                "give 1 to 3 extents, each 1 or more, 16777216 elements in all at most", site);
    }

    public static KernelDefinitionException boolTable(String kernel, String table, CallSite site) {
        return error(inKernel(kernel), "table '" + table + "' is BOOL", "declare an INT table of 0 and 1, or LONG or DOUBLE", site);
    }

    public static KernelDefinitionException alongNotInDomain(String kernel, String field, List<String> along, List<String> domain,
                                                             CallSite site) {
        return error(inKernel(kernel), "input '" + field + "' is declared along " + along + ", which are not distinct indices of the domain "
                + domain + " named in its order", "name one or more of " + String.join(", ", domain) + ", each once, in that order", site);
    }

    public static KernelDefinitionException sequenceOffsetCount(String where, String read, int given, String field, List<String> along,
                                                                CallSite site) {
        return error(where, "read " + read + " gives " + Diagnostics.count(given, "offset") + " but input '" + field + "' is a sequence along "
                + String.join(", ", along), "give one offset per dimension it spans (" + along.size() + ")", site);
    }

    public static KernelDefinitionException sequenceReadOutside(String where, String read, String field, CallSite site) {
        return error(where, "read " + read + " can leave the domain, and sequence input '" + field + "' has no halo",
                "read it at offset 0, or declare it over the whole domain with a halo", site);
    }

    public static KernelDefinitionException boundaryFromSequence(String kernel, String field, String input, CallSite site) {
        return error(inBoundary(kernel, field), "comes from input '" + input + "', a sequence that does not span the whole domain",
                "take a boundary from an input over the whole domain, or give it as an expression", site);
    }

    public static KernelDefinitionException reductionType(String kernel, ReductionSpec reduction, Type type) {
        return error(inKernel(kernel), reduction.name() + " reduces a " + type + " field",
                "reduce INT or LONG fields, whose sums and extremes every backend and order computes bit for bit", reduction.site());
    }

    public static KernelDefinitionException sumHasNoPosition(String kernel, ReductionSpec reduction) {
        return error(inKernel(kernel), reduction.name() + " asks for a position, and a sum has none",
                "use reduce(\"" + reduction.field() + "\", SUM)", reduction.site());
    }

    public static KernelDefinitionException emptyAlong(String kernel, String field, CallSite site) {
        return error(inKernel(kernel), "input '" + field + "' is declared along no dimension",
                "name the dimensions it spans, e.g. along(\"i\"), or declare an input over the whole domain without along", site);
    }

    public static KernelDefinitionException alongEveryDimension(String kernel, String field, List<String> along, CallSite site) {
        return error(inKernel(kernel), "input '" + field + "' is declared along " + along + ", every dimension of the domain",
                "declare it without along: an input over the whole domain", site);
    }

    /** A keep or a reduction of a name that is declared, but not as a state field. */
    public static KernelDefinitionException notAState(String kernel, String what, String name, String kind, CallSite site) {
        return error(inKernel(kernel), what + " names " + kind + " '" + name + "'", what.startsWith("keep")
                ? "keep applies to state fields, the values actors compute" : "reductions apply to state fields, the values actors compute", site);
    }

    public static KernelDefinitionException readOfTable(String where, String table, CallSite site) {
        return error(where, "reads '" + table + "', a lookup table", "read a table with lookup(\"" + table + "\", indices...)", site);
    }

    public static KernelDefinitionException lookupOfField(String where, String field, CallSite site) {
        return error(where, "looks up '" + field + "', a field, not a table", "read a field with read(\"" + field + "\", offsets...)", site);
    }

    public static KernelDefinitionException declaredTwice(String kernel, String what, CallSite first, String todo, CallSite site) {
        return error(inKernel(kernel), what + " is declared twice (first at " + first + ")", todo, site);
    }

    public static KernelDefinitionException nameTakenByField(String kernel, String table, CallSite site) {
        return error(inKernel(kernel), "table '" + table + "' has the name of a field",
                "give tables and fields different names", site);
    }

    public static KernelDefinitionException lookupArity(String where, TableSpec table, int given, CallSite site) {
        return error(where, "lookup of table '" + table.name() + "' gives " + given + (given == 1 ? " index" : " indices") + " but the table has "
                + table.extents().size() + " axes " + table.extents(), "give one int index per axis", site);
    }

    public static KernelDefinitionException lookupIndexType(String where, String table, int axis, Type type, CallSite site) {
        return error(where, "index " + axis + " of the lookup of table '" + table + "' is " + type,
                "compute an INT index, e.g. with .castTo(INT)", site);
    }

    public static KernelDefinitionException boundaryLooksUp(String kernel, String field, String table, CallSite site) {
        return error(inBoundary(kernel, field), "looks up table '" + table + "'",
                "a boundary may use only indices, sizes, params and constants", site);
    }

    public static KernelDefinitionException tableMissing(String kernel, TableSpec table, CallSite site) {
        return error(inKernel(kernel), "table '" + table.name() + "' (" + table.type() + ", " + shape(table) + ") is missing",
                "pass it with .input(\"" + table.name() + "\", array)", site);
    }

    public static KernelDefinitionException tableWrongType(String kernel, TableSpec table, Object array, CallSite site) {
        String java = Diagnostics.withArticle(Diagnostics.javaType(table.type()) + "[]");
        return error(inKernel(kernel), "table '" + table.name() + "' must be " + java + " but got "
                + array.getClass().getSimpleName(), "pass " + java, site);
    }

    public static KernelDefinitionException tableWrongLength(String kernel, TableSpec table, int actual, CallSite site) {
        return error(inKernel(kernel), "table '" + table.name() + "' has " + actual + " elements but needs " + table.length()
                + " (" + shape(table) + ")", "pass an array of " + table.length() + " elements, row-major", site);
    }

    private static String shape(TableSpec table) {
        return table.extents().stream().map(String::valueOf).reduce((a, b) -> a + " x " + b).orElseThrow();
    }
}
