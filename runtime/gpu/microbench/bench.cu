// Finegrain GPU-model microbenchmarks for the hopper-h200 profile (runtime/gpu).
// Our own code. Build and run: bash runtime/gpu/microbench/run.sh (README.md beside this file).
//
// Every result is one line on stdout:
//   R,<name>,<median>,<unit>,<samples>,<note>
// Latencies are medians over repeated kernel launches; inside each launch one dependent chain of thousands of
// operations is timed with clock64() (SM cycles) and %globaltimer (ns), so loop overhead and the last operation's
// latency are amortised away.
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuda_check.h"
#define LAUNCHED() CHECK(cudaGetLastError())

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n == 0 ? 0.0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

static void report(const char* name, double value, const char* unit, size_t n, const std::string& note) {
    printf("R,%s,%.3f,%s,%zu,%s\n", name, value, unit, n, note.c_str());
    fflush(stdout);
}

__device__ __forceinline__ unsigned long long gtime() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}
__device__ __forceinline__ long long clk() {
    long long c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
    return c;
}

// The two clocks of a timed region, read at its start; stop() writes its cycles to out[0] and its nanoseconds to
// out[1], reading the clocks in the same order.
struct Stopwatch {
    long long c0;
    unsigned long long g0;
    __device__ __forceinline__ Stopwatch() : c0(clk()), g0(gtime()) {}
    __device__ __forceinline__ void stop(long long* out) const {
        long long c1 = clk();
        unsigned long long g1 = gtime();
        out[0] = c1 - c0;
        out[1] = (long long)(g1 - g0);
    }
};

// ---------------------------------------------------------------- clock rate
// One thread spins ~20 ms on %globaltimer and reads clock64 at both ends: SM MHz = cycles / ns * 1000.
__global__ void k_clock(long long* out, unsigned long long spin_ns) {
    long long c0 = clk();
    unsigned long long g0 = gtime(), g1;
    do { g1 = gtime(); } while (g1 - g0 < spin_ns);
    long long c1 = clk();
    out[0] = c1 - c0;
    out[1] = (long long)(g1 - g0);
}

// ---------------------------------------------------------------- dependent ALU / IMAD chains
__global__ void k_alu(unsigned a, unsigned b, int iters, long long* out, unsigned* sink) {
    unsigned x = threadIdx.x;
    Stopwatch watch;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < 32; j++) {
            asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(a));
            asm volatile("xor.b32 %0, %0, %1;" : "+r"(x) : "r"(b));
        }
    }
    watch.stop(out);
    sink[0] = x;
}
// max(x + a, b) in a dependent chain: __viaddmax_s32, one of Hopper's DPX functions (SASS: VIADDMNMX), and the same
// expression written plainly, which nvcc may fuse the same way (the .sass dump shows which instructions each became).
template <bool DPX>
__global__ void k_addmax(int a, int b, int iters, long long* out, unsigned* sink) {
    int x = (int) threadIdx.x;
    Stopwatch watch;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < 64; j++) {
            x = DPX ? __viaddmax_s32(x, a, b) : max(x + a, b);
        }
    }
    watch.stop(out);
    sink[0] = (unsigned) x;
}
__global__ void k_imad(unsigned a, unsigned b, int iters, long long* out, unsigned* sink) {
    unsigned x = threadIdx.x + 1;
    Stopwatch watch;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < 64; j++) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(a), "r"(b));
    }
    watch.stop(out);
    sink[0] = x;
}

// ---------------------------------------------------------------- shared-memory pointer chase
// Follows a chain of shared addresses for 32 x iters dependent ld.shared.u32 (unrolled by 32); returns where it ends.
__device__ __forceinline__ unsigned chase_shared(unsigned p, int iters) {
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < 32; j++) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p)::"memory");
    }
    return p;
}

// s[i] holds the 32-bit shared address of s[(i+33) % 1024]; one thread follows it with ld.shared.u32.
__global__ void k_shared_chase(int iters, long long* out, unsigned* sink) {
    __shared__ unsigned s[1024];
    unsigned base = (unsigned)__cvta_generic_to_shared(s);
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = base + 4u * ((i + 33) % 1024);
    __syncthreads();
    if (threadIdx.x != 0) return;
    unsigned p = base;
    Stopwatch watch;
    p = chase_shared(p, iters);
    watch.stop(out);
    sink[0] = p;
}

// ---------------------------------------------------------------- shared atomics, dependent chain
// Each word used holds its own shared address, so `atom [r], 0` (or cas with cmp=val=r) returns the address of the
// next access: a dependent chain with no address arithmetic. mode 0: lane 0 alone; 1: all 32 lanes on one word;
// 2: all 32 lanes, each on its own word (distinct banks).
template <int KIND>  // 0 atomicAdd, 1 atomicCAS
__global__ void k_shared_atomic(int mode, int iters, long long* out, unsigned* sink) {
    __shared__ unsigned s[64];
    unsigned base = (unsigned)__cvta_generic_to_shared(s);
    int lane = threadIdx.x & 31;
    if (threadIdx.x < 64) s[threadIdx.x] = base + 4u * threadIdx.x;
    __syncthreads();
    if (mode == 0 && lane != 0) return;
    unsigned r = base + 4u * (mode == 2 ? lane : 0);
    long long c0 = clk();
    unsigned long long g0 = gtime();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < 16; j++) {
            if (KIND == 0)
                asm volatile("atom.shared.add.u32 %0, [%0], 0;" : "+r"(r)::"memory");
            else
                asm volatile("atom.shared.cas.b32 %0, [%0], %0, %0;" : "+r"(r)::"memory");
        }
    }
    long long c1 = clk();
    unsigned long long g1 = gtime();
    if (lane == 0) {
        out[0] = c1 - c0;
        out[1] = (long long)(g1 - g0);
    }
    sink[threadIdx.x] = r;
}

// ---------------------------------------------------------------- global pointer chase
// buf holds a chain of 64-bit pointers; one thread follows it. CG: ld.global.cg (L2, not L1); CA: ld.global.ca (L1).
template <int CACHE>  // 0 cg, 1 ca, 2 volatile
__global__ void k_global_chase(void** start, int warm, int steps, long long* out, void** sink) {
    void** p = start;
    for (int i = 0; i < warm; i++) {
        if (CACHE == 1) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p)::"memory");
        else asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p)::"memory");
    }
    Stopwatch watch;
    for (int i = 0; i < steps; i += 8) {
#pragma unroll
        for (int j = 0; j < 8; j++) {
            if (CACHE == 0) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p)::"memory");
            else if (CACHE == 1) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p)::"memory");
            else asm volatile("ld.volatile.global.u64 %0, [%0];" : "+l"(p)::"memory");
        }
    }
    watch.stop(out);
    sink[0] = p;
}
__global__ void k_link(void** buf, const long long* from, const long long* to, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) buf[from[i]] = (void*)&buf[to[i]];
}

