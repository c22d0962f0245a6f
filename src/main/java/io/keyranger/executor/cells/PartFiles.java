package io.keyranger.executor.cells;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.formats.managed.ExportSnapshot;
import io.keyranger.formats.managed.ManagedExportWriter;
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
 * recorded nowhere. When the job is done the recorded parts are joined in key order into the output file (when every
 * kind of a job over several is done, every kind's into one output, kind after kind). The files
 * go through a {@link FileStore}: the local disk for a local run, Beam's FileSystems on a pipeline (gs:// on
 * Dataflow); a job either runner started and the other finished writes the same file.
 */
public final class PartFiles {
    private final FileStore store;
    private final String output;
    private final String dir;
    private final String managedProject;
    private final Instant readTime;
    private final String namespace;
    private final String kind;
    private final String group;
    private final ExportSnapshot snapshot;

    /**
     * With {@code managedProject}, the parts are joined into a managed export in a new folder below {@code output}
     * (keys placed in that project, as an import places them in its own), laid out as Google lays out an export of
     * {@code kind} in {@code namespace}, instead of one JSON-lines file. The pages were all read at {@code readTime}
     * (null: live), which the export's record beside it says ({@link ExportSnapshot}). The parts of one kind of a job
     * over several ({@code group}, or null) are joined by the group, with its other kinds' ({@link #joinGroup}).
     */
    public PartFiles(FileStore store, String output, String jobId, String managedProject, Instant readTime,
                     String namespace, String kind, String group) {
        this.snapshot = new ExportSnapshot(jobId, readTime);
        this.store = store;
        this.output = output;
        this.dir = store.sibling(output, ".parts-" + jobId);
        this.managedProject = managedProject;
        this.readTime = readTime;
        this.namespace = namespace;
        this.kind = kind;
        this.group = group;
    }

    /**
     * The parts of a job whose mapper writes a file (an export), or null for any other job: over {@code kind} in
     * {@code namespace}, one kind of {@code group} (null: a job of its own).
     */
    public static PartFiles of(FileStore store, PageMapper mapper, MapperSpec spec, String jobId, String namespace,
                               String kind, String group, String projectId) {
        return mapper.outputFile() == null ? null : new PartFiles(store, mapper.outputFile(), jobId,
                Mappers.writesManagedExport(spec) ? projectId : null, spec.readTime(), namespace, kind, group);
    }

    /**
     * Whether the job is one kind of a job over several, whose export is one file (or one managed export) of every
     * kind: its group joins its parts with the others' once every kind is done ({@link #joinGroup}), and removes
     * them; the kind's own end joins and removes nothing.
     */
    public boolean joinedByGroup() {
        return group != null;
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
        return join(recorded(ledgers), order);
    }

    /** The parts a job's ledgers record. */
    private static List<String> recorded(List<Entity> ledgers) {
        List<String> recorded = new ArrayList<>();
        ledgers.forEach(ledger -> recorded.addAll(Ledger.parts(ledger)));
        return recorded;
    }

    /**
     * Joins the parts the ledgers record ("FIRSTKEY FILE" each), in key order, into a temporary file moved into place
     * atomically. The parts stay until {@link #removeParts}: joining twice gives the same bytes. Returns what it
     * wrote: the output file, or the new folder of a managed export.
     */
    public String join(List<String> recorded, KeyOrder order) {
        List<String[]> ordered = ordered(recorded, order);
        if (managedProject != null) {
            return joinManaged(ordered);
        }
        return joinLines(List.of(this), List.of(ordered), snapshot);
    }

