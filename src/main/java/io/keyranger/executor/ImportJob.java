package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.cells.CommitHook;
import io.keyranger.executor.job.RetryPolicy;
import io.keyranger.executor.job.WriteSafety;
import io.keyranger.mapper.MapResult;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.mapper.Mappers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Upserts the entities of an export file of one kind. Each chunk commits with a checkpoint (the last line
 * imported) and the job's counter, so a resumed import with the same id starts after the last committed line; the
 * checkpoint keeps what the input was ({@link ImportIdentity}), and a run under its id on other input is refused.
 * Entities of other kinds in the file are skipped and counted. The checkpoint is the import's fence
 * ({@link JobLease}): one runner at a time, and a runner that was taken over commits nothing more.
 */
public final class ImportJob {
    static final String CHECKPOINT_KIND = BookkeepingKinds.PREFIX + "Import";
    /** The counter of an export's entities a restore passed over: of other kinds or namespaces, or not selected. */
    public static final String NOT_SELECTED = "in the export, not selected";
    /** The import template's format of a managed export ({@code "format": "managed"}). */
    public static final String MANAGED = "managed";
    /** The import template's parameter of a GQL query that selects what a restore brings back. */
    public static final String SELECT = "select";
    /** The import template's parameter of a file of keys, the only ones a restore brings back. */
    public static final String KEYS = "keys";
    /** The import template's parameter of what to do with an entity that exists live ({@link RestoreMode}). */
    public static final String MODE = "mode";
    /** The import template's parameter that skips bad lines ({@code run --skip-bad-lines}). */
    public static final String SKIP_BAD_LINES = "skipBadLines";

    private final Datastore datastore;
    private final ServerLimits limits;
    private final RetryPolicy retries;
    private boolean readOnly;
    private JobLease.Mode mode = JobLease.Mode.RESUME;
    private java.time.Duration leaseDuration = JobLease.DEFAULT_DURATION;
    private java.util.function.Consumer<String> waiting = message -> { };
    private CommitHook hook = CommitHook.NONE;
    private java.util.function.BooleanSupplier cancelled = () -> false;
    private boolean skipBadLines;
    private boolean undo = true;
    private RestoreMode restoreMode = RestoreMode.OVERWRITE;
    private volatile ImportCommitter committer;

    public ImportJob(Datastore datastore, ServerLimits limits, RetryPolicy retries) {
        this.datastore = datastore;
        this.limits = limits;
        this.retries = retries;
    }

    /** On a read-only connection an import is refused before it reads its file or writes anything. */
    public ImportJob readOnly(boolean value) {
        this.readOnly = value;
        return this;
    }

    /**
     * What to do when another runner holds the import: refuse ({@link JobLease.Mode#RESUME}, the default), wait for
     * its lease to run out, or take it at once; {@code waiting} hears what a take-over waits for.
     */
    public ImportJob takeOver(JobLease.Mode value, java.util.function.Consumer<String> waitingFor) {
        this.mode = value == JobLease.Mode.CREATE ? JobLease.Mode.RESUME : value;
        this.waiting = waitingFor;
        return this;
    }

    /** Whether lines that are not exported entities are skipped and counted, rather than refusing the file. */
    public ImportJob skipBadLines(boolean value) {
        this.skipBadLines = value;
        return this;
    }

    /** Whether each commit keeps an undo record of every entity it writes (created or overwritten), as jobs do. */
    public ImportJob undo(boolean value) {
        this.undo = value;
        return this;
    }

    /** What to do with an entity that exists live: overwrite it (an import's way), or decide as a restore does. */
    public ImportJob restoreMode(RestoreMode value) {
        this.restoreMode = value;
        return this;
    }

    /** The first entities a restore left alone because they changed since the export, with what differs. */
    List<MapResult.Problem> changedExamples() {
        ImportCommitter c = committer;
        return c == null ? List.of() : c.examples();
    }

    public ImportJob leaseDuration(java.time.Duration value) {
        this.leaseDuration = value;
        return this;
    }

    ImportJob commitHook(CommitHook value) {
        this.hook = value;
        return this;
    }

