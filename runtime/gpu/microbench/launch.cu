// Finegrain GPU-model microbenchmarks: what programmatic dependent launch (sm_90 on) does to a stream of dependent
// launches, for the model's launch.programmaticGapCycles. A relaunching schedule's launch (data-parallel on Hopper)
// waits for the launch before it (griddepcontrol.wait), then works, and lets the next launch in when it is done
// (griddepcontrol.launch_dependents). Our own code. Build and run: SUITES=launch bash runtime/gpu/microbench/run.sh
//
// Each kernel here: thread 0 spins BEFORE cycles, every thread waits for the launch before it, thread 0 spins AFTER
// cycles, and the block lets the next launch in (the SASS, launch.sass, reconverges the warp, BSYNC, before ACQBULK and
// before PREEXIT, so the first thread to let the next launch in does so after thread 0's spin). 200 launches of it back
// to back on one stream between two events, the median of 7 such runs, per launch: once with the programmatic
// attribute on every launch after the first, once without (the wait then returns at once, as after an ordinary
// launch). Result lines: R,<name>,<median>,us,7,<note>.
#include <cuda_runtime.h>
#include <cstdio>
#include <string>

#include "cuda_check.h"
#include "launch_stream.h"

__device__ __forceinline__ long long clk() {
    long long c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
    return c;
}

__device__ __forceinline__ void spin(long long cycles) {
    const long long c0 = clk();
    while (clk() - c0 < cycles) {
    }
}

__global__ void k_dependent(long long before, long long after) {
    if (threadIdx.x == 0) spin(before);
    asm volatile("griddepcontrol.wait;" ::: "memory");
    if (threadIdx.x == 0) spin(after);
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

static double per_launch_us(int blocks, int threads, bool programmatic, long long before, long long after) {
    return median_us_per_launch([&](bool first) {
        return launch_dependent(k_dependent, blocks, threads, programmatic && !first, before, after);
    });
}

int main() {
    // blocks of 16 threads as data-parallel:16's; 1 block, and 1024 (a block-diagonal of 16384² in tiles of 16)
    for (int blocks : {1, 1024}) {
        for (long long before : {0LL, 2000LL, 4000LL, 8000LL}) {
            for (long long after : {0LL, 4000LL, 16000LL}) {
                for (bool programmatic : {false, true}) {
                    const std::string name = std::string("launch_stream_") + (programmatic ? "programmatic" : "plain")
                            + "_" + std::to_string(blocks) + "x16_before" + std::to_string(before) + "_after"
                            + std::to_string(after) + "_us";
                    printf("R,%s,%.3f,us,7,200 launches: thread 0 spins %lld cycles then every thread waits for the launch"
                           " before (griddepcontrol.wait) then thread 0 spins %lld; per launch%s\n",
                           name.c_str(), per_launch_us(blocks, 16, programmatic, before, after), before, after,
                           programmatic ? ", each after the first a programmatic dependent launch" : "");
                    fflush(stdout);
                }
            }
        }
    }
    printf("I,done,ok\n");
    return 0;
}
