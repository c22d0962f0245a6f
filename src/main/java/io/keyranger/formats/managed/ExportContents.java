package io.keyranger.formats.managed;

import io.keyranger.NearestName;
import io.keyranger.datastore.MixedArrays;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.KeyRangerException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;

/**
 * What an export holds, by namespace and kind, from one streamed pass over its files (its metadata counts only its
 * parts, and an unfiltered export has one part for everything), and, if asked for, one entity found on the way. The
 * counts of the last few exports read through are kept, by the export's metadata file and its time and size (an
 * export is written once), so that opening one in the Backups tab, comparing a kind of it and restoring from it read
 * it through once, not once each.
 *
 * @param counts  entities by namespace, then kind, both sorted
 * @param total   entities in all
 * @param mixedArrays entities whose arrays mix indexed and unindexed values ({@link MixedArrays}), -1 when not counted
 * @param found   the entity with the key asked for, or null
 */
public record ExportContents(Map<String, Map<String, Long>> counts, long total, Entity found, long mixedArrays) {
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
        long[] mixed = {0};
        export.forEach(projectId, databaseId, entity -> {
            Key key = entity.getKey();
            if (MixedArrays.in(entity)) {
                mixed[0]++;
            }
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
        READ.put(Identity.of(export), new ExportContents(counts, total[0], null, mixed[0]));
        return new ExportContents(counts, total[0], found[0], mixed[0]);
    }

    /**
     * Refuses a namespace and kind that {@code export} holds no entity of (a typo would otherwise select nothing and
     * "succeed"), naming what it holds and the nearest name. A filtered export answers from its metadata; an export
     * of all kinds from a pass made before, or is read until the first entity of them (through, when there is none).
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
            Map<String, Map<String, Long>> held = held(export, projectId, databaseId, namespace, kind);
            if (held == null) {
                return;
            }
            held.forEach((ns, kinds) -> listed.computeIfAbsent(ns, n -> new TreeMap<>()).putAll(kinds));
        }
        throw new KeyRangerException(notHeld(export, listed, namespace, kind));
    }

    /**
     * What an export of all kinds holds, or null as soon as it is seen to hold {@code namespace}/{@code kind}: from the
     * counts of a pass made before, else read until the first entity of them (the common case stops early; an export
     * without one is read through, and its counts are kept).
     */
    private static Map<String, Map<String, Long>> held(ManagedExport export, String projectId, String databaseId,
                                                      String namespace, String kind) {
        ExportContents known = READ.get(Identity.of(export));
        if (known != null) {
            return known.counts().getOrDefault(namespace, Map.of()).containsKey(kind) ? null : known.counts();
        }
        Map<String, Map<String, Long>> counts = new TreeMap<>();
        long total = 0;
        try (ManagedExport.Entities entities = export.entities(projectId, databaseId, null, null)) {
            for (Entity e = entities.next(); e != null; e = entities.next()) {
                Key key = e.getKey();
                if (key.getNamespace().equals(namespace) && key.getKind().equals(kind)) {
                    return null;
                }
                counts.computeIfAbsent(key.getNamespace(), n -> new TreeMap<>()).merge(key.getKind(), 1L, Long::sum);
                total++;
            }
        }
        READ.put(Identity.of(export), new ExportContents(counts, total, null, -1)); // -1: not looked at
        return counts;
    }

    /** The counts of exports read through, the last {@value #KEPT} by their identity. */
    private static final int KEPT = 8;
    private static final Map<Identity, ExportContents> READ = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Identity, ExportContents> eldest) {
                    return size() > KEPT;
                }
            });

    /** An export as written: its metadata file, with that file's time and size (another export there differs). */
    private record Identity(String metadata, long modified, long size) {
        static Identity of(ManagedExport export) {
            String file = export.metadata();
            try {
                return new Identity(file, export.store().modifiedMillis(file), export.store().size(file));
            } catch (IOException e) {
                return new Identity(file, -1, System.nanoTime()); // unreadable now: matches nothing kept
            }
        }
    }

    private static String notHeld(ManagedExport export, Map<String, Map<String, Long>> held, String namespace,
                                  String kind) {
        StringBuilder text = new StringBuilder("The export " + export.metadata() + " holds no entity of kind '" + kind
                + "' in " + DatastoreGateway.namespaceName(namespace) + ".");
        Map<String, Long> here = held.getOrDefault(namespace, Map.of());
        List<String> withKind = held.entrySet().stream().filter(ns -> ns.getValue().containsKey(kind))
                .map(Map.Entry::getKey).toList();
        Optional<String> nearKind = NearestName.of(kind, here.keySet());
        if (nearKind.isPresent()) {
            text.append(" Did you mean kind '").append(nearKind.get()).append("'?");
        } else if (!withKind.isEmpty()) {
            text.append(" Did you mean ").append(DatastoreGateway.namespaceName(NearestName.of(namespace, withKind)
                    .orElse(withKind.get(0)))).append("?");
        }
        if (held.isEmpty()) {
            return text.append(" It holds no entities at all.").toString();
        }
        List<String> lines = new ArrayList<>();
        held.forEach((ns, kinds) -> lines.add(DatastoreGateway.namespaceName(ns) + ": " + String.join(", ", kinds.keySet())));
        return text.append(" It holds ").append(String.join("; ", lines)).append(".").toString();
    }
}