    /**
     * How an import ended.
     *
     * @param jobId   the job
     * @param totals  the persisted counter totals: read, written, skipped
     * @param cancelled whether it stopped before the end of its file (a re-run with the same id resumes it)
     */
    public record Result(String jobId, Map<String, Long> totals, boolean cancelled) {
        public Result(String jobId, Map<String, Long> totals) {
            this(jobId, totals, false);
        }

        public long total(String field) {
            return totals.getOrDefault(field, 0L);
        }
    }

    public Result run(String jobId, Path file, String kind, LongConsumer progress) {
        ImportInput input = importFile(file);
        ImportFile.Check check = check(input);
        return runTaken(take(jobId, kind, input.identity(check)), jobId, input, kind, progress);
    }

    /**
     * Reads the whole file before anything is written: a line that is not an exported entity is refused by its number
     * (a {@link KeyRangerException}), unless bad lines are skipped, when they are counted with a few examples.
     */
    ImportFile.Check check(ImportInput input) {
        return input.check(skipBadLines, cancelled);
    }

    /** The import's persisted totals (read, written, skipped and why), whatever became of its run. */
    Map<String, Long> totals(String jobId) {
        return retries.call(() -> ShardedCounter.open(datastore, "job:" + jobId, 4).totals());
    }

    /**
     * The input an import spec names: its {@code file} as JSON lines, or (with {@code "format": "managed"}) a managed
     * export's entities of {@code namespace} and {@code kind}, narrowed by its {@code select} query and {@code keys}
     * file. Bad parameters are refused here, before anything is read.
     */
    ImportInput input(io.keyranger.mapper.MapperSpec mapper, String namespace, String kind,
                      io.keyranger.keys.KeyOrder order) {
        com.fasterxml.jackson.databind.JsonNode json = mapper.json();
        Path file = Path.of(json.path("file").asText());
        if (!MANAGED.equals(json.path("format").asText("jsonl"))) {
            return importFile(file);
        }
        return ManagedImport.of(datastore, order, io.keyranger.managed.ManagedExport.open(file), namespace, kind,
                json.hasNonNull(SELECT) ? json.get(SELECT).asText() : null,
                json.hasNonNull(KEYS) ? Path.of(json.get(KEYS).asText()) : null);
    }

    ImportFile importFile(Path file) {
        String database = datastore.getOptions().getDatabaseId();
        return new ImportFile(file, datastore.getOptions().getProjectId(), database == null ? "" : database);
    }

    /**
     * Checks that the connection may write, and takes the import (refused while another runner holds it). A new
     * import keeps {@code input}, with its kind and mode, on its checkpoint; a run under the id of one that kept
     * another is refused before anything is written (its checkpoint counts the entries of that other input).
     */
    JobLease take(String jobId, String kind, ImportIdentity input) {
        WriteSafety.refuseOnReadOnly(readOnly, Mappers.template("import"), kind);
        Key checkpoint = checkpointKey(jobId);
        JobLease lease = lease(datastore, jobId, leaseDuration);
        ImportIdentity identity = input.selecting("kind " + kind + ", mode " + restoreMode.id());
        lease.take(mode, fence -> {
            if (fence != null && fence.contains(JobLease.REVERTED_BY)) {
                throw io.keyranger.executor.lease.JobFencedException.notResumable("Import " + jobId,
                        fence.getString(JobLease.REVERTED_BY), "Start a new import under another id.");
            }
            identity.requireSameAs(fence, "Import " + jobId);
            return true;
        }, b -> b, identity.stamp(Entity.newBuilder(checkpoint).set("line", 0L).set("kind", kind)
                .set("undo", undo).set("createdAt", com.google.cloud.Timestamp.now())), waiting);
        return lease;
    }

    /** Runs an import this runner has taken, renewing its lease meanwhile; stops between chunks when cancelled. */
    Result runTaken(JobLease lease, String jobId, ImportInput input, String kind, LongConsumer progress) {
        try (java.io.Closeable renewals = lease.renewEvery("keyranger-import-lease")) {
            return run(jobId, input, kind, progress, checkpointKey(jobId), lease);
        } catch (IOException e) {
            throw new KeyRangerException("Cannot read " + input.describe() + ": " + e.getMessage(), e);
        } finally {
            lease.ended();
        }
    }

