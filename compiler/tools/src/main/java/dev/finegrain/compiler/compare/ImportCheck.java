package dev.finegrain.compiler.compare;

import dev.finegrain.compiler.backend.gpu.cuda.CudaMemoryBound;
import dev.finegrain.compiler.backend.gpu.BandFolding;
import dev.finegrain.compiler.backend.gpu.cuda.CudaBackend;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.resolve.VariantRequest;
import dev.finegrain.dsl.LockMechanism;
import dev.finegrain.compiler.backend.KernelOutputs;
import dev.finegrain.compiler.backend.reference.SequentialOracle;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.resolve.VariantResolver;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.LibraryKernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a merge ({@code compare --results}) trusts, and how it checks it. A row read from a file is a claim: any row can
 * say {@code verified}. The run that made it compared its outputs with expected outputs (the oracle's, here or in the
 * exported bundle) and wrote their digest beside its status ({@code outputs_digest}). The merge recomputes the oracle
 * here, for the row's kernel as defined now, its size and its seed, and keeps a verified row only when the digests
 * match and its value is possible (finite and positive). So a row checked against another definition of the kernel,
 * other inputs or nothing at all is refused, with its reason, as a failed row; what is still trusted is the harness
 * that did the comparing (the CUDA harness in the bundle, or Finegrain's runner) and the time it measured.
 */
public final class ImportCheck {

    /** The member a row keeps the digest of the outputs it was checked against in. */
    public static final String DIGEST = "outputs_digest";

    private ImportCheck() {}

    /**
     * The rows of {@code kernel} (of the sizes asked for, when some are) with every verified one checked: kept as it is
     * when it passes, turned into a failed row that says why when it does not. Rows of other kernels and sizes pass
     * through, for the merge to leave out.
     */
    public static List<ResultRow> check(List<ResultRow> imported, LibraryKernel kernel, List<String> sizes) {
        return check(imported, kernel, sizes, null);
    }

    /** The same, saying on {@code progress} (none: nothing) when it computes the oracle of a large size. */
    public static List<ResultRow> check(List<ResultRow> imported, LibraryKernel kernel, List<String> sizes,
                                        java.io.PrintWriter progress) {
        VariantResolver resolver = new VariantResolver();
        Map<String, Optional<String>> digests = new HashMap<>();
        List<ResultRow> checked = new ArrayList<>();
        for (ResultRow row : imported) {
            boolean ours = row.kernel().equals(kernel.kernel().name()) && (sizes.isEmpty() || sizes.contains(row.size()));
            Optional<String> refusal = ours && row.verified() ? refusal(row, kernel, resolver, digests, progress) : Optional.empty();
            checked.add(refusal.map(why -> refused(row, why)).orElseGet(() -> ours && row.verified() ? withBound(row, kernel, resolver)
                    : row));
        }
        return checked;
    }

    /**
     * A CUDA bundle's row with its memory bound ({@link CudaMemoryBound}), from the copy bandwidth its harness timed and
     * the fields its variant folds (which move no bytes); a row that has its bound already, or no copy timed, as it is.
     */
    private static ResultRow withBound(ResultRow row, LibraryKernel kernel, VariantResolver resolver) {
        if (row.details().containsKey("bound_fraction") || !row.details().containsKey(CudaMemoryBound.COPY_GBPS)) {
            return row;
        }
        Optional<List<String>> folded = foldedFields(row, kernel, resolver);
        if (folded.isEmpty()) {
            return row;   // what its variant stores is not known here, so no bound is better than a wrong one
        }
        Map<String, Object> details = new java.util.LinkedHashMap<>(row.details());
        details.putAll(CudaMemoryBound.details(resolver.graph(kernel.kernel()), folded.get(),
                row.details().get(CudaMemoryBound.COPY_GBPS), row.value()));
        return row.withDetails(details);
    }

    /**
     * The fields a bundle's row folded: as its harness recorded them ({@code folded}), else (a row written before the
     * harness recorded them) as the GPU mapping of its schedule, backend, mechanism and size folds them; none when the
     * row names a variant this Finegrain cannot map.
     */
    private static Optional<List<String>> foldedFields(ResultRow row, LibraryKernel kernel, VariantResolver resolver) {
        if (row.details().get("folded") instanceof String recorded) {
            return Optional.of(List.of(recorded.split(",")));
        }
        if (BandFolding.foldedFields(resolver.graph(kernel.kernel())).isEmpty()) {
            return Optional.of(List.of());   // a kernel that keeps every field whole folds none on any schedule
        }
        Optional<dev.finegrain.dsl.Schedule> schedule = dev.finegrain.dsl.Schedule.parse(row.schedule());
        Optional<int[]> parsed = sizes(row.size());
        if (schedule.isEmpty() || parsed.isEmpty() || !row.backend().startsWith(CudaBackend.PREFIX + ":")) {
            return Optional.empty();
        }
        int[] sizes = parsed.get();
        try {
            CudaBackend backend = new CudaBackend(row.backend().substring(CudaBackend.PREFIX.length() + 1));
            VariantRequest request = VariantRequest.of(kernel.kernel(), schedule.get(), backend);
            Optional<LockMechanism> mechanism = LockMechanism.fromCliName(row.mechanism());
            return resolver.resolve(mechanism.isPresent() ? request.withMechanism(mechanism.get()) : request, sizes).variant()
                    .map(variant -> backend.map(variant, sizes).folding().fields().stream().map(IrField::name).toList());
        } catch (IllegalArgumentException | dev.finegrain.compiler.backend.gpu.GpuLoweringException unmappable) {
            return Optional.empty();   // an architecture or a variant this Finegrain does not map
        }
    }

    private static Optional<String> refusal(ResultRow row, LibraryKernel kernel, VariantResolver resolver,
                                            Map<String, Optional<String>> digests, java.io.PrintWriter progress) {
        if (!Double.isFinite(row.value()) || row.value() <= 0) {
            return Optional.of("its value " + ResultFormat.number(row.value()) + " " + row.unit() + " is impossible for a"
                    + " verified row");
        }
        if (!(row.details().get(DIGEST) instanceof String claimed)) {
            return Optional.of("it carries no " + DIGEST + " of the outputs it was checked against (written by an older"
                    + " Finegrain, or by hand); export and run it again");
        }
        Map<String, Object> params = params(row, kernel);
        Optional<String> expected = digests.computeIfAbsent(row.size() + "@" + row.seed() + "@" + params,
                key -> oracleDigest(kernel, resolver, row.size(), row.seed(), params, progress));
        if (expected.isEmpty()) {
            return Optional.of("the oracle for size " + row.size() + " and seed " + row.seed() + " cannot be computed here"
                    + " to check it (a size this kernel does not take, or too large for this JVM: give it more with"
                    + " FINEGRAIN_JAVA_OPTS, -Xmx<size> for memory, -Xss<size> for stack)");
        }
        if (!expected.get().equals(claimed)) {
            return Optional.of("it was checked against other outputs than kernel '" + row.kernel() + "' gives here at size "
                    + row.size() + " with seed " + row.seed() + " (" + DIGEST + " " + claimed + ", here " + expected.get()
                    + "): another definition of the kernel or other inputs; export and run it again");
        }
        return Optional.empty();
    }

    /** The values of the kernel's params that the row names as swept axes ({@code axis_work}), typed as declared. */
    private static Map<String, Object> params(ResultRow row, LibraryKernel kernel) {
        Map<String, Object> params = new java.util.LinkedHashMap<>();
        for (dev.finegrain.dsl.ParamSpec param : kernel.kernel().params()) {
            Object value = row.details().get(SweepAxes.PREFIX + param.name());
            if (value == null) {
                continue;
            }
            String text = String.valueOf(value);
            try {
                params.put(param.name(), SweepAxes.paramValue(param, text));
            } catch (NumberFormatException unreadable) {
                params.put(param.name(), text);   // the invocation refuses it, and the row with it
            }
        }
        return params;
    }

    /** The digest of the oracle's outputs for a size and seed, or empty when the size is unreadable or too large here. */
    private static Optional<String> oracleDigest(LibraryKernel kernel, VariantResolver resolver, String size, long seed,
                                                 Map<String, Object> params, java.io.PrintWriter progress) {
        Optional<int[]> parsed = sizes(size);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        int[] sizes = parsed.get();
        if (sizes.length != kernel.kernel().rank()) {
            return Optional.empty();
        }
        try {
            KernelGraph graph = resolver.graph(kernel.kernel());
            Invocation generated = kernel.inputs().generate(kernel.kernel(), sizes, seed);
            Invocation invocation = params.isEmpty() ? generated : generated.withParams(params);
            OracleNotice.before(progress, sizes, "which checks the imported rows");
            KernelOutputs oracle = SequentialOracle.run(graph, invocation);
            return Optional.of(oracle.digest(graph, sizes));
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError cannot) {
            return Optional.empty();
        }
    }

    private static ResultRow refused(ResultRow row, String why) {
        return row.withStatus(RowStatus.FAILED, "imported row refused: " + why);
    }

    /** A row's size ({@code 1000x600}) as extents, or empty where it does not read as one. */
    private static Optional<int[]> sizes(String size) {
        try {
            return Optional.of(Arrays.stream(size.split("x")).mapToInt(Integer::parseInt).toArray());
        } catch (NumberFormatException unreadable) {
            return Optional.empty();
        }
    }
}
