package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrActor;
import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.compiler.ir.KernelGraph;
import dev.finegrain.compiler.ir.Subexpressions;
import dev.finegrain.dsl.TableSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * A query profile (CUDASW++'s term) of a lookup table on the persistent bands: where one of a two-axis table's indices is
 * a sequence read at the lane's own column, that index is the same in every step of the band, so each warp keeps the
 * table's elements for its band's columns, [other index][column of the lane][lane], in its dynamic shared memory. In a
 * step the 32 lanes, each on its own row and so with its own other index, read 32 different banks: one conflict-free
 * load a cell and one bounds check, where the table's own layout gives bank conflicts and checks both indices. Each
 * lane fills and reads only its own entries, so the profile needs no barrier. Measured on an H200
 * (needleman-wunsch-seq 65536², BLOSUM62, four columns a lane, tiny-lock): 21.2 ms against 25.5 ms with the table.
 *
 * <p>Where a lane owns eight columns of a table of 4-byte elements, and every lookup that reads the profile is a row
 * lookup ({@link BandMapping#rowLookups}: taken in every cell, its row the same in all of a lane's columns, loaded once a
 * step), its profile lies four columns side by side, [other index][column / 4][lane][column % 4], so that a step loads
 * four of its columns' entries in one 16-byte load
 * (eight lanes cover 128 bytes: still conflict-free). On an H200 (CUDA 13.0, every score checked against the CPU
 * recurrence, median of 9) needleman-wunsch-seq 65536² with eight columns ran 7.64 ms against 7.95, smith-waterman-seq
 * 13.48 against 15.50; with four columns the same layout ran slower (needleman-wunsch-seq 9.42 against 8.88,
 * smith-waterman-seq 9.40 against 9.05), so a lane of fewer columns keeps one column a load.
 *
 * @param table       the table's index in the kernel
 * @param laneAxis    the axis whose index is the lane's sequence value
 * @param sequence    the sequence input along the columns that gives it
 * @param otherExtent the extent of the other axis: the profile's rows
 * @param offsetBytes where the profile starts in its warp's dynamic shared memory
 * @param bytes       its size per warp
 * @param columnsALoad how many of a lane's columns lie side by side and load together: 4 (a 16-byte load) or 1
 */
public record LaneProfile(int table, int laneAxis, IrField sequence, int otherExtent, int offsetBytes, int bytes, int columnsALoad) {

    /** A lane of this many columns loads its profile entries {@link #WIDE_LOAD} columns at a time. */
    static final int WIDE_LANE_COLUMNS = 8;
    /** The columns one 16-byte load of a wide profile holds. */
    public static final int WIDE_LOAD = 4;

    /** A warp's profiles together take at most this much shared memory; a kernel past it reads its tables as they are. */
    public static final int MAX_BYTES_PER_WARP = 32 * 1024;

    /** The axis the step indexes, whose index varies from lane to lane. */
    public int otherAxis() {
        return 1 - laneAxis;
    }

    /**
     * The profiles of the kernel's lookups that every cell evaluates (filling a profile checks the lane's index, which
     * a lookup in a select's branch or a loop's body might never ask for), laid out from {@code offsetBytes} (16-byte
     * aligned) in a warp's dynamic shared memory; none if together they pass {@link #MAX_BYTES_PER_WARP}.
     */
    static List<LaneProfile> of(KernelGraph graph, List<IrField> laneSequences, int laneColumns, int offsetBytes) {
        List<LaneProfile> profiles = new ArrayList<>();
        int offset = aligned(offsetBytes);
        for (IrActor actor : graph.actors()) {
            for (IrExpr.Lookup lookup : unconditionalLookups(actor.body())) {
                if (lookup.indices().size() != 2) {
                    continue;
                }
                for (int axis = 0; axis < 2; axis++) {
                    IrField sequence = laneSequence(graph, laneSequences, lookup.indices().get(axis));
                    int laneAxis = axis;
                    if (sequence == null || profiles.stream().anyMatch(p -> p.table == lookup.table() && p.laneAxis == laneAxis
                            && p.sequence.equals(sequence))) {
                        continue;
                    }
                    TableSpec spec = graph.kernel().tables().get(lookup.table());
                    int extent = spec.extents().get(1 - axis);
                    int bytes = extent * laneColumns * GpuTarget.WARP * GpuTarget.elementBytes(spec.type());
                    profiles.add(new LaneProfile(lookup.table(), axis, sequence, extent, offset, bytes, 1));
                    offset += aligned(bytes);
                    break;
                }
            }
        }
        int total = profiles.stream().mapToInt(p -> aligned(p.bytes)).sum();
        if (total > MAX_BYTES_PER_WARP) {
            return List.of();
        }
        if (laneColumns != WIDE_LANE_COLUMNS) {
            return List.copyOf(profiles);
        }
        List<IrExpr.Lookup> rowLookups = BandMapping.rowLookups(graph, profiles);
        return profiles.stream().map(profile -> {
            boolean fourBytes = GpuTarget.elementBytes(graph.kernel().tables().get(profile.table).type()) * WIDE_LOAD == 16;
            return fourBytes && readOnlyByRowLookups(profile, graph, laneSequences, rowLookups, profiles) ? profile.wide() : profile;
        }).toList();
    }

    /** This profile laid out {@link #WIDE_LOAD} columns side by side: the same bytes at the same offset. */
    private LaneProfile wide() {
        return new LaneProfile(table, laneAxis, sequence, otherExtent, offsetBytes, bytes, WIDE_LOAD);
    }

    /**
     * Whether every lookup that reads {@code profile} (any lookup of the actors, taken or not) is one of the
     * {@link BandMapping#rowLookups row lookups}, whose step loads the row once for all its columns: a wide profile read
     * a column at a time would read single words 16 bytes apart across the lanes, with bank conflicts.
     */
    private static boolean readOnlyByRowLookups(LaneProfile profile, KernelGraph graph, List<IrField> laneSequences,
                                                List<IrExpr.Lookup> rowLookups, List<LaneProfile> profiles) {
        for (IrActor actor : graph.actors()) {
            for (IrExpr.Lookup lookup : allLookups(actor.body(), new ArrayList<>())) {
                boolean reads = of(profiles, graph, laneSequences, lookup).filter(profile::equals).isPresent();
                if (reads && rowLookups.stream().noneMatch(row -> row == lookup)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static List<IrExpr.Lookup> allLookups(IrExpr expr, List<IrExpr.Lookup> found) {
        if (expr instanceof IrExpr.Lookup lookup) {
            found.add(lookup);
        }
        Subexpressions.of(expr).forEach(child -> allLookups(child, found));
        return found;
    }

    private static int aligned(int bytes) {
        return (bytes + 15) / 16 * 16;
    }

    /** The element of lane {@code lane}'s column {@code column} at the other axis's index {@code index}, in this profile. */
    public String element(String index, int laneColumns, int column) {
        String load = load(index, laneColumns, column / columnsALoad);
        return columnsALoad == 1 ? load : "(" + load + ") * " + columnsALoad + " + " + column % columnsALoad;
    }

    /**
     * The load (counted in {@link #columnsALoad} elements: one element, or an int4 of a wide profile) that holds lane
     * {@code lane}'s columns {@code group * columnsALoad} on at the other axis's index {@code index}.
     */
    public String load(String index, int laneColumns, int group) {
        return "(" + index + " * " + laneColumns / columnsALoad + " + " + group + ") * 32 + lane";
    }

    /** The byte offset of lane 0's entry of a lane's column {@code column} at other index 0, from the profile's start. */
    public long columnByte(int column, int elementBytes) {
        return ((long) (column / columnsALoad) * GpuTarget.WARP * columnsALoad + column % columnsALoad) * elementBytes;
    }

    /** The profile this lookup reads, if the mapping made one for it. */
    public static java.util.Optional<LaneProfile> of(List<LaneProfile> profiles, KernelGraph graph, List<IrField> laneSequences,
                                                     IrExpr.Lookup lookup) {
        return profiles.stream().filter(p -> p.table == lookup.table() && lookup.indices().size() == 2
                && p.sequence.equals(laneSequence(graph, laneSequences, lookup.indices().get(p.laneAxis)))).findFirst();
    }

    /** The sequence along the columns read at the lane's own column that {@code index} is, or null. */
    private static IrField laneSequence(KernelGraph graph, List<IrField> laneSequences, IrExpr index) {
        if (index instanceof IrExpr.Load load && load.offset()[1] == 0 && laneSequences.contains(graph.field(load.field()))) {
            return graph.field(load.field());
        }
        return null;
    }

    /**
     * The lookups of the expression tree that are evaluated whenever it is, outermost first: not those in a select's
     * branches or a loop's body, which the generated code evaluates only when taken, as the oracle does.
     */
    public static List<IrExpr.Lookup> unconditionalLookups(IrExpr expr) {
        return unconditionalLookups(expr, new ArrayList<>());
    }

    /**
     * Whether an index is the same in every column of a lane's step: it reads no state, no column index and no input
     * that spans the columns, so a step may check it once for all of them.
     */
    public static boolean columnInvariant(KernelGraph graph, IrExpr index) {
        return switch (index) {
            case IrExpr.Const c -> true;
            case IrExpr.ParamVar p -> true;
            case IrExpr.SizeVar v -> true;
            case IrExpr.IndexVar v -> v.dimension() != 1;
            case IrExpr.Load load -> graph.field(load.field()).isSequence() && !graph.field(load.field()).spans()[1];
            case IrExpr.Unary u -> columnInvariant(graph, u.operand());
            case IrExpr.Binary b -> columnInvariant(graph, b.left()) && columnInvariant(graph, b.right());
            case IrExpr.Cast c -> columnInvariant(graph, c.operand());
            case IrExpr.Select s -> columnInvariant(graph, s.condition()) && columnInvariant(graph, s.whenTrue())
                    && columnInvariant(graph, s.whenFalse());
            default -> false;
        };
    }

    private static List<IrExpr.Lookup> unconditionalLookups(IrExpr expr, List<IrExpr.Lookup> found) {
        List<IrExpr> always = switch (expr) {
            case IrExpr.Select select -> List.of(select.condition());
            case IrExpr.Iterate loop -> List.of(loop.count(), loop.init());
            default -> Subexpressions.of(expr);
        };
        if (expr instanceof IrExpr.Lookup lookup) {
            found.add(lookup);
        }
        always.forEach(child -> unconditionalLookups(child, found));
        return found;
    }
}
