// Finegrain GPU-model microbenchmarks: what a hand-off between spinning threads of one block costs on Hopper.
// Our own code. Build and run: bash runtime/gpu/microbench/run.sh (README.md beside this file, "Hand-offs").
//
// Each benchmark varies one thing against a baseline, so the cost of one mechanism shows as a difference:
//   ping-pong between two lane groups of ONE warp (independent thread scheduling has to switch the warp between
//   them) against ping-pong between TWO warps with all lanes uniform (only the shared-memory store-to-load
//   visibility and the warps' own loops remain); the spin loop padded with dependent ALU work (does the switch come
//   after a fixed cost or after a quantum of the spinner's instructions?); 0 to 30 bystander warps spinning on their
//   own flag, on the hand-off's flag, or with their lanes diverged, on every sub-partition or only on one (issue
//   slots shared among spinning warps); the same with mbarrier try_wait (with and without a suspend-time hint) and
//   test_wait in place of the volatile flag.
// Result lines: R,<name>,<median>,<unit>,<samples>,<note>; every value is SM cycles per hand-off, the median of 9
// launches of one block.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "handoff_timing.h"


// How a participant waits. VOL: spins on a volatile shared word. TRY: mbarrier.try_wait.parity loop (as the CUDA
// backend emits). HINT: try_wait with an explicit suspend-time hint of HINT_NS. TEST: mbarrier.test_wait.parity loop
// (never suspends).
enum Wait { VOL = 0, TRY = 1, HINT = 2, TEST = 3 };

// The two roles of a ping-pong use different inline-asm strings for the same instruction, so the compiler cannot merge
// their loops into one (both roles must sit at their own PC, as diverged lanes do in lock-dataflow).
template <int ROLE>
__device__ __forceinline__ unsigned ld_flag(unsigned a) {
    unsigned v;
    if (ROLE == 0) asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    else asm volatile("ld.volatile.shared.b32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    return v;
}
template <int ROLE, int WAIT, int HINT_NS>
__device__ __forceinline__ bool mbar_poll(unsigned a, unsigned parity) {
    unsigned done;
    if (WAIT == TEST) {
        if (ROLE == 0)
            asm volatile("{ .reg .pred pa; mbarrier.test_wait.parity.shared::cta.b64 pa, [%1], %2; selp.u32 %0, 1, 0, pa; }"
                         : "=r"(done) : "r"(a), "r"(parity) : "memory");
        else
            asm volatile("{ .reg .pred pb; mbarrier.test_wait.parity.shared::cta.b64 pb, [%1], %2; selp.u32 %0, 1, 0, pb; }"
                         : "=r"(done) : "r"(a), "r"(parity) : "memory");
    } else if (WAIT == HINT) {
        if (ROLE == 0)
            asm volatile("{ .reg .pred pa; mbarrier.try_wait.parity.shared::cta.b64 pa, [%1], %2, %3; selp.u32 %0, 1, 0, pa; }"
                         : "=r"(done) : "r"(a), "r"(parity), "r"(HINT_NS) : "memory");
        else
            asm volatile("{ .reg .pred pb; mbarrier.try_wait.parity.shared::cta.b64 pb, [%1], %2, %3; selp.u32 %0, 1, 0, pb; }"
                         : "=r"(done) : "r"(a), "r"(parity), "r"(HINT_NS) : "memory");
    } else {
        if (ROLE == 0)
            asm volatile("{ .reg .pred pa; mbarrier.try_wait.parity.shared::cta.b64 pa, [%1], %2; selp.u32 %0, 1, 0, pa; }"
                         : "=r"(done) : "r"(a), "r"(parity) : "memory");
        else
            asm volatile("{ .reg .pred pb; mbarrier.try_wait.parity.shared::cta.b64 pb, [%1], %2; selp.u32 %0, 1, 0, pb; }"
                         : "=r"(done) : "r"(a), "r"(parity) : "memory");
    }
    return done != 0;
}
__device__ __forceinline__ void mbar_init(unsigned a, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(unsigned a) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(a) : "memory");
}

