package io.keyranger.managed;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.Cancellation;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;

/**
 * What an export holds, by namespace and kind, from one streamed pass over its files (its metadata counts only its
 * parts, and an unfiltered export has one part for everything), and, if asked for, one entity found on the way.
 *
 * @param counts  entities by namespace, then kind, both sorted
 * @param total   entities in all
 * @param found   the entity with the key asked for, or null
 */
public record ExportContents(Map<String, Map<String, Long>> counts, long total, Entity found) {
    /** Every 10,000 entities the pass reports how many it has read, and stops if cancelled. */
    public interface Progress {
        void read(long entities);
    }

    /** Reads {@code export} through, placing keys in {@code projectId}; finds {@code lookFor} (null: nothing). */
    public static ExportContents scan(ManagedExport export, String projectId, String databaseId, Key lookFor,
                                      Progress progress, Cancellation cancellation) {
        Map<String, Map<String, Long>> counts = new TreeMap<>();
        long[] total = {0};
        Entity[] found = {null};
        export.forEach(projectId, databaseId, entity -> {
            Key key = entity.getKey();
            counts.computeIfAbsent(key.getNamespace(), n -> new TreeMap<>()).merge(key.getKind(), 1L, Long::sum);
            if (lookFor != null && lookFor.equals(key)) {
                found[0] = entity;
            }
            if (++total[0] % 10_000 == 0) {
                progress.read(total[0]);
                if (cancellation.isCancelled()) {
                    throw new CancellationException("stopped after " + total[0] + " entities");
                }
            }
        });
        return new ExportContents(counts, total[0], found[0]);
    }
}
