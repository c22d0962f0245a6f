package io.keyranger.datastore;

import com.google.cloud.datastore.Cursor;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityQuery;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StructuredQuery;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Read access to one database for browsing: namespaces, kinds, properties, counts and cursor-paged entities.
 * Every call names its namespace explicitly; "" is the default namespace. On a server without kind, namespace and
 * property metadata ({@link ServerType#listsKinds}) it lists the kinds KeyRanger knows now ({@link KnownKinds}) that
 * hold entities at the moment it reads, and properties from a sample; {@link #listsEverything} says which a listing
 * is.
 */
public final class DatastoreGateway {
    private final Datastore datastore;
    private final KeyCounter counter;
    /** False on a server known to have no metadata, or found to have none by its answer. */
    private volatile boolean metadata;

    /** A gateway to a server of type {@code server}. */
    public DatastoreGateway(Datastore datastore, ServerType server) {
        this.datastore = datastore;
        this.counter = new KeyCounter(datastore);
        this.metadata = server.listsKinds();
    }

    /**
     * A gateway to a server whose type the caller does not hold: it asks for metadata, and a server that answers
     * with the exact "not supported" error is from then on treated as one without.
     */
    public DatastoreGateway(Datastore datastore) {
        this(datastore, ServerType.PRODUCTION);
    }

    /**
     * Whether {@link #namespaces} and {@link #kinds} list everything there is (the server's metadata), rather than
     * only the kinds KeyRanger knows of ({@link KnownKinds#WHY}), and {@link #properties} come from the metadata
     * rather than a sample of entities.
     */
    public boolean listsEverything() {
        return metadata;
    }

    public Datastore datastore() {
        return datastore;
    }

    /** All namespaces that hold data, the default one ("") first. */
    public List<String> namespaces() {
        if (metadata) {
            try {
                return listedNamespaces();
            } catch (DatastoreException e) {
                noMetadata(e);
            }
        }
        return KnownKinds.namespaces(registry());
    }

    private List<String> listedNamespaces() {
        KeyQuery query = Query.newKeyQueryBuilder().setNamespace("").setKind("__namespace__").build();
        List<String> names = new ArrayList<>();
        QueryResults<Key> results = datastore.run(query);
        while (results.hasNext()) {
            Key key = results.next();
            names.add(key.hasName() ? key.getName() : "");
        }
        names.sort(String::compareTo);
        return names;
    }

    /** Kinds in a namespace, sorted; reserved and bookkeeping kinds only when asked for. */
    public List<String> kinds(String namespace, boolean includeHidden) {
        if (metadata) {
            try {
                return listedKinds(namespace, includeHidden);
            } catch (DatastoreException e) {
                noMetadata(e);
            }
        }
        List<String> kinds = new ArrayList<>();
        for (String kind : KnownKinds.in(registry(), namespace)) {
            if (kindExists(namespace, kind)) { // as of the moment this gateway reads
                kinds.add(kind);
            }
        }
        return kinds;
    }

    /**
     * On a server that cannot list kinds, records that {@code kind} (named by a user and found, or written by
     * KeyRanger) holds entities in {@code namespace}, so later listings show it; nothing elsewhere.
     */
    public void remember(String namespace, String kind) {
        if (!metadata) {
            KnownKinds.record(registry(), namespace, kind); // live, even when this gateway reads the past
        }
    }

    /**
     * Where the {@link KnownKinds} registry is read and noted in: always the live database, even by a gateway reading
     * the past, since a kind that held entities at a past moment may have been first noted since; each is then
     * checked there.
     */
    private Datastore registry() {
        return PastReads.live(datastore);
    }

    private void noMetadata(DatastoreException e) {
        if (!KnownKinds.isNoMetadata(e)) {
            throw e;
        }
        metadata = false;
    }

    private List<String> listedKinds(String namespace, boolean includeHidden) {
        KeyQuery query = Query.newKeyQueryBuilder().setNamespace(namespace).setKind("__kind__").build();
        List<String> kinds = new ArrayList<>();
        datastore.run(query).forEachRemaining(key -> {
            String kind = key.getName();
            if (includeHidden || !BookkeepingKinds.isHidden(kind)) {
                kinds.add(kind);
            }
        });
        kinds.sort(String::compareTo);
        return kinds;
    }

    /** Entities read to tell integers from timestamps and strings from blobs (both share an index representation). */
    public static final int TYPE_SAMPLE = 200;

    /** A namespace as messages name it: "the default namespace" for "", else "namespace 'NS'". */
    public static String namespaceName(String namespace) {
        return namespace.isEmpty() ? "the default namespace" : "namespace '" + namespace + "'";
    }

    /**
     * Properties of a kind with their value types as a user reads them: {@code __property__} says which index
     * representations each has (unindexed properties do not appear); where one stands for two types (INT64: integer
     * or timestamp; STRING: string or blob), a sample of up to {@link #TYPE_SAMPLE} entities spread over the kind
     * (ordered by {@code __scatter__}) says which are there. A type the sample did not meet stays ambiguous
     * ("integer/timestamp"), never guessed.
     */
    public List<PropertyInfo> properties(String namespace, String kind) {
        if (!metadata) {
            return sampledProperties(namespace, kind);
        }
        Key kindKey = datastore.newKeyFactory().setNamespace(namespace).setKind("__kind__").newKey(kind);
        EntityQuery query = Query.newEntityQueryBuilder().setNamespace(namespace).setKind("__property__")
                .setFilter(PropertyFilter.hasAncestor(kindKey)).build();
        Map<String, List<String>> representations = new TreeMap<>();
        datastore.run(query).forEachRemaining(entity -> {
            List<String> reps = representations.computeIfAbsent(entity.getKey().getName(), n -> new ArrayList<>());
            if (entity.contains("property_representation")) {
                for (Value<?> value : entity.getList("property_representation")) {
                    reps.add(((StringValue) value).get());
                }
            }
        });
        Map<String, Set<String>> seen = representations.values().stream()
                .anyMatch(r -> r.contains("INT64") || r.contains("STRING")) ? sampleTypes(namespace, kind) : Map.of();
        List<PropertyInfo> result = new ArrayList<>();
        representations.forEach((name, reps) -> {
            List<String> types = new ArrayList<>();
            for (String rep : reps) {
                for (String type : PropertyInfo.readableTypes(rep, seen.getOrDefault(name, Set.of()))) {
                    if (!types.contains(type)) {
                        types.add(type);
                    }
                }
            }
            result.add(new PropertyInfo(name, types));
        });
        return result;
    }

    /**
     * Properties of a kind as met in the first {@link #TYPE_SAMPLE} entities in key order, for a server without
     * {@code __property__} metadata: unindexed properties too, and only those the sample holds.
     */
    private List<PropertyInfo> sampledProperties(String namespace, String kind) {
        List<PropertyInfo> result = new ArrayList<>();
        sampleTypes(namespace, kind).forEach((name, types) -> result.add(new PropertyInfo(name,
                types.isEmpty() ? List.of("list") : types.stream().sorted().toList())));
        return result;
    }

    /** The value types met per property in a sample of the kind spread by {@code __scatter__}. */
    private Map<String, Set<String>> sampleTypes(String namespace, String kind) {
        Map<String, Set<String>> seen = new TreeMap<>();
        List<Entity> sample = new ArrayList<>();
        try {
            datastore.run(Query.newEntityQueryBuilder().setNamespace(namespace).setKind(kind)
                    .setOrderBy(StructuredQuery.OrderBy.asc("__scatter__"))
                    .setLimit(TYPE_SAMPLE).build()).forEachRemaining(sample::add);
        } catch (DatastoreException noScatter) {
            // a server without __scatter__: the first entities in key order
        }
        if (sample.isEmpty()) {
            datastore.run(Query.newEntityQueryBuilder().setNamespace(namespace).setKind(kind).setLimit(TYPE_SAMPLE)
                    .build()).forEachRemaining(sample::add);
        }
        for (Entity entity : sample) {
            for (String name : entity.getNames()) {
                addTypes(seen.computeIfAbsent(name, n -> new HashSet<>()), entity.getValue(name));
            }
        }
        return seen;
    }

    private static void addTypes(Set<String> into, Value<?> value) {
        switch (value.getType()) {
            case LONG -> into.add("integer");
            case TIMESTAMP -> into.add("timestamp");
            case STRING -> into.add("string");
            case BLOB -> into.add("blob");
            case DOUBLE -> into.add("double");
            case BOOLEAN -> into.add("boolean");
            case LAT_LNG -> into.add("geo point");
            case KEY -> into.add("key");
            case NULL -> into.add("null");
            case ENTITY -> into.add("entity");
            case LIST -> ((List<? extends Value<?>>) ((ListValue) value).get())
                    .forEach(v -> addTypes(into, v));
            default -> { }
        }
    }

    /**
     * Counts a kind exactly: COUNT aggregation where the server has it, otherwise a keys-only scan with progress
     * that honours cancellation.
     */
    public EntityCount count(String namespace, String kind, ProgressListener progress, Cancellation cancellation) {
        return counter.count(namespace, kind, null, progress, cancellation);
    }

    /** Reads one page of a kind in key order, starting at {@code cursor} (null for the first page). */
    public EntityPage page(String namespace, String kind, Cursor cursor, int pageSize) {
        EntityQuery.Builder builder = Query.newEntityQueryBuilder().setNamespace(namespace).setKind(kind)
                .setLimit(pageSize + 1);
        if (cursor != null) {
            builder.setStartCursor(cursor);
        }
        QueryResults<Entity> results = datastore.run(builder.build());
        List<Entity> entities = new ArrayList<>(pageSize);
        Cursor endCursor = null;
        Iterator<Entity> it = results;
        while (it.hasNext()) {
            if (entities.size() == pageSize) {
                // One more entity exists: the next page starts after the last one shown.
                return new EntityPage(entities, endCursor);
            }
            entities.add(it.next());
            endCursor = results.getCursorAfter();
        }
        return new EntityPage(entities, null);
    }

    /** Whether a kind has at least one entity in the namespace. */
    public boolean kindExists(String namespace, String kind) {
        KeyQuery query = Query.newKeyQueryBuilder().setNamespace(namespace).setKind(kind).setLimit(1).build();
        return datastore.run(query).hasNext();
    }
}
