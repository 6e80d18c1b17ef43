package dev.finegrain.gpu.nodes;

import com.oracle.truffle.api.CallTarget;
import dev.finegrain.gpu.SimtLanguage;
import dev.finegrain.gpu.isa.SimtProgram;
import dev.finegrain.gpu.parser.SimtParser;
import dev.finegrain.gpu.runtime.SimtProfile;
import org.graalvm.polyglot.Context;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Kernels that hold the same instruction share its call target, and only then. */
class SimtInstructionTargetsTest {

    /** A loop whose bound is a size, as the compiler emits it: only the ISETP that holds the bound differs. */
    private static SimtProgram loop(int bound) {
        return SimtParser.parse("loop.sass", """
                /*0000*/ S2R R0, SR_TID.X;
                /*0008*/ IADD R0, R0, 0x1;
                /*0010*/ ISETP.LT.AND P0, PT, R0, %s, PT;
                /*0018*/ @P0 BRA 0x8;
                /*0020*/ EXIT;
                """.formatted("0x" + Integer.toHexString(bound)));
    }

    private static SimtProgram branch(String fallThrough) {
        return SimtParser.parse("branch.sass", """
                /*0000*/ S2R R0, SR_TID.X;
                /*0008*/ @P0 BRA 0x18;
                /*0010*/ %s;
                /*0018*/ NOP;
                /*0020*/ EXIT;
                """.formatted(fallThrough));
    }

    @Test
    void programsThatDifferInOneImmediateShareEveryOtherInstruction() {
        try (Context context = Context.newBuilder(SimtLanguage.ID).build()) {
            context.initialize(SimtLanguage.ID);
            context.enter();
            try {
                SimtInstructionTargets targets = SimtLanguage.get().instructionTargets();
                SimtProfile fermi = SimtProfile.load("fermi-gtx570");
                CallTarget[] small = targets.of(loop(16), fermi);
                CallTarget[] large = targets.of(loop(4096), fermi);
                for (int i : new int[] {0, 1, 3, 4, 5}) {
                    assertSame(small[i], large[i], "instruction " + i + " is the same in both programs");
                }
                assertNotSame(small[2], large[2], "the ISETP holds a different bound");
                CallTarget[] otherProfile = targets.of(loop(16), SimtProfile.load("hopper-h200"));
                assertNotSame(small[1], otherProfile[1], "a node holds its profile's latencies as constants");

                // the same branch text, but the lanes that fall through exit in one program and go on in the other
                CallTarget[] joining = targets.of(branch("NOP"), fermi);
                CallTarget[] exiting = targets.of(branch("EXIT"), fermi);
                assertSame(joining[0], exiting[0]);
                assertNotSame(joining[1], exiting[1], "the branch reconverges at 0x18 in one program and at the end in the other");
            } finally {
                context.leave();
            }
        }
    }
}
