package io.keyranger.cli;

import io.keyranger.KeyRangerException;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.ConnectionRules;
import io.keyranger.query.Gql;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * What {@code diff} and {@code restore} take from their source, a managed export ({@code --export}), the database
 * at a past moment ({@code --as-of}) or another database ({@link SourceOptions}): the export's folder, a kind, and
 * optionally a GQL query and a file of keys that narrow it.
 */
final class ExportSelection {
    @Option(names = "--export", paramLabel = "DIR",
            description = "The managed export: its folder (or the folder above it) or its .overall_export_metadata file.")
    Path export;

    @Option(names = "--kind", paramLabel = "KIND", description = "The kind (or give --gql).")
    String kind;

    @Option(names = "--gql", paramLabel = "QUERY", description = "Only the entities of the export (or of the past "
            + "moment) this query matches, e.g. \"SELECT * FROM Account WHERE tier = 'pro'\" (applied on the client "
            + "to each side: an export has no index, so every entity of the kind in it is read).")
    String gql;

    @Option(names = "--keys", paramLabel = "FILE", description = "Only these keys: one KEY(...) a line, as diff "
            + "--keys-out writes them.")
    Path keys;

    /**
     * Refuses anything but one source: the export, or a database: its own past ({@code --as-of}, {@code asOf} says
     * whether it was given) or another database ({@code from}, as of {@code --as-of} or not; null where the command
     * takes none); {@code what} says what the command does with it ("Compare live data with").
     */
    void requireOneSource(boolean asOf, SourceOptions from, String what) {
        boolean database = asOf || from != null && from.given();
        if (database == (export != null)) {
            throw new KeyRangerException(what + " one source: --export DIR (a managed export)" + (from == null
                    ? " or --as-of TIME (the database as it was then)"
                    : ", --as-of TIME (the database as it was then) or --from-project ID (another database)") + "; "
                    + (database ? "both were" : "neither was") + " given.");
        }
    }

    /** The kind: --kind, or the query's FROM; both must agree. */
    String kind(String project, String namespace) {
        String from = gql == null ? null : Gql.parse(gql, project, namespace).kind();
        if (kind != null && from != null && !kind.equals(from)) {
            throw new KeyRangerException("--kind " + kind + " and the query's FROM " + from + " differ: give one.");
        }
        String result = kind != null ? kind : from;
        if (result == null) {
            throw new KeyRangerException("Say which kind: --kind KIND, or --gql \"SELECT * FROM KIND WHERE ...\".");
        }
        ConnectionRules.kind(result);
        BookkeepingKinds.requireUserKind(result);
        return result;
    }
}
