package io.keyranger.mapper;

import java.util.function.Function;

/** A PageMapper made from a function; templates build theirs with it. */
record FunctionMapper(String name, boolean needsEntities, boolean writes, int entityGroupsPerKey,
                      Function<Page, MapResult> function, String outputFile) implements PageMapper {
    FunctionMapper(String name, boolean needsEntities, boolean writes, int entityGroupsPerKey,
                   Function<Page, MapResult> function) {
        this(name, needsEntities, writes, entityGroupsPerKey, function, null);
    }

    @Override
    public MapResult map(Page page) {
        return function.apply(page);
    }
}
