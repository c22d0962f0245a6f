package io.keyranger.executor.cells;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.backup.managed.ExportSnapshot;
import io.keyranger.backup.managed.ManagedExportWriter;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.files.FileStore;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.PageMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * The output of an export, exactly once, on every runner: each committing chunk writes its lines to a new part file,
 * and its commit records the part in its cell's ledger; a part whose commit failed or found its keys applied already is
 * recorded nowhere. When the job is done the recorded parts are joined in key order into the output file. The files
 * go through a {@link FileStore}: the local disk for a local run, Beam's FileSystems on a pipeline (gs:// on
 * Dataflow); a job either runner started and the other finished writes the same file.
 */
public final class PartFiles {
    private final FileStore store;
    private final String output;
    private final String dir;
    private final String managedProject;
    private final ExportSnapshot snapshot;

    /**
     * With {@code managedProject}, the parts are joined into a managed export in a new folder below {@code output}
     * (keys placed in that project, as an import places them in its own), instead of one JSON-lines file. The pages
     * were all read at {@code readTime} (null: live), which the export's record beside it says
     * ({@link ExportSnapshot}).
     */
    public PartFiles(FileStore store, String output, String jobId, String managedProject, Instant readTime) {
        this.snapshot = new ExportSnapshot(jobId, readTime);
        this.store = store;
        this.output = output;
        this.dir = store.sibling(output, ".parts-" + jobId);
        this.managedProject = managedProject;
    }

    /** The parts of a job whose mapper writes a file (an export), or null for any other job. */
    public static PartFiles of(FileStore store, PageMapper mapper, MapperSpec spec, String jobId, String projectId) {
        return mapper.outputFile() == null ? null : new PartFiles(store, mapper.outputFile(), jobId,
                Mappers.writesManagedExport(spec) ? projectId : null, spec.readTime());
    }

    public String dir() {
        return dir;
    }

    /**
     * Writes a committing chunk's lines to a part file of their own (whole and durable once written) and returns its
     * name, which the chunk's commit records in its cell's ledger. A part whose commit did not go through is recorded
     * nowhere: the join skips it and {@link #removeParts} removes it.
     */
    public String write(int cell, List<String> lines) {
        String name = CellPlan.nodeId(cell) + "-" + UUID.randomUUID() + ".jsonl";
        StringBuilder text = new StringBuilder();
        lines.forEach(line -> text.append(line).append('\n'));
        try (OutputStream out = store.create(store.resolve(dir, name))) {
            out.write(text.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new KeyRangerException("Cannot write an export part in " + dir + ": " + e.getMessage(), e);
        }
        return name;
    }

    /** {@link #join} of the parts recorded in a job's ledgers. */
    public String joinRecorded(List<Entity> ledgers, KeyOrder order) {
        List<String> recorded = new ArrayList<>();
        ledgers.forEach(ledger -> recorded.addAll(Ledger.parts(ledger)));
        return join(recorded, order);
    }

    /**
     * Joins the parts the ledgers record ("FIRSTKEY FILE" each), in key order, into a temporary file moved into place
     * atomically. The parts stay until {@link #removeParts}: joining twice gives the same bytes. Returns what it
     * wrote: the output file, or the new folder of a managed export.
     */
    public String join(List<String> recorded, KeyOrder order) {
        List<String[]> ordered = recorded.stream().map(r -> r.split(" ", 2))
                .sorted(Comparator.comparing((String[] r) -> Key.fromUrlSafe(r[0]), order))
                .toList();
        if (managedProject != null) {
            return joinManaged(ordered);
        }
        String temp = store.sibling(output, "." + UUID.randomUUID() + ".tmp");
        try {
            try (OutputStream out = store.create(temp)) {
                for (String[] part : ordered) {
                    try (InputStream in = openPart(part[1])) {
                        in.transferTo(out);
                    }
                }
            }
            snapshot.write(store, store.sibling(output, ExportSnapshot.JSON_LINES_SUFFIX));
            store.moveIntoPlace(temp, output);
            return output;
        } catch (IOException e) {
            throw new KeyRangerException("Cannot assemble the export file " + output + ": " + e.getMessage(), e);
        }
    }

    /**
     * The parts, in key order, as a managed export: a new folder below the output folder whose metadata files are
     * written last, so an export cut short is never taken for a whole one (joining again writes a new one).
     */
    private String joinManaged(List<String[]> ordered) {
        ManagedExportWriter writer = ManagedExportWriter.create(store,
                output);
        try (writer) {
            // in its folder before the metadata files that make the export whole
            snapshot.write(store, store.resolve(writer.location(), ExportSnapshot.MANAGED_FILE));
            ObjectMapper json = new ObjectMapper();
            for (String[] part : ordered) {
                try (BufferedReader lines = new BufferedReader(new InputStreamReader(openPart(part[1]),
                        StandardCharsets.UTF_8))) {
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                        writer.write(EntityCodec.decode(json.readTree(line), managedProject,
                                ""));
                    }
                }
            }
        } catch (IOException e) {
            throw new KeyRangerException("Cannot write the managed export in " + output + ": " + e.getMessage(), e);
        }
        return writer.location();
    }

    private InputStream openPart(String name) throws IOException {
        String file = store.resolve(dir, name);
        if (!store.exists(file)) {
            throw new KeyRangerException("The export part " + file + " that a commit recorded is missing: resume the "
                    + "job where its parts are (a local run's on the machine that started it).");
        }
        return store.open(file);
    }

    /** Removes the parts once the job's end is recorded. */
    public void removeParts() {
        try {
            store.deleteFolder(dir);
        } catch (IOException e) {
            throw new KeyRangerException("The export file " + output + " is complete, but its parts in " + dir
                    + " could not be removed: " + e.getMessage(), e);
        }
    }
}
