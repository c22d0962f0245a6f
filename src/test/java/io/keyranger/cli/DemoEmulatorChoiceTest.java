package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.datastore.ServerType;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code demo --emulator legacy|firestore}: the same demo data on either of the Cloud SDK's emulators. */
class DemoEmulatorChoiceTest {
    @TempDir
    Path config;

    private final List<GuiStarter.StartupRequest> guiOpened = new ArrayList<>();

    private record Result(int exitCode, String out, String err) {
    }

    private Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        KeyRangerCli.Context context = new KeyRangerCli.Context(config,
                Map.of("PATH", System.getenv().getOrDefault("PATH", "")), guiOpened::add);
        int code = KeyRangerCli.execute(context, new PrintWriter(out), new PrintWriter(err), args);
        return new Result(code, out.toString(), err.toString());
    }

    private static String seededBlock(String out) {
        return out.substring(out.indexOf("Seeded:"), out.indexOf("Use it with:"));
    }

    @Test
    void theDemoRunsOnTheFirestoreEmulatorWithTheSameDataAsOnTheLegacyOne() {
        Result firestore = run("demo", "--emulator", "firestore", "--headless", "--exit", "--entities", "120");
        assertThat(firestore.exitCode()).as(firestore.err()).isZero();
        assertThat(firestore.out()).containsPattern("Firestore emulator \\(Datastore mode\\): 127\\.0\\.0\\.1:\\d+")
                .contains("Project: demo-project")
                .containsPattern("\\(default\\)/Account\\s+120");
        String hostPort = firestore.out().lines().filter(l -> l.startsWith("Firestore emulator (Datastore mode): "))
                .findFirst().orElseThrow().substring("Firestore emulator (Datastore mode): ".length());
        assertThat(run("jobs", "--emulator-host", hostPort).exitCode()).as("the emulator was stopped").isNotZero();

        Result legacy = run("demo", "--emulator", "legacy", "--headless", "--exit", "--entities", "120");
        assertThat(legacy.exitCode()).as(legacy.err()).isZero();
        assertThat(legacy.out()).containsPattern("Datastore emulator: 127\\.0\\.0\\.1:\\d+");
        assertThat(seededBlock(firestore.out())).isEqualTo(seededBlock(legacy.out()));
    }

    @Test
    void theAppsDemoIsOpenedOnTheChosenEmulator() {
        Result result = run("demo", "--emulator", "firestore");
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(guiOpened).hasSize(1);
        assertThat(guiOpened.get(0).demo().emulator()).isEqualTo(ServerType.FIRESTORE_EMULATOR);
        run("demo");
        assertThat(guiOpened.get(1).demo().emulator()).as("the default").isEqualTo(ServerType.EMULATOR);
    }

    @Test
    void aDataFolderOnTheFirestoreEmulatorIsRefusedInOneLine() throws Exception {
        Path dir = config.resolve("emulator-data");
        Result result = run("demo", "--emulator", "firestore", "--headless", "--exit", "--data-dir", dir.toString());
        assertThat(result.exitCode()).isNotZero();
        assertThat(result.err()).contains("--data-dir goes with the legacy emulator only")
                .contains("--emulator legacy").doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(result.err().strip().lines()).hasSize(1);
        assertThat(result.out()).isEmpty();
        assertThat(Files.exists(dir)).as("nothing was started or written").isFalse();

        Result unknown = run("demo", "--emulator", "cosmos", "--headless", "--exit");
        assertThat(unknown.exitCode()).isNotZero();
        assertThat(unknown.err().strip()).isEqualTo("keyranger: --emulator is legacy or firestore (got 'cosmos').");
    }
}
