package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.Value;
import com.google.common.hash.Hashing;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.EntityJson;
import io.keyranger.undo.Reverting;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.function.LongConsumer;

/**
 * An export's selection against live data, in pages of keys: each page of the export's entities is one lookup of
 * their keys, and each entity is the same as live, changed since, or removed since. A second pass reads the live
 * kind's keys (or, with a query, its matching entities) for those added since. It writes nothing to the database;
 * the key lists it can write are what {@code restore --keys} reads.
 */
public final class ExportDiff {
    /** Examples kept of each outcome. */
    static final int EXAMPLES = 5;

    private final Datastore datastore;
    private final ManagedImport input;
    private int pageSize = 500;
    private int examples = EXAMPLES;
    private Path keysFolder;

    /** Compares {@code input}'s selection with {@code datastore}. */
    ExportDiff(Datastore datastore, ManagedImport input) {
        this.datastore = datastore;
        this.input = input;
    }

    /**
     * Compares the entities of {@code namespace} and {@code kind} in {@code export}, narrowed by {@code select} and
     * {@code keys} (either may be null), with the database.
     */
    public static ExportDiff of(Datastore datastore, io.keyranger.managed.ManagedExport export, String namespace,
                                String kind, io.keyranger.query.ClientQuery select, java.util.Set<Key> keys) {
        String database = datastore.getOptions().getDatabaseId();
        return new ExportDiff(datastore, new ManagedImport(export, datastore.getOptions().getProjectId(),
                database == null ? "" : database, namespace, kind, select, keys));
    }

    /** Keys per lookup (at most 1,000, Datastore's limit on one lookup). */
    public ExportDiff pageSize(int value) {
        this.pageSize = Math.max(1, Math.min(1000, value));
        return this;
    }

    /** How many examples of each outcome to keep (default {@value #EXAMPLES}). */
    public ExportDiff examples(int value) {
        this.examples = Math.max(0, value);
        return this;
    }

    /** Writes {@code added.keys}, {@code removed.keys} and {@code changed.keys} in this folder. */
    public ExportDiff writeKeys(Path folder) {
        this.keysFolder = folder;
        return this;
    }

    /**
     * One entity that differs.
     *
     * @param key    its key
     * @param before as the export holds it, or null (added since)
     * @param now    as it lives, or null (removed since)
     * @param what   what differs, in words
     */
    public record Example(Key key, Entity before, Entity now, String what) {
    }

    /**
     * What the comparison found.
     *
     * @param compared  the export's entities compared (those its selection takes)
     * @param same      equal to live
     * @param changed   changed since the export
     * @param removed   removed since
     * @param added     added since (live, not in the export); -1 when that pass did not run
     * @param examples  the first few of changed, removed and added, in that order of kinds
     * @param lookups   lookups of live entities (one a page)
     * @param cancelled whether it stopped early (the counts cover what was compared)
     */
    public record Result(long compared, long same, long changed, long removed, long added, List<Example> examples,
                         long lookups, boolean cancelled) {
        public Result {
            examples = List.copyOf(examples);
        }
    }

    /** Progress: entities compared so far, and how far the pass for added entities is. */
    public interface Progress {
        void compared(long entities);
    }

    /** Compares; {@code added} says whether to look for entities added since. */
    public Result run(boolean added, Progress progress, Cancellation cancellation) throws IOException {
        long[] counts = new long[3]; // same, changed, removed
        long compared = 0;
        long lookups = 0;
        List<Example> changedEx = new ArrayList<>();
        List<Example> removedEx = new ArrayList<>();
        KeyWriter changedKeys = KeyWriter.in(keysFolder, "changed.keys");
        KeyWriter removedKeys = KeyWriter.in(keysFolder, "removed.keys");
        long[] hashes = new long[1024];
        int hashCount = 0;
        try (changedKeys; removedKeys; ImportInput.Entries entries = input.open(false)) {
            List<Entity> page = new ArrayList<>(pageSize);
            boolean more = true;
            while (more && !cancellation.isCancelled()) {
                ImportInput.Entry entry = entries.next(0);
                more = entry != null;
                if (more && entry.entity() != null) {
                    page.add(entry.entity());
                    if (hashCount == hashes.length) {
                        hashes = Arrays.copyOf(hashes, hashes.length * 2);
                    }
                    hashes[hashCount++] = hash(entry.entity().getKey());
                }
                if (page.size() >= pageSize || !more && !page.isEmpty()) {
                    List<Entity> live = datastore.fetch(page.stream().map(Entity::getKey).toArray(Key[]::new));
                    lookups++;
                    for (int i = 0; i < page.size(); i++) {
                        Entity before = page.get(i);
                        Entity now = live.get(i);
                        if (now == null) {
                            counts[2]++;
                            removedKeys.write(before.getKey());
                            keep(removedEx, new Example(before.getKey(), before, null, "removed since the export"));
                        } else if (Reverting.same(before, now)) {
                            counts[0]++;
                        } else {
                            counts[1]++;
                            changedKeys.write(before.getKey());
                            keep(changedEx, new Example(before.getKey(), before, now,
                                    RestoreMode.differences(before, now)));
                        }
                    }
                    compared += page.size();
                    page.clear();
                    progress.compared(compared);
                }
            }
        }
        List<Example> examples = new ArrayList<>(changedEx);
        examples.addAll(removedEx);
        long addedCount = -1;
        if (added && !cancellation.isCancelled()) {
            long[] sorted = Arrays.copyOf(hashes, hashCount);
            Arrays.sort(sorted);
            List<Example> addedEx = new ArrayList<>();
            addedCount = added(sorted, addedEx, cancellation);
            examples.addAll(addedEx);
        }
        return new Result(compared, counts[0], counts[1], counts[2], addedCount, examples, lookups,
                cancellation.isCancelled());
    }

