package dev.finegrain.maven;

import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The goals name the property a missing parameter needs, where Maven's own message names the field only. */
class CliMojoTest {

    @Test
    void aMissingParameterIsNamedWithItsProperty() throws MojoFailureException {
        MojoFailureException missing = assertThrows(MojoFailureException.class,
                () -> CliMojo.require(null, "run", "finegrain.size", "the domain size, N or NxM"));
        assertEquals("finegrain:run needs the domain size, N or NxM: add -Dfinegrain.size=...", missing.getMessage());
        assertThrows(MojoFailureException.class, () -> CliMojo.require(" ", "compare", "finegrain.kernel", "the kernel"));
        CliMojo.require("512", "run", "finegrain.size", "the domain size, N or NxM");
    }
}
