package io.keyranger.ui.common;

import io.keyranger.datastore.ServerErrors;

/** Turns an exception into a sentence for the screen ({@link ServerErrors}); the stack trace goes to the log. */
public final class ErrorMessages {
    private ErrorMessages() {
    }

    public static String of(Throwable error) {
        return ServerErrors.describe(error);
    }
}
