package dev.finegrain.runtime.jvm;

/**
 * The bounds check of a lookup-table read in generated code: {@link #check} returns the index when it lies on the axis
 * and otherwise throws, naming the table by its number and the axis, so that the backend can say which table, which
 * index and which value in its own words. A flat row-major index could stay inside the array with one axis out of
 * range (index 30 of a 24 x 24 table's second axis lands in the next row), so each axis is checked on its own.
 */
public final class TableIndex {

    private TableIndex() {}

    public static int check(int value, int extent, int table, int axis) {
        if (value < 0 || value >= extent) {
            throw new OutOfRange(table, axis, value, extent);
        }
        return value;
    }

    /** A lookup index outside its axis: which table (its number in the kernel), which axis, the value, the extent. */
    public static final class OutOfRange extends RuntimeException {
        private final int table;
        private final int axis;
        private final int value;
        private final int extent;

        OutOfRange(int table, int axis, int value, int extent) {
            super("table " + table + " axis " + axis + ": index " + value + " outside 0.." + (extent - 1), null, false, false);
            this.table = table;
            this.axis = axis;
            this.value = value;
            this.extent = extent;
        }

        public int table() { return table; }

        public int axis() { return axis; }

        public int value() { return value; }

        public int extent() { return extent; }
    }
}
