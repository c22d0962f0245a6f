package io.keyranger.mapper;

import java.util.List;
import java.util.Map;

/**
 * {@code {"template":"touch"}}: rewrites every entity unchanged, which refreshes indexes after an index change
 * and exercises the full write path.
 */
public final class TouchMapper implements PageMapper {
    @Override
    public String name() {
        return "touch";
    }

    @Override
    public boolean needsEntities() {
        return true;
    }

    @Override
    public boolean writes() {
        return true;
    }

    @Override
    public MapResult map(Page page) {
        return new MapResult(page.entities(), List.of(), 0, Map.of());
    }
}
