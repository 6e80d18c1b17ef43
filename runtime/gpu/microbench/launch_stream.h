// A stream of dependent launches, timed per launch: what launch.cu measures for the model's programmatic gap and
// bench/cuda/band-probe/launch-shapes.cu measures against the grid's shape, written once.
#pragma once
#include <algorithm>
#include <vector>

#include "cuda_check.h"

// One launch of kernel on stream 0, as a programmatic dependent launch (it may start before the launch before it ends,
// and waits for it at griddepcontrol.wait) where `programmatic` holds, else an ordinary one.
// The generated units' fg::launch (compiler/gpu's finegrain.cuh) is the same call; the runtime's microbenchmarks do
// not include the compiler's header, since the dependencies point from the compiler to the runtime.
template <typename... Args>
cudaError_t launch_dependent(void (*kernel)(Args...), int blocks, int threads, bool programmatic, Args... args) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(threads);
    config.stream = 0;
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute[0].val.programmaticStreamSerializationAllowed = 1;
    config.attrs = attribute;
    config.numAttrs = programmatic ? 1 : 0;
    return cudaLaunchKernelEx(&config, kernel, args...);
}

// Microseconds a launch: `launch(first)` 200 times back to back between two events (first: whether it is the run's
// first launch, which has no launch before it to overlap), the median of 7 such runs after one that warms up.
template <typename Launch>
double median_us_per_launch(Launch launch) {
    const int LAUNCHES = 200, REPS = 7;
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    std::vector<double> t;
    for (int r = 0; r < REPS + 1; r++) {
        CHECK(cudaEventRecord(e0));
        for (int i = 0; i < LAUNCHES; i++) CHECK(launch(i == 0));
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (r > 0) t.push_back(ms * 1000.0 / LAUNCHES);   // the first run warms up
    }
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}
