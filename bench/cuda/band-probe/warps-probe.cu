// warps-probe.cu: a hand-written full-matrix Needleman-Wunsch (needleman-wunsch's recurrence, penalty 10, the halo
// row and column -10 a step, a random reference in [-10, 10]) on persistent bands of W warps, to price bands wider
// than a warp before the generator makes them. Warp w of block b owns the 32 C columns from (W b + w) 32 C; lane l
// computes row s - l of its C columns side by side in step s (the generated lock-dataflow:persistent form). What
// crosses a warp's left edge is the left warp's last column:
//   - inside a block, from warp w - 1 through a ring of RING rows in shared memory, published by a counter of ready
//     rows every K steps (release / acquire at block scope) and freed by a counter the reader publishes every K steps;
//   - between blocks, warp 0 of block b waits for block b - 1's last warp, whose lane 31 stores each row's value as a
//     64-bit word with the launch's tag beside it (tiny-lock, one predicated store, no fence); warp 0 copies K rows at
//     a time (a lane a row) into its own ring before stepping through them.
// So only a block's first warp waits on global memory, and a block's W warps sit on different schedulers of one SM.
// The probe has no helper warps: each lane loads its reference cells D steps ahead into registers and stores its own
// cells directly (C ints at once, int2 / int4), 32 rows a store, not staged as coalesced rows.
// Every cell of the score matrix is checked against a CPU Needleman-Wunsch; the time is the median of 9 cooperative
// launches after 3 (CUDA events). Built and run with
//   nvcc -O3 -arch=sm_90 -I compiler/gpu/src/main/resources/dev/finegrain/compiler/cuda \
//     bench/cuda/band-probe/warps-probe.cu -o warps && ./warps 16384 16384
// (rows, columns; columns a multiple of 32 C W for a configuration to run).
#include "finegrain.cuh"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

using fg::u64;

constexpr int G = 10;              // the gap penalty of the sample
constexpr int RING = 256;          // rows of a warp's edge ring in shared memory: a power of two of at least 2 K
constexpr int D = 8;               // steps a lane loads its reference cells ahead (K a multiple of it)
constexpr unsigned long long TIMEOUT_NS = 2000000000ull;   // a wait this long ends the run with an error, not a hang

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

// A wait's bookkeeping: every 64 polls it gives up if another wait already failed (the error word is set), or sets
// the error word and gives up once TIMEOUT_NS has passed since its first check.
struct Spin {
    unsigned long long start = 0;
    unsigned polls = 0;
    __device__ bool give_up(int* error, int code) {
        if ((++polls & 63u) != 0) return false;
        if (*(volatile int*) error != 0) return true;
        unsigned long long t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (start == 0) start = t;
        else if (t - start > TIMEOUT_NS) { atomicCAS(error, 0, code); return true; }
        return false;
    }
};

// C adjacent ints in one load or store (C ints aligned: the matrices' rows are padded so that they are)
template <int C> __device__ __forceinline__ void load_cells(const int* p, int (&v)[C]) {
    if constexpr (C == 4) { const int4 x = __ldg((const int4*) p); v[0] = x.x; v[1] = x.y; v[2] = x.z; v[3] = x.w; }
    else if constexpr (C == 2) { const int2 x = __ldg((const int2*) p); v[0] = x.x; v[1] = x.y; }
    else { static_assert(C == 1, "C is 1, 2 or 4"); v[0] = __ldg(p); }
}
template <int C> __device__ __forceinline__ void store_cells(int* p, const int (&v)[C]) {
    if constexpr (C == 4) *(int4*) p = make_int4(v[0], v[1], v[2], v[3]);
    else if constexpr (C == 2) *(int2*) p = make_int2(v[0], v[1]);
    else p[0] = v[0];
}

// The state a lane carries from step to step.
template <int C> struct Lane {
    int H[C];        // my columns in the row I computed last (before my first row: the halo row)
    int prev;        // my last column in the row before that, which lane l + 1 reads as its diagonal
    int eprev;       // lane 0: the left edge in the row before this step's, the diagonal
    int pre[D][C];   // my reference cells for steps s .. s + D - 1, slot s mod D
};

