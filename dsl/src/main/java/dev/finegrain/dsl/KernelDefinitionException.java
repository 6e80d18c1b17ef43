package dev.finegrain.dsl;

/**
 * A user's mistake in defining or invoking a kernel. The message is one line: the kernel (and actor), the
 * construct, what is wrong, what to do, and the user's call site. Every message comes from {@link Diagnostics}.
 */
public final class KernelDefinitionException extends RuntimeException {

    public KernelDefinitionException(String message) {
        super(message);
    }
}
