// skew-probe.cu: a hand-written persistent band of needleman-wunsch-seq (smith-waterman-seq with -DFG_LOCAL) whose lanes'
// columns are skewed: lane l's column c computes row s - (W l + c) in step s, so the W columns of a step are
// independent (each reads its west neighbour's value of the step before) where the generated band computes one row a
// step, W columns in a dependent chain. The band's last column lags its first by 32 W - 1 steps instead of 31.
//
// Built with seq-driver.cu, which times it and prints the final score (Smith-Waterman: the best cell):
//   nvcc -O3 -arch=sm_90 -I. -DFG_W=8 -DFG_VARIANT=skew_probe bench/cuda/band-probe/seq-driver.cu \
//        bench/cuda/band-probe/skew-probe.cu -o skew8        (finegrain.cuh copied here, as for the other probes)
//
// A probe, not the generator's form: the sizes are fixed at 65536 (FG_N), the edge words of every row are kept (one
// lap, no ring and no free counter), the table is the driver's 24 x 24 (4 x 4 with FG_LOCAL).
#include "finegrain.cuh"

#ifndef FG_W
#define FG_W 8
#endif
#ifndef FG_N
#define FG_N 65536
#endif

namespace skew_probe {

constexpr int W = FG_W;               // columns a lane
constexpr int R = FG_N, C = FG_N;     // rows, columns
constexpr int BW = 32 * W;            // a band's columns
constexpr int BANDS = C / BW;
constexpr int SPAN = BW - 1;          // the band's last column lags its first by SPAN steps
constexpr int STEPS = R + SPAN;       // a band's steps
#ifdef FG_LOCAL
constexpr int T = 4;                  // the table's extent
#else
constexpr int T = 24;
#endif
constexpr long long KEPT = 64;        // the kept value (Smith-Waterman: best, then its cell)
constexpr long long TOKENS = 256;     // then one 64-bit word a row and band edge
constexpr long long SCRATCH = TOKENS + (long long) BANDS * R * 8;

static_assert(C % BW == 0, "the probe's bands are full");

template <bool CHECKED>
__device__ __forceinline__ void steps(int s0, int lane, int band, int j0, int penalty, const int* __restrict__ a,
                                      const int* prof, const int* edge, int wb, int (&h1)[W], int (&h2)[W], int (&x)[W],
                                      int& a_next, const int (&halo)[W], fg::u64* tokens, int* kept, int& best,
                                      long long& best_at) {
    #pragma unroll 8
    for (int k = 0; k < 32; k++) {
        const int s = s0 + k;
        const int i0 = s - lane * W;   // my column 0's row in this step
        // my column 0's row two steps on: its sequence value, loaded while this step and the next compute
        const int a_load = __ldg(&a[CHECKED ? min(max(i0 + 2, 0), R - 1) : min(i0 + 2, R - 1)]);
        const int w_up = __shfl_up_sync(0xffffffffu, h1[W - 1], 1);   // lane l-1's last column, a step back: my west
        const int d_up = __shfl_up_sync(0xffffffffu, h2[W - 1], 1);   // two steps back: my north-west
        const int e_w = edge[min(max(i0 - wb, 0), 32)];
        const int e_d = edge[min(max(i0 - 1 - wb, 0), 32)];
        const int west0 = lane == 0 ? e_w : w_up;
        const int diag0 = lane == 0 ? e_d : d_up;
        int o[W];
        #pragma unroll
        for (int c = 0; c < W; c++) {
            const int west = c == 0 ? west0 : h1[c - 1];
            const int diag = c == 0 ? diag0 : h2[c - 1];
            const int score = prof[x[c] + c * 32];
#ifdef FG_LOCAL
            const int v = __viaddmax_s32(west, -penalty, __viaddmax_s32(diag, score, max(h1[c] - penalty, 0)));
#else
            const int v = __viaddmax_s32(west, -penalty, __viaddmax_s32(diag, score, h1[c] - penalty));
#endif
            if (CHECKED) {
                const int i = i0 - c;
                o[c] = i < 0 ? halo[c] : v;
#ifdef FG_LOCAL
                const long long at = (long long) i * C + j0 + c;
                if (i >= 0 && i < R && (v > best || (v == best && at < best_at))) { best = v; best_at = at; }
#else
                if (i == R - 1 && j0 + c == C - 1) kept[0] = v;
#endif
            } else {
                o[c] = v;
#ifdef FG_LOCAL
                const long long at = (long long) (i0 - c) * C + j0 + c;   // cells meet in step order: a tie keeps the first in row-major order
                if (v > best || (v == best && at < best_at)) { best = v; best_at = at; }
#endif
            }
        }
        const int i_last = i0 - (W - 1);   // my last column's row
        fg::store_relaxed_gpu_if(lane == 31 && band < BANDS - 1 && (!CHECKED || (i_last >= 0 && i_last < R)),
                                 &tokens[(long long) band * R + i_last], (1ull << 32) | (unsigned) o[W - 1]);
        #pragma unroll
        for (int c = W - 1; c > 0; c--) x[c] = x[c - 1];
        x[0] = min(max(a_next, 0), T - 1) * (W * 32);   // my column 0's table row in the next step
        a_next = a_load;
        #pragma unroll
        for (int c = 0; c < W; c++) { h2[c] = h1[c]; h1[c] = o[c]; }
    }
}

__global__ void __launch_bounds__(32) bands(const int* __restrict__ a, const int* __restrict__ b, const int* frame,
                                            const int* table, int penalty, char* scratch) {
    __shared__ int s_prof[T * W * 32];   // [row of the table][column][lane]: a lane reads its own bank
    __shared__ int s_edge[33];
    fg::u64* const tokens = (fg::u64*) (scratch + TOKENS);
    int* const kept = (int*) (scratch + KEPT);
    const int lane = threadIdx.x;
    const int band = blockIdx.x;
    const int j0 = band * BW + lane * W;   // my first column
    for (int c = 0; c < W; c++) {
        const int t = min(max(b[j0 + c], 0), T - 1);
        for (int r = 0; r < T; r++) s_prof[(r * W + c) * 32 + lane] = table[r * T + t];
    }
    int halo[W], h1[W], h2[W], x[W];
    #pragma unroll
    for (int c = 0; c < W; c++) { halo[c] = frame[j0 + c + 1]; h1[c] = halo[c]; h2[c] = halo[c]; x[c] = 0; }
    x[0] = min(max(__ldg(&a[max(-lane * W, 0)]), 0), T - 1) * (W * 32);   // my column 0's table row in step 0
    int a_next = __ldg(&a[max(1 - lane * W, 0)]);                        // and its sequence value in step 1
    int best = -1;   // below every cell (Smith-Waterman's are at least 0): the first cell is taken
    long long best_at = -1;
    int carried = frame[band * BW];   // row -1 of the column left of the band
    __syncwarp();
    for (int s0 = 0; s0 < STEPS; s0 += 32) {
        // the window: the left band's edge for rows s0 - 1 to s0 + 31 (lane 0's column 0 reads them)
        const int wb = s0 - 1;
        __syncwarp();
        if (lane == 0) s_edge[0] = carried;
        const int row = s0 + lane;
        if (row < R) {
            if (band == 0) {
                s_edge[lane + 1] = frame[C + 1 + row];
            } else {
                fg::u64 word;
                do { word = fg::load_relaxed_gpu(&tokens[(long long) (band - 1) * R + row]); } while ((word >> 32) != 1);
                s_edge[lane + 1] = (int) (unsigned) word;
            }
        }
        __syncwarp();
        carried = s_edge[32];
        const bool steady = s0 - SPAN >= 0 && s0 + 31 < R;
        if (steady) steps<false>(s0, lane, band, j0, penalty, a, s_prof + lane, s_edge, wb, h1, h2, x, a_next, halo, tokens, kept, best, best_at);
        else steps<true>(s0, lane, band, j0, penalty, a, s_prof + lane, s_edge, wb, h1, h2, x, a_next, halo, tokens, kept, best, best_at);
    }
#ifdef FG_LOCAL
    // the band's best: the warp's, then the kernel's by a 64-bit atomic max over (score, -cell) packed
    for (int d = 16; d > 0; d >>= 1) {
        const int ob = __shfl_xor_sync(0xffffffffu, best, d);
        const long long oa = __shfl_xor_sync(0xffffffffu, best_at, d);
        if (oa >= 0 && (best_at < 0 || ob > best || (ob == best && oa < best_at))) { best = ob; best_at = oa; }
    }
    if (lane == 0 && best_at >= 0) {
        const unsigned long long packed = ((unsigned long long) (unsigned) best << 40) | (unsigned long long) ((1ll << 40) - 1 - best_at);
        atomicMax((unsigned long long*) (scratch + KEPT + 16), packed);
    }
#endif
}

#ifdef FG_LOCAL
__global__ void unpack(char* scratch) {
    const unsigned long long packed = *(unsigned long long*) (scratch + KEPT + 16);
    long long* out = (long long*) (scratch + KEPT);
    out[0] = (long long) (packed >> 40);
    out[1] = (1ll << 40) - 1 - (long long) (packed & ((1ull << 40) - 1));
}
#endif

}  // namespace skew_probe