// Waits until the hand-off with number `k` (1, 2, ...) has reached this role. VOL: the word holds k. Otherwise the
// other role's count-1 mbarrier completed its phase (k + 1) / 2 - 1. PAD dependent adds per failed poll.
template <int ROLE, int WAIT, int PAD, int HINT_NS>
__device__ __forceinline__ unsigned wait_for(unsigned word, unsigned bar, unsigned k, unsigned acc) {
    while (true) {
        bool ok;
        unsigned v = 0;
        if (WAIT == VOL) {
            v = ld_flag<ROLE>(word);
            ok = v == k;
        } else {
            ok = mbar_poll<ROLE, WAIT, HINT_NS>(bar, ((k + 1) / 2 - 1) & 1);
        }
        if (ok) return acc;
#pragma unroll
        for (int p = 0; p < PAD; p++) asm volatile("add.u32 %0, %0, %1;" : "+r"(acc) : "r"(v));
    }
}

// Bystanders: warps that take no part in the hand-off but spin while it runs, until role A raises stop[w].
// NONE: return at once. OWN: all lanes spin on the warp's own volatile word. SAME: all lanes spin on the hand-off's
// word until it holds its last value. DIVERGED: lanes 0-15 and 16-31 spin on the warp's own word in two loops (two
// lane groups at two PCs, as a lock-dataflow warp whose lanes wait on different tokens). MBAR: all lanes loop on
// try_wait of a never-completing mbarrier of their own (a count-2 barrier), reading stop[w] between calls.
enum Bystander { NONE = 0, OWN = 1, SAME = 2, DIVERGED = 3, MBAR = 4 };

// Ping-pong of `rounds` round trips (2 * rounds hand-offs) between role A (lanes 0 .. a_lanes-1 of warp 0) and role B
// (lanes b_lane .. b_lane+b_lanes-1 of warp b_warp). A hands off to B, B back to A; with WAIT = VOL through one
// volatile shared word that counts the hand-offs, otherwise through two count-1 mbarriers (the role's first lane
// arrives). Warps w of the block that are neither A's nor B's and whose sub-partition (w % 4) is in smsp_mask are
// bystanders of kind `by`. out[0] = A's lane 0 clock64 cycles from before its first hand-off to after the last.
template <int WAIT, int PAD, int HINT_NS>
__global__ void k_pingpong(int rounds, int a_lanes, int b_warp, int b_lane, int b_lanes, int by, int smsp_mask,
                           long long* out, unsigned* sink) {
    __shared__ volatile unsigned word;
    __shared__ volatile unsigned stop[32];
    __shared__ __align__(8) unsigned long long bars[2 + 32];
    int t = threadIdx.x, w = t >> 5, l = t & 31;
    unsigned wa = saddr(&word), barA = saddr(&bars[0]), barB = saddr(&bars[1]), never = saddr(&bars[2 + w]);
    if (t == 0) {
        word = 0;
        mbar_init(barA, 1);
        mbar_init(barB, 1);
    }
    if (l == 0) {
        stop[w] = 0;
        mbar_init(never, 2);
    }
    __syncthreads();
    const unsigned last = 2u * rounds;
    unsigned acc = t;
    if (w == 0 && l < a_lanes) {
        long long c0 = clk();
        for (unsigned k = 1; k < last; k += 2) {
            if (WAIT == VOL) word = k;
            else if (l == 0) mbar_arrive(barA);
            acc = wait_for<0, WAIT, PAD, HINT_NS>(wa, barB, k + 1, acc);
        }
        long long c1 = clk();
        if (l == 0) {
            out[0] = c1 - c0;
            for (int i = 0; i < 32; i++) stop[i] = 1;
        }
    } else if (w == b_warp && l >= b_lane && l < b_lane + b_lanes) {
        for (unsigned k = 1; k < last; k += 2) {
            acc = wait_for<1, WAIT, PAD, HINT_NS>(wa, barA, k, acc);
            if (WAIT == VOL) word = k + 1;
            else if (l == b_lane) mbar_arrive(barB);
        }
    } else if (w != 0 && w != b_warp && (smsp_mask >> (w & 3) & 1)) {
        unsigned own = saddr(&stop[w]);
        if (by == OWN) {
            while (ld_flag<0>(own) == 0) { }
        } else if (by == SAME) {
            while (ld_flag<0>(wa) != last) { }
        } else if (by == DIVERGED) {
            if (l < 16) { while (ld_flag<0>(own) == 0) { } }
            else { while (ld_flag<1>(own) == 0) { } }
        } else if (by == MBAR) {
            while (!mbar_poll<0, TRY, 0>(never, 0) && ld_flag<1>(own) == 0) { }
        }
    }
    sink[t] = acc;
}

