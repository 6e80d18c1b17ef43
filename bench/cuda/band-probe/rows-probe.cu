// rows-probe.cu: a hand-written persistent band of a folded Needleman-Wunsch over two sequences, in the generated
// one's form (a warp per band, lanes one step apart, a query profile per warp in shared memory, the left band's edge
// column in 64-bit words with a ready tag, a ring of rows freed by a counter, a window of the edge per chunk of 32
// steps), with knobs the generator does not have, to price a change before making it:
//   R        lane l computes rows R(s - l) to R(s - l) + R - 1 of its C columns in step s (R = 1: the generated form)
//   BRANCHY  lane 0's edge read, the edge store and the table's bounds check as branches (the error word written in the
//            step), or as selects, one predicated store and a flag written at the band's end
//   WARPS    bands a block (band = block x WARPS + warp): neighbouring bands on one SM or spread
//   SPREAD   with WARPS > 1, band = warp x blocks + block: a block's bands far apart on the chain
//   SLEEP    nanoseconds a waiting lane sleeps after each failed poll (0: it spins)
//   BOUND    the kernel's __launch_bounds__ (32 WARPS unless given)
// Every configuration's final score is checked against a CPU run of the same recurrence; the time is the median of 9
// launches after 3 (CUDA events). Built with
//   nvcc -O3 -arch=sm_90 -I DIR_OF_finegrain.cuh rows-probe.cu -o rows && ./rows 65536 65536
// and run with the sizes (rows, columns; columns a multiple of 32 C, rows of R); a third argument 2 runs the set on
// block placement and sleeping polls instead of the first set.
#include "finegrain.cuh"
#include <algorithm>
#include <cstdio>
#include <vector>

using fg::u64;

constexpr int RING = 2048;              // rows of the edge ring per band
constexpr long long SPIN_LIMIT = 1LL << 28;   // a poll that never succeeds ends the run with an error, not a hang

// The generated form before the predicated store: a store whose inline assembly is a compiler memory barrier.
__device__ __forceinline__ void store_relaxed_barrier(u64* word, u64 value) {
    asm volatile("st.relaxed.gpu.b64 [%0], %1;" :: "l"(word), "l"(value) : "memory");
}

