// Finegrain GPU-model microbenchmarks: what a lock-dataflow tile's hand-off costs beyond the 32-lane token chain.
// Our own code. Build and run: SUITES=tileloop bash runtime/gpu/microbench/run.sh (README.md beside this file).
//
// bystanders.cu's volatile tile of 32 columns costs 239 cycles per hand-off with 2 rows, where the in-warp chain of
// handoff.cu (lane k spins on lane k-1's flag, stores after the loop) costs 136. The tile's loop differs from the
// chain's in three ways: each lane waits on two producers (north: the warp above; west: its own lane k-1), the
// store sits inside the loop (critical-section form), and the loop is longer. k_grid runs the tile's loop with
// the waits chosen per row by arguments (north, west, both, neither), so the SASS stays the same while the waits
// change: a lane that must not wait on a producer starts holding that token. Every thread counts its loop's
// iterations; out[0] = cycles until the block's last thread is through, out[1] = that thread's iterations, so
// cycles / iterations is the loop's time per iteration and iterations / hand-offs how many polls a hand-off takes.
// Variants: the order of the two loads (north first or west first); PAD loop-carried dependent adds per iteration
// (a longer loop: is a hand-off a whole number of iterations?). k_chain_counted is handoff.cu's in-warp chain with
// the same counter. k_words: two warps ping-pong through one word, or every lane through its own word (do 32 lanes
// polling 32 words cost more than one word?). k_place: where the store sits and how many loads the loop holds, in one
// warp. k_stld: does one thread's load wait for its own earlier store? k_spinrate: one iteration of each loop shape
// with nothing to hand off (every poll fails), and with one lane leaving the loop in every iteration. k_ifs: what a
// divergent if-block costs outside a spin loop.
// Result lines: R,<name>,<median>,<unit>,<samples>,<note>; cycles are SM cycles, medians of 9 launches of one block.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "handoff_timing.h"

// The tile's loop (the CUDA backend's critical-section form, as bystanders.cu's k_tile) over blockDim.x / 32 rows of
// 32 columns: thread (r, c) waits on (r-1, c) when bit r of nmask is set and r > 0, on (r, c-1) when bit r of wmask is
// set and c > 0 (column 0 never waits), then raises its own flag inside the loop. WEST_FIRST: the west load comes before the north load.
template <int WEST_FIRST, int PAD>
__global__ void k_grid(int nmask, int wmask, long long* out, unsigned* sink) {
    __shared__ volatile unsigned flags[1024];
    int t = threadIdx.x, w = t >> 5, l = t & 31;
    flags[t] = 0;
    __syncthreads();
    long long c0 = clk();
    bool needN = w > 0 && l > 0 && (nmask >> w & 1);
    bool needW = l > 0 && (wmask >> w & 1);
    unsigned it = 0, acc = t;
    if (!needN && !needW) {
        flags[t] = 1;
    } else {
        bool have0 = !needN, have1 = !needW, done = false;
        while (!done) {
            it++;
            if (WEST_FIRST) {
                if (!have1) have1 = flags[t - 1] != 0;
                if (!have0) have0 = flags[t - 32] != 0;
            } else {
                if (!have0) have0 = flags[t - 32] != 0;
                if (!have1) have1 = flags[t - 1] != 0;
            }
            if (have0 && have1) { flags[t] = 1; done = true; }
#pragma unroll
            for (int p = 0; p < PAD; p++) asm volatile("add.u32 %0, %0, %1;" : "+r"(acc) : "r"(it));
        }
    }
    if (t == (int)blockDim.x - 1) {
        out[0] = clk() - c0;
        out[1] = it;
    }
    sink[t] = acc;
}

// handoff.cu's k_chain<0> (lane k spins on lane k-1's flag; the store after the loop) with an iteration counter.
__global__ void k_chain_counted(long long* out) {
    __shared__ volatile unsigned flags[1024];
    int t = threadIdx.x, l = t & 31;
    flags[t] = 0;
    __syncthreads();
    long long c0 = clk();
    unsigned it = 0;
    if (l > 0) {
        while (true) {
            it++;
            if (flags[t - 1] != 0) break;
        }
    }
    flags[t] = 1;
    if (t == (int)blockDim.x - 1) {
        out[0] = clk() - c0;
        out[1] = it;
    }
}

