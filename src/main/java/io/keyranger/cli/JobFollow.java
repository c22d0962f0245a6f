package io.keyranger.cli;

import io.keyranger.cost.PriceTable;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobStatus;
import io.keyranger.report.JobOutcome;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/**
 * Follows a started job to its end for a command ({@code run}, {@code revert}): progress on stderr, Ctrl-C cancels
 * (committed pages stay; the job can be resumed), then the summary, the report and the exit code.
 */
final class JobFollow {
    private JobFollow() {
    }

    /** Waits for {@code handle}'s job, prints its summary and returns its result ({@link #exitCode} says the code). */
    static JobResult follow(JobHandle handle, JobProgressPrinter progress, CommandLine command,
                      PriceTable prices, Path report, String resumeHint) throws InterruptedException {
        Thread stopper = new Thread(() -> cancelAndWait(handle), "keyranger-run-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        JobResult result;
        try {
            result = handle.await();
        } finally {
            progress.close();
            try {
                Runtime.getRuntime().removeShutdownHook(stopper);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
        JobOutcome outcome = JobOutcome.of(result);
        JobSummary.print(outcome, command.getOut(), prices, resumeHint);
        if (report != null) {
            JobSummary.writeReport(outcome, report, prices);
        }
        PrintWriter err = command.getErr();
        if (result.status() == JobStatus.FAILED && result.message() != null) {
            err.println("keyranger: job " + result.jobId() + " failed: " + result.message()); // where errors go
            err.flush();
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

    private static void cancelAndWait(JobHandle handle) {
        if (!handle.result().isDone()) {
            handle.cancel();
            try {
                handle.result().get(10, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // committed pages are safe either way; the job can be resumed
            }
        }
    }
}
