package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.LaneProfile;

import java.util.ArrayList;
import java.util.List;

/**
 * A row lookup's row of its query profile in one step of a persistent band ({@link CudaBandStep}): the checked index, and
 * for a wide profile ({@link LaneProfile#WIDE_LOAD} columns side by side) the 16-byte loads that hold every column's entry,
 * made once a step before the columns.
 *
 * @param wideLoads the int4 loads' names in column order; empty where each column loads its own element
 */
record CudaProfileRow(String profile, LaneProfile layout, int lanes, String index, List<String> wideLoads) {

    /** The row {@code index} of {@code layout}: for a wide profile, its loads written here. */
    static CudaProfileRow load(CudaBandContext cx, LaneProfile layout, String index) {
        int lanes = cx.mapping.laneColumns();
        List<String> names = new ArrayList<>();
        for (int group = 0; layout.columnsALoad() > 1 && group < lanes / layout.columnsALoad(); group++) {
            String name = cx.out.temporary("pq");
            cx.out.line("const int4 " + name + " = reinterpret_cast<const int4*>(" + cx.profile(layout) + ")[" + layout.load(index, lanes, group)
                    + "];   // my columns " + group * layout.columnsALoad() + " to " + ((group + 1) * layout.columnsALoad() - 1));
            names.add(name);
        }
        return new CudaProfileRow(cx.profile(layout), layout, lanes, index, List.copyOf(names));
    }

    /** My column {@code c}'s entry in this row. */
    String entry(int c) {
        return wideLoads.isEmpty() ? profile + "[" + layout.element(index, lanes, c) + "]"
                : wideLoads.get(c / layout.columnsALoad()) + "." + "xyzw".charAt(c % layout.columnsALoad());
    }
}
