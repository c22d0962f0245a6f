package io.keyranger.mapper;

import com.google.cloud.datastore.Key;
import java.util.List;


/**
 * A mapper in front of another (a filter, a screen, a test gate): everything but {@link #map} is the inner one's,
 * unless a subclass says otherwise.
 */
public abstract class DelegatingMapper implements PageMapper {
    protected final PageMapper inner;

    protected DelegatingMapper(PageMapper inner) {
        this.inner = inner;
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
    public List<Key> related(Page page) {
        return inner.related(page);
    }

    @Override
    public boolean pageEntitiesFixed() {
        return inner.pageEntitiesFixed();
    }

    @Override
    public boolean keepsUndo() {
        return inner.keepsUndo();
    }

    @Override
    public boolean writesEachKeyOnce() {
        return inner.writesEachKeyOnce();
    }

    @Override
    public int entitiesPer(Key key) {
        return inner.entitiesPer(key);
    }

    @Override
    public Page first(Page page, int entities) {
        return inner.first(page, entities);
    }

    @Override
    public boolean readsSource() {
        return inner.readsSource();
    }

    @Override
    public String outputFile() {
        return inner.outputFile();
    }
}
