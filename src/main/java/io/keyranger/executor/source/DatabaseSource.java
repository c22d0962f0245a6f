package io.keyranger.executor.source;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityQuery;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.DatabasePlacement;
import io.keyranger.executor.cells.CommitBytes;
import io.keyranger.executor.cells.PageSource;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.SourceRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Another database's kind as a job's pages ({@code restore --from-project}): the job's ranges are the connected
 * partition's key space, which holds the same paths as the source's, so a range is read in the source with its bounds
 * placed there. A page is the entities the source holds in the range (one query, no lookup after it), their keys
 * placed in the connected partition, merged (to find what the source does not hold) with the connected kind's own
 * keys; with a keys file, those keys only, looked up. With a kind renamed ({@code --to-kind}), a page's keys keep the
 * source's paths and kind (positions, as a file's are: {@link RenamedKind}), and its records the entities renamed. Each key's
 * record holds the source's entity as placed here ({@link DatabasePlacement}). The source is read at one moment where
 * its server keeps versions, so a page read again (a retry, a resume, another runner) holds the same records.
 *
 * @param source    the source's client, reading at the job's moment (or live, where its server keeps no past)
 * @param live      the connected database's live client, whose keys are merged in (--remove-added), or null
 * @param placement where the source's entities go
 * @param kind      the kind copied, as the source names it
 * @param order     the key order both servers share
 * @param keys      the only keys copied (the source's paths in the connected partition), in key order, or null for
 *                  all
 * @param takes     with {@code --with-ancestors}, which of the source's entities (as placed) the job takes: a page
 *                  also holds a record of each of their ancestors outside it (its entity as placed, or none where
 *                  the source holds none), looked up in the source at the same moment; null without
 */
public record DatabaseSource(Datastore source, Datastore live, DatabasePlacement placement, String kind,
                             KeyOrder order, NavigableSet<Key> keys, Predicate<Entity> takes) implements PageSource {
    @Override
    public Page fetch(KeyRange range, int offset, int limit) {
        if (offset > 0) {
            throw new IllegalArgumentException("another database is read by key ranges only");
        }
        NavigableSet<Key> merged = new TreeSet<>(order);
        Map<Key, Entity> there = new HashMap<>();
        DatabasePlacement paths = placement.keepingKinds(); // the page's keys: the source's paths, placed here
        if (keys != null) {
            merged.addAll(PastSource.keysIn(keys, range, limit, order));
        } else {
            // one query reads the source's entities themselves: no lookup after it (they are fixed at the moment)
            for (Entity e : entitiesAt(placement.from().namespace(), range.placed(paths::source), limit)) {
                Key at = paths.target(e.getKey());
                merged.add(at);
                there.put(at, placement.place(e));
            }
            if (live != null) {
                merged.addAll(keysAt(live, placement.to().namespace(), range, limit));
            }
        }
        List<Key> page = PastSource.first(merged, limit);
        if (keys != null) {
            for (Entity e : CommitBytes.lookup(page.stream().map(paths::source).toList(), source::fetch)) {
                if (e != null) {
                    there.put(paths.target(e.getKey()), placement.place(e));
                }
            }
        }
        Map<Key, SourceRecord> records = new HashMap<>();
        page.forEach(key -> records.put(key, SourceRecord.past(there.get(key), null)));
        if (takes != null) {
            records.putAll(ancestors(page, there, paths));
        }
        return new Page(page, records);
    }

    /**
     * The records of the ancestors outside {@code page} of the entities it takes, looked up in the source in one
     * lookup (as a lookup may ask): each one's entity as placed, or none where the source holds none.
     */
    private Map<Key, SourceRecord> ancestors(List<Key> page, Map<Key, Entity> there, DatabasePlacement paths) {
        Set<Key> in = new HashSet<>(page);
        Set<Key> wanted = new LinkedHashSet<>();
        for (Key key : page) {
            Entity taken = there.get(key);
            if (taken != null && takes.test(taken)) {
                ancestors(key).stream().filter(a -> !in.contains(a)).forEach(wanted::add);
            }
        }
        Map<Key, SourceRecord> records = new HashMap<>();
        wanted.forEach(a -> records.put(a, SourceRecord.past(null, null)));
        for (Entity e : CommitBytes.lookup(wanted.stream().map(paths::source).toList(), source::fetch)) {
            if (e != null) {
                records.put(paths.target(e.getKey()), SourceRecord.past(placement.place(e), null));
            }
        }
        return records;
    }

    /** The ancestors of {@code key}, its parent first. */
    static List<Key> ancestors(Key key) {
        List<Key> up = new ArrayList<>(key.getAncestors().size());
        for (Key parent = key.getParent(); parent != null; parent = parent.getParent()) {
            up.add(parent);
        }
        return up;
    }

    private List<Entity> entitiesAt(String namespace, KeyRange range, int limit) {
        EntityQuery query = range.applyTo(Query.newEntityQueryBuilder().setNamespace(namespace).setKind(kind),
                List.of()).setLimit(limit).build();
        List<Entity> found = new ArrayList<>(limit);
        source.run(query).forEachRemaining(found::add);
        return found;
    }

    private List<Key> keysAt(Datastore datastore, String namespace, KeyRange range, int limit) {
        KeyQuery query = range.applyTo(Query.newKeyQueryBuilder().setNamespace(namespace).setKind(kind), List.of())
                .setLimit(limit).build();
        List<Key> found = new ArrayList<>(limit);
        datastore.run(query).forEachRemaining(found::add);
        return found;
    }
}
