// nw-driver.cu: times one needleman-wunsch translation unit of `finegrain show needleman-wunsch --cuda ...` without a
// bundle: a random reference in [-10, 10], the halo -10 per row and column, penalty 10, the kernel timed by CUDA events
// (the median of 9 runs after 3), and every cell checked against a CPU Needleman-Wunsch on the same arrays. Built with
//   nvcc -O3 -fmad=false -arch=sm_90 -I DIR_OF_finegrain.cuh -DFG_VARIANT=<id> nw-driver.cu <id>.cu -o driver
// where <id> is the name on the unit's first line; add -DPROF for a unit instrumented by instrument.py.
#include "finegrain.cuh"
#include "nw-inputs.h"
#include <algorithm>
#include <cstdio>
#include <vector>
#define FG_CAT2(a, b) a##b
#define FG_CAT(a, b) FG_CAT2(a, b)
extern "C" const FgInfo* FG_CAT(fg_info_, FG_VARIANT)();
extern "C" cudaError_t FG_CAT(fg_run_, FG_VARIANT)(void* const* buffers, const long long* params, void* scratch, cudaStream_t stream);
#ifdef STREAM_COUNT
extern "C" unsigned long long fg_stream_misses();   // units rewritten by the stream kinds
#endif
#ifdef PROF
extern "C" void fg_prof_print();
#endif
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)
int main(int argc, char** argv) {
    const char* name = argc > 1 ? argv[1] : "?";
    const FgInfo* info = FG_CAT(fg_info_, FG_VARIANT)();
    const long long R = info->fields[1].extent[0], C = info->fields[1].extent[1];
    const int penalty = NW_PENALTY;
    std::vector<int> ref, score;
    nw_inputs(R, C, ref, score);
    int *dref, *dscore; void* scratch;
    CK(cudaMalloc(&dref, R * C * 4)); CK(cudaMalloc(&dscore, R * C * 4)); CK(cudaMalloc(&scratch, info->scratch_bytes));
    CK(cudaMemcpy(dref, ref.data(), R * C * 4, cudaMemcpyHostToDevice));
    void* buffers[2] = {dref, dscore};
    long long params[2] = {penalty, 0};
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    std::vector<float> times;
    for (int run = 0; run < 12; run++) {
        CK(cudaMemcpy(dscore, score.data(), R * C * 4, cudaMemcpyHostToDevice));
        CK(cudaMemset(scratch, 0, info->scratch_bytes));
        cudaEventRecord(a);
        CK(FG_CAT(fg_run_, FG_VARIANT)(buffers, params, scratch, 0));
        cudaEventRecord(b);
        CK(cudaEventSynchronize(b));
        float ms; cudaEventElapsedTime(&ms, a, b);
        if (run >= 3) times.push_back(ms);
    }
    std::vector<int> got(R * C);
    CK(cudaMemcpy(got.data(), dscore, R * C * 4, cudaMemcpyDeviceToHost));
    for (long long i = 1; i < R; i++)
        for (long long j = 1; j < C; j++)
            score[i * C + j] = std::max(std::max(score[(i - 1) * C + j - 1] + ref[i * C + j], score[(i - 1) * C + j] - penalty),
                                        score[i * C + j - 1] - penalty);
    long long bad = 0;
    for (long long k = 0; k < R * C; k++) bad += got[k] != score[k];
    std::sort(times.begin(), times.end());
    double med = times[times.size() / 2];
    printf("%-28s %6lldx%-6lld median %8.3f ms  min %8.3f  %7.2f G cells/s  %s\n", name, R - 1, C - 1, med, times[0],
           (R - 1) * (double) (C - 1) / med / 1e6, bad == 0 ? "verified" : "MISMATCH");
    if (bad) printf("  %lld cells differ\n", bad);
#ifdef STREAM_COUNT
    printf("  groups not ready: %llu over the 12 runs\n", fg_stream_misses());
#endif
#ifdef PROF
    fg_prof_print();
#endif
    return 0;
}
