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
