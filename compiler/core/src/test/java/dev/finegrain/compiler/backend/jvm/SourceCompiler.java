package dev.finegrain.compiler.backend.jvm;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

import static org.junit.jupiter.api.Assertions.fail;

/** The tests' javac: generated Java source ({@code show --java}) compiled in memory, so a test can run it beside the bytecode. */
final class SourceCompiler {

    private SourceCompiler() {}

    /** Compiles one source file in memory with javax.tools against the test class path and the Vector API module. */
    static Class<?> compile(String className, String source) throws ClassNotFoundException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        Map<String, ByteArrayOutputStream> classes = new HashMap<>();
        var standard = compiler.getStandardFileManager(null, null, null);
        var files = new javax.tools.ForwardingJavaFileManager<>(standard) {
            @Override
            public JavaFileObject getJavaFileForOutput(Location location, String name, JavaFileObject.Kind kind, javax.tools.FileObject sibling) {
                return new SimpleJavaFileObject(URI.create("mem:///" + name.replace('.', '/') + kind.extension), kind) {
                    @Override
                    public OutputStream openOutputStream() {
                        return classes.computeIfAbsent(name, k -> new ByteArrayOutputStream());
                    }
                };
            }
        };
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///" + className.replace('.', '/') + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        StringWriter diagnostics = new StringWriter();
        boolean ok = compiler.getTask(diagnostics, files, null, List.of("-classpath", System.getProperty("java.class.path"), "--add-modules", "jdk.incubator.vector"), null,
                List.of(file)).call();
        if (!ok) {
            fail("generated source does not compile:\n" + diagnostics + "\n" + source);
        }
        ClassLoader loader = new ClassLoader(SourceCompiler.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                ByteArrayOutputStream bytes = classes.get(name);
                if (bytes == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] code = bytes.toByteArray();
                return defineClass(name, code, 0, code.length);
            }
        };
        return loader.loadClass(className);
    }
}
