package io.keyranger.support;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.ReadOption;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.ServerType;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * A kind on a fresh project of the Firestore emulator in Datastore mode, seeded, then damaged after a noted moment
 * {@link #before}: some entities changed, some deleted, some added. What it held at that moment and holds now are
 * read with the emulator's own {@code read_time}, not through KeyRanger.
 */
public final class DamagedKind {
    public static final String KIND = "Item";
    /** Seeded ids 1..SEEDED; 1..5 are changed, 6..10 deleted, SEEDED+1..SEEDED+10 added afterwards. */
    public static final int SEEDED = 60;
    private final ConnectionSpec spec;
    private final Datastore datastore;
    private final Instant before;

    private DamagedKind(ConnectionSpec spec, Datastore datastore, Instant before) {
        this.spec = spec;
        this.datastore = datastore;
        this.before = before;
    }

    /** Seeds {@link #KIND} (and records it, as KeyRanger does where kinds cannot be listed), notes the time, damages. */
    public static DamagedKind create(String prefix) throws InterruptedException {
        ConnectionSpec spec = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, prefix);
        Datastore datastore = SharedEmulator.connect(spec);
        List<Entity> seeded = new ArrayList<>();
        for (int i = 1; i <= SEEDED; i++) {
            seeded.add(Entity.newBuilder(key(datastore, i)).set("n", i).set("state", "original").build());
        }
        SharedEmulator.putAll(datastore, seeded);
        new DatastoreGateway(datastore, ServerType.FIRESTORE_EMULATOR).remember("", KIND);
        Thread.sleep(20);
        Instant before = Instant.now().truncatedTo(ChronoUnit.MICROS); // what read_time takes
        Thread.sleep(20);
        for (int i = 1; i <= 5; i++) {
            datastore.put(Entity.newBuilder(key(datastore, i)).set("n", -i).set("state", "damaged").build());
        }
        for (int i = 6; i <= 10; i++) {
            datastore.delete(key(datastore, i));
        }
        List<Entity> added = new ArrayList<>();
        for (int i = SEEDED + 1; i <= SEEDED + 10; i++) {
            added.add(Entity.newBuilder(key(datastore, i)).set("n", i).set("state", "added").build());
        }
        SharedEmulator.putAll(datastore, added);
        return new DamagedKind(spec, datastore, before);
    }

    private static Key key(Datastore datastore, long id) {
        return datastore.newKeyFactory().setKind(KIND).newKey(id);
    }

    public ConnectionSpec spec() {
        return spec;
    }

    /** The moment before the damage. */
    public Instant before() {
        return before;
    }

    /** The kind in key order as the emulator kept it at {@link #before}. */
    public List<Entity> atBefore() {
        Timestamp time = Timestamp.ofTimeSecondsAndNanos(before.getEpochSecond(), before.getNano());
        return all(ReadOption.readTime(time));
    }

    /** The kind in key order now. */
    public List<Entity> now() {
        return all();
    }

    private List<Entity> all(ReadOption... options) {
        List<Entity> all = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind(KIND).build(), options).forEachRemaining(all::add);
        return all;
    }

    /** The emulator's own lookup of {@code key} at {@link #before}, or null if it did not exist then. */
    public Entity lookupAtBefore(Key key) {
        Timestamp time = Timestamp.ofTimeSecondsAndNanos(before.getEpochSecond(), before.getNano());
        return datastore.get(key, ReadOption.readTime(time));
    }

    public Datastore datastore() {
        return datastore;
    }
}
