/**
 * The DSL's machinery, shared with the compiler and not part of the API a kernel author uses: dependence vectors and
 * their arithmetic, the one place every user-facing message is written, the typing rules of expressions, and the
 * printer of kernel specs. Classes here may change without notice; kernels are written against
 * {@link dev.finegrain.dsl.Finegrain} and the types it returns.
 */
package dev.finegrain.dsl.internal;
