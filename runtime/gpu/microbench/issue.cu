// Finegrain GPU-model microbenchmarks: how one warp issues independent instructions back to back on Hopper, and what
// an asynchronous copy (cp.async) costs, for the model's issue intervals and its asynchronous-copy latency. Our own
// code. Build and run: SUITES=issue bash runtime/gpu/microbench/run.sh (README.md beside this file).
//
// Result lines: R,<name>,<median>,<unit>,<samples>,<note>; each launch times its loop with clock64 (SM cycles), the
// median of 9 launches after a warm-up launch. The *_indep_K rows are one warp (32 lanes) running K independent
// chains, interleaved (the K chains' first ops, then their second ops, ...), in an unrolled body inside a loop that
// is not unrolled (#pragma unroll 1: 3 SASS instructions of loop overhead per iteration, counted in the cycles but
// not in the instructions); cycles per instruction = cycles / (chain instructions executed). K = 1 is the dependent
// latency, larger K the interval at which the warp issues independent instructions of that kind.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "cuda_check.h"

__device__ __forceinline__ long long clk() {
    long long c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
    return c;
}
__device__ __forceinline__ unsigned long long gtime() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

// ---------------------------------------------------------------- clock warm-up
// One thread per block spins spin_ns on %globaltimer; out[0] and out[1] get its cycles and nanoseconds.
__global__ void k_clock(long long* out, unsigned long long spin_ns) {
    long long c0 = clk();
    unsigned long long g0 = gtime(), g1;
    do { g1 = gtime(); } while (g1 - g0 < spin_ns);
    long long c1 = clk();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        out[0] = c1 - c0;
        out[1] = (long long)(g1 - g0);
    }
}

// ---------------------------------------------------------------- K independent register chains, one warp
// OP 0: x = x + a; x = x ^ b (add.u32 then xor.b32, bench.cu's alu_dep_latency form; SASS VIADD/IADD3 and LOP3);
// OP 1: x = x * a + b (mad.lo.u32; SASS IMAD); OP 2: p = x < a; x = p ? b : x (setp.lt.s32 then selp.b32; SASS
// ISETP and SEL); OP 3: x = shfl.sync.up(x, 1). S steps of every chain per loop iteration; each step is, for OP 0 and
// 2, the K chains' first ops then their second ops, for OP 1 and 3 one op of each chain.
template <int OP, int K, int S>
__global__ void k_indep(unsigned a, unsigned b, int iters, long long* out, unsigned* sink) {
    unsigned x[K];
#pragma unroll
    for (int k = 0; k < K; k++) x[k] = threadIdx.x * K + k + 1;
    long long c0 = clk();
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int s = 0; s < S; s++) {
            if (OP == 0) {
#pragma unroll
                for (int k = 0; k < K; k++) asm volatile("add.u32 %0, %0, %1;" : "+r"(x[k]) : "r"(a));
#pragma unroll
                for (int k = 0; k < K; k++) asm volatile("xor.b32 %0, %0, %1;" : "+r"(x[k]) : "r"(b));
            }
            if (OP == 1) {
#pragma unroll
                for (int k = 0; k < K; k++) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x[k]) : "r"(a), "r"(b));
            }
            if (OP == 2) {
                // A predicate cannot leave an asm statement, so the K compares and K selects of a step are one.
                if (K == 1)
                    asm volatile("{ .reg .pred p0; setp.lt.s32 p0, %0, %1; selp.b32 %0, %2, %0, p0; }"
                                 : "+r"(x[0]) : "r"(a), "r"(b));
                if (K == 4)
                    asm volatile("{ .reg .pred p0, p1, p2, p3;\n\t"
                                 "setp.lt.s32 p0, %0, %4; setp.lt.s32 p1, %1, %4;\n\t"
                                 "setp.lt.s32 p2, %2, %4; setp.lt.s32 p3, %3, %4;\n\t"
                                 "selp.b32 %0, %5, %0, p0; selp.b32 %1, %5, %1, p1;\n\t"
                                 "selp.b32 %2, %5, %2, p2; selp.b32 %3, %5, %3, p3; }"
                                 : "+r"(x[0]), "+r"(x[K > 1 ? 1 : 0]), "+r"(x[K > 2 ? 2 : 0]), "+r"(x[K > 3 ? 3 : 0])
                                 : "r"(a), "r"(b));
            }
            if (OP == 3) {
#pragma unroll
                for (int k = 0; k < K; k++) asm volatile("shfl.sync.up.b32 %0, %0, 1, 0, 0xffffffff;" : "+r"(x[k]));
            }
        }
    }
    long long c1 = clk();
    if (threadIdx.x == 0) out[0] = c1 - c0;
    unsigned v = 0;
