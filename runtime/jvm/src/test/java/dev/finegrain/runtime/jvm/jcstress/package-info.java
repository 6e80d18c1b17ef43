/**
 * jcstress tests of the runtime's mechanisms: a consumer never observes a token before the producer's data, and a
 * token never admits two owners. Each test's FORBIDDEN outcome is the bug it looks for; {@code ./mvnw verify} runs
 * them in a quick mode and fails on any FORBIDDEN or unknown outcome (see runtime/jvm/README.md for the long mode).
 */
package dev.finegrain.runtime.jvm.jcstress;
