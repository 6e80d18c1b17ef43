package dev.finegrain.compiler.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON reader, just big enough for result rows: objects become maps (in order), arrays lists, numbers
 * doubles, null null; and {@link #write} for the same shapes the other way.
 * Anything malformed, including trailing text, throws IllegalArgumentException naming the offset.
 */
public final class Json {

    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    public static Object parse(String text) {
        Json reader = new Json(text);
        Object value = reader.value();
        reader.skipWhitespace();
        if (reader.at != text.length()) {
            throw reader.error("trailing text");
        }
        return value;
    }

    private Object value() {
        skipWhitespace();
        if (at >= text.length()) {
            throw error("unexpected end");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> fields = new LinkedHashMap<>();
        expect('{');
        skipWhitespace();
        if (peek('}')) {
            at++;
            return fields;
        }
        do {
            skipWhitespace();
            String key = string();
            skipWhitespace();
            expect(':');
            if (fields.containsKey(key)) {
                throw error("duplicate key " + key);
            }
            fields.put(key, value());
            skipWhitespace();
        } while (consume(','));
        expect('}');
        return fields;
    }

    private List<Object> array() {
        List<Object> items = new ArrayList<>();
        expect('[');
        skipWhitespace();
        if (peek(']')) {
            at++;
            return items;
        }
        do {
            items.add(value());
            skipWhitespace();
        } while (consume(','));
        expect(']');
        return items;
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (at < text.length() && text.charAt(at) != '"') {
            char c = text.charAt(at++);
            if (c < 0x20) {
                throw error("control character in a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char escaped = text.charAt(at++);
            switch (escaped) {
                case '"', '\\', '/' -> out.append(escaped);
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                }
                default -> throw error("bad escape \\" + escaped);
            }
        }
        expect('"');
        return out.toString();
    }

    private Double number() {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        String token = text.substring(start, at);
        if (!token.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
            throw error(token.isEmpty() ? "not JSON: expected a value (an object, array, string, number, true, false or null)"
                    : "not a JSON value: '" + token + "'");
        }
        return Double.valueOf(token);
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error("expected " + word);
        }
        at += word.length();
        return value;
    }

    private void skipWhitespace() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private boolean peek(char c) {
        return at < text.length() && text.charAt(at) == c;
    }

    private boolean consume(char c) {
        if (peek(c)) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!consume(c)) {
            throw error("expected '" + c + "'");
        }
    }

    private IllegalArgumentException error(String problem) {
        String near = text.substring(Math.max(0, at - 20), Math.min(text.length(), at + 20)).replace('\n', ' ');
        return new IllegalArgumentException(problem + " at offset " + at + ", near '" + near + "'");
    }

    /** {@code text} as a JSON string literal. */
    public static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /**
     * Maps (keys as strings, in their order), lists, strings, numbers, booleans and null as compact JSON; a number that
     * is not finite is null, a whole double is written without a fraction.
     */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        switch (value) {
            case null -> out.append("null");
            case Map<?, ?> map -> {
                out.append('{');
                int n = 0;
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    out.append(n++ == 0 ? "" : ",").append(quote(String.valueOf(entry.getKey()))).append(':');
                    write(entry.getValue(), out);
                }
                out.append('}');
            }
            case List<?> list -> {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    out.append(i == 0 ? "" : ",");
                    write(list.get(i), out);
                }
                out.append(']');
            }
            case Double d -> out.append(!Double.isFinite(d) ? "null"
                    : d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString(d.longValue()) : Double.toString(d));
            case Float f -> write(f.doubleValue(), out);
            case Number n -> out.append(n);
            case Boolean b -> out.append(b);
            default -> out.append(quote(value.toString()));
        }
    }
}
