package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What the command line says, in words a user can act on, with the figures the emulator itself gives. */
class CliWordingTest {
    private static final int BULK = 5_000;
    private static ConnectionSpec conn;
    private static InProcessCli cli;

    @BeforeAll
    static void seed() throws Exception {
        conn = SharedEmulator.freshProject("wording");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> accounts = new ArrayList<>();
        for (int i = 1; i <= BULK; i++) {
            accounts.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Account").newKey(i * 7919L))
                    .set("balance", (long) i).build());
        }
        SharedEmulator.putAll(datastore, accounts);
        cli = new InProcessCli(Files.createTempDirectory("wording"), conn);
    }

    @Test
    void previewSaysWhereItsTotalComesFromAndCountsItExactlyWhenAsked() {
        InProcessCli.Result estimated = cli.run("preview", "--kind", "Account", "--shards", "4");
        assertThat(estimated.exitCode()).as(estimated.err()).isZero();
        String first = estimated.out().lines().findFirst().orElseThrow();
        assertThat(first).doesNotContain("entities by").containsPattern(
                "; about [0-9,]+ entities \\(estimated from the scatter sample rate over the first keys\\); --exact "
                        + "counts them$");
        InProcessCli.Result exact = cli.run("preview", "--kind", "Account", "--shards", "4", "--exact");
        assertThat(exact.exitCode()).as(exact.err()).isZero();
        assertThat(exact.out().lines().findFirst().orElseThrow()).endsWith("; 5,000 entities (exact, by a keys-only "
                + "scan)");
    }

    @Test
    void aDryRunsCostIsOfTheExactCountWhereCountingIsCheap() throws Exception {
        Path spec = cli.mapper("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":1}");
        InProcessCli.Result dry = cli.run("run", "--kind", "Account", "--mapper", spec.toString(), "--dry-run");
        assertThat(dry.exitCode()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("Whole job, over 5,000 entities (exact, by a keys-only scan): 5,000 reads, "
                + "5,264 writes").contains("Writes include about 264 undo records"); // 19 images a record here
        InProcessCli.Result noUndo = cli.run("run", "--kind", "Account", "--mapper", spec.toString(), "--dry-run",
                "--no-undo");
        assertThat(noUndo.out()).contains("5,000 reads, 5,000 writes")
                .contains("Undo is off (--no-undo): this job cannot be reverted.");
    }

    @Test
    void aKindThatIsNotThereIsSaidFirstWithTheNearestName() throws Exception {
        Path spec = cli.mapper("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":1}");
        for (String dry : List.of("--dry-run", "--shards=1")) {
            InProcessCli.Result typo = cli.run("run", "--kind", "Acount", "--mapper", spec.toString(), dry);
            assertThat(typo.exitCode()).isEqualTo(1);
            assertThat(typo.err()).startsWith("keyranger: Kind 'Acount' was not found in the default namespace. Did "
                    + "you mean 'Account'?").doesNotContain("warning").doesNotContain("balance");
        }
    }

    @Test
    void previewSaysAKindThatIsNotThereAsRunDoesWithTheNearestName() {
        InProcessCli.Result typo = cli.run("preview", "--kind", "Acount", "--shards", "4");
        assertThat(typo.exitCode()).isEqualTo(1);
        assertThat(typo.err()).startsWith("keyranger: Kind 'Acount' was not found in the default namespace. Did you "
                + "mean 'Account'? Run 'keyranger kinds'").doesNotContain("''");
        assertThat(typo.out()).isEmpty();
    }

    @Test
    void kindsSaysAKindThatIsNotThereAsRunDoesWithTheNearestName() {
        InProcessCli.Result typo = cli.run("kinds", "--kind", "Acount");
        assertThat(typo.exitCode()).isEqualTo(1);
        assertThat(typo.err()).startsWith("keyranger: Kind 'Acount' was not found in the default namespace. Did you "
                + "mean 'Account'? Run 'keyranger kinds'");
    }

    @Test
    void anUnknownOptionOfAnyCommandIsOneLineWithPicocliSuggestion() {
        InProcessCli.Result typo = cli.run("run", "--kindd", "Account");
        assertThat(typo.exitCode()).isEqualTo(2);
        assertThat(typo.err().lines().toList()).containsExactly("keyranger: Unknown option '--kindd' for 'keyranger "
                + "run'. Did you mean '--kind'? 'keyranger run --help' lists what it takes.");
        assertThat(typo.out()).isEmpty();
        InProcessCli.Result joined = cli.run("run", "--kindd=Account", "--mapper", "m.json");
        assertThat(joined.err().lines().toList()).singleElement().asString().startsWith("keyranger: Unknown option "
                + "'--kindd' for 'keyranger run'. Did you mean '--kind'?");
        for (String command : List.of("gui", "demo", "kinds", "preview", "run", "jobs", "revert", "counter", "entity",
                "export-info", "diff", "restore")) {
            InProcessCli.Result unknown = cli.run(command, "--no-such-option", "x");
            assertThat(unknown.exitCode()).as(command).isEqualTo(2);
            assertThat(unknown.err().lines().toList()).as(command).singleElement().asString()
                    .startsWith("keyranger: Unknown option '--no-such-option' for 'keyranger " + command + "'.")
                    .doesNotContain("'x'");
        }
        InProcessCli.Result command = cli.run("runn", "--kind", "Account");
        assertThat(command.exitCode()).isEqualTo(2);
        assertThat(command.err().lines().toList()).singleElement().asString()
                .startsWith("keyranger: Unknown command 'runn' for 'keyranger'. Did you mean 'run'?");
    }

    @Test
    void runHelpListsEveryTemplateWithItsParameters() {
        InProcessCli.Result help = cli.run("run", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("Templates (");
        for (String name : Mappers.names()) {
            assertThat(help.out()).as(name).containsPattern("(?m)^  " + Pattern.quote(name) + " +\\S");
        }
        assertThat(help.out().replaceAll("\\s+", " ")).contains("Parameters: property, amount, createMissing (optional)");
    }
}