// Step s of a lane. CHECK: some lane's row may lie outside [0, n); such a lane only shuffles and loads ahead.
// Score cell (i, j) of the interior lives at score[(i + 1) P + 4 + j]: row I of the (n+1) x (m+1) matrix starts at
// I P + 3, so that column J = 1 is 16-byte aligned.
template <int C, int W, bool CHECK>
__device__ __forceinline__ void step(int s, int slot, int lane, int j0, int n, int m, long long P, const int* ref,
                                     int* score, const int* in, int* out, bool to_ring, bool to_global, u64* edge_out,
                                     unsigned epoch, Lane<C>& st) {
    const int i = s - lane;
    int west = __shfl_up_sync(0xffffffffu, st.H[C - 1], 1);   // lane l - 1's last column, row i
    int diag = __shfl_up_sync(0xffffffffu, st.prev, 1);        // and row i - 1
    const int e = in[s & (RING - 1)];    // the left edge in row s, lane 0's row (one broadcast load for the warp)
    west = lane == 0 ? e : west;
    diag = lane == 0 ? st.eprev : diag;
    st.eprev = e;
    int r[C];
#pragma unroll
    for (int c = 0; c < C; c++) r[c] = st.pre[slot][c];
    load_cells<C>(ref + (long long) min(max(i + D, 0), n - 1) * m + j0, st.pre[slot]);   // row i + D, D steps ahead
    if (CHECK && (unsigned) i >= (unsigned) n) return;
    int v[C];
#pragma unroll
    for (int c = 0; c < C; c++) {
        const int up = st.H[c];
        v[c] = __viaddmax_s32(west, -G, __viaddmax_s32(diag, r[c], up - G));   // max(diag + ref, up - g, west - g)
        diag = up;
        west = v[c];
    }
    st.prev = st.H[C - 1];
#pragma unroll
    for (int c = 0; c < C; c++) st.H[c] = v[c];
    store_cells<C>(score + (i + 1) * P + 4 + j0, v);
    if (W > 1 && to_ring && lane == 31) out[i & (RING - 1)] = v[C - 1];   // warp w + 1's edge, in shared memory
    fg::store_relaxed_gpu_if(to_global && lane == 31, edge_out + i, ((u64) epoch << 32) | (unsigned) v[C - 1]);
}

