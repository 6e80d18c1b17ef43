package dev.finegrain.gpu;

import dev.finegrain.gpu.isa.SimtOpcode;
import dev.finegrain.gpu.isa.SimtOperand;
import dev.finegrain.gpu.isa.SimtProgram;
import dev.finegrain.gpu.parser.SimtParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seed 001's listings, copied verbatim from the paper's text, parse as printed. */
class SeedListingsTest {

    private static final Path LISTINGS = Path.of("src/test/resources/dev/finegrain/gpu/listings");

    private static SimtProgram listing(String name) {
        try {
            return SimtParser.parse(name, Files.readString(LISTINGS.resolve(name), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0} has {1} instructions")
    @CsvSource({"listing01.sass, 4", "listing03.sass, 12", "listing04.sass, 4", "listing06.sass, 5",
        "listing08.sass, 4", "listing09.sass, 7", "listing15.sass, 17"})
    void parsesAsPrinted(String name, int instructions) {
        assertEquals(instructions, listing(name).size());
    }

    @Test
    void listing1BranchesBackToTheLdslkByAddress() {
        SimtProgram program = listing("listing01.sass");
        SimtOperand.Target target = (SimtOperand.Target) program.instruction(3).operand(0);
        assertEquals(0, target.instructionIndex());
        assertTrue(program.instruction(3).guard().negated());
    }

    @Test
    void listing3ReadsTheSyncModifierAndTheNegatedSelectPredicate() {
        SimtProgram program = listing("listing03.sass");
        assertTrue(program.instruction(6).has(SimtOpcode.SYNC_MODIFIER));
        assertTrue(((SimtOperand.Predicate) program.instruction(3).operand(3)).negated());
    }

    @Test
    void listing15ReadsNegativeOffsetsAndANegatedSource() {
        SimtProgram program = listing("listing15.sass");
        assertEquals(-0x84, ((SimtOperand.Address) program.instruction(8).operand(1)).offset());
        assertTrue(((SimtOperand.Register) program.instruction(12).operand(2)).negated());
    }

    @Test
    void listing13AsPrintedStopsAtItsFirstPseudoOperand() {
        SimUserException error = assertThrows(SimUserException.class, () -> listing("listing13.sass"));
        assertEquals("listing13.sass:1:23: expected an address ([Rn], [Rn+imm], [Rn+-imm] or [imm]), found '('",
                error.getMessage());
    }
}