// One step of lane l: rows i0 .. i0 + R - 1 of its C columns. H: its columns' values in the row above; cur: its last
// column's values in the last step's rows, prev: the row above those. CHECK: the rows may lie outside the domain.
// BRANCHY: lane 0's edge read, the edge store and the table's bounds check as branches (the error word written in the
// step); else as selects, a predicated store and a flag written once at the band's end (the generated form).
template <int R, int C, bool BRANCHY, bool CHECK>
__device__ __forceinline__ void step(int s, int lane, int band, int bands, int n, int g, int wb, const int* edge,
                                     const int* prof, const int* a, int (&row_a)[R], int (&H)[C], int (&cur)[R],
                                     int& prev, u64* tokens, int* out, int* error, int& bad) {
    const int i0 = R * (s - lane);
    int west[R];
    for (int r = 0; r < R; r++) west[r] = __shfl_up_sync(0xffffffffu, cur[r], 1);
    int diag0 = __shfl_up_sync(0xffffffffu, prev, 1);
    if (BRANCHY) {
        if (lane == 0) {   // the left band's edge, from the window
            diag0 = edge[min(max(i0 - 1 - wb, 0), 32 * R)];
            for (int r = 0; r < R; r++) west[r] = edge[min(max(i0 + r - wb, 0), 32 * R)];
        }
    } else {
        const int e = edge[min(max(i0 - 1 - wb, 0), 32 * R)];
        diag0 = lane == 0 ? e : diag0;
        for (int r = 0; r < R; r++) {
            const int w = edge[min(max(i0 + r - wb, 0), 32 * R)];
            west[r] = lane == 0 ? w : west[r];
        }
    }
    if (CHECK && (i0 < 0 || i0 >= n)) return;
    int next_a[R];
    for (int r = 0; r < R; r++) next_a[r] = __ldg(&a[min(i0 + R + r, n - 1)]);   // the next step's rows, loaded ahead
    int profile_row[R];
    for (int r = 0; r < R; r++) {
        const int x = row_a[r];
        if (BRANCHY) {
            if ((unsigned) x >= 24u) { *error = 1; profile_row[r] = lane; } else profile_row[r] = x * C * 32 + lane;
        } else {
            const bool in = (unsigned) x < 24u;
            bad |= !in;
            profile_row[r] = (in ? x : 0) * C * 32 + lane;
        }
    }
    int last[R];
    for (int r = 0; r < R; r++) {
        int w = west[r];
        int d = r == 0 ? diag0 : west[r - 1];
        for (int c = 0; c < C; c++) {
            const int up = H[c];
            const int t = __viaddmax_s32(d, prof[profile_row[r] + c * 32], up - g);
            const int v = __viaddmax_s32(w, -g, t);
            d = up;
            H[c] = v;
            w = v;
        }
        last[r] = w;
    }
    prev = cur[R - 1];
    for (int r = 0; r < R; r++) cur[r] = last[r];
    for (int r = 0; r < R; r++) row_a[r] = next_a[r];
    if (BRANCHY) {
        if (lane == 31 && band < bands - 1) {
            for (int r = 0; r < R; r++) {
                const int i = i0 + r;
                store_relaxed_barrier(&tokens[(long long) band * RING + (i & (RING - 1))], ((u64) (i / RING + 1) << 32) | (unsigned) last[r]);
            }
        }
    } else {
        for (int r = 0; r < R; r++) {
            const int i = i0 + r;
            fg::store_relaxed_gpu_if(lane == 31 && band < bands - 1, &tokens[(long long) band * RING + (i & (RING - 1))],
                             ((u64) (i / RING + 1) << 32) | (unsigned) last[r]);
        }
    }
    if (lane == 31 && band == bands - 1 && i0 + R == n) *out = last[R - 1];
}

