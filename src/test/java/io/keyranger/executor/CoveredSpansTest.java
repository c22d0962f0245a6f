package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Key;
import io.keyranger.executor.cells.CoveredSpans;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import org.junit.jupiter.api.Test;

/** The covered spans of a cell ledger: merging, membership and their stored form. */
class CoveredSpansTest {
    private static final KeyOrder ORDER = KeyOrder.EMULATOR;

    static Key key(long id) {
        return Key.newBuilder("p", "Item", id).build();
    }

    private static KeyRange after(long id, Long end) {
        return KeyRange.of(ORDER, null, end == null ? null : key(end)).advancePast(key(id));
    }

    @Test
    void pagesThatTouchMergeIntoOneSpanAndAGapStaysOpen() {
        CoveredSpans spans = new CoveredSpans(ORDER);
        spans.add(KeyRange.of(ORDER, key(10), key(20)));   // [10, 20): a page 10..19 and the next key 20
        spans.add(after(19, 30L));                           // (19, 30): the next page
        assertThat(spans.size()).isEqualTo(1);
        spans.add(KeyRange.of(ORDER, key(40), key(50)));    // another range working further on
        assertThat(spans.size()).isEqualTo(2);
        assertThat(spans.covers(key(10))).isTrue();
        assertThat(spans.covers(key(29))).isTrue();
        assertThat(spans.covers(key(30))).isFalse();
        assertThat(spans.covers(key(35))).isFalse();
        assertThat(spans.covers(key(45))).isTrue();
        assertThat(spans.coversAll(KeyRange.of(ORDER, key(12), key(30)))).isTrue();
        assertThat(spans.coversAll(KeyRange.of(ORDER, key(12), key(41)))).isFalse();
        spans.add(KeyRange.of(ORDER, key(30), key(40)));
        assertThat(spans.size()).isEqualTo(1);
        assertThat(spans.coversAll(KeyRange.of(ORDER, key(10), key(50)))).isTrue();
    }

    @Test
    void anExclusiveStartAtAnEndLeavesThatKeyUncovered() {
        CoveredSpans spans = new CoveredSpans(ORDER);
        spans.add(KeyRange.of(ORDER, key(1), key(5)));
        spans.add(after(5, 9L)); // (5, 9): key 5 itself is in neither
        assertThat(spans.size()).isEqualTo(2);
        assertThat(spans.covers(key(5))).isFalse();
        assertThat(spans.spanAtStart(KeyRange.of(ORDER, key(5), null))).isNull();
        assertThat(spans.spanAtStart(KeyRange.of(ORDER, key(2), null)).end()).isEqualTo(key(5));
    }

    @Test
    void openEndsCoverEverythingOnTheirSide() {
        CoveredSpans spans = new CoveredSpans(ORDER);
        spans.add(KeyRange.of(ORDER, null, key(3)));
        spans.add(KeyRange.of(ORDER, key(7), null));
        assertThat(spans.covers(key(1))).isTrue();
        assertThat(spans.covers(key(5))).isFalse();
        assertThat(spans.covers(key(1_000_000))).isTrue();
        assertThat(spans.coversAll(KeyRange.all(ORDER))).isFalse();
        spans.add(KeyRange.of(ORDER, key(3), key(7)));
        assertThat(spans.coversAll(KeyRange.all(ORDER))).isTrue();
    }

    @Test
    void theStoredFormReadsBackTheSameSpans() {
        CoveredSpans spans = new CoveredSpans(ORDER);
        spans.add(KeyRange.of(ORDER, null, key(3)));
        spans.add(after(10, 20L));
        spans.add(KeyRange.of(ORDER, key(30), null));
        CoveredSpans back = CoveredSpans.decode(ORDER, spans.encode());
        assertThat(back.spans()).isEqualTo(spans.spans());
        assertThat(back.covers(key(10))).isFalse();
        assertThat(back.covers(key(11))).isTrue();
    }
}
