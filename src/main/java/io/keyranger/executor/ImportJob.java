package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.KeyRangerException;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.cells.CommitHook;
import io.keyranger.executor.job.JobReport;
import io.keyranger.executor.job.RetryPolicy;
import io.keyranger.executor.job.WriteSafety;
import io.keyranger.executor.cells.UndoKeeper;
import io.keyranger.mapper.MapResult;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.mapper.Mappers;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Upserts the entities of an export file of one kind. Each chunk commits with a checkpoint (the last line
 * imported) and the job's counter, so a resumed import with the same id starts after the last committed line.
 * Entities of other kinds in the file are skipped and counted. The checkpoint is the import's fence
 * ({@link JobLease}): one runner at a time, and a runner that was taken over commits nothing more.
 */
public final class ImportJob {
    static final String CHECKPOINT_KIND = BookkeepingKinds.PREFIX + "Import";
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
        check(file);
        return runTaken(take(jobId, kind), jobId, file, kind, progress);
    }

    /**
     * Reads the whole file before anything is written: a line that is not an exported entity is refused by its number
     * (a {@link KeyRangerException}), unless bad lines are skipped, when they are counted with a few examples.
     */
    ImportFile.Check check(Path file) {
        return importFile(file).check(skipBadLines, cancelled);
    }

    /** The import's persisted totals (read, written, skipped and why), whatever became of its run. */
    Map<String, Long> totals(String jobId) {
        return retries.call(() -> ShardedCounter.open(datastore, "job:" + jobId, 4).totals());
    }

    private ImportFile importFile(Path file) {
        String database = datastore.getOptions().getDatabaseId();
        return new ImportFile(file, datastore.getOptions().getProjectId(), database == null ? "" : database);
    }

    /** Checks that the connection may write, and takes the import (refused while another runner holds it). */
    JobLease take(String jobId, String kind) {
        WriteSafety.refuseOnReadOnly(readOnly, Mappers.template("import"), kind);
        Key checkpoint = checkpointKey(jobId);
        JobLease lease = JobLease.of(datastore, checkpoint, "import:" + jobId, "Import " + jobId, leaseDuration);
        lease.take(mode, fence -> true, b -> b, Entity.newBuilder(checkpoint).set("line", 0L).set("kind", kind)
                .set("undo", undo).set("createdAt", com.google.cloud.Timestamp.now()), waiting);
        return lease;
    }

    /** Runs an import this runner has taken, renewing its lease meanwhile; stops between chunks when cancelled. */
    Result runTaken(JobLease lease, String jobId, Path file, String kind, LongConsumer progress) {
        try (java.io.Closeable renewals = lease.renewEvery("keyranger-import-lease")) {
            return run(jobId, file, kind, progress, checkpointKey(jobId), lease);
        } catch (IOException e) {
            throw new KeyRangerException("Cannot read the import file " + file + ": " + e.getMessage(), e);
        } finally {
            lease.ended();
        }
    }

    /** Stops the import between chunks once this says so; what was committed stays, and a re-run resumes it. */
    public ImportJob cancelWhen(java.util.function.BooleanSupplier value) {
        this.cancelled = value;
        return this;
    }

    private Key checkpointKey(String jobId) {
        return datastore.newKeyFactory().setNamespace("").setKind(CHECKPOINT_KIND).newKey(jobId);
    }

    private Result run(String jobId, Path file, String kind, LongConsumer progress, Key checkpoint, JobLease lease) {
        ShardedCounter counter = ShardedCounter.open(datastore, "job:" + jobId, 4);
        Entity existing = retries.call(() -> datastore.get(checkpoint));
        long done = existing == null ? 0 : existing.getLong("line");
        ImportFile lines = importFile(file);
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            List<Entity> chunk = new ArrayList<>();
            long line = 0;
            Skips skipped = new Skips();
            String text;
            while ((text = reader.readLine()) != null && !cancelled.getAsBoolean()) {
                line++;
                if (line <= done || text.isBlank()) {
                    continue;
                }
                Entity entity = lines.decode(text, line, skipBadLines);
                if (entity == null) {
                    skipped.badLines++;
                } else if (!entity.getKey().getKind().equals(kind)) {
                    skipped.otherKinds++;
                } else {
                    chunk.add(entity);
                }
                if (chunk.size() >= chunkSize()) {
                    done = commit(lease, checkpoint, counter, chunk, line, skipped);
                    chunk.clear();
                    skipped = new Skips();
                    progress.accept(done);
                }
            }
            if (!chunk.isEmpty() || skipped.total() > 0) {
                commit(lease, checkpoint, counter, chunk, line, skipped);
                progress.accept(line);
            }
            retries.call(() -> {
                release(lease, checkpoint);
                return null;
            });
            if (cancelled.getAsBoolean()) {
                return new Result(jobId, counter.totals(), true);
            }
        } catch (IOException e) {
            throw new KeyRangerException("Cannot read the import file " + file + ": " + e.getMessage(), e);
        }
        return new Result(jobId, counter.totals());
    }

    private void release(JobLease lease, Key checkpoint) {
        Transaction tx = datastore.newTransaction();
        try {
            lease.check(tx.get(checkpoint));
            tx.put(lease.released());
            tx.commit();
        } finally {
            if (tx.isActive()) {
                io.keyranger.datastore.Retries.rollbackQuietly(tx);
            }
        }
    }

    private int chunkSize() {
        int bookkeeping = 2; // the import's checkpoint and a counter shard ride in every commit
        return limits.maxEntityGroups() > 0 ? limits.maxEntityGroups() - bookkeeping // undo records: the checkpoint's
                : (limits.maxMutations() - bookkeeping) / (undo ? 2 : 1);
    }

    /** The lines of a chunk that were not imported: of another kind, or (skipped on request) not entities. */
    private static final class Skips {
        long otherKinds;
        long badLines;

        long total() {
            return otherKinds + badLines;
        }
    }

    /** Commits a chunk with its checkpoint; a checkpoint already at or past the line means it was applied. */
    private long commit(JobLease lease, Key checkpoint, ShardedCounter counter, List<Entity> chunk, long lastLine,
                        Skips skipped) {
        return Retries.call(retries, Retries.Observer.NONE, () -> commitOnce(lease, checkpoint, counter, chunk,
                lastLine, skipped));
    }

    /** One attempt: a checkpoint already at or past the line means an earlier attempt applied it. */
    private long commitOnce(JobLease lease, Key checkpoint, ShardedCounter counter, List<Entity> chunk, long lastLine,
                            Skips skipped) {
        Transaction tx = datastore.newTransaction();
        try {
            Entity stored = tx.get(checkpoint);
            lease.check(stored);
            long storedLine = stored == null ? 0 : stored.getLong("line");
            if (storedLine >= lastLine) {
                return storedLine;
            }
            MapResult writes = new MapResult(chunk, List.of(), 0, Map.of());
            if (undo && !chunk.isEmpty()) { // each entity as it was: created or overwritten, kept under the checkpoint
                UndoKeeper.Kept kept = UndoKeeper.keep(tx, checkpoint.getName(), writes,
                        new java.util.HashMap<>(), key -> checkpoint);
                writes = kept.result();
                tx.put(kept.records().toArray(new Entity[0]));
            }
            if (!writes.puts().isEmpty()) {
                tx.put(writes.puts().toArray(new Entity[0]));
            }
            Map<String, Long> counts = new java.util.HashMap<>(writes.counters());
            counts.putAll(Map.of("read", (long) chunk.size() + skipped.total(), "written", (long) writes.puts().size(),
                    "skipped", skipped.total() + writes.skipped()));
            if (skipped.badLines > 0) {
                counts.put(JobReport.SKIPPED_PREFIX + ImportFile.BAD_LINE, skipped.badLines);
            }
            counter.increment(tx, counts);
            tx.put(Entity.newBuilder(stored).set("line", lastLine).build());
            hook.beforeCommit("import " + lastLine);
            tx.commit();
            return lastLine;
        } finally {
            if (tx.isActive()) {
                io.keyranger.datastore.Retries.rollbackQuietly(tx);
            }
        }
    }
}
