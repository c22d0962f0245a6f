package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How an import reads its lines when its workers read the file from many places at once: a key on several lines ends
 * as its last line has it, a file cut by carriage returns only is refused as the check and the workers read it alike,
 * and a run under an id of a job with other options or of another kind is refused. Read back from the emulator.
 */
class ImportLinesTest {
    private static final int LINES = 3_000;

    @TempDir
    Path dir;

    private static String line(Datastore datastore, String name, int i) {
        return EntityCodec.encode(Entity.newBuilder(datastore.newKeyFactory().setKind("Doc").newKey(name))
                .set("line", i).set("pad", "x".repeat(60)).build()).toString();
    }

    @Test
    void aKeyOnTheFirstAndTheLastLineOfAFileSpreadOverWorkersEndsAsTheLastLineHasIt() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("import-repeat");
        Datastore datastore = SharedEmulator.connect(conn);
        List<String> lines = new ArrayList<>();
        lines.add(line(datastore, "twice", 1));
        for (int i = 2; i < LINES; i++) {
            lines.add(line(datastore, "doc-" + i, i));
        }
        lines.add(line(datastore, "twice", LINES)); // some 200 KB on: another cell, another worker
        Path file = dir.resolve("repeat.jsonl");
        Files.write(file, lines);
        InProcessCli cli = new InProcessCli(dir, conn);
        String spec = cli.mapper("{\"template\":\"import\",\"file\":\"" + file.toString().replace("\\", "\\\\")
                + "\"}").toString();

        InProcessCli.Result imported = cli.run("run", "--kind", "Doc", "--mapper", spec, "--job-id", "rep",
                "--workers", "8", "--shards", "8");
        assertThat(imported.exitCode()).as(imported.out() + imported.err()).isZero();
        Key twice = datastore.newKeyFactory().setKind("Doc").newKey("twice");
        assertThat(datastore.get(twice).getLong("line")).as("the last line's version").isEqualTo(LINES);
        Map<String, Long> totals = ShardedCounter.existing(datastore, "job:rep").totals();
        assertThat(totals).containsEntry("written", (long) LINES - 1)
                .containsEntry("skipped: a later line has its key", 1L);
        assertThat(RichEntities.read(datastore, "", "Doc")).hasSize(LINES - 1);

        InProcessCli.Result revert = cli.run("revert", "rep");
        assertThat(revert.exitCode()).as(revert.out() + revert.err()).isZero();
        assertThat(RichEntities.read(datastore, "", "Doc")).as("everything the import created, gone").isEmpty();
    }

    @Test
    void aFileCutByCarriageReturnsOnlyIsRefusedBeforeAnythingIsWritten() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("import-cr");
        Datastore datastore = SharedEmulator.connect(conn);
        Path file = dir.resolve("cr.jsonl");
        Files.writeString(file, line(datastore, "a", 1) + "\r" + line(datastore, "b", 2) + "\r"
                + line(datastore, "c", 3) + "\r", StandardCharsets.UTF_8);
        InProcessCli cli = new InProcessCli(dir, conn);
        String spec = cli.mapper("{\"template\":\"import\",\"file\":\"" + file.toString().replace("\\", "\\\\")
                + "\"}").toString();

        InProcessCli.Result refused = cli.run("run", "--kind", "Doc", "--mapper", spec);
        assertThat(refused.exitCode()).as(refused.out() + refused.err()).isEqualTo(1);
        assertThat(refused.err()).contains("Line 1 of").contains("is not an exported entity")
                .contains("Nothing was imported").doesNotContain("\tat ");
        assertThat(RichEntities.read(datastore, "", "Doc")).as("nothing written").isEmpty();
    }

    @Test
    void aRunUnderTheIdOfAJobWithOtherOptionsOrOfAnotherKindIsRefused() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("import-options");
        Datastore datastore = SharedEmulator.connect(conn);
        SharedEmulator.putAll(datastore, RichEntities.of(datastore, "Item", 30));
        List<String> lines = List.of(line(datastore, "a", 1), line(datastore, "b", 2));
        Path file = dir.resolve("docs.jsonl");
        Files.write(file, lines);
        Path copy = dir.resolve("copy.jsonl");
        Files.write(copy, lines);
        InProcessCli cli = new InProcessCli(dir, conn);
        String spec = cli.mapper("{\"template\":\"import\",\"file\":\"" + file.toString().replace("\\", "\\\\")
                + "\"}").toString();
        String copySpec = cli.mapper("{\"template\":\"import\",\"file\":\"" + copy.toString().replace("\\", "\\\\")
                + "\"}").toString();
        assertThat(cli.run("run", "--kind", "Item", "--mapper", cli.mapper("{\"template\":\"count\"}").toString(),
                "--job-id", "counted").exitCode()).isZero();

        InProcessCli.Result otherKind = cli.run("run", "--kind", "Doc", "--mapper", spec, "--job-id", "counted");
        assertThat(otherKind.exitCode()).as(otherKind.out() + otherKind.err()).isEqualTo(1);
        assertThat(otherKind.err()).contains("Job counted is a 'count' job over Item").contains("another --job-id");

        assertThat(cli.run("run", "--kind", "Doc", "--mapper", spec, "--job-id", "imp").exitCode()).isZero();
        datastore.delete(datastore.newKeyFactory().setKind("Doc").newKey("a"));
        InProcessCli.Result otherPath = cli.run("run", "--kind", "Doc", "--mapper", copySpec, "--job-id", "imp");
        assertThat(otherPath.exitCode()).as(otherPath.out() + otherPath.err()).isEqualTo(1);
        assertThat(otherPath.err()).contains("Job imp was started with other options").contains(copy.toString())
                .contains("Nothing was written");
        assertThat(datastore.get(datastore.newKeyFactory().setKind("Doc").newKey("a"))).as("nothing written").isNull();
    }
}