// Every lane of warp 0 (A) and of warp 1 (B) pass a count back and forth `rounds` times; lane l uses word l when
// WORDS is 32 (32 lanes polling 32 words, as a tile row polls its neighbours), word 0 when WORDS is 1.
template <int WORDS>
__global__ void k_words(int rounds, long long* out) {
    __shared__ volatile unsigned words[32];
    int t = threadIdx.x, w = t >> 5, l = t & 31;
    volatile unsigned* my = &words[WORDS == 32 ? l : 0];
    if (w == 0) *my = 0;
    __syncthreads();
    const unsigned last = 2u * rounds;
    if (w == 0) {
        long long c0 = clk();
        for (unsigned k = 1; k < last; k += 2) {
            *my = k;
            while (*my != k + 1) { }
        }
        if (l == 0) out[0] = clk() - c0;
    } else if (w == 1) {
        for (unsigned k = 1; k < last; k += 2) {
            while (*my != k) { }
            *my = k + 1;
        }
    }
}


// The store's place, one warp passing a token along its 32 lanes: FORM 0: one load in the loop, the store inside it
// (critical-section form with the chain's single wait); FORM 1: the tile's loop (two loads, north held) but the store
// after the loop; FORM 2: handoff.cu's chain (store after the loop) plus a store of every lane to a word of its own
// in every iteration; FORM 3: as FORM 0 with a second load in the loop, of a word set before the chain starts (two
// loads and the store inside, without the tile's predicated loads); FORM 4: FORM 3 with the two loads swapped. Every
// thread counts its iterations. FORM 5: FORM 3 whose first load no lane executes (held is true at run time), so the
// loop keeps the predicated-off load (nvcc splits that loop in two, with the store after it); FORM 6: the tile's loop
// with its north load taken out at compile time (nvcc makes FORM 0 of it); FORM 7: FORM 3 with the first load
// guarded by a predicate in inline PTX (held = 1: no lane executes it, held = 0: every lane does), so the loop keeps
// it; FORM 8: FORM 7 with the guarded load after the west load. FORM 9: the tile's loop in one warp (the first load
// reads a word set before the chain, so it runs in the first iteration only) with the two tokens held in bools, as
// k_grid; FORM 10: the same with the tokens held in unsigned words.
template <int FORM>
__global__ void k_place(int held, long long* out) {
    __shared__ volatile unsigned flags[1024];
    __shared__ volatile unsigned scratch[1024];
    int t = threadIdx.x, l = t & 31;
    flags[t] = 0;
    scratch[1023] = 1;
    __syncthreads();
    long long c0 = clk();
    unsigned it = 0;
    if (l > 0) {
        if (FORM == 0) {
            bool done = false;
            while (!done) {
                it++;
                if (flags[t - 1] != 0) { flags[t] = 1; done = true; }
            }
        } else if (FORM == 1) {
            bool have0 = true, have1 = false;
            while (true) {
                it++;
                if (!have0) have0 = flags[t - 32] != 0;
                if (!have1) have1 = flags[t - 1] != 0;
                if (have0 && have1) break;
            }
            flags[t] = 1;
        } else if (FORM == 5) {
            bool done = false;
            while (!done) {
                it++;
                bool a = held != 0;
                if (!a) a = scratch[1023] != 0;
                if (a && flags[t - 1] != 0) { flags[t] = 1; done = true; }
            }
        } else if (FORM == 6) {
            bool have1 = false, done = false;
            while (!done) {
                it++;
                if (!have1) have1 = flags[t - 1] != 0;
                if (have1) { flags[t] = 1; done = true; }
            }
        } else if (FORM == 9) {
            bool have0 = false, have1 = false, done = false;
            while (!done) {
                it++;
                if (!have0) have0 = scratch[1023] != 0;
                if (!have1) have1 = flags[t - 1] != 0;
                if (have0 && have1) { flags[t] = 1; done = true; }
            }
        } else if (FORM == 10) {
            unsigned have0 = 0, have1 = 0, done = 0;
            while (!done) {
                it++;
                if (!have0) have0 = scratch[1023];
                if (!have1) have1 = flags[t - 1];
                if (have0 && have1) { flags[t] = 1; done = 1; }
            }
        } else if (FORM == 7 || FORM == 8) {
            unsigned other = saddr(&scratch[1023]), west = saddr(&flags[t - 1]);
            bool done = false;
            while (!done) {
                it++;
                unsigned a = 1, b;
                if (FORM == 7) {
                    asm volatile("{ .reg .pred p; setp.ne.u32 p, %2, 0; @!p ld.volatile.shared.u32 %0, [%1]; }"
                                 : "+r"(a) : "r"(other), "r"(held) : "memory");
                    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(b) : "r"(west) : "memory");
                } else {
                    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(b) : "r"(west) : "memory");
                    asm volatile("{ .reg .pred p; setp.ne.u32 p, %2, 0; @!p ld.volatile.shared.u32 %0, [%1]; }"
                                 : "+r"(a) : "r"(other), "r"(held) : "memory");
                }
                if (a != 0 && b != 0) { flags[t] = 1; done = true; }
            }
        } else if (FORM == 3 || FORM == 4) {
            bool done = false;
            while (!done) {
                it++;
                unsigned a, b;
                if (FORM == 3) { a = scratch[1023]; b = flags[t - 1]; }
                else { b = flags[t - 1]; a = scratch[1023]; }
                if (a != 0 && b != 0) { flags[t] = 1; done = true; }
            }
        } else {
            while (true) {
                it++;
                scratch[t] = it;
                if (flags[t - 1] != 0) break;
            }
            flags[t] = 1;
        }
    } else {
        flags[t] = 1;
    }
    if (t == (int)blockDim.x - 1) {
        out[0] = clk() - c0;
        out[1] = it;
    }
}