    /** Live entities of the selection whose keys the export lacks: keys only, unless a query must see entities. */
    private long added(long[] exportKeys, List<Example> examples, Cancellation cancellation) throws IOException {
        long count = 0;
        try (KeyWriter addedKeys = KeyWriter.in(keysFolder, "added.keys")) {
            if (input.keys() != null) {
                List<Key> asked = input.keys().stream().filter(k -> Arrays.binarySearch(exportKeys, hash(k)) < 0)
                        .toList();
                for (int from = 0; from < asked.size(); from += pageSize) {
                    for (Entity now : datastore.fetch(asked.subList(from, Math.min(asked.size(), from + pageSize))
                            .toArray(new Key[0]))) {
                        if (now != null) {
                            count++;
                            addedKeys.write(now.getKey());
                            keep(examples, new Example(now.getKey(), null, now, "added since the export"));
                        }
                    }
                }
                return count;
            }
            var results = input.select() == null
                    ? datastore.run(Query.newKeyQueryBuilder().setNamespace(input.namespace()).setKind(input.kind())
                    .build())
                    : datastore.run(Query.newEntityQueryBuilder().setNamespace(input.namespace())
                    .setKind(input.kind()).build());
            while (results.hasNext() && !cancellation.isCancelled()) {
                Object next = results.next();
                Key key = next instanceof Entity e ? e.getKey() : (Key) next;
                if (next instanceof Entity e && !input.select().matches(e)) {
                    continue;
                }
                if (Arrays.binarySearch(exportKeys, hash(key)) < 0) {
                    count++;
                    addedKeys.write(key);
                    keep(examples, new Example(key, null, next instanceof Entity e ? e : null,
                            "added since the export"));
                }
            }
        }
        List<Key> unread = examples.stream().filter(e -> e.now() == null).map(Example::key).toList();
        if (!unread.isEmpty()) { // a keys-only pass: read its few examples whole, in one lookup
            List<Entity> read = datastore.fetch(unread.toArray(new Key[0]));
            examples.replaceAll(e -> e.now() != null ? e : new Example(e.key(), null,
                    read.get(unread.indexOf(e.key())), e.what()));
        }
        return count;
    }

    /**
     * One entity's properties side by side: name, as exported, as live, and whether they differ (every property of
     * either, sorted by name; a value absent on one side is "(missing)").
     */
    public record Row(String property, String exported, String live, boolean differs) {
    }

    public static List<Row> sideBySide(Entity exported, Entity live) {
        TreeSet<String> names = new TreeSet<>();
        if (exported != null) {
            names.addAll(exported.getNames());
        }
        if (live != null) {
            names.addAll(live.getNames());
        }
        List<Row> rows = new ArrayList<>();
        for (String name : names) {
            Value<?> a = exported != null && exported.contains(name) ? exported.getValue(name) : null;
            Value<?> b = live != null && live.contains(name) ? live.getValue(name) : null;
            rows.add(new Row(name, show(a), show(b), a == null ? b != null : !a.equals(b)));
        }
        return rows;
    }

    private static String show(Value<?> value) {
        return value == null ? "(missing)" : EntityJson.cell(value) + (value.excludeFromIndexes() ? " (unindexed)" : "");
    }

    private void keep(List<Example> kept, Example example) {
        if (kept.size() < examples) {
            kept.add(example);
        }
    }

    /** A key's 64-bit hash: the export's keys are held as these (8 bytes a key), so a large export fits in memory. */
    static long hash(Key key) {
        return Hashing.murmur3_128().hashString(io.keyranger.query.Gql.keyLiteral(key), StandardCharsets.UTF_8)
                .asLong();
    }

    /** A key list being written, or nothing when no folder was given. */
    private record KeyWriter(java.io.BufferedWriter out) implements java.io.Closeable {
        static KeyWriter in(Path folder, String name) throws IOException {
            return new KeyWriter(folder == null ? null : java.nio.file.Files.newBufferedWriter(folder.resolve(name)));
        }

        void write(Key key) throws IOException {
            if (out != null) {
                out.write(io.keyranger.query.Gql.keyLiteral(key));
                out.newLine();
            }
        }

        @Override
        public void close() throws IOException {
            if (out != null) {
                out.close();
            }
        }
    }
}