// ---------------------------------------------------------------- global atomics, single thread, dependent chain
// The word holds its own address: add 0 / exch with itself / cas(cmp=val=itself) return the next address.
template <int KIND>  // 0 add, 1 cas, 2 exch
__global__ void k_global_atomic(unsigned long long* word, int iters, long long* out, unsigned long long* sink) {
    unsigned long long p = (unsigned long long)word;
    Stopwatch watch;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < 8; j++) {
            if (KIND == 0) asm volatile("atom.global.add.u64 %0, [%0], 0;" : "+l"(p)::"memory");
            else if (KIND == 1) asm volatile("atom.global.cas.b64 %0, [%0], %0, %0;" : "+l"(p)::"memory");
            else asm volatile("atom.global.exch.b64 %0, [%0], %0;" : "+l"(p)::"memory");
        }
    }
    watch.stop(out);
    sink[0] = p;
}

// ---------------------------------------------------------------- seed 000's twelve benchmarks (+ dependent atomics)
// One master thread per block does `iters` accesses; contentious: every block on word 0; noncontentious: block b on
// word 64*b (its own 256-byte span). VL volatile load, VS volatile store, AR atomicAdd(p,0), AW atomicExch(p,0);
// PRE: one atomicAdd before the loop (seed 000's "preceded by atomic"). DEP: the next address depends on the last
// atomic's result (latency under contention, rather than throughput).
enum { VL = 0, VS = 1, AR = 2, AW = 3 };
template <int OP, bool PRE, bool DEP>
__global__ void k_seed(int* buf, int stride_words, int z, int iters, long long* cyc, int* sink) {
    if (threadIdx.x != 0) return;
    int* p = buf + (size_t)blockIdx.x * stride_words;
    int sum = 0, r = 0;
    if (PRE) sum += atomicAdd(p, 0);
    long long c0 = clk();
    for (int i = 0; i < iters; i++) {
        int* q = DEP ? p + (r & z) : p;
        if (OP == VL) { r = *(volatile int*)q; sum += r; }
        else if (OP == VS) { *(volatile int*)q = i; }
        else if (OP == AR) { r = atomicAdd(q, 0); sum += r; }
        else { r = atomicExch(q, 0); sum += r; }
    }
    long long c1 = clk();
    cyc[blockIdx.x] = c1 - c0;
    if (sum == 0x7fffffff) sink[0] = sum;
}

// ---------------------------------------------------------------- barriers
__global__ void k_syncthreads(int iters, long long* out) {
    __syncthreads();
    long long c0 = clk();
    unsigned long long g0 = gtime();
    for (int i = 0; i < iters; i++) __syncthreads();
    long long c1 = clk();
    unsigned long long g1 = gtime();
    if (threadIdx.x == 0) { out[0] = c1 - c0; out[1] = (long long)(g1 - g0); }
}
// Two warps ping-pong on named barriers 1 and 2 (64 threads each): one iteration is one round trip.
__global__ void k_named_pingpong(int iters, long long* out) {
    int warp = threadIdx.x >> 5;
    __syncthreads();
    long long c0 = clk();
    unsigned long long g0 = gtime();
    if (warp == 0) {
        for (int i = 0; i < iters; i++) {
            asm volatile("bar.arrive 1, 64;" ::: "memory");
            asm volatile("bar.sync 2, 64;" ::: "memory");
        }
    } else {
        for (int i = 0; i < iters; i++) {
            asm volatile("bar.sync 1, 64;" ::: "memory");
            asm volatile("bar.arrive 2, 64;" ::: "memory");
        }
    }
    long long c1 = clk();
    unsigned long long g1 = gtime();
    if (threadIdx.x == 0) { out[0] = c1 - c0; out[1] = (long long)(g1 - g0); }
}

__device__ __forceinline__ void mbar_init(unsigned addr, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(unsigned addr) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(addr) : "memory");
}
__device__ __forceinline__ void mbar_wait(unsigned addr, unsigned parity) {
    unsigned done;
    do {
        asm volatile(
            "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
            : "=r"(done) : "r"(addr), "r"(parity) : "memory");
    } while (!done);
}
// mode 0: lane 0 of warp 0 and lane 0 of warp 1 ping-pong on two mbarriers (count 1): one iteration is a round
// trip. mode 1: one thread arrives on an mbarrier and waits for the phase it just completed.
__global__ void k_mbarrier(int mode, int iters, long long* out) {
    __shared__ __align__(8) unsigned long long mb[2];
    unsigned a = (unsigned)__cvta_generic_to_shared(&mb[0]);
    unsigned b = (unsigned)__cvta_generic_to_shared(&mb[1]);
    if (threadIdx.x == 0) { mbar_init(a, 1); mbar_init(b, 1); }
    __syncthreads();
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (lane != 0) return;
    long long c0 = clk();
    unsigned long long g0 = gtime();
    if (mode == 1) {
        if (warp != 0) return;
        for (int i = 0; i < iters; i++) { mbar_arrive(a); mbar_wait(a, i & 1); }
    } else if (warp == 0) {
        for (int i = 0; i < iters; i++) { mbar_arrive(a); mbar_wait(b, i & 1); }
    } else {
        for (int i = 0; i < iters; i++) { mbar_wait(a, i & 1); mbar_arrive(b); }
    }
    long long c1 = clk();
    unsigned long long g1 = gtime();
    if (threadIdx.x == 0) { out[0] = c1 - c0; out[1] = (long long)(g1 - g0); }
}

// ---------------------------------------------------------------- __nanosleep
__global__ void k_nanosleep(unsigned ns, int n, long long* cyc, long long* gns) {
    for (int i = 0; i < n; i++) {
        long long c0 = clk();
        unsigned long long g0 = gtime();
        __nanosleep(ns);
        long long c1 = clk();
        unsigned long long g1 = gtime();
        cyc[i] = c1 - c0;
        gns[i] = (long long)(g1 - g0);
    }
}

// ---------------------------------------------------------------- shared bank conflicts, vote, fences (second pass)
// All 32 lanes chase a self-pointing shared word each; lane l uses bank l/d, row l%d, so every step is a d-way bank
// conflict (d = 1, 2, 4, ..., 32).
__global__ void k_bank_conflict(int d, int iters, long long* out, unsigned* sink) {
    __shared__ unsigned s[32 * 32];
    unsigned base = (unsigned)__cvta_generic_to_shared(s);
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = base + 4u * i;
    __syncthreads();
    int lane = threadIdx.x & 31;
    unsigned p = base + 4u * ((lane % d) * 32 + lane / d);
    long long c0 = clk();
    unsigned long long g0 = gtime();
    p = chase_shared(p, iters);
    long long c1 = clk();
    unsigned long long g1 = gtime();
    if (lane == 0) { out[0] = c1 - c0; out[1] = (long long)(g1 - g0); }
    sink[threadIdx.x] = p;
}
// Dependent chain of ballots: x = ballot(x != 0) | 1 -> ISETP + VOTE + LOP per step (see the SASS).
__global__ void k_vote(int iters, long long* out, unsigned* sink) {
    unsigned x = threadIdx.x + 1;
    long long c0 = clk();
    unsigned long long g0 = gtime();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < 32; j++) {
            asm volatile("{ .reg .pred p; setp.ne.u32 p, %0, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }" : "+r"(x)::"memory");
        }
    }
    long long c1 = clk();
    unsigned long long g1 = gtime();
    if (threadIdx.x == 0) { out[0] = c1 - c0; out[1] = (long long)(g1 - g0); }
    sink[threadIdx.x] = x;
}
// One thread: a volatile global store then a fence, back to back. SCOPE 0: no fence; 1: fence.cta (
// __threadfence_block); 2: fence.gpu (__threadfence); 3: fence.sys (__threadfence_system).
template <int SCOPE>
__global__ void k_fence(int* word, int iters, long long* out) {
    Stopwatch watch;
    for (int i = 0; i < iters; i++) {
        *(volatile int*)word = i;
        if (SCOPE == 1) __threadfence_block();
        else if (SCOPE == 2) __threadfence();
        else if (SCOPE == 3) __threadfence_system();
    }
    watch.stop(out);
}