// One thread, no divergence: N dependent shared loads (each address depends on the previous value), with MODE 0
// nothing else, MODE 1 a store to another word before each load, MODE 2 a store to the word the load reads. Does a
// warp's load wait for its own earlier store? out[0] = cycles per iteration x 1000.
template <int MODE>
__global__ void k_stld(int n, long long* out) {
    __shared__ volatile unsigned words[64];
    int t = threadIdx.x;
    if (t < 64) words[t] = 0;
    __syncthreads();
    if (t != 0) return;
    unsigned v = 0;
    long long c0 = clk();
    for (int i = 0; i < n; i++) {
        if (MODE == 1) words[32 + (v & 1)] = i;
        if (MODE == 2) words[v & 1] = 0;
        v = words[v & 1];
    }
    out[0] = (clk() - c0) * 1000 / n;
    out[1] = v;
}

// How long one failing iteration of a poll loop takes, with nothing to hand off: warp 0's lane 0 raises a flag
// `spin` cycles after the block's barrier; every lane of warp 1 polls it meanwhile with loop SHAPE, counting
// iterations. SHAPE 0: handoff.cu's poll (load, compare, branch); SHAPE 1: the tile's loop of k_grid (two guarded
// loads, tokens in bools, the store inside), both tokens pending; SHAPE 2: FORM 0 of k_place (one load, the store
// inside); SHAPE 3: no load, a dependent integer chain of one IMAD per iteration with a runtime trip count (the loop's
// branch alone); SHAPE 4: a dependent chase through shared words that point to themselves (one ld.shared per
// iteration, runtime trip count: the poll's load and branch without polling); SHAPE 5: the same chase with volatile
// loads; SHAPE 6: the poll of SHAPE 0 with eight independent adds per iteration. SHAPES 7-9: SHAPES 0-2 where lane l
// also leaves the loop after l + 1 iterations, so one lane leaves in every iteration (as in a hand-off along the
// lanes) with no store to wait for (spin = 0: the flag is never raised while they run). SHAPES 10 and 11: the poll
// as an atomic exchange on the lane's own word (lock-dataflow's atomic spin-lock), failing, and with lane l leaving
// after l + 1 iterations. out[0] = warp 1's last lane's cycles, out[1] = its iterations.
template <int SHAPE>
__global__ void k_spinrate(int spin, long long* out, unsigned* sink) {
    __shared__ volatile unsigned flags[64];
    __shared__ unsigned mutex[32];   // SHAPES 10, 11: the producers' mutexes, held (1)
    int t = threadIdx.x, w = t >> 5, l = t & 31;
    if (t < 64) flags[t] = 0;
    if (t < 32) mutex[t] = 1;
    __syncthreads();
    unsigned it = 0, acc = t;
    if (w == 0) {
        if (l == 0) {
            long long c = clk();
            while (clk() - c < spin) { }
            flags[0] = 1;
            flags[1] = 1;
            if (SHAPE == 10) {
                for (int k = 0; k < 32; k++) atomicExch(&mutex[k], 0u);
            }
        }
        return;
    }
    long long c0 = clk();
    if (SHAPE == 0) {
        while (true) {
            it++;
            if (flags[0] != 0) break;
        }
    } else if (SHAPE == 7) {
        while (true) {
            it++;
            if (flags[0] != 0 || it > (unsigned)l) break;
        }
    } else if (SHAPE == 8) {
        bool done = false;
        while (!done) {
            it++;
            if (flags[0] != 0 || it > (unsigned)l) { flags[32 + l] = 1; done = true; }
        }
    } else if (SHAPE == 9) {
        bool have0 = false, have1 = false, done = false;
        while (!done) {
            it++;
            if (!have0) have0 = flags[0] != 0 || it > (unsigned)l;
            if (!have1) have1 = flags[1] != 0 || it > (unsigned)l;
            if (have0 && have1) { flags[32 + l] = 1; done = true; }
        }
    } else if (SHAPE == 1) {
        bool have0 = false, have1 = false, done = false;
        while (!done) {
            it++;
            if (!have0) have0 = flags[0] != 0;
            if (!have1) have1 = flags[1] != 0;
            if (have0 && have1) { flags[32 + l] = 1; done = true; }
        }
    } else if (SHAPE == 2) {
        bool done = false;
        while (!done) {
            it++;
            if (flags[0] != 0) { flags[32 + l] = 1; done = true; }
        }
    } else if (SHAPE == 10 || SHAPE == 11) {
        // an atomic poll, as lock-dataflow's atomic spin-lock takes a token: exchange a 1 into the lane's own word (the
        // producer's mutex, held at 1); a 0 back means free, which the lane puts back. SHAPE 11: lane l also leaves after
        // l + 1 iterations (the mutexes stay held).
        while (true) {
            it++;
            if (atomicExch(&mutex[l], 1u) == 0) { atomicExch(&mutex[l], 0u); break; }
            if (SHAPE == 11 && it > (unsigned)l) break;
        }
    } else if (SHAPE == 4 || SHAPE == 5) {
        __shared__ unsigned self[64];
        self[l] = 4 * l;
        __syncwarp();
        unsigned a = 4 * l;
        int n = spin / 32;
#pragma unroll 1
        for (int i = 0; i < n; i++) {
            it++;
            if (SHAPE == 4) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(a) : "r"(saddr(self) + a) : "memory");
            else asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(a) : "r"(saddr(self) + a) : "memory");
        }
        acc += a;
    } else if (SHAPE == 6) {
        unsigned x0 = t, x1 = t + 1, x2 = t + 2, x3 = t + 3;
        while (true) {
            it++;
            if (flags[0] != 0) break;
            asm volatile("add.u32 %0, %0, 1; add.u32 %1, %1, 1; add.u32 %2, %2, 1; add.u32 %3, %3, 1;"
                         "add.u32 %0, %0, 1; add.u32 %1, %1, 1; add.u32 %2, %2, 1; add.u32 %3, %3, 1;"
                         : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3));
        }
        acc += x0 + x1 + x2 + x3;
    } else {
        int n = spin / 8;
#pragma unroll 1
        for (int i = 0; i < n; i++) {
            it++;
            asm volatile("mad.lo.u32 %0, %0, 3, 1;" : "+r"(acc));
        }
    }
    if (t == (int)blockDim.x - 1) {
        out[0] = clk() - c0;
        out[1] = it;
    }
    sink[t] = acc;
}

