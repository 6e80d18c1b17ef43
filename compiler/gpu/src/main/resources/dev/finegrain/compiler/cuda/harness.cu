// harness.cu: runs one Finegrain variant on the GPU, times it and checks it. Built with the variant's translation unit:
//   nvcc -O3 -fmad=false -arch=sm_90 -DFG_VARIANT=<id> harness.cu <id>.cu -o <id>
// Usage: <id> --inputs DIR [--expected DIR] [--outputs DIR] [--runs N] [--warmup-ms MS] [--row FILE] [--result FILE]
//   DIR/<field>.bin holds each field's padded array (state fields with their halos filled, interiors zero), little
//   endian; DIR/params.bin one 8-byte slot per param. --expected DIR/<field>.bin holds each state field's domain
//   (no halo) as the sequential oracle computed it; the first differing cell makes the row NOT VERIFIED. --outputs
//   writes each state field's domain after the last run. A folded state field (FgField.folded) is read
//   from DIR/<field>.frame.bin, its halo frame alone, and has no domain on the GPU: the variant's outputs (its kept
//   values, its reductions) are compared with --expected DIR/<output>.bin and written to --outputs DIR/<output>.bin
//   instead. --row FILE holds the row's leading JSON members (kernel,
//   size, ...); the harness completes the row and writes it to --result (default: stdout).
// A run uploads every field (not timed), then CUDA events time every launch of one run; the row reports the median of
// the timed runs, after warm-up runs of at least --warmup-ms (default 300) and 3 runs.
#include "finegrain.cuh"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define FG_CAT2(a, b) a##b
#define FG_CAT(a, b) FG_CAT2(a, b)
extern "C" const FgInfo* FG_CAT(fg_info_, FG_VARIANT)();
extern "C" cudaError_t FG_CAT(fg_run_, FG_VARIANT)(void* const* buffers, const long long* params, void* scratch,
                                                   cudaStream_t stream);

static std::string result_path;

// Ends the run with one row marked failed (or skipped), saying why.
static void finish(const std::string& row, const char* status, const std::string& problem) {
    std::string escaped;
    for (char c : problem) {
        if (c == '"' || c == '\\') escaped += '\\';
        escaped += (c == '\n') ? ' ' : c;
    }
    std::string text = "{" + row + (row.empty() ? "" : ", ") + "\"status\": \"" + status + "\", \"verified\": false, "
            "\"metric\": \"cells_per_s\", \"value\": null, \"unit\": \"cells/s\", \"problem\": \"" + escaped + "\"}\n";
    FILE* out = result_path.empty() ? stdout : fopen(result_path.c_str(), "w");
    if (out != nullptr) {
        fputs(text.c_str(), out);
        if (out != stdout) fclose(out);
    }
    fprintf(stderr, "%s: %s\n", status, problem.c_str());
    exit(status[0] == 's' ? 4 : 1);
}

static std::string row_text;

static void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) finish(row_text, "failed", std::string(what) + ": " + cudaGetErrorString(status));
}

static std::vector<char> read_file(const std::string& path, size_t expected, bool exact) {
    FILE* in = fopen(path.c_str(), "rb");
    if (in == nullptr) finish(row_text, "failed", "cannot read " + path);
    std::vector<char> bytes;
    char buffer[1 << 16];
    size_t n;
    while ((n = fread(buffer, 1, sizeof buffer, in)) > 0) bytes.insert(bytes.end(), buffer, buffer + n);
    fclose(in);
    if (exact && bytes.size() != expected) {
        finish(row_text, "failed", path + " holds " + std::to_string(bytes.size()) + " bytes, not " + std::to_string(expected));
    }
    return bytes;
}

static long long cells(const FgField& field) { return field.size[0] * field.size[1] * field.size[2]; }
static long long padded(const FgField& field) { return field.extent[0] * field.extent[1] * field.extent[2]; }

// The domain of a state field, copied out of its padded array.
static std::vector<char> domain_of(const FgField& field, const std::vector<char>& padded_bytes) {
    std::vector<char> out((size_t) (cells(field) * field.element_bytes));
    long long k = 0;
    for (long long a = 0; a < field.size[0]; a++)
        for (long long b = 0; b < field.size[1]; b++)
            for (long long c = 0; c < field.size[2]; c++, k++) {
                long long index = ((a + field.halo_low[0]) * field.extent[1] + (b + field.halo_low[1])) * field.extent[2]
                        + (c + field.halo_low[2]);
                memcpy(&out[(size_t) (k * field.element_bytes)], &padded_bytes[(size_t) (index * field.element_bytes)],
                       field.element_bytes);
            }
    return out;
}

