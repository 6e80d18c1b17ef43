package dev.finegrain.compiler.backend.gpu.cuda;

import java.util.Locale;
import java.util.Set;

/**
 * Names in generated CUDA C++: a kernel's own field and param names as they are, unless C++ reserves them (a keyword,
 * or a name with a double underscore), which get a suffix; a variant's namespace from its kernel, schedule, mechanism
 * and size.
 */
final class CudaNames {

    private static final Set<String> RESERVED = Set.of("alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand",
            "bitor", "bool", "break", "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl",
            "concept", "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await", "co_return",
            "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit",
            "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable",
            "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected",
            "public", "register", "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
            "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local", "throw", "true", "try",
            "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t",
            "while", "xor", "xor_eq", "fg", "p", "f", "error", "diagonal", "main", "dim3", "threadIdx", "blockIdx",
            "blockDim", "gridDim", "warpSize");

    private CudaNames() {}

    /** A field or param name as C++ can use it. */
    static String member(String name) {
        return RESERVED.contains(name) || name.contains("__") ? name + "_" : name;
    }

    /** e.g. {@code needleman_wunsch__lock_dataflow__tiny_lock__per_thread_shared__64x64}. */
    static String variant(String kernel, String schedule, String mechanism, String lockChoices, String size) {
        return String.join("__", snake(kernel), snake(schedule), snake(mechanism), snake(lockChoices), size)
                .replaceAll("_{3,}", "__");
    }

    private static String snake(String words) {
        return words.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_|_$", "");
    }
}
