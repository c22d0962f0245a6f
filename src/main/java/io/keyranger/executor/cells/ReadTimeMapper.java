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
 * count as of a time. Its pages come from {@link KindSource}'s query at that moment, with their entities when its mapper
 * needs them (they never change: {@link #pageEntitiesFixed}), outside the commit's transaction (a read-write transaction
 * cannot carry a read time); the commit then reads and writes only the job's ledgers and counters, exactly once as for
 * any job, in as many calls as a live read's. Every page, whenever and on whichever
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

    /**
     * The entities at the job's read time never change: the page query reads them with their keys, at that moment
     * ({@link KindSource}), and a commit's one lookup reads only its ledgers. A lookup of the page's keys at that
     * moment, one more call a page than a live read, is then never needed.
     */
    @Override
    public boolean pageEntitiesFixed() {
        return inner.needsEntities();
    }

    @Override
    public MapResult map(Page page) {
        if (!inner.needsEntities() || page.keys().isEmpty() || !page.entities().isEmpty()) {
            return inner.map(page);
        }
        // a page that came without its entities (from a source other than the kind's query): read them at the moment
        List<Entity> entities = CommitBytes.lookup(page.keys(), past::fetch).stream().filter(Objects::nonNull)
                .toList();
        return inner.map(new Page(page.keys(), entities, page.related(), page.records()));
    }
}
