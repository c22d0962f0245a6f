package io.keyranger.ui.common;

import com.google.cloud.datastore.DatastoreException;
import io.keyranger.KeyRangerException;

/** Turns an exception into a sentence for the screen; the stack trace goes to the log. */
public final class ErrorMessages {
    private ErrorMessages() {
    }

    public static String of(Throwable error) {
        Throwable cause = error;
        while (cause != null) {
            if (cause instanceof KeyRangerException) {
                return cause.getMessage();
            }
            if (cause instanceof DatastoreException datastore) {
                return "Datastore error" + (datastore.getReason() != null ? " (" + datastore.getReason() + ")" : "")
                        + ": " + datastore.getMessage();
            }
            cause = cause.getCause();
        }
        String message = error.getMessage();
        return message == null || message.isBlank() ? error.getClass().getSimpleName() : message;
    }
}
