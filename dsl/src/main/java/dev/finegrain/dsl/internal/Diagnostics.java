package dev.finegrain.dsl.internal;

import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.dsl.CallSite;
import dev.finegrain.dsl.Type;
import dev.finegrain.dsl.FieldSpec;
import dev.finegrain.dsl.ParamSpec;
import dev.finegrain.dsl.Dimension;
import dev.finegrain.dsl.ChannelOverride;

import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Every message a user can get for a bad kernel definition or invocation, in one place so the wording stays
 * consistent and tests can assert the exact text. Shape: {@code <where>: <what is wrong>; <what to do> (at
 * File.java:line)}, where {@code <where>} names the kernel and, when there is one, the actor or field.
 */
public final class Diagnostics {

    private Diagnostics() {}

    // ---- where ---------------------------------------------------------------------------------------------

    public static String inKernel(String kernel) {
        return "kernel '" + kernel + "'";
    }

    public static String inActor(String kernel, String actor) {
        return inKernel(kernel) + ", actor '" + actor + "'";
    }

    public static String inBoundary(String kernel, String field) {
        return inKernel(kernel) + ", boundary of '" + field + "'";
    }

    static KernelDefinitionException error(String where, String what, String todo, CallSite site) {
        return new KernelDefinitionException(where + ": " + what + "; " + todo + " (at " + site + ")");
    }

    private static String known(Collection<String> names) {
        return names.isEmpty() ? "none declared" : "known: " + String.join(", ", names);
    }

    // ---- bad arguments, rejected at the call -------------------------------------------------------------

    public static KernelDefinitionException invalidName(String kernel, String kind, String name, CallSite site) {
        return error(inKernel(kernel), kind + " name '" + name + "' is not an identifier",
                "use letters, digits and '_', starting with a letter", site);
    }

    public static KernelDefinitionException invalidKernelName(String name, CallSite site) {
        return new KernelDefinitionException("kernel name '" + name + "' is not valid; use lower-case letters, "
                + "digits and '-', starting with a letter, e.g. 'needleman-wunsch' (at " + site + ")");
    }

    public static KernelDefinitionException badRank(String kernel, int rank, CallSite site) {
        return error(inKernel(kernel), "a domain has 1, 2 or 3 dimensions, not " + rank,
                "declare one dim(index, size) per dimension", site);
    }

    public static KernelDefinitionException badGroupSize(String kernel, int groupSize, CallSite site) {
        return error(inKernel(kernel), "a warp-shared lock group of " + groupSize + " actor instances is not positive",
                "use a positive group size such as 32", site);
    }

    public static KernelDefinitionException badHalo(String kernel, String field, int halo, CallSite site) {
        return error(inKernel(kernel), "input '" + field + "' has halo " + halo,
                "use a halo of 0 or more cells", site);
    }

    public static KernelDefinitionException byteStorageNotInt(String kernel, String field, Type type, CallSite site) {
        return error(inKernel(kernel), "input '" + field + "' is " + type + " and declared Storage.BYTE",
                "declare byte storage only for INT inputs whose values fit in -128 to 127", site);
    }

    public static KernelDefinitionException inputNotByte(String kernel, FieldSpec input, int index, int[] point, int value,
                                                         CallSite site) {
        return error(inKernel(kernel), "input '" + input.name() + "' holds " + value + " at element " + index + " ("
                + (input.halo() > 0 ? "padded by " + input.halo() + ", " : "") + "point " + java.util.Arrays.toString(point)
                + "), outside the byte it is declared to fit (Storage.BYTE: -128 to 127)",
                "pass values that fit, or declare the input without Storage.BYTE", site);
    }

    // ---- names ---------------------------------------------------------------------------------------------

    public static KernelDefinitionException duplicateName(String kernel, String kind, String name, CallSite first, CallSite site) {
        return error(inKernel(kernel), kind + " '" + name + "' is declared twice (first at " + first + ")",
                "rename or remove one of them", site);
    }

    public static KernelDefinitionException unknownName(String where, String kind, String name, Collection<String> known, CallSite site) {
        return error(where, kind + " '" + name + "' is not declared (" + known(known) + ")",
                "declare it or fix the name", site);
    }

    public static KernelDefinitionException noDomain(String kernel, CallSite site) {
        return error(inKernel(kernel), "no domain is declared", "call .domain(dim(\"i\", \"n\"), ...) before build()", site);
    }

    public static KernelDefinitionException noActors(String kernel, CallSite site) {
        return error(inKernel(kernel), "no actor is declared", "add one with .actor(name, field, body)", site);
    }

