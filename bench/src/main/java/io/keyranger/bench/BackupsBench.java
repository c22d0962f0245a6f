package io.keyranger.bench;

import io.keyranger.job.LeaseMode;
import io.keyranger.job.JobIds;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.Query;
import io.keyranger.KeyRangerException;
import io.keyranger.backup.RestoreSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.PointInTime;
import io.keyranger.executor.JobReadTime;
import io.keyranger.summary.ProcessCpu;
import io.keyranger.datastore.Session;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RestoreMode;
import io.keyranger.job.RetryPolicy;
import io.keyranger.executor.Engine;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.formats.managed.ExportSnapshot;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.mapper.MapperSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * A team's worst day on one kind, each step a job started as the command line starts it ({@link Engine#start}):
 * an increment over the kind; three exports of it (a managed export read live, page by page, as {@code run
 * --no-snapshot} reads it; a managed export read as of one moment, the job's start, as {@code run} reads it by
 * default on a server that keeps versions; a JSON-lines export); then three times a delete of the whole kind followed by
 * a copy back: a restore from the snapshot export (what {@code keyranger restore --export DIR --kind K} runs), an
 * import of the JSON-lines file, and a restore of the past ({@code restore --as-of T --until T2}, T just after the
 * increment, T2 just after the delete before it: a window of damage undone), and, given a second server, a copy from
 * it ({@code restore --from-project}, the kind seeded there as the increment left it). Each step is timed alone and checked
 * against the server before the next one: entity counts, and after the exports and every copy back a digest of every
 * entity equal to the kind's after the increment. The server is quiet (no latency) while the kind is seeded and checked.
 * A round's exports, and its copies back, run in an order rotated by the round ({@link BenchRounds#order}), so that no
 * step of a pair always runs first.
 */
public final class BackupsBench {
    public static final String INCREMENT = "increment";
    public static final String EXPORT_LIVE = "export live";
    public static final String EXPORT_SNAPSHOT = "export snapshot";
    public static final String EXPORT_LINES = "export (jsonl)";
    public static final String RESTORE = "restore";
    public static final String IMPORT = "import";
    public static final String RESTORE_UNTIL = "restore --until";
    /** A copy back from another database ({@code restore --from-project}), on a second model server. */
    public static final String COPY = "copy from a database";

