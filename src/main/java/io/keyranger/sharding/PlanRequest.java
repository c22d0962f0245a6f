package io.keyranger.sharding;

import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.KeyRangerException;
import java.util.List;

/**
 * What to plan: a kind in a namespace, restricted by equality filters, cut into {@code shards} ranges from
 * {@code shards × oversample} scatter samples.
 */
public record PlanRequest(String namespace, String kind, List<PropertyFilter> filters, int shards, int oversample) {
    public static final int DEFAULT_OVERSAMPLE = 64;
    public static final int MAX_SHARDS = 4096;

    public PlanRequest {
        namespace = namespace == null ? "" : namespace;
        filters = filters == null ? List.of() : List.copyOf(filters);
        if (kind == null || kind.isBlank()) {
            throw new KeyRangerException("A kind is required.");
        }
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new KeyRangerException("The shard count must be between 1 and " + MAX_SHARDS + " (got " + shards + ").");
        }
        if (oversample < 1 || oversample > 1000) {
            throw new KeyRangerException("The oversample factor must be between 1 and 1000 (got " + oversample + ").");
        }
    }

    public int sampleLimit() {
        return Math.min(shards * oversample, Integer.getInteger("keyranger.sampleCap", Integer.MAX_VALUE));
    }
}