#pragma unroll
    for (int k = 0; k < K; k++) v ^= x[k];
    sink[threadIdx.x] = v;
}

// ---------------------------------------------------------------- K independent shared-memory pointer chases
// s[i] holds the shared address of s[(i + 32) % 1024]: the next row, the same bank. Lane l's chain k starts at row 4k,
// bank l, so every warp-wide load is conflict-free (32 lanes, 32 banks). ALL: all 32 lanes chase; otherwise lane 0
// alone (its K chains all in bank 0, in different rows).
template <int K, int S, bool ALL>
__global__ void k_lds(int iters, long long* out, unsigned* sink) {
    __shared__ unsigned s[1024];
    const unsigned base = (unsigned)__cvta_generic_to_shared(s);
    const int lane = threadIdx.x & 31;
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = base + 4u * ((i + 32) % 1024);
    __syncthreads();
    if (!ALL && lane != 0) return;
    unsigned p[K];
#pragma unroll
    for (int k = 0; k < K; k++) p[k] = base + 4u * (4 * k * 32 + lane);
    long long c0 = clk();
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < S; j++) {
#pragma unroll
            for (int k = 0; k < K; k++) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p[k])::"memory");
        }
    }
    long long c1 = clk();
    if (lane == 0) out[0] = c1 - c0;
    unsigned v = 0;
#pragma unroll
    for (int k = 0; k < K; k++) v ^= p[k];
    sink[threadIdx.x] = v;
}

// ---------------------------------------------------------------- shared words through generic pointers
// The lock-dataflow tiles' CUDA polls and publishes shared flags through generic pointers with acquire and release
// (fg::load_acquire_cta, fg::store_release_cta: SASS LD.E.STRONG.SM, ST.E.STRONG.SM), not LDS/STS. One thread chases
// self-pointing shared words through generic 64-bit pointers, 64 loads per loop iteration. MODE 0: ld.shared.u32
// (the shared window's own load, LDS); 1: ld.acquire.cta.u64 (generic); 2: ld.volatile.u64 (generic); 3: ld.u64
// (generic, weak).
template <int MODE>
__global__ void k_generic(int iters, long long* out, unsigned* sink) {
    __shared__ unsigned long long s[64];
    if (threadIdx.x == 0) {
        for (int i = 0; i < 64; i++) s[i] = (unsigned long long)&s[(i + 1) % 64];
    }
    __syncthreads();
    if (threadIdx.x != 0) return;
    unsigned long long p = (unsigned long long)&s[0];
    unsigned q = (unsigned)__cvta_generic_to_shared(&s[0]);
    long long c0 = clk();
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < 64; j++) {
            if (MODE == 0) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(q)::"memory");
            if (MODE == 1) asm volatile("ld.acquire.cta.u64 %0, [%0];" : "+l"(p)::"memory");
            if (MODE == 2) asm volatile("ld.volatile.u64 %0, [%0];" : "+l"(p)::"memory");
            if (MODE == 3) asm volatile("ld.u64 %0, [%0];" : "+l"(p)::"memory");
        }
    }
    long long c1 = clk();
    out[0] = c1 - c0;
    sink[0] = (unsigned)p ^ q;
}

