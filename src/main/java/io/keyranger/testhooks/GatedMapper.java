package io.keyranger.testhooks;

import io.keyranger.mapper.DelegatingMapper;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Holds a job mid-run, for tests of crashes, take-overs and lost servers, without latency or polling: it maps like the
 * mapper it wraps, and once it has mapped {@code pages} chunks it stops every worker inside its next chunk (its
 * transaction open) until {@link #release()}. {@link #awaitHeld()} returns, and {@code onHeld} runs once, when the
 * first worker is held. The CLI's hidden {@code --hold-after-chunks} uses it in a child process.
 */
public final class GatedMapper extends DelegatingMapper {
    private final int pages;
    private final AtomicInteger mapped = new AtomicInteger();
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch gate = new CountDownLatch(1);
    /** Workers inside the gate now. */
    private final AtomicInteger inside = new AtomicInteger();

    private final Runnable onHeld;

    public GatedMapper(PageMapper inner, int pages) {
        this(inner, pages, () -> { });
    }

    public GatedMapper(PageMapper inner, int pages, Runnable onHeld) {
        super(inner);
        this.pages = pages;
        this.onHeld = onHeld;
    }

    @Override
    public MapResult map(Page page) {
        if (mapped.incrementAndGet() > pages) {
            if (held.getCount() > 0) {
                synchronized (held) {
                    if (held.getCount() > 0) {
                        onHeld.run();
                        held.countDown();
                    }
                }
            }
            inside.incrementAndGet();
            try {
                if (!gate.await(300, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the gate was never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted at the gate", e);
            } finally {
                inside.decrementAndGet();
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

    /**
     * Waits until {@code workers} workers are held at the gate: then none of them has a commit in flight (each holds
     * an open transaction that has written nothing), so the server's state stands still but for lease renewals.
     */
    public void awaitHeld(int workers) throws InterruptedException {
        awaitHeld();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (inside.get() < workers) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + inside.get() + " of " + workers + " workers reached the gate");
            }
            Thread.sleep(10);
        }
    }

    public void release() {
        gate.countDown();
    }
}
