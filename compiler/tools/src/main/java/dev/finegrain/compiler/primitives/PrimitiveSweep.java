package dev.finegrain.compiler.primitives;

import dev.finegrain.compiler.backend.gpu.primitive.MemoryBenchmark;
import dev.finegrain.compiler.backend.gpu.primitive.PrimitiveKind;
import dev.finegrain.compiler.backend.gpu.primitive.SyncPrimitive;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The runs of {@code finegrain primitives}: on each backend, the memory benchmarks at full scale, then every primitive
 * at every block count (semaphores at every initial value). A point that cannot run is a row saying why; nothing is
 * left out silently.
 *
 * @param backends where to measure
 * @param primitives what to measure
 * @param blocks block counts, or empty for each backend's default
 * @param initials the semaphores' initial values
 * @param ops operations per block of a timed run, or 0 for each backend's default
 * @param checkOps operations per block of a checking run, or 0 for each backend's default
 * @param accesses accesses per block of a memory benchmark
 */
public record PrimitiveSweep(List<PrimitiveBackend> backends, List<SyncPrimitive> primitives, List<Integer> blocks,
                             List<Integer> initials, int ops, int checkOps, int accesses) {

    public List<PrimitiveRow> run(Consumer<PrimitiveRow> progress) {
        List<PrimitiveRow> rows = new ArrayList<>();
        for (PrimitiveBackend backend : backends) {
            for (PrimitiveRow row : backend.memory(MemoryBenchmark.all(), accesses)) {
                rows.add(row);
                progress.accept(row);
            }
            List<Integer> counts = blocks.isEmpty() ? backend.defaultBlocks() : blocks;
            for (SyncPrimitive primitive : primitives) {
                List<Integer> values = primitive.kind() == PrimitiveKind.SEMAPHORE ? initials
                        : List.of(primitive.kind() == PrimitiveKind.MUTEX ? 1 : 0);
                for (int initial : values) {
                    for (int count : counts) {
                        PrimitiveRow row = backend.run(primitive, count, Math.max(1, initial),
                                ops > 0 ? ops : backend.defaultOps(), checkOps > 0 ? checkOps : backend.defaultCheckOps());
                        row = new PrimitiveRow(row.backend(), row.primitive(), row.kind(), row.blocks(), initial,
                                row.opsPerBlock(), row.seconds(), row.opsPerSecond(), row.status());
                        rows.add(row);
                        progress.accept(row);
                    }
                }
            }
        }
        return rows;
    }
}
