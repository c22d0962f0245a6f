package io.keyranger.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import io.keyranger.KeyRangerException;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyOrderTest {
    private static Key id(long id) {
        return Key.newBuilder("p", "K", id, "").build();
    }

    private static Key name(String name) {
        return Key.newBuilder("p", "K", name, "").build();
    }

    @Test
    void idsBeforeNamesAndAncestorsBeforeDescendants() {
        Key parent = Key.newBuilder("p", "Org", "a", "").build();
        Key child = Key.newBuilder("p", "K", 1, "").addAncestor(PathElement.of("Org", "a")).build();
        assertThat(KeyOrder.PRODUCTION.compare(id(Long.MAX_VALUE), name("0"))).isNegative();
        assertThat(KeyOrder.PRODUCTION.compare(id(2), id(10))).isNegative();
        assertThat(KeyOrder.PRODUCTION.compare(parent, child)).isNegative();
        assertThat(KeyOrder.PRODUCTION.compare(name("b"), name("ab"))).isPositive();
    }

    @Test
    void namesCompareByCodePointNotUtf16() {
        // U+1F600 is above U+FFFD although its first UTF-16 unit (a surrogate) is below it
        assertThat("😀".compareTo("\uFFFD")).isNegative();
        assertThat(KeyOrder.PRODUCTION.compare(name("😀"), name("\uFFFD"))).isPositive();
    }

    @Test
    void theEmulatorCollationOrdersSurrogatesBeforePrivateUse() {
        assertThat(KeyOrder.EMULATOR.compare(name("😀"), name("\uFFFD"))).isNegative();
        assertThat(KeyOrder.EMULATOR.compare(name("a"), name("b"))).isNegative();
        for (Collation collation : Collation.values()) {
            for (int cp : new int[] {0, 0x41, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF}) {
                assertThat(collation.codePoint(collation.index(cp))).isEqualTo(cp);
                assertThat(collation.index(cp)).isBetween(0, Collation.SIZE - 1);
            }
        }
    }

    @Test
    void refusesKeysOfDifferentPartitions() {
        Key other = Key.newBuilder("p", "K", 1, "").setNamespace("staging").build();
        assertThatThrownBy(() -> KeyOrder.PRODUCTION.compare(id(1), other))
                .isInstanceOf(KeyRangerException.class)
                .hasMessageContaining("different partitions")
                .hasMessageContaining("namespace 'staging'");
        Key otherProject = Key.newBuilder("q", "K", 1, "").build();
        assertThatThrownBy(() -> KeyOrder.PRODUCTION.compare(id(1), otherProject)).hasMessageContaining("project q");
    }

    @Test
    void advancePastResumesStrictlyAfterTheLastKey() {
        KeyRange range = KeyRange.of(KeyOrder.PRODUCTION, id(1), id(100));
        KeyRange rest = range.advancePast(id(40));
        assertThat(rest.contains(id(40))).isFalse();
        assertThat(rest.contains(id(41))).isTrue();
        assertThat(rest.contains(id(100))).isFalse();
        assertThatThrownBy(() -> range.advancePast(id(100))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void midpointsOfIdsNamesAndMixedRanges() {
        assertThat(KeySplitter.midpoint(KeyOrder.PRODUCTION, id(10), id(20))).contains(id(15));
        assertThat(KeySplitter.midpoint(KeyOrder.PRODUCTION, id(10), id(11))).isEmpty();
        assertThat(KeySplitter.midpoint(KeyOrder.PRODUCTION, name("a"), name("c"))).contains(name("b"));
        Optional<Key> mixed = KeySplitter.midpoint(KeyOrder.PRODUCTION, id(5), name("m"));
        assertThat(mixed).isPresent();
        assertThat(KeyOrder.PRODUCTION.compare(id(5), mixed.get())).isNegative();
        assertThat(KeyOrder.PRODUCTION.compare(mixed.get(), name("m"))).isNegative();
        Optional<Key> open = KeySplitter.midpoint(KeyOrder.PRODUCTION, name("user-"), null);
        assertThat(open).isPresent();
        assertThat(KeyOrder.PRODUCTION.compare(name("user-"), open.get())).isNegative();
        Optional<Key> aboveBmp = KeySplitter.midpoint(KeyOrder.PRODUCTION, name("\uFFFD"), name("😀"));
        assertThat(aboveBmp).isPresent();
        assertThat(KeyOrder.PRODUCTION.compare(aboveBmp.get(), name("😀"))).isNegative();
    }

    @Test
    void midpointsAlwaysLieStrictlyInsideInBothCollations() {
        midpointsLieInside(KeyOrder.PRODUCTION);
        midpointsLieInside(KeyOrder.EMULATOR);
    }

    private static void midpointsLieInside(KeyOrder order) {
        RandomKeys random = new RandomKeys(7, "p");
        Random coin = new Random(8);
        int found = 0;
        for (int i = 0; i < 3000; i++) {
            Key a = random.next();
            Key b = coin.nextInt(10) == 0 ? null : random.next();
            if (b != null && order.compare(a, b) > 0) {
                Key t = a;
                a = b;
                b = t;
            }
            Optional<Key> mid = KeySplitter.midpoint(order, a, b);
            if (mid.isPresent()) {
                found++;
                assertThat(order.compare(a, mid.get())).as("%s < mid", a).isNegative();
                if (b != null) {
                    assertThat(order.compare(mid.get(), b)).as("mid < %s", b).isNegative();
                }
            }
        }
        assertThat(found).isGreaterThan(2500);
    }
}
