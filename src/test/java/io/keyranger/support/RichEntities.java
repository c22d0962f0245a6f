package io.keyranger.support;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.ReadOption;
import com.google.cloud.datastore.StringValue;
import io.keyranger.datastore.PastReads;
import io.keyranger.datastore.PointInTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Entities with mixed keys (dense and scattered ids, names with a shared prefix, non-ASCII names, ancestors) and every
 * value type, some unindexed: what an undo must bring back exactly.
 */
public final class RichEntities {
    private RichEntities() {
    }

    /** {@code count} entities of {@code kind} in the default namespace, key {@code i} with balance {@code i}. */
    public static List<Entity> of(Datastore datastore, String kind, int count) {
        List<Entity> out = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            out.add(entity(key(datastore, kind, i), i));
        }
        return out;
    }

    /** {@link #of} written to {@code datastore}, a hundred a call; the entities as written. */
    public static List<Entity> put(Datastore datastore, String kind, int count) {
        List<Entity> seeded = of(datastore, kind, count);
        for (int i = 0; i < seeded.size(); i += 100) {
            datastore.put(seeded.subList(i, Math.min(seeded.size(), i + 100)).toArray(new Entity[0]));
        }
        return seeded;
    }

    private static Key key(Datastore datastore, String kind, int i) {
        var keys = datastore.newKeyFactory().setKind(kind);
        return switch (i % 5) {
            case 0 -> keys.newKey(i);
            case 1 -> keys.newKey(1_000_000_000L + i * 7_919L);
            case 2 -> keys.newKey("user-" + String.format("%06d", i));
            case 3 -> keys.newKey("ñ-𝔘-" + i);
            default -> datastore.newKeyFactory().setKind(kind).addAncestor(PathElement.of("Org", "o" + i % 7))
                    .newKey(i);
        };
    }

    private static Entity entity(Key key, int i) {
        FullEntity<?> embedded = FullEntity.newBuilder().set("city", "c" + i % 11)
                .set("zip", StringValue.newBuilder("z" + i).setExcludeFromIndexes(true).build()).build();
        return Entity.newBuilder(key)
                .set("balance", (long) i)
                .set("score", DoubleValue.newBuilder(i / 3.0).setExcludeFromIndexes(true).build())
                .set("tier", i % 3 == 0 ? "pro" : "free")
                .set("note", StringValue.newBuilder("note " + i).setExcludeFromIndexes(true).build())
                .set("active", i % 2 == 0)
                .set("nothing", NullValue.of())
                .set("at", Timestamp.ofTimeSecondsAndNanos(1_700_000_000L + i, 123_456_000))
                .set("raw", BlobValue.newBuilder(Blob.copyFrom(new byte[] {1, 2, (byte) i})).setExcludeFromIndexes(true)
                        .build())
                .set("where", LatLng.of(i % 90, i % 180))
                .set("ref", Key.newBuilder(key.getProjectId(), "Org", "o" + i % 7, "").setNamespace(key.getNamespace())
                        .build())
                .set("tags", ListValue.of(StringValue.of("a" + i % 4), LongValue.of(i)))
                .set("meta", EntityValue.newBuilder(embedded).setExcludeFromIndexes(true).build())
                .build();
    }

    /**
     * Like {@link #of}, with the values App Engine apps write every day beside every ordinary type: a string with
     * meaning 15 (ndb's {@code TextProperty}), a blob with meaning 22 (ndb's compressed {@code BlobProperty}), a key
     * value in another project and database-less partition, an embedded entity with an incomplete key, an embedded
     * entity with a complete key, an empty array, and unindexed values inside arrays and embedded entities.
     */
    public static List<Entity> withAppEngineValues(Datastore datastore, String kind, int count) {
        List<Entity> out = new ArrayList<>(count);
        for (Entity plain : of(datastore, kind, count)) {
            out.add(appEngineValues(plain));
        }
        return out;
    }

    /** {@code entity} with the App Engine values of {@link #withAppEngineValues} added. */
    @SuppressWarnings("deprecation") // meaning: deprecated in the client, kept by Datastore and by ndb apps
    public static Entity appEngineValues(Entity entity) {
        Key key = entity.getKey();
        long i = key.getNameOrId() instanceof Long id ? id : key.getName().hashCode();
        FullEntity<IncompleteKey> anonymous = FullEntity.newBuilder(
                        IncompleteKey.newBuilder(key.getProjectId(), "Address").setNamespace(key.getNamespace()).build())
                .set("street", "s" + i)
                .set("lines", ListValue.of(StringValue.newBuilder("l" + i).setExcludeFromIndexes(true).build(),
                        StringValue.of("m")))
                .build();
        FullEntity<Key> keyed = FullEntity.newBuilder(Key.newBuilder(key.getProjectId(), "Snapshot", "snap-" + i)
                        .setNamespace(key.getNamespace()).build())
                .set("deep", EntityValue.of(FullEntity.newBuilder()
                        .set("blob", BlobValue.newBuilder(Blob.copyFrom(new byte[] {9, (byte) i}))
                                .setExcludeFromIndexes(true).build()).build()))
                .build();
        return Entity.newBuilder(entity)
                .set("text", StringValue.newBuilder("long text " + i).setMeaning(15).setExcludeFromIndexes(true).build())
                .set("zipped", BlobValue.newBuilder(Blob.copyFrom(new byte[] {0x78, (byte) 0x9c, (byte) i}))
                        .setMeaning(22).setExcludeFromIndexes(true).build())
                .set("elsewhere", Key.newBuilder("another-project", "Customer", "c" + i, "").setNamespace("ns-x")
                        .build())
                .set("address", EntityValue.newBuilder(anonymous).setExcludeFromIndexes(true).build())
                .set("snapshot", EntityValue.of(keyed))
                .set("none", ListValue.newBuilder().build())
                .build();
    }

    /** Every entity of a kind as the server returns it, by key. */
    public static Map<Key, Entity> read(Datastore datastore, String namespace, String kind) {
        Map<Key, Entity> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setNamespace(namespace).setKind(kind).build())
                .forEachRemaining(e -> all.put(e.getKey(), e));
        return all;
    }

    /**
     * A kind of the default namespace as the server answers one query for it, in its key order: now ({@code at} null)
     * or as of {@code at}.
     */
    public static Map<Key, Entity> query(Datastore datastore, String kind, Instant at) {
        Map<Key, Entity> found = new LinkedHashMap<>();
        Query<Entity> query = Query.newEntityQueryBuilder().setKind(kind).build();
        (at == null ? datastore.run(query) : datastore.run(query, ReadOption.readTime(
                Timestamp.ofTimeSecondsAndNanos(at.getEpochSecond(), at.getNano()))))
                .forEachRemaining(e -> found.put(e.getKey(), e));
        return found;
    }

    /**
     * Every entity of a kind as the emulator held it at {@code time}: the keys its own keys-only query answers with that
     * read time, each looked up with it (500 a lookup). Only a server that keeps versions answers this truly.
     */
    public static Map<Key, Entity> readAt(Datastore datastore, String namespace, String kind, Instant time) {
        Datastore past = PastReads.at(datastore, PointInTime.at(time).timestamp());
        List<Key> keys = new ArrayList<>();
        past.run(Query.newKeyQueryBuilder().setNamespace(namespace).setKind(kind).build()).forEachRemaining(keys::add);
        Map<Key, Entity> found = new HashMap<>();
        for (int i = 0; i < keys.size(); i += 500) {
            past.get(keys.subList(i, Math.min(keys.size(), i + 500)).toArray(new Key[0]))
                    .forEachRemaining(e -> found.put(e.getKey(), e));
        }
        return found;
    }
}
