package dev.finegrain.compiler.ir;

/** An actor: {@code fields[writes][p] = body} at every point p; {@code slots} accumulators for its folds. */
public record IrActor(int id, String name, int writes, IrExpr body, int slots) {}
