package dev.finegrain.compiler.backend.jvm.generated;

import java.lang.invoke.MethodHandles;

/**
 * The package generated kernel classes are defined in at run time, as hidden classes: a hidden class must live in
 * its lookup's package, and this class provides that lookup.
 */
public final class GeneratedKernels {

    public static final String PACKAGE = GeneratedKernels.class.getPackageName();

    private GeneratedKernels() {}

    public static Class<?> define(byte[] classFile) throws IllegalAccessException {
        return MethodHandles.lookup().defineHiddenClass(classFile, true).lookupClass();
    }
}
