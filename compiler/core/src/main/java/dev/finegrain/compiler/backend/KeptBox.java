package dev.finegrain.compiler.backend;

import dev.finegrain.compiler.plan.Domain;
import dev.finegrain.dsl.Keep;

import java.lang.reflect.Array;

/**
 * The box of the domain a {@link Keep} keeps at given sizes: {@code extents} long from {@code first}. The one place
 * that maps between a point of the domain and its place among the kept values (row-major over the box).
 */
public record KeptBox(int[] sizes, int[] extents, int[] first) {

    public static KeptBox of(Keep keep, int[] sizes) {
        return new KeptBox(sizes.clone(), keep.extents(sizes), keep.first(sizes));
    }

    /** The number of kept points. */
    public int points() {
        return new Domain(extents).points();
    }

    /** The index of {@code point} among the kept values, or -1 outside the box. */
    public int indexOf(int[] point) {
        int index = 0;
        for (int d = 0; d < sizes.length; d++) {
            int c = point[d] - first[d];
            if (c < 0) {
                return -1;
            }
            index = index * extents[d] + c;
        }
        return index;
    }

    /** The domain coordinates of kept value {@code index}, into {@code point}. */
    public void pointOf(int index, int[] point) {
        for (int d = extents.length - 1; d >= 0; d--) {
            point[d] = first[d] + index % extents[d];
            index /= extents[d];
        }
    }

    /** The kept values of {@code whole} (row-major over the domain): a new array, or {@code whole} when the box is all of it. */
    public Object cut(Object whole) {
        if (java.util.Arrays.equals(extents, sizes)) {
            return whole;
        }
        int points = points();
        Object out = Array.newInstance(whole.getClass().getComponentType(), points);
        Domain domain = new Domain(sizes);
        int[] point = new int[sizes.length];
        for (int k = 0; k < points; k++) {
            pointOf(k, point);
            System.arraycopy(whole, domain.linear(point), out, k, 1);
        }
        return out;
    }
}
