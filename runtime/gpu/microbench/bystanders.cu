// Finegrain GPU-model microbenchmarks: how a hand-off between two spinning warps depends on the other warps of the SM.
// Our own code. Build and run: SUITES=bystanders bash runtime/gpu/microbench/run.sh (README.md, "Bystanders").
//
// handoff.cu found that two warps passing a volatile shared word back and forth cost 144 cycles per hand-off alone and
// 238 among 30 bystander warps spinning on all four sub-partitions, but about 150 among 7 bystanders on one
// sub-partition. Each group below varies one thing about the bystanders, so the rule behind it shows:
//   how many (2 to 32 warps in the block); on which sub-partitions (all 15 masks; warp w sits on w % 4), with the two
//   participants on two sub-partitions or on one; what they do: spin on a shared load, run dependent or independent
//   FMA chains (issue rate), sleep in __nanosleep, or wait at a named barrier (resident but not issuing); how often the
//   participants poll (dependent adds per failed poll); which store releases and which load polls (st.volatile,
//   st.shared, st.release.cta, atom.exch; ld.volatile, ld.relaxed.cta, ld.acquire.cta); handoff.cu's dependent-add
//   bystanders and its direct store-to-poll timing. Last, lock-dataflow's volatile tile with 2 to 32 rows (warps).
// Result lines: R,<name>,<median>,<unit>,<samples>,<note>; every value is SM cycles per hand-off, the median of 9
// launches of one block (after one warm-up launch).
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "handoff_timing.h"


// How the writer releases (ST_*) and how the reader polls (LD_*).
enum Store { ST_VOL = 0, ST_WEAK = 1, ST_RELEASE = 2, ST_ATOM = 3 };
enum Load { LD_VOL = 0, LD_RELAXED = 1, LD_ACQUIRE = 2 };
static const char* ST_NAME[4] = {"stvol", "stweak", "strelease", "atomexch"};
static const char* LD_NAME[3] = {"ldvol", "ldrelaxed", "ldacquire"};

