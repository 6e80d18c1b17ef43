// Device functions whose SASS the GPU model's sequence costs (runtime/gpu SimtSequences) count.
// Each kernel applies one operation to values the compiler cannot see, so nvcc emits the general sequence.
#include <cstdint>

extern "C" __global__ void int_divide(const int *a, const int *b, int *out) {
    int i = threadIdx.x;
    out[i] = a[i] / b[i];
}

extern "C" __global__ void long_divide(const long long *a, const long long *b, long long *out) {
    int i = threadIdx.x;
    out[i] = a[i] / b[i];
}

extern "C" __global__ void long_multiply(const long long *a, const long long *b, long long *out) {
    int i = threadIdx.x;
    out[i] = a[i] * b[i];
}

extern "C" __global__ void double_divide(const double *a, const double *b, double *out) {
    int i = threadIdx.x;
    out[i] = a[i] / b[i];
}
