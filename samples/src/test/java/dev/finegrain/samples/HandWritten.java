package dev.finegrain.samples;

/**
 * Plain Java versions of the samples, written the way one would without Finegrain (Rodinia's loop for NW, an
 * in-place sweep for Gauss-Seidel), to check the DSL's semantics against. Each returns the state field over
 * the domain, row-major.
 */
final class HandWritten {

    private HandWritten() {}

    /** Rodinia needle: an (n+1)x(m+1) matrix whose first row and column hold -k*penalty. */
    static int[] needlemanWunsch(int[] reference, int rows, int cols, int penalty) {
        int width = cols + 1;
        int[] matrix = new int[(rows + 1) * width];
        for (int i = 1; i <= rows; i++) {
            matrix[i * width] = -i * penalty;
        }
        for (int j = 1; j <= cols; j++) {
            matrix[j] = -j * penalty;
        }
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= cols; j++) {
                int diagonal = matrix[(i - 1) * width + j - 1] + reference[(i - 1) * cols + j - 1];
                int north = matrix[(i - 1) * width + j] - penalty;
                int west = matrix[i * width + j - 1] - penalty;
                matrix[i * width + j] = Math.max(diagonal, Math.max(north, west));
            }
        }
        return interior(matrix, rows, cols);
    }

    static int[] smithWaterman(int[] similarity, int rows, int cols, int gap) {
        int width = cols + 1;
        int[] h = new int[(rows + 1) * width];
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= cols; j++) {
                int best = Math.max(0, h[(i - 1) * width + j - 1] + similarity[(i - 1) * cols + j - 1]);
                best = Math.max(best, h[(i - 1) * width + j] - gap);
                h[i * width + j] = Math.max(best, h[i * width + j - 1] - gap);
            }
        }
        return interior(h, rows, cols);
    }

    static int[] longestCommonSubsequence(int[] same, int rows, int cols) {
        int width = cols + 1;
        int[] length = new int[(rows + 1) * width];
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= cols; j++) {
                length[i * width + j] = same[(i - 1) * cols + j - 1] == 1
                        ? length[(i - 1) * width + j - 1] + 1
                        : Math.max(length[(i - 1) * width + j], length[i * width + j - 1]);
            }
        }
        return interior(length, rows, cols);
    }

    /** Seed 001 Listing 10 with A[0..31] = 32..1 and f(i) = work rounds of x*1664525 + 1013904223 from i. */
    static int[] chain(int n, int work) {
        int distance = 32;
        int[] a = new int[n + distance];
        for (int k = 0; k < distance; k++) {
            a[k] = distance - k;
        }
        for (int i = 0; i < n; i++) {
            int f = i;
            for (int round = 0; round < work; round++) {
                f = f * 1664525 + 1013904223;
            }
            a[i + distance] = a[i] + f;
        }
        return java.util.Arrays.copyOfRange(a, distance, n + distance);
    }

    static double[] efficiencyLoop(double[] b, int work, double decay) {
        double[] a = new double[b.length];
        double previous = 0.0;
        for (int i = 0; i < b.length; i++) {
            double temp = 0.0;
            for (int round = 0; round < work; round++) {
                temp = temp * decay + b[i];
            }
            a[i] = previous + temp;
            previous = a[i];
        }
        return a;
    }

    /** One in-place sweep over the padded grid. */
    static double[] gaussSeidel(double[] paddedGrid, int rows, int cols) {
        int width = cols + 2;
        double[] g = paddedGrid.clone();
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= cols; j++) {
                g[i * width + j] = (g[(i - 1) * width + j] + g[i * width + j - 1] + g[(i + 1) * width + j] + g[i * width + j + 1]) * 0.25;
            }
        }
        double[] out = new double[rows * cols];
        for (int i = 0; i < rows; i++) {
            System.arraycopy(g, (i + 1) * width + 1, out, i * cols, cols);
        }
        return out;
    }

    static double[] livermore5(double[] y, double[] z, double x0) {
        double[] x = new double[y.length];
        double previous = x0;
        for (int i = 0; i < y.length; i++) {
            x[i] = z[i] * (y[i] - previous);
            previous = x[i];
        }
        return x;
    }

    private static int[] interior(int[] matrix, int rows, int cols) {
        int[] out = new int[rows * cols];
        for (int i = 0; i < rows; i++) {
            System.arraycopy(matrix, (i + 1) * (cols + 1) + 1, out, i * cols, cols);
        }
        return out;
    }
}
