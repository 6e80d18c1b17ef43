package dev.finegrain.dsl.test;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelDefinitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.boundaryFrom;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.iterate;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.param;
import static dev.finegrain.dsl.Finegrain.read;
import static dev.finegrain.dsl.Finegrain.select;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One test per rejection rule, each asserting the exact one-line message. The call site at the end of every
 * message must point into this file; {@link #callSitePointsAtTheUsersLine()} checks the line number itself.
 */
class KernelRulesTest {

    private static final Pattern SITE = Pattern.compile(" \\(at KernelRulesTest\\.java:(\\d+)\\)$");

    /** A valid Needleman-Wunsch kernel to vary. */
    private static Kernel.Builder nw() {
        return kernel("nw")
                .domain(dim("i", "rows"), dim("j", "cols"))
                .param("penalty", INT)
                .input("reference", INT)
                .state("score", INT, boundary(index("i").plus(index("j")).times(param("penalty")).negate()));
    }

    private static Kernel.Builder nwWithCell() {
        return nw().actor("cell", "score", a -> max(
                a.read("score", -1, -1).plus(a.read("reference", 0, 0)),
                a.read("score", -1, 0).minus(a.param("penalty")),
                a.read("score", 0, -1).minus(a.param("penalty"))));
    }

    /** Asserts the message without its call site, and that the call site is in this file. */
    private static void assertRejected(String expected, Executable definition) {
        KernelDefinitionException error = assertThrows(KernelDefinitionException.class, definition);
        Matcher site = SITE.matcher(error.getMessage());
        assertTrue(site.find(), "message must end with a call site in this file: " + error.getMessage());
        String body = error.getMessage().substring(0, site.start()).replaceAll("KernelRulesTest\\.java:\\d+", "KernelRulesTest.java:N");
        assertEquals(expected, body);
        assertEquals(1, error.getMessage().lines().count(), "one line");
    }

    @Test
    void validKernelBuilds() {
        Kernel kernel = nwWithCell().build();
        assertEquals("nw", kernel.name());
        assertEquals(2, kernel.rank());
    }

    @Test
    void callSitePointsAtTheUsersLine() {
        int line = new Throwable().getStackTrace()[0].getLineNumber() + 1;
        KernelDefinitionException error = assertThrows(KernelDefinitionException.class, () -> nw().actor("cell", "scor", a -> a.read("score", -1, 0)).build());
        assertTrue(error.getMessage().endsWith("(at KernelRulesTest.java:" + line + ")"), error.getMessage());
    }

    // ---- names ---------------------------------------------------------------------------------------------

    @Test
    void duplicateNamesPointAtBothDeclarations() {
        int first = new Throwable().getStackTrace()[0].getLineNumber() + 1;
        Kernel.Builder builder = kernel("k").domain(dim("i", "n")).param("p", INT);
        int second = new Throwable().getStackTrace()[0].getLineNumber() + 1;
        KernelDefinitionException error = assertThrows(KernelDefinitionException.class, () -> builder.param("p", INT).state("x", INT).actor("a", "x", c -> constant(0)).build());
        assertEquals("kernel 'k': param 'p' is declared twice (first at KernelRulesTest.java:" + first
                + "); rename or remove one of them (at KernelRulesTest.java:" + second + ")", error.getMessage());
    }

    @Test
    void rejectsAnInvalidKernelName() {
        KernelDefinitionException error = assertThrows(KernelDefinitionException.class, () -> kernel("Needleman Wunsch"));
        assertTrue(error.getMessage().startsWith("kernel name 'Needleman Wunsch' is not valid; use lower-case letters, digits and '-', starting with a letter, e.g. 'needleman-wunsch' (at KernelRulesTest.java:"), error.getMessage());
    }

    @Test
    void rejectsAnInvalidFieldNameAtTheCall() {
        assertRejected("kernel 'nw': field name '2score' is not an identifier; use letters, digits and '_', starting with a letter",
                () -> nw().state("2score", INT));
    }

    @Test
    void rejectsADuplicateField() {
        assertRejected("kernel 'nw': field 'score' is declared twice (first at KernelRulesTest.java:N); rename or remove one of them",
                () -> nwWithCell().input("score", INT).build());
    }

    @Test
    void rejectsADuplicateParam() {
        assertRejected("kernel 'nw': param 'penalty' is declared twice (first at KernelRulesTest.java:N); rename or remove one of them",
                () -> nwWithCell().param("penalty", LONG).build());
    }

    @Test
    void rejectsAStateFieldThatNoActorWrites() {
        assertRejected("kernel 'nw': state field 'extra' is written by no actor; add an actor that writes it, or declare it with .input(...)",
                () -> nwWithCell().state("extra", INT).build());
    }

    @Test
    void rejectsADuplicateActor() {
        assertRejected("kernel 'nw': actor 'cell' is declared twice (first at KernelRulesTest.java:N); rename or remove one of them",
                () -> nwWithCell().state("other", INT).actor("cell", "other", a -> constant(1)).build());
    }

    @Test
    void rejectsADuplicateIndex() {
        assertRejected("kernel 'k': index 'i' is declared twice (first at KernelRulesTest.java:N); rename or remove one of them",
                () -> kernel("k").domain(dim("i", "n"), dim("i", "m")).state("a", INT).actor("a", "a", c -> constant(0)).build());
    }

    @Test
    void rejectsAReadOfAnUnknownField() {
        assertRejected("kernel 'nw', actor 'cell': field 'scor' is not declared (known: reference, score); declare it or fix the name",
                () -> nw().actor("cell", "score", a -> a.read("scor", -1, 0)).build());
    }

    @Test
    void rejectsAnActorWritingAnUnknownField() {
        assertRejected("kernel 'nw', actor 'cell': field 'scores' is not declared (known: reference, score); declare it or fix the name",
                () -> nw().actor("cell", "scores", a -> constant(0)).build());
    }

    @Test
    void rejectsAnUnknownParam() {
        assertRejected("kernel 'nw', actor 'cell': param 'gap' is not declared (known: penalty); declare it or fix the name",
                () -> nw().actor("cell", "score", a -> a.read("score", -1, 0).minus(a.param("gap"))).build());
    }

    @Test
    void rejectsAnUnknownIndex() {
        assertRejected("kernel 'nw', actor 'cell': index 'k' is not declared (known: i, j); declare it or fix the name",
                () -> nw().actor("cell", "score", a -> a.index("k")).build());
    }

    @Test
    void rejectsAnUnknownSize() {
        assertRejected("kernel 'nw', actor 'cell': size 'n' is not declared (known: rows, cols); declare it or fix the name",
                () -> nw().actor("cell", "score", a -> a.size("n")).build());
    }

    @Test
    void rejectsAKernelWithoutDomain() {
        assertRejected("kernel 'k': no domain is declared; call .domain(dim(\"i\", \"n\"), ...) before build()",
                () -> kernel("k").state("a", INT).actor("a", "a", c -> constant(0)).build());
    }

    @Test
    void rejectsADomainOfFourDimensions() {
        assertRejected("kernel 'k': a domain has 1, 2 or 3 dimensions, not 4; declare one dim(index, size) per dimension",
                () -> kernel("k").domain(dim("a", "p"), dim("b", "q"), dim("c", "r"), dim("d", "s")));
    }

    @Test
    void rejectsAKernelWithoutActors() {
        assertRejected("kernel 'nw': no actor is declared; add one with .actor(name, field, body)", () -> nw().build());
    }

    @Test
    void rejectsAnActorWritingAnInput() {
        assertRejected("kernel 'nw', actor 'cell2': writes 'reference', which is an input; write a state field declared with .state(...)",
                () -> nwWithCell().actor("cell2", "reference", a -> constant(0)).build());
    }

    @Test
    void rejectsTwoActorsWritingOneField() {
        assertRejected("kernel 'nw', actor 'again': writes state field 'score', already written by actor 'cell'; give each actor its own state field",
                () -> nwWithCell().actor("again", "score", a -> constant(0)).build());
    }

    @Test
    void rejectsANullBodyCallback() {
        assertRejected("kernel 'nw', actor 'cell': no body callback was given; return the body's expression, e.g. a -> a.read(\"x\", -1).plus(1)",
                () -> nw().actor("cell", "score", null));
    }

    @Test
    void rejectsABodyCallbackThatReturnsNull() {
        assertRejected("kernel 'nw', actor 'cell': the body callback returned null; return the body's expression, e.g. a -> a.read(\"x\", -1).plus(1)",
                () -> nw().actor("cell", "score", a -> null));
    }

    @Test
    void rejectsALibraryKernelWhoseDefaultSizeDoesNotFitItsDomain() {
        Kernel kernel = nwWithCell().build();
        KernelDefinitionException error = assertThrows(KernelDefinitionException.class, () -> new dev.finegrain.dsl.LibraryKernel(
                kernel, "nw", "nw", (k, sizes, seed) -> null, java.util.List.of(new int[] {64})));
        assertEquals("kernel 'nw': default size [64] does not fit a domain of 2 dimensions; give 2 positive extents per size",
                error.getMessage());
    }

    @Test
    void rejectsATileExtentBelowOneAtTheCall() {
        assertRejected("dataParallel tile [0] has an extent below 1; give one positive extent, or one per dimension",
                () -> dev.finegrain.dsl.Finegrain.dataParallel(0));
        assertRejected("dataParallel tile [16, -2] has an extent below 1; give one positive extent, or one per dimension",
                () -> dev.finegrain.dsl.Finegrain.dataParallel(16, -2));
    }

    @Test
    void rejectsAWarpSharedGroupBelowOneOnTheSchedule() {
        assertRejected("lockDataflow().warpShared(0): a lock group of 0 actor instances is not positive; use a positive group size such as 32",
                () -> dev.finegrain.dsl.Finegrain.lockDataflow().warpShared(0));
    }

    // ---- types ---------------------------------------------------------------------------------------------

    @Test
    void rejectsMixedOperandTypes() {
        assertRejected("kernel 'nw', actor 'cell': operands of '+' have types int and double but it needs two numbers of one type; convert with castTo(...)",
                () -> nw().actor("cell", "score", a -> a.read("score", -1, 0).plus(0.5)).build());
    }

    @Test
    void rejectsABodyOfTheWrongType() {
        assertRejected("kernel 'nw', actor 'cell': body has type long but must be int; convert with castTo(INT)",
                () -> nw().actor("cell", "score", a -> constant(1L)).build());
    }

    @Test
    void rejectsANonBoolCondition() {
        assertRejected("kernel 'nw', actor 'cell': select condition has type int, not bool; compare it, e.g. x.greaterThan(y)",
                () -> nw().actor("cell", "score", a -> select(a.index("i"), constant(1), constant(2))).build());
    }

    @Test
    void rejectsBitOpsOnDoubles() {
        assertRejected("kernel 'k', actor 'a': operands of '&' have types double and double but it needs two int, two long or two bool values; convert with castTo(...)",
                () -> kernel("k").domain(dim("i", "n")).state("x", DOUBLE).actor("a", "x", c -> constant(1.0).and(constant(2.0))).build());
    }

    @Test
    void rejectsAnIterateBodyOfAnotherType() {
        assertRejected("kernel 'k', actor 'a': iterate body has type double but must be int; convert with castTo(INT)",
                () -> kernel("k").domain(dim("i", "n")).state("x", INT)
                        .actor("a", "x", c -> iterate(constant(3), constant(0), acc -> acc.castTo(DOUBLE))).build());
    }

    @Test
    void rejectsABoundaryOfTheWrongType() {
        assertRejected("kernel 'k', boundary of 'x': boundary has type double but must be int; convert with castTo(INT)",
                () -> kernel("k").domain(dim("i", "n")).state("x", INT, boundary(constant(0.0)))
                        .actor("a", "x", c -> c.read("x", -1)).build());
    }

    @Test
    void rejectsABoundaryThatReadsAField() {
        assertRejected("kernel 'k', boundary of 'x': reads field 'x'; a boundary may use only indices, sizes, params and constants",
                () -> kernel("k").domain(dim("i", "n")).state("x", INT, boundary(read("x", 0)))
                        .actor("a", "x", c -> c.read("x", -1)).build());
    }

    // ---- what reads may reach ------------------------------------------------------------------------------

    @Test
    void rejectsAReadLeavingTheDomainWithoutBoundary() {
        assertRejected("kernel 'k', actor 'a': read x[i-1] can leave the domain and field 'x' has no boundary; declare a boundary for 'x' or read inside the domain",
                () -> kernel("k").domain(dim("i", "n")).state("x", INT).actor("a", "x", c -> c.read("x", -1)).build());
    }

    @Test
    void rejectsAnInputReadBeyondItsHalo() {
        assertRejected("kernel 'k', actor 'a': read g[i+2] reaches 2 cells past the domain but input 'g' has halo 1; declare input 'g' with halo 2 or more",
                () -> kernel("k").domain(dim("i", "n")).input("g", INT, 1).state("x", INT)
                        .actor("a", "x", c -> c.read("g", 2)).build());
    }

    @Test
    void rejectsABoundaryInputTooNarrowForTheReads() {
        assertRejected("kernel 'k', actor 'a': read x[i-2] reaches 2 cells past the domain but input 'g' has halo 1; declare input 'g' with halo 2 or more",
                () -> kernel("k").domain(dim("i", "n")).input("g", INT, 1).state("x", INT, boundaryFrom("g"))
                        .actor("a", "x", c -> c.read("x", -2)).build());
    }

    /**
     * Found in review: a read 100000 cells back along both dimensions built, then every run failed "choose smaller
     * sizes", even at 16 x 16: the field's storage is padded by the read's reach, 100001 x 100001 cells at size 1.
     */
    @Test
    void rejectsAReadThatPadsItsFieldPastAnyArrayEvenAtSizeOne() {
        assertRejected("kernel 'k', actor 'a': read x[i-100000, j-100000] at offset (-100000,-100000) pads field 'x' to"
                        + " 100001 x 100001 cells even for a domain of size 1, more than an int-indexed array holds (2147483647"
                        + " cells), so the kernel could run at no size; read nearer points (a field is padded by the furthest"
                        + " reach of its reads along each dimension)",
                () -> kernel("k").domain(dim("i", "n"), dim("j", "m")).state("x", INT, boundary(constant(0)))
                        .actor("a", "x", c -> c.read("x", -100000, -100000).plus(1)).build());
    }

    /** Two reads that each fit but pad the field past any array together: the one that tips it over is named. */
    @Test
    void rejectsTheReadThatTipsItsFieldsPaddingOver() {
        assertRejected("kernel 'k', actor 'a': read x[i, j-50000] at offset (0,-50000) pads field 'x' to 50001 x 50001 cells"
                        + " even for a domain of size 1, more than an int-indexed array holds (2147483647 cells), so the kernel"
                        + " could run at no size; read nearer points (a field is padded by the furthest reach of its reads along"
                        + " each dimension)",
                () -> kernel("k").domain(dim("i", "n"), dim("j", "m")).state("x", INT, boundary(constant(0)))
                        .actor("a", "x", c -> c.read("x", -50000, 0).plus(c.read("x", 0, -50000))).build());
    }

    /** Far reads that still fit some domain build: along one dimension of 2D, and a long reach in 1D. */
    @Test
    void farReadsThatSomeDomainHoldsStillBuild() {
        kernel("k").domain(dim("i", "n"), dim("j", "m")).state("x", INT, boundary(constant(0)))
                .actor("a", "x", c -> c.read("x", -100000, 0).plus(c.read("x", -1, -20000))).build();
        kernel("k").domain(dim("i", "n")).state("x", INT, boundary(constant(0)))
                .actor("a", "x", c -> c.read("x", -1_000_000_000).plus(1)).build();
        kernel("k").domain(dim("i", "n"), dim("j", "m"), dim("k", "p")).input("g", INT, 644).state("x", INT)
                .actor("a", "x", c -> c.read("g", -644, 0, 644)).build();
    }

    @Test
    void rejectsAnInputHaloThatPadsItPastAnyArrayEvenAtSizeOne() {
        assertRejected("kernel 'k': input 'g' has halo 645, which pads it to 1291 x 1291 x 1291 cells even for a domain of"
                        + " size 1, more than an int-indexed array holds (2147483647 cells), so the kernel could run at no size;"
                        + " declare a halo of at most 644 for this domain's 3 dimensions",
                () -> kernel("k").domain(dim("i", "n"), dim("j", "m"), dim("k", "p")).input("g", INT, 645).state("x", INT)
                        .actor("a", "x", c -> c.read("g", 0, 0, 0)).build());
        assertRejected("kernel 'k': input 'g' has halo 100000, which pads it to 200001 x 200001 cells even for a domain of"
                        + " size 1, more than an int-indexed array holds (2147483647 cells), so the kernel could run at no size;"
                        + " declare a halo of at most 23169 for this domain's 2 dimensions",
                () -> kernel("k").domain(dim("i", "n"), dim("j", "m")).input("g", INT, 100000).state("x", INT)
                        .actor("a", "x", c -> c.read("g", -100000, 0)).build());
    }

    /** |Integer.MIN_VALUE| is negative as an int: such a read must not slip past the halo check. */
    @Test
    void rejectsAReadAtTheMostNegativeOffsetAsBeyondTheHalo() {
        assertRejected("kernel 'k', actor 'a': read g[i-2147483648] reaches 2147483648 cells past the domain but input 'g' has"
                        + " halo 1; declare input 'g' with halo 2147483648 or more",
                () -> kernel("k").domain(dim("i", "n")).input("g", INT, 1).state("x", INT)
                        .actor("a", "x", c -> c.read("g", Integer.MIN_VALUE)).build());
    }

    @Test
    void rejectsAReadWithTheWrongNumberOfOffsets() {
        assertRejected("kernel 'nw', actor 'cell': read score@(-1) gives 1 offset but the domain has 2 dimensions; give one offset per dimension",
                () -> nw().actor("cell", "score", a -> a.read("score", -1)).build());
    }

    // ---- dependences ---------------------------------------------------------------------------------------

    @Test
    void rejectsAZeroDistanceSelfDependence() {
        assertRejected("kernel 'nw': actors cell -> cell wait for each other at the same point (a zero-distance dependence cycle); make one of these reads use an earlier point",
                () -> nw().actor("cell", "score", a -> a.read("score", 0, 0)).build());
    }

    @Test
    void rejectsAZeroDistanceCycleBetweenActors() {
        assertRejected("kernel 'k': actors first -> second -> first wait for each other at the same point (a zero-distance dependence cycle); make one of these reads use an earlier point",
                () -> kernel("k").domain(dim("i", "n")).state("x", INT).state("y", INT)
                        .actor("first", "x", c -> c.read("y", 0))
                        .actor("second", "y", c -> c.read("x", 0)).build());
    }

    @Test
    void rejectsDependencesWithoutAWavefront() {
        assertRejected("kernel 'k': dependence vectors (1), (-1) admit no wavefront (no hyperplane h with h.d >= 1 for every d); read the earlier values from an input field instead of the state field",
                () -> kernel("k").domain(dim("i", "n")).state("x", INT, boundary(constant(0)))
                        .actor("jacobi", "x", c -> c.read("x", -1).plus(c.read("x", 1))).build());
    }

    @Test
    void rejectsADependenceAgainstLexicographicOrder() {
        assertRejected("kernel 'k', actor 'a': read x[i+1, j-1] depends on a point that comes later in lexicographic order (dependence (-1,1)) and the reference oracle runs points in that order; declare the domain's dimensions in an order that makes the dependence lexicographically positive",
                () -> kernel("k").domain(dim("i", "n"), dim("j", "m")).state("x", INT, boundary(constant(0)))
                        .actor("a", "x", c -> c.read("x", 1, -1)).build());
    }

    @Test
    void rejectsAnExplicitChannelToAnUnknownActor() {
        assertRejected("kernel 'nw': actor 'west' is not declared (known: cell); declare it or fix the name",
                () -> nwWithCell().channel("west", "cell", 0, 1).build());
    }

    @Test
    void rejectsAnExplicitChannelOfTheWrongRank() {
        assertRejected("kernel 'nw': channel cell -> cell has a distance of 1 component but the domain has 2 dimensions; give one component per dimension",
                () -> nwWithCell().channel("cell", "cell", 1).build());
    }

    @Test
    void rejectsAPolicyOverrideThatMatchesNoRead() {
        assertRejected("kernel 'nw', actor 'cell': the channel policy override for field 'score' at offset (-2,0) matches no read of a state field; override a read the actor makes",
                () -> nwWithCell().channelPolicy("cell", "score", dev.finegrain.dsl.ChannelPolicy.PRIVATE, -2, 0).build());
    }

    // ---- run time ------------------------------------------------------------------------------------------

    private static Invocation.Builder nwInvocation() {
        return nwWithCell().build().invocation().sizes(2, 3).input("reference", new int[6]);
    }

    @Test
    void rejectsAMissingParamAtRunTime() {
        assertRejected("kernel 'nw': param 'penalty' (int) is missing; pass it with .param(\"penalty\", value)",
                () -> nwInvocation().build());
    }

    @Test
    void rejectsAParamOfTheWrongTypeAtRunTime() {
        assertRejected("kernel 'nw': param 'penalty' must be int but got Long 10; pass an int value",
                () -> nwInvocation().param("penalty", 10L).build());
    }

    @Test
    void rejectsAnUndeclaredParamAtRunTime() {
        assertRejected("kernel 'nw': param 'gap' is not declared (known: penalty); pass only declared params",
                () -> nwInvocation().param("penalty", 10).param("gap", 1).build());
    }

    @Test
    void rejectsAnInputOfTheWrongLength() {
        assertRejected("kernel 'nw': input 'reference' has 5 elements but needs 6 (2 x 3); pass an array of 6 elements, row-major",
                () -> nwInvocation().param("penalty", 10).input("reference", new int[5]).build());
    }

    @Test
    void rejectsAPaddedInputOfTheWrongLength() {
        assertRejected("kernel 'k': input 'g' has 3 elements but needs 6 (6, the domain padded by halo 1); pass an array of 6 elements, row-major",
                () -> kernel("k").domain(dim("i", "n")).input("g", DOUBLE, 1).state("x", DOUBLE)
                        .actor("a", "x", c -> c.read("g", 1)).build().invocation().sizes(4).input("g", new double[3]).build());
    }

    @Test
    void rejectsAnInputOfTheWrongType() {
        assertRejected("kernel 'nw': input 'reference' must be an int[] but got double[]; pass an int[]",
                () -> nwInvocation().param("penalty", 10).input("reference", new double[6]).build());
    }

    @Test
    void rejectsAMissingInput() {
        assertRejected("kernel 'nw': input 'reference' (int) is missing; pass it with .input(\"reference\", array)",
                () -> nwWithCell().build().invocation().sizes(2, 3).param("penalty", 10).build());
    }

    @Test
    void rejectsSizesWhoseInputWouldNotFitAnArray() {
        assertRejected("kernel 'k': input 'g' would need more elements than an int-indexed array holds (50002 x 50002, the"
                        + " domain padded by halo 1); choose smaller sizes",
                () -> kernel("k").domain(dim("i", "n"), dim("j", "m")).input("g", INT, 1).state("x", INT)
                        .actor("a", "x", c -> c.read("g", 1, 1)).build().invocation().sizes(50000, 50000)
                        .input("g", new int[1]).build());
    }

    private static Kernel byteInput() {
        return kernel("k").domain(dim("i", "n")).input("g", INT, dev.finegrain.dsl.Storage.BYTE).state("x", INT)
                .actor("a", "x", c -> c.read("g", 0)).build();
    }

    @Test
    void rejectsAByteInputThatDoesNotFitAtBuild() {
        assertRejected("kernel 'k': input 'g' holds 1000 at element 2 (point [2]), outside the byte it is declared to fit (Storage.BYTE:"
                        + " -128 to 127); pass values that fit, or declare the input without Storage.BYTE",
                () -> byteInput().invocation().sizes(4).input("g", new int[] {1, -128, 1000, 127}).build());
    }

    /** A padded input's element is named by its point too: of the domain, or of the halo (below 0, or at the size). */
    @Test
    void aByteValueThatDoesNotFitIsNamedByItsPointInThePaddedArray() {
        Kernel padded = kernel("k").domain(dim("i", "n"), dim("j", "m")).input("g", INT, 1, dev.finegrain.dsl.Storage.BYTE)
                .state("x", INT).actor("a", "x", c -> c.read("g", 1, 1)).build();
        int[] values = new int[5 * 6];   // 3 x 4 padded by 1 on every side
        values[2 * 6 + 3] = 300;
        assertRejected("kernel 'k': input 'g' holds 300 at element 15 (padded by 1, point [1, 2]), outside the byte it is"
                        + " declared to fit (Storage.BYTE: -128 to 127); pass values that fit, or declare the input without Storage.BYTE",
                () -> padded.invocation().sizes(3, 4).input("g", values).build());
        values[15] = 0;
        values[5] = -200;
        assertRejected("kernel 'k': input 'g' holds -200 at element 5 (padded by 1, point [-1, 4]), outside the byte it is"
                        + " declared to fit (Storage.BYTE: -128 to 127); pass values that fit, or declare the input without Storage.BYTE",
                () -> padded.invocation().sizes(3, 4).input("g", values).build());
    }

    /** The arrays are shared: a write after build() is refused when checked again, with build()'s own message and site. */
    @Test
    void checkStorageRefusesAByteInputWrittenAfterBuild() {
        int[] values = {1, -128, 127, 0};
        Invocation invocation = byteInput().invocation().sizes(4).input("g", values).build();
        invocation.checkStorage();
        values[3] = 1000;
        assertRejected("kernel 'k': input 'g' holds 1000 at element 3 (point [3]), outside the byte it is declared to fit (Storage.BYTE:"
                        + " -128 to 127); pass values that fit, or declare the input without Storage.BYTE",
                invocation::checkStorage);
        KernelDefinitionException again = assertThrows(KernelDefinitionException.class, invocation::checkStorage);
        KernelDefinitionException atBuild = assertThrows(KernelDefinitionException.class,
                () -> byteInput().invocation().sizes(4).input("g", values).build());
        assertEquals(atBuild.getMessage().replaceAll("\\(at [^)]*\\)$", ""), again.getMessage().replaceAll("\\(at [^)]*\\)$", ""));
    }

    @Test
    void rejectsTheWrongNumberOfSizes() {
        assertRejected("kernel 'nw': 1 sizes given for a domain of 2 dimensions (rows, cols); give one size per dimension",
                () -> nwWithCell().build().invocation().sizes(4).build());
    }

    @Test
    void rejectsANonPositiveSize() {
        assertRejected("kernel 'nw': size cols = 0 is not positive; give a size of 1 or more",
                () -> nwWithCell().build().invocation().sizes(4, 0).build());
    }
}
