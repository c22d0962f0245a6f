package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ProgressListener;
import io.keyranger.demo.DemoSeeder;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.SharedEmulator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run, jobs and counter commands end to end on the real emulator. */
class RunCliTest {
    private static ConnectionSpec demo;

    @TempDir
    Path dir;

    @BeforeAll
    static void seedDemo() {
        demo = SharedEmulator.freshProject("run");
        new DemoSeeder(SharedEmulator.connect(demo)).seed(500, ProgressListener.NONE, Cancellation.NEVER);
    }

    private InProcessCli.Result run(String... args) {
        return new InProcessCli(dir, demo).run(args);
    }

    private Path mapper(String json) throws Exception {
        return new InProcessCli(dir, demo).mapper(json);
    }

    @Test
    void countJobReportsPersistedTotalsEqualToTheKindsCount() throws Exception {
        Path report = dir.resolve("report.json");
        InProcessCli.Result result = run("run", "--kind", "Account", "--mapper", mapper("{\"template\":\"count\"}").toString(),
                "--shards", "4", "--workers", "4", "--page-size", "50", "--job-id", "count-accounts",
                "--report", report.toString());
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("Job count-accounts done: read 500");
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertThat(json.path("jobId").asText()).isEqualTo("count-accounts");
        assertThat(json.path("status").asText()).isEqualTo("DONE");
        assertThat(json.path("read").asLong()).isEqualTo(500);
        assertThat(json.path("written").asLong()).isZero();
        assertThat(json.path("ranges").asInt()).isGreaterThan(4);
        assertThat(json.path("maxDepth").asInt()).isPositive();
        assertThat(json.path("wallMillis").asLong()).isPositive();
        assertThat(json.path("counters").path("read").asLong()).isEqualTo(500);

        InProcessCli.Result jobs = run("jobs");
        assertThat(jobs.out()).contains("count-accounts").contains("done").contains("500");
        InProcessCli.Result again = run("run", "--resume", "count-accounts");
        assertThat(again.exitCode()).isZero();
        assertThat(again.out()).as("resuming a finished job reads nothing again").contains("read 500");
        Matcher asFinished = Pattern.compile("\\d+ ranges, depth \\d+, [0-9.]+ s")
                .matcher(result.out());
        assertThat(asFinished.find()).isTrue();
        assertThat(again.out()).as("shown as it finished, not 0.0 s").contains(asFinished.group())
                .contains("done already");
    }

    @Test
    void anImportRunsThroughTheSameLaunchAsAnyJobAndResumesByItsId() throws Exception {
        Path file = dir.resolve("events.jsonl");
        InProcessCli.Result export = run("run", "--kind", "Event", "--mapper", mapper("{\"template\":\"export\",\"file\":\""
                + file.toString().replace("\\", "\\\\") + "\"}").toString(), "--shards", "2");
        assertThat(export.exitCode()).as(export.err()).isZero();
        Path spec = mapper("{\"template\":\"import\",\"file\":\"" + file.toString().replace("\\", "\\\\")
                + "\"}");
        InProcessCli.Result imported = run("run", "--kind", "Event", "--mapper", spec.toString(), "--job-id", "imp-events");
        assertThat(imported.exitCode()).as(imported.err()).isZero();
        assertThat(imported.err()).contains("Job imp-events: import over Event");
        assertThat(imported.out()).contains("Job imp-events done: read 50, written 50");
        InProcessCli.Result again = run("run", "--kind", "Event", "--mapper", spec.toString(), "--job-id", "imp-events");
        assertThat(again.out()).as("the same id resumes after its last line: nothing more").contains("read 50, written 50");
        InProcessCli.Result dry = run("run", "--kind", "Event", "--mapper", spec.toString(), "--dry-run");
        assertThat(dry.exitCode()).isNotZero();
        assertThat(dry.err()).contains("'import' reads its file, not key ranges").doesNotContain("Exception");
    }

    @Test
    void touchJobWritesEveryEntityOnce() throws Exception {
        InProcessCli.Result result = run("run", "--kind", "Event", "--mapper", mapper("{\"template\":\"touch\"}").toString(),
                "--shards", "2", "--page-size", "20");
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("read 50, written 50");
    }

