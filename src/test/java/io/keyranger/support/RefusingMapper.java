package io.keyranger.support;

import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import java.util.function.Predicate;

/**
 * A count whose pages the server refuses, as it refuses an account that lacks a permission: the pages it is told to
 * refuse fail with {@code PERMISSION_DENIED} (a failure retrying does not fix), the others count nothing. Its spec
 * names the {@code count} template, so a job it failed resumes as a plain count.
 */
public final class RefusingMapper implements PageMapper {
    /** What a refused page fails with. */
    public static final String REFUSAL = "PERMISSION_DENIED: missing datastore.entities.update";

    private final Predicate<Page> refused;

    private RefusingMapper(Predicate<Page> refused) {
        this.refused = refused;
    }

    /** Refuses every page. */
    public static RefusingMapper everyPage() {
        return new RefusingMapper(page -> true);
    }

    /** Refuses the pages holding a key {@code refused} matches. */
    public static RefusingMapper pagesWith(Predicate<Key> refused) {
        return new RefusingMapper(page -> page.keys().stream().anyMatch(refused));
    }

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
        if (refused.test(page)) {
            throw new KeyRangerException(REFUSAL);
        }
        return MapResult.none();
    }
}