__global__ void k_empty() {}

// ================================================================ throughput and suspension (model mechanisms)

// ---------------------------------------------------------------- per-SM global-memory lines per cycle
// One block of `warps` warps; every thread issues `iters` independent 32-bit loads (or stores). Lane l of warp w in
// iteration i touches word ((i * 1024 + w * 32 + l) * stride) & mask: stride 1 puts a warp's 32 lanes on one line
// (coalesced), stride 33 (132 bytes) puts every lane on its own line (uncoalesced, as along an anti-diagonal).
// MODE 0: ld.global.cg (served by L2), 1: ld.global.ca (warmed, served by L1; mask keeps it at 128 KiB),
// 2: st.global (write-through to L2). Thread 0 reads the clock between two block barriers, so the result is the
// SM's time for warps * iters warp accesses.
template <int MODE>
__global__ void k_lsu(const unsigned* buf, unsigned* wbuf, int stride, unsigned mask, int iters, long long* out,
                      unsigned* sink) {
    int w = threadIdx.x >> 5, l = threadIdx.x & 31;
    unsigned acc = 0;
    if (MODE == 1) {  // warm L1 with the same addresses
        for (int i = 0; i < iters; i++) {
            unsigned idx = ((unsigned)(i * 1024 + w * 32 + l) * stride) & mask;
            unsigned v;
            asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(buf + idx) : "memory");
            acc += v;
        }
    }
    __syncthreads();
    long long c0 = clk();
    unsigned long long g0 = gtime();
    __syncthreads();
#pragma unroll 8
    for (int i = 0; i < iters; i++) {
        unsigned idx = ((unsigned)(i * 1024 + w * 32 + l) * stride) & mask;
        unsigned v;
        if (MODE == 0) {
            asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(buf + idx) : "memory");
            acc += v;
        } else if (MODE == 1) {
            asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(buf + idx) : "memory");
            acc += v;
        } else {
            asm volatile("st.global.u32 [%0], %1;" ::"l"(wbuf + idx), "r"(idx) : "memory");
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        out[0] = clk() - c0;
        out[1] = (long long)(gtime() - g0);
    }
    sink[threadIdx.x & 1023] = acc;
}

// ---------------------------------------------------------------- per-SM shared-memory accesses per cycle
// One block of `warps` warps; each thread issues `iters` independent conflict-free shared accesses.
// MODE 0: ld.volatile.shared.u32, 1: atom.shared.add.u32 on its own word (32 distinct banks per warp).
template <int MODE>
__global__ void k_shared_tp(int iters, long long* out, unsigned* sink) {
    __shared__ unsigned s[1024];
    s[threadIdx.x & 1023] = threadIdx.x;
    unsigned base = (unsigned)__cvta_generic_to_shared(s);
    int l = threadIdx.x & 31;
    unsigned acc = 0;
    __syncthreads();
    long long c0 = clk();
    unsigned long long g0 = gtime();
    __syncthreads();
#pragma unroll 8
    for (int i = 0; i < iters; i++) {
        unsigned a = base + 4u * ((l + 32 * (i & 31)) & 1023);
        unsigned v;
        if (MODE == 0) asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
        else asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(v) : "r"(a) : "memory");
        acc += v;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        out[0] = clk() - c0;
        out[1] = (long long)(gtime() - g0);
    }
    sink[threadIdx.x & 1023] = acc;
}

// ---------------------------------------------------------------- do spinning warps slow a working warp?
// Lane 0 of warp 0 follows a dependent ld.shared chain (as k_shared_chase) while the other warps of the block spin on
// a volatile shared flag (ld.volatile.shared + compare + branch, as a token wait) until warp 0 raises it.
__global__ void k_spin_interference(int iters, long long* out, unsigned* sink) {
    __shared__ unsigned s[1024];
    __shared__ volatile unsigned flag;
    unsigned base = (unsigned)__cvta_generic_to_shared(s);
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) s[i] = base + 4u * ((i + 33) % 1024);
    if (threadIdx.x == 0) flag = 0;
    __syncthreads();
    if (threadIdx.x >= 32) {
        while (flag == 0) { }
        return;
    }
    if (threadIdx.x != 0) return;
    unsigned p = base;
    Stopwatch watch;
    p = chase_shared(p, iters);
    watch.stop(out);
    flag = 1;
    sink[0] = p;
}

