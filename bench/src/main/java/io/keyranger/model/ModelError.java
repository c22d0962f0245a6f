package io.keyranger.model;

import com.google.rpc.Code;

/** A request the model refuses, with the status code production would answer. */
final class ModelError extends RuntimeException {
    private final Code code;

    ModelError(Code code, String message) {
        super(message);
        this.code = code;
    }

    Code code() {
        return code;
    }

    /** The HTTP status the Datastore REST endpoint pairs with the code. */
    int httpStatus() {
        return switch (code) {
            case INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE -> 400;
            case NOT_FOUND -> 404;
            case ALREADY_EXISTS, ABORTED -> 409;
            case RESOURCE_EXHAUSTED -> 429;
            case UNIMPLEMENTED -> 501;
            case UNAVAILABLE -> 503;
            case DEADLINE_EXCEEDED -> 504;
            default -> 500;
        };
    }
}
