package io.keyranger.mapper.cel;

import dev.cel.common.CelErrorCode;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelUnknownSet;

/**
 * A compiled expression of a spec, cheap to evaluate on each entity. Evaluation never throws for a problem of one
 * entity's data: it reports an {@link ExpressionFailure} (missing property, wrong type, overflow, ...) instead.
 * Thread-safe: a mapper shares one across workers.
 */
public final class EntityExpression {
    private final String name;
    private final String source;
    private final CelRuntime.Program program;

    EntityExpression(String name, String source, CelRuntime.Program program) {
        this.name = name;
        this.source = source;
        this.program = program;
    }

    /** Its name in the spec, e.g. {@code set.balance} or {@code where}. */
    public String name() {
        return name;
    }

    /** Its text as written. */
    public String source() {
        return source;
    }

    /** Its CEL result for one entity. */
    public Object evaluate(EntityVariables variables) throws ExpressionFailure {
        variables.clearMissing();
        Object result;
        try {
            result = program.eval(variables);
        } catch (CelEvaluationException e) {
            throw failure(e.getErrorCode(), e.getMessage(), variables);
        } catch (RuntimeException e) { // CEL's own guard rails on unusual data; still one entity's problem
            throw new ExpressionFailure("error", name + ": " + e.getMessage());
        }
        if (result instanceof CelUnknownSet) {
            throw missing(variables.missing());
        }
        return result;
    }

    /** Its result for one entity as a condition; a result other than true or false is a failure. */
    public boolean test(EntityVariables variables) throws ExpressionFailure {
        Object result = evaluate(variables);
        if (result instanceof Boolean b) {
            return b;
        }
        throw new ExpressionFailure("not true or false", name + " gave " + result + " instead of true or false");
    }

    private ExpressionFailure missing(String property) {
        String shown = property == null ? "a property" : "'" + property + "'";
        return new ExpressionFailure("missing property " + shown, name + ": the entity has no property " + shown
                + " (guard it with has(" + (property == null ? "name" : property) + "))");
    }

    private ExpressionFailure failure(CelErrorCode code, String message, EntityVariables variables) {
        String detail = name + ": " + message.replace("evaluation error at <input>", "error at offset")
                .replaceFirst("^error at offset:\\d+: ", "");
        return switch (code) {
            case ATTRIBUTE_NOT_FOUND -> variables.missing() != null ? missing(variables.missing())
                    : new ExpressionFailure("missing property", detail);
            case NUMERIC_OVERFLOW -> new ExpressionFailure("overflow", detail);
            case DIVIDE_BY_ZERO -> new ExpressionFailure("division by zero", detail);
            case OVERLOAD_NOT_FOUND -> new ExpressionFailure("wrong type", detail);
            case INDEX_OUT_OF_BOUNDS -> new ExpressionFailure("index out of range", detail);
            case BAD_FORMAT, INVALID_ARGUMENT -> new ExpressionFailure("invalid argument", detail);
            case ITERATION_BUDGET_EXCEEDED -> new ExpressionFailure("too many iterations", detail);
            default -> new ExpressionFailure("error", detail);
        };
    }
}