/** Whether two doubles are both NaN, whatever their sign bits and payloads. */
static bool both_nan(const char* a, const char* b) {
    double x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    return x != x && y != y;
}

/** A cell of a field's domain as the reports write it: "i", "i, j" or "i, j, l". */
static std::string cell_text(const FgField& field, long long c) {
    long long i = c / (field.size[1] * field.size[2]), j = c / field.size[2] % field.size[1], l = c % field.size[2];
    return field.rank == 1 ? std::to_string(i)
            : field.rank == 2 ? std::to_string(i) + ", " + std::to_string(j)
            : std::to_string(i) + ", " + std::to_string(j) + ", " + std::to_string(l);
}

static std::string value_text(int element_bytes, const char* bytes, bool is_double) {
    char text[64];
    if (element_bytes == 4) {
        int v;
        memcpy(&v, bytes, 4);
        snprintf(text, sizeof text, "%d", v);
    } else if (is_double) {
        double v;
        memcpy(&v, bytes, 8);
        snprintf(text, sizeof text, "%.17g", v);
    } else {
        long long v;
        memcpy(&v, bytes, 8);
        snprintf(text, sizeof text, "%lld", v);
    }
    return text;
}

int main(int argc, char** argv) {
    std::string inputs, expected, outputs, row_file;
    int runs = 7;
    double warmup_ms = 300;
    std::vector<std::string> doubles;   // state fields whose 8-byte values are doubles, for readable differences
    for (int a = 1; a + 1 < argc; a += 2) {
        std::string option = argv[a], value = argv[a + 1];
        if (option == "--inputs") inputs = value;
        else if (option == "--expected") expected = value;
        else if (option == "--outputs") outputs = value;
        else if (option == "--runs") runs = std::max(1, atoi(value.c_str()));
        else if (option == "--warmup-ms") warmup_ms = atof(value.c_str());
        else if (option == "--row") row_file = value;
        else if (option == "--result") result_path = value;
        else if (option == "--double") doubles.push_back(value);
        else { fprintf(stderr, "unknown option %s\n", option.c_str()); return 2; }
    }
    if (!row_file.empty()) {
        std::vector<char> row = read_file(row_file, 0, false);
        row_text.assign(row.begin(), row.end());
        while (!row_text.empty() && (row_text.back() == '\n' || row_text.back() == ' ')) row_text.pop_back();
    }
    if (inputs.empty()) finish(row_text, "failed", "no --inputs folder");
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) finish(row_text, "skipped", "no CUDA GPU on this machine");
    cudaDeviceProp device;
    check(cudaGetDeviceProperties(&device, 0), "cudaGetDeviceProperties");
    const FgInfo* info = FG_CAT(fg_info_, FG_VARIANT)();

    std::vector<std::vector<char>> host(info->field_count);
    std::vector<void*> buffers(info->field_count);
    for (int k = 0; k < info->field_count; k++) {
        const FgField& field = info->fields[k];
        const bool folded = field.folded != 0;
        size_t bytes = (size_t) ((folded ? field.frame_elements : padded(field)) * field.element_bytes);
        host[k] = read_file(inputs + "/" + field.name + (folded ? ".frame.bin" : ".bin"), bytes, true);
        // rounded up to whole 16-byte words: a band copies a byte input's rows in whole aligned words, the last of
        // which may reach past the array's last byte
        check(cudaMalloc(&buffers[k], (bytes + 15) / 16 * 16), "cudaMalloc");
    }
    std::vector<char> param_bytes = read_file(inputs + "/params.bin", (size_t) info->param_count * 8, true);
    std::vector<long long> params(info->param_count + 1);
    memcpy(params.data(), param_bytes.data(), param_bytes.size());
    void* scratch;
    check(cudaMalloc(&scratch, (size_t) info->scratch_bytes), "cudaMalloc");
    // what the run holds on the GPU: its fields (a folded field's halo frame) and its scratch memory
    long long held_bytes = info->scratch_bytes;
    for (int k = 0; k < info->field_count; k++) held_bytes += (long long) host[k].size();
    cudaStream_t stream;
    check(cudaStreamCreate(&stream), "cudaStreamCreate");
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");

    auto one_run = [&]() -> float {
        for (int k = 0; k < info->field_count; k++) {
            check(cudaMemcpyAsync(buffers[k], host[k].data(), host[k].size(), cudaMemcpyHostToDevice, stream), "upload");
        }
        check(cudaMemsetAsync(scratch, 0, (size_t) info->scratch_bytes, stream), "cudaMemset");
        check(cudaEventRecord(start, stream), "cudaEventRecord");
        check(FG_CAT(fg_run_, FG_VARIANT)(buffers.data(), params.data(), scratch, stream), "launch");
        check(cudaEventRecord(stop, stream), "cudaEventRecord");
        check(cudaEventSynchronize(stop), "the kernel");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        int error = 0;
        check(cudaMemcpy(&error, scratch, 4, cudaMemcpyDeviceToHost), "download");
        if (error == fg::ERROR_DIVISION_BY_ZERO) {
            finish(row_text, "failed", std::string(info->variant) + ": integer division by zero in an actor body"
                   " on the GPU; guard the divisor with select(...)");
        }
        if (error >= fg::ERROR_LOOKUP) {
            int buffer = (error - fg::ERROR_LOOKUP) / 4;
            std::string table = buffer < info->field_count ? info->fields[buffer].name : "?";
            finish(row_text, "failed", std::string(info->variant) + ": a lookup of table '" + table + "' got an index"
                   " outside axis " + std::to_string((error - fg::ERROR_LOOKUP) % 4) + " on the GPU; keep the indices an actor"
                   " computes inside the table (check the input values they come from)");
        }
        return ms;
    };

    // The memory bound of this run: the GPU's copy bandwidth, timed here with the same events, on a device-to-device
    // copy that moves as many bytes as the run's fields hold (half of them read, half written; at least 1 MiB), so that
    // it meets the same level of the memory hierarchy; the best of five, counted as STREAM counts a copy (bytes read
    // plus bytes written).
    double copy_gbps = 0;
    {
        size_t field_bytes = 0;
        for (int k = 0; k < info->field_count; k++) field_bytes += host[k].size();
        const size_t copy_bytes = std::max((size_t) 1 << 20, field_bytes / 2 / 256 * 256);
        void* copy_from = nullptr;
        void* copy_to = nullptr;
        if (cudaMalloc(&copy_from, copy_bytes) == cudaSuccess && cudaMalloc(&copy_to, copy_bytes) == cudaSuccess) {
            check(cudaMemsetAsync(copy_from, 1, copy_bytes, stream), "cudaMemset");
            float best = 0;
            for (int r = 0; r < 6; r++) {
                check(cudaEventRecord(start, stream), "cudaEventRecord");
                check(cudaMemcpyAsync(copy_to, copy_from, copy_bytes, cudaMemcpyDeviceToDevice, stream), "copy");
                check(cudaEventRecord(stop, stream), "cudaEventRecord");
                check(cudaEventSynchronize(stop), "the copy");
                float ms = 0;
                check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
                if (r > 0 && (best == 0 || ms < best)) best = ms;   // the first copy warms up
            }
            copy_gbps = 2.0 * copy_bytes / (best / 1000.0) / 1e9;
        }
        cudaGetLastError();   // a GPU too full for the copy leaves the row without its bound, not failed
        if (copy_from != nullptr) cudaFree(copy_from);
        if (copy_to != nullptr) cudaFree(copy_to);
    }

    double warmed = 0;
    for (int w = 0; w < 3 || warmed < warmup_ms; w++) warmed += one_run();
    std::vector<float> times;
    for (int r = 0; r < runs; r++) times.push_back(one_run());
    std::vector<float> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    double median_ms = sorted[sorted.size() / 2];

    std::string status = "verified", problem, nan_cell;
    long long domain = 0;
    for (int k = 0; k < info->field_count; k++) {
        const FgField& field = info->fields[k];
        if (!field.is_state) continue;
        domain = cells(field);
        if (field.folded) continue;   // no domain on the GPU: its outputs below
        std::vector<char> device_bytes(host[k].size());
        check(cudaMemcpy(device_bytes.data(), buffers[k], device_bytes.size(), cudaMemcpyDeviceToHost), "download");
        std::vector<char> got = domain_of(field, device_bytes);
        if (!outputs.empty()) {
            FILE* out = fopen((outputs + "/" + field.name + ".bin").c_str(), "wb");
            if (out == nullptr) finish(row_text, "failed", "cannot write " + outputs);
            fwrite(got.data(), 1, got.size(), out);
            fclose(out);
        }
        if (!expected.empty() && status == "verified") {
            std::vector<char> want = read_file(expected + "/" + field.name + ".bin", got.size(), true);
            bool is_double = std::find(doubles.begin(), doubles.end(), field.name) != doubles.end();
            for (long long c = 0; c < cells(field); c++) {
                const char* a = &want[(size_t) (c * field.element_bytes)];
                const char* b = &got[(size_t) (c * field.element_bytes)];
                if (is_double && both_nan(a, b)) {
                    // every NaN equals every NaN: the host's oracle and the GPU may give a NaN different sign bits
                    if (nan_cell.empty()) nan_cell = std::string(field.name) + "[" + cell_text(field, c) + "]";
                    continue;
                }
                if (memcmp(a, b, field.element_bytes) != 0) {
                    status = "NOT VERIFIED";
                    problem = std::string(field.name) + "[" + cell_text(field, c) + "]: expected " + value_text(field.element_bytes, a, is_double) + ", got "
                            + value_text(field.element_bytes, b, is_double);
                    break;
                }
            }
        }
    }
    for (int o = 0; o < info->output_count; o++) {
        const FgOutput& output = info->outputs[o];
        std::vector<char> got((size_t) (output.count * output.element_bytes));
        check(cudaMemcpy(got.data(), (char*) scratch + output.scratch_offset, got.size(), cudaMemcpyDeviceToHost), "download");
        if (!outputs.empty()) {
            FILE* out = fopen((outputs + "/" + output.name + ".bin").c_str(), "wb");
            if (out == nullptr) finish(row_text, "failed", "cannot write " + outputs);
            fwrite(got.data(), 1, got.size(), out);
            fclose(out);
        }
        if (!expected.empty() && status == "verified") {
            std::vector<char> want = read_file(expected + "/" + output.name + ".bin", got.size(), true);
            for (long long c = 0; c < output.count; c++) {
                const char* a = &want[(size_t) (c * output.element_bytes)];
                const char* b = &got[(size_t) (c * output.element_bytes)];
                if (output.is_double && both_nan(a, b)) continue;
                if (memcmp(a, b, output.element_bytes) != 0) {
                    status = "NOT VERIFIED";
                    problem = std::string(output.name) + "[" + std::to_string(c) + "]: expected "
                            + value_text(output.element_bytes, a, output.is_double != 0) + ", got "
                            + value_text(output.element_bytes, b, output.is_double != 0);
                    break;
                }
            }
        }
    }
    std::string folded_fields;   // the fields the variant folds, which move no bytes per cell (for the memory bound)
    for (int k = 0; k < info->field_count; k++) {
        if (info->fields[k].folded) folded_fields += (folded_fields.empty() ? "" : ",") + std::string(info->fields[k].name);
    }
    std::string runs_text;
    for (size_t r = 0; r < times.size(); r++) runs_text += (r ? ", " : "") + std::to_string(times[r] * 1000.0);
    char measured[1024];
    snprintf(measured, sizeof measured,
             "\"status\": \"%s\", \"verified\": %s, \"metric\": \"cells_per_s\", \"value\": %.17g, \"unit\": \"cells/s\", "
             "\"device\": \"%s\", \"launches\": %d, \"median_ms\": %.6f, \"min_ms\": %.6f, \"max_ms\": %.6f, \"threads_per_block\": %d, \"timed_runs\": %d, "
             "\"us\": %.3f, \"copy_gbps\": %.1f",
             status.c_str(), status == "verified" ? "true" : "false", domain / (median_ms / 1000.0), device.name,
             info->launches, median_ms, (double) sorted.front(), (double) sorted.back(), info->threads_per_block, (int) times.size(), median_ms * 1000.0, copy_gbps);
    // the runs go outside the fixed buffer: --repeat may ask for hundreds
    std::string text = "{" + row_text + (row_text.empty() ? "" : ", ") + measured + ", \"runs_us\": [" + runs_text + "]";
    if (status != "verified") text += ", \"problem\": \"" + problem + "\"";
    if (!nan_cell.empty()) text += ", \"nan_cell\": \"" + nan_cell + "\"";   // the first cell that held a NaN on both sides
    if (!folded_fields.empty()) text += ", \"folded\": \"" + folded_fields + "\"";
    text += ", \"device_bytes\": " + std::to_string(held_bytes);
    text += "}\n";
    FILE* out = result_path.empty() ? stdout : fopen(result_path.c_str(), "w");
    fputs(text.c_str(), out);
    if (out != stdout) fclose(out);
    return status == "verified" ? 0 : 1;
}
