package io.keyranger;

/**
 * A failure the user can act on: its message is shown as is, on the CLI as one line and in the GUI as a dialog.
 * Stack traces of these go to the log only.
 */
public class KeyRangerException extends RuntimeException {
    public KeyRangerException(String message) {
        super(message);
    }

    public KeyRangerException(String message, Throwable cause) {
        super(message, cause);
    }
}