extern "C" const FgInfo* fg_info_skew_probe() {
    static const FgOutput outputs[] = {
#ifdef FG_LOCAL
        {"h.max", 8, 0, 1, skew_probe::KEPT}, {"h.max", 8, 0, 1, skew_probe::KEPT},
#else
        {"score.kept", 4, 0, 1, skew_probe::KEPT},
#endif
    };
    static const FgField fields[] = {
        {"a", 4, 0, 2, {FG_N, 1, 1}, {0, 0, 0}, {FG_N, 1, 1}},
        {"b", 4, 0, 2, {1, FG_N, 1}, {0, 0, 0}, {1, FG_N, 1}},
#ifdef FG_LOCAL
        {"h", 4, 1, 2, {FG_N + 1, FG_N + 1, 1}, {1, 1, 0}, {FG_N, FG_N, 1}, 2 * FG_N + 1, 1},
#else
        {"score", 4, 1, 2, {FG_N + 1, FG_N + 1, 1}, {1, 1, 0}, {FG_N, FG_N, 1}, 2 * FG_N + 1, 1},
#endif
        {"table", 4, 0, 2, {skew_probe::T, skew_probe::T, 1}, {0, 0, 0}, {skew_probe::T, skew_probe::T, 1}},
    };
    static const FgInfo info = {"skew probe", "skewed lanes", 4, fields, 1, skew_probe::SCRATCH, 1, 32,
                                sizeof(outputs) / sizeof(outputs[0]), outputs};
    return &info;
}

extern "C" cudaError_t fg_run_skew_probe(void* const* buffers, const long long* params, void* scratch, cudaStream_t stream) {
    using namespace skew_probe;
    bands<<<BANDS, 32, 0, stream>>>((const int*) buffers[0], (const int*) buffers[1], (const int*) buffers[2],
                                    (const int*) buffers[3], (int) params[0], (char*) scratch);
#ifdef FG_LOCAL
    unpack<<<1, 1, 0, stream>>>((char*) scratch);
#endif
    return cudaGetLastError();
}
