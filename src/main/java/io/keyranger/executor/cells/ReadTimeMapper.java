package io.keyranger.executor.cells;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.PastReads;
import io.keyranger.job.JobSpec;
import io.keyranger.mapper.DelegatingMapper;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The mapper of a job that reads the database as it was at one moment (its spec's read time): a consistent export, a
 * count as of a time. Its pages' keys come from {@link KindSource} at that moment, and their entities from a lookup at
 * that moment here, outside the commit's transaction (a read-write transaction cannot carry a read time); the commit
 * then writes only the job's ledgers and counters, exactly once as for any job. Every page, whenever and on whichever
 * runner it is read, reads the same snapshot. Only a job that writes nothing can: the past is read-only.
 */
public final class ReadTimeMapper extends DelegatingMapper {
    private final Datastore past;

    private ReadTimeMapper(PageMapper inner, Datastore past) {
        super(inner);
        this.past = past;
    }

    /** {@code mapper} for job {@code spec}: reading at the spec's read time when it has one, else itself. */
    public static PageMapper of(Datastore datastore, JobSpec spec, PageMapper mapper) {
        Instant time = spec.mapper().readTime();
        if (time == null) {
            return mapper;
        }
        if (mapper.writes() || mapper.readsSource()) {
            throw new KeyRangerException("'" + spec.mapper().template() + "' writes, and the past is for reading "
                    + "only: a job as of a time exports or counts. To bring the past back, use keyranger restore "
                    + "--as-of.");
        }
        return new ReadTimeMapper(mapper, reader(datastore, spec));
    }

    /** {@code datastore} reading at job {@code spec}'s read time, or itself for a job that reads live data. */
    public static Datastore reader(Datastore datastore, JobSpec spec) {
        Instant time = spec.mapper().readTime();
        return time == null ? datastore
                : PastReads.at(datastore, Timestamp.ofTimeSecondsAndNanos(time.getEpochSecond(), time.getNano()));
    }

    /** The entities are read here, at the job's read time, not in the commit's transaction. */
    @Override
    public boolean needsEntities() {
        return false;
    }

    @Override
    public MapResult map(Page page) {
        if (!inner.needsEntities() || page.keys().isEmpty()) {
            return inner.map(page);
        }
        List<Entity> entities = CommitBytes.lookup(page.keys(), past::fetch).stream().filter(Objects::nonNull)
                .toList();
        return inner.map(new Page(page.keys(), entities, page.related(), page.records()));
    }
}