    public static KernelDefinitionException actorWritesInput(String kernel, String actor, String field, CallSite site) {
        return error(inActor(kernel, actor), "writes '" + field + "', which is an input",
                "write a state field declared with .state(...)", site);
    }

    public static KernelDefinitionException stateWrittenTwice(String kernel, String field, String first, String second, CallSite site) {
        return error(inActor(kernel, second), "writes state field '" + field + "', already written by actor '" + first + "'",
                "give each actor its own state field", site);
    }

    public static KernelDefinitionException stateNeverWritten(String kernel, String field, CallSite site) {
        return error(inKernel(kernel), "state field '" + field + "' is written by no actor",
                "add an actor that writes it, or declare it with .input(...)", site);
    }

    // ---- types ---------------------------------------------------------------------------------------------

    public static KernelDefinitionException operandTypes(String where, String operator, Type left, Type right, String rule, CallSite site) {
        return error(where, "operands of '" + operator + "' have types " + left + " and " + right + " but " + rule,
                "convert with castTo(...)", site);
    }

    public static KernelDefinitionException operandType(String where, String operator, Type operand, String rule, CallSite site) {
        return error(where, "operand of '" + operator + "' has type " + operand + " but " + rule,
                "convert with castTo(...)", site);
    }

    public static KernelDefinitionException conditionNotBool(String where, Type actual, CallSite site) {
        return error(where, "select condition has type " + actual + ", not bool",
                "compare it, e.g. x.greaterThan(y)", site);
    }

    public static KernelDefinitionException iterateCountNotInt(String where, Type actual, CallSite site) {
        return error(where, "iterate count has type " + actual + ", not int",
                "convert with castTo(INT)", site);
    }

    public static KernelDefinitionException valueType(String where, String what, Type expected, Type actual, CallSite site) {
        return error(where, what + " has type " + actual + " but must be " + expected,
                "convert with castTo(" + expected.name() + ")", site);
    }

    public static KernelDefinitionException boundaryReadsField(String kernel, String field, String read, CallSite site) {
        return error(inBoundary(kernel, field), "reads field '" + read + "'",
                "a boundary may use only indices, sizes, params and constants", site);
    }

    public static KernelDefinitionException accumulatorOutsideIterate(String where, CallSite site) {
        return error(where, "uses an iterate accumulator outside its iterate",
                "use the accumulator only inside the body it was passed to", site);
    }

    /** A count and its noun, singular for one: "1 offset", "2 dimensions". */
    static String count(int count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }

    // ---- reads and boundaries ----------------------------------------------------------------------------

    public static KernelDefinitionException offsetRank(String where, String read, int given, int rank, CallSite site) {
        return error(where, "read " + read + " gives " + count(given, "offset") + " but the domain has " + count(rank, "dimension"),
                "give one offset per dimension", site);
    }

    public static KernelDefinitionException readNotCovered(String where, String read, String field, CallSite site) {
        return error(where, "read " + read + " can leave the domain and field '" + field + "' has no boundary",
                "declare a boundary for '" + field + "' or read inside the domain", site);
    }

    public static KernelDefinitionException readBeyondHalo(String where, String read, String input, long needed, int halo, CallSite site) {
        return error(where, "read " + read + " reaches " + needed + " cells past the domain but input '" + input
                        + "' has halo " + halo,
                "declare input '" + input + "' with halo " + needed + " or more", site);
    }

    /**
     * A read whose reach pads its field's storage past what an int-indexed array holds even for the smallest domain
     * (size 1 in every dimension), so the kernel could run at no size at all.
     */
    public static KernelDefinitionException readReachesTooFar(String where, String read, int[] offset, String field,
                                                              long[] extents, CallSite site) {
        return error(where, "read " + read + " at offset " + DependenceMath.format(offset) + " pads field '" + field
                        + "' to " + extentsText(extents) + " cells even for a domain of size 1, more than an int-indexed array holds ("
                        + Integer.MAX_VALUE + " cells), so the kernel could run at no size",
                "read nearer points (a field is padded by the furthest reach of its reads along each dimension)", site);
    }

    /** An input whose declared halo pads it past what an int-indexed array holds even for a domain of size 1. */
    public static KernelDefinitionException inputHaloTooLarge(String kernel, String input, int halo, long[] extents,
                                                              int largest, CallSite site) {
        return error(inKernel(kernel), "input '" + input + "' has halo " + halo + ", which pads it to " + extentsText(extents)
                        + " cells even for a domain of size 1, more than an int-indexed array holds (" + Integer.MAX_VALUE
                        + " cells), so the kernel could run at no size",
                "declare a halo of at most " + largest + " for this domain's " + extents.length
                        + (extents.length == 1 ? " dimension" : " dimensions"), site);
    }

