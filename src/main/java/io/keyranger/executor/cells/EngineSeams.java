package io.keyranger.executor.cells;

import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.PageMapper;
import io.keyranger.sharding.PlanRequest;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Where tests and benchmarks reach into the engine, all in one value that a run carries along: a product run carries
 * {@link #NONE} and never names a hook. Immutable; each {@code with…} method gives a copy with one more hook set.
 */
public final class EngineSeams {
    /** No hook: what every product run uses. */
    public static final EngineSeams NONE = new EngineSeams(what -> { }, UnaryOperator.identity(), null, false);

    private final Consumer<String> beforeCommit;
    private final UnaryOperator<PageMapper> mapper;
    private final Function<PlanRequest, List<KeyRange>> initialRanges;
    private final boolean pagesByOffset;

    private EngineSeams(Consumer<String> beforeCommit, UnaryOperator<PageMapper> mapper,
                        Function<PlanRequest, List<KeyRange>> initialRanges, boolean pagesByOffset) {
        this.beforeCommit = beforeCommit;
        this.mapper = mapper;
        this.initialRanges = initialRanges;
        this.pagesByOffset = pagesByOffset;
    }

    /**
     * These seams, {@code hook} hearing what each of a job's fenced transactions commits just before it does
     * ("chunk c0003", "split r0", "plan", "claim", "finish", ...): for tests that take a job over at exactly that moment.
     */
    public EngineSeams withBeforeCommit(Consumer<String> hook) {
        return new EngineSeams(hook, mapper, initialRanges, pagesByOffset);
    }

    /** These seams, every job's mapper wrapped by {@code wrapper} (e.g. a gate that holds a job after some chunks). */
    public EngineSeams withMapper(UnaryOperator<PageMapper> wrapper) {
        return new EngineSeams(beforeCommit, wrapper, initialRanges, pagesByOffset);
    }

    /** These seams, a new job over a kind starting from {@code plan}'s ranges instead of its scatter plan. */
    public EngineSeams withInitialRanges(Function<PlanRequest, List<KeyRange>> plan) {
        return new EngineSeams(beforeCommit, mapper, plan, pagesByOffset);
    }

    /**
     * These seams, pages read with limit/offset from the range's start, as a naive cursor loop does (a benchmark
     * baseline: the server rescans everything before the page), instead of past the last key.
     */
    public EngineSeams withPagesByOffset() {
        return new EngineSeams(beforeCommit, mapper, initialRanges, true);
    }

    /** Called inside a fenced transaction just before it commits {@code what}. */
    public void beforeCommit(String what) {
        beforeCommit.accept(what);
    }

    /** The mapper a job runs, given its own. */
    public PageMapper mapper(PageMapper own) {
        return mapper.apply(own);
    }

    /** The ranges a new job starts from instead of planning {@code request}, or null to plan it. */
    public List<KeyRange> initialRanges(PlanRequest request) {
        return initialRanges == null ? null : initialRanges.apply(request);
    }

    /** Whether pages are read with limit/offset from the range's start. */
    public boolean pagesByOffset() {
        return pagesByOffset;
    }
}