// Chains whose waiters share one PC (as lock-dataflow's): MODE 0: every one of the block's warps passes a token
// along its own 32 lanes (lane k spins on lane k-1's volatile flag, then raises its own); out[0] = cycles until lane
// 31 of the last warp is through, 31 hand-offs. MODE 1: a warp-uniform chain across warps: all 32 lanes of warp w
// spin on warp w-1's flag, then raise warp w's; W-1 hand-offs. MODE 2: as MODE 0 with mbarrier.test_wait.
template <int MODE>
__global__ void k_chain(long long* out) {
    __shared__ volatile unsigned flags[1024];
    __shared__ __align__(8) unsigned long long tok[1024];
    int t = threadIdx.x, w = t >> 5, l = t & 31, W = blockDim.x >> 5;
    unsigned base = saddr(tok);
    flags[t] = 0;
    mbar_init(base + 8u * t, 1);
    __syncthreads();
    long long c0 = clk();
    if (MODE == 1) {
        if (w > 0) { while (ld_flag<0>(saddr(&flags[w - 1])) == 0) { } }
        flags[w] = 1;
        if (t == 32 * W - 1) out[0] = clk() - c0;
        return;
    }
    if (l > 0) {
        if (MODE == 0) { while (ld_flag<0>(saddr(&flags[t - 1])) == 0) { } }
        else { while (!mbar_poll<0, TEST, 0>(base + 8u * (t - 1), 0)) { } }
    }
    if (MODE == 0) flags[t] = 1; else mbar_arrive(base + 8u * t);
    if (t == 32 * W - 1) out[0] = clk() - c0;
}


// What a store's visibility costs, timed directly: clock64 is one counter per SM, so the writer's clock just before
// its store and the reader's clock when its poll first returns the new value bound the store-to-load latency. Lane 0
// of warp 0 writes, lane 0 of warp 1 (every lane when READER_LANES is 32) polls; the writer waits for the reader's
// acknowledgement and 400 cycles more before each of `rounds` stores, so every store meets a reader already
// spinning. The block's other warps are bystanders: NONE, LDS (all lanes spin on a volatile shared word of their
// own), ALU (a dependent add chain, reading a shared stop word every 256 adds). out[2 + i] = reader clock - writer
// clock of round i. PAD dependent adds per failed poll of the reader.
enum SpinKind { SPIN_NONE = 0, SPIN_LDS = 1, SPIN_ALU = 2 };
template <int PAD>
__global__ void k_visibility(int rounds, int reader_lanes, int by, long long* out, unsigned* sink) {
    __shared__ volatile unsigned flag, ack;
    __shared__ volatile unsigned stop[32];
    __shared__ volatile long long t_read;
    int t = threadIdx.x, w = t >> 5, l = t & 31;
    if (t == 0) { flag = 0; ack = 0; }
    if (l == 0) stop[w] = 0;
    __syncthreads();
    unsigned acc = t;
    if (w == 0) {
        if (l != 0) return;
        for (int i = 0; i < rounds; i++) {
            while (ld_flag<0>(saddr(&ack)) != (unsigned)i) { }
            long long c = clk();
            while (clk() - c < 400) { }
            long long c0 = clk();
            flag = i + 1;
            while (ld_flag<0>(saddr(&ack)) != (unsigned)i + 1) { }
            out[2 + i] = t_read - c0;
        }
        for (int k = 0; k < 32; k++) stop[k] = 1;
    } else if (w == 1) {
        if (l >= reader_lanes) return;
        for (int i = 0; i < rounds; i++) {
            acc = wait_for<1, VOL, PAD, 0>(saddr(&flag), 0, i + 1, acc);
            long long c1 = clk();
            if (l == 0) { t_read = c1; __threadfence_block(); ack = i + 1; }
        }
    } else if (by == SPIN_LDS) {
        while (ld_flag<0>(saddr(&stop[w])) == 0) { }
    } else if (by == SPIN_ALU) {
        while (ld_flag<0>(saddr(&stop[w])) == 0) {
            for (int k = 0; k < 256; k++) asm volatile("add.u32 %0, %0, %1;" : "+r"(acc) : "r"(k));
        }
    }
    sink[t] = acc;
}

