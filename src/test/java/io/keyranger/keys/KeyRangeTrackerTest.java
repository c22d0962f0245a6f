package io.keyranger.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Key;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Property tests of the tracker on both collations: random key sets, random ranges, and random sequences of page
 * claims, splits at known keys, checkpoints and resumes from a checkpoint, as a runner would make them. Every key of
 * the range is claimed exactly once, no split leaves a half without data, and every tracker ends done.
 */
class KeyRangeTrackerTest {
    @ParameterizedTest
    @ValueSource(strings = {"EMULATOR", "PRODUCTION"})
    void anySequenceOfClaimsSplitsAndCheckpointsCoversEveryKeyExactlyOnce(String collation) {
        KeyOrder order = collation.equals("EMULATOR") ? KeyOrder.EMULATOR : KeyOrder.PRODUCTION;
        for (long seed = 1; seed <= 300; seed++) {
            runOnce(order, seed);
        }
    }

    private static void runOnce(KeyOrder order, long seed) {
        Random random = new Random(seed);
        RandomKeys generator = new RandomKeys(seed, "p");
        TreeSet<Key> database = new TreeSet<>(order);
        int size = 1 + random.nextInt(250);
        while (database.size() < size) {
            database.add(generator.next());
        }
        List<Key> sorted = new ArrayList<>(database);
        KeyRange initial = randomRange(order, sorted, random);
        List<Key> expected = sorted.stream().filter(initial::contains).toList();

        Map<Key, Integer> claims = new HashMap<>();
        Deque<KeyRangeTracker> work = new ArrayDeque<>();
        work.add(new KeyRangeTracker(initial));
        int trackers = 0;
        while (!work.isEmpty()) {
            KeyRangeTracker tracker = random.nextBoolean() ? work.pollFirst() : work.pollLast();
            trackers++;
            while (!tracker.isDone()) {
                int pageSize = 1 + random.nextInt(12);
                // a page query: the next keys of the rest, one more than a page to know where the rest starts
                List<Key> page = database.stream().filter(tracker.remaining()::contains).limit(pageSize + 1L).toList();
                if (page.isEmpty()) {
                    if (random.nextInt(3) == 0) {
                        // a query without an end bound: the first key past the end is refused and ends the work
                        Key past = tracker.range().end() == null ? null : database.ceiling(tracker.range().end());
                        if (past != null) {
                            assertThat(tracker.tryClaim(past)).isFalse();
                            continue;
                        }
                    }
                    tracker.markExhausted();
                    continue;
                }
                List<Key> claimNow = page.subList(0, Math.min(pageSize, page.size()));
                for (Key key : claimNow) {
                    assertThat(tracker.tryClaim(key)).as("seed %d: %s", seed, key).isTrue();
                    claims.merge(key, 1, Integer::sum);
                }
                Key next = page.size() > pageSize ? page.get(pageSize) : null;
                if (next == null) {
                    tracker.markExhausted();
                    continue;
                }
                switch (random.nextInt(5)) {
                    case 0 -> {
                        // split at a key known to exist after the next one (a scatter sample, a probed key)
                        List<Key> after = database.tailSet(next, false).stream()
                                .filter(tracker.remaining()::contains).toList();
                        Optional<KeyRange> residual = after.isEmpty() ? tracker.trySplit(next, next)
                                : tracker.trySplit(next, after.get(random.nextInt(after.size())));
                        assertThat(residual.isPresent()).as("seed %d", seed).isEqualTo(!after.isEmpty());
                        residual.ifPresent(r -> {
                            assertThat(database.stream().anyMatch(r::contains)).as("residual holds data").isTrue();
                            assertThat(tracker.remaining().contains(next)).as("primary holds data").isTrue();
                            work.add(new KeyRangeTracker(r));
                        });
                    }
                    case 1 -> {
                        Optional<KeyRange> rest = tracker.checkpoint();
                        assertThat(rest).isPresent();
                        assertThat(rest.get().contains(next)).isTrue();
                        assertThat(tracker.lastClaimed() == null || !rest.get().contains(tracker.lastClaimed()))
                                .isTrue();
                        // resumed later from the persisted checkpoint: the residual with nothing claimed yet
                        work.add(random.nextBoolean() ? new KeyRangeTracker(rest.get())
                                : KeyRangeTracker.resume(tracker.range(), tracker.lastClaimed(), 0));
                    }
                    case 2 -> {
                        // a blind split (the midpoint baseline) at any key, data or not: coverage must still hold
                        Key at = generator.next();
                        KeyRange before = tracker.remaining();
                        boolean inside = before.contains(at)
                                && (before.start() == null || order.compare(at, before.start()) != 0);
                        Optional<KeyRange> residual = tracker.trySplitBlind(at);
                        assertThat(residual.isPresent()).as("seed %d", seed).isEqualTo(inside);
                        residual.ifPresent(r -> assertThat(r.contains(at) && !tracker.remaining().contains(at))
                                .isTrue());
                        residual.ifPresent(r -> work.add(new KeyRangeTracker(r)));
                    }
                    default -> { }
                }
            }
            tracker.checkDone();
        }
        assertThat(claims.values()).as("seed %d: no key claimed twice", seed).allMatch(n -> n == 1);
        assertThat(claims.keySet()).as("seed %d: every key claimed (%d trackers)", seed, trackers)
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    private static KeyRange randomRange(KeyOrder order, List<Key> sorted, Random random) {
        Key start = random.nextInt(3) == 0 ? null : sorted.get(random.nextInt(sorted.size()));
        Key end = random.nextInt(3) == 0 ? null : sorted.get(random.nextInt(sorted.size()));
        if (start != null && end != null && order.compare(start, end) > 0) {
            Key swap = start;
            start = end;
            end = swap;
        }
        KeyRange range = KeyRange.of(order, start, end);
        return start != null && random.nextBoolean() && !range.isEmpty() ? range.advancePast(start) : range;
    }

    @Test
    void claimsMustIncreaseAndStayInTheRange() {
        RandomKeys generator = new RandomKeys(7, "p");
        TreeSet<Key> keys = new TreeSet<>(KeyOrder.EMULATOR);
        while (keys.size() < 4) {
            keys.add(generator.next());
        }
        List<Key> k = new ArrayList<>(keys);
        KeyRangeTracker tracker = new KeyRangeTracker(KeyRange.of(KeyOrder.EMULATOR, k.get(1), k.get(3)));
        assertThatThrownBy(() -> tracker.tryClaim(k.get(0))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is before");
        assertThat(tracker.tryClaim(k.get(1))).isTrue();
        assertThatThrownBy(() -> tracker.tryClaim(k.get(1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("increasing order");
        assertThatThrownBy(tracker::checkDone).isInstanceOf(IllegalStateException.class);
        assertThat(tracker.trySplit(k.get(2), k.get(2))).as("no key known before the split point").isEmpty();
        assertThat(tracker.trySplit(k.get(2), k.get(3))).as("the end is not inside").isEmpty();
        assertThat(tracker.progress(r -> 10).fraction()).isEqualTo(1 / 11.0);
        assertThat(tracker.tryClaim(k.get(3))).as("past the end").isFalse();
        tracker.checkDone();
        assertThat(tracker.checkpoint()).isEmpty();
        assertThat(tracker.progress(r -> 10).remaining()).isZero();
    }
}
