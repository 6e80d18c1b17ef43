// Java's streaming bound for docs/performance.md: b[i] = a[i] + 1 over 256 MiB int arrays in 16-int vectors, counted as
// 8 bytes per element as docs/measure/bounds.c counts it, on one thread and on two (each on its half), best of 10.
// Run: java --add-modules jdk.incubator.vector docs/measure/JavaStreaming.java
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;

public class JavaStreaming {
    static final VectorSpecies<Integer> S = IntVector.SPECIES_PREFERRED;

    static void copy(int[] a, int[] b, int from, int to) {
        for (int i = from; i < to; i += S.length()) {
            IntVector.fromArray(S, a, i).add(1).intoArray(b, i);
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int n = 1 << 26;
        int[] a = new int[n];
        int[] b = new int[n];
        for (int threads = 1; threads <= 2; threads++) {
            long best = Long.MAX_VALUE;
            for (int rep = 0; rep < 30; rep++) {
                Thread[] workers = new Thread[threads];
                long start = System.nanoTime();
                for (int t = 0; t < threads; t++) {
                    int from = t * (n / threads);
                    int to = from + n / threads;
                    workers[t] = new Thread(() -> copy(a, b, from, to));
                    workers[t].start();
                }
                for (Thread worker : workers) {
                    worker.join();
                }
                long time = System.nanoTime() - start;
                if (rep >= 20) {
                    best = Math.min(best, time);
                }
            }
            System.out.printf("%d thread(s): %.1f GB/s, %.2f G elements/s%n", threads, 8.0 * n / best, (double) n / best);
        }
    }
}
