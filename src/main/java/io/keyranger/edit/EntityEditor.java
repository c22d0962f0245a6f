package io.keyranger.edit;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Transaction;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.keys.KeyFormat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.LoggerFactory;

/**
 * Creates, changes and deletes entities one at a time or as a selection, each batch in a transaction that first
 * checks the entities are still as the user saw them (nobody changed them meanwhile), and keeps what they were so
 * that the edit can be undone. A read-only connection refuses every edit.
 */
public final class EntityEditor {
    /** Keys read in one lookup (the server's limit). */
    private static final int FETCH_BATCH = 1000;
    private final Datastore datastore;
    private final ConnectionSpec connection;
    private final ServerLimits limits;

    public EntityEditor(Datastore datastore, ConnectionSpec connection, ServerLimits limits) {
        this.datastore = datastore;
        this.connection = connection;
        this.limits = limits;
    }

    /**
     * One edit: each key's entity before (null where there was none) and after (null where it is deleted).
     *
     * @param description what was done, for the undo button
     * @param before      the entities as they were, by key
     * @param after       the entities as the edit left them, by key
     */
    public record Edit(String description, Map<Key, Entity> before, Map<Key, Entity> after) {
        public Edit {
            before = Collections.unmodifiableMap(new HashMap<>(before));
            after = Collections.unmodifiableMap(new HashMap<>(after));
        }
    }

    /** Creates a new entity; refused if its key is taken. */
    public Edit create(Entity entity) {
        Map<Key, Entity> expected = new HashMap<>();
        expected.put(entity.getKey(), null);
        Map<Key, Entity> next = new HashMap<>();
        next.put(entity.getKey(), entity);
        return apply("create " + KeyFormat.format(entity.getKey()), expected, next);
    }

    /**
     * Replaces {@code original} with {@code changed}. A changed key is a move: the new key must be free, and the
     * original is deleted in the same transaction.
     */
    public Edit update(Entity original, Entity changed) {
        Map<Key, Entity> expected = new HashMap<>();
        Map<Key, Entity> next = new HashMap<>();
        expected.put(original.getKey(), original);
        if (!original.getKey().equals(changed.getKey())) {
            expected.put(changed.getKey(), null);
            next.put(original.getKey(), null);
        }
        next.put(changed.getKey(), changed);
        return apply("edit " + KeyFormat.format(changed.getKey()), expected, next);
    }

    /** Deletes these entities, as the user saw them. */
    public Edit delete(List<Entity> entities) {
        Map<Key, Entity> expected = new HashMap<>();
        Map<Key, Entity> next = new HashMap<>();
        for (Entity e : entities) {
            expected.put(e.getKey(), e);
            next.put(e.getKey(), null);
        }
        return apply("delete " + (entities.size() == 1 ? KeyFormat.format(entities.get(0).getKey())
                : entities.size() + " entities"), expected, next);
    }

    /** Puts back what an edit replaced, if nobody changed its entities since. */
    public Edit undo(Edit edit) {
        return apply("undo " + edit.description(), edit.after(), edit.before());
    }

    /** Makes an undone edit again, if nobody changed its entities since the undo. */
    public Edit redo(Edit edit) {
        return apply(edit.description(), edit.before(), edit.after());
    }

    /**
     * Checks every key holds what {@code expected} says (null: nothing), then writes {@code next}, in transactions of
     * as many entity groups as the server allows. A batch whose entities changed meanwhile writes nothing and stops
     * the edit with a message naming the entity; batches committed before it stay (and are in the returned edit's
     * message).
     */
    private Edit apply(String description, Map<Key, Entity> expected, Map<Key, Entity> next) {
        if (connection.readOnly()) {
            throw new KeyRangerException("This connection is read-only: entities cannot be created, changed or "
                    + "deleted on it. Edit the connection profile to allow writing.");
        }
        List<Key> keys = new ArrayList<>(expected.keySet());
        int batch = limits.maxEntityGroups() > 0 ? limits.maxEntityGroups() : 500;
        Map<Key, Entity> before = new HashMap<>();
        Map<Key, Entity> after = new HashMap<>();
        for (int from = 0; from < keys.size(); from += batch) {
            List<Key> part = keys.subList(from, Math.min(keys.size(), from + batch));
            try {
                commit(part, expected, next);
            } catch (KeyRangerException e) {
                if (before.isEmpty()) {
                    throw e;
                }
                throw new KeyRangerException(e.getMessage() + " " + before.size() + " of " + keys.size()
                        + " entities were done before it; undo puts them back.", e);
            }
            for (Key key : part) {
                before.put(key, expected.get(key));
                after.put(key, next.get(key));
            }
        }
        rememberKinds(after);
        return new Edit(description, before, after);
    }