    /** Stops the import between chunks once this says so; what was committed stays, and a re-run resumes it. */
    public ImportJob cancelWhen(java.util.function.BooleanSupplier value) {
        this.cancelled = value;
        return this;
    }

    /** The key of import {@code jobId}'s checkpoint: its fence, and the parent of its undo records. */
    /** The lease of import {@code jobId}, on its checkpoint (its fence), for whoever runs or reverts it. */
    static JobLease lease(Datastore datastore, String jobId, java.time.Duration duration) {
        return JobLease.of(datastore, checkpointKey(datastore, jobId), "import:" + jobId, "Import " + jobId, duration);
    }

    static Key checkpointKey(Datastore datastore, String jobId) {
        return datastore.newKeyFactory().setNamespace("").setKind(CHECKPOINT_KIND).newKey(jobId);
    }

    private Key checkpointKey(String jobId) {
        return checkpointKey(datastore, jobId);
    }

    private Result run(String jobId, ImportInput input, String kind, LongConsumer progress, Key checkpoint,
                       JobLease lease) throws IOException {
        ShardedCounter counter = retries.call(() -> ShardedCounter.open(datastore, "job:" + jobId, 4));
        Entity existing = retries.call(() -> datastore.get(checkpoint));
        long done = existing == null ? 0 : existing.getLong("line");
        ImportCommitter commits = new ImportCommitter(datastore, retries, lease, checkpoint, counter, restoreMode,
                input::placed, undo, hook, chunkSize(), limits, done);
        committer = commits;
        try (ImportInput.Entries entries = input.open(skipBadLines)) {
            long line = 0;
            while (line < done && entries.skip()) {
                line++; // committed already
            }
            List<ImportCommitter.Positioned> batch = new ArrayList<>();
            java.util.ArrayDeque<Screening> ahead = new java.util.ArrayDeque<>();
            int entities = 0;
            ImportInput.Entry entry;
            try (LookupPool screens = new LookupPool(SCREENS_AHEAD, "keyranger-import-screen")) {
                while (!cancelled.getAsBoolean() && (entry = entries.next(line + 1)) != null) {
                    line++;
                    batch.add(new ImportCommitter.Positioned(line, entry));
                    if (entry.entity() != null && ++entities >= ImportCommitter.SCREENED || batch.size() >= 10_000) {
                        List<ImportCommitter.Positioned> full = batch;
                        ahead.add(new Screening(full, screens.submit(() -> commits.screen(full, kind))));
                        batch = new ArrayList<>();
                        entities = 0;
                        while (ahead.size() >= SCREENS_AHEAD) {
                            Screening next = ahead.poll();
                            commits.feed(next.batch(), LookupPool.await(next.live()), kind, progress);
                        }
                    }
                }
                List<ImportCommitter.Positioned> last = batch;
                ahead.add(new Screening(last, screens.submit(() -> commits.screen(last, kind))));
                while (!ahead.isEmpty()) {
                    Screening next = ahead.poll();
                    commits.feed(next.batch(), LookupPool.await(next.live()), kind, progress);
                }
            }
            commits.finish(line, progress);
            commits.release();
            if (cancelled.getAsBoolean()) {
                return new Result(jobId, retries.call(counter::totals), true);
            }
        }
        return new Result(jobId, retries.call(counter::totals));
    }

    /** Batches whose screening lookups run ahead of the commits (a restore's reads overlap its commits). */
    private static final int SCREENS_AHEAD = 4;

    /** A batch of entries and its screening lookup, in flight. */
    private record Screening(List<ImportCommitter.Positioned> batch,
                             java.util.concurrent.Future<java.util.Map<Key, Entity>> live) {
    }

    private int chunkSize() {
        int bookkeeping = 2; // the import's checkpoint and a counter shard ride in every commit
        return limits.maxEntityGroups() > 0 ? limits.maxEntityGroups() - bookkeeping // undo records: the checkpoint's
                : (limits.maxMutations() - bookkeeping) / (undo ? 2 : 1);
    }
}
