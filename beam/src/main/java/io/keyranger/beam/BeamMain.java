package io.keyranger.beam;

import com.google.auth.oauth2.GoogleCredentials;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.dryrun.DryRunner;
import io.keyranger.executor.JobReadTime;
import io.keyranger.executor.PipelineJobs;
import io.keyranger.job.CtrlC;
import io.keyranger.job.JobBusyException;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.keys.KeyRange;
import io.keyranger.summary.DryRunPrinter;
import io.keyranger.summary.JobOutcome;
import io.keyranger.summary.ProcessCpu;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.values.PCollection;

/**
 * {@code java -jar keyranger-beam.jar --runner=DirectRunner --project=P --emulatorHost=HOST:PORT --kind=K
 * --mapper=FILE.json --jobId=ID}: runs a KeyRanger job as a Beam pipeline, prints one summary line, and exits 0 when
 * the job is done, 1 when it is not, 2 on bad input, 8 when it is done but for entities it could not write, 7 when
 * it is done but left entities changed later alone (as {@code keyranger run}, {@code restore} and {@code revert}), 4
 * when it was cancelled. A job with that id, started by this jar or by a local run ({@code keyranger run}), is
 * continued where its ledgers say it is. Ctrl-C while it waits for the pipeline cancels the job as the command line's
 * does ({@link CtrlC}): on a runner in this JVM (the DirectRunner, Flink's local mini-cluster) no range and no page
 * starts after it and the commits under way end; the pipeline is cancelled, the job recorded CANCELLED (resumable)
 * and the summary says how to resume it. A second Ctrl-C quits at once.
 */
public final class BeamMain {
    /** Done, but for entities it could not write: the command line's {@code run} exits with the same code. */
    static final int NOT_ALL_WRITTEN = 8;
    /** Done, but for entities left alone on purpose (later writes): the command line's restore and revert exit so. */
    static final int LEFT_ALONE = 7;
    /** Cancelled (Ctrl-C), resumable: the command line's run exits with the same code. */
    static final int CANCELLED = 4;
    /** How long a cancelled run waits for the commits under way to end. */
    private static final long COMMITS_UNDER_WAY_MILLIS = 30_000;

