import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

import java.util.Random;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Probe: Farrar's striped layout for a score-only Needleman-Wunsch with a linear gap and a 24 x 24 table, on one band of
 * columns per thread, the band edge handed to the next thread row by row. Measures G cells/s; checks against a scalar run.
 */
public final class StripedNwProbe {
    static final VectorSpecies<Integer> S = IntVector.SPECIES_PREFERRED;
    static final int K = S.length();
    static final int NEG = Integer.MIN_VALUE / 4;

    /** H[i][j] = max(H[i-1][j-1] + t[a_i][b_j], H[i-1][j] - g, H[i][j-1] - g); H[-1][j] = -(j+1) g, H[i][-1] = -(i+1) g. */
    static int scalar(byte[] a, byte[] b, int[][] t, int g) {
        int m = b.length;
        int[] prev = new int[m + 1];
        int[] cur = new int[m + 1];
        for (int j = 0; j <= m; j++) prev[j] = -j * g;
        for (int i = 1; i <= a.length; i++) {
            cur[0] = -i * g;
            int[] row = t[a[i - 1]];
            for (int j = 1; j <= m; j++) {
                cur[j] = Math.max(prev[j - 1] + row[b[j - 1]], Math.max(prev[j] - g, cur[j - 1] - g));
            }
            int[] x = prev; prev = cur; cur = x;
        }
        return prev[m];
    }

    /** One band: columns [j0, j0 + w) of the matrix, w a multiple of K. */
    static final class Band implements Runnable {
        final byte[] a; final int[][] t; final int g; final int j0; final int w; final int seg;
        final int[][] profile;   // [char][seg * K + lane]: t[c][b[j0 + lane * seg + s]]
        final int[] leftValues;
        final int[] myEdge;   // H[i][j0 + w - 1]
        final AtomicIntegerArray myProgress;   // element 0: rows published
        final AtomicIntegerArray leftProgress;
        int result;

        Band(byte[] a, byte[] b, int[][] t, int g, int j0, int w, int[] leftValues, AtomicIntegerArray leftProgress,
             int[] myEdge, AtomicIntegerArray myProgress) {
            this.a = a; this.t = t; this.g = g; this.j0 = j0; this.w = w; this.seg = w / K;
            this.leftValues = leftValues; this.leftProgress = leftProgress; this.myEdge = myEdge; this.myProgress = myProgress;
            profile = new int[24][w];
            for (int c = 0; c < 24; c++) {
                for (int l = 0; l < K; l++) {
                    for (int s = 0; s < seg; s++) {
                        profile[c][s * K + l] = t[c][b[j0 + l * seg + s]];
                    }
                }
            }
        }

        @Override
        public void run() {
            int[] hStore = new int[w];
            int[] hLoad = new int[w];
            // row -1: H[-1][j] = -(j+1) g, striped
            for (int l = 0; l < K; l++) for (int s = 0; s < seg; s++) hStore[s * K + l] = -(j0 + l * seg + s + 1) * g;
            int n = a.length;
            int diagLeft = -(j0) * g;   // H[-1][j0 - 1]
            if (j0 == 0) diagLeft = 0;
            int lastCol = seg - 1;
            for (int i = 0; i < n; i++) {
                int left;   // H[i][j0 - 1]
                if (leftValues == null) {
                    left = -(i + 1) * g;
                } else {
                    while (leftProgress.get(0) <= i) Thread.onSpinWait();
                    left = leftValues[i];
                }
                row(profile[a[i]], hStore, hLoad, diagLeft, left);
                diagLeft = left;
                int[] x = hStore; hStore = hLoad; hLoad = x;
                if (myEdge != null) {
                    myEdge[i] = hStore[lastCol * K + K - 1];
                    myProgress.lazySet(0, i + 1);
                }
            }
            result = hStore[lastCol * K + K - 1];
        }

        private static final VectorShuffle<Integer> UP = VectorShuffle.iota(S, -1, 1, true);
        private static final VectorMask<Integer> LANE0 = VectorMask.fromLong(S, 1L);

        private void row(int[] prof, int[] hStore, int[] hLoad, int diagLeft, int left) {
            IntVector vg = IntVector.broadcast(S, g);
            IntVector vNeg = IntVector.broadcast(S, NEG);
            int lastCol = seg - 1;
                // diag for seg 0: lane l takes H[i-1][last seg of lane l - 1]; lane 0 takes H[i-1][j0 - 1]
            IntVector vDiag = IntVector.fromArray(S, hStore, lastCol * K).rearrange(UP).blend(diagLeft, LANE0);
            IntVector vF = vNeg.blend(left - g, LANE0);
            for (int s = 0; s < seg; s++) {
                IntVector vUp = IntVector.fromArray(S, hStore, s * K);
                IntVector vH = vDiag.add(IntVector.fromArray(S, prof, s * K)).max(vUp.sub(vg)).max(vF);
                vH.intoArray(hLoad, s * K);
                vF = vH.sub(vg);
                vDiag = vUp;
            }
            // lazy F (Farrar): carry each lane's last west term into the next lane's first segment, on through the row
            // until it changes nothing: a segment where no lane's carried term beats its value ends the correction
            for (int pass = 0; pass < K; pass++) {
                vF = vF.rearrange(UP).blend(NEG, LANE0);
                int s = 0;
                for (; s < seg; s++) {
                    IntVector vH = IntVector.fromArray(S, hLoad, s * K);
                    if (!vF.compare(VectorOperators.GT, vH).anyTrue()) {
                        break;
                    }
                    vH = vH.max(vF);
                    vH.intoArray(hLoad, s * K);
                    vF = vH.sub(vg);
                }
                if (s < seg) {
                    break;
                }
            }
        }
    }

    static int striped(byte[] a, byte[] b, int[][] t, int g, int bands) throws InterruptedException {
        int m = b.length;
        int w = m / bands;
        Band[] all = new Band[bands];
        int[] prevEdge = null;
        AtomicIntegerArray prevProgress = null;
        for (int k = 0; k < bands; k++) {
            int[] edge = k < bands - 1 ? new int[a.length] : null;
            AtomicIntegerArray progress = new AtomicIntegerArray(1);
            all[k] = new Band(a, b, t, g, k * w, w, prevEdge, prevProgress, edge, progress);
            prevEdge = edge;
            prevProgress = progress;
        }
        Thread[] threads = new Thread[bands];
        for (int k = 0; k < bands; k++) { threads[k] = new Thread(all[k]); threads[k].start(); }
        for (Thread th : threads) th.join();
        return all[bands - 1].result;
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int bands = Integer.parseInt(args[1]);
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Random r = new Random(42);
        int[][] t = new int[24][24];
        for (int x = 0; x < 24; x++) for (int y = 0; y < 24; y++) t[x][y] = dev.finegrain.samples.Blosum62.score(x, y);
        byte[] a = new byte[n], b = new byte[n];
        for (int i = 0; i < n; i++) { a[i] = (byte) r.nextInt(24); b[i] = (byte) r.nextInt(24); }
        int g = 10;
        if (n <= 8192) {
            int want = scalar(a, b, t, g);
            int got = striped(a, b, t, g, bands);
            System.out.println("check n=" + n + " scalar " + want + " striped " + got + (want == got ? " OK" : " WRONG"));
        }
        for (int rep = 0; rep < reps; rep++) {
            long t0 = System.nanoTime();
            int score = striped(a, b, t, g, bands);
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf("n=%d bands=%d K=%d %.3f s %.2f G cells/s score %d%n", n, bands, K, s, (double) n * n / s / 1e9, score);
        }
    }
}
