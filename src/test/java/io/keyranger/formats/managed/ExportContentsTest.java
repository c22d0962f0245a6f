package io.keyranger.formats.managed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export of all kinds is read through once for what it holds: once the Backups tab has read it (or a command's
 * first check has), checking that it holds a kind (as every restore, diff and Compare does) reads none of its
 * entities again, even through another {@link ManagedExport} opened on the same folder. Shown by emptying its entity
 * file after the first pass: a second reading would find nothing there.
 */
class ExportContentsTest {
    @TempDir
    Path dir;

    @Test
    void aKindIsCheckedFromTheCountsOfTheFirstPassNotByReadingTheExportAgain() throws Exception {
        Path root;
        try (ManagedExportWriter writer = ManagedExportWriter.create(dir)) {
            writer.write(entity("Early", 1));
            for (long id = 1; id <= 3; id++) {
                writer.write(entity("Late", id));
            }
            writer.finish();
            root = writer.root();
        }
        ExportContents read = ExportContents.scan(ManagedExport.open(root), "p", "", null, n -> { },
                Cancellation.NEVER); // as the Backups tab opens it
        assertThat(read.counts()).isEqualTo(Map.of("", Map.of("Early", 1L, "Late", 3L)));
        Files.write(root.resolve("all_namespaces/all_kinds/output-0"), new byte[0]);

        ManagedExport again = ManagedExport.open(root); // as a restore opens it anew
        ExportContents.requireHolds(again, "p", "", "", "Late");
        assertThatThrownBy(() -> ExportContents.requireHolds(again, "p", "", "", "Lat"))
                .isInstanceOf(KeyRangerException.class).hasMessageContaining("holds no entity of kind 'Lat'")
                .hasMessageContaining("Did you mean kind 'Late'?");
    }

    /** Not read before, an export of all kinds is read only until the first entity of the kind asked for. */
    @Test
    void aKindNotReadBeforeIsFoundAtItsFirstEntity() throws Exception {
        Path root;
        try (ManagedExportWriter writer = ManagedExportWriter.create(dir.resolve("second"))) {
            writer.write(entity("First", 1));
            for (long id = 1; id <= 2_000; id++) {
                writer.write(entity("Bulk", id));
            }
            writer.finish();
            root = writer.root();
        }
        Path output = root.resolve("all_namespaces/all_kinds/output-0");
        byte[] whole = Files.readAllBytes(output);
        Files.write(output, Arrays.copyOf(whole, whole.length / 2)); // cut short after the first entity
        ExportContents.requireHolds(ManagedExport.open(root), "p", "", "", "First");
    }

    private static Entity entity(String kind, long id) {
        return Entity.newBuilder(Key.newBuilder("p", kind, id).build()).set("n", id).build();
    }
}
