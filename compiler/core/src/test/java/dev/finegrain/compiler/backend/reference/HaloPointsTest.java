package dev.finegrain.compiler.backend.reference;

import dev.finegrain.compiler.plan.Domain;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HaloPointsTest {

    @Test
    void visitsExactlyThePaddedPointsOutsideTheDomainInStorageOrder() {
        int[][][] shapes = {
                {{5}, {1}, {2}},
                {{4}, {0}, {0}},
                {{3, 4}, {1, 1}, {0, 0}},
                {{3, 4}, {0, 2}, {1, 0}},
                {{2, 3, 4}, {1, 0, 2}, {0, 1, 1}},
                {{1, 1}, {2, 2}, {2, 2}},
        };
        for (int[][] shape : shapes) {
            assertEquals(everyPaddedPointOutside(shape[0], shape[1], shape[2]), walked(shape[0], shape[1], shape[2]),
                    "sizes " + Arrays.toString(shape[0]) + " low " + Arrays.toString(shape[1]) + " high " + Arrays.toString(shape[2]));
        }
    }

    private static List<String> walked(int[] sizes, int[] low, int[] high) {
        List<String> visits = new ArrayList<>();
        HaloPoints.forEach(sizes, low, high, (index, point) -> visits.add(index + "@" + Arrays.toString(point)));
        return visits;
    }

    private static List<String> everyPaddedPointOutside(int[] sizes, int[] low, int[] high) {
        int[] extents = new int[sizes.length];
        for (int d = 0; d < sizes.length; d++) {
            extents[d] = sizes[d] + low[d] + high[d];
        }
        Domain padded = new Domain(extents);
        Domain domain = new Domain(sizes);
        List<String> visits = new ArrayList<>();
        int[] point = new int[sizes.length];
        for (int index = 0; index < padded.points(); index++) {
            padded.coordinates(index, point);
            for (int d = 0; d < sizes.length; d++) {
                point[d] -= low[d];
            }
            if (!domain.contains(point)) {
                visits.add(index + "@" + Arrays.toString(point));
            }
        }
        return visits;
    }
}