// ---------------------------------------------------------------- mbarrier.try_wait: suspension
__device__ __forceinline__ bool mbar_try(unsigned addr, unsigned parity) {
    unsigned done;
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(addr), "r"(parity) : "memory");
    return done != 0;
}
// MODE 0: the first `lanes` lanes of warp 0 each call try_wait once on a phase that never completes (a count-2
// barrier with no arrival), `reps` times; out[2 + r] = cycles of the r-th call seen by lane 0 (the time limit).
// MODE 1: chain within one warp: lane 0 arrives on tok[0]; lane k waits on tok[k-1] with a try_wait loop in the form
// the CUDA backend emits, then arrives on tok[k]. out[0] = cycles until lane 31 is through: 31 hand-offs.
// MODE 2: the same chain across warps: lane 0 of warp w waits on tok[w-1] (w = 1..31), 31 hand-offs.
// MODE 3: as MODE 1 with a volatile shared flag per lane in place of the mbarrier (spin, no suspension).
// MODE 4: a 32 x 32 tile as the CUDA backend's lock-dataflow runs it: 1024 threads, one token each; row 0 and
// column 0 arrive at once, thread (r, c) waits on (r-1, c) and (r, c-1) with the emitted loop, then arrives.
// out[0] = cycles until thread (31, 31) is through: a critical path of 61 hand-offs (reported per hand-off).
// MODE 5: as MODE 4 with volatile shared flags (spin).
// MODE 6: every thread of the block calls try_wait once on a phase that never completes; out[0] = the longest call.
// MODE 7: every warp runs its own chain along its 32 lanes (lane k waits on lane k-1 of its warp); out[0] = cycles
// until lane 31 of the last warp is through (31 hand-offs), so MODE 1 with other warps doing the same.
// MODES 4 and 5 with fewer threads: a tile of 32 columns and blockDim.x / 32 rows, R + 29 hand-offs.
template <int MODE>
__global__ void k_mbar_suspend(int lanes, int reps, long long* out) {
    __shared__ __align__(8) unsigned long long tok[1024];
    __shared__ volatile unsigned flags[1024];
    int t = threadIdx.x, w = t >> 5, l = t & 31;
    unsigned base = (unsigned)__cvta_generic_to_shared(tok);
    mbar_init(base + 8u * t, MODE == 0 ? 2 : 1);
    flags[t] = 0;
    __syncthreads();
    if (MODE == 6) {
        __shared__ unsigned long long longest;
        if (t == 0) longest = 0;
        __syncthreads();
        long long c0 = clk();
        unsigned ok = mbar_try(base, 0) ? 1u : 0u;
        long long c1;
        asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1) : "r"(ok) : "memory");
        atomicMax(&longest, (unsigned long long)(c1 - c0));
        __syncthreads();
        if (t == 0) out[0] = (long long)longest;
        return;
    }
    if (MODE == 7) {
        long long c0 = clk();
        if (l == 0) {
            mbar_arrive(base + 8u * t);
        } else {
            bool have = false, done = false;
            while (!done) {
                if (!have) have = mbar_try(base + 8u * (t - 1), 0);
                if (have) { mbar_arrive(base + 8u * t); done = true; }
            }
        }
        if (t == (int)blockDim.x - 1) out[0] = clk() - c0;
        return;
    }
    if (MODE >= 4) {
        long long c0 = clk();
        if (w == 0 || l == 0) {
            if (MODE == 4) mbar_arrive(base + 8u * t); else flags[t] = 1;
        } else {
            bool have0 = false, have1 = false, done = false;
            while (!done) {
                if (MODE == 4) {
                    if (!have0) have0 = mbar_try(base + 8u * (t - 32), 0);
                    if (!have1) have1 = mbar_try(base + 8u * (t - 1), 0);
                } else {
                    if (!have0) have0 = flags[t - 32] != 0;
                    if (!have1) have1 = flags[t - 1] != 0;
                }
                if (have0 && have1) {
                    if (MODE == 4) mbar_arrive(base + 8u * t); else flags[t] = 1;
                    done = true;
                }
            }
        }
        if (t == (int)blockDim.x - 1) out[0] = clk() - c0;
        return;
    }
    if (MODE == 0) {
        if (w != 0 || l >= lanes) return;
        for (int r = 0; r < reps; r++) {
            long long c0 = clk();
            unsigned ok = mbar_try(base, 0) ? 1u : 0u;
            long long c1;  // the clock read takes the result as an input, so it waits for the try_wait
            asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1) : "r"(ok) : "memory");
            if (l == 0) out[2 + r] = ok ? -1 : c1 - c0;
        }
        return;
    }
    int me = MODE == 2 ? w : l;
    if (MODE == 2 && l != 0) return;
    if (MODE != 2 && w != 0) return;
    long long c0 = clk();
    if (me == 0) {
        if (MODE == 3) flags[0] = 1; else mbar_arrive(base);
    } else if (MODE == 3) {
        bool done = false;
        while (!done) {
            if (flags[me - 1] != 0) { flags[me] = 1; done = true; }
        }
    } else {
        bool have = false, done = false;
        while (!done) {
            if (!have) have = mbar_try(base + 8u * (me - 1), 0);
            if (have) { mbar_arrive(base + 8u * me); done = true; }
        }
    }
    long long c1 = clk();
    if (me == 31) out[0] = c1 - c0;
}

// ---------------------------------------------------------------- launches of a kernel that runs for a while
// One thread of each block spins `cycles` SM cycles on clock64.
__global__ void k_spin(long long cycles) {
    if (threadIdx.x != 0) return;
    long long c0 = clk();
    while (clk() - c0 < cycles) { }
}

// ================================================================ host
static long long* d_out;
static void* d_sink;

// Launches a timed single-chain kernel `reps` times; returns the median cycles and ns per operation.
template <typename F>
static void timed_chain(const char* name, int reps, double ops, F launch, const std::string& note) {
    std::vector<double> cyc, ns;
    launch();  // warm-up
    CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < reps; r++) {
        launch();
        LAUNCHED();
        CHECK(cudaDeviceSynchronize());
        long long h[2];
        CHECK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        cyc.push_back(h[0] / ops);
        ns.push_back(h[1] / ops);
    }
    std::string n = std::string(name);
    report((n + "_cycles").c_str(), median(cyc), "cycles", cyc.size(), note);
    report((n + "_ns").c_str(), median(ns), "ns", ns.size(), note);
}

