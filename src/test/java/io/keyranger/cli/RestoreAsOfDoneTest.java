package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.StringValue;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.store.JobStore;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore from the past that is done is done: run again under its id once its moment has left the window the
 * server keeps, it says it is done already (exit 0, nothing written) instead of refusing the moment.
 */
class RestoreAsOfDoneTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aDoneRestoreRunAgainAfterItsMomentLeftTheWindowSaysItIsDone() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "restore-done");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> seeded = RichEntities.of(datastore, "Acct", 5);
        SharedEmulator.putAll(datastore, seeded);
        Thread.sleep(20);
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(20);
        datastore.delete(seeded.get(0).getKey());
        InProcessCli cli = new InProcessCli(dir, conn);
        InProcessCli.Result restore = cli.run("restore", "--as-of", t0.toString(), "--kind", "Acct", "--job-id", "D");
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
        Map<Key, Entity> restored = RichEntities.read(datastore, "", "Acct");
        assertThat(restored).hasSize(5);

        // two hours on: the job's moment is older than the hour the emulator keeps
        String old = Instant.now().minus(Duration.ofHours(2)).truncatedTo(ChronoUnit.MINUTES).toString();
        Key job = new JobStore(datastore).jobKey("D");
        Entity stored = datastore.get(job);
        ObjectNode mapper = (ObjectNode) JSON.readTree(stored.getString("mapper"));
        mapper.setAll((ObjectNode) JSON.readTree(stored.getString("input"))); // its input, in a property of its own
        mapper.put("asOf", old);
        datastore.put(Entity.newBuilder(stored).remove("input").set("mapper", StringValue.newBuilder(mapper.toString())
                .setExcludeFromIndexes(true).build()).build());
        mapper.remove("input");
        Path spec = Files.writeString(dir.resolve("past.json"), mapper.toString());

        InProcessCli.Result again = cli.run("run", "--mapper", spec.toString(), "--kind", "Acct", "--job-id", "D");
        assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
        assertThat(again.out() + again.err()).contains("done already").doesNotContain("no longer keeps");
        assertThat(RichEntities.read(datastore, "", "Acct")).as("nothing written").isEqualTo(restored);
    }
}
