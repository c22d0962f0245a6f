package io.keyranger.managed;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.Cancellation;
import io.keyranger.KeyRangerException;
import io.keyranger.mapper.SpecChecks;
import java.util.ArrayList;
import java.util.List;
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

    /**
     * Refuses a namespace and kind that {@code export} holds no entity of (a typo would otherwise select nothing and
     * "succeed"), naming what it holds and the nearest name. A filtered export answers from its metadata; an export
     * of all kinds is read until the first entity of them (through, when there is none).
     */
    public static void requireHolds(ManagedExport export, String projectId, String databaseId, String namespace,
                                    String kind) {
        boolean catchAll = false;
        Map<String, Map<String, Long>> listed = new TreeMap<>();
        for (ManagedExport.Part part : export.parts()) {
            if (part.namespace() == null || part.kind() == null) {
                catchAll = true;
            } else if (part.namespace().equals(namespace) && part.kind().equals(kind)) {
                return;
            } else {
                listed.computeIfAbsent(part.namespace(), n -> new TreeMap<>()).put(part.kind(), part.entities());
            }
        }
        if (catchAll) {
            try (ManagedExport.Entities entities = export.entities(projectId, databaseId, null, null)) {
                for (Entity e = entities.next(); e != null; e = entities.next()) {
                    Key key = e.getKey();
                    if (key.getNamespace().equals(namespace) && key.getKind().equals(kind)) {
                        return;
                    }
                    listed.computeIfAbsent(key.getNamespace(), n -> new TreeMap<>()).merge(key.getKind(), 1L,
                            Long::sum);
                }
            }
        }
        throw new KeyRangerException(notHeld(export, listed, namespace, kind));
    }

    private static String notHeld(ManagedExport export, Map<String, Map<String, Long>> held, String namespace,
                                  String kind) {
        StringBuilder text = new StringBuilder("The export " + export.metadata() + " holds no entity of kind '" + kind
                + "' in " + namespaceName(namespace) + ".");
        Map<String, Long> here = held.getOrDefault(namespace, Map.of());
        List<String> withKind = held.entrySet().stream().filter(ns -> ns.getValue().containsKey(kind))
                .map(Map.Entry::getKey).toList();
        java.util.Optional<String> nearKind = SpecChecks.nearest(kind, here.keySet());
        if (nearKind.isPresent()) {
            text.append(" Did you mean kind '").append(nearKind.get()).append("'?");
        } else if (!withKind.isEmpty()) {
            text.append(" Did you mean ").append(namespaceName(SpecChecks.nearest(namespace, withKind)
                    .orElse(withKind.get(0)))).append("?");
        }
        if (held.isEmpty()) {
            return text.append(" It holds no entities at all.").toString();
        }
        List<String> lines = new ArrayList<>();
        held.forEach((ns, kinds) -> lines.add(namespaceName(ns) + ": " + String.join(", ", kinds.keySet())));
        return text.append(" It holds ").append(String.join("; ", lines)).append(".").toString();
    }

    private static String namespaceName(String namespace) {
        return namespace.isEmpty() ? "the default namespace" : "namespace '" + namespace + "'";
    }
}
