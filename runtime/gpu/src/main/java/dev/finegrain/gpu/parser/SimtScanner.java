package dev.finegrain.gpu.parser;

import dev.finegrain.gpu.SimUserException;
import dev.finegrain.gpu.isa.SimtSourcePosition;

/**
 * A cursor over the program text that keeps line and column, skips blanks and comments (remembering the last
 * address comment), and builds the {@code file:line:column: expected ..., found ...} errors.
 */
final class SimtScanner {
    private final String file;
    private final String text;
    private int offset;
    private int line = 1;
    private int column = 1;
    private Integer pendingAddress;

    SimtScanner(String file, String text) {
        this.file = file;
        this.text = text;
    }

    String file() {
        return file;
    }

    int offset() {
        return offset;
    }

    /** The text from {@code start} to the cursor. */
    String textFrom(int start) {
        return text.substring(start, offset);
    }

    /** The address of the last {@code /*00a8*}{@code /} comment not yet taken by an instruction, or null. */
    Integer pendingAddress() {
        return pendingAddress;
    }

    void clearPendingAddress() {
        pendingAddress = null;
    }

    String word() {
        int start = offset;
        while (!atEnd() && (Character.isLetterOrDigit(peek()) || peek() == '_' || peek() == '.')) {
            advance(1);
        }
        return text.substring(start, offset);
    }

    void skipSpaces() {
        while (!atEnd() && (peek() == ' ' || peek() == '\t')) {
            advance(1);
        }
    }

    void skipBlanksAndComments() {
        while (!atEnd()) {
            char c = peek();
            if (Character.isWhitespace(c)) {
                advance(1);
            } else if (lookingAt("//")) {
                while (!atEnd() && peek() != '\n') {
                    advance(1);
                }
            } else if (lookingAt("/*")) {
                blockComment();
            } else {
                return;
            }
        }
    }

    private void blockComment() {
        SimtSourcePosition at = position();
        int end = text.indexOf("*/", offset + 2);
        if (end < 0) {
            throw new SimUserException(at + ": expected '*/' to close this comment");
        }
        String body = text.substring(offset + 2, end).trim();
        if (body.matches("(?i)(0x)?[0-9a-f]{1,8}")) {
            pendingAddress = (int) Long.parseLong(body.replaceFirst("(?i)^0x", ""), 16);
        }
        advance(end + 2 - offset);
    }

    SimUserException error(SimtSourcePosition at, String expected) {
        String found = atEnd() ? "end of file" : "'" + peek() + "'";
        return new SimUserException(at + ": expected " + expected + ", found " + found);
    }

    SimUserException error(SimtSourcePosition at, String expected, String found) {
        return new SimUserException(at + ": expected " + expected + ", found "
                + (found.isEmpty() ? (atEnd() ? "end of file" : "'" + peek() + "'") : "'" + found + "'"));
    }

    SimtSourcePosition position() {
        return new SimtSourcePosition(file, line, column);
    }

    boolean atEnd() {
        return offset >= text.length();
    }

    char peek() {
        return peekAt(0);
    }

    char peekAt(int ahead) {
        return offset + ahead < text.length() ? text.charAt(offset + ahead) : '\0';
    }

    boolean lookingAt(String s) {
        return text.startsWith(s, offset);
    }

    void advance(int count) {
        for (int i = 0; i < count && !atEnd(); i++) {
            if (text.charAt(offset) == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
            offset++;
        }
    }
}
