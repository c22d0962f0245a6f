package io.keyranger.formats.managed;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StringValue;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The managed-export reader's throughput on one core, on an export of {@code -Dentities} (default 1,000,000) mixed
 * entities written by KeyRanger's own writer. Not part of {@code mvn verify} (the name does not end in Test):
 * {@code mvn -B -pl :keyranger test -Dtest=ManagedExportBenchmark [-Dentities=N] [-Dslice=N]}. Also loads a 50,000-
 * entity slice with the emulator's own {@code :import}, times it, and checks every entity it loaded. Prints figures;
 * asserts nothing about speed.
 */
class ManagedExportBenchmark {
    @Test
    void readerThroughputOnOneCore() throws Exception {
        int n = Integer.getInteger("entities", 1_000_000);
        Path dir = Files.createTempDirectory("export-bench");
        long started = System.nanoTime();
        Path root;
        try (ManagedExportWriter writer = ManagedExportWriter.create(dir)) {
            for (int i = 0; i < n; i++) {
                writer.write(entity(i));
            }
            writer.finish();
            root = writer.root();
        }
        double writeSeconds = (System.nanoTime() - started) / 1e9;
        ManagedExport export = ManagedExport.open(root);
        long bytes = export.parts().get(0).bytes();
        for (int round = 0; round < 2; round++) { // the first warms the JIT
            AtomicLong count = new AtomicLong();
            long t = System.nanoTime();
            export.forEach("bench", "", e -> count.incrementAndGet());
            double seconds = (System.nanoTime() - t) / 1e9;
            System.out.printf("read %s: %,d entities, %.1f MiB in %.2f s: %,.0f entities/s, %.1f MiB/s (one thread)%n",
                    round == 0 ? "(cold)" : "(warm)", count.get(), bytes / 1048576.0, seconds, count.get() / seconds,
                    bytes / 1048576.0 / seconds);
        }
        System.out.printf("write: %,d entities in %.2f s: %,.0f entities/s%n", n, writeSeconds, n / writeSeconds);
        importSlice(dir, Math.min(n, Integer.getInteger("slice", 50_000)));
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    /**
     * The first {@code slice} entities, written by KeyRanger's writer and loaded by the emulator's own {@code :import}
     * into a fresh project; every entity is read back from the emulator and compared with its source.
     */
    private static void importSlice(Path dir, int slice) throws Exception {
        Path written;
        try (ManagedExportWriter writer = ManagedExportWriter.create(dir.resolve("slice"))) {
            for (int i = 0; i < slice; i++) {
                writer.write(entity(i, "bench"));
            }
            writer.finish();
            written = writer.root();
        }
        ConnectionSpec target = SharedEmulator.freshProject("slice");
        long t = System.nanoTime();
        EmulatorExports.importInto(target, Path.of(ManagedExport.open(written).metadata()));
        double seconds = (System.nanoTime() - t) / 1e9;
        Datastore imported = SharedEmulator.connect(target);
        Map<Key, Entity> loaded = new HashMap<>();
        for (String ns : List.of("", "ns")) {
            imported.run(Query.newEntityQueryBuilder().setNamespace(ns).setKind("Account")
                    .build()).forEachRemaining(e -> loaded.put(e.getKey(), e));
        }
        long same = 0;
        for (int i = 0; i < slice; i++) {
            Entity source = entity(i, target.projectId());
            same += source.equals(loaded.get(source.getKey())) ? 1 : 0;
        }
        System.out.printf("emulator :import of a %,d-entity slice of KeyRanger's writer: %.2f s (%,.0f entities/s); "
                + "%,d of %,d read back equal to their source, %,d entities in all%n", slice, seconds, slice / seconds,
                same, slice, loaded.size());
        if (same != slice || loaded.size() != slice) {
            throw new AssertionError("the emulator's import of KeyRanger's export differs from its source");
        }
    }

    private static Entity entity(int i) {
        return entity(i, "bench");
    }

    private static Entity entity(int i, String project) {
        Key key = switch (i % 4) {
            case 0 -> Key.newBuilder(project, "Account", i + 1L, "").build();
            case 1 -> Key.newBuilder(project, "Account", "user-" + Integer.toHexString(i * 2654435761L > 0 ? i : -i), "")
                    .build();
            case 2 -> Key.newBuilder(project, "Account", 1_000_000_000L + i * 7919L, "")
                    .addAncestor(PathElement.of("Org", "o" + i % 50)).build();
            default -> Key.newBuilder(project, "Account", "ñ-" + i, "").setNamespace("ns").build();
        };
        return Entity.newBuilder(key).set("balance", (long) i).set("tier", i % 3 == 0 ? "pro" : "free")
                .set("active", i % 2 == 0).set("createdAt", Timestamp.ofTimeMicroseconds(1_700_000_000_000_000L + i))
                .set("note", StringValue.newBuilder("note " + i).setExcludeFromIndexes(true).build()).build();
    }
}
