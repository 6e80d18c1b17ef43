// launch-shapes.cu: what a stream of empty dependent launches costs per launch as the same threads come in fewer,
// larger blocks: data-parallel:16 at 16384² launches up to 1024 blocks of 16 threads (a tile each) per block-diagonal,
// and a stream of such empty programmatic launches costs about the 3.5 µs a launch that 2 x Rodinia's NW needs in all.
// If the floor follows the blocks, not the threads, a block holding several tiles lowers it. Each kernel: every thread
// waits for the launch before it (griddepcontrol.wait) and lets the next launch in (griddepcontrol.launch_dependents);
// 200 launches back to back on one stream between two events, the median of 7 such runs after one, per launch, with
// and without the programmatic attribute (as runtime/gpu/microbench/launch.cu). Built and run with
//   nvcc -O3 -arch=sm_90 bench/cuda/band-probe/launch-shapes.cu -o shapes && ./shapes
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void k_empty(int* sink) {
    asm volatile("griddepcontrol.wait;" ::: "memory");
    if (sink != nullptr && threadIdx.x == 1023) *sink = 1;   // never taken: keeps the kernel's parameter alive
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

static void launch(int blocks, int threads, bool programmatic) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(threads);
    config.stream = 0;
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute[0].val.programmaticStreamSerializationAllowed = 1;
    config.attrs = attribute;
    config.numAttrs = programmatic ? 1 : 0;
    CK(cudaLaunchKernelEx(&config, k_empty, (int*) nullptr));
}

static double per_launch_us(int blocks, int threads, bool programmatic) {
    const int LAUNCHES = 200, REPS = 7;
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<double> t;
    for (int r = 0; r < REPS + 1; r++) {
        CK(cudaEventRecord(e0));
        for (int i = 0; i < LAUNCHES; i++) launch(blocks, threads, programmatic && i > 0);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r > 0) t.push_back(ms * 1000.0 / LAUNCHES);
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main() {
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
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
