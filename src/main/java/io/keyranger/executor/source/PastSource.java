package io.keyranger.executor.source;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import io.keyranger.executor.cells.CommitBytes;
import io.keyranger.executor.cells.PageSource;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.SourceRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * The database at a past moment as a job's pages ({@code restore --as-of T}): the kind's real keys, so its cells and
 * ranges are the kind's key space. A page is the keys the kind had at T, merged with those it had at the later moment
 * ({@code --until}) or, to find what was added since, the live ones; with a keys file, those keys only. Each key's
 * record holds its entity at T and at the later moment. History does not change, so a page read again (a retry, a
 * resume, another runner) holds the same records; the live keys only widen which keys are looked at, and each is
 * decided against its live entity in the commit's transaction.
 *
 * @param then      the client reading at T
 * @param later     the client reading at the later moment, or null
 * @param live      the live client whose keys are merged in (for --remove-added without --until), or null
 * @param namespace the namespace restored
 * @param kind      the kind restored
 * @param order     the server's key order
 * @param keys      the only keys restored, in key order, or null for all
 */
public record PastSource(Datastore then, Datastore later, Datastore live, String namespace, String kind,
                         KeyOrder order, NavigableSet<Key> keys) implements PageSource {
    @Override
    public Page fetch(KeyRange range, int offset, int limit) {
        if (offset > 0) {
            throw new IllegalArgumentException("the past is read by key ranges only");
        }
        NavigableSet<Key> merged = new TreeSet<>(order);
        if (keys != null) {
            merged.addAll(keysIn(keys, range, limit, order));
        } else {
            merged.addAll(keysAt(then, range, limit));
            Datastore other = later != null ? later : live;
            if (other != null) {
                merged.addAll(keysAt(other, range, limit));
            }
        }
        List<Key> page = first(merged, limit);
        Map<Key, Entity> atThen = lookup(then, page);
        Map<Key, Entity> atLater = later == null ? Map.of() : lookup(later, page);
        Map<Key, SourceRecord> records = new HashMap<>();
        page.forEach(key -> records.put(key, SourceRecord.past(atThen.get(key), atLater.get(key))));
        return new Page(page, records);
    }

    /** Up to {@code limit} of {@code keys} (in {@code order}) that {@code range} holds, in order. */
    static List<Key> keysIn(NavigableSet<Key> keys, KeyRange range, int limit, KeyOrder order) {
        List<Key> in = new ArrayList<>();
        for (Key key : range.start() == null ? keys : keys.tailSet(range.start(), true)) {
            if (in.size() >= limit || range.end() != null && order.compare(key, range.end()) >= 0) {
                break;
            }
            if (range.contains(key)) {
                in.add(key);
            }
        }
        return in;
    }

    /**
     * The first {@code limit} of {@code merged}: merged from sorted lists each cut to {@code limit}, they are the
     * union's first {@code limit}.
     */
    static List<Key> first(NavigableSet<Key> merged, int limit) {
        List<Key> page = new ArrayList<>(Math.min(limit, merged.size()));
        for (Key key : merged) {
            if (page.size() == limit) {
                break;
            }
            page.add(key);
        }
        return page;
    }

    private List<Key> keysAt(Datastore datastore, KeyRange range, int limit) {
        KeyQuery query = range.applyTo(Query.newKeyQueryBuilder().setNamespace(namespace).setKind(kind), List.of())
                .setLimit(limit).build();
        List<Key> found = new ArrayList<>(limit);
        datastore.run(query).forEachRemaining(found::add);
        return found;
    }

    /** {@code keys} looked up as a lookup may ask ({@link CommitBytes#lookup}: a page can hold more than one takes). */
    private static Map<Key, Entity> lookup(Datastore datastore, List<Key> keys) {
        Map<Key, Entity> found = new HashMap<>();
        for (Entity e : CommitBytes.lookup(keys, datastore::fetch)) {
            if (e != null) {
                found.put(e.getKey(), e);
            }
        }
        return found;
    }
}