    /**
     * The parts of {@code kinds} ({@code ordered}: each kind's, in key order), kind after kind, as one JSON-lines file
     * written to a temporary file and moved into place atomically, with its record beside it.
     */
    private static String joinLines(List<PartFiles> kinds, List<List<String[]>> ordered, ExportSnapshot snapshot) {
        FileStore store = kinds.get(0).store;
        String output = kinds.get(0).output;
        String temp = store.sibling(output, "." + UUID.randomUUID() + ".tmp");
        try {
            try (OutputStream out = store.create(temp)) {
                for (int i = 0; i < kinds.size(); i++) {
                    for (String[] part : ordered.get(i)) {
                        try (InputStream in = kinds.get(i).openPart(part[1])) {
                            in.transferTo(out);
                        }
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
     * The parts, in key order, as a managed export of the kind: a new folder below the output folder, moved into
     * place whole, so an export cut short is never taken for a whole one (joining again writes a new one).
     */
    private String joinManaged(List<String[]> ordered) {
        ManagedExportWriter writer = ManagedExportWriter.byKind(store, output, Instant.now());
        try (writer) {
            snapshot.write(store, store.resolve(writer.staging(), ExportSnapshot.MANAGED_FILE));
            writeKind(writer, ordered);
            writer.finish();
        } catch (IOException e) {
            throw new KeyRangerException("Cannot write the managed export in " + output + ": " + e.getMessage(), e);
        }
        return writer.location();
    }

    /** This kind's part of a managed export: its parts' entities, in key order. */
    private void writeKind(ManagedExportWriter writer, List<String[]> ordered) throws IOException {
        writer.kind(namespace, kind);
        ObjectMapper json = new ObjectMapper();
        for (String[] part : ordered) {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(openPart(part[1]),
                    StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    writer.write(EntityCodec.decode(json.readTree(line), managedProject, ""));
                }
            }
        }
    }

    /**
     * Joins the export of a job over several kinds, once every kind is done: {@code kinds} are its kinds' parts and
     * {@code ledgers} what their ledgers record, in the group's order. A JSON-lines export is one file, kind after
     * kind, moved into place whole; a managed export is one export, a part for each kind as Google lays out an export
     * of chosen kinds, in the folder named by {@code created} (the group's start), written to a temporary folder and
     * moved there whole, so a folder there is always the whole export: one there is the export joined before,
     * returned as it is, and what a join cut short left is removed first. Of two joins at once the first to move its
     * export into place wins; the other, finding the export whole there, removes its own and returns it. The parts
     * stay until each kind's {@link #removeParts}.
     */
    public static String joinGroup(List<PartFiles> kinds, List<List<Entity>> ledgers, KeyOrder order,
                                   String groupId, Instant created) {
        PartFiles first = kinds.get(0);
        FileStore store = first.store;
        String output = first.output;
        ExportSnapshot snapshot = new ExportSnapshot(groupId, first.readTime);
        if (first.managedProject == null) {
            return joinLines(kinds, orderedByKind(ledgers, order), snapshot);
        }
        String root = ManagedExportWriter.folder(store, output, created);
        try {
            if (whole(store, root)) {
                return root;
            }
            ManagedExportWriter.removeUnfinished(store, output, created);
            try (ManagedExportWriter writer = ManagedExportWriter.byKind(store, output, created)) {
                snapshot.write(store, store.resolve(writer.staging(), ExportSnapshot.MANAGED_FILE));
                List<List<String[]>> ordered = orderedByKind(ledgers, order);
                for (int i = 0; i < kinds.size(); i++) {
                    kinds.get(i).writeKind(writer, ordered.get(i));
                }
                writer.finish();
            }
        } catch (IOException | RuntimeException e) {
            if (whole(store, root)) { // another join of the group finished first
                return root;
            }
            throw e instanceof IOException ? new KeyRangerException("Cannot write the managed export in " + output
                    + ": " + e.getMessage(), e) : (RuntimeException) e;
        }
        return root;
    }

    private static List<List<String[]>> orderedByKind(List<List<Entity>> ledgers, KeyOrder order) {
        List<List<String[]>> ordered = new ArrayList<>();
        for (List<Entity> kindLedgers : ledgers) {
            ordered.add(ordered(recorded(kindLedgers), order));
        }
        return ordered;
    }

    /** Whether the managed export in {@code root} is whole (its overall metadata is there). */
    private static boolean whole(FileStore store, String root) {
        try {
            return store.exists(ManagedExportWriter.overallMetadata(store, root));
        } catch (IOException e) {
            return false;
        }
    }

    /** Recorded parts ("FIRSTKEY FILE" each) in the key order of their first keys. */
    private static List<String[]> ordered(List<String> recorded, KeyOrder order) {
        return recorded.stream().map(r -> r.split(" ", 2))
                .sorted(Comparator.comparing((String[] r) -> Key.fromUrlSafe(r[0]), order))
                .toList();
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