template <int ST>
__device__ __forceinline__ void put(unsigned a, unsigned v) {
    if (ST == ST_VOL) asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
    else if (ST == ST_WEAK) asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
    else if (ST == ST_RELEASE) asm volatile("st.release.cta.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
    else { unsigned old; asm volatile("atom.shared.exch.b32 %0, [%1], %2;" : "=r"(old) : "r"(a), "r"(v) : "memory"); }
}
// The two roles use different asm strings so the compiler keeps their loops apart (each role at its own PC).
template <int ROLE, int LD>
__device__ __forceinline__ unsigned get(unsigned a) {
    unsigned v;
    if (LD == LD_VOL) {
        if (ROLE == 0) asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
        else asm volatile("ld.volatile.shared.b32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    } else if (LD == LD_RELAXED) {
        if (ROLE == 0) asm volatile("ld.relaxed.cta.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
        else asm volatile("ld.relaxed.cta.shared.b32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    } else {
        if (ROLE == 0) asm volatile("ld.acquire.cta.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
        else asm volatile("ld.acquire.cta.shared.b32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    }
    return v;
}

template <int ROLE, int LD, int PAD>
__device__ __forceinline__ unsigned wait_for(unsigned word, unsigned k, unsigned acc) {
    while (true) {
        unsigned v = get<ROLE, LD>(word);
        if (v == k) return acc;
#pragma unroll
        for (int p = 0; p < PAD; p++) asm volatile("add.u32 %0, %0, %1;" : "+r"(acc) : "r"(v));
    }
}

// What a bystander does until role A raises stop[w]. LDS: all lanes spin on a volatile shared word of their own.
// FMADEP: one dependent fma.rn.f32 chain (a new FMA every ~4 cycles at most), reading stop[w] every 64 FMAs. FMAIND:
// eight independent FMA chains (up to one FMA per cycle), stop[w] every 64 rounds. SLEEP: __nanosleep(2000) between
// reads of stop[w] (resident, almost never issuing). BAR: waits at named barrier 1 until warp 0 arrives at the end
// (resident, not issuing at all). ADDDEP: a dependent add.u32 chain reading stop[w] every 256 adds (handoff.cu's
// k_visibility ALU bystanders, written the same way).
enum Bystander { NONE = 0, LDS = 1, FMADEP = 2, FMAIND = 3, SLEEP = 4, BAR = 5, ADDDEP = 6 };
static const char* BY_NAME[7] = {"none", "lds", "fmadep", "fmaind", "sleep", "bar", "adddep"};

__device__ __forceinline__ void bystand(int by, unsigned stopw, int bar_threads, float* fsink) {
    if (by == LDS) {
        while (get<0, LD_VOL>(stopw) == 0) { }
    } else if (by == FMADEP) {
        float x = (float)threadIdx.x;
        while (get<0, LD_VOL>(stopw) == 0) {
#pragma unroll
            for (int k = 0; k < 64; k++) asm volatile("fma.rn.f32 %0, %0, 0f3F7FFFFE, 0f3A000000;" : "+f"(x));
        }
        fsink[threadIdx.x] = x;
    } else if (by == FMAIND) {
        float x[8];
#pragma unroll
        for (int j = 0; j < 8; j++) x[j] = (float)(threadIdx.x + j);
        while (get<0, LD_VOL>(stopw) == 0) {
#pragma unroll
            for (int k = 0; k < 64; k++) {
#pragma unroll
                for (int j = 0; j < 8; j++) asm volatile("fma.rn.f32 %0, %0, 0f3F7FFFFE, 0f3A000000;" : "+f"(x[j]));
            }
        }
        float s = 0;
#pragma unroll
        for (int j = 0; j < 8; j++) s += x[j];
        fsink[threadIdx.x] = s;
    } else if (by == SLEEP) {
        while (get<0, LD_VOL>(stopw) == 0) __nanosleep(2000);
    } else if (by == BAR) {
        asm volatile("bar.sync 1, %0;" ::"r"(bar_threads) : "memory");
    } else if (by == ADDDEP) {
        unsigned acc = threadIdx.x;
        while (get<0, LD_VOL>(stopw) == 0) {
            for (int k = 0; k < 256; k++) asm volatile("add.u32 %0, %0, %1;" : "+r"(acc) : "r"(k));
        }
        fsink[threadIdx.x] = (float)acc;
    }
}

// handoff.cu's k_visibility with this file's bystanders: lane 0 of warp 0 stores a flag that every lane of warp 1
// polls, 400 cycles after the reader acknowledged the previous one; out[2 + i] = the reader's clock when its poll
// returns the value minus the writer's clock just before its store (clock64 is one counter per SM).
__global__ void k_visibility(int rounds, int by, int bar_threads, long long* out, float* fsink) {
    __shared__ volatile unsigned flag, ack;
    __shared__ volatile unsigned stop[32];
    __shared__ volatile long long t_read;
    int t = threadIdx.x, w = t >> 5, l = t & 31;
    if (t == 0) { flag = 0; ack = 0; }
    if (l == 0) stop[w] = 0;
    __syncthreads();
    if (w == 0) {
        if (l == 0) {
            for (int i = 0; i < rounds; i++) {
                while (get<0, LD_VOL>(saddr(&ack)) != (unsigned)i) { }
                long long c = clk();
                while (clk() - c < 400) { }
                long long c0 = clk();
                flag = i + 1;
                while (get<0, LD_VOL>(saddr(&ack)) != (unsigned)i + 1) { }
                out[2 + i] = t_read - c0;
            }
            for (int k = 0; k < 32; k++) stop[k] = 1;
        }
        __syncwarp();
        if (by == BAR) asm volatile("bar.arrive 1, %0;" ::"r"(bar_threads) : "memory");
    } else if (w == 1) {
        for (int i = 0; i < rounds; i++) {
            while (get<1, LD_VOL>(saddr(&flag)) != (unsigned)i + 1) { }
            long long c1 = clk();
            if (l == 0) { t_read = c1; __threadfence_block(); ack = i + 1; }
        }
    } else {
        bystand(by, saddr(&stop[w]), bar_threads, fsink);
    }
}

// Ping-pong of `rounds` round trips between every lane of warp 0 (A) and every lane of warp b_warp (B) through one
// shared word that counts the hand-offs; the block's other warps whose sub-partition (w % 4) is in smsp_mask are
// bystanders of kind `by`, the rest exit at once. out[0] = A's cycles from before its first hand-off to after its
// last.
template <int ST, int LD, int PAD>
__global__ void k_pingpong(int rounds, int b_warp, int by, int smsp_mask, int bar_threads, long long* out,
                           unsigned* sink, float* fsink) {
    __shared__ volatile unsigned word;
    __shared__ volatile unsigned stop[32];
    int t = threadIdx.x, w = t >> 5, l = t & 31;
    unsigned wa = saddr(&word);
    if (t == 0) word = 0;
    if (l == 0) stop[w] = 0;
    __syncthreads();
    const unsigned last = 2u * rounds;
    unsigned acc = t;
    if (w == 0) {
        long long c0 = clk();
        for (unsigned k = 1; k < last; k += 2) {
            put<ST>(wa, k);
            acc = wait_for<0, LD, PAD>(wa, k + 1, acc);
        }
        long long c1 = clk();
        if (l == 0) {
            out[0] = c1 - c0;
            for (int i = 0; i < 32; i++) stop[i] = 1;
        }
        __syncwarp();
        if (by == BAR) asm volatile("bar.arrive 1, %0;" ::"r"(bar_threads) : "memory");
    } else if (w == b_warp) {
        for (unsigned k = 1; k < last; k += 2) {
            acc = wait_for<1, LD, PAD>(wa, k, acc);
            put<ST>(wa, k + 1);
        }
    } else if (smsp_mask >> (w & 3) & 1) {
        bystand(by, saddr(&stop[w]), bar_threads, fsink);
    }
    sink[t] = acc;
}

// Lock-dataflow's volatile tile (bench.cu's k_mbar_suspend mode 5) with 32 columns and blockDim.x / 32 rows: (r, c)
// waits on (r-1, c) and (r, c-1), then raises its own flag. out[0] = cycles until the last thread is through; R + 29
// hand-offs on the critical path, as bench.cu counts them (61 for 32 rows).
__global__ void k_tile(long long* out) {
    __shared__ volatile unsigned flags[1024];
    int t = threadIdx.x, w = t >> 5, l = t & 31;
    flags[t] = 0;
    __syncthreads();
    long long c0 = clk();
    if (w == 0 || l == 0) {
        flags[t] = 1;
    } else {
        bool have0 = false, have1 = false, done = false;
        while (!done) {
            if (!have0) have0 = flags[t - 32] != 0;
            if (!have1) have1 = flags[t - 1] != 0;
            if (have0 && have1) { flags[t] = 1; done = true; }
        }
    }
    if (t == (int)blockDim.x - 1) out[0] = clk() - c0;
}

static unsigned* d_sink;
static float* d_fsink;

// One ping-pong row: name bystanders_<st>_<ld>[_pad<P>]_<place>_<W>warps_<by>[_smsp<M>].
template <int ST, int LD, int PAD>
static void pp(int b_warp, int warps, int by, int mask) {
    const int rounds = 1000;
    int bystanders = 0;
    for (int w = 1; w < warps; w++)
        if (w != b_warp && (mask >> (w & 3) & 1)) bystanders++;
    int bar_threads = 32 * (bystanders + 1);
    std::string name = std::string("bystanders_") + ST_NAME[ST] + "_" + LD_NAME[LD];
    if (PAD > 0) name += "_pad" + std::to_string(PAD);
    name += b_warp == 1 ? "_across" : "_samesmsp";
    name += "_" + std::to_string(warps) + "warps_" + BY_NAME[by];
    if (mask != 0xf) name += "_smsp" + std::to_string(mask);
    char note[200];
    snprintf(note, sizeof note,
             "%d round trips; warp 0 and warp %d; %d bystanders (%s) on sub-partition mask 0x%x; %d adds per failed "
             "poll; per hand-off",
             rounds, b_warp, bystanders, BY_NAME[by], mask, PAD);
    measure(name, 2.0 * rounds, [&] {
        k_pingpong<ST, LD, PAD><<<1, 32 * warps>>>(rounds, b_warp, by, mask, bar_threads, d_out, d_sink, d_fsink);
    }, note);
}

int main() {
    CHECK(cudaSetDevice(0));
    CHECK(cudaMalloc(&d_out, 64 * sizeof(long long)));
    CHECK(cudaMalloc(&d_sink, 1024 * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_fsink, 1024 * sizeof(float)));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("I,device,%s\nI,sms,%d\n", prop.name, prop.multiProcessorCount);

    // (1) How many: spinning bystanders on every sub-partition, 0 to 30 of them.
    for (int warps : {2, 3, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32}) pp<ST_VOL, LD_VOL, 0>(1, warps, LDS, 0xf);
    // (2) Where: 32 warps, bystanders only on the sub-partitions in the mask; participants on sub-partitions 0 and 1.
    for (int mask = 1; mask < 15; mask++) pp<ST_VOL, LD_VOL, 0>(1, 32, LDS, mask);
    // ... and with both participants on sub-partition 0 (warps 0 and 4).
    for (int warps : {8, 16, 24, 32}) pp<ST_VOL, LD_VOL, 0>(4, warps, LDS, 0xf);
    for (int mask : {0x1, 0x2, 0x3, 0xe}) pp<ST_VOL, LD_VOL, 0>(4, 32, LDS, mask);
    // (3) What they do: issue rate (dependent vs independent FMA chains), resident but sleeping or at a barrier.
    for (int by : {FMADEP, FMAIND, SLEEP, BAR}) {
        for (int warps : {8, 16, 20, 24, 28, 32}) pp<ST_VOL, LD_VOL, 0>(1, warps, by, 0xf);
    }
    for (int by : {FMADEP, FMAIND}) {
        for (int mask : {0x3, 0xc}) pp<ST_VOL, LD_VOL, 0>(1, 32, by, mask);
    }
    // (4) How often the participants poll: dependent adds per failed poll.
    for (int warps : {2, 32}) {
        pp<ST_VOL, LD_VOL, 8>(1, warps, warps == 2 ? NONE : LDS, 0xf);
        pp<ST_VOL, LD_VOL, 32>(1, warps, warps == 2 ? NONE : LDS, 0xf);
        pp<ST_VOL, LD_VOL, 128>(1, warps, warps == 2 ? NONE : LDS, 0xf);
    }
    pp<ST_VOL, LD_VOL, 32>(1, 32, FMAIND, 0xf);
    // (5) Which store releases and which load polls: alone and among 30 spinning bystanders.
    for (int warps : {2, 32}) {
        int by = warps == 2 ? NONE : LDS;
        pp<ST_WEAK, LD_VOL, 0>(1, warps, by, 0xf);
        pp<ST_RELEASE, LD_VOL, 0>(1, warps, by, 0xf);
        pp<ST_ATOM, LD_VOL, 0>(1, warps, by, 0xf);
        pp<ST_VOL, LD_RELAXED, 0>(1, warps, by, 0xf);
        pp<ST_VOL, LD_ACQUIRE, 0>(1, warps, by, 0xf);
        pp<ST_RELEASE, LD_ACQUIRE, 0>(1, warps, by, 0xf);
        pp<ST_ATOM, LD_ACQUIRE, 0>(1, warps, by, 0xf);
    }
    // (7) The dependent-add bystanders of handoff.cu's visibility test, in the ping-pong; then that test's direct
    // store-to-poll timing with this file's bystanders.
    for (int warps : {8, 16, 24, 32}) pp<ST_VOL, LD_VOL, 0>(1, warps, ADDDEP, 0xf);
    {
        const int N = 200;
        long long* d_lat;
        CHECK(cudaMalloc(&d_lat, (N + 2) * sizeof(long long)));
        for (int by : {NONE, LDS, ADDDEP, FMADEP, SLEEP}) {
            for (int warps : {2, 16, 32}) {
                if ((by == NONE) != (warps == 2)) continue;
                std::vector<double> all = latency_samples(
                        N, d_lat, [&] { k_visibility<<<1, 32 * warps>>>(N, by, 32 * (warps - 1), d_lat, d_fsink); });
                printf("R,bystanders_visibility_%dwarps_%s,%.1f,cycles,%zu,writer clock before its store to reader clock "
                       "when its poll sees it; median; p10 %.0f p90 %.0f\n",
                       warps, BY_NAME[by], median(all), all.size(), all[all.size() / 10], all[all.size() * 9 / 10]);
                fflush(stdout);
            }
        }
        CHECK(cudaFree(d_lat));
    }
    // (6) Lock-dataflow's volatile tile with 2 to 32 rows (warps).
    for (int rows : {2, 4, 8, 12, 16, 20, 24, 28, 32}) {
        measure("bystanders_tile32x" + std::to_string(rows) + "_per_handoff", rows + 29.0,
                [&] { k_tile<<<1, 32 * rows>>>(d_out); },
                "volatile tile of 32 columns and " + std::to_string(rows) + " rows; " + std::to_string(rows + 29) +
                    " hand-offs on the critical path");
    }
    printf("I,done,ok\n");
    return 0;
}
