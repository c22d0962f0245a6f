package io.keyranger.executor.cells;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.job.JobSpec;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.PageMapper;
import java.util.List;

/**
 * A job's work as the page loop of any runner does it ({@link PageLoop}): the connection and its key order and
 * limits, the job's spec and cells, where its pages come from, its mapper and committer, the retries of calls made
 * outside a runner's own, and the engine's seams.
 */
public record PageWork(Datastore datastore, JobSpec spec, KeyOrder order, ServerLimits limits, PageMapper mapper,
                       CellPlan cells, CellCommitter committer, Retries.Policy retries, PageSource source,
                       EngineSeams seams) {
    /** Work over {@code source}'s pages, with no seams. */
    public PageWork(Datastore datastore, JobSpec spec, KeyOrder order, ServerLimits limits, PageMapper mapper,
                    CellPlan cells, CellCommitter committer, Retries.Policy retries, PageSource source) {
        this(datastore, spec, order, limits, mapper, cells, committer, retries, source, EngineSeams.NONE);
    }

    /** Work over its kind's keys, with no seams. */
    public PageWork(Datastore datastore, JobSpec spec, KeyOrder order, ServerLimits limits, PageMapper mapper,
                    CellPlan cells, CellCommitter committer, Retries.Policy retries) {
        this(datastore, spec, order, limits, mapper, cells, committer, retries,
                new KindSource(datastore, spec, mapper));
    }

    /** The first key in {@code range} the job reads, or null (one call, not retried). */
    public Key firstKey(KeyRange range) {
        List<Key> found = source.fetch(range, 0, 1).keys();
        return found.isEmpty() ? null : found.get(0);
    }
}