    private static String extentsText(long[] extents) {
        return java.util.Arrays.stream(extents).mapToObj(Long::toString).collect(Collectors.joining(" x "));
    }

    public static KernelDefinitionException boundaryInputType(String kernel, String field, String input, Type stateType, Type inputType, CallSite site) {
        return error(inKernel(kernel), "state field '" + field + "' (" + stateType + ") takes its boundary from input '"
                + input + "' (" + inputType + ")", "use an input of the same type", site);
    }

    // ---- dependences ---------------------------------------------------------------------------------------

    public static KernelDefinitionException zeroDistanceCycle(String kernel, List<String> cycle, CallSite site) {
        return error(inKernel(kernel), "actors " + String.join(" -> ", cycle)
                        + " wait for each other at the same point (a zero-distance dependence cycle)",
                "make one of these reads use an earlier point", site);
    }

    public static KernelDefinitionException noWavefront(String kernel, Collection<int[]> vectors, CallSite site) {
        return error(inKernel(kernel), "dependence vectors " + vectors.stream().map(DependenceMath::format)
                        .collect(Collectors.joining(", ")) + " admit no wavefront (no hyperplane h with h.d >= 1 for every d)",
                "read the earlier values from an input field instead of the state field", site);
    }

    public static KernelDefinitionException notLexicographic(String where, String read, int[] vector, CallSite site) {
        return error(where, "read " + read + " depends on a point that comes later in lexicographic order (dependence "
                        + DependenceMath.format(vector) + ") and the reference oracle runs points in that order",
                "declare the domain's dimensions in an order that makes the dependence lexicographically positive", site);
    }

    public static KernelDefinitionException channelRank(String kernel, String producer, String consumer, int given, int rank, CallSite site) {
        return error(inKernel(kernel), "channel " + producer + " -> " + consumer + " has a distance of " + count(given, "component")
                + " but the domain has " + count(rank, "dimension"), "give one component per dimension", site);
    }

    public static KernelDefinitionException overrideMatchesNoRead(String kernel, ChannelOverride override) {
        return error(inActor(kernel, override.consumer()), "the channel policy override for field '" + override.field()
                        + "' at offset " + DependenceMath.format(override.offset().stream().mapToInt(Integer::intValue).toArray())
                        + " matches no read of a state field",
                "override a read the actor makes", override.site());
    }

    // ---- run time: sizes, params, inputs -------------------------------------------------------------------

    public static KernelDefinitionException sizeCount(String kernel, int given, List<Dimension> domain, CallSite site) {
        return error(inKernel(kernel), given + " sizes given for a domain of " + domain.size() + " dimensions ("
                + domain.stream().map(Dimension::size).collect(Collectors.joining(", ")) + ")", "give one size per dimension", site);
    }

    public static KernelDefinitionException sizeNotPositive(String kernel, String size, int value, CallSite site) {
        return error(inKernel(kernel), "size " + size + " = " + value + " is not positive", "give a size of 1 or more", site);
    }

    public static KernelDefinitionException paramMissing(String kernel, ParamSpec param, CallSite site) {
        return error(inKernel(kernel), "param '" + param.name() + "' (" + param.type() + ") is missing",
                "pass it with .param(\"" + param.name() + "\", value)", site);
    }

    public static KernelDefinitionException paramWrongType(String kernel, ParamSpec param, Object value, CallSite site) {
        return error(inKernel(kernel), "param '" + param.name() + "' must be " + param.type() + " but got "
                + value.getClass().getSimpleName() + " " + value, "pass " + withArticle(javaType(param.type())) + " value", site);
    }

    public static KernelDefinitionException inputMissing(String kernel, FieldSpec input, CallSite site) {
        return error(inKernel(kernel), "input '" + input.name() + "' (" + input.type() + ") is missing",
                "pass it with .input(\"" + input.name() + "\", array)", site);
    }

    public static KernelDefinitionException inputWrongType(String kernel, FieldSpec input, Object array, CallSite site) {
        return error(inKernel(kernel), "input '" + input.name() + "' must be " + withArticle(javaType(input.type()) + "[]") + " but got "
                + array.getClass().getSimpleName(), "pass " + withArticle(javaType(input.type()) + "[]"), site);
    }

