// Machine bounds for docs/performance.md: memory bandwidth (b[i] = a[i] + 1 and a pure read, 256 MiB int arrays,
// counted as 8 bytes per element for the copy) on 4 KiB pages and on transparent huge pages (2 MiB, asked for with
// madvise, as the JVM's -XX:+UseTransparentHugePages does), the core clock (a chain of dependent adds) and the round
// trip of a cache line between two cores (two threads hand one word back and forth, each waiting for the other's store).
// Build and run: gcc -O3 -march=native -fopenmp docs/measure/bounds.c -o /tmp/bounds && /tmp/bounds
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include <stdint.h>
#include <stdatomic.h>
#include <sys/mman.h>
static double now(void) { return omp_get_wtime(); }
static void bandwidth(const char *pages, int huge) {
    size_t n = (size_t)256 << 20 >> 2; // 256 MiB of ints
    size_t align = huge ? (size_t)2 << 20 : 64;
    int *a = aligned_alloc(align, n * 4), *b = aligned_alloc(align, n * 4);
    if (huge) {
        // 4 KiB pages stay where the OS lends no huge pages: the line below then measures small pages again
        madvise(a, n * 4, MADV_HUGEPAGE);
        madvise(b, n * 4, MADV_HUGEPAGE);
    }
    #pragma omp parallel for
    for (size_t i = 0; i < n; i++) { a[i] = (int)i; b[i] = 0; }
    for (int threads = 1; threads <= 2; threads++) {
        omp_set_num_threads(threads);
        double best = 1e9, bestRead = 1e9; long long sink = 0;
        for (int rep = 0; rep < 10; rep++) {
            double t = now();
            #pragma omp parallel for
            for (size_t i = 0; i < n; i++) b[i] = a[i] + 1;
            t = now() - t; if (t < best) best = t;
            t = now(); long long s = 0;
            #pragma omp parallel for reduction(+:s)
            for (size_t i = 0; i < n; i++) s += a[i];
            t = now() - t; if (t < bestRead) bestRead = t; sink += s;
        }
        printf("%d thread(s), %s: b[i] = a[i] + 1: %.1f GB/s (8 bytes per element, best of 10); read: %.1f GB/s%s\n",
               threads, pages, n * 8.0 / best / 1e9, n * 4.0 / bestRead / 1e9, sink == 42 ? "!" : "");
    }
    free(a);
    free(b);
}
int main(void) {
    bandwidth("4 KiB pages", 0);
    bandwidth("huge pages", 1);
    // clock: 1e9 dependent adds
    uint64_t x = 0; double t = now();
    for (long i = 0; i < 100000000; i++) {
        __asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0" : "+r"(x));
    }
    t = now() - t;
    printf("dependent adds: %.3f GHz (%lu)\n", 1e9 / t / 1e9, (unsigned long)(x & 1));
    // ping-pong: thread 0 stores odd values, thread 1 even ones, each after seeing the other's last store
    static _Atomic int turn __attribute__((aligned(64)));
    int rounds = 2000000; double pingPong = 0;
    #pragma omp parallel num_threads(2)
    {
        int id = omp_get_thread_num();
        #pragma omp barrier
        double start = now();
        for (int r = 0; r < rounds; r++) {
            int wait = 2 * r + id;
            while (atomic_load_explicit(&turn, memory_order_acquire) != wait) { }
            atomic_store_explicit(&turn, wait + 1, memory_order_release);
        }
        if (id == 0) pingPong = now() - start;
    }
    printf("cache line round trip between the two threads: %.0f ns\n", pingPong / rounds * 1e9);
    return 0;
}
