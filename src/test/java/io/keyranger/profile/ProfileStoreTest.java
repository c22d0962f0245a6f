package io.keyranger.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.keyranger.KeyRangerException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileStoreTest {
    @TempDir
    Path dir;

    @Test
    void savesAndLoadsProfilesKeepingOnlyAKeyFilePath() throws Exception {
        ProfileStore store = new ProfileStore(dir);
        store.save(new ConnectionProfile("local", "127.0.0.1:8081", null, null, null, null, false));
        store.save(new ConnectionProfile("prod", null, "acme-prod", "eu", "/keys/sa.json", "billing", true));
        store.save(new ConnectionProfile("local", "127.0.0.1:9000", null, null, null, null, false));

        ProfileStore reopened = new ProfileStore(dir);
        assertThat(reopened.load()).extracting(ConnectionProfile::name).containsExactly("prod", "local");
        assertThat(reopened.require("local").emulatorHost()).isEqualTo("127.0.0.1:9000");
        var prod = reopened.require("prod").toSpec();
        assertThat(prod.projectId()).isEqualTo("acme-prod");
        assertThat(prod.credentialsFile()).isEqualTo(Path.of("/keys/sa.json"));
        assertThat(prod.readOnly()).isTrue();
        assertThat(Files.readString(store.file())).contains("\"credentialsFile\" : \"/keys/sa.json\"")
                .doesNotContain("private_key");
    }

    @Test
    void leavesNoTemporaryFilesBehind() throws Exception {
        ProfileStore store = new ProfileStore(dir);
        for (int i = 0; i < 5; i++) {
            store.save(new ConnectionProfile("p" + i, "127.0.0.1:8081", null, null, null, null, false));
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("profiles.json");
        }
    }

    @Test
    void keepsACorruptFileAsideAndSaysSo() throws Exception {
        Path file = dir.resolve("profiles.json");
        String garbage = "{\"profiles\": [ {\"name\": \"prod\", ";
        Files.writeString(file, garbage);
        ProfileStore store = new ProfileStore(dir);

        assertThatThrownBy(store::load)
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("profiles.json is not valid JSON")
                .hasMessageContaining("kept as profiles.json.corrupt-");
        Path aside;
        try (Stream<Path> files = Files.list(dir)) {
            aside = files.filter(p -> p.getFileName().toString().startsWith("profiles.json.corrupt-")).findFirst().orElseThrow();
        }
        assertThat(Files.readString(aside)).isEqualTo(garbage);
        assertThat(store.load()).isEmpty();

        store.save(new ConnectionProfile("fresh", "127.0.0.1:8081", null, null, null, null, false));
        assertThat(Files.readString(aside)).as("the corrupt file is never overwritten").isEqualTo(garbage);
        assertThat(store.load()).extracting(ConnectionProfile::name).containsExactly("fresh");
    }

    @Test
    void readsFilesWrittenByANewerVersion() throws Exception {
        Files.writeString(dir.resolve("profiles.json"), "{\"version\": 2, \"future\": true, \"profiles\": "
                + "[{\"name\": \"x\", \"emulatorHost\": \"h:1\", \"colour\": \"blue\"}]}");
        assertThat(new ProfileStore(dir).require("x").emulatorHost()).isEqualTo("h:1");
    }

    @Test
    void unknownProfileNamesTheOnesThatExist() {
        ProfileStore store = new ProfileStore(dir);
        store.save(new ConnectionProfile("local", "127.0.0.1:8081", null, null, null, null, false));
        assertThatThrownBy(() -> store.require("prod"))
                .isInstanceOf(KeyRangerException.class)
                .hasMessage("No saved connection named 'prod'; saved: local.");
    }

    @Test
    void settingsSurviveARoundTrip() {
        SettingsStore settings = new SettingsStore(dir);
        assertThat(settings.load()).isEqualTo(AppSettings.DEFAULTS);
        settings.save(new AppSettings("/opt/google-cloud-sdk", true));
        assertThat(new SettingsStore(dir).load()).isEqualTo(new AppSettings("/opt/google-cloud-sdk", true));
    }
}
