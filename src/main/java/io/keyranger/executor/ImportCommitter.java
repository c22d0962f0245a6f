package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.EntitySize;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.cells.Chunker;
import io.keyranger.executor.cells.CommitBytes;
import io.keyranger.executor.cells.CommitHook;
import io.keyranger.executor.cells.UndoKeeper;
import io.keyranger.executor.job.JobReport;
import io.keyranger.executor.job.RetryPolicy;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.mapper.MapResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The commits of one import run: each chunk with the import's checkpoint (the entries it covers), its counter and its
 * undo records, in one transaction fenced by the import's lease. A checkpoint at or past a chunk's last entry means an
 * earlier attempt applied it, so a retried or resumed chunk applies once. A restore reads the chunk's keys in the same
 * transaction and lets its {@link RestoreMode} decide what to write. A chunk is sized by bytes as well as by count
 * ({@link Chunker#bySize}): one whose writes, measured in its transaction, are over the server's request limit commits
 * in pieces, each with the checkpoint of its last entity; an entity that no commit can hold is left unchanged.
 */
final class ImportCommitter {
    private static final int EXAMPLES = 5;
    /** Entities a restore screens with one lookup outside any transaction (Datastore's most keys in a lookup). */
    static final int SCREENED = 1_000;
    /** Entries passed over before their checkpoint is committed even with nothing to write. */
    private static final int CARRY_LIMIT = 20_000;

    private final Datastore datastore;
    private final RetryPolicy retries;
    private final JobLease lease;
    private final Key checkpoint;
    private final ShardedCounter counter;
    private final RestoreMode mode;
    private final java.util.function.UnaryOperator<Entity> placing;
    private final boolean undo;
    private final CommitHook hook;
    private final List<MapResult.Problem> examples = new ArrayList<>();
    private final int chunkSize;
    private final ServerLimits limits;
    private final List<Slot> chunk = new ArrayList<>();
    /** The bytes the chunk's writes are estimated at: each entity, and as much again for its undo record. */
    private long chunkBytes;
    private Skips carried = new Skips();
    private long covered;
    private long committed;

    ImportCommitter(Datastore datastore, RetryPolicy retries, JobLease lease, Key checkpoint, ShardedCounter counter,
                    RestoreMode mode, java.util.function.UnaryOperator<Entity> placing, boolean undo, CommitHook hook,
                    int chunkSize, ServerLimits limits, long committed) {
        this.limits = limits;
        this.datastore = datastore;
        this.retries = retries;
        this.lease = lease;
        this.checkpoint = checkpoint;
        this.counter = counter;
        this.mode = mode;
        this.placing = placing;
        this.undo = undo;
        this.hook = hook;
        this.chunkSize = chunkSize;
        this.committed = committed;
        this.covered = committed;
    }

    /** An entry of the input and its place (the checkpoint a commit that covers it writes). */
    record Positioned(long position, ImportInput.Entry entry) {
    }

    /** An entity of a chunk, its place in the input, and the entries passed over since the chunk's entity before. */
    private record Slot(Entity entity, long position, Skips before) {
    }

    /**
     * Takes a batch of entries in order. A restore first screens the batch's entities with one lookup outside any
     * transaction: those already as in the export (or, in a restore that skips them, changed since) need no write,
     * and are only counted, in the next commit; the others are written in chunks, each decided again inside its
     * commit's transaction. So a restore of a mostly intact kind commits little more than its checkpoints.
     */
    void feed(List<Positioned> batch, Map<Key, Entity> live, String kind, java.util.function.LongConsumer progress) {
        for (Positioned p : batch) {
            ImportInput.Entry entry = p.entry();
            if (!entry.selected()) {
                carried.notSelected++;
            } else if (entry.bad()) {
                carried.badLines++;
            } else if (entry.entity() != null && !entry.entity().getKey().getKind().equals(kind)) {
                carried.otherKinds++;
            } else if (entry.entity() != null) {
                MapResult decided = live == null ? null : mode.decide(List.of(entry.entity()), live, placing);
                if (decided == null || !decided.puts().isEmpty()) {
                    long bytes = Math.max(0, EntitySize.bytes(entry.entity())) * (undo ? 2 : 1);
                    if (!chunk.isEmpty() && !Chunker.fits(BOOKKEEPING + chunkBytes + bytes, limits)) {
                        flush(progress); // up to the entry before this one
                    }
                    chunk.add(new Slot(entry.entity(), p.position(), carried));
                    chunkBytes += bytes;
                    carried = new Skips();
                } else {
                    carried.absorb(decided);
                }
            }
            covered = p.position();
            if (chunk.size() >= chunkSize || carried.entries() >= CARRY_LIMIT) {
                flush(progress);
            }
        }
    }

    /** Commits what is left, covering the input up to {@code lastEntry}. */
    void finish(long lastEntry, java.util.function.LongConsumer progress) {
        covered = Math.max(covered, lastEntry);
        if (!chunk.isEmpty() || carried.entries() > 0 || covered > committed) {
            flush(progress);
        }
    }

    private void flush(java.util.function.LongConsumer progress) {
        committed = commit(List.copyOf(chunk), covered, carried);
        chunk.clear();
        chunkBytes = 0;
        carried = new Skips();
        progress.accept(committed);
    }

    /**
     * The live entities of the batch's keys, read in one lookup outside any transaction (a key maps to null when
     * absent); null when this import writes every entity it reads (nothing to screen).
     */
    Map<Key, Entity> screen(List<Positioned> batch, String kind) {
        if (!mode.readsLive()) {
            return null;
        }
        List<Key> keys = batch.stream().map(p -> p.entry().entity()).filter(e -> e != null
                && e.getKey().getKind().equals(kind)).map(Entity::getKey).distinct().toList();
        Map<Key, Entity> live = new HashMap<>();
        if (!keys.isEmpty()) {
            List<Entity> read = retries.call(() -> CommitBytes.lookup(keys, datastore::fetch));
            for (int i = 0; i < keys.size(); i++) {
                live.put(keys.get(i), read.get(i));
            }
        }
        return live;
    }

    /** The entries of a chunk that were not imported: of another kind, not entities, or not selected. */
    static final class Skips {
        long otherKinds;
        long badLines;
        long notSelected;
        /** Entities screened out: what the restore decided without writing (counters, skips, problems). */
        final Map<String, Long> decided = new HashMap<>();
        long decidedEntities;
        long decidedSkipped;
        final List<MapResult.Problem> problems = new ArrayList<>();

        long total() {
            return otherKinds + badLines;
        }

        long entries() {
            return otherKinds + badLines + notSelected + decidedEntities;
        }

        /** The entries passed over before each of {@code slots} and after the last. */
        static Skips of(List<Slot> slots, Skips after) {
            Skips all = new Skips();
            slots.forEach(s -> all.add(s.before()));
            all.add(after);
            return all;
        }

        private void add(Skips other) {
            otherKinds += other.otherKinds;
            badLines += other.badLines;
            notSelected += other.notSelected;
            other.decided.forEach((name, n) -> decided.merge(name, n, Long::sum));
            decidedEntities += other.decidedEntities;
            decidedSkipped += other.decidedSkipped;
            problems.addAll(other.problems);
        }

        void absorb(MapResult one) {
            one.counters().forEach((name, n) -> decided.merge(name, n, Long::sum));
            decidedEntities++;
            decidedSkipped += one.skipped();
            problems.addAll(one.problems());
        }
    }

    /** The first entities this run left alone because they changed since the export, with what differs. */
    List<MapResult.Problem> examples() {
        return List.copyOf(examples);
    }

    /**
     * Commits a chunk with its checkpoint, and the entries passed over after its last entity; returns the checkpoint
     * after it. A chunk whose writes are too many bytes for one commit commits in pieces cut by what each entity's
     * writes came to: each piece but the last with the checkpoint of its last entity, so a run stopped between them
     * resumes after it, and each with the entries passed over before its entities, counted once.
     */
    private long commit(List<Slot> slots, long lastEntry, Skips after) {
        List<Entity> entities = slots.stream().map(Slot::entity).toList();
        Skips skipped = Skips.of(slots, after);
        try {
            return Retries.call(retries, Retries.Observer.NONE, () -> commitOnce(entities, lastEntry, skipped));
        } catch (CommitBytes.TooLarge big) {
            List<List<Slot>> pieces = Chunker.bySize(slots, s -> big.bytes().getOrDefault(s.entity().getKey(), 0L),
                    big.fixed(), limits);
            if (pieces.size() < 2) { // sizes changed since they were measured: halve, so each try makes progress
                pieces = List.of(slots.subList(0, slots.size() / 2), slots.subList(slots.size() / 2, slots.size()));
            }
            long done = committed;
            for (int i = 0; i < pieces.size(); i++) {
                List<Slot> piece = pieces.get(i);
                boolean last = i == pieces.size() - 1;
                done = commit(piece, last ? lastEntry : piece.get(piece.size() - 1).position(),
                        last ? after : new Skips());
            }
            return done;
        }
    }

    /** What a commit writes besides the chunk's entities and records: the checkpoint and a counter shard. */
    private static final long BOOKKEEPING = CommitBytes.bookkeeping(java.util.Arrays.asList(null, null));

    /** Ends the run: the lease is released, so another runner may resume the import at once. */
    void release() {
        retries.call(() -> {
            Transaction tx = datastore.newTransaction();
            try {
                lease.check(tx.get(checkpoint));
                tx.put(lease.released());
                tx.commit();
                return null;
            } finally {
                if (tx.isActive()) {
                    Retries.rollbackQuietly(tx);
                }
            }
        });
    }

    /** The key of a target's undo record in this import: under its checkpoint, whichever commit writes it. */
    private Key recordOf(Key target) {
        return io.keyranger.undo.UndoRecords.key(checkpoint, checkpoint.getName(), target);
    }

    private long commitOnce(List<Entity> chunk, long lastEntry, Skips skipped) {
        Transaction tx = datastore.newTransaction();
        try {
            Entity stored = tx.get(checkpoint);
            lease.check(stored);
            long storedLine = stored == null ? 0 : stored.getLong("line");
            if (storedLine >= lastEntry) {
                return storedLine;
            }
            Map<Key, Entity> live = new HashMap<>();
            if (mode.readsLive() && !chunk.isEmpty()) { // one lookup of the chunk's keys (and records), in the transaction
                java.util.Set<Key> keys = new java.util.LinkedHashSet<>();
                chunk.forEach(e -> keys.add(e.getKey()));
                if (undo) {
                    chunk.forEach(e -> keys.add(recordOf(e.getKey())));
                }
                Key[] read = keys.toArray(new Key[0]);
                List<Entity> found = CommitBytes.fetch(tx, List.of(read), chunk.size());
                for (int i = 0; i < read.length; i++) {
                    live.put(read[i], found.get(i));
                }
            }
            MapResult writes = mode.decide(chunk, live, placing);
            List<Entity> records = List.of();
            if (undo && !writes.puts().isEmpty()) { // each entity as before the import: its record under the checkpoint
                UndoKeeper.Kept kept = UndoKeeper.keep(tx, checkpoint.getName(), writes, live, this::recordOf);
                writes = kept.result();
                records = kept.records();
            }
            MapResult fitting = CommitBytes.sized(writes, records, chunk.stream().map(Entity::getKey).toList(),
                    CommitBytes.bookkeeping(java.util.Arrays.asList(stored, null)), limits, undo);
            if (fitting != writes) {
                writes = fitting;
                records = List.of();
            }
            if (!records.isEmpty()) {
                tx.put(records.toArray(new Entity[0]));
            }
            if (!writes.puts().isEmpty()) {
                tx.put(writes.puts().toArray(new Entity[0]));
            }
            Map<String, Long> counts = new HashMap<>(writes.counters());
            skipped.decided.forEach((name, n) -> counts.merge(name, n, Long::sum));
            counts.putAll(Map.of("read", (long) chunk.size() + skipped.total() + skipped.decidedEntities, "written",
                    (long) writes.puts().size(), "skipped", skipped.total() + writes.skipped() + skipped.decidedSkipped));
            if (skipped.badLines > 0) {
                counts.put(JobReport.SKIPPED_PREFIX + ImportFile.BAD_LINE, skipped.badLines);
            }
            if (skipped.notSelected > 0) {
                counts.put(ImportJob.NOT_SELECTED, skipped.notSelected);
            }
            counter.increment(tx, counts);
            tx.put(Entity.newBuilder(stored).set("line", lastEntry).build());
            hook.beforeCommit("import " + lastEntry);
            tx.commit();
            java.util.stream.Stream.concat(skipped.problems.stream(), writes.problems().stream())
                    .filter(p -> RestoreMode.CHANGED.equals(p.category()))
                    .limit(Math.max(0, EXAMPLES - examples.size())).forEach(examples::add);
            return lastEntry;
        } finally {
            if (tx.isActive()) {
                Retries.rollbackQuietly(tx);
            }
        }
    }
}
