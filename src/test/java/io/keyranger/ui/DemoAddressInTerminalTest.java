package io.keyranger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.app.KeyRangerApp;
import io.keyranger.cli.GuiStarter.StartupRequest;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.demo.DemoRequest;
import io.keyranger.support.Fx;
import io.keyranger.support.InProcessCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javafx.application.Application;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

/**
 * The app's demo says in the terminal where its emulator listens, as {@code demo --headless} does, so that the
 * command line can be used beside the window (the window's demo has no headless path: this drives the real window).
 */
class DemoAddressInTerminalTest {
    @Test
    void theWindowsDemoPrintsItsEmulatorsAddressAndTheCliReadsTheDemoThere() throws Exception {
        PrintStream terminal = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Path config = Files.createTempDirectory("keyranger-demo-address");
        Application app = null;
        try {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            FxToolkit.registerPrimaryStage();
            app = FxToolkit.setupApplication(() -> new KeyRangerApp(config,
                    new StartupRequest(null, new DemoRequest(80, 0, null), null)));
            Fx.waitUntil(120, () -> printed.toString(StandardCharsets.UTF_8)
                    .contains("The emulator runs until KeyRanger quits."));
            System.setOut(terminal);
            String said = printed.toString(StandardCharsets.UTF_8);
            Matcher env = Pattern.compile("Use it with: export DATASTORE_EMULATOR_HOST=(127\\.0\\.0\\.1:\\d+) "
                    + "DATASTORE_PROJECT_ID=demo-project \\(or keyranger's --emulator-host (\\S+)\\)").matcher(said);
            assertThat(env.find()).as(said).isTrue();
            String host = env.group(1);
            assertThat(env.group(2)).isEqualTo(host);
            assertThat(said).contains("Datastore emulator: " + host + "\nProject: demo-project\n");

            InProcessCli beside = new InProcessCli(config, ConnectionSpec.emulator(host, "demo-project",
                    ServerType.EMULATOR));
            InProcessCli.Result kinds = beside.run("kinds", "--counts");
            assertThat(kinds.exitCode()).as(kinds.err()).isZero();
            assertThat(kinds.out()).containsPattern("\\(default\\)\\s+Account\\s+80\\s");
        } finally {
            System.setOut(terminal);
            if (app != null) {
                FxToolkit.cleanupApplication(app);
            }
            FxToolkit.cleanupStages();
        }
    }
}
