package dev.finegrain.compiler.backend.gpu;

/**
 * How a 3D wavefront deals the points of a step to threads. Step s holds the points p with h.p = s for a hyperplane h
 * of 0s and 1s (i + j + k = s when every dimension carries a dependence). The last dimension with h = 1 is derived
 * from the other two, which span a box of candidates: {@code rows(s)} rows of the row dimension (clipped to the step
 * where h = 1 there) by every column of the column dimension. Candidate c is the point (row low(s) + c / columns,
 * column c % columns) with the derived coordinate s minus the others on the plane; a candidate whose derived
 * coordinate falls outside the domain computes nothing. A fixed column count keeps the candidate's split a division
 * by a constant, so threads step through their candidates with additions only.
 */
public record WavefrontPlanes(int[] sizes, int[] hyperplane) {

    /** Whether the GPU wavefront steps along this 3D hyperplane: components 0 or 1, not all 0. */
    public static boolean steps(int[] hyperplane) {
        boolean any = false;
        for (int h : hyperplane) {
            if (h != 0 && h != 1) {
                return false;
            }
            any |= h == 1;
        }
        return any;
    }

    /** The dimension whose coordinate a step derives from the other two: the last on the plane. */
    public int derived() {
        return hyperplane[2] == 1 ? 2 : hyperplane[1] == 1 ? 1 : 0;
    }

    public int rowDimension() {
        return derived() == 0 ? 1 : 0;
    }

    public int columnDimension() {
        return derived() == 2 ? 1 : 2;
    }

    public boolean onPlane(int dimension) {
        return hyperplane[dimension] == 1;
    }

    /** How far the plane reaches past the row coordinate: a step's first row is max(0, s - rowReach) when on the plane. */
    public int rowReach() {
        int reach = 0;
        for (int d = 0; d < 3; d++) {
            if (d != rowDimension() && onPlane(d)) {
                reach += sizes[d] - 1;
            }
        }
        return reach;
    }

    public int columns() {
        return sizes[columnDimension()];
    }

    public int steps() {
        int last = 0;
        for (int d = 0; d < 3; d++) {
            last += onPlane(d) ? sizes[d] - 1 : 0;
        }
        return last + 1;
    }

    public int rowLow(int step) {
        return onPlane(rowDimension()) ? Math.max(0, step - rowReach()) : 0;
    }

    public int rowHigh(int step) {
        int last = sizes[rowDimension()] - 1;
        return onPlane(rowDimension()) ? Math.min(last, step) : last;
    }

    /** Candidates of step {@code step}: its rows of the box, every column. */
    public int candidatesAt(int step) {
        return (rowHigh(step) - rowLow(step) + 1) * columns();
    }

    /** Candidates of the widest step. */
    public int widest() {
        int widest = 0;
        for (int step = 0; step < steps(); step++) {
            widest = Math.max(widest, candidatesAt(step));
        }
        return widest;
    }

    private static final String[] NAMES = {"i", "j", "k"};

    /** The step's candidates in words, for the mapping's printout. */
    public String describe() {
        String row = NAMES[rowDimension()];
        String column = NAMES[columnDimension()];
        return "candidate c of step s is " + row + " = " + (onPlane(rowDimension()) ? "max(0, s - " + rowReach() + ") + "
                : "") + "c / " + columns() + ", " + column + " = c % " + columns() + ", " + NAMES[derived()] + " = s"
                + (onPlane(rowDimension()) ? " - " + row : "") + (onPlane(columnDimension()) ? " - " + column : "")
                + " (skipped unless 0 <= " + NAMES[derived()] + " < " + sizes[derived()] + ")";
    }
}
