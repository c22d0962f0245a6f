package io.keyranger.backup;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.DatabasePlacement;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.Session;
import io.keyranger.executor.cells.CommitBytes;
import io.keyranger.executor.source.ImportInput;
import io.keyranger.executor.source.KeysFile;
import io.keyranger.executor.source.ManagedImport;
import io.keyranger.job.RestoreMode;
import io.keyranger.query.ClientQuery;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A database's kind as the "before" side of a comparison: the connected database as it was at a past moment, or
 * another database (another project, database or namespace), read at one moment where its server keeps versions, else
 * live. Every entity of the kind is read over key ranges planned then, several at once, handed on in the source's key
 * order ({@link OrderedRangeRead}; or, with a list of keys, those keys looked up, in key order), placed in the
 * connected partition ({@link DatabasePlacement}: its keys, and key values into its own partition through indexed
 * values), and tested against the query on the client, as an export's entities are. So an entity is the same when
 * its properties are as a restore from this source would write them.
 *
 * @param source    the session reading the source ({@link Session#asOf} for a moment)
 * @param placement where the source's entities go in the connected database ({@link DatabasePlacement#none} for its
 *                  own past)
 * @param namespace the connected namespace compared
 * @param kind      the kind compared
 * @param select    a query entities must match, or null
 * @param keys      the only keys compared (the connected database's), in key order ({@link KeysFile#selecting}), or
 *                  null for all
 * @param window    what the source's server keeps ({@link ReadWindow#of}), read at {@code windowAt}: the moment is
 *                  re-checked against it, moved on with the clock, as the comparison goes; null for a live source
 * @param windowAt  when {@code window} was read
 * @param wording   how messages name the source
 */
record DatabaseSide(Session source, DatabasePlacement placement, String namespace, String kind, ClientQuery select,
                    Set<Key> keys, ReadWindow window, Instant windowAt, SideWording wording) implements DiffSide {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ImportInput.Entry PASSED_OVER = new ImportInput.Entry(null, false, false, null);

    DatabaseSide {
        if ((window == null) == source.past()) {
            throw new IllegalArgumentException("a version window goes with a source read at a moment, only");
        }
        Objects.requireNonNull(wording, "wording");
    }

    @Override
    public ManagedImport.Entries open(int parallel, Cancellation cancellation) {
        Iterator<Entity> entities = keys == null ? OrderedRangeRead.entities(source.datastore(), source.order(),
                placement.from().namespace(), kind, parallel, cancellation) : looked(List.copyOf(keys));
        return new ManagedImport.Entries() {
            @Override
            public ImportInput.Entry next() {
                // a long comparison re-checks its moment as it goes: once it left the window, it stops saying so
                String left = window == null ? null : window.left(source.asOf(), windowAt, Instant.now());
                if (left != null) {
                    throw new KeyRangerException("The diff stopped: " + left + ".");
                }
                Entity entity;
                try {
                    if (!entities.hasNext()) {
                        return null;
                    }
                    entity = placement.place(entities.next());
                } catch (DatastoreException e) {
                    Instant dropped = ReadWindow.versionDropped(e);
                    if (dropped == null) {
                        throw e;
                    }
                    throw new KeyRangerException("The diff stopped: the moment " + dropped + " has left the "
                            + "server's version window: " + ReadWindow.DROPPED + ".", e);
                }
                return select == null || select.matches(entity) ? new ImportInput.Entry(entity, false, true, null)
                        : PASSED_OVER;
            }

            @Override
            public void close() {
                // lookups hold nothing open; ranges read ahead are stopped
                if (entities instanceof OrderedRangeRead<?> ranges) {
                    ranges.close();
                }
            }
        };
    }

    /** {@code asked}, looked up in the source a thousand at a time, those it holds, in that order, as its keys. */
    private Iterator<Entity> looked(List<Key> asked) {
        return new Iterator<>() {
            private final Deque<Entity> found = new ArrayDeque<>();
            private int next;

            @Override
            public boolean hasNext() {
                while (found.isEmpty() && next < asked.size()) {
                    List<Key> page = asked.subList(next, Math.min(asked.size(), next + CommitBytes.LOOKUP_KEYS));
                    next += page.size();
                    CommitBytes.lookup(page.stream().map(placement::source).toList(), source.datastore()::fetch)
                            .stream().filter(Objects::nonNull).forEach(found::add);
                }
                return !found.isEmpty();
            }

            @Override
            public Entity next() {
                hasNext();
                return found.remove();
            }
        };
    }

    @Override
    public boolean same(Entity before, Entity live) {
        return RestoreMode.asBackup(before, live, UnaryOperator.identity());
    }

    @Override
    public String differences(Entity before, Entity live) {
        return (placement.moves() ? RestoreMode.Backup.SOURCE : RestoreMode.Backup.PAST).differences(before, live);
    }

    /** Looked up in the source: those it holds did not match the query there. */
    @Override
    public Map<Key, Entity> heldOutside(List<Key> candidates) {
        Map<Key, Entity> held = new HashMap<>();
        if (select == null || candidates.isEmpty()) {
            return held;
        }
        CommitBytes.lookup(candidates.stream().map(placement::source).toList(), source.datastore()::fetch).stream()
                .filter(Objects::nonNull).map(placement::place).forEach(e -> held.put(e.getKey(), e));
        return held;
    }

    @Override
    public String where() {
        return wording.where();
    }

    @Override
    public String since() {
        return wording.since();
    }

    /**
     * The source and its read time, not what was typed: {@code -15m} typed again later is another moment (a live
     * source has none).
     */
    @Override
    public String describe() {
        ObjectNode what = JSON.createObjectNode();
        if (placement.moves()) {
            what.put("project", placement.from().project()).put("database", placement.from().database())
                    .put("sourceNamespace", placement.from().namespace());
        }
        if (source.past()) {
            what.put("asOf", source.asOf().time().toString());
        }
        what.put("namespace", namespace).put("kind", kind);
        if (select != null) {
            what.put("select", select.query().text());
        }
        if (keys != null) {
            what.put("keys", keys.size());
        }
        return what.toString();
    }
}
