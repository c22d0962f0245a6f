package io.keyranger.executor.cells;

import io.keyranger.keys.KeyFormat;
import io.keyranger.mapper.MapResult;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs the entities a job's mapper skipped with a reason, once their chunk has committed: the first
 * {@value #LIMIT} with key and reason, then one line saying the rest are only counted (the job's
 * "skipped: REASON" counters hold them all).
 */
public final class SkipLog {
    private static final Logger LOG = LoggerFactory.getLogger(SkipLog.class);
    public static final int LIMIT = 100;

    private final String jobId;
    private final AtomicInteger logged = new AtomicInteger();

    public SkipLog(String jobId) {
        this.jobId = jobId;
    }

    public void committed(List<MapResult.Problem> problems) {
        for (MapResult.Problem problem : problems) {
            int n = logged.incrementAndGet();
            if (n <= LIMIT) {
                LOG.warn("Job {} skipped {}: {}", jobId, KeyFormat.format(problem.key()), problem.reason());
            } else if (n == LIMIT + 1) {
                LOG.warn("Job {} skipped more entities; they are counted in its 'skipped: ...' counters only", jobId);
            }
        }
    }
}
