package io.keyranger.cli;

import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.formats.managed.ExportContents;
import io.keyranger.formats.managed.ExportSnapshot;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.datastore.MixedArrays;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.Cancellation;
import io.keyranger.files.LocalFileStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** What a managed export holds: its parts, and its namespaces and kinds with their counts, read from its files. */
@Command(name = "export-info", mixinStandardHelpOptions = true,
        description = "Show the namespaces, kinds and entity counts of a managed export (gcloud datastore export), "
                + "read from a local copy of it, and for a KeyRanger export (managed or JSON lines) the moment it "
                + "was read as of. Read-only; nothing connects to Datastore.")
public final class ExportInfoCommand implements Runnable {
    /** The project that keys read from an export are placed in when no connection says otherwise. */
    static final String EXPORT_PROJECT = "export";
    private static final String OVERALL = ".overall_export_metadata";

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "DIR", description = "The export's folder, or its .overall_export_metadata file; or a "
            + "KeyRanger JSON lines export's file.")
    Path location;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        ExportSnapshot jsonLines = Files.isRegularFile(location) && !location.toString().endsWith(OVERALL)
                ? ExportSnapshot.read(LocalFileStore.INSTANCE, location + ExportSnapshot.JSON_LINES_SUFFIX) : null;
        if (jsonLines != null) {
            out.printf("JSON lines export %s: %,d entities%n%s%n", location, lines(), jsonLines.describe());
            out.flush();
            return;
        }
        ManagedExport export = ManagedExport.open(location);
        out.printf("Export %s: %d part%s%n", export.metadata(), export.parts().size(),
                export.parts().size() == 1 ? "" : "s");
        ExportSnapshot snapshot = ExportSnapshot.ofManaged(export.store(), export.metadata());
        if (snapshot != null) {
            out.println(snapshot.describe());
        }
        for (ManagedExport.Part part : export.parts()) {
            out.printf("  %s / %s: %,d entities, %,d bytes in %d file%s%n",
                    part.namespace() == null ? "all namespaces" : part.namespace().isEmpty() ? "(default)"
                            : part.namespace(), part.kind() == null ? "all kinds" : part.kind(), part.entities(),
                    part.bytes(), part.files().size(), part.files().size() == 1 ? "" : "s");
        }
        print(scan(export, null, spec.commandLine().getErr()), out);
    }

    /** The entities of a JSON lines export: one a line. */
    private long lines() {
        try (Stream<String> lines = Files.lines(location)) {
            return lines.filter(line -> !line.isBlank()).count();
        } catch (IOException | UncheckedIOException e) {
            throw new KeyRangerException("Cannot read the export " + location + ": " + e.getMessage(), e);
        }
    }

    /** Reads an export through, saying how far it got on {@code err}. */
    static ExportContents scan(ManagedExport export, Key lookFor, PrintWriter err) {
        ExportContents contents = ExportContents.scan(export, EXPORT_PROJECT, "", lookFor, n -> {
            err.printf("\rRead %,d entities…", n);
            err.flush();
        }, Cancellation.NEVER);
        if (contents.total() >= 10_000) {
            err.println();
        }
        return contents;
    }

    /**
     * The namespaces and kinds of an export with their counts, as {@code kinds} prints a database's: the user's kinds
     * first, then KeyRanger's bookkeeping kinds apart (a whole-database export, Google's, carries them).
     */
    static void print(ExportContents contents, PrintWriter out) {
        out.printf("%-12s %-28s %12s%n", "NAMESPACE", "KIND", "ENTITIES");
        List<String> bookkeeping = new ArrayList<>();
        long bookkept = 0;
        for (Map.Entry<String, Map<String, Long>> ns : contents.counts().entrySet()) {
            for (Map.Entry<String, Long> kind : ns.getValue().entrySet()) {
                String row = String.format("%-12s %-28s %,12d", ns.getKey().isEmpty() ? "(default)" : ns.getKey(),
                        kind.getKey(), kind.getValue());
                if (BookkeepingKinds.isBookkeeping(kind.getKey())) {
                    bookkeeping.add(row);
                    bookkept += kind.getValue();
                } else {
                    out.println(row);
                }
            }
        }
        if (!bookkeeping.isEmpty()) {
            out.println("KeyRanger bookkeeping (its jobs, ledgers, counters and undo records; not user data):");
            bookkeeping.forEach(out::println);
        }
        long kinds = contents.counts().values().stream().mapToLong(Map::size).sum();
        out.printf("%,d entities in %d namespace%s and %d kind%s (read from the export's files: exports are not "
                + "indexed)%n", contents.total(), contents.counts().size(), contents.counts().size() == 1 ? "" : "s",
                kinds, kinds == 1 ? "" : "s");
        if (contents.mixedArrays() > 0) {
            out.println(MixedArrays.warning(contents.mixedArrays()));
        }
        if (!bookkeeping.isEmpty()) {
            long user = kinds - bookkeeping.size();
            out.printf("Of these, %,d entities in %d kind%s are KeyRanger's bookkeeping; user data: %,d entities in "
                    + "%d kind%s.%n", bookkept, bookkeeping.size(), bookkeeping.size() == 1 ? "" : "s",
                    contents.total() - bookkept, user, user == 1 ? "" : "s");
        }
        out.flush();
    }
}
