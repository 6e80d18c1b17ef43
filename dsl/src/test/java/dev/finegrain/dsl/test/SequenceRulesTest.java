package dev.finegrain.dsl.test;

import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Keep;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.KernelDefinitionException;
import dev.finegrain.dsl.Reduction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.finegrain.dsl.Finegrain.BOOL;
import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.along;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.boundaryFrom;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.lookup;
import static dev.finegrain.dsl.Finegrain.max;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rules of sequence inputs ({@code along}) and lookup tables, one test per rejection with its exact one-line
 * message, and the shapes an invocation must give them.
 */
class SequenceRulesTest {

    private static final Pattern SITE = Pattern.compile(" \\(at SequenceRulesTest\\.java:(\\d+)\\)$");

    /** Two sequences and a 4 x 4 table, the cell not yet declared. */
    private static Kernel.Builder pairs() {
        return kernel("pairs").domain(dim("i", "rows"), dim("j", "cols"))
                .input("a", INT, along("i")).input("b", INT, along("j"))
                .table("score", INT, 4, 4)
                .state("s", INT, boundary(constant(0)));
    }

    private static Kernel valid() {
        return pairs().actor("cell", "s", c -> max(c.read("s", -1, -1).plus(lookup("score", c.read("a", 0), c.read("b", 0))),
                c.read("s", 0, -1))).build();
    }

    private static void assertRejected(String expected, Executable definition) {
        KernelDefinitionException error = assertThrows(KernelDefinitionException.class, definition);
        Matcher site = SITE.matcher(error.getMessage());
        assertTrue(site.find(), "message must end with a call site in this file: " + error.getMessage());
        assertEquals(expected, error.getMessage().substring(0, site.start()));
        assertEquals(1, error.getMessage().lines().count(), "one line");
    }

    @Test
    void aKernelOfSequencesAndATablePrintsThem() {
        String printed = valid().toString();
        assertTrue(printed.contains("  input a: int, along i\n  input b: int, along j\n"), printed);
        assertTrue(printed.contains("  table score: int 4 x 4\n"), printed);
        assertTrue(printed.contains("score[a[i], b[j]]"), printed);
    }

    @Test
    void rejectsAlongAnIndexNotInTheDomain() {
        assertRejected("kernel 'pairs': input 'c' is declared along [k], which are not distinct indices of the domain [i, j] "
                + "named in its order; name one or more of i, j, each once, in that order",
                () -> pairs().input("c", INT, along("k")).actor("cell", "s", c -> c.read("s", 0, -1)).build());
    }

    @Test
    void rejectsAlongOutOfTheDomainsOrder() {
        assertRejected("kernel 'pairs': input 'c' is declared along [j, i], which are not distinct indices of the domain [i, j] "
                + "named in its order; name one or more of i, j, each once, in that order",
                () -> pairs().input("c", INT, along("j", "i")).actor("cell", "s", c -> c.read("s", 0, -1)).build());
    }

    @Test
    void rejectsAReadOfASequenceWithAnOffsetPerDomainDimension() {
        assertRejected("kernel 'pairs', actor 'cell': read a@(0,0) gives 2 offsets but input 'a' is a sequence along i; "
                + "give one offset per dimension it spans (1)",
                () -> pairs().actor("cell", "s", c -> c.read("s", 0, -1).plus(c.read("a", 0, 0))).build());
    }

    @Test
    void rejectsAReadOfASequenceThatCanLeaveTheDomain() {
        assertRejected("kernel 'pairs', actor 'cell': read a[i-1] can leave the domain, and sequence input 'a' has no halo; "
                + "read it at offset 0, or declare it over the whole domain with a halo",
                () -> pairs().actor("cell", "s", c -> c.read("s", 0, -1).plus(c.read("a", -1))).build());
    }

    @Test
    void rejectsABoundaryFromASequence() {
        assertRejected("kernel 'pairs', boundary of 't': comes from input 'a', a sequence that does not span the whole domain; "
                + "take a boundary from an input over the whole domain, or give it as an expression",
                () -> pairs().state("t", INT, boundaryFrom("a")).actor("cell", "s", c -> c.read("s", 0, -1))
                        .actor("other", "t", c -> c.read("t", 0, -1)).build());
    }

    @Test
    void rejectsALookupOfAnUnknownTable() {
        assertRejected("kernel 'pairs', actor 'cell': table 'blosum' is not declared (known: score); declare it or fix the name",
                () -> pairs().actor("cell", "s", c -> c.read("s", 0, -1).plus(lookup("blosum", c.read("a", 0), c.read("b", 0)))).build());
    }

