package io.keyranger.mapper;

import java.util.function.Function;

/** A PageMapper made from a function; templates build theirs with it. */
record FunctionMapper(String name, boolean needsEntities, boolean writes, int entityGroupsPerKey,
                      Function<Page, MapResult> function) implements PageMapper {
    @Override
    public MapResult map(Page page) {
        return function.apply(page);
    }
}
