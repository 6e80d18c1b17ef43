// rodinia-nw-events.cu: times Rodinia's CUDA Needleman-Wunsch kernels (cuda/nw of the Rodinia suite, not part of
// this project) the way Finegrain's harness times its own variants: CUDA events around all launches of one run,
// warm-up runs, then the median of 7. Rodinia's host program times with gettimeofday around asynchronous launches,
// which measures launch queueing rather than the kernels, hence this driver.
//
// Build (prepare.sh copies Rodinia's needle.h and needle_kernel.cu beside this file):
//   nvcc -O3 -arch=sm_90 -DRD_WG_SIZE=32 rodinia-nw-events.cu -o rodinia-nw-events
// Usage: rodinia-nw-events N [N...]     (N a multiple of the block size; penalty 10, as Rodinia's run script)
// Prints one line per size: N, block size, median microseconds, G cells/s, and whether the matrix matches a
// sequential recomputation on the host.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "needle_kernel.cu"

extern int blosum62_table[24][24];

static void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) {
        fprintf(stderr, "rodinia-nw-events: %s: %s\n", what, cudaGetErrorString(status));
        exit(1);
    }
}

// Rodinia's BLOSUM62 table, as in its needle.cu.
int blosum62_table[24][24] = {
{ 4, -1, -2, -2,  0, -1, -1,  0, -2, -1, -1, -1, -1, -2, -1,  1,  0, -3, -2,  0, -2, -1,  0, -4},
{-1,  5,  0, -2, -3,  1,  0, -2,  0, -3, -2,  2, -1, -3, -2, -1, -1, -3, -2, -3, -1,  0, -1, -4},
{-2,  0,  6,  1, -3,  0,  0,  0,  1, -3, -3,  0, -2, -3, -2,  1,  0, -4, -2, -3,  3,  0, -1, -4},
{-2, -2,  1,  6, -3,  0,  2, -1, -1, -3, -4, -1, -3, -3, -1,  0, -1, -4, -3, -3,  4,  1, -1, -4},
{ 0, -3, -3, -3,  9, -3, -4, -3, -3, -1, -1, -3, -1, -2, -3, -1, -1, -2, -2, -1, -3, -3, -2, -4},
{-1,  1,  0,  0, -3,  5,  2, -2,  0, -3, -2,  1,  0, -3, -1,  0, -1, -2, -1, -2,  0,  3, -1, -4},
{-1,  0,  0,  2, -4,  2,  5, -2,  0, -3, -3,  1, -2, -3, -1,  0, -1, -3, -2, -2,  1,  4, -1, -4},
{ 0, -2,  0, -1, -3, -2, -2,  6, -2, -4, -4, -2, -3, -3, -2,  0, -2, -2, -3, -3, -1, -2, -1, -4},
{-2,  0,  1, -1, -3,  0,  0, -2,  8, -3, -3, -1, -2, -1, -2, -1, -2, -2,  2, -3,  0,  0, -1, -4},
{-1, -3, -3, -3, -1, -3, -3, -4, -3,  4,  2, -3,  1,  0, -3, -2, -1, -3, -1,  3, -3, -3, -1, -4},
{-1, -2, -3, -4, -1, -2, -3, -4, -3,  2,  4, -2,  2,  0, -3, -2, -1, -2, -1,  1, -4, -3, -1, -4},
{-1,  2,  0, -1, -3,  1,  1, -2, -1, -3, -2,  5, -1, -3, -1,  0, -1, -3, -2, -2,  0,  1, -1, -4},
{-1, -1, -2, -3, -1,  0, -2, -3, -2,  1,  2, -1,  5,  0, -2, -1, -1, -1, -1,  1, -3, -1, -1, -4},
{-2, -3, -3, -3, -2, -3, -3, -3, -1,  0,  0, -3,  0,  6, -4, -2, -2,  1,  3, -1, -3, -3, -1, -4},
{-1, -2, -2, -1, -3, -1, -1, -2, -2, -3, -3, -1, -2, -4,  7, -1, -1, -4, -3, -2, -2, -1, -2, -4},
{ 1, -1,  1,  0, -1,  0,  0,  0, -1, -2, -2,  0, -1, -2, -1,  4,  1, -3, -2, -2,  0,  0,  0, -4},
{ 0, -1,  0, -1, -1, -1, -1, -2, -2, -1, -1, -1, -1, -2, -1,  1,  5, -2, -2,  0, -1, -1,  0, -4},
{-3, -3, -4, -4, -2, -2, -3, -2, -2, -3, -2, -3, -1,  1, -4, -3, -2, 11,  2, -3, -4, -3, -2, -4},
{-2, -2, -2, -3, -2, -1, -2, -3,  2, -1, -1, -2, -1,  3, -3, -2, -2,  2,  7, -1, -3, -2, -1, -4},
{ 0, -3, -3, -3, -1, -2, -2, -3, -3,  3,  1, -2,  1, -1, -2, -2,  0, -3, -1,  4, -3, -2, -1, -4},
{-2, -1,  3,  4, -3,  0,  1, -1,  0, -3, -4,  0, -3, -3, -2,  0, -1, -4, -3, -3,  4,  1, -1, -4},
{-1,  0,  0,  1, -3,  3,  4, -2,  0, -3, -3,  1, -1, -3, -1,  0, -1, -3, -2, -2,  1,  4, -1, -4},
{ 0, -1, -1, -1, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -2,  0,  0, -2, -1, -1, -1, -1, -1, -4},
{-4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4,  1}
};

