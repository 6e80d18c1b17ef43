package dev.finegrain.maven;

import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The goals name the property a missing parameter needs, where Maven's own message names the field only. */
class CliMojoTest {

    @Test
    void runNamesTheKernelThenTheSize() throws MojoFailureException {
        RunMojo run = new RunMojo(null);
        assertEquals("finegrain:run needs the kernel, by its library's name: add -Dfinegrain.kernel=...",
                assertThrows(MojoFailureException.class, run::requireParameters).getMessage());
        run.kernel = "needleman-wunsch";
        assertEquals("finegrain:run needs the domain size, N or NxM: add -Dfinegrain.size=...",
                assertThrows(MojoFailureException.class, run::requireParameters).getMessage());
    }

    @Test
    void compareNeedsOnlyTheKernel() throws MojoFailureException {
        CompareMojo compare = new CompareMojo(null);
        compare.kernel = " ";
        assertEquals("finegrain:compare needs the kernel, by its library's name: add -Dfinegrain.kernel=...",
                assertThrows(MojoFailureException.class, compare::requireParameters).getMessage());
        compare.kernel = "needleman-wunsch";
        compare.requireParameters();
    }

    @Test
    void forksAskForHugePagesOnlyWhereLinuxLendsThem() {
        assertEquals(List.of("-XX:+UseTransparentHugePages"), ForkedJava.hugePageOptions("always [madvise] never\n"));
        assertEquals(List.of("-XX:+UseTransparentHugePages"), ForkedJava.hugePageOptions("[always] madvise never\n"));
        assertEquals(List.of(), ForkedJava.hugePageOptions("always madvise [never]\n"));
    }
}