static unsigned* d_sink;

static const char* BY_NAME[5] = {"none", "own", "same", "diverged", "mbar"};

// One ping-pong row. place: "inwarp" (A lane 0, B lane 16 of warp 0), "inwarp_wideb" (B = lanes 1..31),
// "across" (all lanes of warp 0 and warp 1), "across_lane0" (lane 0 of warp 0 and of warp 1),
// "across_samesmsp" (all lanes of warp 0 and warp 4).
template <int WAIT, int PAD, int HINT_NS>
static void pingpong(const char* wait, const std::string& place, int warps, int by, int smsp_mask, int rounds) {
    int a_lanes = 32, b_warp = 1, b_lane = 0, b_lanes = 32;
    if (place == "inwarp") { a_lanes = 1; b_warp = 0; b_lane = 16; b_lanes = 1; }
    if (place == "inwarp_wideb") { a_lanes = 1; b_warp = 0; b_lane = 1; b_lanes = 31; }
    if (place == "across_lane0") { a_lanes = 1; b_lanes = 1; }
    if (place == "across_samesmsp") { b_warp = 4; }
    std::string name = std::string("handoff_pingpong_") + place + "_" + wait;
    if (PAD > 0) name += "_pad" + std::to_string(PAD);
    name += "_" + std::to_string(warps) + "warps_" + BY_NAME[by];
    if (smsp_mask != 0xf) name += "_smsp" + std::to_string(smsp_mask);
    char note[240];
    snprintf(note, sizeof note,
             "%d round trips; A lanes 0-%d of warp 0; B lanes %d-%d of warp %d; bystanders %s on sub-partitions mask "
             "0x%x of %d warps; per hand-off",
             rounds, a_lanes - 1, b_lane, b_lane + b_lanes - 1, b_warp, BY_NAME[by], smsp_mask, warps);
    measure(name, 2.0 * rounds, [&] {
        k_pingpong<WAIT, PAD, HINT_NS><<<1, 32 * warps>>>(rounds, a_lanes, b_warp, b_lane, b_lanes, by, smsp_mask,
                                                          d_out, d_sink);
    }, note);
}