    /**
     * On a server that cannot list kinds (the Firestore emulator), records the kinds this edit wrote entities of, so
     * that listings show a kind first made here; nothing elsewhere.
     */
    private void rememberKinds(Map<Key, Entity> written) {
        DatastoreGateway gateway = new DatastoreGateway(datastore, connection.server());
        try {
            written.values().stream().filter(Objects::nonNull).map(e -> List.of(e.getKey().getNamespace(),
                    e.getKey().getKind())).distinct().forEach(nsKind -> gateway.remember(nsKind.get(0), nsKind.get(1)));
        } catch (RuntimeException e) {
            // bookkeeping after the edit committed: its failure must not turn a saved edit into a failed one, which
            // would lose the edit's undo; the kind is recorded again by the next write or listing that names it
            LoggerFactory.getLogger(EntityEditor.class).warn("Could not record the kinds of an edit as "
                    + "known: {}", e.toString());
        }
    }

    /**
     * The first of {@code expected}'s keys whose entity is no longer as it says (null: none), as the exception an
     * edit over them would meet; read outside any transaction, so a later edit still checks again in its own.
     */
    public ChangedSinceException changedSince(Map<Key, Entity> expected) {
        List<Key> keys = new ArrayList<>(expected.keySet());
        for (int from = 0; from < keys.size(); from += FETCH_BATCH) {
            List<Key> part = keys.subList(from, Math.min(keys.size(), from + FETCH_BATCH));
            List<Entity> current = Retries.call(new Retries.Simple(5, 100, 2_000, 30_000), Retries.Observer.NONE,
                    () -> datastore.fetch(part.toArray(new Key[0])));
            for (int i = 0; i < part.size(); i++) {
                if (!Objects.equals(expected.get(part.get(i)), current.get(i))) {
                    return changed(part.get(i), expected.get(part.get(i)), current.get(i));
                }
            }
        }
        return null;
    }

    private static ChangedSinceException changed(Key key, Entity want, Entity found) {
        String entity = KeyFormat.format(key);
        return found == null
                ? new ChangedSinceException(key, ChangedSinceException.Change.DELETED,
                        entity + " no longer exists: reload the page.")
                : want == null ? new ChangedSinceException(key, ChangedSinceException.Change.CREATED,
                        entity + " exists already: choose another key.")
                : new ChangedSinceException(key, ChangedSinceException.Change.CHANGED,
                        entity + " was changed by someone else since it was read: reload the page and edit it again.");
    }

    private void commit(List<Key> keys, Map<Key, Entity> expected, Map<Key, Entity> next) {
        AtomicInteger attempts = new AtomicInteger();
        Retries.call(new Retries.Simple(5, 100, 2_000, 30_000), Retries.Observer.NONE, () -> {
            Transaction tx = datastore.newTransaction();
            try {
                List<Entity> current = tx.fetch(keys.toArray(new Key[0]));
                // a retry may follow a commit whose answer was lost: finding the edit done then is success
                boolean appliedAlready = attempts.incrementAndGet() > 1;
                for (int i = 0; i < keys.size(); i++) {
                    appliedAlready &= Objects.equals(next.get(keys.get(i)), current.get(i));
                }
                if (appliedAlready) {
                    return null;
                }
                for (int i = 0; i < keys.size(); i++) {
                    Entity want = expected.get(keys.get(i));
                    Entity found = current.get(i);
                    if (!Objects.equals(want, found)) {
                        throw changed(keys.get(i), want, found);
                    }
                }
                for (Key key : keys) {
                    Entity entity = next.get(key);
                    if (entity == null) {
                        tx.delete(key);
                    } else {
                        tx.put(entity);
                    }
                }
                tx.commit();
                return null;
            } finally {
                if (tx.isActive()) {
                    Retries.rollbackQuietly(tx);
                }
            }
        });
    }
}
