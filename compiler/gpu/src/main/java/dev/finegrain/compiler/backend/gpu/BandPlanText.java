package dev.finegrain.compiler.backend.gpu;

import dev.finegrain.compiler.ir.IrField;
import dev.finegrain.dsl.TableSpec;

import java.util.stream.Collectors;

/** A band mapping in words, a decision a line: {@link BandMapping#describe}, for {@code show --gpu-plan} and headers. */
final class BandPlanText {

    private BandPlanText() {}

    static String describe(BandMapping m) {
        StringBuilder text = new StringBuilder();
        text.append("schedule:   ").append(m.scheduleName()).append(" with ").append(m.requested()).append('\n');
        text.append("bands:      ").append(m.bands()).append(" bands of ").append(m.bandWidth()).append(" columns over ")
                .append(m.rows()).append(" rows; ").append(m.stepsPerBand()).append(" steps per band").append(m.raggedBand().describe(m)).append(m.firstChunk().describe())
                .append(m.guardedSteps().describe()).append('\n');
        text.append("launches:   1 persistent launch of ").append(m.blocks()).append(" blocks x ").append(Plural.of(m.warpsPerBlock(), "warp"))
                .append(m.helpers() ? " and 2 helpers" : "").append(", all resident; warp w walks bands w, w + ")
                .append(m.blocks() * m.warpsPerBlock()).append(", ...")
                .append(m.folding().reductions().isEmpty() ? "" : "; then 1 block of one warp that combines the bands' reductions")
                .append('\n');
        if (!m.oneWarpBecause().isEmpty()) {
            text.append("helpers:    none, the band's warp moves its own rows: ").append(m.oneWarpBecause()).append('\n');
        }
        if (m.helpers()) {
            text.append("helpers:    2 more warps per block: warp 1 copies input rows two chunks ahead of the steps and waits for the left band's"
                    + " edge into a second window, warp 2 writes each chunk's finished rows back while warp 0 steps the next;"
                    + " named barriers " + BandMapping.CHUNK_READY_BARRIER + " and " + BandMapping.CHUNK_DONE_BARRIER + " hand the chunks over\n");
        }
        text.append("ownership:  a warp per band, lane l owns ").append(m.laneColumns() == 1 ? "column l"
                : "columns " + m.laneColumns() + "l to " + m.laneColumns() + "l + " + (m.laneColumns() - 1)).append(" of it and computes row s - l in step s\n");
        for (BandMapping.BandRead read : m.reads()) {
            text.append("read:       ").append(read.field().name()).append("[i-").append(read.rowsBack()).append(", j-")
                    .append(read.columnsBack()).append("]: ").append(source(m, read)).append('\n');
        }
        text.append("edge:       ").append(edgeText(m)).append('\n');
        for (BandMapping.Ring ring : m.inputRings()) {
            text.append("input:      ").append(ring.field().name()).append(": a ring of ").append(ring.rows())
                    .append(" rows x ").append(m.bandWidth()).append(" columns per warp, copied ").append(m.helpers() ? "two chunks ahead of the steps by warp 1"
                    : "a chunk ahead").append(" (cp.async)")
                    .append(ring.packsBytes() ? ", a byte each, in whole words from the word holding the band's first column" : "")
                    .append('\n');
        }
        for (BandMapping.Ring ring : m.outputRings()) {
            text.append("output:     ").append(ring.field().name()).append(": a ring of ").append(ring.rows())
                    .append(" rows x ").append(m.bandWidth()).append(" columns per warp, finished rows written whole after each chunk")
                    .append(m.helpers() ? " (by warp 2, while the next is computed)" : "").append('\n');
        }
        text.append("shared:     ").append(m.resources().sharedBytes()).append(" bytes per block: ").append(m.dynamicSharedBytes())
                .append(m.profiles().isEmpty() ? " of rings (" : " of rings and profiles (").append(m.warpSharedBytes()).append(" per warp), ")
                .append(m.edge().crossed() ? (m.helpers() ? "two edge windows of " : "an edge window of ") + m.edge().windowRows() + " rows x "
                        + Plural.of(m.edge().columns(), "column") + " per field and warp"
                        : "no edge window")
                .append(m.stagesTables() ? ", " + BandMapping.stagedTableBytes(m.graph()) + " of lookup tables" : "").append('\n');
        for (String line : m.folding().describe(m.graph(), m.sizes(), m.bands(), m.edge().columns(), m.edge().heldRows(m.rows()))) {
            text.append("folded:     ").append(line).append('\n');
        }
        for (LaneProfile profile : m.profiles()) {
            TableSpec table = m.graph().kernel().tables().get(profile.table());
            text.append("profile:    ").append(table.name()).append(": indexed by sequence '").append(profile.sequence().name())
                    .append("' at my column, a query profile per warp of ").append(profile.otherExtent()).append(" x ").append(m.laneColumns())
                    .append(" x 32 elements (").append(profile.bytes()).append(" bytes), ").append(profile.columnsALoad() == 1
                            ? "one conflict-free load a cell" : "four columns side by side, one conflict-free 16-byte load for four cells").append('\n');
        }
        for (IrField field : m.laneSequences()) {
            text.append("sequence:   ").append(field.name()).append(": one value per lane (its column), read once before the band's first step\n");
        }
        for (IrField field : m.rowSequences()) {
            text.append("sequence:   ").append(field.name()).append(": one value per lane and step (its row), loaded a step ahead\n");
        }
        return text.toString();
    }

    private static String source(BandMapping m, BandMapping.BandRead read) {
        if (read.samePoint()) {
            return "computed earlier in the step, by an earlier actor";
        }
        if (read.columnsBack() == 0) {
            return "the lane's own value " + read.rowsBack() + " step(s) back";
        }
        if (m.laneColumns() > 1) {
            return "the lane's own column " + read.columnsBack() + " to its left where it has one, else shuffled from the"
                    + " lanes to its left; the lanes at the band's start read the edge window";
        }
        return "shuffled from lane l-" + read.columnsBack() + "'s value " + read.stepsBack() + " step(s) back; lanes below "
                + read.columnsBack() + " read the edge window";
    }

    private static String edgeText(BandMapping m) {
        if (!m.edge().crossed()) {
            return "no read crosses a band's left edge: no tokens";
        }
        String what = m.edge().columns() + " column(s) of " + m.edge().fields().stream().map(IrField::name).collect(Collectors.joining(", "))
                + ", rows up to " + m.edge().rowsBack() + " back; ";
        String tokens = m.edge().readyWords() ? "each value a 64-bit word with a ready bit beside it (" + m.requested() + "), no fence"
                : "a token word per " + (m.edge().groupRows() == 1 ? "row" : "group of " + m.edge().groupRows() + " rows") + " ("
                + m.requested() + ", device scope), the values read from the field" + (m.edge().fields().stream().anyMatch(m.folding()::hasEdgeArray)
                ? " (a folded field's from its edge array)" : "") + " after it";
        String held = m.edge().ring() ? "; a ring of " + m.edge().ringRows() + " rows (row r at r mod " + m.edge().ringRows() + ", tagged with"
                + " its lap): a band writes a row once the band to its right has copied the one a lap before, as that band's"
                + " free counter says (acquire-release)" : "";
        return what + tokens + "; waited for 32 rows at a time" + held + "; " + m.edge().tokenBytes() + " bytes of device memory";
    }
}