    @Test
    void aGqlJobCountsTheMatchesAndSaysWhatTheServerAndTheClientEachApply() throws Exception {
        Datastore datastore = SharedEmulator.connect(demo);
        long expected = 0;
        long proAccounts = 0;
        var all = datastore.run(Query.newEntityQueryBuilder().setKind("Account").build());
        while (all.hasNext()) {
            var e = all.next();
            if (e.getString("tier").equals("pro")) {
                proAccounts++;
                if (e.getLong("balance") >= 5000) {
                    expected++;
                }
            }
        }
        String gql = "SELECT * FROM Account WHERE tier = 'pro' AND balance >= 5000";
        InProcessCli.Result dry = run("run", "--gql", gql, "--mapper", mapper("{\"template\":\"count\"}").toString(),
                "--dry-run");
        assertThat(dry.exitCode()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("every range query carries tier = 'pro'")
                .contains("balance >= 5000: checked on the client");
        InProcessCli.Result result = run("run", "--gql", gql, "--mapper", mapper("{\"template\":\"count\"}").toString(),
                "--shards", "3", "--report", dir.resolve("gql.json").toString());
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("read " + proAccounts + ",");
        var report = new ObjectMapper().readTree(dir.resolve("gql.json").toFile());
        assertThat(report.path("counters").path("not matching the query").asLong())
                .isEqualTo(proAccounts - expected);
        assertThat(expected).isBetween(1L, proAccounts - 1);
    }

    @Test
    void gqlAJobCannotRunIsRefusedWithTheReasonAndExitCodeOne() throws Exception {
        String count = mapper("{\"template\":\"count\"}").toString();
        InProcessCli.Result limit = run("run", "--gql", "SELECT * FROM Account LIMIT 10", "--mapper", count);
        assertThat(limit.exitCode()).isEqualTo(1);
        assertThat(limit.err()).contains("The query's LIMIT 10 cannot apply").doesNotContain("Exception");
        InProcessCli.Result order = run("run", "--gql", "SELECT * FROM Account ORDER BY balance", "--mapper", count);
        assertThat(order.err()).contains("The query's ORDER BY balance cannot apply");
        InProcessCli.Result syntax = run("run", "--gql", "SELECT * FROM Account WHERE tier = pro", "--mapper", count);
        assertThat(syntax.exitCode()).isEqualTo(1);
        assertThat(syntax.err()).contains("GQL error at column 36").contains("quote strings");
        InProcessCli.Result otherKind = run("run", "--kind", "Event", "--gql", "SELECT * FROM Account", "--mapper", count);
        assertThat(otherKind.err()).contains("The query reads kind 'Account' but the job is over 'Event'");
        InProcessCli.Result neither = run("run", "--mapper", count);
        assertThat(neither.exitCode()).isEqualTo(1);
        assertThat(neither.err()).contains("--kind KIND, or --gql");
        assertThat(run("preview", "--gql", "SELECT * FROM Account WHERE tier = 'pro' AND balance > 10").out())
                .contains("Query: balance > 10: checked on the client");
    }

    @Test
    void oneJobOverSeveralKindsCountsEachAndResumesByItsId() throws Exception {
        InProcessCli.Result result = run("run", "--kind", "Org,Event", "--mapper", mapper("{\"template\":\"count\"}").toString(),
                "--job-id", "two-kinds", "--shards", "2");
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.err()).contains("count over 2 kinds, one after another: Org, Event");
        long orgs = countOf("Org");
        long events = countOf("Event");
        assertThat(result.out()).contains("Job two-kinds done: read " + (orgs + events) + ",");
        assertThat(run("jobs").out()).contains("two-kinds.1-Org").contains("two-kinds.2-Event");
        InProcessCli.Result again = run("run", "--resume", "two-kinds");
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.out()).contains("read " + (orgs + events) + ",");
        InProcessCli.Result dry = run("run", "--all-kinds", "--mapper", mapper("{\"template\":\"delete\"}").toString(), "--dry-run");
        assertThat(dry.exitCode()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("== Account").contains("== Event").contains("== Org").doesNotContain("_KeyRanger");
        InProcessCli.Result bookkeeping = run("run", "--kind", "Org,_KeyRangerJob", "--mapper",
                mapper("{\"template\":\"count\"}").toString());
        assertThat(bookkeeping.exitCode()).isEqualTo(1);
        assertThat(bookkeeping.err()).contains("'_KeyRangerJob' is KeyRanger's own bookkeeping");
        InProcessCli.Result both = run("run", "--kind", "Org", "--all-kinds", "--mapper", mapper("{\"template\":\"count\"}")
                .toString());
        assertThat(both.err()).contains("Give --kind or --all-kinds, not both.");
    }

    private long countOf(String kind) {
        long n = 0;
        var it = SharedEmulator.connect(demo).run(Query.newKeyQueryBuilder().setKind(kind)
                .build());
        while (it.hasNext()) {
            it.next();
            n++;
        }
        return n;
    }

