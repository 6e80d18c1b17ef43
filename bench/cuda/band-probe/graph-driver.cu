// graph-driver.cu: what launches cost a relaunching schedule (data-parallel, lock-dataflow's per-tile launches) of
// `finegrain show needleman-wunsch --cuda ...`: the unit timed as it launches (on a stream of its own), the same launches
// recorded once into a CUDA graph and replayed, and an empty kernel launched as many times with the same blocks per
// launch (one per block-diagonal of T x T tiles), directly and as a graph: the floor the launches alone set. Every cell
// of the unit's runs is checked against a CPU Needleman-Wunsch, as nw-driver.cu does. Built with
//   nvcc -O3 -fmad=false -arch=sm_90 -I DIR_OF_finegrain.cuh -DFG_VARIANT=<id> graph-driver.cu <id>.cu -o driver
// and run as `driver NAME TILE` (TILE: the schedule's tile side, 16 for data-parallel:16).
#include "finegrain.cuh"
#include "nw-inputs.h"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define FG_CAT2(a, b) a##b
#define FG_CAT(a, b) FG_CAT2(a, b)
extern "C" const FgInfo* FG_CAT(fg_info_, FG_VARIANT)();
extern "C" cudaError_t FG_CAT(fg_run_, FG_VARIANT)(void* const* buffers, const long long* params, void* scratch, cudaStream_t stream);
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void empty_launch(int d) {}

static double median(std::vector<float> t) { std::sort(t.begin(), t.end()); return t[t.size() / 2]; }

int main(int argc, char** argv) {
    const char* name = argc > 1 ? argv[1] : "?";
    const int tile = argc > 2 ? atoi(argv[2]) : 16;
    const FgInfo* info = FG_CAT(fg_info_, FG_VARIANT)();
    const long long R = info->fields[1].extent[0], C = info->fields[1].extent[1];
    const int penalty = NW_PENALTY;
    std::vector<int> ref, score;
    nw_inputs(R, C, ref, score);
    std::vector<int> expect(score);
    for (long long i = 1; i < R; i++)
        for (long long j = 1; j < C; j++)
            expect[i * C + j] = std::max(std::max(expect[(i - 1) * C + j - 1] + ref[i * C + j], expect[(i - 1) * C + j] - penalty),
                                         expect[i * C + j - 1] - penalty);
    int *dref, *dscore; void* scratch;
    CK(cudaMalloc(&dref, R * C * 4)); CK(cudaMalloc(&dscore, R * C * 4)); CK(cudaMalloc(&scratch, info->scratch_bytes));
    CK(cudaMemcpy(dref, ref.data(), R * C * 4, cudaMemcpyHostToDevice));
    void* buffers[2] = {dref, dscore};
    long long params[2] = {penalty, 0};
    cudaStream_t stream; CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    std::vector<int> got(R * C);
    auto check = [&]() -> long long {
        cudaMemcpy(got.data(), dscore, R * C * 4, cudaMemcpyDeviceToHost);
        long long bad = 0;
        for (long long k = 0; k < R * C; k++) bad += got[k] != expect[k];
        return bad;
    };
    // the unit as it launches, then the same launches recorded once and replayed
    cudaGraph_t graph; cudaGraphExec_t exec;
    CK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    CK(FG_CAT(fg_run_, FG_VARIANT)(buffers, params, scratch, stream));
    CK(cudaStreamEndCapture(stream, &graph));
    CK(cudaGraphInstantiate(&exec, graph, 0));
    size_t nodes = 0; CK(cudaGraphGetNodes(graph, nullptr, &nodes));
    for (int form = 0; form < 2; form++) {
        std::vector<float> times;
        for (int run = 0; run < 12; run++) {
            CK(cudaMemcpyAsync(dscore, score.data(), R * C * 4, cudaMemcpyHostToDevice, stream));
            CK(cudaMemsetAsync(scratch, 0, info->scratch_bytes, stream));
            cudaEventRecord(a, stream);
            if (form == 0) CK(FG_CAT(fg_run_, FG_VARIANT)(buffers, params, scratch, stream));
            else CK(cudaGraphLaunch(exec, stream));
            cudaEventRecord(b, stream);
            CK(cudaEventSynchronize(b));
            float ms; cudaEventElapsedTime(&ms, a, b);
            if (run >= 3) times.push_back(ms);
        }
        long long bad = check();
        double med = median(times);
        printf("%-24s %-7s %6lldx%-6lld median %8.3f ms  min %8.3f  %7.2f G cells/s  %s (%zu graph nodes)\n", name, form ? "graph" : "launch",
               R - 1, C - 1, med, *std::min_element(times.begin(), times.end()), (R - 1) * (double) (C - 1) / med / 1e6,
               bad == 0 ? "verified" : "MISMATCH", nodes);
    }
    // the floor: an empty kernel with the same blocks per launch, one launch per block-diagonal
    const int tr = (int) ((R - 1 + tile - 1) / tile), tc = (int) ((C - 1 + tile - 1) / tile), diagonals = tr + tc - 1;
    auto launchAll = [&]() {
        for (int d = 0; d < diagonals; d++) {
            int blocks = std::min(d, tr - 1) - std::max(0, d - tc + 1) + 1;
            empty_launch<<<blocks, tile, 0, stream>>>(d);
        }
    };
    cudaGraph_t g2; cudaGraphExec_t e2;
    CK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    launchAll();
    CK(cudaStreamEndCapture(stream, &g2));
    CK(cudaGraphInstantiate(&e2, g2, 0));
    for (int form = 0; form < 2; form++) {
        std::vector<float> times;
        for (int run = 0; run < 12; run++) {
            cudaEventRecord(a, stream);
            if (form == 0) launchAll(); else CK(cudaGraphLaunch(e2, stream));
            cudaEventRecord(b, stream);
            CK(cudaEventSynchronize(b));
            float ms; cudaEventElapsedTime(&ms, a, b);
            if (run >= 3) times.push_back(ms);
        }
        double med = median(times);
        printf("%-24s %-7s %d empty launches: median %8.3f ms, %.2f us a launch\n", name, form ? "graph" : "launch", diagonals, med, med * 1e3 / diagonals);
    }
    return 0;
}
