// launch-shapes.cu: what a stream of empty dependent launches costs per launch as the same threads come in fewer,
// larger blocks: data-parallel:16 at 16384² launches up to 1024 blocks of 16 threads (a tile each) per block-diagonal,
// and a stream of such empty programmatic launches costs about the 3.5 µs a launch that 2 x Rodinia's NW needs in all.
// If the floor follows the blocks, not the threads, a block holding several tiles lowers it. Each kernel: every thread
// waits for the launch before it (griddepcontrol.wait) and lets the next launch in (griddepcontrol.launch_dependents);
// 200 launches back to back on one stream between two events, the median of 7 such runs after one, per launch, with
// and without the programmatic attribute (runtime/gpu/microbench/launch_stream.h, as launch.cu). Built and run with
//   nvcc -O3 -arch=sm_90 bench/cuda/band-probe/launch-shapes.cu -o shapes && ./shapes
#include <cuda_runtime.h>
#include <cstdio>

#include "../../../runtime/gpu/microbench/launch_stream.h"   // launch_dependent, median_us_per_launch (as launch.cu)

__global__ void k_empty(int* sink) {
    asm volatile("griddepcontrol.wait;" ::: "memory");
    if (sink != nullptr && threadIdx.x == 1023) *sink = 1;   // never taken: keeps the kernel's parameter alive
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

static double per_launch_us(int blocks, int threads, bool programmatic) {
    return median_us_per_launch([&](bool first) {
        return launch_dependent(k_empty, blocks, threads, programmatic && !first, (int*) nullptr);
    });
}

int main() {
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("%s, %d SMs; us a launch of an empty kernel, 200 launches on one stream, median of 7\n", prop.name,
           prop.multiProcessorCount);
    const int shapes[][2] = {{1, 16}, {132, 16}, {256, 16}, {512, 16}, {1024, 16}, {1024, 32}, {512, 32}, {256, 64},
                             {128, 128}, {64, 256}, {2048, 16}, {1024, 64}};
    for (int rep = 1; rep <= 2; rep++)
        for (const auto& shape : shapes)
            printf("rep %d  %5d blocks x %3d threads  plain %6.2f  programmatic %6.2f\n", rep, shape[0], shape[1],
                   per_launch_us(shape[0], shape[1], false), per_launch_us(shape[0], shape[1], true));
    return 0;
}