// Divergence outside a spin loop: 32 if-blocks one after another, block k taken by lane k alone (a short loop inside
// with a runtime trip count keeps it a branch rather than predication), by every lane (WHO = 1: no divergence), or
// by no lane (WHO = 2). out[0] = the last lane's cycles for the 32 blocks.
template <int WHO>
__global__ void k_ifs(int reps, long long* out, unsigned* sink) {
    int t = threadIdx.x, l = t & 31;
    unsigned acc = t;
    long long c0 = clk();
#pragma unroll
    for (int k = 0; k < 32; k++) {
        bool take = WHO == 0 ? l == k : WHO == 1 ? (reps > 0) : (reps < 0);
        if (take) {
#pragma unroll 1
            for (int q = 0; q < reps; q++) acc = acc * 3u + (unsigned)q;
        }
    }
    if (t == 31) out[0] = clk() - c0;
    sink[t] = acc;
}

static unsigned* d_sink;

// Launches one block 9 times after a warm-up; prints the median cycles per hand-off, cycles per iteration and
// iterations per hand-off of the block's last thread.
template <typename F>
static void measure_counted(const std::string& name, double handoffs, F launch, const std::string& note) {
    std::vector<double> per, iter, polls;
    for (int r = 0; r < 10; r++) {
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        long long h[2];
        CHECK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        if (r == 0) continue;
        per.push_back(h[0] / handoffs);
        iter.push_back(h[1] > 0 ? (double)h[0] / h[1] : 0.0);
        polls.push_back(h[1] / handoffs);
    }
    std::sort(per.begin(), per.end());
    printf("R,%s,%.3f,cycles,%zu,%s; per hand-off; min %.1f max %.1f\n", name.c_str(), median(per), per.size(),
           note.c_str(), per.front(), per.back());
    printf("R,%s_cycles_per_iteration,%.3f,cycles,%zu,the last thread's cycles / its loop iterations\n", name.c_str(),
           median(iter), iter.size());
    printf("R,%s_iterations_per_handoff,%.3f,iterations,%zu,the last thread's loop iterations / hand-offs\n",
           name.c_str(), median(polls), polls.size());
    fflush(stdout);
}