static void run_size(int n, int penalty) {
    const int cols = n + 1;
    const size_t cells = (size_t) cols * cols;
    std::vector<int> input(cells, 0), reference(cells, 0), output(cells);
    srand(7);   // Rodinia's inputs: random residues 1..10, BLOSUM62 reference, gap-penalty border
    for (int i = 1; i < cols; i++) input[(size_t) i * cols] = rand() % 10 + 1;
    for (int j = 1; j < cols; j++) input[j] = rand() % 10 + 1;
    for (int i = 1; i < cols; i++)
        for (int j = 1; j < cols; j++)
            reference[(size_t) i * cols + j] = blosum62_table[input[(size_t) i * cols]][input[j]];
    for (int i = 1; i < cols; i++) input[(size_t) i * cols] = -i * penalty;
    for (int j = 1; j < cols; j++) input[j] = -j * penalty;

    int *d_reference, *d_matrix;
    check(cudaMalloc(&d_reference, cells * sizeof(int)), "cudaMalloc");
    check(cudaMalloc(&d_matrix, cells * sizeof(int)), "cudaMalloc");
    check(cudaMemcpy(d_reference, reference.data(), cells * sizeof(int), cudaMemcpyHostToDevice), "upload");
    const int block_width = n / BLOCK_SIZE;
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "event");
    check(cudaEventCreate(&stop), "event");
    std::vector<float> times;
    float spent = 0;
    for (int run = 0; run < 3 + 7 || spent < 300; run++) {
        check(cudaMemcpy(d_matrix, input.data(), cells * sizeof(int), cudaMemcpyHostToDevice), "upload");
        check(cudaEventRecord(start), "record");
        for (int i = 1; i <= block_width; i++)   // Rodinia's launches, unchanged
            needle_cuda_shared_1<<<dim3(i, 1), dim3(BLOCK_SIZE, 1)>>>(d_reference, d_matrix, cols, penalty, i, block_width);
        for (int i = block_width - 1; i >= 1; i--)
            needle_cuda_shared_2<<<dim3(i, 1), dim3(BLOCK_SIZE, 1)>>>(d_reference, d_matrix, cols, penalty, i, block_width);
        check(cudaEventRecord(stop), "record");
        check(cudaEventSynchronize(stop), "synchronize");
        check(cudaGetLastError(), "launch");
        float ms;
        check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
        spent += ms;
        if (run >= 3) times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    const float median = times[times.size() / 2];
    check(cudaMemcpy(output.data(), d_matrix, cells * sizeof(int), cudaMemcpyDeviceToHost), "download");
    std::vector<int> expected = input;   // the sequential recurrence, for a check of Rodinia's result
    for (int i = 1; i < cols; i++)
        for (int j = 1; j < cols; j++) {
            const size_t k = (size_t) i * cols + j;
            expected[k] = maximum(expected[k - cols - 1] + reference[k], expected[k - cols] - penalty, expected[k - 1] - penalty);
        }
    const bool same = expected == output;
    printf("rodinia-nw n=%d block=%d median_us=%.1f gcells_per_s=%.3f runs=%zu matches_host=%s\n", n, BLOCK_SIZE,
           median * 1000.0, (double) n * n / (median * 1e-3) / 1e9, times.size(), same ? "yes" : "NO");
    cudaFree(d_reference);
    cudaFree(d_matrix);
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s N [N...]\n", argv[0]);
        return 2;
    }
    for (int a = 1; a < argc; a++) run_size(atoi(argv[a]), 10);
    return 0;
}
