package io.keyranger.datastore;

import com.google.cloud.datastore.DatastoreException;
import io.keyranger.KeyRangerException;
import java.time.Instant;

/**
 * The one place an error becomes text a user reads (the job report's reasons, the command line's last line, the
 * app's banners): KeyRanger's own refusals as they are; a server's error by its status and reason, the call that got
 * it (lookup, runQuery, commit, ...) and, for a read of the past, the read time; and when the server gave no reason
 * (an empty message, as the Firestore emulator's HTTP 500s have), it says so rather than ending in a bare colon.
 */
public final class ServerErrors {
    private ServerErrors() {
    }

    /** A read of the past that failed: the moment it asked for, kept under the server's error ({@link PastReads}). */
    public static final class PastRead extends RuntimeException {
        private final Instant readTime;

        PastRead(Instant readTime, Throwable cause) {
            super("read as of " + readTime, cause, false, false);
            this.readTime = readTime;
        }

        public Instant readTime() {
            return readTime;
        }
    }

    /** {@code error} in one line for a user. */
    public static String describe(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof KeyRangerException) {
                return cause.getMessage();
            }
            if (cause instanceof DatastoreException datastore) {
                return describe(datastore);
            }
        }
        String message = firstLine(error.getMessage());
        return message.isEmpty() ? error.getClass().getSimpleName() + " (no message)"
                : error.getClass().getSimpleName() + ": " + message;
    }

    /**
     * "Datastore error (UNKNOWN) on runQuery as of 2026-12-06T10:00:00Z: the server gave no reason", or with the
     * server's message in place of the last words; the status's number when it has no name.
     */
    public static String describe(DatastoreException error) {
        StringBuilder text = new StringBuilder("Datastore error");
        if (error.getReason() != null && !error.getReason().isBlank()) {
            text.append(" (").append(error.getReason()).append(')');
        } else if (error.getCode() != 0) {
            text.append(" (code ").append(error.getCode()).append(')');
        } else {
            text.append(" (no status)");
        }
        String call = call(error);
        if (call != null) {
            text.append(" on ").append(call);
        }
        Instant readTime = readTime(error);
        if (readTime != null) {
            text.append(" as of ").append(readTime);
        }
        String message = firstLine(error.getMessage());
        if (message.isEmpty() && readTime != null && ReadWindow.versionDropped(error) != null) {
            return text.append(": the server gave no reason; ").append(ReadWindow.DROPPED).append(", so that moment "
                    + "has left its version window").toString();
        }
        return text.append(": ").append(message.isEmpty() ? "the server gave no reason" : message).toString();
    }

    /** Whether {@code error} is (or was caused by) a server's answer rather than a fault of KeyRanger's. */
    public static boolean isServerError(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof DatastoreException) {
                return true;
            }
        }
        return false;
    }

    /** The read time of a failed read of the past, or null when the error is not one. */
    public static Instant readTime(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof PastRead past) {
                return past.readTime();
            }
        }
        return null;
    }

    /** The call that failed, as the client names it (lookup, runQuery, commit, ...), or null when not known. */
    static String call(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof com.google.datastore.v1.client.DatastoreException rpc
                    && rpc.getMethodName() != null && !rpc.getMethodName().isBlank()) {
                return rpc.getMethodName();
            }
        }
        return null;
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.strip().lines().findFirst().orElse("").strip();
    }
}