// WARPS: bands a block, a warp each (band = block x WARPS + warp), so that neighbouring bands share an SM or not.
template <int R, int C, bool BRANCHY, int WARPS, bool SPREAD, int SLEEP, int BOUND>
__global__ void __launch_bounds__(BOUND) bands_kernel(const int* a, const int* b, const int* table, int n, int m, int g,
                                                   u64* tokens, int* freed, int* out, int* error) {
    extern __shared__ int smem[];
    const int lane = threadIdx.x % 32, warp = WARPS == 1 ? 0 : threadIdx.x / 32;
    int* const prof = smem + warp * (24 * C * 32 + 32 * R + 1);   // [24][C][32]: my band's query profile
    int* const edge = prof + 24 * C * 32;    // [32 R + 1]: the left band's edge for a chunk's rows
    const int bands = m / (32 * C);
    const int band = SPREAD ? warp * gridDim.x + blockIdx.x : blockIdx.x * WARPS + warp;
    const int j = band * 32 * C + lane * C;
    for (int c = 0; c < C; c++) {
        const int t = b[j + c];
        for (int x = 0; x < 24; x++) prof[(x * C + c) * 32 + lane] = table[x * 24 + t];
    }
    int H[C];
    for (int c = 0; c < C; c++) H[c] = -(j + c + 1) * g;   // the halo row above the domain
    int cur[R];
    for (int r = 0; r < R; r++) cur[r] = H[C - 1];
    int prev = H[C - 1];
    int row_a[R];
    for (int r = 0; r < R; r++) row_a[r] = __ldg(&a[r]);   // every lane's first rows are 0 to R - 1
    int room = -(1 << 30);
    int bad = 0;   // a sequence value outside the table, seen by this lane
    const int steps = n / R + 31;
    for (int base = 0; base < steps; base += 32) {
        __syncwarp();   // every lane is done with the last window
        const int wb = R * base - 1;   // the window's first row
        const int last_row = min(R * base + 32 * R - 1, n - 1);
        for (int x = lane; x < 32 * R + 1; x += 32) {
            const int row = wb + x;
            if (x == 0 && base > 0) { edge[0] = edge[32 * R]; continue; }   // kept from the last window
            if (row > last_row) continue;
            int v;
            if (row < 0) v = -band * 32 * C * g;
            else if (band == 0) v = -(row + 1) * g;
            else {
                u64 w;
                long long spins = 0;
                while (true) {
                    w = fg::load_relaxed_gpu(&tokens[(long long) (band - 1) * RING + (row & (RING - 1))]);
                    if ((w >> 32) == (u64) (row / RING + 1) || ++spins >= SPIN_LIMIT) break;
                    if (SLEEP) __nanosleep(SLEEP);
                }
                if (spins >= SPIN_LIMIT) *error = 2;
                v = (int) (unsigned) w;
            }
            edge[x] = v;
        }
        __syncwarp();   // the window is complete
        const int chunk = base / 32;
        if (lane == 0 && band > 0 && (chunk % 4 == 3 || base + 32 >= steps)) fg::store_release_gpu(&freed[band], last_row);
        const int writes_to = R * base + R - 1;   // the last row lane 31 stores in this chunk
        if (band < bands - 1 && writes_to - RING > room) {
            if (lane == 0) {
                long long spins = 0;
                while ((room = fg::load_acquire_gpu(&freed[band + 1])) < writes_to - RING && ++spins < SPIN_LIMIT) { }
                if (spins >= SPIN_LIMIT) *error = 3;
            }
            room = __shfl_sync(0xffffffffu, room, 0);
        }
        if (base >= 31 && R * (base + 31) + R - 1 < n) {
#pragma unroll 8
            for (int k = 0; k < 32; k++)
                step<R, C, BRANCHY, false>(base + k, lane, band, bands, n, g, wb, edge, prof, a, row_a, H, cur, prev,
                                           tokens, out, error, bad);
        } else {
            for (int k = 0; k < 32; k++)
                step<R, C, BRANCHY, true>(base + k, lane, band, bands, n, g, wb, edge, prof, a, row_a, H, cur, prev,
                                          tokens, out, error, bad);
        }
    }
    if (bad) *error = 1;
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Inputs { int *a, *b, *table; int n, m, g; };

template <int R, int C, bool BRANCHY, int WARPS = 1, bool SPREAD = false, int SLEEP = 0, int BOUND = 32 * WARPS>
void run(const Inputs& in, int expected) {
    const int bands = in.m / (32 * C);
    if (in.m % (32 * C) != 0 || in.n % R != 0) { printf("R=%d C=%d: sizes not a multiple, skipped\n", R, C); return; }
    const size_t smem = WARPS * (24 * C * 32 + 32 * R + 1) * sizeof(int);
    CK(cudaFuncSetAttribute(bands_kernel<R, C, BRANCHY, WARPS, SPREAD, SLEEP, BOUND>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem));
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, bands_kernel<R, C, BRANCHY, WARPS, SPREAD, SLEEP, BOUND>, 32 * WARPS, smem));
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    if ((long long) per_sm * sms * WARPS < bands) { printf("R=%d C=%d: %d bands not all resident, skipped\n", R, C, bands); return; }
    u64* tokens; int *freed, *out, *error;
    CK(cudaMalloc(&tokens, (size_t) bands * RING * sizeof(u64)));
    CK(cudaMalloc(&freed, bands * sizeof(int)));
    CK(cudaMalloc(&out, sizeof(int)));
    CK(cudaMalloc(&error, sizeof(int)));
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    std::vector<float> times;
    int score = 0, err = 0;
    for (int launch = 0; launch < 12; launch++) {
        CK(cudaMemset(tokens, 0, (size_t) bands * RING * sizeof(u64)));
        CK(cudaMemset(freed, 0xff, bands * sizeof(int)));   // -1: nothing copied yet
        CK(cudaMemset(out, 0, sizeof(int)));
        CK(cudaMemset(error, 0, sizeof(int)));
        cudaEventRecord(e0);
        bands_kernel<R, C, BRANCHY, WARPS, SPREAD, SLEEP, BOUND><<<bands / WARPS, 32 * WARPS, smem>>>(in.a, in.b, in.table, in.n, in.m, in.g, tokens, freed, out, error);
        cudaEventRecord(e1);
        CK(cudaEventSynchronize(e1));
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        if (launch >= 3) times.push_back(ms);
        CK(cudaMemcpy(&score, out, 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&err, error, 4, cudaMemcpyDeviceToHost));
        if (score != expected || err != 0) break;
    }
    std::sort(times.begin(), times.end());
    const double med = times.empty() ? 0 : times[times.size() / 2];
    printf("R=%d C=%-2d %d warp(s) a block%s bound %3d sleep %3d %s %4d bands  median %8.3f ms  min %8.3f  %7.1f G cells/s  score %d %s  error %d\n", R, C, WARPS,
           SPREAD ? " (spread)" : "", BOUND, SLEEP, BRANCHY ? "branches" : "selects ", bands, med, times.empty() ? 0 : times[0],
           (double) in.n * in.m / med / 1e6, score, score == expected ? "verified" : "WRONG", err);
    cudaFree(tokens); cudaFree(freed); cudaFree(out); cudaFree(error);
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 65536, m = argc > 2 ? atoi(argv[2]) : n, g = 4;
    std::vector<int> a(n), b(m), table(576);
    unsigned seed = 12345;
    auto next = [&]() { seed = seed * 1664525u + 1013904223u; return seed >> 8; };
    for (auto& x : a) x = (int) (next() % 20);
    for (auto& x : b) x = (int) (next() % 20);
    for (int x = 0; x < 24; x++) for (int y = 0; y <= x; y++) table[x * 24 + y] = table[y * 24 + x] = (int) (next() % 16) - 4;
    std::vector<int> row(m + 1);   // the CPU recurrence, row by row
    for (int j = 0; j <= m; j++) row[j] = -j * g;
    for (int i = 0; i < n; i++) {
        int diag = row[0], left = -(i + 1) * g;
        row[0] = left;
        const int* t = &table[a[i] * 24];
        for (int j = 0; j < m; j++) {
            const int up = row[j + 1];
            const int v = std::max(std::max(diag + t[b[j]], up - g), left - g);
            diag = up; row[j + 1] = v; left = v;
        }
    }
    const int expected = row[m];
    printf("%dx%d, CPU score %d\n", n, m, expected);
    Inputs in{nullptr, nullptr, nullptr, n, m, g};
    CK(cudaMalloc(&in.a, n * 4)); CK(cudaMalloc(&in.b, m * 4)); CK(cudaMalloc(&in.table, 576 * 4));
    CK(cudaMemcpy(in.a, a.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(in.b, b.data(), m * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(in.table, table.data(), 576 * 4, cudaMemcpyHostToDevice));
    if (argc > 3 && atoi(argv[3]) == 2) {   // where a block's bands sit on the chain, and polls that sleep
        run<1, 8, false>(in, expected);
        run<1, 8, false, 2>(in, expected);
        run<1, 8, false, 2, true>(in, expected);
        run<1, 8, false, 1, false, 100>(in, expected);
        run<1, 8, false, 2, false, 100>(in, expected);
        run<1, 4, false>(in, expected);
        run<1, 4, false, 4>(in, expected);
        run<1, 4, false, 4, true>(in, expected);
        run<1, 4, false, 4, false, 100>(in, expected);
        run<1, 8, false, 1, false, 0, 64>(in, expected);   // one warp a block, compiled for blocks of two
        run<1, 8, false, 1, false, 0, 1024>(in, expected);
        return 0;
    }
    run<1, 8, true>(in, expected);
    run<1, 8, false>(in, expected);
    run<2, 8, true>(in, expected);
    run<2, 8, false>(in, expected);
    run<4, 8, false>(in, expected);
    run<1, 8, false, 2>(in, expected);
    run<1, 4, false>(in, expected);
    run<1, 4, false, 2>(in, expected);
    run<1, 4, false, 4>(in, expected);
    run<2, 4, false>(in, expected);
    run<4, 4, false>(in, expected);
    run<1, 2, false>(in, expected);
    return 0;
}
