package io.keyranger.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** A stored job's throughput, drawn after it ended: over its whole last run, adding up to what its ranges read. */
class RunThroughputTest {
    private static final Instant END = Instant.parse("2026-11-27T12:00:00Z");

    private static NodeSnapshot cell(String id, long entities, long fromMillis, long toMillis) {
        return new NodeSnapshot("j", id, null, 0, null, true, null, null, NodeStatus.DONE, 1, entities, entities, 0,
                null, END.minusMillis(97_000 - fromMillis), END.minusMillis(97_000 - toMillis));
    }

    @Test
    void theChartCoversTheWholeRunAndItsRatesAddUpToTheEntitiesRead() {
        // a 97 s run: one cell read 1,000 over its first 10 s, one 9,000 from 40 s to 97 s, one in an instant at 60 s
        List<RunThroughput.Point> points = RunThroughput.of(List.of(cell("c0", 1_000, 0, 10_000),
                cell("c1", 9_000, 40_000, 97_000), cell("c2", 300, 60_500, 60_500)), END, 97_000, List.of());

        assertThat(points).hasSize(97);
        assertThat(points.get(0).seconds()).isEqualTo(1);
        assertThat(points.get(96).seconds()).as("the run's last second: the chart ends where the run did")
                .isEqualTo(97);
        assertThat(points.get(0).rate()).isCloseTo(100, Offset.offset(1e-9));
        assertThat(points.get(20).rate()).as("nothing ran between 10 s and 40 s").isZero();
        assertThat(points.get(60).rate()).isCloseTo(9_000 / 57.0 + 300, Offset.offset(1e-9));
        assertThat(points.stream().mapToDouble(RunThroughput.Point::rate).sum()).isCloseTo(10_300,
                Offset.offset(1e-6));
    }

    @Test
    void aPauseIsLeftOutOfTheChartWhichStillAddsUpToTheEntitiesRead() {
        // 10 s of running over 30 s: paused from 4 s to 24 s. c0 read 400 before the pause, c1 600 after it, and c2
        // 400 from 2 s to 26 s, across the pause: 4 s of running
        Instant start = END.minusMillis(30_000);
        List<Pause> pauses = List.of(new Pause(start.plusMillis(4_000), start.plusMillis(24_000)));
        List<RunThroughput.Point> points = RunThroughput.of(List.of(
                at("c0", 400, start, 0, 4_000), at("c1", 600, start, 24_000, 30_000),
                at("c2", 400, start, 2_000, 26_000)), END, 10_000, pauses);

        assertThat(points).as("one a second of running, the pause left out").hasSize(10);
        assertThat(points.stream().mapToDouble(RunThroughput.Point::rate).sum())
                .as("a range that ended before the pause counts too").isCloseTo(1_400, Offset.offset(1e-6));
        assertThat(points.get(0).rate()).as("c0's 100 a second").isCloseTo(100, Offset.offset(1e-9));
        assertThat(points.get(3).rate()).as("c0 and c2, just before the pause").isCloseTo(200, Offset.offset(1e-9));
        assertThat(points.get(4).rate()).as("c1 and c2, just after it").isCloseTo(200, Offset.offset(1e-9));
        assertThat(points.get(9).rate()).isCloseTo(100, Offset.offset(1e-9));
    }

    private static NodeSnapshot at(String id, long entities, Instant start, long fromMillis, long toMillis) {
        return new NodeSnapshot("j", id, null, 0, null, true, null, null, NodeStatus.DONE, 1, entities, entities, 0,
                null, start.plusMillis(fromMillis), start.plusMillis(toMillis));
    }

    @Test
    void aRangeOfAnEarlierRunCountsOnlyItsTimeInThisOneAndARunNotEndedHasNoChart() {
        List<RunThroughput.Point> points = RunThroughput.of(List.of(cell("c0", 500, -200_000, -100_000),
                cell("c1", 1_000, -3_000, 2_000)), END, 97_000, List.of());
        assertThat(points.stream().mapToDouble(RunThroughput.Point::rate).sum()).as("2 s of c1's 5 s in this run")
                .isCloseTo(400, Offset.offset(1e-6));
        assertThat(RunThroughput.of(List.of(cell("c0", 1, 0, 1)), null, 0, List.of())).isEmpty();
    }

    @Test
    void aLastSecondShorterThanOneGivesItsOwnRate() {
        List<RunThroughput.Point> points = RunThroughput.of(List.of(cell("c0", 150, 95_500, 97_000)), END, 96_500,
                List.of());
        assertThat(points).hasSize(97);
        assertThat(points.get(96).seconds()).isEqualTo(96.5);
        assertThat(points.get(96).rate()).as("50 entities in its half second").isCloseTo(100, Offset.offset(1e-9));
    }

    @Test
    void aRunLongerThanTheCapIsDrawnInAtMostItsPointsWhoseEntitiesStillAddUpToThoseRead() {
        // a ten-hour run (and one half a second longer, whose spans are not round): one cell read 7,200 over its
        // first hour, one 1,000,000 from 1 s to the end, one 300 in an instant
        for (long wall : new long[] {36_000_000, 36_000_500}) {
            long start = 97_000 - wall; // cell() counts from 97 s before the end
            List<RunThroughput.Point> points = RunThroughput.of(List.of(cell("c0", 7_200, start, start + 3_600_000),
                    cell("c1", 1_000_000, start + 1_000, start + wall),
                    cell("c2", 300, start + 20_000_500, start + 20_000_500)), END, wall, List.of());

            assertThat(points).as("not one point a second: 36,000 of them").isNotEmpty()
                    .hasSizeLessThanOrEqualTo(RunThroughput.MAX_POINTS);
            assertThat(points.get(points.size() - 1).seconds()).as("the chart ends where the run did")
                    .isEqualTo(wall / 1000.0);
            double drawn = 0;
            double previous = 0;
            for (RunThroughput.Point point : points) {
                drawn += point.rate() * (point.seconds() - previous);
                previous = point.seconds();
            }
            assertThat(drawn).as("each rate times its span adds up to the entities read")
                    .isCloseTo(1_007_500, Offset.offset(1e-3));
            double span = points.get(0).seconds();
            assertThat(points.get(0).rate()).as("a rate per second still, over its span")
                    .isCloseTo(7_200 / 3_600.0 + 1_000_000 * (span - 1) / (wall / 1000.0 - 1) / span,
                            Offset.offset(1e-6));
        }
    }
}
