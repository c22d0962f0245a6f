package io.keyranger.mapper;

/** {@code {"template":"count"}}: reads keys only and writes nothing; the job's {@code read} total is the count. */
public final class CountMapper implements PageMapper {
    @Override
    public String name() {
        return "count";
    }

    @Override
    public boolean needsEntities() {
        return false;
    }

    @Override
    public boolean writes() {
        return false;
    }

    @Override
    public MapResult map(Page page) {
        return MapResult.none();
    }
}