    @Test
    void rejectsALookupWithTheWrongNumberOfIndices() {
        assertRejected("kernel 'pairs', actor 'cell': lookup of table 'score' gives 1 index but the table has 2 axes [4, 4]; "
                + "give one int index per axis",
                () -> pairs().actor("cell", "s", c -> c.read("s", 0, -1).plus(lookup("score", c.read("a", 0)))).build());
    }

    @Test
    void rejectsALookupIndexThatIsNotAnInt() {
        assertRejected("kernel 'pairs', actor 'cell': index 1 of the lookup of table 'score' is long; compute an INT index, "
                + "e.g. with .castTo(INT)",
                () -> pairs().actor("cell", "s", c -> c.read("s", 0, -1).plus(lookup("score", c.read("a", 0), constant(1L)))).build());
    }

    @Test
    void rejectsALookupInABoundary() {
        assertRejected("kernel 'pairs', boundary of 't': looks up table 'score'; a boundary may use only indices, sizes, params and "
                + "constants",
                () -> pairs().state("t", INT, boundary(lookup("score", index("i"), constant(0)))).actor("cell", "s", c -> c.read("s", 0, -1))
                        .actor("other", "t", c -> c.read("t", 0, -1)).build());
    }

    @Test
    void rejectsTablesWithoutExtentsTooLargeOrOfBools() {
        assertRejected("kernel 'pairs': table 't' has extents []; give 1 to 3 extents, each 1 or more, 16777216 elements in all at most",
                () -> pairs().table("t", INT));
        assertRejected("kernel 'pairs': table 't' has extents [4096, 4097]; give 1 to 3 extents, each 1 or more, 16777216 elements "
                + "in all at most", () -> pairs().table("t", INT, 4096, 4097));
        assertRejected("kernel 'pairs': table 't' is BOOL; declare an INT table of 0 and 1, or LONG or DOUBLE",
                () -> pairs().table("t", BOOL, 2));
    }

    @Test
    void rejectsATableNamedAsAField() {
        assertRejected("kernel 'pairs': table 'a' has the name of a field; give tables and fields different names",
                () -> pairs().table("a", LONG, 3).actor("cell", "s", c -> c.read("s", 0, -1)).build());
    }

    @Test
    void keepsAndReductionsPrintAndNameStateFields() {
        Kernel kernel = valid().toBuilder().keep("s", Keep.FINAL).reduceWithPosition("s", Reduction.MAX).reduce("s", Reduction.SUM).build();
        assertEquals(Keep.FINAL, kernel.keep("s"));
        assertTrue(kernel.toString().contains("  keep s: final\n  reduce max(s) with its position\n  reduce sum(s)\n"), kernel.toString());
        assertArrayEquals(new int[] {1, 1}, Keep.FINAL.extents(new int[] {3, 5}));
        assertArrayEquals(new int[] {2, 0}, Keep.LAST_ROW.first(new int[] {3, 5}));
        assertArrayEquals(new int[] {3, 1}, Keep.LAST_COLUMN.extents(new int[] {3, 5}));
        assertEquals(15, Keep.ALL.points(new int[] {3, 5}));
    }

    @Test
    void rejectsAKeepOfAnInputATableOrAnUnknownField() {
        assertRejected("kernel 'pairs': keep of 'a' names input 'a'; keep applies to state fields, the values actors compute",
                () -> valid().toBuilder().keep("a", Keep.FINAL).build());
        assertRejected("kernel 'pairs': max(score) names table 'score'; reductions apply to state fields, the values actors compute",
                () -> valid().toBuilder().reduce("score", Reduction.MAX).build());
        assertRejected("kernel 'pairs', keep of 't': state field 't' is not declared (known: s); declare it or fix the name",
                () -> valid().toBuilder().keep("t", Keep.FINAL).build());
    }

    @Test
    void rejectsTwoKeepsOfOneFieldAndOneReductionDeclaredTwice() {
        KernelDefinitionException keep = assertThrows(KernelDefinitionException.class,
                () -> valid().toBuilder().keep("s", Keep.FINAL).keep("s", Keep.LAST_ROW).build());
        assertTrue(keep.getMessage().startsWith("kernel 'pairs': keep of 's' is declared twice (first at SequenceRulesTest.java:"),
                keep.getMessage());
        assertTrue(keep.getMessage().contains("); keep one of them (at "), keep.getMessage());
        KernelDefinitionException reduction = assertThrows(KernelDefinitionException.class,
                () -> valid().toBuilder().reduce("s", Reduction.MAX).reduceWithPosition("s", Reduction.MAX).build());
        assertTrue(reduction.getMessage().contains("max(s) is declared twice") && reduction.getMessage()
                .contains("keep one of them (reduceWithPosition gives the value too)"), reduction.getMessage());
    }