template <int C, int W, int K>
__global__ void __launch_bounds__(32 * W) bands(const int* ref, int* score, u64* edges, int* error, int n, int m,
                                                long long P, unsigned epoch) {
    static_assert(K % D == 0 && K <= 32 && RING >= 2 * K && (RING & (RING - 1)) == 0, "K and RING");
    __shared__ int ring[W][RING];        // ring[w]: the edge column warp w reads, row r at r mod RING
    __shared__ int ready[W], freed[W];   // ring[w]'s rows below ready[w] are written; below freed[w] are read
    const int lane = threadIdx.x % 32, w = threadIdx.x / 32, b = blockIdx.x;
    const int q = b * W + w;             // my band of 32 C columns
    const int j0 = q * 32 * C + lane * C;
    // the halo row and column, written by the whole grid once (n + m + 1 cells)
    const int tid = b * blockDim.x + threadIdx.x, threads = gridDim.x * blockDim.x;
    for (int J = tid; J <= m; J += threads) score[3 + J] = -J * G;
    for (int I = tid + 1; I <= n; I += threads) score[I * P + 3] = -I * G;
    if (lane == 0) { ready[w] = 0; freed[w] = 0; }
    __syncthreads();
    int* const in = ring[w];
    int* const out = ring[(w + 1) % W];
    const bool to_ring = w + 1 < W;                          // warp w + 1 reads my last column from shared memory
    const bool to_global = w == W - 1 && b + 1 < gridDim.x;   // block b + 1's warp 0 reads it from global memory
    u64* const edge_out = edges + (long long) b * n;
    const u64* const edge_in = edges + (long long) max(b - 1, 0) * n;   // used by warp 0 of a block b > 0
    Lane<C> st;
#pragma unroll
    for (int c = 0; c < C; c++) st.H[c] = -(j0 + c + 1) * G;   // the halo row above my columns
    st.prev = st.H[C - 1];
    st.eprev = -(q * 32 * C) * G;   // the halo row above the left edge: the diagonal of row 0
#pragma unroll
    for (int d = 0; d < D; d++) load_cells<C>(ref + (long long) min(max(d - lane, 0), n - 1) * m + j0, st.pre[d]);
    int avail = 0;   // lane 0 of a warp w > 0: ready[w] as last read
    int room = 0;    // lane 31 of a warp w < W - 1: freed[w + 1] as last read
    const int steps = n + 31;
    for (int base = 0; base < steps; base += K) {
        // rows base .. base + K - 1 of my left edge into my ring: lane 0 reads them in this group's steps
        const int need = min(base + K, n);
        if (w == 0) {
            const int row = base + lane;
            if (lane < K && row < n) {
                int v = -(row + 1) * G;   // band 0: the halo column
                if (b > 0) {
                    u64 word;
                    Spin spin;
                    while (((word = fg::load_relaxed_gpu(edge_in + row)) >> 32) != epoch && !spin.give_up(error, 1)) {
                    }
                    v = (int) (unsigned) word;
                }
                in[row & (RING - 1)] = v;
            }
        } else if (lane == 0 && avail < need) {
            Spin spin;
            while ((avail = fg::load_acquire_cta(&ready[w])) < need && !spin.give_up(error, 2)) {
            }
        }
        // room in warp w + 1's ring for the rows my lane 31 writes in this group, up to base + K - 32
        if (to_ring && lane == 31 && room <= base + K - 32 - RING) {
            Spin spin;
            while ((room = fg::load_acquire_cta(&freed[w + 1])) <= base + K - 32 - RING && !spin.give_up(error, 3)) {
            }
        }
        __syncwarp();
        if (base >= 31 && base + K <= n) {   // every lane's row lies in the domain in all K steps
#pragma unroll
            for (int k = 0; k < K; k++)
                step<C, W, false>(base + k, k % D, lane, j0, n, m, P, ref, score, in, out, to_ring, to_global,
                                  edge_out, epoch, st);
        } else {
#pragma unroll
            for (int k = 0; k < K; k++)
                step<C, W, true>(base + k, k % D, lane, j0, n, m, P, ref, score, in, out, to_ring, to_global,
                                 edge_out, epoch, st);
        }
        // lane 31 has written rows up to base + K - 32 to warp w + 1's ring; lane 0 has read rows up to base + K - 1
        if (to_ring && lane == 31) fg::store_release_cta(&ready[w + 1], min(max(base + K - 31, 0), n));
        if (w > 0 && lane == 0) fg::store_release_cta(&freed[w], base + K);
    }
}

struct Problem {
    int n, m;
    long long P;             // the score matrix's row pitch in ints
    int *ref, *score, *error;
    u64* edges;              // (m / 32 - 1) x n tagged words: room for the most blocks (C = W = 1)
    const std::vector<int>* want;   // the CPU's (n + 1) x (m + 1) matrix
    std::vector<int>* got;          // the GPU's, pitched as on the device
    unsigned epoch;                 // each launch tags its edge words anew, so the words are zeroed only once
};

