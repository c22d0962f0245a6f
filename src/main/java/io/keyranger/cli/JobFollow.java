package io.keyranger.cli;

import io.keyranger.cost.PriceTable;
import io.keyranger.job.CtrlC;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobStatus;
import io.keyranger.summary.JobOutcome;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/**
 * Follows a started job to its end for a command ({@code run}, {@code revert}, {@code restore}): progress on stderr,
 * Ctrl-C cancels as the app's Cancel does ({@link CtrlC}: no range or page starts after it, the commits under way end,
 * the job can be resumed), then the summary (a cancelled job's says how to resume it), the report and the exit code
 * ({@link RunCommand#EXIT_CANCELLED} for a cancelled job).
 */
final class JobFollow {
    private JobFollow() {
    }

    /** Waits for {@code handle}'s job, prints its summary and returns its result ({@link #exitCode} says the code). */
    static JobResult follow(JobHandle handle, JobProgressPrinter progress, CommandLine command,
                      PriceTable prices, Path report, String resumeHint) throws InterruptedException {
        PrintWriter err = command.getErr();
        CountDownLatch summed = new CountDownLatch(1);
        // SIGTERM (or a second Ctrl-C): the JVM exits once the hook returns, so it waits for the summary too
        Thread stopper = new Thread(() -> cancelAndWait(handle, summed), "keyranger-run-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        JobResult result;
        try (CtrlC ctrlC = CtrlC.onFirst(() -> {
            err.println();
            err.println("keyranger: Ctrl-C: cancelling job " + handle.jobId() + ": no range or page starts now; "
                    + "the commits under way end. Ctrl-C again quits at once.");
            err.flush();
            handle.cancel();
        })) {
            result = handle.await();
        } finally {
            progress.close();
            try {
                Runtime.getRuntime().removeShutdownHook(stopper);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
        try {
            JobOutcome outcome = JobOutcome.of(result);
            JobSummary.print(outcome, command.getOut(), prices, resumeHint);
            if (report != null) {
                JobSummary.writeReport(outcome, report, prices);
            }
            if (result.status() == JobStatus.FAILED && result.message() != null) {
                err.println("keyranger: job " + result.jobId() + " failed: " + result.message()); // where errors go
                err.flush();
            }
        } finally {
            summed.countDown();
        }
        return result;
    }

    /**
     * A command's exit code for a job's result: a job done but for entities it could not write exits
     * {@link RunCommand#EXIT_NOT_ALL_WRITTEN}, said on {@code err}.
     */
    static int exitCode(JobResult result, PrintWriter err) {
        long notWritten = JobOutcome.notWritten(result.totals());
        if (result.status() == JobStatus.DONE && notWritten > 0) {
            err.println("keyranger: " + JobOutcome.notWrittenSentence(notWritten) + " (see 'skipped' above for why); "
                    + "everything else is done.");
            err.flush();
            return RunCommand.EXIT_NOT_ALL_WRITTEN;
        }
        return switch (result.status()) {
            case DONE -> 0;
            case CANCELLED -> RunCommand.EXIT_CANCELLED;
            case TAKEN_OVER -> RunCommand.EXIT_TAKEN_OVER;
            default -> RunCommand.EXIT_RANGES_FAILED;
        };
    }

    /** The shutdown hook: cancels the job, and waits (a while) for its end and its summary. */
    private static void cancelAndWait(JobHandle handle, CountDownLatch summed) {
        handle.cancel();
        try {
            handle.result().get(10, TimeUnit.SECONDS);
            summed.await(5, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // committed pages are safe either way; the job can be resumed
        }
    }
}
