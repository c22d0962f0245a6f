package io.keyranger.formats.managed;

import com.google.cloud.datastore.Entity;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Cancellation;
import io.keyranger.query.ClientQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;

/**
 * Pages of an export's entities that a GQL query selects, applied on the client: an export has no index, so a page
 * reads the kind's records from where the last page stopped (records before it are passed over by their checksums,
 * not decoded). A query with ORDER BY must see every match before its first page, so it holds them, up to
 * {@value #MAX_SORTED}.
 */
public final class ExportBrowser {
    /** The most matches an ORDER BY query sorts in memory. */
    public static final int MAX_SORTED = 200_000;

    private final ManagedExport export;
    private final String project;
    private final String namespace;

    /** Browses {@code namespace} of {@code export}, its keys placed in {@code project}. */
    public ExportBrowser(ManagedExport export, String project, String namespace) {
        this.export = export;
        this.project = project;
        this.namespace = namespace;
    }

    /**
     * One page.
     *
     * @param entities the page's entities
     * @param start    where it started (a record of the kind's files, or with ORDER BY a place among the matches)
     * @param next     where the next page starts, or -1 after the last
     * @param scanned  the records this page read
     */
    public record Page(List<Entity> entities, long start, long next, long scanned) {
        public Page {
            entities = List.copyOf(entities);
        }
    }

    /** The page of {@code query}'s matches from {@code start} (0: the first). */
    public Page page(ClientQuery query, long start, int size, Cancellation cancellation) {
        if (query.query().limit() != null || query.query().offset() != null) {
            throw new KeyRangerException("LIMIT and OFFSET are not applied to an export: leave them out and page "
                    + "through the matches.");
        }
        if (query.query().distinct() || !query.query().projection().isEmpty()) {
            throw new KeyRangerException("An export is browsed as whole entities: write SELECT * (or SELECT __key__).");
        }
        return query.sorts() ? sorted(query, start, size, cancellation) : inFileOrder(query, start, size, cancellation);
    }

    private Page inFileOrder(ClientQuery query, long start, int size, Cancellation cancellation) {
        List<Entity> found = new ArrayList<>();
        long at = 0;
        long scanned = 0;
        try (ManagedExport.Entities entities = export.entities(project, "", namespace, query.query().kind())) {
            while (at < start && entities.skip()) {
                at++;
            }
            for (Entity e = entities.next(); e != null; e = entities.next()) {
                at++;
                scanned++;
                check(scanned, cancellation);
                if (e.getKey().getNamespace().equals(namespace) && query.matches(e)) {
                    found.add(e);
                    if (found.size() == size) {
                        return new Page(found, start, entities.skip() ? at : -1, scanned);
                    }
                }
            }
        }
        return new Page(found, start, -1, scanned);
    }

    private Page sorted(ClientQuery query, long start, int size, Cancellation cancellation) {
        List<Entity> matches = new ArrayList<>();
        long scanned = 0;
        try (ManagedExport.Entities entities = export.entities(project, "", namespace, query.query().kind())) {
            for (Entity e = entities.next(); e != null; e = entities.next()) {
                check(++scanned, cancellation);
                if (e.getKey().getNamespace().equals(namespace) && query.matches(e)) {
                    matches.add(e);
                    if (matches.size() > MAX_SORTED) {
                        throw new KeyRangerException("ORDER BY sorts the matches in memory, and this query matches "
                                + "more than " + MAX_SORTED + " entities of the export: narrow it with WHERE, or "
                                + "leave out ORDER BY to page through them in the export's order.");
                    }
                }
            }
        }
        matches.sort(query.comparator());
        int from = (int) Math.min(start, matches.size());
        int to = Math.min(matches.size(), from + size);
        return new Page(matches.subList(from, to), start, to < matches.size() ? to : -1, scanned);
    }

    private static void check(long scanned, Cancellation cancellation) {
        if (scanned % 2_000 == 0 && cancellation.isCancelled()) {
            throw new CancellationException("stopped after " + scanned + " entities");
        }
    }
}
