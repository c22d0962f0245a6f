package io.keyranger.bench;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.EntityCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;

/**
 * What a set of entities holds, as a count and a digest of every entity's key and typed properties (its lossless JSON
 * line). The digest is a sum of each entity's SHA-256, so it does not depend on the order the entities are read in: a
 * query's key order, an export file's order and a restore's are compared alike.
 *
 * @param entities how many were read
 * @param high     the sum of the first eight bytes of each entity's hash
 * @param low      the sum of the next eight
 */
public record KindDigest(long entities, long high, long low) {
    public static final KindDigest EMPTY = new KindDigest(0, 0, 0);

    /** Every entity of {@code kind} read back from the server. */
    public static KindDigest of(Datastore datastore, String kind) {
        KindDigest[] sum = {EMPTY};
        datastore.run(Query.newEntityQueryBuilder().setKind(kind).build()).forEachRemaining(e -> sum[0] = sum[0].plus(e));
        return sum[0];
    }

    /** This digest with one more entity. */
    public KindDigest plus(Entity entity) {
        ByteBuffer hash = ByteBuffer.wrap(sha256(EntityCodec.line(entity)));
        return new KindDigest(entities + 1, high + hash.getLong(), low + hash.getLong());
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java runtime has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%,d entities, digest %016x%016x", entities, high, low);
    }
}
