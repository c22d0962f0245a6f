package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.files.FileStore;
import io.keyranger.files.LocalFileStore;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a job's readers and writers ask of a {@link FileStore}, the same of each: the local disk, Beam's file systems
 * over a local folder, and Beam's over an object store ({@link BucketFileSystem}, as gs:// is on Dataflow).
 */
class FileStoresTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void registerTheFileSystems() {
        FileSystems.setDefaultPipelineOptions(PipelineOptionsFactory.create());
    }

    static Stream<Arguments> stores() throws Exception {
        BucketFileSystem.empty("file-stores");
        return Stream.of(Arguments.of("local disk", LocalFileStore.INSTANCE, dir.resolve("local").toString()),
                Arguments.of("Beam, local folder", BeamFileStore.INSTANCE, dir.resolve("beam").toString()),
                Arguments.of("Beam, object store", BeamFileStore.INSTANCE, "bucket://file-stores/root"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void readsWhatItWroteFromAnyByteAndListsFilesAndFoldersOneLevelAtATime(String name, FileStore store, String root)
            throws Exception {
        byte[] bytes = new byte[200_000];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31 + i / 251);
        }
        String data = store.resolve(root, "2026-11-27/output-0");
        try (OutputStream out = store.create(data)) {
            out.write(bytes);
        }
        for (String other : List.of("2026-11-27/a.overall_export_metadata", "2026-11-26/b.overall_export_metadata",
                "top.overall_export_metadata", "2026-11-27/deeper/c.overall_export_metadata")) {
            try (OutputStream out = store.create(store.resolve(root, other))) {
                out.write(other.getBytes(StandardCharsets.UTF_8));
            }
        }

        assertThat(store.size(data)).isEqualTo(bytes.length);
        assertThat(store.exists(data)).isTrue();
        assertThat(store.exists(store.resolve(root, "2026-11-27/none"))).isFalse();
        for (long offset : new long[] {0, 1, 32_768, 199_999, 200_000}) {
            try (InputStream in = store.open(data, offset)) {
                assertThat(in.readAllBytes()).as("from byte %d", offset)
                        .isEqualTo(Arrays.copyOfRange(bytes, (int) offset, bytes.length));
            }
        }
        assertThat(names(store, root, store.files(root))).as("the files directly in it, sorted")
                .containsExactly("top.overall_export_metadata");
        assertThat(names(store, root, store.folders(root))).as("its folders, sorted")
                .containsExactly("2026-11-26", "2026-11-27");
        assertThat(names(store, root, store.files(store.resolve(root, "2026-11-27")))).as("not the deeper ones")
                .containsExactly("2026-11-27/a.overall_export_metadata", "2026-11-27/output-0");
        assertThat(store.files(store.resolve(root, "none"))).isEmpty();
        assertThat(store.folders(store.resolve(root, "none"))).isEmpty();
        assertThat(store.parent(data)).as("the same string from every store").isEqualTo(root + "/2026-11-27");
        assertThat(store.resolve(store.parent(data), "output-0")).isEqualTo(data);
        if (store == LocalFileStore.INSTANCE) {
            assertThat(Files.readAllBytes(Path.of(data))).isEqualTo(bytes);
        }
    }

    private static List<String> names(FileStore store, String root, List<String> locations) {
        String prefix = store.resolve(root, "x");
        String folder = prefix.substring(0, prefix.length() - 1);
        return locations.stream().map(l -> l.startsWith(folder) ? l.substring(folder.length()) : l).toList();
    }
}
