package io.keyranger.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.Query;
import io.keyranger.cli.KeyRangerCli;
import io.keyranger.cli.RunCommand;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.ChildCli;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.SharedEmulator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * The same job in two or three processes at once, as an operator under pressure would do it: resumes of a running
 * job, a runner frozen with SIGSTOP and taken over, two starts with the same new id. Each ends with every entity
 * incremented exactly once, checked one by one, and with the persisted totals matching.
 */
@OnDataEmulators
class TwoRunnersTest {
    @Parameter
    ServerType server;
    private static final int DOCS = 2_000;
    private static final String CREDIT = "{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}";

    @TempDir
    Path dir;

    @Test
    void twoResumesOfARunningJobAreRefusedAndEveryEntityIsIncrementedOnce() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "twice");
        Datastore datastore = seed(conn);
        try (ChildCli runner = ChildCli.start(dir, conn, List.of("run", "--kind", "Doc", "--mapper",
                mapper().toString(), "--job-id", "twice", "--workers", "4", "--page-size", "20",
                ChildCli.holdFlag(server), "10"))) {
            runner.awaitHeld(); // every worker held, the job half done
            CountDownLatch go = new CountDownLatch(1);
            List<CompletableFuture<Result>> resumes = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                resumes.add(CompletableFuture.supplyAsync(() -> {
                    awaitQuietly(go);
                    return cli(conn, "run", "--resume", "twice");
                }));
            }
            go.countDown();
            for (CompletableFuture<Result> resume : resumes) {
                Result refused = resume.get(60, TimeUnit.SECONDS);
                assertThat(refused.code()).as(refused.err()).isEqualTo(RunCommand.EXIT_JOB_BUSY);
                assertThat(refused.err()).contains("Job twice is being run by runner")
                        .contains("(pid " + runner.pid() + ")").contains("--take-over").doesNotContain("Exception");
            }
            Result jobs = cli(conn, "jobs");
            assertThat(jobs.out()).containsPattern("twice .* running \\(runner \\w+ on host .* \\(pid " + runner.pid());
            runner.release();
            assertThat(runner.waitFor(180)).as(runner.log()).isZero();
        }
        assertEveryDocIncrementedOnce(datastore, "twice");
    }

    @Test
    void aFrozenRunnerTakenOverStopsWhenItWakesAndAppliesNothingTwice() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "frozen");
        Datastore datastore = seed(conn);
        try (ChildCli frozen = ChildCli.start(dir, conn, List.of("run", "--kind", "Doc", "--mapper",
                mapper().toString(), "--job-id", "frozen", "--workers", "4", "--page-size", "20", "--lease-seconds",
                "2", ChildCli.holdFlag(server), "10"))) {
            // every worker inside a chunk, its transaction open (on the Firestore emulator, between two of them)
            frozen.awaitHeld();
            frozen.signal("STOP"); // a laptop lid closed mid-job: no renewals, commits in flight stay in flight
            long readWhenFrozen = ShardedCounter.existing(datastore, "job:frozen").total("read");

            Result takeOver = cli(conn, "run", "--resume", "frozen", "--take-over");
            assertThat(takeOver.code()).as(takeOver.err()).isZero();
            assertThat(takeOver.out()).contains("Job frozen done: read " + String.format("%,d", DOCS));
            assertThat(readWhenFrozen).isLessThan(DOCS);

            frozen.signal("CONT"); // it wakes up after the take-over, and its held chunks try to commit (or begin)
            frozen.release();
            int code = frozen.waitFor(60);
            String log = frozen.log();
            assertThat(code).as(log).isEqualTo(RunCommand.EXIT_TAKEN_OVER);
            assertThat(log).contains("Job frozen was taken over by runner").contains("nothing it did is applied twice")
                    .doesNotContain("Resume it with");
        }
        assertEveryDocIncrementedOnce(datastore, "frozen");
    }

    @Test
    void twoStartsWithTheSameNewJobIdAtTheSameMomentGiveOneJob() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "same-id");
        Datastore datastore = seed(conn);
        Path mapper = mapper();
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Result>> starts = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            starts.add(CompletableFuture.supplyAsync(() -> {
                awaitQuietly(go);
                return cli(conn, "run", "--kind", "Doc", "--mapper", mapper.toString(), "--job-id", "same",
                        "--workers", "4", "--page-size", "50");
            }));
        }
        go.countDown();
        List<Result> results = new ArrayList<>();
        for (CompletableFuture<Result> start : starts) {
            results.add(start.get(180, TimeUnit.SECONDS));
        }
        assertThat(results).filteredOn(r -> r.code() == 0).as("%s", results).hasSize(1);
        assertThat(results).filteredOn(r -> r.code() != 0).singleElement()
                .satisfies(r -> assertThat(r.err()).contains("Job same exists already").doesNotContain("Exception"));
        assertEveryDocIncrementedOnce(datastore, "same");
    }

    private record Result(int code, String out, String err) {
    }

    private Result cli(ConnectionSpec conn, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--emulator-host", conn.emulatorHost(), "--project", conn.projectId()));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = KeyRangerCli.execute(new KeyRangerCli.Context(dir, Map.of(), request -> { }), new PrintWriter(out),
                new PrintWriter(err), all.toArray(new String[0]));
        return new Result(code, out.toString(), err.toString());
    }

    private Datastore seed(ConnectionSpec conn) {
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> docs = new ArrayList<>();
        for (int i = 1; i <= DOCS; i++) {
            KeyFactory keys = datastore.newKeyFactory().setKind("Doc");
            docs.add(Entity.newBuilder(i % 2 == 0 ? keys.newKey("doc-" + i) : keys.newKey((long) i)).set("n", 0)
                    .build());
        }
        return put(datastore, docs);
    }

    private static Datastore put(Datastore datastore, List<Entity> docs) {
        for (int i = 0; i < docs.size(); i += 500) {
            datastore.put(docs.subList(i, Math.min(docs.size(), i + 500)).toArray(new Entity[0]));
        }
        return datastore;
    }

    private Path mapper() throws Exception {
        Path file = dir.resolve("credit.json");
        Files.writeString(file, CREDIT);
        return file;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void assertEveryDocIncrementedOnce(Datastore datastore, String jobId) {
        List<Entity> docs = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Doc").build()).forEachRemaining(docs::add);
        assertThat(docs).hasSize(DOCS);
        for (Entity doc : docs) {
            assertThat(doc.getLong("n")).as("%s", doc.getKey()).isEqualTo(1);
        }
        Map<String, Long> totals = ShardedCounter.existing(datastore, "job:" + jobId).totals();
        assertThat(totals.get("read")).isEqualTo(DOCS);
        assertThat(totals.get("written")).isEqualTo(DOCS);
    }
}
