package io.keyranger.backup;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
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
 * The kind as the database held it at a past moment, as the "before" side of a comparison: every entity of the kind
 * read at that read time over key ranges planned then, several at once, handed on in key order
 * ({@link OrderedRangeRead}; or, with a list of keys, those keys looked up at that time, in key order), each tested
 * against the query on the client, as an export's entities are. Its keys are the live
 * database's own, so an entity is the same when its properties are.
 *
 * @param past      the session reading the past moment ({@link Session#asOf})
 * @param namespace the namespace compared
 * @param kind      the kind compared
 * @param select    a query entities must match, or null
 * @param keys      the only keys compared, in key order ({@link KeysFile#selecting}), or null for all
 * @param window    what the server keeps ({@link ReadWindow#of}), read at {@code windowAt}: the moment is re-checked
 *                  against it, moved on with the clock, as the comparison goes
 * @param windowAt  when {@code window} was read
 */
record PastSide(Session past, String namespace, String kind, ClientQuery select, Set<Key> keys, ReadWindow window,
                  Instant windowAt) implements DiffSide {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ImportInput.Entry PASSED_OVER = new ImportInput.Entry(null, false, false, null);

    PastSide {
        Objects.requireNonNull(past.asOf(), "a session reading the past");
    }

    @Override
    public ManagedImport.Entries open(int parallel, Cancellation cancellation) {
        Iterator<Entity> entities = keys == null ? OrderedRangeRead.entities(past.datastore(), past.order(),
                namespace, kind, parallel, cancellation) : looked(List.copyOf(keys));
        return new ManagedImport.Entries() {
            @Override
            public ImportInput.Entry next() {
                // a long comparison re-checks its moment as it goes: once it left the window, it stops saying so
                String left = window.left(past.asOf(), windowAt, Instant.now());
                if (left != null) {
                    throw new KeyRangerException("The diff stopped: " + left + ".");
                }
                Entity entity;
                try {
                    if (!entities.hasNext()) {
                        return null;
                    }
                    entity = entities.next();
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

    /** {@code asked}, looked up at the past moment a thousand at a time, those that existed then, in that order. */
    private Iterator<Entity> looked(List<Key> asked) {
        return new Iterator<>() {
            private final Deque<Entity> found = new ArrayDeque<>();
            private int next;

            @Override
            public boolean hasNext() {
                while (found.isEmpty() && next < asked.size()) {
                    List<Key> page = asked.subList(next, Math.min(asked.size(), next + CommitBytes.LOOKUP_KEYS));
                    next += page.size();
                    CommitBytes.lookup(page, past.datastore()::fetch).stream().filter(Objects::nonNull)
                            .forEach(found::add);
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
        return RestoreMode.Backup.PAST.differences(before, live);
    }

    /** Looked up at the past moment: those that existed then did not match the query then. */
    @Override
    public Map<Key, Entity> heldOutside(List<Key> candidates) {
        Map<Key, Entity> held = new HashMap<>();
        if (select == null || candidates.isEmpty()) {
            return held;
        }
        CommitBytes.lookup(candidates, past.datastore()::fetch).stream().filter(Objects::nonNull)
                .forEach(e -> held.put(e.getKey(), e));
        return held;
    }

    @Override
    public String where() {
        return SideWording.asOf(past.asOf()).where();
    }

    @Override
    public String since() {
        return SideWording.asOf(past.asOf()).since();
    }

    /** The read time, not what was typed: {@code -15m} typed again later is another moment. */
    @Override
    public String describe() {
        ObjectNode what = JSON.createObjectNode().put("asOf", past.asOf().time().toString())
                .put("namespace", namespace).put("kind", kind);
        if (select != null) {
            what.put("select", select.query().text());
        }
        if (keys != null) {
            what.put("keys", keys.size());
        }
        return what.toString();
    }
}
