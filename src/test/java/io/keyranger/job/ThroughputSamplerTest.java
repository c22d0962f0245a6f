package io.keyranger.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A run's chart as the run samples it, on a made-up clock: pauses left out, capped, adding up to what was read. */
class ThroughputSamplerTest {
    @Test
    void aPauseStandsTheChartStillAndTheRateAfterItIsTheNewOne() {
        AtomicLong read = new AtomicLong(5_000); // a resumed job: what its earlier runs read is not this run's
        AtomicLong running = new AtomicLong();
        ThroughputSampler sampler = new ThroughputSampler(read::get, running::get, null);
        for (int s = 1; s <= 20; s++) { // 100 entities a second
            running.addAndGet(1000);
            read.addAndGet(100);
            sampler.sample();
        }
        for (int s = 0; s < 300; s++) { // five minutes paused: the running time stands
            sampler.sample();
        }
        for (int s = 1; s <= 5; s++) { // 400 entities a second after the resume
            running.addAndGet(1000);
            read.addAndGet(400);
            sampler.sample();
        }
        sampler.close();
        List<RunThroughput.Point> points = sampler.points();
        assertThat(points).hasSize(25);
        assertThat(points.subList(0, 20)).allSatisfy(p -> assertThat(p.rate()).isCloseTo(100.0, offset(1e-9)));
        assertThat(points.subList(20, 25)).allSatisfy(p -> assertThat(p.rate()).isCloseTo(400.0, offset(1e-9)));
    }

    @Test
    void aTenHourRunDrawsAtMostTheCapOfPointsAndTheirEntitiesAddUpToThoseRead() {
        AtomicLong read = new AtomicLong();
        AtomicLong running = new AtomicLong();
        ThroughputSampler sampler = new ThroughputSampler(read::get, running::get, null);
        for (int s = 1; s <= 10 * 3600; s++) { // 100 entities a second, 500 in the second hour
            running.addAndGet(1000);
            read.addAndGet(s > 3600 && s <= 7200 ? 500 : 100);
            sampler.sample();
        }
        List<RunThroughput.Point> points = sampler.points();
        assertThat(points.size()).isLessThanOrEqualTo(RunThroughput.MAX_POINTS).isGreaterThan(100);
        assertThat(points.get(points.size() - 1).seconds()).isEqualTo(36_000.0);
        double entities = 0;
        double before = 0;
        for (RunThroughput.Point p : points) {
            entities += p.rate() * (p.seconds() - before);
            before = p.seconds();
        }
        assertThat(entities).isCloseTo(read.get(), offset(0.5));
        assertThat(points.get(10).rate()).isEqualTo(100.0);
        assertThat(points.get(40).rate()).isEqualTo(500.0);
    }

    @Test
    void whatIsReadAfterTheLastTickIsInTheChartOnceClosed() {
        AtomicLong read = new AtomicLong();
        AtomicLong running = new AtomicLong();
        ThroughputSampler sampler = new ThroughputSampler(read::get, running::get, null);
        running.set(1_000);
        read.set(300);
        sampler.sample();
        running.set(1_400);
        read.set(420); // the last pages, between the last tick and the end
        sampler.close();
        List<RunThroughput.Point> points = sampler.points();
        assertThat(points).hasSize(2);
        assertThat(points.get(1).seconds()).isEqualTo(1.4);
        assertThat(points.get(1).rate() * 0.4 + points.get(0).rate()).isCloseTo(420, offset(1e-9));
    }
}
