package io.keyranger.bench;

import io.keyranger.job.LeaseMode;
import io.keyranger.job.JobIds;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.KeyFactory;
import io.keyranger.KeyRangerException;
import io.keyranger.backup.RestoreSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.Session;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RestoreMode;
import io.keyranger.job.RetryPolicy;
import io.keyranger.executor.Engine;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.mapper.MapperSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A team's worst day on one kind, each step a job started as the command line starts it ({@link Engine#start}):
 * an increment over the kind, a managed export of it, a delete of the kind, a restore from the export (what
 * {@code keyranger restore --export DIR --kind K} runs), a JSON-lines export, a second delete and an import of the
 * JSON-lines file. Each step is timed alone and checked against the server before the next one: entity counts, and
 * after the exports, the restore and the import a digest of every entity equal to the kind's after the increment. The
 * server is quiet (no latency) while the kind is seeded and checked.
 */
public final class BackupsBench {
    public static final String INCREMENT = "increment";
    public static final String RESTORE = "restore";
    public static final String IMPORT = "import";

    /**
     * One step of the run.
     *
     * @param name       what it did
     * @param entities   the entities it covered
     * @param wallMillis its wall time
     * @param verified   whether the server (or the file it wrote) holds what it should afterwards
     * @param detail     what was checked, or what differed
     */
    public record Step(String name, long entities, long wallMillis, boolean verified, String detail) {
        public double entitiesPerSecond() {
            return entities * 1000.0 / Math.max(1, wallMillis);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Session session;
    private final Datastore datastore;
    private final Engine launcher;
    private final Consumer<Boolean> quiet;
    private final Consumer<String> log;

    /**
     * @param quiet told true while nothing is timed (seeding, checking), false while a step runs: the production
     *              model then waits no latency outside the steps
     */
    public BackupsBench(Session session, Consumer<Boolean> quiet, Consumer<String> log) {
        this.session = session;
        this.datastore = session.datastore();
        this.launcher = new Engine(session, RetryPolicy.DEFAULT, JobLease.DEFAULT_DURATION);
        this.quiet = quiet;
        this.log = log;
    }

    /**
     * Runs every step on a new kind of {@code entities} entities of the settings' shape (its keys; every job is over
     * the whole kind), with the settings' workers, shards and page size; {@code timed} false marks a warm-up.
     */
    public List<Step> run(BenchRunner.Settings settings, int entities, boolean timed) throws InterruptedException {
        String kind = "Backups_" + entities + "_" + System.nanoTime() % 100_000;
        Path dir;
        try {
            dir = Files.createTempDirectory("keyranger-backups-");
        } catch (IOException e) {
            throw new KeyRangerException("Cannot create a folder for the exports: " + e.getMessage(), e);
        }
        try {
            return steps(settings, kind, entities, dir, timed);
        } finally {
            removeAll(dir);
        }
    }

    private List<Step> steps(BenchRunner.Settings s, String kind, int entities, Path dir, boolean timed)
            throws InterruptedException {
        quiet.accept(true);
        KeyFactory factory = datastore.newKeyFactory().setKind(kind);
        List<Entity> data = s.shape().entities(factory, entities, 42);
        BenchRunner.put(datastore, data);
        KindDigest expected = KindDigest.EMPTY; // every entity as seeded, with n = 1
        for (Entity e : data) {
            expected = expected.plus(Entity.newBuilder(e).set("n", 1L).build());
        }
        List<Step> steps = new ArrayList<>();
        int shards = s.shards() > 0 ? s.shards() : s.workers();

        // the increment, exactly once over every entity: what every later copy must equal
        Timed inc = time(spec(kind, "{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}", shards, s));
        KindDigest original = KindDigest.of(datastore, kind);
        steps.add(step(INCREMENT, entities, inc, original.equals(expected), "read back " + original
                + (original.equals(expected) ? "" : ", expected " + expected), timed));

        Path managed = dir.resolve("managed");
        Timed export = time(spec(kind, "{\"template\":\"export\",\"format\":\"managed\",\"file\":"
                + JSON.valueToTree(managed.toString()) + "}", shards, s));
        KindDigest exported = export.result().output() == null ? KindDigest.EMPTY : managedDigest(export.result()
                .output(), kind);
        steps.add(step("export (managed)", entities, export, exported.equals(original), "export holds " + exported,
                timed));

        steps.add(deleted(kind, entities, shards, s, "delete", timed));

        // what `keyranger restore --export DIR --kind K` starts, on the bench's workers
        JobSpec restore = new RestoreSpec(export.result().output() == null ? managed : export.result().output(), "",
                kind, RestoreMode.SKIP_CHANGED, null, null, true).job(null);
        Timed restored = time(new JobSpec(restore.jobId(), restore.namespace(), kind, restore.mapper(), shards,
                s.workers(), restore.pageSize(), 0));
        steps.add(sameAs(RESTORE, original, restored, kind, timed));

        Path jsonl = dir.resolve(kind + ".jsonl");
        Timed exportLines = time(spec(kind, "{\"template\":\"export\",\"format\":\"jsonl\",\"file\":"
                + JSON.valueToTree(jsonl.toString()) + "}", shards, s));
        KindDigest lines = linesDigest(jsonl);
        steps.add(step("export (jsonl)", entities, exportLines, lines.equals(original), "file holds " + lines, timed));

        steps.add(deleted(kind, entities, shards, s, "delete (again)", timed));

        Timed imported = time(spec(kind, "{\"template\":\"import\",\"file\":" + JSON.valueToTree(jsonl.toString())
                + "}", shards, s));
        steps.add(sameAs(IMPORT, original, imported, kind, timed));
        return steps;
    }

    /** A job over the whole kind as {@code run --template ...} starts it. */
    private static JobSpec spec(String kind, String mapperJson, int shards, BenchRunner.Settings s) {
        MapperSpec mapper = MapperSpec.parse(mapperJson);
        return new JobSpec(JobIds.newJobId(kind + "-" + mapper.template()), "", kind, mapper, shards,
                s.workers(), s.pageSize(), 0);
    }

    private record Timed(JobResult result, long wallMillis) {
        boolean done() {
            return result.status() == JobStatus.DONE && result.failedRanges() == 0;
        }
    }

    /** Starts a job on the launcher and waits for it, with the server's clock running. */
    private Timed time(JobSpec spec) throws InterruptedException {
        quiet.accept(false);
        long started = System.nanoTime();
        JobResult result;
        try {
            result = launcher.start(spec, LeaseMode.RESUME, JobListener.NONE, log).await();
        } finally {
            quiet.accept(true);
        }
        return new Timed(result, Math.max(1, (System.nanoTime() - started) / 1_000_000));
    }

    private Step deleted(String kind, int entities, int shards, BenchRunner.Settings s, String name, boolean timed)
            throws InterruptedException {
        Timed delete = time(spec(kind, "{\"template\":\"delete\"}", shards, s));
        KindDigest left = KindDigest.of(datastore, kind);
        return step(name, entities, delete, left.entities() == 0, String.format(Locale.ROOT, "%,d left",
                left.entities()), timed);
    }

    private Step sameAs(String name, KindDigest original, Timed job, String kind, boolean timed) {
        KindDigest back = KindDigest.of(datastore, kind);
        return step(name, original.entities(), job, back.equals(original), "read back " + back, timed);
    }

    private Step step(String name, long entities, Timed job, boolean matches, String checked, boolean timed) {
        boolean verified = job.done() && matches;
        String detail = job.done() ? checked : job.result().status() + ", " + job.result().failedRanges()
                + " failed ranges: " + job.result().message() + "; " + checked;
        log.accept(String.format(Locale.ROOT, "%-18s %,8d entities  %,9d ms  %s  (%s; totals %s)", name, entities,
                job.wallMillis(), timed ? "verified " + verified : "(warm-up, not timed)", detail,
                job.result().totals()));
        return new Step(name, entities, job.wallMillis(), verified, detail);
    }

    /** The entities of {@code kind} in a managed export, decoded into this session's project. */
    private KindDigest managedDigest(Path export, String kind) {
        KindDigest digest = KindDigest.EMPTY;
        try (ManagedExport.Entities entities = ManagedExport.open(export).entities(session.spec().projectId(),
                session.spec().databaseId(), "", kind)) {
            for (Entity e = entities.next(); e != null; e = entities.next()) {
                digest = digest.plus(e);
            }
        }
        return digest;
    }

    /** The entities of a JSON-lines export file. */
    private KindDigest linesDigest(Path file) {
        KindDigest digest = KindDigest.EMPTY;
        try (BufferedReader lines = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                digest = digest.plus(EntityCodec.decode(JSON.readTree(line), session.spec().projectId(),
                        session.spec().databaseId()));
            }
        } catch (IOException e) {
            return KindDigest.EMPTY; // missing or unreadable: the step is not verified
        }
        return digest;
    }

    private static void removeAll(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a temporary folder: left for the system to clean
        }
    }
}
