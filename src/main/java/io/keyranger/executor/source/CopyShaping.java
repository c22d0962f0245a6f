package io.keyranger.executor.source;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import com.google.common.hash.Hasher;
import com.google.common.hash.Hashing;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a copy from another database does to its entities on the way into the connected one: a stable sample of its
 * keys ({@code sample}: the same keys every run and on every runner, chosen by a hash of each key's path, which is the
 * same in every partition), and a CEL transform (the transform template's {@code set}, {@code remove} and
 * {@code unindexed}: masking). An entity the transform fails on is not copied at all, so that a masked copy never
 * holds a value it was meant to mask; it is counted and named as any transform's.
 */
final class CopyShaping {
    /** Every key, as it is. */
    static final CopyShaping NONE = new CopyShaping(100, null);
    /** The transform template's counter of the entities it left as they were: not a copy's to report. */
    private static final String UNCHANGED = "unchanged";

    private final double percent;
    private final PageMapper transform;

    private CopyShaping(double percent, PageMapper transform) {
        this.percent = percent;
        this.transform = transform;
    }

    /** The sample and transform an import spec (format database) names. */
    static CopyShaping of(MapperSpec spec) {
        MapperSpec transform = Mappers.copyTransform(spec);
        double percent = spec.json().path("sample").asDouble(100);
        if (transform == null && percent >= 100) {
            return NONE;
        }
        return new CopyShaping(percent, transform == null ? null : Mappers.create(transform.withoutUndo()));
    }

    /** Whether {@code key} is in the sample. */
    boolean sampled(Key key) {
        return percent >= 100 || fraction(key) < percent / 100;
    }

    /** Where {@code key}'s path falls in [0, 1): what the sample is taken by. */
    static double fraction(Key key) {
        Hasher hasher = Hashing.murmur3_128().newHasher();
        for (PathElement element : key.getAncestors()) {
            element(hasher, element.getKind(), element.getNameOrId());
        }
        element(hasher, key.getKind(), key.getNameOrId());
        return (hasher.hash().asLong() >>> 11) * 0x1.0p-53;
    }

    private static void element(Hasher hasher, String kind, Object nameOrId) {
        hasher.putString(kind, StandardCharsets.UTF_8).putByte((byte) 0);
        if (nameOrId instanceof Long id) {
            hasher.putByte((byte) 'i').putLong(id);
        } else {
            hasher.putByte((byte) 'n').putString(String.valueOf(nameOrId), StandardCharsets.UTF_8);
        }
        hasher.putByte((byte) 1);
    }

    /**
     * {@code entities} through the transform, by key: those it fails on left out, with their counters merged into
     * {@code counters} and each named in {@code problems}.
     */
    Map<Key, Entity> apply(Map<Key, Entity> entities, Map<String, Long> counters, List<MapResult.Problem> problems) {
        if (transform == null || entities.isEmpty()) {
            return entities;
        }
        List<Key> keys = new ArrayList<>(entities.keySet());
        MapResult result = transform.map(new Page(keys, new ArrayList<>(entities.values())));
        Map<Key, Entity> out = new HashMap<>(entities);
        result.puts().forEach(e -> out.put(e.getKey(), e));
        Set<Key> failed = new HashSet<>();
        result.problems().forEach(p -> failed.add(p.key()));
        out.keySet().removeAll(failed);
        problems.addAll(result.problems());
        result.counters().forEach((name, n) -> {
            if (!name.equals(UNCHANGED)) {
                counters.merge(name, n, Long::sum);
            }
        });
        return out;
    }
}
