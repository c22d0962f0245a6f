package io.keyranger.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.cli.KeyRangerCli;
import io.keyranger.datastore.ConnectionSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code keyranger ARGS --emulator-host … --project …} in this JVM, with its config in a test's folder. */
public final class InProcessCli {
    private final Path configDir;
    private final ConnectionSpec conn;

    public InProcessCli(Path configDir, ConnectionSpec conn) {
        this.configDir = configDir;
        this.conn = conn;
    }

    /** What a command printed, and its exit code. */
    public record Result(int exitCode, String out, String err) {
        /** Asserts the command succeeded (exit 0), showing what it printed otherwise. */
        public Result ok() {
            assertThat(exitCode).as(out + err).isZero();
            return this;
        }

        /**
         * Asserts the command was refused as bad input: exit {@link KeyRangerCli#EXIT_USER_ERROR}, one message that
         * {@code says} it, no stack trace, and no comparison printed.
         */
        public void refused(String says) {
            assertThat(exitCode).as(out + err).isEqualTo(KeyRangerCli.EXIT_USER_ERROR);
            assertThat(err).contains(says).doesNotContain("\tat ").doesNotContain("Exception");
            assertThat(out).doesNotContain("compared with live data");
        }
    }

    public Result run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--emulator-host", conn.emulatorHost(), "--project", conn.projectId()));
        return offline(all.toArray(new String[0]));
    }

    /** A command that takes no connection (export-info), run as given. */
    public Result offline(String... all) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = KeyRangerCli.execute(new KeyRangerCli.Context(configDir, Map.of(), request -> { }),
                new PrintWriter(out), new PrintWriter(err), all);
        return new Result(code, out.toString(), err.toString());
    }

    /** A mapper spec file in the config folder. */
    public Path mapper(String json) throws IOException {
        Path file = Files.createTempFile(configDir, "mapper", ".json");
        Files.writeString(file, json);
        return file;
    }
}