// One k_grid row: `rows` warps, north waits on the rows in nmask, west waits on the rows in wmask.
template <int WEST_FIRST, int PAD>
static void grid(const std::string& name, int rows, int nmask, int wmask, double handoffs, const char* what) {
    std::string full = "tileloop_" + name;
    if (WEST_FIRST) full += "_westfirst";
    if (PAD > 0) full += "_pad" + std::to_string(PAD);
    char note[240];
    snprintf(note, sizeof note, "%d rows; north waits mask 0x%x; west waits mask 0x%x; %s; %.0f hand-offs", rows, nmask,
             wmask, what, handoffs);
    measure_counted(full, handoffs, [&] { k_grid<WEST_FIRST, PAD><<<1, 32 * rows>>>(nmask, wmask, d_out, d_sink); },
                    note);
}

int main() {
    CHECK(cudaSetDevice(0));
    CHECK(cudaMalloc(&d_out, 64 * sizeof(long long)));
    CHECK(cudaMalloc(&d_sink, 1024 * sizeof(unsigned)));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("I,device,%s\nI,sms,%d\n", prop.name, prop.multiProcessorCount);

    // The tile as bystanders.cu runs it (row 0 set at once, every other row waits north and west), and the same
    // loop with one of the two waits taken away: north only leaves each lane one hand-off from the row above, west
    // only leaves the 32-lane chain in the tile's loop form.
    for (int rows : {2, 4, 8, 32}) {
        unsigned all = rows == 32 ? 0xffffffffu : (1u << rows) - 1;
        grid<0, 0>("tile32x" + std::to_string(rows), rows, all, all & ~1u, rows + 29.0, "the tile");
        grid<1, 0>("tile32x" + std::to_string(rows), rows, all, all & ~1u, rows + 29.0, "the tile");
    }
    grid<0, 0>("chain_1row", 1, 0, 1, 31, "one warp: the west chain in the tile's loop");
    grid<0, 0>("chain_row1_of_2", 2, 0, 2, 31, "row 1 the west chain in the tile's loop; row 0 sets at once");
    grid<0, 0>("chain_row1_of_2_northheld", 2, 2, 2, 31,
               "the tile of 2 rows (row 1 polls north too, whose flags are set at once)");
    grid<0, 0>("chain_2rows", 2, 0, 3, 31, "two warps each run the west chain in the tile's loop");
    grid<0, 0>("pipe_north_only", 2, 2, 1, 32, "row 0 the west chain; row 1 lane c waits on row 0 lane c only");
    grid<0, 0>("pipe_north_west", 2, 2, 3, 32, "row 0 the west chain; row 1 waits north and west");
    // A longer loop: PAD dependent adds per iteration.
    grid<0, 8>("chain_1row", 1, 0, 1, 31, "one warp: the west chain in the tile's loop");
    grid<0, 32>("chain_1row", 1, 0, 1, 31, "one warp: the west chain in the tile's loop");
    grid<0, 8>("tile32x2", 2, 3, 2, 31, "the tile");
    grid<0, 32>("tile32x2", 2, 3, 2, 31, "the tile");
    // handoff.cu's chain (store after the loop), counted.
    for (int warps : {1, 2}) {
        measure_counted("tileloop_chain_storeafter_" + std::to_string(warps) + "warps", 31.0,
                        [&] { k_chain_counted<<<1, 32 * warps>>>(d_out); },
                        "handoff.cu's in-warp chain with an iteration counter");
    }
    // Two warps, one word or one word per lane.
    measure("tileloop_pingpong_1word", 2000.0, [&] { k_words<1><<<1, 64>>>(1000, d_out); },
            "1000 round trips, every lane of warps 0 and 1 on one word; per hand-off");
    measure("tileloop_pingpong_32words", 2000.0, [&] { k_words<32><<<1, 64>>>(1000, d_out); },
            "1000 round trips, lane l of warps 0 and 1 on word l; per hand-off");
    // Where the store sits, and whether a warp's load waits for its own earlier store.
    measure_counted("tileloop_place_storeinside_1load", 31.0, [&] { k_place<0><<<1, 32>>>(1, d_out); },
                    "one warp; one load per iteration, the store inside the loop");
    measure_counted("tileloop_place_tileloop_storeafter", 31.0, [&] { k_place<1><<<1, 32>>>(1, d_out); },
                    "one warp; the tile's loop (north held), the store after the loop");
    measure_counted("tileloop_place_chain_plus_ownstore", 31.0, [&] { k_place<2><<<1, 32>>>(1, d_out); },
                    "one warp; handoff.cu's chain plus a store to a word of its own in every iteration");
    measure_counted("tileloop_place_storeinside_2loads", 31.0, [&] { k_place<3><<<1, 32>>>(1, d_out); },
                    "one warp; a load of a set word and the west load per iteration, the store inside the loop");
    measure_counted("tileloop_place_storeinside_2loads_westfirst", 31.0, [&] { k_place<4><<<1, 32>>>(1, d_out); },
                    "one warp; the west load and a load of a set word per iteration, the store inside the loop");
    measure_counted("tileloop_place_storeinside_2loads_firstoff", 31.0, [&] { k_place<5><<<1, 32>>>(1, d_out); },
                    "one warp; as storeinside_2loads with the first load executed by no lane");
    measure_counted("tileloop_place_tileloop_nonorth", 31.0, [&] { k_place<6><<<1, 32>>>(1, d_out); },
                    "one warp; the tile's loop without its north load, the store inside the loop");
    for (int held : {0, 1}) {
        const char* h = held ? "_off" : "_on";
        measure_counted(std::string("tileloop_place_storeinside_guardedfirst") + h, 31.0,
                        [&] { k_place<7><<<1, 32>>>(held, d_out); },
                        held ? "one warp; a guarded load no lane executes, then the west load; the store inside the loop"
                             : "one warp; a guarded load every lane executes, then the west load; the store inside the loop");
        measure_counted(std::string("tileloop_place_storeinside_guardedsecond") + h, 31.0,
                        [&] { k_place<8><<<1, 32>>>(held, d_out); },
                        held ? "one warp; the west load, then a guarded load no lane executes; the store inside the loop"
                             : "one warp; the west load, then a guarded load every lane executes; the store inside the loop");
    }
    measure_counted("tileloop_place_tileloop_bool", 31.0, [&] { k_place<9><<<1, 32>>>(1, d_out); },
                    "one warp; the tile's loop, tokens in bools, the first load's word set before the chain");
    measure_counted("tileloop_place_tileloop_word", 31.0, [&] { k_place<10><<<1, 32>>>(1, d_out); },
                    "one warp; the tile's loop, tokens in unsigned words, the first load's word set before the chain");
    measure("tileloop_stld_loadonly", 1000.0, [&] { k_stld<0><<<1, 64>>>(10000, d_out); },
            "one thread; dependent shared loads; cycles per load");
    measure("tileloop_stld_store_other_word", 1000.0, [&] { k_stld<1><<<1, 64>>>(10000, d_out); },
            "one thread; a store to another word, then the dependent load; cycles per iteration");
    measure("tileloop_stld_store_same_word", 1000.0, [&] { k_stld<2><<<1, 64>>>(10000, d_out); },
            "one thread; a store to the word the dependent load then reads; cycles per iteration");
    // One failing iteration of each loop shape.
    {
        const char* shape_name[12] = {"poll", "tileloop", "storeinside", "imadloop", "ldschase", "ldschase_volatile",
                                      "poll_8adds", "poll_onelaneleaves", "storeinside_onelaneleaves",
                                      "tileloop_onelaneleaves", "atomicpoll", "atomicpoll_onelaneleaves"};
        auto rate = [&](int shape, auto kernel) {
            std::vector<double> per;
            for (int r = 0; r < 10; r++) {
                bool leaves = (shape >= 7 && shape <= 9) || shape == 11;
                kernel<<<1, 64>>>(leaves ? 1000000 : 20000, d_out, d_sink);
                CHECK(cudaGetLastError());
                CHECK(cudaDeviceSynchronize());
                long long h[2];
                CHECK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
                if (r > 0 && h[1] > 0) per.push_back((double)h[0] / h[1]);
            }
            std::sort(per.begin(), per.end());
            printf("R,tileloop_spinrate_%s,%.3f,cycles,%zu,%s; min %.2f max %.2f\n",
                   shape_name[shape], median(per), per.size(),
                   (shape >= 7 && shape <= 9) || shape == 11 ? "one iteration of the loop in which one lane of warp 1 leaves (32 iterations)"
                              : "one failing iteration of the loop (32 lanes of warp 1, about 20000 cycles)",
                   per.front(), per.back());
            fflush(stdout);
        };
        rate(0, k_spinrate<0>);
        rate(1, k_spinrate<1>);
        rate(2, k_spinrate<2>);
        rate(3, k_spinrate<3>);
        rate(4, k_spinrate<4>);
        rate(5, k_spinrate<5>);
        rate(6, k_spinrate<6>);
        rate(7, k_spinrate<7>);
        rate(8, k_spinrate<8>);
        rate(9, k_spinrate<9>);
        rate(10, k_spinrate<10>);
        rate(11, k_spinrate<11>);
    }
    // Divergence outside a spin loop.
    measure("tileloop_ifs_onelane", 32.0, [&] { k_ifs<0><<<1, 32>>>(1, d_out, d_sink); },
            "32 if-blocks, block k taken by lane k alone; per block");
    measure("tileloop_ifs_alllanes", 32.0, [&] { k_ifs<1><<<1, 32>>>(1, d_out, d_sink); },
            "32 if-blocks taken by every lane; per block");
    measure("tileloop_ifs_nolane", 32.0, [&] { k_ifs<2><<<1, 32>>>(1, d_out, d_sink); },
            "32 if-blocks taken by no lane; per block");
    printf("I,done,ok\n");
    return 0;
}