    public static KernelDefinitionException inputWrongLength(String kernel, FieldSpec input, int expected, int actual, String shape, CallSite site) {
        return error(inKernel(kernel), "input '" + input.name() + "' has " + actual + " elements but needs " + expected
                + " (" + shape + ")", "pass an array of " + expected + " elements, row-major", site);
    }

    public static KernelDefinitionException inputTooLarge(String kernel, FieldSpec input, String shape, CallSite site) {
        return error(inKernel(kernel), "input '" + input.name() + "' would need more elements than an int-indexed array holds ("
                + shape + ")", "choose smaller sizes", site);
    }

    public static KernelDefinitionException notAnInput(String kernel, String kind, String name, Collection<String> known, CallSite site) {
        return error(inKernel(kernel), kind + " '" + name + "' is not declared (" + known(known) + ")",
                "pass only declared " + kind + "s", site);
    }

    // ---- schedules -----------------------------------------------------------------------------------------

    public static KernelDefinitionException tileRank(String kernel, List<Integer> tile, int rank, CallSite site) {
        return error(inKernel(kernel), "dataParallel tile " + tile + " has " + tile.size()
                + " extents but the domain has " + rank + (rank == 1 ? " dimension" : " dimensions"), "give one extent, or one per dimension", site);
    }

    public static KernelDefinitionException tileNotPositive(String kernel, List<Integer> tile, CallSite site) {
        return error(inKernel(kernel), "dataParallel tile " + tile + " has an extent below 1", "use positive extents", site);
    }

    /** A schedule built wrong at the call, before any kernel is known. */
    public static KernelDefinitionException scheduleTile(int[] tile, CallSite site) {
        String extents = java.util.Arrays.toString(tile);
        String what = tile.length > 3 ? "dataParallel tile " + extents + " has " + tile.length + " extents; a domain has at most 3 dimensions"
                : "dataParallel tile " + extents + " has an extent below 1";
        return new KernelDefinitionException(what + "; give one positive extent, or one per dimension (at " + site + ")");
    }

    public static KernelDefinitionException badScheduleGroupSize(int groupSize, CallSite site) {
        return new KernelDefinitionException("lockDataflow().warpShared(" + groupSize + "): a lock group of " + groupSize
                + " actor instances is not positive; use a positive group size such as 32 (at " + site + ")");
    }

    public static KernelDefinitionException badRingCapacity(int slots, CallSite site) {
        return new KernelDefinitionException("lockDataflow().capacity(" + slots + "): a ring's capacity is a power of two"
                + " from 2 to 16777216 (a slot is an index's low bits); use one such as 1024 (at " + site + ")");
    }

    public static KernelDefinitionException badLaneColumns(int columns, boolean persistent, CallSite site) {
        return new KernelDefinitionException("lockDataflow()" + (persistent ? ".persistent()" : "") + ".columnsPerLane(" + columns
                + "): " + (persistent ? "a lane owns 1, 2, 4 or 8 columns; use one of them" : "columns per lane widen"
                + " lock-dataflow:persistent's bands; call persistent() first") + " (at " + site + ")");
    }

    public static KernelDefinitionException nullActorBody(String kernel, String actor, String what, CallSite site) {
        return error(inActor(kernel, actor), what,
                "return the body's expression, e.g. a -> a.read(\"x\", -1).plus(1)", site);
    }

    public static KernelDefinitionException tileDoesNotDivide(String kernel, int extent, String size, int value, CallSite site) {
        return error(inKernel(kernel), "dataParallel tile extent " + extent + " does not divide " + size + " = " + value,
                "choose a size that is a multiple of " + extent + " or a tile extent that divides " + value, site);
    }

    public static KernelDefinitionException tilingIllegal(String kernel, int[] vector, CallSite site) {
        return error(inKernel(kernel), "rectangular tiles cannot respect dependence " + DependenceMath.format(vector)
                        + " (they need every component >= 0)",
                "use the wavefront or lock-dataflow schedule for this kernel (wavefront() or lockDataflow(); --schedules"
                        + " wavefront,lock-dataflow)", site);
    }

    /** "a long", "an int": the article a Java type name takes. */
    static String withArticle(String javaType) {
        return (javaType.startsWith("int") ? "an " : "a ") + javaType;
    }

    static String javaType(Type type) {
        return switch (type) {
            case INT -> "int";
            case LONG -> "long";
            case DOUBLE -> "double";
            case BOOL -> "boolean";
        };
    }
}
