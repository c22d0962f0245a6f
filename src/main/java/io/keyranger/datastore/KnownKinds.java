package io.keyranger.datastore;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import java.io.IOException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The kinds KeyRanger has seen on a server that cannot list them ({@link ServerType#listsKinds}, the Firestore
 * emulator): those a user named and KeyRanger found there, those KeyRanger wrote, and the kinds of its stored jobs
 * (and those its copy jobs write to).
 * Kept in the database ({@code _KeyRangerKnownKind}, one entity per namespace and kind), so the CLI, the app and every
 * project see their own list. It is only ever a partial list, and every listing built from it says so.
 */
public final class KnownKinds {
    static final String KIND = BookkeepingKinds.PREFIX + "KnownKind";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Why a listing shows only some kinds, for the CLI and the app. */
    public static final String WHY = "This server (the Firestore emulator in Datastore mode) cannot list kinds or "
            + "namespaces: listed are the kinds KeyRanger has written, run jobs over, or been given and found here.";

    private KnownKinds() {
    }

    /** Records that {@code kind} holds entities in {@code namespace} ({@link DatastoreGateway#remember} decides when). */
    static void record(Datastore datastore, String namespace, String kind) {
        if (BookkeepingKinds.isHidden(kind)) {
            return;
        }
        datastore.put(Entity.newBuilder(key(datastore, namespace, kind)).set("namespace", namespace)
                .set("kind", kind).build());
    }

    /** The kinds known in {@code namespace}, sorted (whether they still hold entities is the caller's to check). */
    public static List<String> in(Datastore datastore, String namespace) {
        TreeSet<String> kinds = new TreeSet<>();
        for (String kind : List.of(KIND, BookkeepingKinds.JOB)) {
            datastore.run(Query.newEntityQueryBuilder().setNamespace("").setKind(kind)
                    .setFilter(PropertyFilter.eq("namespace", namespace)).build())
                    .forEachRemaining(e -> kinds.add(e.getString("kind")));
        }
        copyTargets(datastore).stream().filter(t -> t.get(0).equals(namespace)).forEach(t -> kinds.add(t.get(1)));
        kinds.removeIf(BookkeepingKinds::isHidden);
        return List.copyOf(kinds);
    }

    /** The namespaces known: the default one, and those of recorded kinds and stored jobs, sorted. */
    public static List<String> namespaces(Datastore datastore) {
        TreeSet<String> namespaces = new TreeSet<>(List.of(""));
        for (String kind : List.of(KIND, BookkeepingKinds.JOB)) {
            datastore.run(Query.newEntityQueryBuilder().setNamespace("").setKind(kind).build())
                    .forEachRemaining(e -> namespaces.add(e.contains("namespace") ? e.getString("namespace") : ""));
        }
        copyTargets(datastore).forEach(t -> namespaces.add(t.get(0)));
        return List.copyOf(namespaces);
    }

    /**
     * Where the stored copy jobs write: [namespace, kind] of each, from the job's mapper ({@code toKind},
     * {@code toNamespace}, each defaulting to the job's own). A copy job writes a kind, often a new one, that
     * KeyRanger has then written, whether the CLI, the app or Beam ran it.
     */
    private static List<List<String>> copyTargets(Datastore datastore) {
        List<List<String>> targets = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setNamespace("").setKind(BookkeepingKinds.JOB).build())
                .forEachRemaining(job -> {
                    if (!job.contains("mapper") || !job.contains("kind")) {
                        return;
                    }
                    JsonNode mapper;
                    try {
                        mapper = JSON.readTree(job.getString("mapper"));
                    } catch (IOException e) {
                        return; // not a spec KeyRanger wrote: nothing to learn from it
                    }
                    if (!"copy".equals(mapper.path("template").asText())) {
                        return;
                    }
                    String namespace = job.contains("namespace") ? job.getString("namespace") : "";
                    targets.add(List.of(mapper.path("toNamespace").isTextual() ? mapper.get("toNamespace").asText()
                            : namespace, mapper.path("toKind").isTextual() ? mapper.get("toKind").asText()
                            : job.getString("kind")));
                });
        return targets;
    }

    private static Key key(Datastore datastore, String namespace, String kind) {
        // namespaces hold no '/' (Datastore allows [0-9A-Za-z._-] only), so the name is unambiguous
        return datastore.newKeyFactory().setNamespace("").setKind(KIND).newKey(namespace + "/" + kind);
    }

    /** Whether {@code e} is the exact error a server without kind, namespace or property metadata answers with. */
    public static boolean isNoMetadata(DatastoreException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        return message.contains("Kind queries are not supported") || message.contains("Namespace queries are not supported");
    }
}
