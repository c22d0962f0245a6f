package io.keyranger.mapper;

import io.keyranger.KeyRangerException;

/** A template parameter that is missing or wrong: which one, and what is wrong with it, for a form to show beside it. */
public final class ParameterException extends KeyRangerException {
    private final String parameter;
    private final String problem;

    ParameterException(String template, String parameter, String problem) {
        super("Parameter '" + parameter + "' of template '" + template + "' " + problem + ".");
        this.parameter = parameter;
        this.problem = problem;
    }

    /** The parameter's name. */
    public String parameter() {
        return parameter;
    }

    /** What is wrong with it, e.g. "must be a number (got ten)". */
    public String problem() {
        return problem;
    }
}
