package io.keyranger.datastore;

import com.google.cloud.datastore.BaseEntity;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.protobuf.MessageLite;
import io.keyranger.KeyRangerException;
import io.keyranger.keys.KeyFormat;
import java.lang.reflect.Method;

/**
 * The size of an entity as the server counts it (its serialized protocol buffer) against Datastore's limit of
 * 1,048,572 bytes. The legacy emulator does not enforce the limit, production does: checking before the commit
 * gives the same clear error on both.
 *
 * <p>One commit asks the size of the same entity several times (whether it is writable, what its commit sends, what
 * its undo record and its revert would hold), and measuring builds its whole protocol buffer. Entities are immutable,
 * so each size is measured once and kept, by identity, for as long as the entity itself is reachable.
 */
public final class EntitySize {
    public static final int MAX_BYTES = 1_048_572;
    private static final Method TO_PB = toPb();
    private static final Cache<Entity, Integer> MEASURED = CacheBuilder.newBuilder().weakKeys()
            .concurrencyLevel(Runtime.getRuntime().availableProcessors() * 4).build();

    private EntitySize() {
    }

    private static Method toPb() {
        try {
            Method method = BaseEntity.class.getDeclaredMethod("toPb");
            method.setAccessible(true);
            return method;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // sizes are then not checked client-side; the server still enforces its limit
        }
    }

    /** The serialized size in bytes, or -1 when it cannot be computed. */
    public static int bytes(Entity entity) {
        Integer known = MEASURED.getIfPresent(entity);
        if (known != null) {
            return known;
        }
        int size = measure(entity);
        if (size >= 0) {
            MEASURED.put(entity, size);
        }
        return size;
    }

    /**
     * The serialized size of an entity that holds {@code key} alone (what deleting it sends), or -1: measured each
     * time, as such an entity is built for the asking and kept by no one.
     */
    public static int keyBytes(Key key) {
        return measure(Entity.newBuilder(key).build());
    }

    private static int measure(Entity entity) {
        if (TO_PB == null) {
            return -1;
        }
        try {
            return ((MessageLite) TO_PB.invoke(entity)).getSerializedSize();
        } catch (ReflectiveOperationException e) {
            return -1;
        }
    }

    /** Refuses an entity over the limit with a message that names it. */
    public static void check(Entity entity) {
        int size = bytes(entity);
        if (size > MAX_BYTES) {
            throw new KeyRangerException("Entity " + KeyFormat.format(entity.getKey()) + " would be too big: " + size
                    + " bytes, over Datastore's limit of " + MAX_BYTES + " bytes. Nothing in its chunk was written.");
        }
    }
}
