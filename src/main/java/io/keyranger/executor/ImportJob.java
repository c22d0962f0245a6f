package io.keyranger.executor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.KeyRangerException;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.Retries;
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
 * Entities of other kinds in the file are skipped and counted.
 */
public final class ImportJob {
    static final String CHECKPOINT_KIND = BookkeepingKinds.PREFIX + "Import";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Datastore datastore;
    private final ServerLimits limits;
    private final RetryPolicy retries;
    private boolean readOnly;

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
     * How an import ended.
     *
     * @param jobId   the job
     * @param totals  the persisted counter totals: read, written, skipped
     */
    public record Result(String jobId, Map<String, Long> totals) {
        public long total(String field) {
            return totals.getOrDefault(field, 0L);
        }
    }

    public Result run(String jobId, Path file, String kind, LongConsumer progress) {
        if (readOnly) {
            throw new KeyRangerException("The connection is read-only: an import writes to " + kind + ".");
        }
        ShardedCounter counter = ShardedCounter.open(datastore, "job:" + jobId, 4);
        Key checkpoint = datastore.newKeyFactory().setNamespace("").setKind(CHECKPOINT_KIND).newKey(jobId);
        Entity existing = datastore.get(checkpoint);
        long done = existing == null ? 0 : existing.getLong("line");
        String project = datastore.getOptions().getProjectId();
        String database = datastore.getOptions().getDatabaseId() == null ? "" : datastore.getOptions().getDatabaseId();
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            List<Entity> chunk = new ArrayList<>();
            long line = 0;
            long skipped = 0;
            String text;
            while ((text = reader.readLine()) != null) {
                line++;
                if (line <= done || text.isBlank()) {
                    continue;
                }
                Entity entity = decode(text, line, file, project, database);
                if (!entity.getKey().getKind().equals(kind)) {
                    skipped++;
                } else {
                    chunk.add(entity);
                }
                if (chunk.size() >= chunkSize()) {
                    done = commit(checkpoint, counter, chunk, line, skipped);
                    chunk.clear();
                    skipped = 0;
                    progress.accept(done);
                }
            }
            if (!chunk.isEmpty() || skipped > 0) {
                commit(checkpoint, counter, chunk, line, skipped);
                progress.accept(line);
            }
        } catch (IOException e) {
            throw new KeyRangerException("Cannot read the import file " + file + ": " + e.getMessage(), e);
        }
        return new Result(jobId, counter.totals());
    }

    private int chunkSize() {
        int bookkeeping = ServerLimits.BOOKKEEPING_ENTITIES;
        return limits.maxEntityGroups() > 0 ? limits.maxEntityGroups() - bookkeeping
                : limits.maxMutations() - bookkeeping;
    }

    private static Entity decode(String text, long line, Path file, String project, String database) {
        try {
            return EntityCodec.decode(JSON.readTree(text), project, database);
        } catch (IOException | RuntimeException e) {
            throw new KeyRangerException("Line " + line + " of " + file + " is not an exported entity: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    /** Commits a chunk with its checkpoint; a checkpoint already at or past the line means it was applied. */
    private long commit(Key checkpoint, ShardedCounter counter, List<Entity> chunk, long lastLine, long skipped) {
        for (int attempt = 1; ; attempt++) {
            Transaction tx = datastore.newTransaction();
            try {
                Entity stored = tx.get(checkpoint);
                long storedLine = stored == null ? 0 : stored.getLong("line");
                if (storedLine >= lastLine) {
                    return storedLine;
                }
                if (!chunk.isEmpty()) {
                    tx.put(chunk.toArray(new Entity[0]));
                }
                counter.increment(tx, Map.of("read", (long) chunk.size() + skipped, "written", (long) chunk.size(),
                        "skipped", skipped));
                tx.put(Entity.newBuilder(checkpoint).set("line", lastLine).build());
                tx.commit();
                return lastLine;
            } catch (RuntimeException e) {
                if (!Retries.isTransient(e) || attempt >= retries.maxAttempts()) {
                    throw e;
                }
                Retries.sleepBackoff(attempt, retries.baseMillis(), retries.capMillis());
            } finally {
                if (tx.isActive()) {
                    tx.rollback();
                }
            }
        }
    }
}
