package io.keyranger.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StringValue;
import io.keyranger.cli.KeyRangerCli;
import io.keyranger.cli.RunCommand;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobStatus;
import io.keyranger.keys.KeyOrder;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.Jobs;
import io.keyranger.support.SharedEmulator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Inputs that try to break a job: huge entities, deep ancestor paths, bad key files. */
class BadInputTest {
    @TempDir
    Path dir;

    @Test
    void aCopyThatWouldExceedOneMebibyteSkipsThatEntityAloneWithItsReason() throws Exception {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject("big"));
        List<Entity> entities = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            entities.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Doc").newKey(i)).set("n", i).build());
        }
        // just under the 1 MiB entity limit with its own key; over it once the key's kind is 1,400 bytes long
        String body = "x".repeat(1_048_576 - 1_000);
        Key bigKey = datastore.newKeyFactory().setKind("Doc").newKey(25);
        entities.set(24, Entity.newBuilder(bigKey).set("n", 25)
                .set("body", StringValue.newBuilder(body).setExcludeFromIndexes(true).build()).build());
        datastore.put(entities.toArray(new Entity[0]));
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(datastore, KeyOrder.EMULATOR, ServerLimits.EMULATOR);

        JobResult touched = executor.start(Jobs.over("Doc").id("touch-big").mapper("touch").pageSize(10).spec(),
                JobListener.NONE).await();
        assertThat(touched.status()).as("an entity near the limit is fine").isEqualTo(JobStatus.DONE);
        assertThat(touched.total("written")).isEqualTo(40);

        String longKind = "K".repeat(1_400);
        JobResult copied = executor.start(Jobs.over("Doc").id("copy-big").mapper("copy", "toKind", longKind)
                .pageSize(10).spec(), JobListener.NONE).await();
        assertThat(copied.status()).as("one entity's problem is not its range's").isEqualTo(JobStatus.DONE);
        assertThat(copied.report().skips()).singleElement().satisfies(g -> {
            assertThat(g.reason()).isEqualTo("over 1 MiB");
            assertThat(g.count()).isEqualTo(1);
            assertThat(g.examples()).singleElement().asString().contains(":25: over 1 MiB: it would be ");
        });
        List<Key> copies = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind(longKind).build()).forEachRemaining(copies::add);
        assertThat(copies).as("every other entity was copied").hasSize(39).noneMatch(k -> k.getId() == 25L);
        assertThat(copied.total("written")).isEqualTo(39);
        assertThat(copied.total("skipped")).isEqualTo(1);
    }

    /**
     * The same copy from the command line is done but for that entity, and says so: exit 8 (not 0), a line that counts
     * what it could not write, and its report names the entity; every other one is copied.
     */
    @Test
    void onTheCommandLineAJobDoneButForAnEntityItCouldNotWriteExitsEight() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("bigcli");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> entities = new ArrayList<>();
        for (int i = 1; i <= 12; i++) {
            entities.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Doc").newKey(i)).set("n", i).build());
        }
        entities.set(6, Entity.newBuilder(entities.get(6)).set("body", StringValue.newBuilder(
                "x".repeat(1_048_576 - 1_000)).setExcludeFromIndexes(true).build()).build());
        datastore.put(entities.toArray(new Entity[0]));
        InProcessCli cli = new InProcessCli(dir, conn);
        String longKind = "K".repeat(1_400);

        InProcessCli.Result copied = cli.run("run", "--kind", "Doc", "--mapper", cli.mapper(
                "{\"template\":\"copy\",\"toKind\":\"" + longKind + "\"}").toString(), "--job-id", "copy-big",
                "--page-size", "5");

        assertThat(copied.exitCode()).as(copied.err()).isEqualTo(RunCommand.EXIT_NOT_ALL_WRITTEN);
        assertThat(copied.err()).contains("keyranger: 1 entity the job names could not be written and is unchanged "
                + "(see 'skipped' above for why); everything else is done.");
        assertThat(copied.out()).as("its report names the copy it could not write")
                .contains("1 × over 1 MiB", longKind + ":7: over 1 MiB");
        List<Long> copies = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind(longKind).build())
                .forEachRemaining(k -> copies.add(k.getId()));
        assertThat(copies).as("what the emulator holds").hasSize(11).doesNotContain(7L);

        InProcessCli.Result counted = cli.run("run", "--kind", "Doc", "--mapper",
                cli.mapper("{\"template\":\"count\"}").toString(), "--job-id", "count-docs");
        assertThat(counted.exitCode()).as("a job that writes nothing it names: " + counted.err()).isZero();
    }

    @Test
    void keysWithDeepAncestorPathsAreCountedAndTouched() throws Exception {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject("deep"));
        List<Entity> entities = new ArrayList<>();
        for (int i = 1; i <= 60; i++) {
            List<PathElement> path = new ArrayList<>();
            for (int depth = 0; depth < 1 + i % 40; depth++) {
                path.add(depth % 2 == 0 ? PathElement.of("Level", "l" + depth + "-😀") : PathElement.of("Step", depth + 1L));
            }
            entities.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Leaf").addAncestors(path).newKey(i))
                    .set("i", i).build());
        }
        datastore.put(entities.toArray(new Entity[0]));
        AdaptiveSplitExecutor executor = new AdaptiveSplitExecutor(datastore, KeyOrder.EMULATOR, ServerLimits.EMULATOR);
        JobResult counted = executor.start(Jobs.over("Leaf").id("deep-count").shards(4).workers(3).pageSize(7)
                .spec(), JobListener.NONE).await();
        assertThat(counted.total("read")).isEqualTo(60);
        JobResult touched = executor.start(Jobs.over("Leaf").id("deep-touch").mapper("touch").shards(4).workers(3)
                .pageSize(7).spec(), JobListener.NONE).await();
        assertThat(touched.status()).isEqualTo(JobStatus.DONE);
        assertThat(touched.total("written")).isEqualTo(60);
    }

    @Test
    void anInvalidKeyFileIsAOneLineError() throws Exception {
        Path key = dir.resolve("key.json");
        Files.writeString(key, "this is not a key");
        StringWriter err = new StringWriter();
        int code = KeyRangerCli.execute(new KeyRangerCli.Context(dir, Map.of(), request -> { }),
                new PrintWriter(new StringWriter()), new PrintWriter(err), "kinds", "--project", "keyranger-test", "--credentials",
                key.toString());
        assertThat(code).isNotZero();
        assertThat(err.toString().strip()).isEqualTo("keyranger: Credentials file " + key
                + " is not a valid service-account key (expected the JSON key downloaded from the Cloud console).");
    }
}
