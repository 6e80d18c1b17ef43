package dev.finegrain.gpu.runtime;

/** One thread, named the way reports name it: block, warp within the block, lane within the warp. */
public record SimtThread(int block, int warp, int lane) {
    @Override
    public String toString() {
        return "block " + block + " warp " + warp + " lane " + lane;
    }
}
