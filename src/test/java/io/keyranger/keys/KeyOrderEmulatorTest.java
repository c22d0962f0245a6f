package io.keyranger.keys;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * The server is the oracle: its {@code __key__} order and range filters must agree with KeyOrder and KeyRange, on both
 * emulators.
 */
@OnDataEmulators
class KeyOrderEmulatorTest {
    private static final long SEED = 20261122L;
    private static final int KEYS = 600;
    @Parameter
    ServerType server;
    /** The emulator's order: the property this test checks is that KeyOrder predicts the server exactly. */
    private KeyOrder order;
    private Datastore datastore;
    private List<Key> written;

    @BeforeEach
    void writeRandomKeys() {
        order = server.keyOrder();
        ConnectionSpec spec = SharedEmulator.freshProject(server, "order");
        datastore = SharedEmulator.connect(spec);
        RandomKeys random = new RandomKeys(SEED, spec.projectId());
        Set<Key> keys = new LinkedHashSet<>();
        while (keys.size() < KEYS) {
            keys.add(random.next());
        }
        written = new ArrayList<>(keys);
        List<Entity> entities = written.stream().map(k -> Entity.newBuilder(k).set("n", 1).build()).toList();
        for (int i = 0; i < entities.size(); i += 300) {
            datastore.put(entities.subList(i, Math.min(entities.size(), i + 300)).toArray(new Entity[0]));
        }
    }

    @Test
    void serverKeyOrderEqualsKeyOrder() {
        List<Key> fromServer = query(KeyRange.all(order));
        List<Key> sorted = new ArrayList<>(written);
        sorted.sort(order);
        assertThat(fromServer).as("seed %d", SEED).hasSize(KEYS).containsExactlyElementsOf(sorted);
    }

    /**
     * The legacy emulator orders key names by UTF-16 code units, so U+1F600 comes before U+E000; the Firestore
     * emulator in Datastore mode orders them by UTF-8 bytes (measured here), as production does ({@link Collation}):
     * production matches the Firestore emulator.
     */
    @Test
    void theLegacyEmulatorOrdersNamesByUtf16AndTheFirestoreOneByUtf8AsProduction() {
        Key emoji = Key.newBuilder(written.get(0).getProjectId(), RandomKeys.KIND, "\uD83D\uDE00", "").build();
        Key privateUse = Key.newBuilder(written.get(0).getProjectId(), RandomKeys.KIND, "\uE000", "").build();
        datastore.put(Entity.newBuilder(emoji).build(), Entity.newBuilder(privateUse).build());
        try {
            List<Key> both = query(KeyRange.all(order)).stream()
                    .filter(k -> k.equals(emoji) || k.equals(privateUse)).toList();
            assertThat(both).containsExactlyElementsOf(server == ServerType.EMULATOR ? List.of(emoji, privateUse)
                    : List.of(privateUse, emoji));
            assertThat(KeyOrder.PRODUCTION.compare(emoji, privateUse)).isPositive();
        } finally {
            datastore.delete(emoji, privateUse);
        }
    }

    @Test
    void rangeQueriesReturnExactlyTheKeysRangeContains() {
        Random random = new Random(SEED + 1);
        List<Key> sorted = new ArrayList<>(written);
        sorted.sort(order);
        RandomKeys fresh = new RandomKeys(SEED + 2, written.get(0).getProjectId());
        for (int trial = 0; trial < 25; trial++) {
            Key a = random.nextInt(3) == 0 ? fresh.next() : sorted.get(random.nextInt(sorted.size()));
            Key b = random.nextInt(3) == 0 ? fresh.next() : sorted.get(random.nextInt(sorted.size()));
            if (order.compare(a, b) > 0) {
                Key t = a;
                a = b;
                b = t;
            }
            KeyRange range = switch (trial % 4) {
                case 0 -> KeyRange.of(order, a, b);
                case 1 -> KeyRange.of(order, a, null);
                case 2 -> KeyRange.of(order, null, b);
                default -> KeyRange.of(order, a, b).advancePast(a);
            };
            List<Key> expected = sorted.stream().filter(range::contains).toList();
            assertThat(query(range)).as("trial %d: %s", trial, range).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void midpointsTheServerAcceptsSplitRangesWithoutLosingKeys() {
        List<Key> sorted = new ArrayList<>(written);
        sorted.sort(order);
        Random random = new Random(SEED + 3);
        int splits = 0;
        for (int trial = 0; trial < 12; trial++) {
            int i = random.nextInt(sorted.size() - 50);
            KeyRange range = KeyRange.of(order, sorted.get(i), sorted.get(i + 1 + random.nextInt(49)));
            Optional<Key> mid = KeySplitter.midpoint(order, range.start(), range.end());
            if (mid.isEmpty()) {
                continue;
            }
            splits++;
            KeyRange[] halves = range.splitAt(mid.get());
            List<Key> whole = query(range);
            List<Key> joined = new ArrayList<>(query(halves[0]));
            joined.addAll(query(halves[1]));
            assertThat(joined).as("split of %s at %s", range, mid.get()).containsExactlyElementsOf(whole);
        }
        assertThat(splits).isGreaterThan(6);
    }

    private List<Key> query(KeyRange range) {
        KeyQuery query = range.applyTo(Query.newKeyQueryBuilder().setKind(RandomKeys.KIND), List.of()).build();
        List<Key> keys = new ArrayList<>();
        datastore.run(query).forEachRemaining(keys::add);
        return keys;
    }
}
