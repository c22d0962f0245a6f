package io.keyranger.executor.cells;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import io.keyranger.job.JobSpec;
import io.keyranger.keys.KeyRange;
import java.util.ArrayList;
import java.util.List;

/**
 * The keys of a job's kind (those its query's equality filters take), read with key-only queries over a range; for a
 * job with a read time ({@link ReadTimeMapper}), the keys the kind had at that moment.
 *
 * @param datastore the client the keys are read with: at the job's read time when it has one
 * @param spec      the job
 */
public record KindSource(Datastore datastore, JobSpec spec) implements PageSource {
    public KindSource {
        datastore = ReadTimeMapper.reader(datastore, spec);
    }

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