// ---------------------------------------------------------------- global pointer chase through cp.async
// buf holds a cycle of 64-bit pointers, one per 128-byte line (at the line's start, so 16-byte aligned); one thread
// walks it `warm` steps with ld.global.cg (L2 warm), then times `steps` steps. MODE 0: ld.global.cg.u64 (bench.cu's
// global_l2hit_latency); 1: cp.async.ca 4 bytes (the pointer's low word) into shared, commit, wait_group 0,
// ld.shared.u32, the pointer rebuilt with the buffer's high word `hi` (the host checks it is the same for the whole
// buffer); 2: cp.async.cg 16 bytes (the pointer and the rest of its 16-byte slot), commit, wait_group 0, ld.shared.u64.
template <int MODE>
__global__ void k_chase(void** start, unsigned hi, int warm, int steps, long long* out, void** sink) {
    __shared__ __align__(16) unsigned long long slot[2];
    const unsigned sa = (unsigned)__cvta_generic_to_shared(slot);
    void** p = start;
    for (int i = 0; i < warm; i++) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p)::"memory");
    long long c0 = clk();
    for (int i = 0; i < steps; i += 8) {
#pragma unroll
        for (int j = 0; j < 8; j++) {
            if (MODE == 0) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p)::"memory");
            if (MODE == 1)
                asm volatile("{ .reg .b32 lo;\n\t"
                             "cp.async.ca.shared.global [%1], [%0], 4;\n\t"
                             "cp.async.commit_group;\n\t"
                             "cp.async.wait_group 0;\n\t"
                             "ld.shared.u32 lo, [%1];\n\t"
                             "mov.b64 %0, {lo, %2}; }"
                             : "+l"(p) : "r"(sa), "r"(hi) : "memory");
            if (MODE == 2)
                asm volatile("cp.async.cg.shared.global [%1], [%0], 16;\n\t"
                             "cp.async.commit_group;\n\t"
                             "cp.async.wait_group 0;\n\t"
                             "ld.shared.u64 %0, [%1];"
                             : "+l"(p) : "r"(sa) : "memory");
        }
    }
    long long c1 = clk();
    out[0] = c1 - c0;
    sink[0] = p;
}
__global__ void k_link(void** buf, const long long* from, const long long* to, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) buf[from[i]] = (void*)&buf[to[i]];
}

// ---------------------------------------------------------------- batches of copies, one warp
// mat is a row-major int matrix of width W (1024: a row is 4 KiB; 32: a row is the warp's 128 bytes, the rows
// dense); lane l copies column l, so a row of the warp is one 128-byte line. Batch t copies rows t*R .. t*R+R-1 into
// the shared ring [R][33] (row j at word 33j, conflict-free). MODE 0: R x cp.async.ca.shared.global 4 bytes, then
// cp.async.commit_group + cp.async.wait_group 0; MODE 1: R ld.global.cg.u32 into registers, then R st.shared.u32.
// Lane l's ring column summed after the loop goes to sink[l]. LDGSTS's global address takes a signed 12-bit
// immediate offset (under 2 KiB either way), so with W = 1024 ptxas builds every row's 64-bit address (an IADD3 and
// an IMAD.X beside each LDGSTS); with W = 32 one base address serves 16 rows. In MODE 1 ptxas (nvcc 13.0) keeps at
// most 19 loads in flight: with R = 32 it issues 19 LDG, 13 STS, the other 13 LDG, then 19 STS, so a batch waits for
// two rounds of loads; with R = 64, 19 LDG then groups of 7 and 12 STS and LDG.
template <int R, int MODE, int W>
__global__ void k_batch(const int* mat, int batches, long long* out, int* sink) {
    __shared__ int ring[R * 33];
    const int lane = threadIdx.x & 31;
    const unsigned sa = (unsigned)__cvta_generic_to_shared(ring) + 4u * lane;
    const int* col = mat + lane;
    long long c0 = clk();
#pragma unroll 1
    for (int t = 0; t < batches; t++) {
        const int* src = col + (size_t)t * R * W;
        if (MODE == 0) {
#pragma unroll
            for (int j = 0; j < R; j++)
                asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(sa + 4u * 33 * j), "l"(src + j * W)
                             : "memory");
            asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
        } else {
            unsigned v[R];
#pragma unroll
            for (int j = 0; j < R; j++) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v[j]) : "l"(src + j * W));
#pragma unroll
            for (int j = 0; j < R; j++) asm volatile("st.shared.u32 [%0], %1;" ::"r"(sa + 4u * 33 * j), "r"(v[j]) : "memory");
        }
    }
    long long c1 = clk();
    if (lane == 0) out[0] = c1 - c0;
    __syncwarp();
    int sum = 0;
    for (int j = 0; j < R; j++) sum += ring[33 * j + lane];
    sink[lane] = sum;
}
__global__ void k_fill(int* mat, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) mat[i] = (int)i;
}