    private BeamMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the pipeline the arguments describe; the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        PipelineOptionsFactory.register(KeyRangerOptions.class);
        KeyRangerOptions options;
        BeamRequest request;
        try {
            options = PipelineOptionsFactory.fromArgs(args).withValidation().as(KeyRangerOptions.class);
            if (options.getMigrations() != null) {
                return BeamMigrations.run(options, out, err);
            }
            request = BeamRequest.from(options);
        } catch (IllegalArgumentException | KeyRangerException e) {
            err.println("keyranger-beam: " + e.getMessage());
            return 2;
        }
        if (!setUp(options, request.connection(), err)) {
            return 2;
        }
        try {
            if (request.datastoreIo()) {
                return runDatastoreIo(options, request, out);
            }
            if (!request.connection().isLocal()) {
                checkCredentials();
            }
            Session session = Session.open(request.connection());
            if (options.getDryRun()) {
                DryRunner.Result result = new DryRunner(session) // the server's own order and metadata
                        .run(request.spec().namespace(), request.spec().kind(), request.spec().mapper(), 5);
                PrintWriter writer = new PrintWriter(out, true);
                DryRunPrinter.print(result, writer);
                writer.flush();
                return 0;
            }
            return runJob(options, request, session, out, err);
        } catch (JobBusyException e) {
            err.println("keyranger-beam: " + e.getMessage() + " Here: --takeOver=true takes it at once.");
            return 2;
        } catch (KeyRangerException e) {
            err.println("keyranger-beam: " + e.getMessage());
            return 2;
        }
    }

    /**
     * What every launch sets up before its first pipeline: no credentials for an emulator, Flink's configuration;
     * false (said on {@code err}) when that cannot be written.
     */
    static boolean setUp(KeyRangerOptions options, ConnectionSpec conn, PrintStream err) {
        if (conn.isLocal()) {
            options.setCredentialFactoryClass(NoopCredentialFactory.class);
        }
        try {
            FlinkLocal.configure(options);
            return true;
        } catch (IOException e) {
            err.println("keyranger-beam: cannot write Flink's configuration: " + e.getMessage());
            return false;
        }
    }

    /** Runs {@code request}'s job as a pipeline and follows it to its end; the exit code. */
    static int runJob(KeyRangerOptions options, BeamRequest request, Session session, PrintStream out,
                      PrintStream err) {
        long started = System.nanoTime();
        ProcessCpu cpuStarted = ProcessCpu.now();
        // an import's check, an export's join: here, through the pipeline's file systems (gs://...)
        FileSystems.setDefaultPipelineOptions(options);
        List.of(RangeRun.FIRST_SETUP, RangeRun.FIRST_PROCESS, RangeRun.LAST_PROCESS_END)
                .forEach(t -> t.set(0));
        RangeRun.SETUPS.set(0);
        RangeRun.PROCESS_NANOS.set(0);
        RangeRun.CANCELLED.set(false);
        // a job that only reads reads one snapshot: its stored read time, or this new job's start; its moments (a
        // restore's too) still kept unless it is done, which it says below
        JobSpec spec = JobReadTime.settled(session, RetryPolicy.DEFAULT, request.spec(), Instant.now());
        PipelineJobs job = PipelineJobs.open(session.datastore(), BeamFileStore.INSTANCE, session.order(), spec,
                PipelineJobs.BEAM, options.getTakeOver(), Cancellation.NEVER,
                w -> err.println("Warning: " + w));
        if (job.doneAlready()) {
            out.println("Job " + request.spec().jobId() + " is done already; nothing was run again. Totals: "
                    + job.totals());
            return 0;
        }
        long planned = System.nanoTime();
        List<KeyRange> ranges = job.cells().startingRanges(FlinkLocal.startingRanges(options,
                request.spec().shards()));
        ConnectionSpec conn = request.connection();
        JobConfig config = new JobConfig(conn.emulatorHost(), conn.projectId(), conn.databaseId(), conn.namespace(),
                conn.server(), request.spec().kind(), job.spec().mapper().toJson(), request.spec().jobId(),
                request.spec().pageSize(), JobConfig.encode(job.cells().bounds()),
                (double) job.estimatedEntities() / job.cells().cells(), options.getFaults(),
                options.getFailAfterCommits(), options.getFailures(), job.planned(), UUID.randomUUID().toString());
        Pipeline pipeline = Pipeline.create(options);
        PCollection<Long> applied = pipeline
                .apply("key ranges of " + request.spec().kind(), Create.of(ranges).withCoder(KeyRangeCoder.of()))
                .apply("page mapper " + request.spec().mapper().template(), ParDo.of(FlinkLocal.onFlink(options)
                        ? new FlinkRangeFn(config) : new KeyRangeFn(config)));
        if (!options.getWaitUntilFinish()) {
            // nobody waits for the pipeline (a Flex Template): its last step records the job's end, once every range
            // is done. A launcher that waits records it itself (below) and spares the runner that step's global
            // shuffle, which a runner deploys at its full parallelism: on a 64-slot Flink mini-cluster, 8 of the
            // pipeline's 11 groups of 64 tasks, and a quarter of its CPU
            applied.apply("entities applied", Sum.longsGlobally())
                    .apply("record the job's end", ParDo.of(new FinishJobFn(config, System.currentTimeMillis())));
        }
        long checkpointsBefore = BeamKeyRangeTracker.CHECKPOINTS.get();
        long splitsBefore = BeamKeyRangeTracker.SPLITS.get();
        String failure = null;
        boolean cancelled = false;
        AtomicReference<PipelineResult> running = new AtomicReference<>();
        String jobId = request.spec().jobId();
        try (CtrlC ctrlC = options.getWaitUntilFinish() ? CtrlC.onFirst(() -> cancel(jobId, running, err)) : null) {
            PipelineResult result = pipeline.run();
            running.set(result);
            if (!options.getWaitUntilFinish()) {
                job.detach();
                out.println("Job " + jobId + ": launched on " + options.getRunner().getSimpleName()
                        + " (" + result.getState() + "); follow it with 'keyranger jobs' or the app's Jobs list.");
                return 0;
            }
            if (RangeRun.CANCELLED.get()) { // Ctrl-C while the pipeline was being launched
                cancelPipeline(result);
            }
            cancelled = result.waitUntilFinish() == PipelineResult.State.CANCELLED; // also gcloud's cancel
        } catch (RuntimeException e) {
            failure = rootMessage(e);
        }
        if (RangeRun.CANCELLED.get()) { // the DoFns stopped with a CancellationException: not a failure
            cancelled = true;
            failure = null;
            awaitCommitsUnderWay();
        }
        long wallMillis = (System.nanoTime() - started) / 1_000_000;
        JobStatus status;
        try {
            status = job.finish(wallMillis, config.parts(), cancelled); // joins an export's parts
        } catch (KeyRangerException e) { // an export's parts that could not be joined: the job is not done
            failure = failure == null ? e.getMessage() : failure + "; " + e.getMessage();
            status = JobStatus.FAILED;
        }
        long recorded = System.nanoTime(); // the job's end, just recorded (a pipeline that records it is not waited for)
        Map<String, Long> totals = job.totals();
        out.printf("Job %s: %s over %s %s in %.1f s on %s: %s; %d cells, %d ranges to start, %d checkpoints, "
                        + "%d dynamic splits, %d DoFn set-ups, %.1f s in processElement over all threads%s%n",
                jobId, request.spec().mapper().template(),
                request.spec().kind(), status.name().toLowerCase(), wallMillis / 1000.0,
                options.getRunner().getSimpleName(), totals, job.cells().cells(), ranges.size(),
                BeamKeyRangeTracker.CHECKPOINTS.get() - checkpointsBefore,
                BeamKeyRangeTracker.SPLITS.get() - splitsBefore, RangeRun.SETUPS.get(),
                RangeRun.PROCESS_NANOS.get() / 1e9,
                failure == null ? "" : "; the pipeline failed: " + failure
                        + " (rerun with the same --jobId to finish it exactly once)");
        if (RangeRun.FIRST_PROCESS.get() != 0) { // a runner in this JVM (Direct, Flink's local mini-cluster)
            ProcessCpu cpuEnded = ProcessCpu.now();
            ProcessCpu.Spent spent = cpuEnded.since(cpuStarted);
            out.printf("Where the time went, from the start: job opened and planned at %.1f s, first DoFn set up at "
                            + "%.1f s, first range begun at %.1f s, last range ended at %.1f s, pipeline ended at %.1f "
                            + "s, job's end recorded at %.1f s; this run's CPU %.1f s (%sits JVM's %.1f s)%n",
                    seconds(planned - started), seconds(RangeRun.FIRST_SETUP.get() - started),
                    seconds(RangeRun.FIRST_PROCESS.get() - started),
                    seconds(RangeRun.LAST_PROCESS_END.get() - started), wallMillis / 1000.0,
                    seconds(recorded - started), seconds(spent.totalNanos()),
                    spent.split().isEmpty() ? "" : spent.split() + "; ", seconds(cpuEnded.totalNanos()));
        }
        out.flush();
        if (failure != null) {
            err.println("keyranger-beam: the pipeline failed: " + failure);
        }
        if (status == JobStatus.CANCELLED) {
            err.println("keyranger-beam: job " + jobId + " was cancelled; what it committed stays. Resume it with: "
                    + "keyranger run --resume " + jobId + " (or launch this pipeline again with --jobId=" + jobId
                    + ").");
            return CANCELLED;
        }
        long notWritten = JobOutcome.notWritten(totals);
        if (status == JobStatus.DONE && notWritten > 0) { // as the command line's run says it
            err.println("keyranger-beam: " + JobOutcome.notWrittenSentence(notWritten) + " (its totals above "
                    + "count them by reason; 'keyranger run --resume " + request.spec().jobId() + "' names them); "
                    + "everything else is done.");
            return NOT_ALL_WRITTEN;
        }
        long leftAlone = JobOutcome.leftAlone(totals);
        if (status == JobStatus.DONE && leftAlone > 0) { // as the command line's restore and revert say it
            err.printf("keyranger-beam: %,d entit%s changed after what the job restores kept %s later values (its "
                    + "'skipped' totals above count them by reason); everything else is done.%n", leftAlone,
                    leftAlone == 1 ? "y" : "ies", leftAlone == 1 ? "its" : "their");
            return LEFT_ALONE;
        }
        return status == JobStatus.DONE ? 0 : 1;
    }

    private static int runDatastoreIo(KeyRangerOptions options, BeamRequest request, PrintStream out) {
        long started = System.nanoTime();
        Pipeline pipeline = Pipeline.create(options);
        ConnectionSpec conn = request.connection();
        DatastoreIoPeer.build(pipeline, conn.projectId(), conn.databaseId(), conn.emulatorHost(), conn.namespace(),
                request.spec().kind(), request.spec().mapper(), options.getNumQuerySplits());
        pipeline.run().waitUntilFinish();
        out.printf("DatastoreIO: incremented %s of %s in %.1f s on %s%n",
                request.spec().mapper().json().get("property").asText(), request.spec().kind(),
                (System.nanoTime() - started) / 1e9, options.getRunner().getSimpleName());
        return 0;
    }

    /**
     * The first Ctrl-C: this JVM's page loops stop before their next call, the commits under way end (a while), then
     * the pipeline is cancelled where its runner can.
     */
    private static void cancel(String jobId, AtomicReference<PipelineResult> running, PrintStream err) {
        err.println();
        err.println("keyranger-beam: Ctrl-C: cancelling job " + jobId + ": no range or page starts now; the commits "
                + "under way end. Ctrl-C again quits at once.");
        err.flush();
        RangeRun.CANCELLED.set(true);
        awaitCommitsUnderWay();
        PipelineResult result = running.get();
        if (result != null) {
            cancelPipeline(result);
        }
    }

    private static void awaitCommitsUnderWay() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(COMMITS_UNDER_WAY_MILLIS);
        while (RangeRun.PROCESSING.get() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void cancelPipeline(PipelineResult result) {
        try {
            if (!result.getState().isTerminal()) {
                result.cancel();
            }
        } catch (IOException | UnsupportedOperationException | IllegalStateException e) {
            // a runner that cannot cancel: its page loops stop anyway, and the pipeline ends
        }
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    /** Production needs Application Default Credentials here (the launcher); Dataflow's workers use their own. */
    static void checkCredentials() {
        try {
            GoogleCredentials.getApplicationDefault();
        } catch (IOException e) {
            throw new KeyRangerException("No credentials: run 'gcloud auth application-default login', or set "
                    + "GOOGLE_APPLICATION_CREDENTIALS to a service-account key file. On Dataflow the launcher and the "
                    + "workers use their service accounts.");
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
