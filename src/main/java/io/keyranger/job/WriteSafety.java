package io.keyranger.job;

import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.mapper.Template;

/**
 * The one rule for jobs that write, used by the command line, the app, the executor and imports: a read-only
 * connection refuses them, and a project that is not an emulator needs its id confirmed. Whether a job writes is the
 * template's to declare ({@link Template#writes()}).
 */
public final class WriteSafety {
    /** What the rule says of a job. */
    public enum Verdict {
        /** It may run. */
        ALLOWED,
        /** The connection is read-only and the template writes. */
        READ_ONLY,
        /** It writes to a project that is not an emulator: its id must be confirmed. */
        CONFIRM_PROJECT
    }

    private WriteSafety() {
    }

    /** The verdict for running {@code template} on {@code connection}, before anything is confirmed. */
    public static Verdict verdict(ConnectionSpec connection, Template template) {
        if (!template.writes()) {
            return Verdict.ALLOWED;
        }
        if (connection.readOnly()) {
            return Verdict.READ_ONLY;
        }
        return connection.isLocal() ? Verdict.ALLOWED : Verdict.CONFIRM_PROJECT;
    }

    /** "The 'delete' mapper writes to project P, which is not an emulator: HOW to go ahead." */
    public static KeyRangerException unconfirmed(Template template, String project, String howToConfirm) {
        return new KeyRangerException("The '" + template.name() + "' mapper writes to project " + project
                + ", which is not an emulator: " + howToConfirm + " to go ahead.");
    }

    /** The read-only part of the rule, where the runner only knows the flag (the executor, an import). */
    public static void refuseOnReadOnly(boolean readOnly, Template template, String kind) {
        if (readOnly && template.writes()) {
            throw readOnly(template, kind);
        }
    }

    /** "The connection is read-only: the 'delete' mapper writes." */
    public static KeyRangerException readOnly(Template template, String kind) {
        return readOnly(template.name(), kind);
    }

    public static KeyRangerException readOnly(String templateName, String kind) {
        return new KeyRangerException("The connection is read-only: the '" + templateName + "' mapper writes"
                + (kind == null ? "" : " to " + kind) + ".");
    }
}
