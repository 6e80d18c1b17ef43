package dev.finegrain.compiler.backend.gpu;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PluralTest {

    @Test
    void oneTakesTheNounAsItIsEveryOtherCountItsPlural() {
        assertEquals("1 launch", Plural.of(1, "launch"));
        assertEquals("3 launches", Plural.of(3, "launch"));
        assertEquals("0 warps", Plural.of(0, "warp"));
        assertEquals("1 warp", Plural.of(1, "warp"));
        assertEquals("2 passes", Plural.of(2, "pass"));
        assertEquals("4 boxes", Plural.of(4, "box"));
    }
}