    /**
     * One step of the run.
     *
     * @param name       what it did
     * @param entities   the entities it covered
     * @param wallMillis its wall time
     * @param verified   whether the server (or the file it wrote) holds what it should afterwards
     * @param detail     what was checked, or what differed
     * @param calls      the server's calls while it ran, -1 when not counted
     * @param cpuNanos   this JVM's CPU while it ran
     */
    public record Step(String name, long entities, long wallMillis, boolean verified, String detail, long calls,
                       long cpuNanos) {
        public double entitiesPerSecond() {
            return entities * 1000.0 / Math.max(1, wallMillis);
        }

        /** The step as a bench result (a "strategy" of its name), for the rounds' medians and paired ratios. */
        public BenchResult result() {
            return new BenchResult(name, entities, wallMillis, entitiesPerSecond(), 0, 0, 0, 0, verified, false)
                    .withCosts(new RunCosts(-1, -1, calls, cpuNanos, null));
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Session session;
    private final Session source;
    private final Datastore datastore;
    private final Engine launcher;
    private final Consumer<Boolean> quiet;
    private final LongSupplier calls;
    private final Consumer<String> log;

    /**
     * @param quiet told true while nothing is timed (seeding, checking), false while a step runs: the production
     *              model then waits no latency outside the steps
     * @param calls the server's calls so far (counted while not quiet)
     */
    public BackupsBench(Session session, Consumer<Boolean> quiet, LongSupplier calls, Consumer<String> log) {
        this(session, null, quiet, calls, log);
    }

    /**
     * As above, with {@code source} (another server, or null) to copy from too; {@code quiet} and {@code calls} then
     * cover both servers.
     */
    public BackupsBench(Session session, Session source, Consumer<Boolean> quiet, LongSupplier calls,
                        Consumer<String> log) {
        this.session = session;
        this.source = source;
        this.datastore = session.datastore();
        this.launcher = new Engine(session, RetryPolicy.DEFAULT, JobLease.DEFAULT_DURATION);
        this.quiet = quiet;
        this.calls = calls;
        this.log = log;
    }

    /**
     * Runs every step on a new kind of {@code entities} entities of the settings' shape (its keys; every job is over
     * the whole kind), with the settings' workers, shards and page size, its exports and its copies back in the order
     * of {@code round} (from 1); {@code timed} false marks a warm-up.
     */
    public List<Step> run(BenchRunner.Settings settings, int entities, int round, boolean timed)
            throws InterruptedException {
        String kind = "Backups_" + entities + "_" + System.nanoTime() % 100_000;
        Path dir;
        try {
            dir = Files.createTempDirectory("keyranger-backups-");
        } catch (IOException e) {
            throw new KeyRangerException("Cannot create a folder for the exports: " + e.getMessage(), e);
        }
        try {
            return new Round(settings, kind, entities, dir, round, timed).steps();
        } finally {
            removeAll(dir);
        }
    }

    /** One round's steps on one kind. */
    private final class Round {
        private final BenchRunner.Settings s;
        private final String kind;
        private final int entities;
        private final Path dir;
        private final int round;
        private final boolean timed;
        private final int shards;
        private final List<Step> steps = new ArrayList<>();
        private KindDigest original;
        private Instant asOf;
        private Path snapshot;
        private Path lines;

        Round(BenchRunner.Settings s, String kind, int entities, Path dir, int round, boolean timed) {
            this.s = s;
            this.kind = kind;
            this.entities = entities;
            this.dir = dir;
            this.round = round;
            this.timed = timed;
            this.shards = s.shards() > 0 ? s.shards() : s.workers();
        }

        List<Step> steps() throws InterruptedException {
            quiet.accept(true);
            KeyFactory factory = datastore.newKeyFactory().setKind(kind);
            List<Entity> data = s.shape().entities(factory, entities, 42);
            BenchRunner.put(datastore, data);
            KindDigest expected = KindDigest.EMPTY; // every entity as seeded, with n = 1
            for (Entity e : data) {
                expected = expected.plus(Entity.newBuilder(e).set("n", 1L).build());
            }
            // the increment, exactly once over every entity: what every later copy must equal
            Timed inc = time(spec(kind, "{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}",
                    shards, s));
            original = KindDigest.of(datastore, kind);
            steps.add(step(INCREMENT, entities, inc, original.equals(expected), "read back " + original
                    + (original.equals(expected) ? "" : ", expected " + expected), timed));
            asOf = moment(); // the kind as the increment left it: what restore --as-of brings back

            BenchRounds order = new BenchRounds(0, 1, false);
            for (String export : order.order(List.of(EXPORT_LIVE, EXPORT_SNAPSHOT, EXPORT_LINES), round)) {
                export(export);
            }
            List<String> copies = order.order(source == null ? List.of(RESTORE, IMPORT, RESTORE_UNTIL)
                    : List.of(RESTORE, IMPORT, RESTORE_UNTIL, COPY), round);
            if (source != null) { // the kind as the increment left it, in the other database (not timed)
                List<Entity> there = new ArrayList<>();
                datastore.run(Query.newEntityQueryBuilder().setKind(kind).build())
                        .forEachRemaining(there::add);
                BenchRunner.put(source.datastore(), there);
            }
            for (int i = 0; i < copies.size(); i++) {
                steps.add(deleted(kind, entities, shards, s, "delete (" + (i + 1) + ")", timed));
                copyBack(copies.get(i));
            }
            return steps;
        }

        private void export(String name) throws InterruptedException {
            if (name.equals(EXPORT_LINES)) {
                lines = dir.resolve(kind + ".jsonl");
                Timed job = time(spec(kind, "{\"template\":\"export\",\"format\":\"jsonl\",\"file\":"
                        + JSON.valueToTree(lines.toString()) + "}", shards, s));
                KindDigest held = linesDigest(lines);
                steps.add(step(name, entities, job, held.equals(original), "file holds " + held, timed));
                return;
            }
            boolean live = name.equals(EXPORT_LIVE);
            Path folder = dir.resolve(live ? "managed-live" : "managed-snapshot");
            JobSpec spec = spec(kind, "{\"template\":\"export\",\"format\":\"managed\",\"file\":"
                    + JSON.valueToTree(folder.toString()) + "}", shards, s);
            // as `run` starts it: --no-snapshot reads live, page by page; by default one moment, the job's start
            spec = live ? spec.withMapper(spec.mapper().withLiveReads())
                    : JobReadTime.stamped(session, spec, Instant.now());
            Instant asked = spec.mapper().readTime();
            Timed job = time(spec);
            Path written = job.result().output() == null ? folder : job.result().output();
            KindDigest held = job.result().output() == null ? KindDigest.EMPTY : managedDigest(written, kind);
            // how the export says it was read (its keyranger_export.json): live, or at the moment it was started at
            Instant recorded = job.result().output() == null ? null : readTime(written);
            boolean asAsked = job.result().output() != null && (live ? recorded == null && asked == null
                    : asked != null && asked.equals(recorded));
            steps.add(step(name, entities, job, held.equals(original) && asAsked, "export holds " + held
                    + ", read " + (recorded == null ? "live" : "as of " + recorded), timed));
            if (!live) {
                snapshot = written;
            }
        }

        private void copyBack(String name) throws InterruptedException {
            JobSpec restore = switch (name) {
                // what `keyranger restore --export DIR --kind K` starts
                case RESTORE -> new RestoreSpec(snapshot, "", kind, RestoreMode.SKIP_CHANGED, null, null, true)
                        .job(null);
                // what `keyranger restore --as-of T --until T2 --kind K` starts: the delete before it undone
                case RESTORE_UNTIL -> RestoreSpec.fromPast(PointInTime.at(asOf), PointInTime.at(moment()), false,
                        "", kind, RestoreMode.OVERWRITE, null, null, true).job(null);
                // what `keyranger restore --from-project P --from-emulator-host H --kind K` starts
                case COPY -> RestoreSpec.fromDatabase(source.spec(), PointInTime.at(moment()), false, "", kind,
                        RestoreMode.SKIP_CHANGED, null, null, true).job(null);
                default -> null;
            };
            Timed job = restore != null ? time(new JobSpec(restore.jobId(), restore.namespace(), kind,
                    restore.mapper(), shards, s.workers(), restore.pageSize(), 0))
                    : time(spec(kind, "{\"template\":\"import\",\"file\":" + JSON.valueToTree(lines.toString())
                    + "}", shards, s));
            KindDigest back = KindDigest.of(datastore, kind);
            steps.add(step(name, original.entities(), job, back.equals(original), "read back " + back, timed));
        }
    }

    /** Now, once the server's clock has moved past every commit so far, to the microsecond a read time keeps. */
    private static Instant moment() throws InterruptedException {
        Thread.sleep(2);
        Instant at = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(2);
        return at;
    }

    /** A job over the whole kind as {@code run --template ...} starts it. */
    private static JobSpec spec(String kind, String mapperJson, int shards, BenchRunner.Settings s) {
        MapperSpec mapper = MapperSpec.parse(mapperJson);
        return new JobSpec(JobIds.newJobId(kind + "-" + mapper.template()), "", kind, mapper, shards,
                s.workers(), s.pageSize(), 0);
    }

    private record Timed(JobResult result, long wallMillis, long calls, long cpuNanos) {
        boolean done() {
            return result.status() == JobStatus.DONE && result.failedRanges() == 0;
        }
    }

    /** Starts a job on the launcher and waits for it, with the server's clock running. */
    private Timed time(JobSpec spec) throws InterruptedException {
        quiet.accept(false);
        long callsBefore = calls.getAsLong();
        long cpuBefore = ProcessCpu.processNanos();
        long started = System.nanoTime();
        JobResult result;
        long wall;
        try {
            result = launcher.start(spec, LeaseMode.RESUME, JobListener.NONE, log).await();
        } finally {
            wall = Math.max(1, (System.nanoTime() - started) / 1_000_000);
            quiet.accept(true);
        }
        return new Timed(result, wall, calls.getAsLong() - callsBefore, ProcessCpu.processNanos() - cpuBefore);
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
        log.accept(String.format(Locale.ROOT, "%-18s %,8d entities  %,9d ms  %,7d calls  CPU %.3f ms/entity  %s  "
                + "(%s; totals %s)", name, entities, job.wallMillis(), job.calls(), job.cpuNanos() / 1e6
                / Math.max(1, entities), (timed ? "" : "warm-up, ") + "verified " + verified, detail,
                job.result().totals()));
        return new Step(name, entities, job.wallMillis(), verified, detail, job.calls(), job.cpuNanos());
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

    /** The moment a managed export says it was read at, or null when it says it was read live (or says nothing). */
    private static Instant readTime(Path export) {
        ManagedExport opened = ManagedExport.open(export);
        ExportSnapshot record = ExportSnapshot.ofManaged(opened.store(), opened.metadata());
        return record == null ? null : record.readTime();
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
