package io.keyranger.undo;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * A key that one job writes twice, in two commits: its undo record keeps the state before the job's first write, so a
 * revert (without --force, nobody else having written) brings back exactly what was there before the job.
 */
@OnDataEmulators
class RepeatedWriteRevertTest {
    @Parameter
    ServerType server;
    @TempDir
    Path dir;

    private ConnectionSpec conn;
    private Datastore datastore;
    private InProcessCli cli;

    @BeforeEach
    void connect() {
        conn = SharedEmulator.freshProject(server, "rewrite");
        datastore = SharedEmulator.connect(conn);
        cli = new InProcessCli(dir, conn);
    }

    private static void assertOk(InProcessCli.Result result) {
        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
    }

    private Key other(String name) {
        return datastore.newKeyFactory().setKind("Other").newKey(name);
    }

    private String line(String name, String from) {
        return EntityCodec.encode(Entity.newBuilder(other(name)).set("from", from).set("n", 1L).build()).toString();
    }

    /**
     * Lines 1 and 152 create and rewrite {@code new-0}; lines 101 and 153 overwrite {@code x5} twice. An import commits
     * at most 23 entities a transaction on the emulator, so each pair lands in two commits.
     */
    @Test
    void anImportThatWritesAKeyTwiceIsRevertedToTheStateBeforeTheImport() throws Exception {
        importKeysTwiceThenRevert();
    }

    /** The same under failed calls and commits whose answer is lost: a retried commit leaves the record as it was. */
    @Test
    void anImportThatWritesAKeyTwiceUnderLostCommitAnswersIsRevertedToTheStateBeforeTheImport() throws Exception {
        importKeysTwiceThenRevert("--inject-faults", "rate=0.05,lost=0.3,seed=12");
    }

    private void importKeysTwiceThenRevert(String... runOptions) throws Exception {
        List<Entity> seed = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            seed.add(Entity.newBuilder(other("x" + i)).set("from", "seed").set("n", (long) i).build());
        }
        SharedEmulator.putAll(datastore, seed);
        Map<Key, Entity> before = RichEntities.read(datastore, "", "Other");
        assertThat(before).hasSize(20);

        List<String> lines = new ArrayList<>();
        lines.add(line("new-0", "line 1"));
        for (int i = 2; i <= 100; i++) {
            lines.add(line("fill-" + i, "line " + i));
        }
        lines.add(line("x5", "line 101"));
        for (int i = 102; i <= 151; i++) {
            lines.add(line("fill-" + i, "line " + i));
        }
        lines.add(line("new-0", "line 152"));
        lines.add(line("x5", "line 153"));
        Path file = dir.resolve("twice.jsonl");
        Files.write(file, lines);

        List<String> args = new ArrayList<>(List.of("run", "--kind", "Other", "--mapper", cli.mapper(
                "{\"template\":\"import\",\"file\":\"" + file.toString().replace("\\", "\\\\") + "\"}").toString(),
                "--job-id", "imp-twice"));
        args.addAll(List.of(runOptions));
        assertOk(cli.run(args.toArray(new String[0])));
        assertThat(datastore.get(other("new-0")).getString("from")).isEqualTo("line 152");
        assertThat(datastore.get(other("x5")).getString("from")).isEqualTo("line 153");

        InProcessCli.Result revert = cli.run("revert", "imp-twice", "--job-id", "undo-imp-twice");
        assertOk(revert);
        assertThat(revert.out()).doesNotContain("changed since");
        assertThat(datastore.get(other("new-0"))).as("the key the import created").isNull();
        assertThat(datastore.get(other("x5"))).as("the key the import overwrote twice").isEqualTo(
                before.get(other("x5")));
        assertThat(RichEntities.read(datastore, "", "Other")).as("new-0 gone, x5 as seeded, every fill gone")
                .isEqualTo(before);
    }

    /**
     * Six sources under six parents copied with {@code keepAncestors: false} all land on {@code Flat:"dup"}; pages of
     * two keys put them in several commits. The revert, without --force, deletes what the copy created.
     */
    @Test
    void aCopyWhoseSourcesCollideOnOneTargetIsRevertedWithoutForce() throws Exception {
        copyOntoOneTargetThenRevert();
    }

    /** The same under failed calls and commits whose answer is lost. */
    @Test
    void aCopyWhoseSourcesCollideOnOneTargetUnderLostCommitAnswersIsRevertedWithoutForce() throws Exception {
        copyOntoOneTargetThenRevert("--inject-faults", "rate=0.05,lost=0.3,seed=5");
    }

    private void copyOntoOneTargetThenRevert(String... runOptions) throws Exception {
        List<Entity> sources = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Key key = datastore.newKeyFactory().addAncestor(PathElement.of("Parent", "p" + i))
                    .setKind("Src").newKey("dup");
            sources.add(Entity.newBuilder(key).set("from", (long) i).build());
        }
        SharedEmulator.putAll(datastore, sources);

        List<String> args = new ArrayList<>(List.of("run", "--kind", "Src", "--mapper", cli.mapper(
                "{\"template\":\"copy\",\"toKind\":\"Flat\",\"keepAncestors\":false}").toString(), "--job-id", "cp-dup",
                "--page-size", "2", "--workers", "3"));
        args.addAll(List.of(runOptions));
        assertOk(cli.run(args.toArray(new String[0])));
        assertThat(RichEntities.read(datastore, "", "Flat")).hasSize(1);

        InProcessCli.Result revert = cli.run("revert", "cp-dup", "--job-id", "undo-cp-dup");
        assertOk(revert);
        assertThat(revert.out()).doesNotContain("changed since");
        assertThat(RichEntities.read(datastore, "", "Flat")).as("no target left").isEmpty();
        assertThat(RichEntities.read(datastore, "", "Src")).hasSize(6);
    }
}
