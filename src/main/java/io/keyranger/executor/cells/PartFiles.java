package io.keyranger.executor.cells;

import io.keyranger.KeyRangerException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The local output of an export, exactly once: each committing chunk writes its lines to a new part file, and its
 * commit records the part in its cell's ledger; a part whose commit failed or found its keys applied already is
 * recorded nowhere. When the job is done the recorded parts are joined in key order into the output file.
 */
public final class PartFiles {
    private final Path output;
    private final Path dir;
    private final String managedProject;

    public PartFiles(Path output, String jobId) {
        this(output, jobId, null);
    }

    /**
     * With {@code managedProject}, the parts are joined into a managed export in a new folder below {@code output}
     * (keys placed in that project, as an import places them in its own), instead of one JSON-lines file.
     */
    public PartFiles(Path output, String jobId, String managedProject) {
        this.output = output;
        this.dir = output.resolveSibling(output.getFileName() + ".parts-" + jobId);
        this.managedProject = managedProject;
    }

    public Path dir() {
        return dir;
    }

    /**
     * Writes a committing chunk's lines to a part file of their own (synced) and returns its name, which the chunk's
     * commit records in its cell's ledger. A part whose commit did not go through is recorded nowhere: the join skips
     * it and {@link #removeParts} removes it.
     */
    public String write(int cell, List<String> lines) {
        String name = CellPlan.nodeId(cell) + "-" + java.util.UUID.randomUUID() + ".jsonl";
        try {
            Files.createDirectories(dir);
            try (FileChannel channel = FileChannel.open(dir.resolve(name), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                StringBuilder text = new StringBuilder();
                lines.forEach(line -> text.append(line).append('\n'));
                ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                channel.force(true);
            }
            return name;
        } catch (IOException e) {
            throw new KeyRangerException("Cannot write an export part in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Joins the parts the ledgers record ("FIRSTKEY FILE" each), in key order, into a temporary file moved into place
     * atomically. The parts stay until {@link #removeParts}: joining twice gives the same bytes. Returns what it
     * wrote: the output file, or the new folder of a managed export.
     */
    public Path join(List<String> recorded, io.keyranger.keys.KeyOrder order) {
        List<String[]> ordered = recorded.stream().map(r -> r.split(" ", 2))
                .sorted(Comparator.comparing((String[] r) -> com.google.cloud.datastore.Key.fromUrlSafe(r[0]), order))
                .toList();
        if (managedProject != null) {
            return joinManaged(ordered);
        }
        try {
            Files.createDirectories(dir);
            Path temp = Files.createTempFile(output.toAbsolutePath().getParent(), output.getFileName().toString(), ".tmp");
            try (OutputStream out = Files.newOutputStream(temp)) {
                for (String[] part : ordered) {
                    Path file = dir.resolve(part[1]);
                    if (!Files.isRegularFile(file)) {
                        throw new KeyRangerException("The export part " + file + " that a commit recorded is missing: "
                                + "resume the job on the machine that started it.");
                    }
                    Files.copy(file, out);
                }
            }
            Files.move(temp, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return output;
        } catch (IOException e) {
            throw new KeyRangerException("Cannot assemble the export file " + output + ": " + e.getMessage(), e);
        }
    }

    /**
     * The parts, in key order, as a managed export: a new folder below the output folder whose metadata files are
     * written last, so an export cut short is never taken for a whole one (joining again writes a new one).
     */
    private Path joinManaged(List<String[]> ordered) {
        io.keyranger.managed.ManagedExportWriter writer = io.keyranger.managed.ManagedExportWriter.create(output);
        try (writer) {
            com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
            for (String[] part : ordered) {
                Path file = dir.resolve(part[1]);
                if (!Files.isRegularFile(file)) {
                    throw new KeyRangerException("The export part " + file + " that a commit recorded is missing: "
                            + "resume the job on the machine that started it.");
                }
                try (java.io.BufferedReader lines = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                        writer.write(io.keyranger.datastore.EntityCodec.decode(json.readTree(line), managedProject,
                                ""));
                    }
                }
            }
        } catch (IOException e) {
            throw new KeyRangerException("Cannot write the managed export in " + output + ": " + e.getMessage(), e);
        }
        return writer.root();
    }

    /** Removes the parts once the job's end is recorded. */
    public void removeParts() {
        try {
            if (!Files.isDirectory(dir)) {
                return;
            }
            try (Stream<Path> parts = Files.list(dir)) {
                for (Path part : parts.toList()) {
                    Files.deleteIfExists(part);
                }
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            throw new KeyRangerException("The export file " + output + " is complete, but its parts in " + dir
                    + " could not be removed: " + e.getMessage(), e);
        }
    }
}
