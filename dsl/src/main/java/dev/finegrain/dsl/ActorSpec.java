package dev.finegrain.dsl;

/** One computation per domain point: {@code writes[point] = body}. */
public record ActorSpec(String name, String writes, Expr body, CallSite site) {}
