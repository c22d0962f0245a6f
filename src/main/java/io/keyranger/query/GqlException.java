package io.keyranger.query;

import io.keyranger.KeyRangerException;

/** A query KeyRanger cannot read or run, with the column (1-based) the problem is at, for the query box. */
public final class GqlException extends KeyRangerException {
    private final int column;

    public GqlException(String message, int column) {
        super(message);
        this.column = column;
    }

    public int column() {
        return column;
    }
}
