package io.keyranger.jmh;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import java.util.Random;

/** Keys of the shapes the micro-benchmarks compare and split, from a fixed seed. */
final class BenchKeys {
    private static final String PROJECT = "bench";

    private BenchKeys() {
    }

    static Key[] keys(String shape, int count) {
        Random random = new Random(7);
        Key[] keys = new Key[count];
        for (int i = 0; i < count; i++) {
            keys[i] = switch (shape) {
                case "ids" -> Key.newBuilder(PROJECT, "Account", 1 + (random.nextLong() >>> 12)).build();
                case "ascii-names" -> Key.newBuilder(PROJECT, "Account", "user-" + Long.toString(random.nextLong() >>> 1, 36))
                        .build();
                case "non-ascii-names" -> Key.newBuilder(PROJECT, "Account", nonAscii(random)).build();
                case "mixed" -> random.nextBoolean() ? Key.newBuilder(PROJECT, "Account", 1 + random.nextInt(1_000_000)).build()
                        : Key.newBuilder(PROJECT, "Account", "n" + random.nextInt(1_000_000)).build();
                case "ancestors" -> Key.newBuilder(PROJECT, "Event", 1 + random.nextInt(1_000_000))
                        .addAncestors(PathElement.of("Org", "org-" + random.nextInt(20)),
                                PathElement.of("Team", 1 + random.nextInt(50)))
                        .build();
                default -> throw new IllegalArgumentException("Unknown shape " + shape);
            };
        }
        return keys;
    }

    /** Names that mix ASCII, the private use area (U+E000-U+F8FF) and characters beyond U+FFFF. */
    private static String nonAscii(Random random) {
        StringBuilder name = new StringBuilder("k");
        for (int j = 0; j < 8; j++) {
            int kind = random.nextInt(3);
            int codePoint = kind == 0 ? 'a' + random.nextInt(26) : kind == 1 ? 0xE000 + random.nextInt(0x1000)
                    : 0x1F600 + random.nextInt(0x50);
            name.appendCodePoint(codePoint);
        }
        return name.toString();
    }
}
