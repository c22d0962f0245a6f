package io.keyranger.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.keyranger.KeyRangerException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A migrations folder read and checked as {@code migrate} reads it, and the README's example folder. */
class MigrationFolderTest {
    @TempDir
    Path dir;

    @Test
    void theReadmesExampleFolderIsValidAndInOrder() {
        List<Migration> read = MigrationFolder.read(Path.of("examples", "migrations"));
        assertThat(read).extracting(Migration::number).containsExactly(1, 2, 3);
        assertThat(read.get(0).steps()).hasSize(2);
        assertThat(read.get(1).steps().get(0).kind()).isEqualTo("Account");
        assertThat(read.get(1).steps().get(0).mapper().query()).isNotNull();
    }

    @Test
    void aChecksumIsOfTheFilesBytes() throws Exception {
        write("0001_a.json", "{\"steps\": [{\"kind\": \"A\", \"mapper\": {\"template\": \"count\"}}]}");
        String first = MigrationFolder.read(dir).get(0).checksum();
        write("0001_a.json", "{\"steps\": [{\"kind\": \"A\",  \"mapper\": {\"template\": \"count\"}}]}");
        assertThat(MigrationFolder.read(dir).get(0).checksum()).isNotEqualTo(first).hasSize(64);
    }

    @Test
    void badFilesAreRefusedNamingTheFile() throws Exception {
        write("0001_a.json", "{\"steps\": [{\"kind\": \"A\", \"mapper\": {\"template\": \"count\"}}]}");
        write("1_b.json", "{\"steps\": [{\"kind\": \"B\", \"mapper\": {\"template\": \"count\"}}]}");
        refused("1_b.json and 0001_a.json have the same number 1");
        Files.delete(dir.resolve("1_b.json"));

        write("readme.json", "{}");
        refused("readme.json is not named as a migration");
        Files.delete(dir.resolve("readme.json"));

        write("0002_b.json", "{\"steps\": [");
        refused("0002_b.json is not valid JSON");
        write("0002_b.json", "{\"steps\": []}");
        refused("0002_b.json: a migration is {\"steps\": [STEP, ...]} with at least one step");
        write("0002_b.json", "{\"steps\": [{\"kind\": \"A\", \"gql\": \"SELECT * FROM A\", \"mapper\": "
                + "{\"template\": \"count\"}}]}");
        refused("0002_b.json, step 1: give exactly one of \"kind\", \"kinds\" or \"gql\"");
        write("0002_b.json", "{\"steps\": [{\"kind\": \"A\"}]}");
        refused("0002_b.json, step 1: \"mapper\" is required");
        write("0002_b.json", "{\"steps\": [{\"kind\": \"A\", \"mapper\": {\"template\": \"transform\", \"set\": "
                + "{\"x\": \"y +\"}}}]}");
        refused("0002_b.json, step 1: ");
        Path file = dir.resolve("x.jsonl");
        Files.writeString(file, "");
        write("0002_b.json", "{\"steps\": [{\"kinds\": [\"A\", \"B\"], \"mapper\": {\"template\": \"import\", "
                + "\"file\": \"" + file + "\"}}]}");
        refused("reads a file into one kind");
    }

    private void write(String name, String text) throws Exception {
        Files.writeString(dir.resolve(name), text);
    }

    private void refused(String message) {
        assertThatThrownBy(() -> MigrationFolder.read(dir)).isInstanceOf(KeyRangerException.class)
                .hasMessageContaining(message);
    }
}
