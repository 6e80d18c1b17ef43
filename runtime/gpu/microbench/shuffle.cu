// Finegrain GPU-model microbenchmarks: what a warp shuffle and a warp sync cost on Hopper, for the model's
// latency.shuffle and latency.warpSync (the persistent bands of lock-dataflow:persistent carry values along a band by
// shfl.sync.up and meet at __syncwarp). Our own code. Build and run: SUITES=shuffle bash runtime/gpu/microbench/run.sh
//
// Result lines: R,<name>,<median>,<unit>,<samples>,<note>; a dependent chain of 32 x 1000 operations in one warp (all 32
// lanes), timed with clock64, the median of 9 launches, cycles per operation.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cuda_check.h"

__device__ __forceinline__ long long clk() {
    long long c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
    return c;
}

// KIND 0: x = shfl.up(x, 1); 1: x = shfl.idx(x, lane ^ 1) ; 2: x = shfl.up(x, 1) + a (the band's shuffle, then its use);
// 3: x = x + a then bar.warp.sync (a warp sync after each add); 4: x = x + a (the add alone, to subtract from 3).
template <int KIND>
__global__ void k_chain(unsigned a, int iters, long long* out, unsigned* sink) {
    unsigned x = threadIdx.x + 1;
    const unsigned other = threadIdx.x ^ 1;
    long long c0 = clk();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < 32; j++) {
            if (KIND == 0) asm volatile("shfl.sync.up.b32 %0, %0, 1, 0, 0xffffffff;" : "+r"(x));
            if (KIND == 1) asm volatile("shfl.sync.idx.b32 %0, %0, %1, 31, 0xffffffff;" : "+r"(x) : "r"(other));
            if (KIND == 2) {
                asm volatile("shfl.sync.up.b32 %0, %0, 1, 0, 0xffffffff;" : "+r"(x));
                asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(a));
            }
            if (KIND == 3) {
                asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(a));
                asm volatile("bar.warp.sync 0xffffffff;" ::: "memory");
            }
            if (KIND == 4) asm volatile("add.u32 %0, %0, %1;" : "+r"(x) : "r"(a));
        }
    }
    long long c1 = clk();
    if (threadIdx.x == 0) out[0] = c1 - c0;
    sink[threadIdx.x] = x;
}

template <int KIND>
static void chain(const char* name, long long* d_out, unsigned* d_sink, const char* note) {
    const int ITERS = 1000, REPS = 9;
    std::vector<double> cycles;
    k_chain<KIND><<<1, 32>>>(3, ITERS, d_out, d_sink);   // warm-up
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < REPS; r++) {
        k_chain<KIND><<<1, 32>>>(3, ITERS, d_out, d_sink);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        long long c;
        CHECK(cudaMemcpy(&c, d_out, sizeof c, cudaMemcpyDeviceToHost));
        cycles.push_back((double) c / (32.0 * ITERS));
    }
    std::sort(cycles.begin(), cycles.end());
    printf("R,%s,%.3f,cycles,%zu,%s\n", name, cycles[REPS / 2], cycles.size(), note);
    fflush(stdout);
}

int main() {
    long long* d_out;
    unsigned* d_sink;
    CHECK(cudaMalloc(&d_out, 64));
    CHECK(cudaMalloc(&d_sink, 4096));
    chain<0>("shfl_up_dep_latency_cycles", d_out, d_sink, "dependent shfl.sync.up.b32 by 1, full warp");
    chain<1>("shfl_idx_dep_latency_cycles", d_out, d_sink, "dependent shfl.sync.idx.b32 from lane ^ 1, full warp");
    chain<2>("shfl_up_add_dep_latency_cycles", d_out, d_sink, "dependent shfl.sync.up then add.u32, full warp");
    chain<3>("add_warpsync_dep_cycles", d_out, d_sink, "dependent add.u32 then bar.warp.sync, full warp");
    chain<4>("add_dep_latency_cycles", d_out, d_sink, "dependent add.u32 alone, full warp");
    printf("I,done,ok\n");
    return 0;
}