template <int C, int W, int K>
void run(Problem& p) {
    const int width = 32 * C * W;
    if (p.m % width != 0) { printf("C=%d W=%d K=%-2d  skipped: %d columns not a multiple of %d\n", C, W, K, p.m, width); return; }
    const int blocks = p.m / width;
    int per_sm = 0, sms = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bands<C, W, K>, 32 * W, 0));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    if ((long long) per_sm * sms < blocks) {   // the waits need every block resident
        printf("C=%d W=%d K=%-2d  skipped: %d blocks, only %d x %d resident\n", C, W, K, blocks, per_sm, sms);
        return;
    }
    CK(cudaMemset(p.score, 0x7f, (size_t) (p.n + 1) * p.P * sizeof(int)));   // no cell left from the last configuration
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<float> times;
    int err = 0;
    for (int launch = 0; launch < 12 && err == 0; launch++) {
        CK(cudaMemset(p.error, 0, sizeof(int)));
        unsigned epoch = ++p.epoch;
        void* args[] = {&p.ref, &p.score, &p.edges, &p.error, &p.n, &p.m, &p.P, &epoch};
        CK(cudaEventRecord(e0));
        CK(cudaLaunchCooperativeKernel((const void*) bands<C, W, K>, dim3(blocks), dim3(32 * W), args, 0, 0));
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (launch >= 3) times.push_back(ms);
        CK(cudaMemcpy(&err, p.error, sizeof(int), cudaMemcpyDeviceToHost));
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    std::sort(times.begin(), times.end());
    const double med = times.empty() ? 0 : times[times.size() / 2];
    char verdict[160] = "verified";
    if (err != 0) {
        snprintf(verdict, sizeof verdict, "WRONG(a wait timed out, error %d: 1 global edge, 2 shared edge, 3 ring room)", err);
    } else {
        CK(cudaMemcpy(p.got->data(), p.score, (size_t) (p.n + 1) * p.P * sizeof(int), cudaMemcpyDeviceToHost));
        const int m1 = p.m + 1;
        for (long long I = 0; I <= p.n && verdict[0] == 'v'; I++)
            for (int J = 0; J <= p.m; J++) {
                const int g = (*p.got)[I * p.P + 3 + J], x = (*p.want)[I * m1 + J];
                if (g != x) { snprintf(verdict, sizeof verdict, "WRONG(score[%lld][%d] = %d, expected %d)", I, J, g, x); break; }
            }
    }
    printf("C=%d W=%d K=%-2d blocks %4d  median %8.3f ms  %7.2f G cells/s  %s\n", C, W, K, blocks, med,
           med > 0 ? (double) p.n * p.m / med / 1e6 : 0.0, verdict);
}

int main(int argc, char** argv) {
    Problem p{};
    p.n = argc > 1 ? atoi(argv[1]) : 16384;
    p.m = argc > 2 ? atoi(argv[2]) : 16384;
    if (p.n < 1 || p.m < 32) { printf("sizes: rows >= 1, columns >= 32\n"); return 1; }
    p.P = (p.m + 4 + 31) / 32 * 32;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("%s, %d SMs; needleman-wunsch %d x %d, penalty %d\n", prop.name, prop.multiProcessorCount, p.n, p.m, G);
    const long long n = p.n, m = p.m, m1 = m + 1;
    std::vector<int> ref(n * m);
    unsigned seed = 12345;
    for (auto& x : ref) { seed = seed * 1664525u + 1013904223u; x = (int) ((seed >> 16) % 21) - 10; }
    std::vector<int> want((n + 1) * m1), got((n + 1) * p.P);
    for (long long J = 0; J <= m; J++) want[J] = (int) (-J * G);
    for (long long I = 1; I <= n; I++) {
        int* row = &want[I * m1];
        const int* above = row - m1;
        const int* r = &ref[(I - 1) * m];
        row[0] = (int) (-I * G);
        for (long long J = 1; J <= m; J++)
            row[J] = std::max(std::max(above[J - 1] + r[J - 1], above[J] - G), row[J - 1] - G);
    }
    p.want = &want;
    p.got = &got;
    CK(cudaMalloc(&p.ref, n * m * sizeof(int)));
    CK(cudaMemcpy(p.ref, ref.data(), n * m * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMalloc(&p.score, (n + 1) * p.P * sizeof(int)));
    CK(cudaMalloc(&p.error, sizeof(int)));
    const size_t edge_words = (size_t) std::max(m / 32 - 1, 1LL) * n;
    CK(cudaMalloc(&p.edges, edge_words * sizeof(u64)));
    CK(cudaMemset(p.edges, 0, edge_words * sizeof(u64)));
    run<4, 1, 32>(p);   // the generated form's shape (without its helper warps): the baseline
    run<4, 1, 8>(p);
    run<2, 2, 8>(p);
    run<1, 4, 8>(p);
    run<2, 4, 8>(p);
    run<1, 4, 16>(p);
    run<4, 2, 8>(p);
    run<2, 2, 32>(p);
    run<1, 4, 32>(p);
    run<2, 2, 16>(p);
    run<4, 4, 8>(p);
    return 0;
}
