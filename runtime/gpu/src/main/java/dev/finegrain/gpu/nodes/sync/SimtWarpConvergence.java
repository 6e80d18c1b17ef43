package dev.finegrain.gpu.nodes.sync;

import com.oracle.truffle.api.CompilerDirectives.TruffleBoundary;
import dev.finegrain.gpu.isa.SimtOpcode;
import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.runtime.SimtDivergence;
import dev.finegrain.gpu.runtime.SimtWarp;

/**
 * What the warp-collective instructions (SHFL, WARPSYNC) need: every live lane of the warp at the instruction at once,
 * as {@code shfl.sync} and {@code __syncwarp} with the full mask do. Under independent thread scheduling a group that
 * lacks lanes waits for them (the warp issues nothing for it until they come), unless every missing lane waits at
 * another warp-collective instruction, where none of them ever comes; under Fermi's stack the lanes of other paths
 * cannot come before this path reconverges. Both are faults of the program.
 */
final class SimtWarpConvergence {

    private SimtWarpConvergence() {}

    /** 0 when the group holds every live lane; else the cycles before the warp tries again (lanes are coming). */
    static int waitCycles(SimtWarp warp, String instruction) {
        SimtDivergence divergence = warp.divergence();
        int missing = divergence.alive() & ~divergence.groupMask();
        if (missing == 0) {
            return 0;
        }
        return behind(warp, missing, instruction);
    }

    @TruffleBoundary
    private static int behind(SimtWarp warp, int missing, String instruction) {
        // the missing lanes never come when every one of them waits at another warp-collective instruction
        boolean elsewhere = true;
        for (int lanes = missing; lanes != 0; lanes &= lanes - 1) {
            int pc = warp.divergence().pcOf(Integer.numberOfTrailingZeros(lanes));
            elsewhere &= pc < warp.machine().program().size() && collective(warp.machine().program().instruction(pc).opcode());
        }
        if (elsewhere || !warp.divergence().waitForOthers()) {
            throw new SimUserException(instruction + ": lanes " + Integer.toBinaryString(missing) + " (a mask) of block "
                    + warp.block().id() + " warp " + warp.index() + " are elsewhere; a warp shuffle or warp sync needs"
                    + " every live lane of the warp at the same instruction");
        }
        warp.machine().notIssued(warp);
        return 1;
    }

    private static boolean collective(SimtOpcode opcode) {
        return opcode == SimtOpcode.SHFL_UP || opcode == SimtOpcode.SHFL_IDX || opcode == SimtOpcode.WARPSYNC;
    }
}