    @Test
    void badJobsAreRefusedBeforeAnythingIsWritten() throws Exception {
        InProcessCli.Result missing = run("run", "--kind", "Account", "--mapper", dir.resolve("nope.json").toString());
        assertThat(missing.exitCode()).isNotZero();
        assertThat(missing.err()).contains("Mapper file not found").doesNotContain("Exception");
        InProcessCli.Result malformed = run("run", "--kind", "Account", "--mapper", mapper("{\"template\": ").toString());
        assertThat(malformed.err()).contains("The mapper spec is not valid JSON");
        InProcessCli.Result unknown = run("run", "--kind", "Account", "--mapper", mapper("{\"template\":\"shred\"}").toString());
        assertThat(unknown.err()).contains("Unknown mapper template 'shred'; known: copy, count, count-by, delete");
        InProcessCli.Result noJob = run("run", "--resume", "no-such-job");
        assertThat(noJob.exitCode()).isNotZero();
        assertThat(noJob.err()).contains("No job with id 'no-such-job'");
        InProcessCli.Result empty = run("run", "--kind", "Nothing", "--mapper", mapper("{\"template\":\"count\"}").toString(),
                "--job-id", "nothing-to-do");
        assertThat(empty.err()).contains("Kind 'Nothing' was not found in the default namespace");
        assertThat(run("jobs").out()).as("a job over no kind is not left behind")
                .doesNotContain("nothing-to-do");
        assertThat(run("run", "--kind", "Nothing", "--mapper", mapper("{\"template\":\"count\"}").toString(),
                "--job-id", "nothing-to-do").err()).as("and its id is free").contains("was not found");
        InProcessCli.Result force = run("run", "--resume", "some-job", "--force");
        assertThat(force.exitCode()).isNotZero();
        assertThat(force.err()).contains("--force goes with --take-over");
        InProcessCli.Result takeOverNew = run("run", "--kind", "Account", "--mapper", mapper("{\"template\":\"count\"}")
                .toString(), "--take-over");
        assertThat(takeOverNew.err()).contains("--take-over takes over an existing job: use it with --resume JOB_ID");
    }

    @Test
    void dryRunPrintsBeforeAndAfterAndWritesNothing() throws Exception {
        Path spec = mapper("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":10}");
        InProcessCli.Result result = run("run", "--kind", "Account", "--mapper", spec.toString(), "--dry-run", "--sample", "5");
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("Dry run on 5 entities; nothing was written.").contains("balance")
                .contains("Whole job, over 500 entities (exact, by a keys-only scan)").contains("reads");
        InProcessCli.Result jobs = run("jobs");
        assertThat(jobs.out()).doesNotContain("Account-");
    }