int main() {
    CHECK(cudaSetDevice(0));
    CHECK(cudaMalloc(&d_out, 64 * sizeof(long long)));
    CHECK(cudaMalloc(&d_sink, 4096 * sizeof(unsigned)));
    const int R = 1000, RM = 200;

    // (a) switching a diverged warp between two lane groups, against two warps; (b) cross-warp visibility.
    for (const char* place : {"inwarp", "inwarp_wideb", "across", "across_lane0", "across_samesmsp"}) {
        pingpong<VOL, 0, 0>("vol", place, 8, NONE, 0xf, R);
    }
    // Does the spinner's own loop length set the switch (a quantum of its instructions) or not (a fixed cost)?
    for (const char* place : {"inwarp", "across"}) {
        pingpong<VOL, 8, 0>("vol", place, 8, NONE, 0xf, R);
        pingpong<VOL, 32, 0>("vol", place, 8, NONE, 0xf, R);
        pingpong<VOL, 128, 0>("vol", place, 8, NONE, 0xf, R);
    }
    // (c) bystander warps spinning on the SM: how many, on what, and on which sub-partitions.
    for (const char* place : {"inwarp", "across"}) {
        for (int by : {OWN, SAME, DIVERGED}) {
            for (int warps : {2, 4, 8, 16, 32}) pingpong<VOL, 0, 0>("vol", place, warps, by, 0xf, R);
        }
        for (int mask : {0x1, 0x2, 0x4}) {
            pingpong<VOL, 0, 0>("vol", place, 32, OWN, mask, R);
            pingpong<VOL, 0, 0>("vol", place, 32, DIVERGED, mask, R);
        }
    }
    // (d) mbarrier: try_wait as emitted, with a short and a long suspend-time hint, and test_wait; alone, among
    // try_wait bystanders, among volatile bystanders.
    for (const char* place : {"inwarp", "across_lane0"}) {
        for (int warps : {2, 8, 32}) {
            pingpong<TRY, 0, 0>("trywait", place, warps, MBAR, 0xf, RM);
            pingpong<HINT, 0, 32>("trywait_hint32ns", place, warps, MBAR, 0xf, RM);
            pingpong<HINT, 0, 1000000>("trywait_hint1ms", place, warps, MBAR, 0xf, RM);
            pingpong<TEST, 0, 0>("testwait", place, warps, MBAR, 0xf, RM);
        }
        pingpong<TRY, 0, 0>("trywait", place, 32, OWN, 0xf, RM);
        pingpong<TEST, 0, 0>("testwait", place, 32, OWN, 0xf, RM);
        pingpong<TRY, 0, 0>("trywait", place, 8, NONE, 0xf, RM);
        pingpong<TEST, 0, 0>("testwait", place, 8, NONE, 0xf, RM);
    }
    // Chains with the waiters at one PC, as lock-dataflow runs them.
    for (int warps : {1, 2, 4, 8, 16, 32}) {
        measure("handoff_chain_in_warp_vol_" + std::to_string(warps) + "warps", 31.0,
                [&] { k_chain<0><<<1, 32 * warps>>>(d_out); },
                "every warp passes a volatile flag along its 32 lanes at once; per hand-off of the last warp");
    }
    for (int warps : {2, 8, 32}) {
        measure("handoff_chain_across_warps_vol_" + std::to_string(warps) + "warps", warps - 1.0,
                [&] { k_chain<1><<<1, 32 * warps>>>(d_out); },
                "all 32 lanes of warp w spin on warp w-1's volatile flag; per hand-off");
        measure("handoff_chain_in_warp_testwait_" + std::to_string(warps) + "warps", 31.0,
                [&] { k_chain<2><<<1, 32 * warps>>>(d_out); },
                "every warp passes an mbarrier token along its 32 lanes with test_wait; per hand-off of the last warp");
    }
    // Store-to-load visibility timed directly, against the bystanders' load traffic and the reader's poll rate.
    {
        const int N = 200;
        long long* d_lat;
        CHECK(cudaMalloc(&d_lat, (N + 2) * sizeof(long long)));
        auto vis = [&](const char* kind, int by, int warps, int lanes, int pad) {
            std::vector<double> all = latency_samples(N, d_lat, [&] {
                if (pad == 0) k_visibility<0><<<1, 32 * warps>>>(N, lanes, by, d_lat, d_sink);
                else k_visibility<32><<<1, 32 * warps>>>(N, lanes, by, d_lat, d_sink);
            });
            printf("R,handoff_visibility_%dlanes%s_%dwarps_%s,%.1f,cycles,%zu,writer clock before its store to reader clock "
                   "when its poll sees it; median; min %.0f p10 %.0f p90 %.0f max %.0f\n",
                   lanes, pad ? "_pad32" : "", warps, kind, median(all), all.size(), all.front(),
                   all[all.size() / 10], all[all.size() * 9 / 10], all.back());
            fflush(stdout);
        };
        for (int lanes : {1, 32}) vis("none", SPIN_NONE, 2, lanes, 0);
        vis("none", SPIN_NONE, 2, 32, 32);
        for (int warps : {8, 16, 32}) {
            vis("lds", SPIN_LDS, warps, 32, 0);
            vis("alu", SPIN_ALU, warps, 32, 0);
        }
        vis("lds", SPIN_LDS, 32, 32, 32);
        CHECK(cudaFree(d_lat));
    }
    printf("I,done,ok\n");
    return 0;
}
