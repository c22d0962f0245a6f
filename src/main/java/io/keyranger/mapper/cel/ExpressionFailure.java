package io.keyranger.mapper.cel;

/**
 * Why an expression could not give a storable value for one entity: a short category that names a counter
 * ("overflow", "missing property 'balance'"), and the detail for the dry run. It concerns one entity only, so it
 * carries no stack trace.
 */
public final class ExpressionFailure extends Exception {
    private final String category;

    public ExpressionFailure(String category, String detail) {
        super(detail, null, false, false);
        this.category = category;
    }

    /** A short, bounded description such as "overflow" or "wrong type"; never the value. */
    public String category() {
        return category;
    }

    /** The full reason, for a person reading the dry run. */
    public String detail() {
        return getMessage();
    }
}
