package io.keyranger.executor.cells;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery;
import io.keyranger.job.JobSpec;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.PageMapper;
import io.keyranger.mapper.SourceRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The keys of a job's kind (those its query's equality filters take), read with key-only queries over a range; for a
 * job with a read time ({@link ReadTimeMapper}), the keys the kind had at that moment. For a mapper whose page
 * entities never change ({@link PageMapper#pageEntitiesFixed}: a revert's undo records) the query reads the entities
 * too, each page key's record holding its entity, so that no commit reads them again.
 *
 * @param datastore the client the keys are read with: at the job's read time when it has one
 * @param spec      the job
 * @param entities  whether its pages bring their entities
 */
public record KindSource(Datastore datastore, JobSpec spec, boolean entities) implements PageSource {
    public KindSource {
        datastore = ReadTimeMapper.reader(datastore, spec);
    }

    /** The pages of job {@code spec}'s kind as its {@code mapper} reads them. */
    public KindSource(Datastore datastore, JobSpec spec, PageMapper mapper) {
        this(datastore, spec, mapper.pageEntitiesFixed());
    }

    @Override
    public Page fetch(KeyRange range, int offset, int limit) {
        List<Key> keys = new ArrayList<>(limit);
        if (!entities) {
            datastore.run(query(range, Query.newKeyQueryBuilder(), offset, limit)).forEachRemaining(keys::add);
            return Page.of(keys);
        }
        Map<Key, SourceRecord> records = new HashMap<>();
        datastore.run(query(range, Query.newEntityQueryBuilder(), offset, limit)).forEachRemaining(entity -> {
            keys.add(entity.getKey());
            records.put(entity.getKey(), SourceRecord.of(entity));
        });
        return new Page(keys, records);
    }

    private <V, B extends StructuredQuery.Builder<V>> Query<V> query(KeyRange range, B builder, int offset, int limit) {
        B query = range.applyTo(builder, spec.mapper().where());
        query.setNamespace(spec.namespace()).setKind(spec.kind()).setLimit(limit);
        if (offset > 0) {
            query.setOffset(offset);
        }
        return query.build();
    }
}
