package io.keyranger.executor.cells;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import io.keyranger.job.JobSpec;
import io.keyranger.keys.KeyRange;
import java.util.ArrayList;
import java.util.List;

/** The keys of a job's kind (those its query's equality filters take), read with key-only queries over a range. */
public record KindSource(Datastore datastore, JobSpec spec) implements PageSource {
    @Override
    public Page fetch(KeyRange range, int offset, int limit) {
        KeyQuery.Builder query = range.applyTo(Query.newKeyQueryBuilder().setNamespace(spec.namespace())
                .setKind(spec.kind()), spec.mapper().where()).setLimit(limit);
        if (offset > 0) {
            query.setOffset(offset);
        }
        List<Key> keys = new ArrayList<>(limit);
        datastore.run(query.build()).forEachRemaining(keys::add);
        return Page.of(keys);
    }
}
