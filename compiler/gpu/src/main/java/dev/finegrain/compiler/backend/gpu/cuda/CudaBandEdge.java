package dev.finegrain.compiler.backend.gpu.cuda;

import dev.finegrain.compiler.backend.gpu.BandMapping;
import dev.finegrain.compiler.backend.gpu.BandMapping.BandEdge;
import dev.finegrain.compiler.backend.gpu.EdgeRing;
import dev.finegrain.compiler.backend.gpu.machine.GpuTarget;
import dev.finegrain.compiler.ir.IrField;

/**
 * A persistent band's edge at the start of each chunk ({@link CudaBands}): the window of the left band's edge values the
 * chunk reads, waited for through the mechanism's {@link CudaSync} band protocol, and, where the edge is a ring
 * ({@link EdgeRing}), the free counter it publishes and the right band's counter it waits on before writing a lap on.
 */
final class CudaBandEdge {

    private final CudaBandContext cx;
    private final BandMapping mapping;
    private final CudaFields fields;
    private final CudaWriter out;
    private final CudaSync sync;
    private final BandEdge edge;
    private final int width;

    CudaBandEdge(CudaBandContext cx, CudaFields fields, CudaSync sync) {
        this.cx = cx;
        this.mapping = cx.mapping;
        this.fields = fields;
        this.out = cx.out;
        this.sync = sync;
        this.edge = mapping.edge();
        this.width = mapping.bandWidth();
    }

    /**
     * At a chunk's start: the edge window, the left band's edge columns for the rows the chunk reads. Rows above the
     * domain and, for band 0, the columns left of it are the fields' halo (the boundary); the rest waits for the left
     * band's tokens. The rows the last chunk's window already held ({@link BandEdge#carriedRows}) are kept from it: read
     * before the warp meets, written after.
     */
    void copyEdge() {
        copyEdge("warp", "warp");
    }

    /**
     * The window for the chunk at {@code base} into window buffer {@code into}, the rows it shares with the last
     * chunk's taken from buffer {@code from}: the band's own warp's window, or the helper warp's two.
     */
    void copyEdge(String into, String from) {
        int haloRows = fields.halo().low()[0];
        int rows = edge.windowRows();
        int shared = edge.carriedRows();
        int cells = edge.columns() * shared;
        out.line("const int wb = base - " + edge.lookbackRows() + ";   // the window's first row");
        if (shared > 0) {
            for (IrField field : edge.fields()) {
                String cell = "min(lane, " + (cells - 1) + ")";
                String lastRows = cells == 1 ? "[0][" + GpuTarget.WARP + "]"
                        : "[" + cell + " / " + shared + "][" + GpuTarget.WARP + " + " + cell + " % " + shared + "]";
                out.line("const " + cx.type(field) + " " + carried(field) + " = " + CudaBandContext.window(field) + "[" + from + "]" + lastRows
                        + ";   // the last window's last row" + (cells == 1 ? "" : "s") + ", this one's first");
            }
        }
        out.line("__syncwarp();   // every lane has read the last chunk's window before it is overwritten");
        out.line("const int last = min(base + 31, " + (mapping.rows() - 1) + ");   // the last row this chunk reads");
        if (!edge.readyWords()) {
            out.open("if (band > 0)");
            sync.bandWait(cx, "last", "seen");
            out.close();
        }
        String fresh = String.valueOf(rows);
        if (shared > 0) {
            for (IrField field : edge.fields()) {
                out.line(cells == 1 ? "if (base > 0 && lane == 0) " + CudaBandContext.window(field) + "[" + into + "][0][0] = " + carried(field) + ";"
                        : "if (base > 0 && lane < " + cells + ") " + CudaBandContext.window(field) + "[" + into + "][lane / " + shared + "][lane % "
                        + shared + "] = " + carried(field) + ";");
            }
            fresh = "fresh";
            out.line("const int fresh = base > 0 ? " + (rows - shared) + " : " + rows + ";   // the rows to load: every row at a band's start, else those the last window did not hold");
        }
        out.open("for (int x = lane; x < " + (edge.columns() == 1 ? fresh : edge.columns() + " * " + fresh) + "; x += 32)");
        out.line("const int slot = x / " + fresh + ";");
        out.line("const int at = " + (shared > 0 ? rows + " - fresh + " : "") + "x % " + fresh + ";   // the row's place in the window");
        out.line("const int row = wb + at;");
        out.open("if (row >= " + (-haloRows) + " && row <= last)");
        for (IrField field : edge.fields()) {
            String target = CudaBandContext.window(field) + "[" + into + "][slot][at]";
            out.open("if (band == 0 || row < 0)");
            out.line(target + " = " + cx.haloElement(field, "row", width + " * band - " + edge.columns() + " + slot") + ";   // the halo");
            out.reopen("else");
            sync.bandLoadEdge(cx, field, "row", "slot", target);
            out.close();
        }
        out.close();
        out.close();
        out.line("__syncwarp();   // the window is complete before any lane reads it");
        if (edge.ring()) {
            int freedFrom = GpuTarget.WARP - edge.lookbackRows();   // the next chunk's window starts at base + this
            int every = EdgeRing.FREE_EVERY_CHUNKS * GpuTarget.WARP;
            out.line("if (lane == 0 && band > 0 && ((base & " + (every - 1) + ") == " + (every - GpuTarget.WARP) + " || base + 32 >= "
                    + mapping.stepsPerBand() + ")) fg::store_release_gpu(&" + CudaBandContext.FREED + "[band], base " + (freedFrom < 0 ? "- " + -freedFrom
                    : "+ " + freedFrom) + ");   // rows before the next window are copied for good: the left band may write over them"
                    + " (said every " + EdgeRing.FREE_EVERY_CHUNKS + " chunks and in the last)");
        }
    }

    private static String carried(IrField field) {
        return "carried_" + CudaNames.member(field.name());
    }

    /**
     * A ring's other direction: before a chunk whose rows (up to base + 31) would go into the slots of rows a lap
     * earlier, the warp waits until the band to its right has copied those (its free counter); lane 0 reads the counter
     * and the warp meets, so every lane's stores come after the read.
     */
    void waitForRoom() {
        int ring = edge.ringRows();
        String needed = "base - " + (ring - GpuTarget.WARP);
        out.open("if (band < " + (mapping.bands() - 1) + " && " + needed + " > room)");
        out.line("if (lane == 0) while ((room = fg::load_acquire_gpu(&" + CudaBandContext.FREED + "[band + 1])) < " + needed + ") { }");
        out.line("__syncwarp();   // every lane's stores after the read");
        out.line("room = __shfl_sync(0xffffffffu, room, 0);");
        out.close();
    }
}