// ================================================================ host
static long long* d_out;
static unsigned* d_sink;

// Runs before() then launch() once as a warm-up, then 9 times timed; prints and returns the median of out[0] / per.
template <typename B, typename F>
static double measure(const std::string& name, double per, B before, F launch, const std::string& note) {
    const int REPS = 9;
    std::vector<double> v;
    before();
    launch();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < REPS; r++) {
        before();
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        long long c;
        CHECK(cudaMemcpy(&c, d_out, sizeof c, cudaMemcpyDeviceToHost));
        v.push_back((double)c / per);
    }
    std::sort(v.begin(), v.end());
    printf("R,%s,%.3f,cycles,%zu,%s\n", name.c_str(), v[REPS / 2], v.size(), note.c_str());
    fflush(stdout);
    return v[REPS / 2];
}
static void nothing() {}
static void derived(const std::string& name, double value, const std::string& note) {
    printf("R,%s,%.3f,cycles,1,%s\n", name.c_str(), value, note.c_str());
    fflush(stdout);
}

// OP's K chains of S steps, 2000 iterations (shuffles: 500); per chain instruction.
template <int OP, int K, int S>
static void indep(const char* prefix, const char* what, const char* sass) {
    const int iters = OP == 3 ? 500 : 2000;
    const int per_step = (OP == 0 || OP == 2) ? 2 : 1;
    const double instrs = (double)iters * S * K * per_step;
    std::string note = std::string(what) + "; " + std::to_string(K) + " independent chains x " + std::to_string(S) +
                       " steps (" + std::to_string(S * K * per_step) + " instructions) per loop iteration (SASS: " + sass + "); one warp; per instruction";
    measure(std::string(prefix) + std::to_string(K), instrs, nothing,
            [&] { k_indep<OP, K, S><<<1, 32>>>(3, 5, iters, d_out, d_sink); }, note);
}
template <int K, int S, bool ALL>
static void lds(const char* name) {
    const int iters = 500;
    std::string note = std::string("ld.shared.u32 pointer chases, ") + std::to_string(K) + " independent chains x " +
                       std::to_string(S) + " loads per loop iteration (SASS: 64 LDS); " +
                       (ALL ? "all 32 lanes, lane l in bank l (conflict-free)" : "lane 0 alone, bank 0, chains in different rows") +
                       "; per warp load";
    measure(name, (double)iters * S * K, nothing, [&] { k_lds<K, S, ALL><<<1, 32>>>(iters, d_out, d_sink); }, note);
}

