package io.keyranger.job;

import io.keyranger.KeyRangerException;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.MapperSpec;

/**
 * A job: a mapper over every entity of a kind, fanned out over key ranges.
 *
 * @param jobId      its id; also names its bookkeeping entities
 * @param namespace  the namespace of the data
 * @param kind       the kind
 * @param mapper     the mapper spec (its where clauses filter the query)
 * @param shards     how many ranges to plan up front
 * @param workers    the most ranges processed at once
 * @param pageSize   keys fetched per page
 * @param qps        the most entity operations per second, 0 for no limit
 * @param group      the id of the job over several kinds that this job is one kind of ({@link io.keyranger.group.KindGroup}), or null
 */
public record JobSpec(String jobId, String namespace, String kind, MapperSpec mapper, int shards, int workers,
                      int pageSize, int qps, String group) {
    /** A job of its own, in no group. */
    public JobSpec(String jobId, String namespace, String kind, MapperSpec mapper, int shards, int workers,
                   int pageSize, int qps) {
        this(jobId, namespace, kind, mapper, shards, workers, pageSize, qps, null);
    }

    /** The name of a job's sharded counters (its totals), whichever runner commits to them. */
    public static String counterName(String jobId) {
        return "job:" + jobId;
    }

    public JobSpec {
        if (jobId == null || !jobId.matches("[A-Za-z0-9_.-]{1,100}")) {
            throw new KeyRangerException("A job id is 1-100 letters, digits, '.', '_' or '-' (got '" + jobId + "').");
        }
        if (kind == null || kind.isBlank()) {
            throw new KeyRangerException("A job needs a kind.");
        }
        namespace = namespace == null ? "" : namespace;
        if (mapper != null && mapper.query() != null && !mapper.query().kind().equals(kind)) {
            throw new KeyRangerException("The query reads kind '" + mapper.query().kind() + "' but the job is over '"
                    + kind + "': give the same kind, or leave --kind out.");
        }
        check("shards", shards, 1, 4096);
        check("workers", workers, 1, 512);
        check("page size", pageSize, 1, 5000);
        check("qps", qps, 0, 1_000_000);
    }

    private static void check(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new KeyRangerException("The " + name + " must be between " + min + " and " + max + " (got " + value
                    + ").");
        }
    }

    /** This job with {@code other} as its mapper spec. */
    public JobSpec withMapper(MapperSpec other) {
        return new JobSpec(jobId, namespace, kind, other, shards, workers, pageSize, qps, group);
    }

    /** This job with its query's KEY(...) literals in this project and its client conditions in this key order. */
    public JobSpec bind(String projectId, KeyOrder order) {
        return new JobSpec(jobId, namespace, kind, mapper.bind(projectId, namespace, order), shards, workers, pageSize,
                qps, group);
    }
}