    @Test
    void writingToARealProjectNeedsConfirmation() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = KeyRangerCli.execute(new KeyRangerCli.Context(dir, Map.of(), request -> { }), new PrintWriter(out),
                new PrintWriter(err), "run", "--kind", "Account", "--mapper",
                mapper("{\"template\":\"delete\"}").toString(), "--project", "prod-project", "--credentials",
                dir.resolve("missing-key.json").toString());
        assertThat(code).isNotZero();
        assertThat(err.toString()).contains("writes to project prod-project, which is not an emulator: add "
                + "--confirm-project prod-project");
        StringWriter confirmed = new StringWriter();
        int second = KeyRangerCli.execute(new KeyRangerCli.Context(dir, Map.of(), request -> { }),
                new PrintWriter(new StringWriter()), new PrintWriter(confirmed), "run", "--kind", "Account", "--mapper",
                mapper("{\"template\":\"delete\"}").toString(), "--project", "prod-project", "--credentials",
                dir.resolve("missing-key.json").toString(), "--confirm-project", "prod-project");
        assertThat(second).isNotZero();
        assertThat(confirmed.toString()).as("past the confirmation, the key file is checked")
                .contains("Credentials file not found");
    }

    @Test
    void injectedFaultsDoNotChangeTheTotals() throws Exception {
        InProcessCli.Result result = run("run", "--kind", "Account", "--mapper", mapper("{\"template\":\"count\"}").toString(),
                "--page-size", "25", "--inject-faults", "rate=0.1,lost=0.1,seed=3");
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("read 500,");
        InProcessCli.Result bad = run("run", "--kind", "Account", "--mapper", mapper("{\"template\":\"count\"}").toString(),
                "--inject-faults", "rate=lots");
        assertThat(bad.exitCode()).isNotZero();
        assertThat(bad.err()).contains("--inject-faults: 'rate=lots' is not a number.");
    }

    @Test
    void countersIncrementAndRead() {
        InProcessCli.Result inc = run("counter", "inc", "visits", "--by", "5", "--shards", "3");
        assertThat(inc.exitCode()).as(inc.err()).isZero();
        run("counter", "inc", "visits", "--by", "2");
        InProcessCli.Result get = run("counter", "get", "visits");
        assertThat(get.out()).contains("visits (20 shards)").containsPattern("value\\s+7");
        InProcessCli.Result unknown = run("counter", "get", "nope");
        assertThat(unknown.exitCode()).isNotZero();
        assertThat(unknown.err()).contains("No counter named 'nope'");
    }

    @Test
    void transformDryRunsThenRunsFromTheCommandLine() throws Exception {
        Datastore datastore = SharedEmulator.connect(demo);
        List<Entity> wallets = new ArrayList<>();
        for (int i = 1; i <= 30; i++) {
            wallets.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Wallet")
                    .newKey(i)).set("balance", i * 100L).set("tier", i % 5 == 0 ? "closed" : "free").build());
        }
        datastore.put(wallets.toArray(new Entity[0]));
        Path spec = mapper("{\"template\": \"transform\", \"set\": {\"balance\": \"balance * 2\", "
                + "\"tier\": \"balance > 1000 ? 'gold' : tier\"}, \"where\": \"has(balance) && tier != 'closed'\"}");

        InProcessCli.Result dry = run("run", "--kind", "Wallet", "--mapper", spec.toString(), "--dry-run", "--sample", "30");
        assertThat(dry.exitCode()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("Dry run on 30 entities").contains("counter matched by where += 24")
                .containsPattern("Wallet:11 +balance +1100 +2200").containsPattern("Wallet:11 +tier +free +gold");
        assertThat(datastore.get(wallets.get(10).getKey())).as("the dry run wrote nothing").isEqualTo(wallets.get(10));

        InProcessCli.Result job = run("run", "--kind", "Wallet", "--mapper", spec.toString(), "--job-id", "double-wallets");
        assertThat(job.exitCode()).as(job.err()).isZero();
        assertThat(job.out()).contains("Job double-wallets done: read 30, written 24")
                .contains("filtered out by where: 6").contains("matched by where: 24");
        for (Entity before : wallets) {
            Entity now = datastore.get(before.getKey());
            long balance = before.getLong("balance");
            boolean closed = before.getString("tier").equals("closed");
            assertThat(now.getLong("balance")).isEqualTo(closed ? balance : balance * 2);
            assertThat(now.getString("tier")).isEqualTo(closed ? "closed" : balance > 1000 ? "gold" : "free");
        }
    }

    @Test
    void aDryRunThatMatchesNothingNamesTheQuerysTypo() throws Exception {
        InProcessCli.Result dry = run("run", "--gql", "SELECT * FROM Account WHERE tierr = 'gold'", "--mapper",
                mapper("{\"template\":\"count\"}").toString(), "--dry-run");
        assertThat(dry.exitCode()).isNotZero();
        assertThat(dry.err()).contains("nothing to dry-run").contains("'tierr'").contains("Did you mean 'tier'?");
    }

    @Test
    void expressionsThatDoNotCompileAreRefusedWithTheirPlace() throws Exception {
        InProcessCli.Result unknown = run("run", "--kind", "Account", "--mapper", mapper("{\"template\":\"shred\"}").toString());
        Path typo = mapper("{\"template\":\"transform\",\"set\":{\"balance\":\"balance *\"}}");
        InProcessCli.Result job = run("run", "--kind", "Account", "--mapper", typo.toString());
        assertThat(job.exitCode()).as("the exit code of other bad specs").isEqualTo(unknown.exitCode()).isNotZero();
        assertThat(job.err()).contains("Expression set.balance (line 1, column").doesNotContain("Exception");
        Path wrongType = mapper("{\"template\":\"transform\",\"set\":{\"balance\":\"balance * 'x'\"}}");
        InProcessCli.Result dry = run("run", "--kind", "Account", "--mapper", wrongType.toString(), "--dry-run");
        assertThat(dry.exitCode()).isEqualTo(unknown.exitCode());
        assertThat(dry.err()).contains("Expression set.balance (line 1, column 9): found no matching overload")
                .contains("  | balance * 'x'");
        Path badWhere = mapper("{\"template\":\"delete\",\"where\":\"tier ==\"}");
        InProcessCli.Result delete = run("run", "--kind", "Account", "--mapper", badWhere.toString());
        assertThat(delete.exitCode()).isEqualTo(unknown.exitCode());
        assertThat(delete.err()).contains("Expression where (line 1, column");
        assertThat(run("run", "--kind", "Account", "--mapper", mapper("{\"template\":\"count\"}").toString(),
                "--job-id", "still-500").out()).contains("read 500");
    }
}
