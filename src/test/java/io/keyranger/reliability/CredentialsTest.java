package io.keyranger.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.logging.Redaction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A planted secret never reaches the log or the screen, and profiles keep only the key file's path. */
class CredentialsTest {
    private static final String SECRET = "SECRETMARKER9f3c1a";

    @TempDir
    Path dir;

    private Process launch(Path logDir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                "-Dlogback.configurationFile=" + Path.of("target/classes/logback.xml").toAbsolutePath(),
                "-Dkeyranger.log.dir=" + logDir, "-Dkeyranger.config.dir=" + dir, "io.keyranger.app.Main"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("screen.txt").toFile())
                .start();
    }

    @Test
    void aPlantedSecretNeverReachesTheLogOrTheScreen() throws Exception {
        Path key = dir.resolve("key.json");
        Files.writeString(key, "{\"type\": \"service_account\", \"project_id\": \"p\", \"private_key_id\": \"" + SECRET
                + "\", \"private_key\": \"-----BEGIN PRIVATE KEY-----\\n" + SECRET + "\\n-----END PRIVATE KEY-----\\n\", "
                + "\"client_email\": \"x@p.iam.gserviceaccount.com\", \"client_id\": \"1\", \"token_uri\": "
                + "\"https://oauth2.googleapis.com/token\"}");
        Path logs = dir.resolve("logs");
        Process cli = launch(logs, "kinds", "--project", "keyranger-test", "--credentials", key.toString());
        assertThat(cli.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(cli.exitValue()).isNotZero();
        String screen = Files.readString(dir.resolve("screen.txt"));
        assertThat(screen).contains("keyranger:").doesNotContain(SECRET).doesNotContain("\tat ")
                .as("no logging-framework chatter on screen").doesNotContain("|-INFO").doesNotContain("|-WARN");
        Path log = logs.resolve("keyranger.log");
        assertThat(log).exists();
        String text = Files.readString(log);
        assertThat(text).as("the log records the failure").contains("command failed");
        assertThat(text).doesNotContain(SECRET);
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(Files::isRegularFile).filter(f -> !f.equals(key)).toList()) {
                assertThat(Files.readString(file)).as("%s", file).doesNotContain(SECRET);
            }
        }
    }

    @Test
    void redactionMasksKeysTokensAndSecretsInEveryShape() {
        String masked = Redaction.redact("json {\"private_key\": \"-----BEGIN PRIVATE KEY-----\n"
                + SECRET + "\n-----END PRIVATE KEY-----\n\", \"private_key_id\": \"" + SECRET + "\"} header "
                + "Authorization: Bearer " + SECRET + " query ?access_token=" + SECRET + "&x=1 form client_secret="
                + SECRET + " escaped \\\"refresh_token\\\": \\\"" + SECRET + "\\\"");
        assertThat(masked).doesNotContain(SECRET).contains("[REDACTED KEY]").contains("[REDACTED]")
                .contains("header Authorization").contains("&x=1");
        assertThat(Redaction.redact("read 20,000 entities of Account")).isEqualTo(
                "read 20,000 entities of Account");
    }
}
