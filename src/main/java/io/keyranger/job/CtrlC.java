package io.keyranger.job;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) while a command follows a job: the first one runs the command's action (cancel the job, which then
 * ends as the app's Cancel ends it) and the command goes on to say how the job ended and exits with its own code; a
 * second one is the JVM's again, which quits (the command's shutdown hook still cancels). Without it the JVM would
 * start shutting down at once and exit 130, racing the summary. Where the JVM cannot take SIGINT (it was ignored when
 * the process started, as under {@code nohup}) nothing changes. SIGTERM stays the JVM's: the shutdown hook. The
 * command line's job commands and the Beam launcher (a pipeline on a runner in its JVM) both take Ctrl-C through it.
 */
public final class CtrlC implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CtrlC.class);
    private static final Signal INT = new Signal("INT");

    private final SignalHandler previous;
    private volatile boolean closed;

    private CtrlC(Runnable action) {
        SignalHandler[] before = new SignalHandler[1];
        SignalHandler mine = signal -> {
            restore(before[0]);
            if (!closed) {
                action.run();
            }
        };
        SignalHandler taken;
        try {
            taken = Signal.handle(INT, mine);
        } catch (IllegalArgumentException ignoredAtStart) {
            LOG.debug("SIGINT is not ours to take: {}", ignoredAtStart.getMessage());
            taken = null;
        }
        before[0] = taken;
        this.previous = taken;
    }

    /** Runs {@code action} on the first Ctrl-C until closed. */
    public static CtrlC onFirst(Runnable action) {
        return new CtrlC(action);
    }

    private static void restore(SignalHandler handler) {
        if (handler != null) {
            Signal.handle(INT, handler);
        }
    }

    /** Gives SIGINT back to the JVM. */
    @Override
    public void close() {
        closed = true;
        restore(previous);
    }
}
