package io.keyranger.executor.source;

import com.google.cloud.datastore.Key;
import com.google.common.hash.Hashing;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The 64-bit hashes of the keys of a file's lines, 8 bytes a line, to find keys named more than once without holding
 * the keys: a hash seen twice is a candidate, which a second read of the file confirms key by key.
 */
final class KeyHashes {
    private long[] hashes = new long[1_024];
    private int size;

    static long hash(Key key) {
        return Hashing.murmur3_128().hashString(key.toString(), StandardCharsets.UTF_8)
                .asLong();
    }

    void add(Key key) {
        if (size == hashes.length) {
            hashes = Arrays.copyOf(hashes, size * 2);
        }
        hashes[size++] = hash(key);
    }

    /** The hashes seen more than once. */
    Set<Long> repeated() {
        long[] sorted = Arrays.copyOf(hashes, size);
        Arrays.sort(sorted);
        Set<Long> repeated = new HashSet<>();
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                repeated.add(sorted[i]);
            }
        }
        return repeated;
    }
}
