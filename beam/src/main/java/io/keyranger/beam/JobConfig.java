package io.keyranger.beam;

import com.google.cloud.datastore.Key;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.executor.PipelineJobs;
import io.keyranger.executor.cells.CellCommitter;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.executor.cells.EngineSeams;
import io.keyranger.executor.cells.PageLoop;
import io.keyranger.executor.cells.PageWork;
import io.keyranger.executor.cells.PartFiles;
import io.keyranger.executor.source.InputRun;
import io.keyranger.job.JobInput;
import io.keyranger.job.JobSpec;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.testhooks.FaultInjector;
import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;

/**
 * What every worker of a KeyRanger pipeline needs, in plain serializable values (no client, no secret): where the data
 * is, the job and its mapper, and the job's cell bounds (url-safe keys, deflated: a runner deserializes its DoFns
 * once a task, 192 times on a 64-slot Flink job, and a byte array reads at once where thousands of strings read char
 * by char).
 *
 * @param emulatorHost     host:port of an emulator, or null for production
 * @param projectId        the data's project
 * @param databaseId       the database, "" for the default one
 * @param namespace        the data's namespace
 * @param server           the server's type (its key order and limits)
 * @param kind             the kind
 * @param mapperJson       the mapper spec as JSON
 * @param jobId            the job id
 * @param pageSize         keys per page
 * @param bounds           the cells' bounds, url-safe, in key order, one a line, deflated ({@link #encode})
 * @param entitiesPerCell  the expected entities per cell (sizes and progress)
 * @param faults           fault injection for tests ({@code FaultInjector} syntax), or null
 * @param failAfterCommits for tests: a worker throws after every this many commits (0: never)
 * @param failures         for tests: how many such throws a JVM makes at most
 * @param planned          whether this launch planned the job ({@link PipelineJobs#planned}): nothing to skip
 * @param runId            this pipeline run (each launch of the job gets its own): what a worker keeps across its DoFn
 *                         instances is kept for one run
 */
record JobConfig(String emulatorHost, String projectId, String databaseId, String namespace, ServerType server,
                 String kind, String mapperJson, String jobId, int pageSize, ByteString bounds,
                 double entitiesPerCell, String faults, int failAfterCommits, int failures, boolean planned,
                 String runId)
        implements Serializable {
    ConnectionSpec connection() {
        return new ConnectionSpec(emulatorHost, projectId, databaseId, namespace, null, false, server);
    }

    /**
     * A client for the data, one per JVM and connection: a worker sets a DoFn up many times (192 on a 64-slot Flink
     * job), and a Datastore client is thread-safe and costly to open.
     */
    Session session() {
        return SESSIONS.computeIfAbsent(connection(), Session::open);
    }

    private static final ConcurrentMap<ConnectionSpec, Session> SESSIONS =
            new ConcurrentHashMap<>();

    /**
     * The job's cells, decoded once a JVM: a worker sets up a DoFn many times (192 on a 64-slot Flink job), and
     * decoding a url-safe key costs more than a page's commit work (7% of a Flink run's CPU went there).
     */
    CellPlan cells() {
        Map.Entry<List<Object>, CellPlan> last = DECODED.get();
        List<Object> id = List.of(jobId, server, bounds);
        if (last != null && last.getKey().equals(id)) {
            return last.getValue();
        }
        List<Key> keys = new ArrayList<>();
        decode(bounds).lines().forEach(b -> keys.add(Key.fromUrlSafe(b)));
        CellPlan plan = new CellPlan(server.keyOrder(), keys);
        DECODED.set(Map.entry(id, plan));
        return plan;
    }

    /** The cells last decoded in this JVM, with what they were decoded from. */
    private static final AtomicReference<Map.Entry<List<Object>, CellPlan>>
            DECODED = new AtomicReference<>();

    /**
     * The job's page work (its mapper, source and {@link CellCommitter}), made once per JVM and run, as a local run
     * makes it once for all its workers: a runner sets a DoFn up many times (192 on a 64-slot Flink job, three per
     * slot, of which only one processes ranges), and each committer read the counter's shards; a shared committer also
     * remembers where this run's commits reached, so a range resumed on another instance after a checkpoint divides
     * no cell there.
     */
    PageWork work() {
        PageWork work = WORK.compute(runId, (id, made) -> made != null && made.getKey().equals(this) ? made
                : Map.entry(this, openWork())).getValue();
        if (WORK.size() > RUNS_KEPT) { // a Flink cluster's task manager runs job after job
            WORK.keySet().removeIf(id -> !id.equals(runId)); // a run still going makes its work again
        }
        return work;
    }

    /** Runs whose page work a JVM keeps at most. */
    private static final int RUNS_KEPT = 4;

    /**
     * What a range's page loop knows committed before it: nothing but its own commits in a job this launch planned
     * (no ledger read per cell a range enters, nor again after each checkpoint), else each cell's ledger, read when a
     * range enters it.
     */
    PageLoop.Covered covered() {
        return planned ? PageLoop.Covered.nothing(server.keyOrder()) : PageLoop.Covered.READ;
    }

    /** The page work of the runs of this JVM, by run id (a test JVM runs many pipelines, each with its own). */
    private static final ConcurrentMap<String, Map.Entry<JobConfig, PageWork>> WORK = new ConcurrentHashMap<>();

    private PageWork openWork() {
        Session session = session();
        if (faults != null && !faults.isBlank()) {
            session = session.wrap(FaultInjector.parse(faults)::wrap);
        }
        CellPlan plan = cells();
        MapperSpec spec = MapperSpec.parse(mapperJson);
        JobSpec job = new JobSpec(jobId, namespace, kind, spec, 1, 1, pageSize, 0).bind(projectId, session.order());
        InputRun.Pages pages = InputRun.of(job).pages(session.datastore(), BeamFileStore.INSTANCE,
                session.order(), job); // keys, or a file's
        var mapper = pages.mapper();
        Retries.Policy retries = new Retries.Simple(10, 100, 5_000, 600_000);
        Session opened = session;
        CellCommitter committer = Retries.call(retries, Retries.Observer.NONE, () -> new CellCommitter(
                opened.datastore(), opened.order(), mapper, jobId, plan, opened.limits(),
                EngineSeams.NONE, parts(), ShardedCounter.existing(opened.datastore(), JobSpec.counterName(jobId))));
        return new PageWork(session.datastore(), job, session.order(), session.limits(), mapper, plan, committer,
                retries, pages.source());
    }

    /** The job's export parts, written through Beam's FileSystems; null for a job that writes no file. */
    PartFiles parts() {
        MapperSpec spec = MapperSpec.parse(mapperJson);
        if (JobInput.of(spec).bringsEntitiesIn()) {
            return null; // an import or a restore writes no file
        }
        return PartFiles.of(BeamFileStore.INSTANCE, Mappers.create(spec), spec, jobId, namespace, kind, null,
                projectId); // a pipeline runs a job of its own: a job over several kinds runs on this machine
    }

    /** The cells' bounds as {@link #bounds} keeps them. */
    static ByteString encode(List<Key> bounds) {
        StringBuilder lines = new StringBuilder();
        bounds.forEach(k -> lines.append(k.toUrlSafe()).append('\n'));
        ByteString.Output out = ByteString.newOutput();
        try (DeflaterOutputStream deflated = new DeflaterOutputStream(out)) {
            deflated.write(lines.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory
        }
        return out.toByteString();
    }

    private static String decode(ByteString bounds) {
        try (InflaterInputStream lines = new InflaterInputStream(bounds.newInput())) {
            return new String(lines.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("The job's cell bounds cannot be read: " + e.getMessage(), e);
        }
    }
}