int main() {
    int dev = 0;
    CHECK(cudaSetDevice(dev));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("I,device,%s\nI,cc,%d.%d\nI,sms,%d\nI,l2_bytes,%d\n", prop.name, prop.major, prop.minor,
           prop.multiProcessorCount, prop.l2CacheSize);
    CHECK(cudaMalloc(&d_out, 64 * sizeof(long long)));
    CHECK(cudaMalloc(&d_sink, 4096));

    // About 200 ms of busy kernels on every SM so that the clocks leave idle, then the SM clock over 20 ms.
    for (int i = 0; i < 10; i++) k_clock<<<prop.multiProcessorCount, 32>>>(d_out, 20000000ull);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    k_clock<<<1, 1>>>(d_out, 20000000ull);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    {
        long long h[2];
        CHECK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        printf("I,sm_clock_mhz,%.3f\n", 1000.0 * h[0] / h[1]);
    }

    // Register chains.
    const char* alu = "add.u32 / xor.b32 chains (x = x + a; x = x ^ b), a and b kernel arguments";
    indep<0, 1, 96>("alu_indep_", alu, "96 x (VIADD, LOP3)");
    indep<0, 2, 48>("alu_indep_", alu, "96 VIADD + 96 LOP3, interleaved by ptxas");
    indep<0, 3, 32>("alu_indep_", alu, "96 VIADD + 96 LOP3, interleaved by ptxas");
    indep<0, 4, 24>("alu_indep_", alu, "96 VIADD + 96 LOP3, interleaved by ptxas");
    indep<0, 6, 16>("alu_indep_", alu, "96 VIADD + 96 LOP3, interleaved by ptxas");
    indep<0, 8, 12>("alu_indep_", alu, "94 VIADD + 2 IADD3 + 96 LOP3, interleaved by ptxas");
    const char* imad = "mad.lo.u32 chains (x = x * a + b)";
    indep<1, 1, 192>("imad_indep_", imad, "192 IMAD");
    indep<1, 2, 96>("imad_indep_", imad, "192 IMAD");
    indep<1, 4, 48>("imad_indep_", imad, "192 IMAD");
    indep<1, 8, 24>("imad_indep_", imad, "192 IMAD");
    const char* sel = "setp.lt.s32 + selp.b32 chains (p = x < a; x = p ? b : x)";
    indep<2, 1, 96>("sel_setp_indep_", sel, "96 x (ISETP, SEL)");
    indep<2, 4, 24>("sel_setp_indep_", sel, "24 x (4 ISETP, 4 SEL)");
    const char* shfl = "shfl.sync.up.b32 by 1 chains, full mask";
    indep<3, 1, 64>("shfl_indep_", shfl, "64 SHFL.UP");
    indep<3, 2, 32>("shfl_indep_", shfl, "64 SHFL.UP");
    indep<3, 4, 16>("shfl_indep_", shfl, "64 SHFL.UP");
    indep<3, 8, 8>("shfl_indep_", shfl, "64 SHFL.UP");

    // Shared-memory chases.
    {
        const int iters = 500;
        const char* modes[4] = {"shared_chase_lds", "shared_chase_generic_acquire_cta", "shared_chase_generic_volatile",
                                "shared_chase_generic_weak"};
        const char* notes[4] = {"one thread, ld.shared.u32 through the shared window (SASS LDS); per load",
                                "one thread, ld.acquire.cta.u64 through a generic pointer to shared (fg::load_acquire_cta); per load",
                                "one thread, ld.volatile.u64 through a generic pointer to shared; per load",
                                "one thread, ld.u64 through a generic pointer to shared; per load"};
        void (*kernels[4])(int, long long*, unsigned*) = {k_generic<0>, k_generic<1>, k_generic<2>, k_generic<3>};
        for (int m = 0; m < 4; m++) {
            measure(modes[m], (double)iters * 64, nothing, [&] { kernels[m]<<<1, 32>>>(iters, d_out, d_sink); }, notes[m]);
        }
    }
    lds<1, 64, true>("lds_indep_1");
    lds<2, 32, true>("lds_indep_2");
    lds<4, 16, true>("lds_indep_4");
    lds<8, 8, true>("lds_indep_8");
    lds<1, 64, false>("lds_1lane_indep_1");
    lds<2, 32, false>("lds_1lane_indep_2");
    lds<4, 16, false>("lds_1lane_indep_4");
    lds<8, 8, false>("lds_1lane_indep_8");

    // Global chase, L2-resident: 32768 random lines in 4 MiB (every line of it), as bench.cu's global_l2hit_latency.
    {
        const int N = 32768, STEPS = 8192;
        const size_t bytes = 4u << 20;
        void** buf;
        CHECK(cudaMalloc(&buf, bytes));
        uintptr_t lo = (uintptr_t)buf, hiend = (uintptr_t)buf + bytes - 1;
        bool samehi = (lo >> 32) == (hiend >> 32);
        std::mt19937_64 rng(42);
        std::vector<long long> node(N), from(N), to(N);
        for (int i = 0; i < N; i++) node[i] = (long long)i * 16;  // pointer units: one per 128-byte line
        std::vector<int> perm(N);
        for (int i = 0; i < N; i++) perm[i] = i;
        std::shuffle(perm.begin() + 1, perm.end(), rng);
        for (int i = 0; i < N; i++) { from[i] = node[perm[i]]; to[i] = node[perm[(i + 1) % N]]; }
        long long *d_from, *d_to;
        CHECK(cudaMalloc(&d_from, N * sizeof(long long)));
        CHECK(cudaMalloc(&d_to, N * sizeof(long long)));
        CHECK(cudaMemcpy(d_from, from.data(), N * sizeof(long long), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(d_to, to.data(), N * sizeof(long long), cudaMemcpyHostToDevice));
        k_link<<<(N + 255) / 256, 256>>>(buf, d_from, d_to, N);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        void** start = buf + node[perm[0]];
        void* expect = (void*)(buf + node[perm[STEPS % N]]);  // the warm walk is the whole cycle
        const unsigned hi = (unsigned)(lo >> 32);
        auto check_end = [&](const char* name) {
            void* end;
            CHECK(cudaMemcpy(&end, d_sink, sizeof end, cudaMemcpyDeviceToHost));
            if (end != expect) printf("I,%s,chain ended at %p not %p\n", name, end, expect);
        };
        measure("ldcg_chase", STEPS, nothing, [&] { k_chase<0><<<1, 1>>>(start, hi, N, STEPS, d_out, (void**)d_sink); },
                "ld.global.cg.u64 pointer chase, random over 32768 lines (4 MiB), warmed (SASS: one LDG per step); one thread; per step");
        check_end("ldcg_chase");
        if (samehi) {
            measure("cpasync_chase", STEPS, nothing, [&] { k_chase<1><<<1, 1>>>(start, hi, N, STEPS, d_out, (void**)d_sink); },
                    "per step cp.async.ca.shared.global 4 bytes (pointer's low word) + commit_group + wait_group 0 + "
                    "ld.shared.u32 (SASS per step: 3 predicated-off LDS, LDGSTS, LDGDEPBAR, DEPBAR.LE SB0 0x0, LDS); same chain; one thread");
            check_end("cpasync_chase");
        } else {
            printf("I,cpasync_chase,skipped: the buffer crosses a 4 GiB boundary\n");
        }
        measure("cpasync_chase_cg16", STEPS, nothing, [&] { k_chase<2><<<1, 1>>>(start, hi, N, STEPS, d_out, (void**)d_sink); },
                "per step cp.async.cg.shared.global 16 bytes + commit_group + wait_group 0 + ld.shared.u64 (SASS as cpasync_chase); "
                "same chain; one thread");
        check_end("cpasync_chase_cg16");
        CHECK(cudaFree(buf));
        CHECK(cudaFree(d_from));
        CHECK(cudaFree(d_to));
    }

    // Batches: a 4096 x 1024 int matrix (16 MiB); each launch walks all 4096 rows of its 32 columns once (the dense
    // variants read the same buffer as a 4096 x 32 matrix: its first 512 KiB).
    {
        const int ROWS = 4096;
        const size_t n = (size_t)ROWS * 1024;
        int* mat;
        CHECK(cudaMalloc(&mat, n * sizeof(int)));
        k_fill<<<1024, 256>>>(mat, n);
        CHECK(cudaGetLastError());
        char* scratch;
        const size_t scratch_bytes = 256ull << 20;
        CHECK(cudaMalloc(&scratch, scratch_bytes));
        CHECK(cudaDeviceSynchronize());
        int* isink = (int*)d_sink;
        // The ring after the last batch: lane l summed rows (ROWS - R) .. ROWS - 1 of column l.
        auto check_sum = [&](const std::string& name, int R, int W) {
            int h[32];
            CHECK(cudaMemcpy(h, isink, sizeof h, cudaMemcpyDeviceToHost));
            for (int l = 0; l < 32; l++) {
                long long want = 0;
                for (int j = 0; j < R; j++) want += (long long)(ROWS - R + j) * W + l;
                if (h[l] != (int)want) {
                    printf("I,%s,lane %d ring sum %d not %d\n", name.c_str(), l, h[l], (int)want);
                    return;
                }
            }
        };
        auto evict = [&] { CHECK(cudaMemset(scratch, 0, scratch_bytes)); };
        const std::string l2 = "matrix L2-resident (walked by the warm-up launch); one warp; per batch";
        const std::string cold = "matrix evicted from L2 by a 256 MiB cudaMemset before every launch; one warp; per batch";
        const std::string cpa = " x cp.async.ca.shared.global 4 bytes (one 128-byte line each) + commit_group + wait_group 0; ";
        const std::string ldg = " x ld.global.cg.u32 into registers then the same number of st.shared.u32; ";
        const std::string wide = "rows 4 KiB apart (SASS: IADD3 + IMAD.X building each row's address beside each LDGSTS); ";
        const std::string dense = "rows 128 bytes apart (SASS: LDGSTS with immediate offsets, one base address per 16 rows); ";
        const std::string ldgw = "rows 4 KiB apart (SASS: LDG.E.STRONG.GPU and STS with immediate offsets; ptxas keeps at most 19 "
                                 "loads in flight, so some stores come before later loads); ";
        const std::string ldgd = "rows 128 bytes apart (SASS as ldg_batch_32); ";
        double c32 = measure("cpasync_batch_32", ROWS / 32, nothing,
                             [&] { k_batch<32, 0, 1024><<<1, 32>>>(mat, ROWS / 32, d_out, isink); }, "32" + cpa + wide + l2);
        check_sum("cpasync_batch_32", 32, 1024);
        derived("cpasync_batch_32_per_cpasync", c32 / 32, "cpasync_batch_32 / 32");
        double c64 = measure("cpasync_batch_64", ROWS / 64, nothing,
                             [&] { k_batch<64, 0, 1024><<<1, 32>>>(mat, ROWS / 64, d_out, isink); }, "64" + cpa + wide + l2);
        check_sum("cpasync_batch_64", 64, 1024);
        derived("cpasync_batch_64_per_cpasync", c64 / 64, "cpasync_batch_64 / 64");
        derived("cpasync_batch_marginal_per_cpasync", (c64 - c32) / 32, "(cpasync_batch_64 - cpasync_batch_32) / 32");
        double d32 = measure("cpasync_batch_32_dense", ROWS / 32, nothing,
                             [&] { k_batch<32, 0, 32><<<1, 32>>>(mat, ROWS / 32, d_out, isink); }, "32" + cpa + dense + l2);
        check_sum("cpasync_batch_32_dense", 32, 32);
        derived("cpasync_batch_32_dense_per_cpasync", d32 / 32, "cpasync_batch_32_dense / 32");
        double d64 = measure("cpasync_batch_64_dense", ROWS / 64, nothing,
                             [&] { k_batch<64, 0, 32><<<1, 32>>>(mat, ROWS / 64, d_out, isink); }, "64" + cpa + dense + l2);
        check_sum("cpasync_batch_64_dense", 64, 32);
        derived("cpasync_batch_64_dense_per_cpasync", d64 / 64, "cpasync_batch_64_dense / 64");
        derived("cpasync_batch_dense_marginal_per_cpasync", (d64 - d32) / 32, "(cpasync_batch_64_dense - cpasync_batch_32_dense) / 32");
        double l32 = measure("ldg_batch_32", ROWS / 32, nothing,
                             [&] { k_batch<32, 1, 1024><<<1, 32>>>(mat, ROWS / 32, d_out, isink); }, "32" + ldg + ldgw + l2);
        check_sum("ldg_batch_32", 32, 1024);
        double l64 = measure("ldg_batch_64", ROWS / 64, nothing,
                             [&] { k_batch<64, 1, 1024><<<1, 32>>>(mat, ROWS / 64, d_out, isink); }, "64" + ldg + ldgw + l2);
        check_sum("ldg_batch_64", 64, 1024);
        derived("ldg_batch_marginal_per_row", (l64 - l32) / 32, "(ldg_batch_64 - ldg_batch_32) / 32: one ld.global.cg + one st.shared");
        measure("ldg_batch_32_dense", ROWS / 32, nothing,
                [&] { k_batch<32, 1, 32><<<1, 32>>>(mat, ROWS / 32, d_out, isink); }, "32" + ldg + ldgd + l2);
        check_sum("ldg_batch_32_dense", 32, 32);
        measure("cpasync_batch_32_cold", ROWS / 32, evict, [&] { k_batch<32, 0, 1024><<<1, 32>>>(mat, ROWS / 32, d_out, isink); },
                "as cpasync_batch_32; " + cold);
        check_sum("cpasync_batch_32_cold", 32, 1024);
        measure("ldg_batch_32_cold", ROWS / 32, evict, [&] { k_batch<32, 1, 1024><<<1, 32>>>(mat, ROWS / 32, d_out, isink); },
                "as ldg_batch_32; " + cold);
        check_sum("ldg_batch_32_cold", 32, 1024);
        CHECK(cudaFree(mat));
        CHECK(cudaFree(scratch));
    }
    printf("I,done,ok\n");
    return 0;
}
