package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Key;
import io.keyranger.executor.cells.PageLoop;
import io.keyranger.executor.local.SplitPoints;
import io.keyranger.executor.local.SplitPolicy;
import io.keyranger.executor.range.ProbeMemory;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Where the adaptive policy cuts a range, and when it does not cut at all. */
class SplitPointsTest {
    private static final KeyOrder ORDER = KeyOrder.PRODUCTION;

    private static Key id(long id) {
        return Key.newBuilder("p", "K", id).build();
    }

    /** Samples at ids 10, 20, ..., 1000. */
    private static SplitPoints hundredSamples() {
        List<Key> samples = new ArrayList<>();
        for (int i = 100; i >= 1; i--) { // given unsorted: the constructor sorts
            samples.add(id(i * 10L));
        }
        return new SplitPoints(samples, ORDER);
    }

    @Test
    void piecesGetAboutEqualShareOfTheSamplesInside() {
        SplitPoints points = hundredSamples();
        List<Key> cuts = points.quantilesInside(KeyRange.all(ORDER), 4);
        assertThat(cuts).hasSize(3).isSortedAccordingTo(ORDER);
        // samples per piece: before the first cut, between cuts, from the last cut on
        List<Long> bounds = new ArrayList<>(List.of(0L));
        cuts.forEach(k -> bounds.add(k.getId()));
        bounds.add(1001L);
        for (int i = 0; i + 1 < bounds.size(); i++) {
            long lo = bounds.get(i);
            long hi = bounds.get(i + 1);
            long inPiece = LongStream.rangeClosed(1, 100).map(s -> s * 10)
                    .filter(s -> s >= lo && s < hi).count();
            assertThat(inPiece).as("samples in piece %d", i).isBetween(24L, 26L);
        }
        assertThat(points.quantilesInside(KeyRange.all(ORDER), 2)).containsExactly(id(510));
    }

    @Test
    void fewerSamplesInsideMakeFewerPiecesAndNoneMakeNone() {
        SplitPoints points = hundredSamples();
        // strictly inside (205, 230): samples 210 and 220 only
        assertThat(points.quantilesInside(KeyRange.of(ORDER, id(205), id(230)), 8)).containsExactly(id(210), id(220));
        // the start itself is not inside
        assertThat(points.quantilesInside(KeyRange.of(ORDER, id(210), id(220)), 8)).isEmpty();
        assertThat(points.quantilesInside(KeyRange.of(ORDER, id(1001), null), 8)).isEmpty();
    }

    @Test
    void theAdaptivePolicySplitsOnlyWhenItCanShortenTheJob() {
        SplitPoints points = hundredSamples();
        KeyRange rest = KeyRange.of(ORDER, id(1), null);
        assertThat(split(points, rest, new SplitPolicy.Load(0, 64, 3, true))).as("ranges wait").isEmpty();
        assertThat(split(points, rest, new SplitPolicy.Load(10, 54, 0, false))).as("server saturated").isEmpty();
        assertThat(split(points, rest, new SplitPolicy.Load(0, 64, 0, true))).as("none idle: one ready").hasSize(1);
        assertThat(split(points, rest, new SplitPolicy.Load(10, 5, 0, true))).as("twice the share of 10 idle over 5")
                .hasSize(4);
        assertThat(split(points, rest, new SplitPolicy.Load(10, 2, 0, true))).as("at most one piece per idle worker")
                .hasSize(10);
        assertThat(split(points, rest, new SplitPolicy.Load(63, 1, 0, true))).as("capped")
                .hasSize(SplitPolicy.MAX_PIECES - 1);
    }

    /** A range that found no split point reads wider pages while workers are idle, up to the widest; baselines never. */
    @Test
    void aRangeThatCannotSplitWhileWorkersIdleReadsWiderPages() {
        SplitPolicy.Load idle = new SplitPolicy.Load(10, 5, 0, true);
        SplitPolicy.Load busy = new SplitPolicy.Load(0, 64, 3, true);
        assertThat(SplitPolicy.ADAPTIVE.nextPage(idle, 100, 100)).isEqualTo(200);
        assertThat(SplitPolicy.ADAPTIVE.nextPage(idle, 800, 100)).isEqualTo(PageLoop.WIDEST_PAGE);
        assertThat(SplitPolicy.ADAPTIVE.nextPage(idle, PageLoop.WIDEST_PAGE, 100)).isEqualTo(PageLoop.WIDEST_PAGE);
        assertThat(SplitPolicy.ADAPTIVE.nextPage(busy, 400, 100)).as("every worker busy: as it is").isEqualTo(400);
        assertThat(SplitPolicy.ADAPTIVE.nextPage(idle, 2_000, 2_000)).as("never below the job's page").isEqualTo(2_000);
        SplitPolicy never = context -> List.of();
        assertThat(never.nextPage(idle, 400, 100)).as("a baseline keeps the job's page").isEqualTo(100);
    }

    @Test
    void withoutSamplesItProbesPastTheMidpointAndRemembersEmptyProbes() {
        SplitPoints none = new SplitPoints(List.of(), ORDER);
        KeyRange rest = KeyRange.of(ORDER, id(1), id(1_000_000));
        ProbeMemory memory = new ProbeMemory();
        AtomicInteger probes = new AtomicInteger();
        SplitPolicy.Context found = new SplitPolicy.Context(rest, id(1), id(2), new SplitPolicy.Load(5, 1, 0, true),
                ORDER, none, range -> {
                    probes.incrementAndGet();
                    assertThat(range.start().getId()).isGreaterThan(2L);
                    return Optional.of(id(range.start().getId() + 1));
                }, memory);
        assertThat(SplitPolicy.ADAPTIVE.splitPoints(found)).hasSize(1);
        SplitPolicy.Context empty = new SplitPolicy.Context(rest, id(1), id(2), new SplitPolicy.Load(5, 1, 0, true),
                ORDER, none, range -> {
                    probes.incrementAndGet();
                    return Optional.empty();
                }, memory);
        for (int i = 0; i < 10; i++) {
            assertThat(SplitPolicy.ADAPTIVE.splitPoints(empty)).isEmpty();
        }
        assertThat(probes.get()).as("one found, then at most %d empty", SplitPoints.MAX_EMPTY_PROBES)
                .isEqualTo(1 + SplitPoints.MAX_EMPTY_PROBES);
    }

    @Test
    void withFineCellsARangeWithNoSampleInsideIsNotProbedSoNoTwoRangesShareACell() {
        SplitPoints fine = new SplitPoints(List.of(id(10), id(20)), ORDER, false);
        KeyRange rest = KeyRange.of(ORDER, id(21), id(1_000_000));
        AtomicInteger probes = new AtomicInteger();
        SplitPolicy.Context context = new SplitPolicy.Context(rest, id(21), id(22), new SplitPolicy.Load(5, 1, 0, true),
                ORDER, fine, range -> {
                    probes.incrementAndGet();
                    return Optional.of(id(500_000));
                }, new ProbeMemory());
        assertThat(SplitPolicy.ADAPTIVE.splitPoints(context)).isEmpty();
        assertThat(probes.get()).isZero();
    }

    private static List<Key> split(SplitPoints points, KeyRange rest, SplitPolicy.Load load) {
        return SplitPolicy.ADAPTIVE.splitPoints(new SplitPolicy.Context(rest, id(1), id(1), load, ORDER, points,
                range -> Optional.empty(), new ProbeMemory()));
    }
}
