package io.keyranger.support;

import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Holds a job mid-run without latency or polling: a mapper that maps like the one it wraps, and once it has mapped
 * {@code pages} chunks stops every worker inside its next chunk (a transaction open) until {@link #release()}.
 * {@link #awaitHeld()} returns once the job is held.
 */
public final class GatedMapper implements PageMapper {
    private final PageMapper inner;
    private final int pages;
    private final AtomicInteger mapped = new AtomicInteger();
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch gate = new CountDownLatch(1);

    public GatedMapper(PageMapper inner, int pages) {
        this.inner = inner;
        this.pages = pages;
    }

    @Override
    public MapResult map(Page page) {
        if (mapped.incrementAndGet() > pages) {
            held.countDown();
            try {
                if (!gate.await(120, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never released the gate");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted at the gate", e);
            }
        }
        return inner.map(page);
    }

    /** Waits until a worker is held at the gate. */
    public void awaitHeld() throws InterruptedException {
        if (!held.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("the job never reached the gate");
        }
    }

    public void release() {
        gate.countDown();
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public boolean needsEntities() {
        return inner.needsEntities();
    }

    @Override
    public boolean writes() {
        return inner.writes();
    }

    @Override
    public int entityGroupsPerKey() {
        return inner.entityGroupsPerKey();
    }

    @Override
    public Path outputFile() {
        return inner.outputFile();
    }
}
