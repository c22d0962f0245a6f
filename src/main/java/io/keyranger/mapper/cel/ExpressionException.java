package io.keyranger.mapper.cel;

import io.keyranger.KeyRangerException;

/**
 * An expression of a spec that does not compile: which one ({@code set.balance}, {@code where}), where in it (line
 * and column, from 1), and what CEL says, with the line and a caret under the place.
 */
public final class ExpressionException extends KeyRangerException {
    private final String expression;
    private final int line;
    private final int column;

    ExpressionException(String expression, int line, int column, String problem, String snippet) {
        super("Expression " + expression + (line > 0 ? " (line " + line + ", column " + column + ")" : "") + ": "
                + problem + (snippet.isEmpty() ? "" : "\n" + snippet));
        this.expression = expression;
        this.line = line;
        this.column = column;
    }

    /** The expression's name in the spec, e.g. {@code set.balance} or {@code where}. */
    public String expression() {
        return expression;
    }

    /** Its line, from 1; 0 when CEL gave no position. */
    public int line() {
        return line;
    }

    /** Its column, from 1; 0 when CEL gave no position. */
    public int column() {
        return column;
    }
}
