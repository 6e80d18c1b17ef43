package dev.finegrain.gpu;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The build runs the tests with the Graal JIT flags (see pom.xml): then Truffle must have picked the optimizing
 * runtime, or the flags and jars have drifted apart (a compiler newer than the JDK update, a missing jar).
 */
class TruffleRuntimeTest {

    @Test
    void theGraalJitIsActiveWhenTheJvmWasStartedWithJvmci() {
        boolean jvmciRequested = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(argument -> argument.equals("-XX:+EnableJVMCI"));
        assertTrue(!jvmciRequested || SimtSimulator.isJitAvailable(),
                "JVMCI flags given, but Truffle runs " + com.oracle.truffle.api.Truffle.getRuntime().getName());
    }
}
