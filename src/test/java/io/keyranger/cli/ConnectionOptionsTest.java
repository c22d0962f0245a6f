package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.profile.ConnectionProfile;
import io.keyranger.profile.ProfileStore;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ConnectionOptionsTest {
    @TempDir
    Path dir;

    private ConnectionOptions parse(String... args) {
        ConnectionOptions options = new ConnectionOptions();
        new CommandLine(options).parseArgs(args);
        return options;
    }

    @Test
    void emulatorVariablesFillTheGaps() {
        // named, not resolved: no emulator answers at these hosts, and resolving asks it which it is
        ConnectionSpec spec = parse().named(new ProfileStore(dir),
                Map.of("DATASTORE_EMULATOR_HOST", "127.0.0.1:9999", "DATASTORE_PROJECT_ID", "env-project"));
        assertThat(spec.emulatorHost()).isEqualTo("127.0.0.1:9999");
        assertThat(spec.projectId()).isEqualTo("env-project");
        assertThat(spec.isEmulator()).isTrue();
    }

    @Test
    void emulatorWithoutProjectUsesDemoProject() {
        ConnectionSpec spec = parse("--emulator-host", "localhost:8081", "--namespace", "staging")
                .named(new ProfileStore(dir), Map.of());
        assertThat(spec.projectId()).isEqualTo("demo-project");
        assertThat(spec.namespace()).isEqualTo("staging");
    }

    @Test
    void explicitOptionsOverrideTheProfileAndTheProfileOverridesTheEnvironment() {
        ProfileStore store = new ProfileStore(dir);
        store.save(new ConnectionProfile("prod", null, "acme-prod", "eu-db", "/k.json", "billing", true));
        ConnectionSpec fromProfile = parse("--profile", "prod").resolve(store, Map.of("DATASTORE_EMULATOR_HOST", "h:1"));
        assertThat(fromProfile.isEmulator()).isFalse();
        assertThat(fromProfile.projectId()).isEqualTo("acme-prod");
        assertThat(fromProfile.readOnly()).isTrue();
        ConnectionSpec overridden = parse("--profile", "prod", "--namespace", "other", "--database", "us-db")
                .resolve(store, Map.of());
        assertThat(overridden.namespace()).isEqualTo("other");
        assertThat(overridden.databaseId()).isEqualTo("us-db");
        assertThat(overridden.credentialsFile()).isEqualTo(Path.of("/k.json"));
    }

    @Test
    void noConnectionAtAllIsAClearError() {
        assertThatThrownBy(() -> parse().resolve(new ProfileStore(dir), Map.of()))
                .isInstanceOf(KeyRangerException.class)
                .hasMessageContaining("--emulator-host HOST:PORT, --project ID or --profile NAME");
    }
}
