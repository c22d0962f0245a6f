package io.keyranger.executor;

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
 * The local output of an export, exactly once: each range appends to its own part file, and its checkpoint records
 * how many bytes are committed. Before appending, a part is cut back to that size, so a retried or resumed chunk
 * never writes twice. When the job is done the parts are joined in key order into the output file.
 */
final class PartFiles {
    private final Path output;
    private final Path dir;

    PartFiles(Path output, String jobId) {
        this.output = output;
        this.dir = output.resolveSibling(output.getFileName() + ".parts-" + jobId);
    }

    Path dir() {
        return dir;
    }

    /** Cuts the node's part back to {@code committedBytes}, appends the lines, syncs, and returns the new size. */
    long append(String nodeId, long committedBytes, List<String> lines) {
        try {
            Files.createDirectories(dir);
            try (FileChannel channel = FileChannel.open(dir.resolve(nodeId + ".jsonl"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE)) {
                if (channel.size() < committedBytes) {
                    throw new KeyRangerException("The export part of range " + nodeId + " in " + dir + " is shorter "
                            + "than its checkpoint: the parts are missing or were changed (resume the job on the "
                            + "machine that started it).");
                }
                channel.truncate(committedBytes);
                channel.position(committedBytes);
                StringBuilder text = new StringBuilder();
                lines.forEach(line -> text.append(line).append('\n'));
                ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                channel.force(true);
                return channel.size();
            }
        } catch (IOException e) {
            throw new KeyRangerException("Cannot write the export part of range " + nodeId + ": " + e.getMessage(), e);
        }
    }

    /**
     * Joins the committed part of each node, in key order, into a temporary file moved into place atomically. The
     * parts stay until {@link #removeParts}: joining twice gives the same bytes.
     */
    void join(List<RangeNode> nodes) {
        List<RangeNode> ordered = nodes.stream().sorted(Comparator.comparing(n -> n.id, NodeIds::compare)).toList();
        try {
            Files.createDirectories(dir);
            Path temp = Files.createTempFile(output.toAbsolutePath().getParent(), output.getFileName().toString(), ".tmp");
            try (OutputStream out = Files.newOutputStream(temp)) {
                for (RangeNode node : ordered) {
                    Path part = dir.resolve(node.id + ".jsonl");
                    long committed = node.checkpoint.outputBytes();
                    if (committed > 0) {
                        try (FileChannel channel = FileChannel.open(part, StandardOpenOption.READ)) {
                            channel.transferTo(0, committed, java.nio.channels.Channels.newChannel(out));
                        }
                    }
                }
            }
            Files.move(temp, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new KeyRangerException("Cannot assemble the export file " + output + ": " + e.getMessage(), e);
        }
    }

    /** Removes the parts once the job's end is recorded. */
    void removeParts() {
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
