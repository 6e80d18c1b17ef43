// The loop of Rodinia 3.1's OpenMP needle (nw_optimized, BLOCK_SIZE 16: each 16 x 16 tile copied to local arrays,
// computed there and copied back; the tiles of a block-diagonal in an OpenMP parallel for), timed on 4096 x 4096 with
// random scores in -4..5 and penalty 10, median of 7 runs on 1 and 2 threads.
// Build and run: g++ -O3 -march=native -fopenmp docs/measure/rodinia-needle.cpp -o /tmp/needle && /tmp/needle
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <omp.h>
#define BLOCK_SIZE 16
static inline int maximum(int a, int b, int c) { int k = a <= b ? b : a; return k <= c ? c : k; }
void nw_optimized(int *input_itemsets, int *referrence, int max_cols, int penalty) {
    for (int blk = 1; blk <= (max_cols - 1) / BLOCK_SIZE; blk++) {
#pragma omp parallel for schedule(static)
        for (int b_index_x = 0; b_index_x < blk; ++b_index_x) {
            int b_index_y = blk - 1 - b_index_x;
            int input_itemsets_l[(BLOCK_SIZE + 1) * (BLOCK_SIZE + 1)] __attribute__((aligned(64)));
            int reference_l[BLOCK_SIZE * BLOCK_SIZE] __attribute__((aligned(64)));
            for (int i = 0; i < BLOCK_SIZE; ++i)
#pragma omp simd
                for (int j = 0; j < BLOCK_SIZE; ++j)
                    reference_l[i * BLOCK_SIZE + j] = referrence[max_cols * (b_index_y * BLOCK_SIZE + i + 1) + b_index_x * BLOCK_SIZE + j + 1];
            for (int i = 0; i < BLOCK_SIZE + 1; ++i)
#pragma omp simd
                for (int j = 0; j < BLOCK_SIZE + 1; ++j)
                    input_itemsets_l[i * (BLOCK_SIZE + 1) + j] = input_itemsets[max_cols * (b_index_y * BLOCK_SIZE + i) + b_index_x * BLOCK_SIZE + j];
            for (int i = 1; i < BLOCK_SIZE + 1; ++i)
                for (int j = 1; j < BLOCK_SIZE + 1; ++j)
                    input_itemsets_l[i * (BLOCK_SIZE + 1) + j] = maximum(input_itemsets_l[(i - 1) * (BLOCK_SIZE + 1) + j - 1] + reference_l[(i - 1) * BLOCK_SIZE + j - 1],
                            input_itemsets_l[i * (BLOCK_SIZE + 1) + j - 1] - penalty, input_itemsets_l[(i - 1) * (BLOCK_SIZE + 1) + j] - penalty);
            for (int i = 0; i < BLOCK_SIZE; ++i)
#pragma omp simd
                for (int j = 0; j < BLOCK_SIZE; ++j)
                    input_itemsets[max_cols * (b_index_y * BLOCK_SIZE + i + 1) + b_index_x * BLOCK_SIZE + j + 1] = input_itemsets_l[(i + 1) * (BLOCK_SIZE + 1) + j + 1];
        }
    }
    for (int blk = 2; blk <= (max_cols - 1) / BLOCK_SIZE; blk++) {
#pragma omp parallel for schedule(static)
        for (int b_index_x = blk - 1; b_index_x < (max_cols - 1) / BLOCK_SIZE; ++b_index_x) {
            int b_index_y = (max_cols - 1) / BLOCK_SIZE + blk - 2 - b_index_x;
            int input_itemsets_l[(BLOCK_SIZE + 1) * (BLOCK_SIZE + 1)] __attribute__((aligned(64)));
            int reference_l[BLOCK_SIZE * BLOCK_SIZE] __attribute__((aligned(64)));
            for (int i = 0; i < BLOCK_SIZE; ++i)
#pragma omp simd
                for (int j = 0; j < BLOCK_SIZE; ++j)
                    reference_l[i * BLOCK_SIZE + j] = referrence[max_cols * (b_index_y * BLOCK_SIZE + i + 1) + b_index_x * BLOCK_SIZE + j + 1];
            for (int i = 0; i < BLOCK_SIZE + 1; ++i)
#pragma omp simd
                for (int j = 0; j < BLOCK_SIZE + 1; ++j)
                    input_itemsets_l[i * (BLOCK_SIZE + 1) + j] = input_itemsets[max_cols * (b_index_y * BLOCK_SIZE + i) + b_index_x * BLOCK_SIZE + j];
            for (int i = 1; i < BLOCK_SIZE + 1; ++i)
                for (int j = 1; j < BLOCK_SIZE + 1; ++j)
                    input_itemsets_l[i * (BLOCK_SIZE + 1) + j] = maximum(input_itemsets_l[(i - 1) * (BLOCK_SIZE + 1) + j - 1] + reference_l[(i - 1) * BLOCK_SIZE + j - 1],
                            input_itemsets_l[i * (BLOCK_SIZE + 1) + j - 1] - penalty, input_itemsets_l[(i - 1) * (BLOCK_SIZE + 1) + j] - penalty);
            for (int i = 0; i < BLOCK_SIZE; ++i)
#pragma omp simd
                for (int j = 0; j < BLOCK_SIZE; ++j)
                    input_itemsets[max_cols * (b_index_y * BLOCK_SIZE + i + 1) + b_index_x * BLOCK_SIZE + j + 1] = input_itemsets_l[(i + 1) * (BLOCK_SIZE + 1) + j + 1];
        }
    }
}
int main(int argc, char **argv) {
    int n = 4096, max_cols = n + 1, penalty = 10;
    int *ref = (int *) malloc(sizeof(int) * max_cols * max_cols), *m = (int *) malloc(sizeof(int) * max_cols * max_cols);
    srand(7);
    for (int k = 0; k < max_cols * max_cols; k++) ref[k] = rand() % 10 - 4;
    for (int threads = 1; threads <= 2; threads++) {
        omp_set_num_threads(threads);
        double t[7];
        for (int r = 0; r < 7; r++) {
            for (int k = 0; k < max_cols * max_cols; k++) m[k] = 0;
            for (int k = 1; k < max_cols; k++) { m[k * max_cols] = -k * penalty; m[k] = -k * penalty; }
            double s = omp_get_wtime();
            nw_optimized(m, ref, max_cols, penalty);
            t[r] = omp_get_wtime() - s;
        }
        std::sort(t, t + 7);
        printf("Rodinia OpenMP needle 4096, %d thread(s): median of 7 %.2f ms = %.2f G cells/s (corner %d)\n", threads, t[3] * 1e3,
               (double) n * n / t[3] / 1e9, m[max_cols * max_cols - 1]);
    }
    return 0;
}
