package io.keyranger.managed;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.StringValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The managed-export reader's throughput on one core, on an export of {@code -Dentities} (default 1,000,000) mixed
 * entities written by KeyRanger's own writer. Not part of {@code mvn verify} (the name does not end in Test):
 * {@code mvn -B -pl :keyranger test -Dtest=ManagedExportBenchmark [-Dentities=N]}. Prints figures; asserts nothing
 * about speed.
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
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    private static Entity entity(int i) {
        Key key = switch (i % 4) {
            case 0 -> Key.newBuilder("bench", "Account", i + 1L, "").build();
            case 1 -> Key.newBuilder("bench", "Account", "user-" + Integer.toHexString(i * 2654435761L > 0 ? i : -i), "")
                    .build();
            case 2 -> Key.newBuilder("bench", "Account", 1_000_000_000L + i * 7919L, "")
                    .addAncestor(PathElement.of("Org", "o" + i % 50)).build();
            default -> Key.newBuilder("bench", "Account", "ñ-" + i, "").setNamespace("ns").build();
        };
        return Entity.newBuilder(key).set("balance", (long) i).set("tier", i % 3 == 0 ? "pro" : "free")
                .set("active", i % 2 == 0).set("createdAt", Timestamp.ofTimeMicroseconds(1_700_000_000_000_000L + i))
                .set("note", StringValue.newBuilder("note " + i).setExcludeFromIndexes(true).build()).build();
    }
}
