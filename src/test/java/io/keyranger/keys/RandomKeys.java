package io.keyranger.keys;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Random keys that exercise every ordering rule: ids and names, all of Unicode, 0–3 ancestors of several kinds. */
final class RandomKeys {
    static final String KIND = "Prop";
    private static final String[] ANCESTOR_KINDS = {"A", "B", "Prop", "Zz", "é", "日本"};

    private final Random random;
    private final String project;

    RandomKeys(long seed, String project) {
        this.random = new Random(seed);
        this.project = project;
    }

    Key next() {
        int depth = random.nextInt(4);
        List<PathElement> ancestors = new ArrayList<>();
        for (int i = 0; i < depth; i++) {
            String kind = ANCESTOR_KINDS[random.nextInt(ANCESTOR_KINDS.length)];
            ancestors.add(random.nextBoolean() ? PathElement.of(kind, id()) : PathElement.of(kind, name()));
        }
        Key.Builder builder = random.nextBoolean() ? Key.newBuilder(project, KIND, id(), "")
                : Key.newBuilder(project, KIND, name(), "");
        return builder.addAncestors(ancestors).build();
    }

    long id() {
        return switch (random.nextInt(3)) {
            case 0 -> 1 + random.nextInt(20);
            case 1 -> 1 + random.nextInt(1_000_000);
            default -> 1 + (random.nextLong() >>> 1) % (Long.MAX_VALUE - 1);
        };
    }

    String name() {
        int length = 1 + random.nextInt(5);
        StringBuilder name = new StringBuilder();
        for (int i = 0; i < length; i++) {
            name.appendCodePoint(codePoint());
        }
        String value = name.toString();
        return value.startsWith("__") ? "x" + value : value;
    }

    private int codePoint() {
        return switch (random.nextInt(6)) {
            case 0 -> 'a' + random.nextInt(26);
            case 1 -> 0x20 + random.nextInt(0x5F);
            case 2 -> 0xA0 + random.nextInt(0x160);
            case 3 -> 0xE000 + random.nextInt(0x2000) * 8 % 0x1FFE; // private use up to U+FFFD
            case 4 -> 0x1F600 + random.nextInt(0x50); // emoji, above U+FFFF
            default -> 0x4E00 + random.nextInt(0x5000);
        };
    }
}