    @Test
    void rejectsAlongNoDimensionOrEveryDimension() {
        assertRejected("kernel 'pairs': input 'c' is declared along no dimension; name the dimensions it spans, e.g. along(\"i\"), "
                + "or declare an input over the whole domain without along", () -> pairs().input("c", INT, along()));
        assertRejected("kernel 'pairs': input 'c' is declared along [i, j], every dimension of the domain; declare it without "
                + "along: an input over the whole domain",
                () -> pairs().input("c", INT, along("i", "j")).actor("cell", "s", c -> c.read("s", 0, -1)).build());
    }

    @Test
    void rejectsAReadOfATableAndALookupOfAField() {
        assertRejected("kernel 'pairs', actor 'cell': reads 'score', a lookup table; read a table with lookup(\"score\", indices...)",
                () -> pairs().actor("cell", "s", c -> c.read("s", 0, -1).plus(c.read("score", 0, 0))).build());
        assertRejected("kernel 'pairs', actor 'cell': looks up 'a', a field, not a table; read a field with read(\"a\", offsets...)",
                () -> pairs().actor("cell", "s", c -> c.read("s", 0, -1).plus(lookup("a", c.read("a", 0)))).build());
    }

    @Test
    void rejectsAReductionOfADoubleFieldAndASumWithAPosition() {
        assertRejected("kernel 'x': max(d) reduces a double field; reduce INT or LONG fields, whose sums and extremes every backend "
                + "and order computes bit for bit",
                () -> kernel("x").domain(dim("i", "n")).state("d", dev.finegrain.dsl.Finegrain.DOUBLE, boundary(constant(0.0)))
                        .actor("a", "d", c -> c.read("d", -1).plus(1.0)).reduce("d", Reduction.MAX).build());
        assertRejected("kernel 'pairs': sum(s) asks for a position, and a sum has none; use reduce(\"s\", SUM)",
                () -> valid().toBuilder().reduceWithPosition("s", Reduction.SUM).build());
    }

    @Test
    void anInvocationGivesEachSequenceItsOwnLengthAndEachTableItsElements() {
        Kernel kernel = valid();
        Invocation ok = kernel.invocation().sizes(3, 5).input("a", new int[3]).input("b", new int[5]).input("score", new int[16]).build();
        assertEquals(3, ((int[]) ok.input("a")).length);
        KernelDefinitionException shortSequence = assertThrows(KernelDefinitionException.class, () ->
                kernel.invocation().sizes(3, 5).input("a", new int[3]).input("b", new int[15]).input("score", new int[16]).build());
        assertTrue(shortSequence.getMessage().startsWith("kernel 'pairs': input 'b' has 15 elements but needs 5 (5, along j); "
                + "pass an array of 5 elements, row-major"), shortSequence.getMessage());
        KernelDefinitionException table = assertThrows(KernelDefinitionException.class, () ->
                kernel.invocation().sizes(3, 5).input("a", new int[3]).input("b", new int[5]).input("score", new int[15]).build());
        assertTrue(table.getMessage().startsWith("kernel 'pairs': table 'score' has 15 elements but needs 16 (4 x 4); "
                + "pass an array of 16 elements, row-major"), table.getMessage());
        KernelDefinitionException missing = assertThrows(KernelDefinitionException.class, () ->
                kernel.invocation().sizes(3, 5).input("a", new int[3]).input("b", new int[5]).build());
        assertTrue(missing.getMessage().startsWith("kernel 'pairs': table 'score' (int, 4 x 4) is missing; "
                + "pass it with .input(\"score\", array)"), missing.getMessage());
        KernelDefinitionException type = assertThrows(KernelDefinitionException.class, () ->
                kernel.invocation().sizes(3, 5).input("a", new int[3]).input("b", new int[5]).input("score", new long[16]).build());
        assertTrue(type.getMessage().startsWith("kernel 'pairs': table 'score' must be an int[] but got long[]; pass an int[]"),
                type.getMessage());
    }
}
