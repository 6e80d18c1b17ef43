/**
 * Stuart and Owens' synchronisation primitives ("Efficient synchronization primitives for GPUs"): barriers, mutexes
 * and semaphores between blocks, one class per primitive, each spelling its algorithm once for every target: the
 * model ISA ({@code finegrain sim}'s SASS), CUDA C++, and the JVM runtime's form ({@code dev.finegrain.runtime.jvm}).
 * {@link dev.finegrain.compiler.backend.gpu.primitive.PrimitiveProgram} and
 * {@link dev.finegrain.compiler.backend.gpu.primitive.PrimitiveCuda} wrap a primitive in the paper's benchmark: every
 * block's master thread performs it {@code ops} times, and a checking run counts holders and barrier phases.
 */
package dev.finegrain.compiler.backend.gpu.primitive;
