// What handoff.cu and bystanders.cu share: the SM clock, shared addresses, and how one row is measured and printed.
#pragma once
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
__device__ __forceinline__ unsigned saddr(const volatile void* p) { return (unsigned)__cvta_generic_to_shared((void*)p); }

// Where a benchmark's last thread writes the cycles it measured (out[0]).
static long long* d_out;

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n == 0 ? 0.0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

// Launches `launch` (one block) 9 times after a warm-up; prints the median of out[0] / handoffs as one result line.
template <typename F>
static void measure(const std::string& name, double handoffs, F launch, const std::string& note) {
    std::vector<double> c;
    for (int r = 0; r < 10; r++) {
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        long long h;
        CHECK(cudaMemcpy(&h, d_out, sizeof h, cudaMemcpyDeviceToHost));
        if (r > 0) c.push_back(h / handoffs);
    }
    std::sort(c.begin(), c.end());
    printf("R,%s,%.3f,cycles,%zu,%s; min %.1f max %.1f\n", name.c_str(), median(c), c.size(), note.c_str(), c.front(),
           c.back());
    fflush(stdout);
}

// Runs `launch` (a visibility kernel) 3 times; each run leaves n + 2 values in d_lat, of which entries 3 to n + 1 are
// the samples, as both visibility kernels lay them out. Returns every sample, sorted.
template <typename F>
static std::vector<double> latency_samples(int n, const long long* d_lat, F launch) {
    std::vector<double> all;
    for (int r = 0; r < 3; r++) {
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        std::vector<long long> h(n + 2);
        CHECK(cudaMemcpy(h.data(), d_lat, (n + 2) * sizeof(long long), cudaMemcpyDeviceToHost));
        for (int i = 1; i < n; i++) all.push_back((double)h[2 + i]);
    }
    std::sort(all.begin(), all.end());
    return all;
}