int main() {
    int dev = 0, drv = 0, rt = 0;
    CHECK(cudaSetDevice(dev));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    CHECK(cudaDriverGetVersion(&drv));
    CHECK(cudaRuntimeGetVersion(&rt));
    int clock_khz = 0, mem_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev);
    cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev);
    printf("I,device,%s\nI,cc,%d.%d\nI,sms,%d\nI,l2_bytes,%d\nI,driver_api,%d\nI,runtime,%d\nI,attr_clock_khz,%d\n"
           "I,attr_mem_clock_khz,%d\n",
           prop.name, prop.major, prop.minor, prop.multiProcessorCount, prop.l2CacheSize, drv, rt, clock_khz, mem_khz);
    const int SMS = prop.multiProcessorCount;

    CHECK(cudaMalloc(&d_out, 64 * sizeof(long long)));
    CHECK(cudaMalloc(&d_sink, 4096));
    unsigned* usink = (unsigned*)d_sink;
    const int REPS = 9;

    // Warm the GPU up so that clocks leave idle before anything is timed (~200 ms of busy kernels).
    for (int i = 0; i < 10; i++) k_clock<<<SMS, 32>>>(d_out, 20000000ull);
    LAUNCHED();
    CHECK(cudaDeviceSynchronize());

    // Clock rate.
    std::vector<double> mhz;
    for (int r = 0; r < REPS; r++) {
        k_clock<<<1, 1>>>(d_out, 20000000ull);
        LAUNCHED();
        CHECK(cudaDeviceSynchronize());
        long long h[2];
        CHECK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        mhz.push_back(1000.0 * h[0] / h[1]);
    }
    double MHZ = median(mhz);
    report("sm_clock_mhz", MHZ, "MHz", mhz.size(), "clock64 cycles / globaltimer ns over 20 ms spin; one thread");

    // ALU and IMAD.
    timed_chain("alu_dep_latency", REPS, 1000.0 * 64, [&] { k_alu<<<1, 1>>>(3, 5, 1000, d_out, usink); },
                "dependent add.u32/xor.b32 chain; one thread");
    timed_chain("imad_dep_latency", REPS, 1000.0 * 64, [&] { k_imad<<<1, 1>>>(3, 5, 1000, d_out, usink); },
                "dependent mad.lo.u32 chain; one thread");
    timed_chain("dpx_addmax_dep_latency", REPS, 1000.0 * 64, [&] { k_addmax<true><<<1, 1>>>(3, -5, 1000, d_out, usink); },
                "dependent __viaddmax_s32 chain, max(x + a, b); one thread");
    timed_chain("plain_addmax_dep_latency", REPS, 1000.0 * 64, [&] { k_addmax<false><<<1, 1>>>(3, -5, 1000, d_out, usink); },
                "dependent max(x + a, b) chain, written plainly; one thread");

    // Shared memory.
    timed_chain("shared_load_latency", REPS, 2000.0 * 32, [&] { k_shared_chase<<<1, 32>>>(2000, d_out, usink); },
                "ld.shared.u32 pointer chase over 1024 words; one thread");
    const char* smode[3] = {"1lane", "32lanes_1word", "32lanes_32words"};
    for (int m = 0; m < 3; m++) {
        std::string nm = std::string("shared_atomicadd_") + smode[m];
        timed_chain(nm.c_str(), REPS, 2000.0 * 16, [&] { k_shared_atomic<0><<<1, 32>>>(m, 2000, d_out, usink); },
                    "atom.shared.add.u32 dependent chain; per warp instruction");
        nm = std::string("shared_atomiccas_") + smode[m];
        timed_chain(nm.c_str(), REPS, 2000.0 * 16, [&] { k_shared_atomic<1><<<1, 32>>>(m, 2000, d_out, usink); },
                    "atom.shared.cas.b32 dependent chain (every CAS succeeds); per warp instruction");
    }

    // Global memory pointer chases.
    {
        std::mt19937_64 rng(42);
        size_t region = 2ull << 30;  // 2 GiB
        void** buf;
        CHECK(cudaMalloc(&buf, region));
        char* scratch;
        size_t scratch_bytes = 512ull << 20;
        CHECK(cudaMalloc(&scratch, scratch_bytes));
        long long *d_from, *d_to;
        CHECK(cudaMalloc(&d_from, (1 << 20) * sizeof(long long)));
        CHECK(cudaMalloc(&d_to, (1 << 20) * sizeof(long long)));
        // Builds a random cycle over n nodes, one per 128-byte line, spread over the first `bytes` of buf.
        auto build = [&](size_t bytes, int n) {
            size_t lines = bytes / 128, seg = lines / n;
            std::vector<long long> node(n), from(n), to(n);
            for (int i = 0; i < n; i++) node[i] = (long long)((i * seg + (seg > 1 ? rng() % seg : 0)) * 16);
            std::vector<int> perm(n);
            for (int i = 0; i < n; i++) perm[i] = i;
            std::shuffle(perm.begin() + 1, perm.end(), rng);
            for (int i = 0; i < n; i++) { from[i] = node[perm[i]]; to[i] = node[perm[(i + 1) % n]]; }
            CHECK(cudaMemcpy(d_from, from.data(), n * sizeof(long long), cudaMemcpyHostToDevice));
            CHECK(cudaMemcpy(d_to, to.data(), n * sizeof(long long), cudaMemcpyHostToDevice));
            k_link<<<(n + 255) / 256, 256>>>(buf, d_from, d_to, n);
            LAUNCHED();
            CHECK(cudaDeviceSynchronize());
            return (void**)buf + node[perm[0]];
        };
        void** s;
        s = build(16 << 10, 128);
        timed_chain("global_l1hit_latency", REPS, 8192, [&] { k_global_chase<1><<<1, 1>>>(s, 256, 8192, d_out, (void**)d_sink); },
                    "ld.global.ca pointer chase, 128 lines (16 KiB), warmed; one thread");
        s = build(4 << 20, 32768);
        timed_chain("global_l2hit_latency", REPS, 8192, [&] { k_global_chase<0><<<1, 1>>>(s, 32768, 8192, d_out, (void**)d_sink); },
                    "ld.global.cg pointer chase, random over 32768 lines (4 MiB, both L2 halves), warmed; one thread");
        timed_chain("global_volatile_l2hit_latency", REPS, 8192, [&] { k_global_chase<2><<<1, 1>>>(s, 32768, 8192, d_out, (void**)d_sink); },
                    "ld.volatile.global pointer chase, same 4 MiB chain, warmed; one thread");
        size_t sizes[2] = {256ull << 20, 2ull << 30};
        const char* names[2] = {"global_dram_latency_256MiB", "global_dram_latency_2GiB"};
        for (int k = 0; k < 2; k++) {
            s = build(sizes[k], 8192);
            std::vector<double> cyc, ns;
            for (int r = 0; r < REPS; r++) {
                CHECK(cudaMemset(scratch, r & 0xff, scratch_bytes));  // evict the chain from L2
                CHECK(cudaDeviceSynchronize());
                k_global_chase<0><<<1, 1>>>(s, 0, 4096, d_out, (void**)d_sink);
                LAUNCHED();
                CHECK(cudaDeviceSynchronize());
                long long h[2];
                CHECK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
                cyc.push_back(h[0] / 4096.0);
                ns.push_back(h[1] / 4096.0);
            }
            std::string note = std::string("ld.global.cg pointer chase, 4096 of 8192 random lines spread over ") +
                               (k == 0 ? "256 MiB" : "2 GiB") + ", L2 flushed by a 512 MiB memset first (TLB misses included); one thread";
            report((std::string(names[k]) + "_cycles").c_str(), median(cyc), "cycles", cyc.size(), note);
            report((std::string(names[k]) + "_ns").c_str(), median(ns), "ns", ns.size(), note);
        }
        CHECK(cudaFree(buf));
        CHECK(cudaFree(scratch));
        CHECK(cudaFree(d_from));
        CHECK(cudaFree(d_to));
    }

    // Global atomics, uncontended, one thread.
    {
        unsigned long long* w;
        CHECK(cudaMalloc(&w, 256));
        unsigned long long self = (unsigned long long)w;
        CHECK(cudaMemcpy(w, &self, 8, cudaMemcpyHostToDevice));
        timed_chain("global_atomicadd_latency", REPS, 4000.0 * 8, [&] { k_global_atomic<0><<<1, 1>>>(w, 4000, d_out, (unsigned long long*)d_sink); },
                    "atom.global.add.u64 dependent chain on one word; one thread, uncontended");
        timed_chain("global_atomiccas_latency", REPS, 4000.0 * 8, [&] { k_global_atomic<1><<<1, 1>>>(w, 4000, d_out, (unsigned long long*)d_sink); },
                    "atom.global.cas.b64 dependent chain on one word; one thread, uncontended");
        timed_chain("global_atomicexch_latency", REPS, 4000.0 * 8, [&] { k_global_atomic<2><<<1, 1>>>(w, 4000, d_out, (unsigned long long*)d_sink); },
                    "atom.global.exch.b64 dependent chain on one word; one thread, uncontended");
        // The same word as a volatile pointer chase (it points to itself): the uncontended volatile counterpart.
        timed_chain("global_volatile_sameword_latency", REPS, 8192, [&] { k_global_chase<2><<<1, 1>>>((void**)w, 64, 8192, d_out, (void**)d_sink); },
                    "ld.volatile.global chase on one self-pointing word; one thread, uncontended");
        CHECK(cudaFree(w));
    }

    // Seed 000's twelve benchmarks.
    {
        const int BLOCKS = 8 * SMS, ITERS = 1000;
        int* buf;
        int* isink;
        long long* cyc;
        CHECK(cudaMalloc(&buf, (size_t)BLOCKS * 256 + 256));
        CHECK(cudaMalloc(&isink, 256));
        CHECK(cudaMalloc(&cyc, BLOCKS * sizeof(long long)));
        cudaEvent_t e0, e1;
        CHECK(cudaEventCreate(&e0));
        CHECK(cudaEventCreate(&e1));
        double accesses = (double)BLOCKS * ITERS;
        // Returns median kernel ms; also reports per-access ns and cycles and the masters' own cycles per access.
        auto seed = [&](const char* name, void (*kern)(int*, int, int, int, long long*, int*), bool cont) -> double {
            std::vector<double> ms, thr;
            CHECK(cudaMemset(buf, 0, (size_t)BLOCKS * 256 + 256));
            for (int r = 0; r < REPS + 1; r++) {
                CHECK(cudaEventRecord(e0));
                kern<<<BLOCKS, 32>>>(buf, cont ? 0 : 64, 0, ITERS, cyc, isink);
                CHECK(cudaEventRecord(e1));
                LAUNCHED();
                CHECK(cudaEventSynchronize(e1));
                float t;
                CHECK(cudaEventElapsedTime(&t, e0, e1));
                if (r == 0) continue;  // warm-up
                ms.push_back(t);
                std::vector<long long> h(BLOCKS);
                CHECK(cudaMemcpy(h.data(), cyc, BLOCKS * sizeof(long long), cudaMemcpyDeviceToHost));
                std::vector<double> per(BLOCKS);
                for (int b = 0; b < BLOCKS; b++) per[b] = (double)h[b] / ITERS;
                thr.push_back(median(per));
            }
            double m = median(ms);
            char note[200];
            snprintf(note, sizeof note, "seed000 %d blocks x 1 master x %d accesses; kernel time by cudaEvent", BLOCKS, ITERS);
            std::string n(name);
            report((n + "_ms").c_str(), m, "ms", ms.size(), note);
            report((n + "_per_access_cycles").c_str(), m * 1e6 / accesses * MHZ / 1000.0, "cycles", ms.size(),
                   "kernel time / accesses at sm_clock_mhz");
            report((n + "_master_cycles_per_access").c_str(), median(thr), "cycles", thr.size(),
                   "median over blocks of the master's clock64 time / accesses");
            return m;
        };
        double cvr = seed("seed_contentious_volatile_read", k_seed<VL, false, false>, true);
        double nvr = seed("seed_noncontentious_volatile_read", k_seed<VL, false, false>, false);
        double car = seed("seed_contentious_atomic_read", k_seed<AR, false, false>, true);
        double nar = seed("seed_noncontentious_atomic_read", k_seed<AR, false, false>, false);
        double cpr = seed("seed_contentious_volatile_read_preceded_by_atomic", k_seed<VL, true, false>, true);
        double npr = seed("seed_noncontentious_volatile_read_preceded_by_atomic", k_seed<VL, true, false>, false);
        double cvw = seed("seed_contentious_volatile_write", k_seed<VS, false, false>, true);
        double nvw = seed("seed_noncontentious_volatile_write", k_seed<VS, false, false>, false);
        double caw = seed("seed_contentious_atomic_write", k_seed<AW, false, false>, true);
        double naw = seed("seed_noncontentious_atomic_write", k_seed<AW, false, false>, false);
        double cpw = seed("seed_contentious_volatile_write_preceded_by_atomic", k_seed<VS, true, false>, true);
        double npw = seed("seed_noncontentious_volatile_write_preceded_by_atomic", k_seed<VS, true, false>, false);
        seed("contended_dependent_atomicadd", k_seed<AR, false, true>, true);
        seed("uncontended_dependent_atomicadd_manyblocks", k_seed<AR, false, true>, false);
        seed("contended_dependent_atomicexch", k_seed<AW, false, true>, true);
        const char* t2 = "seed000 Table 2 sense: contentious time / noncontentious time";
        report("ratio_contentious_noncontentious_volatile_read", cvr / nvr, "x", 1, t2);
        report("ratio_contentious_noncontentious_volatile_write", cvw / nvw, "x", 1, t2);
        report("ratio_contentious_noncontentious_atomic_read", car / nar, "x", 1, t2);
        report("ratio_contentious_noncontentious_atomic_write", caw / naw, "x", 1, t2);
        report("ratio_contentious_noncontentious_volatile_read_preceded", cpr / npr, "x", 1, t2);
        const char* t3 = "seed000 Table 3 sense: time / the matching volatile time";
        report("ratio_atomic_volatile_contentious_read", car / cvr, "x", 1, t3);
        report("ratio_atomic_volatile_contentious_write", caw / cvw, "x", 1, t3);
        report("ratio_atomic_volatile_noncontentious_read", nar / nvr, "x", 1, t3);
        report("ratio_atomic_volatile_noncontentious_write", naw / nvw, "x", 1, t3);
        report("ratio_preceded_volatile_contentious_read", cpr / cvr, "x", 1, t3 + std::string("; ~1 = atomic unit does not hold the line"));
        report("ratio_preceded_volatile_noncontentious_read", npr / nvr, "x", 1, t3);
        report("ratio_preceded_volatile_contentious_write", cpw / cvw, "x", 1, t3);
        report("ratio_preceded_volatile_noncontentious_write", npw / nvw, "x", 1, t3);
        CHECK(cudaFree(buf));
        CHECK(cudaFree(isink));
        CHECK(cudaFree(cyc));
    }

    // Barriers.
    int bsz[3] = {32, 256, 1024};
    for (int b : bsz) {
        std::string nm = "syncthreads_" + std::to_string(b / 32) + "warps";
        timed_chain(nm.c_str(), REPS, 10000, [&] { k_syncthreads<<<1, b>>>(10000, d_out); },
                    "__syncthreads() back to back in one block; per barrier");
    }
    timed_chain("named_barrier_roundtrip", REPS, 10000, [&] { k_named_pingpong<<<1, 64>>>(10000, d_out); },
                "warp0: bar.arrive 1,64 + bar.sync 2,64; warp1: bar.sync 1,64 + bar.arrive 2,64; per round trip");
    timed_chain("mbarrier_roundtrip", REPS, 10000, [&] { k_mbarrier<<<1, 64>>>(0, 10000, d_out); },
                "lane0 of two warps ping-pong: mbarrier.arrive + try_wait.parity loop on two count-1 mbarriers; per round trip");
    timed_chain("mbarrier_arrive_wait_self", REPS, 10000, [&] { k_mbarrier<<<1, 32>>>(1, 10000, d_out); },
                "one thread: mbarrier.arrive then try_wait.parity on the phase it completed; per pair");

    // __nanosleep.
    {
        const int N = 64;
        long long *dc, *dg;
        CHECK(cudaMalloc(&dc, N * sizeof(long long)));
        CHECK(cudaMalloc(&dg, N * sizeof(long long)));
        unsigned req[] = {0, 1, 10, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 100000, 1000000};
        for (unsigned ns : req) {
            k_nanosleep<<<1, 1>>>(ns, N, dc, dg);
            LAUNCHED();
            CHECK(cudaDeviceSynchronize());
            std::vector<long long> hc(N), hg(N);
            CHECK(cudaMemcpy(hc.data(), dc, N * sizeof(long long), cudaMemcpyDeviceToHost));
            CHECK(cudaMemcpy(hg.data(), dg, N * sizeof(long long), cudaMemcpyDeviceToHost));
            std::vector<double> c(hc.begin() + 1, hc.end()), g(hg.begin() + 1, hg.end());
            double cmin = *std::min_element(c.begin(), c.end()), cmax = *std::max_element(c.begin(), c.end());
            char nm[64], note[160];
            snprintf(note, sizeof note, "__nanosleep(%u) x %d; clock64 min %.0f max %.0f cycles", ns, N - 1, cmin, cmax);
            snprintf(nm, sizeof nm, "nanosleep_%u_cycles", ns);
            report(nm, median(c), "cycles", c.size(), note);
            snprintf(nm, sizeof nm, "nanosleep_%u_ns", ns);
            report(nm, median(c) * 1000.0 / MHZ, "ns", c.size(), "clock64 median converted at sm_clock_mhz");
            snprintf(nm, sizeof nm, "nanosleep_%u_globaltimer_ns", ns);
            report(nm, median(g), "ns", g.size(), "globaltimer median (its own resolution applies)");
        }
        CHECK(cudaFree(dc));
        CHECK(cudaFree(dg));
    }

    // Launch overhead.
    {
        for (int i = 0; i < 200; i++) k_empty<<<1, 32>>>();
        CHECK(cudaDeviceSynchronize());
        std::vector<double> b2b;
        const int N = 20000;
        for (int r = 0; r < 7; r++) {
            auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < N; i++) k_empty<<<1, 32>>>();
            CHECK(cudaDeviceSynchronize());
            auto t1 = std::chrono::steady_clock::now();
            b2b.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / N);
        }
        report("launch_empty_back_to_back_us", median(b2b), "us", b2b.size(),
               "20000 empty <<<1,32>>> launches then one cudaDeviceSynchronize; host wall time per launch");
        report("launch_empty_back_to_back_cycles", median(b2b) * MHZ, "cycles", b2b.size(), "at sm_clock_mhz");
        std::vector<double> rt1;
        for (int i = 0; i < 2000; i++) {
            auto t0 = std::chrono::steady_clock::now();
            k_empty<<<1, 32>>>();
            CHECK(cudaDeviceSynchronize());
            auto t1 = std::chrono::steady_clock::now();
            rt1.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
        }
        report("launch_empty_sync_roundtrip_us", median(rt1), "us", rt1.size(),
               "one empty launch + cudaDeviceSynchronize; host wall time");
        cudaEvent_t e0, e1;
        CHECK(cudaEventCreate(&e0));
        CHECK(cudaEventCreate(&e1));
        std::vector<double> ev;
        for (int r = 0; r < 7; r++) {
            CHECK(cudaEventRecord(e0));
            for (int i = 0; i < 1000; i++) k_empty<<<SMS, 128>>>();
            CHECK(cudaEventRecord(e1));
            CHECK(cudaEventSynchronize(e1));
            float t;
            CHECK(cudaEventElapsedTime(&t, e0, e1));
            ev.push_back(t * 1000.0 / 1000);
        }
        report("launch_empty_fullgrid_event_us", median(ev), "us", ev.size(),
               "1000 empty <<<SMs,128>>> launches between two cudaEvents; per launch");
    }

    // Second pass: bank conflicts, vote, fences.
    for (int d = 1; d <= 32; d *= 2) {
        std::string nm = "shared_bank_conflict_" + std::to_string(d) + "way";
        timed_chain(nm.c_str(), REPS, 1000.0 * 32, [&] { k_bank_conflict<<<1, 32>>>(d, 1000, d_out, usink); },
                    "32 lanes each chase a self-pointing shared word; d distinct words per bank; per warp load");
    }
    timed_chain("vote_ballot_chain", REPS, 1000.0 * 32, [&] { k_vote<<<1, 32>>>(1000, d_out, usink); },
                "dependent setp.ne + vote.sync.ballot per step, full warp");
    {
        int* w;
        CHECK(cudaMalloc(&w, 256));
        timed_chain("store_nofence", REPS, 10000, [&] { k_fence<0><<<1, 1>>>(w, 10000, d_out); },
                    "volatile global store per iteration, no fence; one thread");
        timed_chain("store_fence_cta", REPS, 10000, [&] { k_fence<1><<<1, 1>>>(w, 10000, d_out); },
                    "volatile global store + __threadfence_block() per iteration; one thread");
        timed_chain("store_fence_gpu", REPS, 10000, [&] { k_fence<2><<<1, 1>>>(w, 10000, d_out); },
                    "volatile global store + __threadfence() per iteration; one thread");
        timed_chain("store_fence_sys", REPS, 2000, [&] { k_fence<3><<<1, 1>>>(w, 2000, d_out); },
                    "volatile global store + __threadfence_system() per iteration; one thread");
        CHECK(cudaFree(w));
    }

    // Throughput and suspension: the model's per-SM limits, mbarrier suspension, launch pipelining.
    {
        const unsigned WORDS = 1u << 22;  // 16 MiB: stays in the 50 MiB L2
        unsigned *gb, *gw;
        CHECK(cudaMalloc(&gb, WORDS * 4));
        CHECK(cudaMalloc(&gw, WORDS * 4));
        CHECK(cudaMemset(gb, 0, WORDS * 4));
        const int IT = 512;
        const int warpsList[3] = {1, 8, 32};
        for (int stride : {1, 33}) {
            for (int wi = 0; wi < 3; wi++) {
                int wn = warpsList[wi];
                double ops = (double)wn * IT;
                std::string tag = std::string(stride == 1 ? "coalesced" : "uncoalesced") + "_" +
                                  std::to_string(wn) + "warps";
                k_lsu<0><<<1, 32 * wn>>>(gb, gw, stride, WORDS - 1, IT, d_out, usink);  // warm L2
                timed_chain(("lsu_load_l2_" + tag).c_str(), REPS, ops,
                            [&] { k_lsu<0><<<1, 32 * wn>>>(gb, gw, stride, WORDS - 1, IT, d_out, usink); },
                            "one block; independent ld.global.cg per thread, lanes stride*4 bytes apart; per warp load");
                timed_chain(("lsu_load_l1_" + tag).c_str(), REPS, ops,
                            [&] { k_lsu<1><<<1, 32 * wn>>>(gb, gw, stride, 32767, IT, d_out, usink); },
                            "one block; independent ld.global.ca per thread over 128 KiB, warmed; per warp load");
                timed_chain(("lsu_store_" + tag).c_str(), REPS, ops,
                            [&] { k_lsu<2><<<1, 32 * wn>>>(gb, gw, stride, WORDS - 1, IT, d_out, usink); },
                            "one block; independent st.global per thread; per warp store");
            }
        }
        CHECK(cudaFree(gb));
        CHECK(cudaFree(gw));
        for (int wn : {1, 8, 32}) {
            timed_chain(("shared_tp_load_" + std::to_string(wn) + "warps").c_str(), REPS, (double)wn * 2048,
                        [&] { k_shared_tp<0><<<1, 32 * wn>>>(2048, d_out, usink); },
                        "one block; independent conflict-free ld.volatile.shared per thread; per warp load");
            timed_chain(("shared_tp_atomicadd_" + std::to_string(wn) + "warps").c_str(), REPS, (double)wn * 2048,
                        [&] { k_shared_tp<1><<<1, 32 * wn>>>(2048, d_out, usink); },
                        "one block; independent atom.shared.add per thread, own word; per warp atomic");
        }
        for (int wn : {1, 8, 32}) {
            timed_chain(("shared_chase_with_spinners_" + std::to_string(wn - 1)).c_str(), REPS, 2000.0 * 32,
                        [&] { k_spin_interference<<<1, 32 * wn>>>(2000, d_out, usink); },
                        "lane 0 of warp 0: dependent ld.shared chain while the block's other warps spin on a volatile "
                        "shared flag; per load");
        }
        // mbarrier.try_wait on a phase that never completes: how long one call suspends its thread.
        for (int lanes : {1, 32}) {
            const int R = 32;
            std::vector<double> c;
            for (int r = 0; r < 3; r++) {
                k_mbar_suspend<0><<<1, 32>>>(lanes, R, d_out);
                LAUNCHED();
                CHECK(cudaDeviceSynchronize());
                long long h[2 + R];
                CHECK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
                for (int i = 1; i < R; i++) c.push_back((double)h[2 + i]);
            }
            std::sort(c.begin(), c.end());
            std::string nm = "mbarrier_trywait_fail_" + std::to_string(lanes) + "lanes_cycles";
            report(nm.c_str(), median(c), "cycles", c.size(),
                   "one try_wait.parity on a phase that never completes; cycles until it returns false; min " +
                       std::to_string((long long)c.front()) + " max " + std::to_string((long long)c.back()));
        }
        auto chain = [&](const char* name, int threads, auto kernel, const char* note) {
            std::vector<double> c;
            for (int r = 0; r < REPS; r++) {
                kernel<<<1, threads>>>(0, 0, d_out);
                LAUNCHED();
                CHECK(cudaDeviceSynchronize());
                long long h;
                CHECK(cudaMemcpy(&h, d_out, sizeof h, cudaMemcpyDeviceToHost));
                c.push_back(h / 31.0);
            }
            report(name, median(c), "cycles", c.size(), note);
        };
        chain("mbarrier_chain_in_warp_per_handoff", 32, k_mbar_suspend<1>,
              "lane k try_wait-loops on lane k-1's mbarrier then arrives on its own (CUDA backend form); 31 hand-offs");
        chain("mbarrier_chain_across_warps_per_handoff", 1024, k_mbar_suspend<2>,
              "lane 0 of warp w try_wait-loops on warp w-1's mbarrier then arrives; 31 hand-offs");
        chain("volatile_flag_chain_in_warp_per_handoff", 32, k_mbar_suspend<3>,
              "lane k spins on lane k-1's volatile shared flag then sets its own; 31 hand-offs");
        auto tile = [&](const char* name, auto kernel, const char* note) {
            std::vector<double> c;
            for (int r = 0; r < REPS; r++) {
                kernel<<<1, 1024>>>(0, 0, d_out);
                LAUNCHED();
                CHECK(cudaDeviceSynchronize());
                long long h;
                CHECK(cudaMemcpy(&h, d_out, sizeof h, cudaMemcpyDeviceToHost));
                c.push_back(h / 61.0);
            }
            report(name, median(c), "cycles", c.size(), note);
        };
        tile("mbarrier_tile32x32_per_handoff", k_mbar_suspend<4>,
             "1024 threads with one mbarrier each; (r c) waits on (r-1 c) and (r c-1) as the CUDA backend emits; 61 "
             "hand-offs on the critical path");
        tile("volatile_flag_tile32x32_per_handoff", k_mbar_suspend<5>,
             "as mbarrier_tile32x32 with volatile shared flags; 61 hand-offs on the critical path");
        auto scaled = [&](const std::string& name, int threads, double handoffs, auto kernel, const char* note) {
            std::vector<double> c;
            for (int r = 0; r < REPS; r++) {
                kernel<<<1, threads>>>(0, 0, d_out);
                LAUNCHED();
                CHECK(cudaDeviceSynchronize());
                long long h;
                CHECK(cudaMemcpy(&h, d_out, sizeof h, cudaMemcpyDeviceToHost));
                c.push_back(h / handoffs);
            }
            report(name.c_str(), median(c), "cycles", c.size(), note);
        };
        for (int rows : {2, 4, 8, 16}) {
            scaled("mbarrier_tile32x" + std::to_string(rows) + "_per_handoff", 32 * rows, rows + 29.0,
                   k_mbar_suspend<4>, "as mbarrier_tile32x32 with fewer rows (warps); per hand-off");
        }
        for (int warps : {2, 8, 32}) {
            scaled("mbarrier_chain_in_warp_" + std::to_string(warps) + "warps_per_handoff", 32 * warps, 31.0,
                   k_mbar_suspend<7>, "every warp runs the in-warp chain at once; per hand-off of the last warp");
        }
        for (int warps : {1, 8, 32}) {
            scaled("mbarrier_trywait_fail_" + std::to_string(warps) + "warps_longest", 32 * warps, 1.0,
                   k_mbar_suspend<6>, "every thread calls try_wait once on a phase that never completes; longest call");
        }
    }
    // Launches as the CUDA harness times them: cudaEvents around the launches of one run, on one stream.
    {
        cudaEvent_t e0, e1;
        CHECK(cudaEventCreate(&e0));
        CHECK(cudaEventCreate(&e1));
        auto timed = [&](int n, int blocks, int threads, long long spin, int reps) {
            std::vector<double> t;
            for (int r = 0; r < reps; r++) {
                CHECK(cudaEventRecord(e0));
                for (int i = 0; i < n; i++) k_spin<<<blocks, threads>>>(spin);
                CHECK(cudaEventRecord(e1));
                CHECK(cudaEventSynchronize(e1));
                float ms;
                CHECK(cudaEventElapsedTime(&ms, e0, e1));
                t.push_back(ms * 1000.0 / n);
            }
            return median(t);
        };
        timed(200, 1, 32, 0, 3);
        for (long long spin : {0LL, 4000LL, 16000LL}) {
            std::string s = std::to_string(spin);
            report(("launch_event_single_spin" + s + "_us").c_str(), timed(1, 1, 32, spin, 501), "us", 501,
                   "cudaEventRecord, one <<<1,32>>> launch spinning " + s + " cycles, cudaEventRecord; event time");
            report(("launch_event_single_spin" + s + "_1024x1024_us").c_str(), timed(1, 1024, 1024, spin, 201), "us",
                   201, "as above, <<<1024,1024>>>");
        }
        for (long long spin : {0LL, 2000LL, 4000LL, 8000LL, 16000LL, 32000LL}) {
            std::string s = std::to_string(spin);
            report(("launch_event_stream_spin" + s + "_us").c_str(), timed(200, 1, 32, spin, 7), "us", 7,
                   "200 back-to-back <<<1,32>>> launches spinning " + s + " cycles between two events; per launch");
        }
        for (long long spin : {0LL, 16000LL}) {
            std::string s = std::to_string(spin);
            report(("launch_event_stream_spin" + s + "_64x1024_us").c_str(), timed(200, 64, 1024, spin, 7), "us", 7,
                   "as above, <<<64,1024>>>");
        }
    }

    // Clock again at the end, to show it did not drift.
    {
        std::vector<double> m2;
        for (int r = 0; r < 5; r++) {
            k_clock<<<1, 1>>>(d_out, 20000000ull);
            LAUNCHED();
            CHECK(cudaDeviceSynchronize());
            long long h[2];
            CHECK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
            m2.push_back(1000.0 * h[0] / h[1]);
        }
        report("sm_clock_mhz_end", median(m2), "MHz", m2.size(), "as sm_clock_mhz, after all benchmarks");
    }
    printf("I,done,ok\n");
    return 0;
}
