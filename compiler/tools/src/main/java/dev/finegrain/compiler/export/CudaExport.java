package dev.finegrain.compiler.export;

import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.gpu.cuda.CudaBackend;
import dev.finegrain.compiler.backend.gpu.cuda.CudaBundle;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.compare.ComparisonRequest;
import dev.finegrain.compiler.compare.ImportCheck;
import dev.finegrain.compiler.compare.Sweep;
import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.json.Json;
import dev.finegrain.dsl.Invocation;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code finegrain export}: the CUDA rows of a comparison as a {@link CudaBundle}. The rows are the comparison's own
 * sweep; each size's inputs come from the kernel's generator and its expected outputs from the sequential oracle, so
 * the bundle checks on the GPU machine exactly what {@code compare} checks here.
 */
public final class CudaExport {

    private CudaExport() {}

    /**
     * What an export wrote: its row count, the sweep's notes (what it leaves out and why), and a line for each row
     * written as skipped, with its reason, for the command to say before anyone carries the bundle to a GPU.
     */
    public record Exported(int rows, List<String> notes, List<String> skipped) {}

    /** Writes the bundle. */
    public static Exported export(ComparisonRequest request, Path folder, String commandLine) throws IOException {
        if (request.backends().isEmpty() || !request.backends().stream().allMatch(CudaBackend.class::isInstance)) {
            throw new UsageException("export writes CUDA bundles; give --backends cuda (or cuda:sm_XX)");
        }
        Sweep sweep = Sweep.of(request);
        CudaBundle bundle = CudaBundle.create(folder);
        KernelGraph graph = sweep.resolver().graph(request.kernel().kernel());
        List<Sweep.Planned> rows = sweep.rows();
        List<String> skipped = new ArrayList<>();
        int from = 0;
        while (from < rows.size()) {
            int[] sizes = rows.get(from).sizes();
            java.util.Map<String, Object> params = rows.get(from).params();
            int to = from;
            // one size's rows and one point of the swept params share their inputs and oracle
            while (to < rows.size() && Arrays.equals(rows.get(to).sizes(), sizes) && rows.get(to).params().equals(params)) {
                to++;
            }
            List<Sweep.Planned> ofSize = rows.subList(from, to);
            Path data = null;
            String digest = null;
            if (ofSize.stream().anyMatch(row -> row.skipReason().isEmpty())) {
                Invocation generated = request.kernel().inputs().generate(graph.kernel(), sizes, request.seed());
                Invocation invocation = params.isEmpty() ? generated : generated.withParams(params);
                dev.finegrain.compiler.compare.OracleNotice.before(request.progress(), sizes, "which checks its rows");
                KernelOutputs oracle = SequentialOracle.run(graph, invocation);
                // the padded state and the oracle's whole domains only where some row stores a field whole
                boolean wholeFields = ofSize.stream().filter(row -> row.skipReason().isEmpty()).anyMatch(row ->
                        CudaBundle.storesWholeFields((CudaBackend) row.backend(), row.variant().orElseThrow(), row.sizes()));
                data = bundle.addSize(graph, invocation, oracle, pointName(params), wholeFields);
                digest = oracle.digest(graph, sizes);
            }
            for (Sweep.Planned row : ofSize) {
                String leading = leading(row, request.seed(), digest);
                if (row.skipReason().isPresent()) {
                    bundle.addSkipped(leading, row.skipReason().get());
                    skipped.add(row.kernel().name() + " " + Sweep.sizeText(row.sizes()) + " " + row.schedule().cliName() + " "
                            + row.backend().name() + row.mechanism().map(m -> " " + m).orElse("") + ": "
                            + row.skipReason().get());
                } else {
                    bundle.addRow((CudaBackend) row.backend(), row.variant().orElseThrow(), row.sizes(), data, leading);
                }
            }
            from = to;
        }
        bundle.writeReadme(commandLine);
        return new Exported(bundle.rows(), sweep.notes(), List.copyOf(skipped));
    }

    /** How a point of the swept params names its inputs' folder: empty without params, else {@code -work=16}. */
    private static String pointName(java.util.Map<String, Object> params) {
        StringBuilder name = new StringBuilder();
        params.forEach((param, value) -> name.append('-').append(param).append('=').append(value));
        return name.toString();
    }

    /**
     * The members a row starts with, as every format names them (its axis values included), and the digest of the
     * outputs the GPU's are checked against (the oracle's here), which a merge recomputes.
     */
    private static String leading(Sweep.Planned row, long seed, String digest) {
        return "\"kernel\": " + Json.quote(row.kernel().name()) + ", \"size\": " + Json.quote(Sweep.sizeText(row.sizes()))
                + ", \"schedule\": " + Json.quote(row.schedule().cliName()) + ", \"backend\": " + Json.quote(row.backend().name())
                + ", \"mechanism\": " + Json.quote(row.mechanismText()) + ", \"granularity\": " + Json.quote(row.granularityText())
                + ", \"channels\": " + Json.quote(row.lockChoices().channelPolicy().cliName()) + ", \"seed\": " + seed
                + (digest == null ? "" : ", \"" + ImportCheck.DIGEST + "\": " + Json.quote(digest))
                + row.axes().entrySet().stream().map(axis -> ", " + Json.quote(axis.getKey()) + ": "
                        + Json.quote(String.valueOf(axis.getValue()))).collect(java.util.stream.Collectors.joining());
    }
}
