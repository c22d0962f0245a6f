package io.keyranger.files;

import io.keyranger.KeyRangerException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** The local file system as a {@link FileStore}: a file is synced to disk when closed. */
public final class LocalFileStore implements FileStore {
    public static final LocalFileStore INSTANCE = new LocalFileStore();

    private LocalFileStore() {
    }

    /** Whether a location is a URI of another file system (gs://bucket/...), not a local path. */
    public static boolean isRemote(String location) {
        return location.matches("^[a-zA-Z][a-zA-Z0-9+.-]+://.+");
    }

    /** The local path of a location; a URI of another file system is refused. */
    public static Path path(String location) {
        if (isRemote(location)) {
            throw new KeyRangerException(location + " is not on this machine: a job run here ('keyranger run', "
                    + "'keyranger restore', the app) reads and writes local files. Copy it here (e.g. with gsutil cp "
                    + "-r), or run the job on the Beam runner (keyranger-beam.jar), which reads and writes a cloud "
                    + "store.");
        }
        return Path.of(location);
    }

    @Override
    public String resolve(String folder, String name) {
        return path(folder).resolve(name).toString();
    }

    @Override
    public String sibling(String location, String suffix) {
        Path path = path(location);
        return path.resolveSibling(path.getFileName() + suffix).toString();
    }

    @Override
    public OutputStream create(String location) throws IOException {
        Path path = path(location);
        if (path.getParent() != null) {
            Files.createDirectories(path.getParent());
        }
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return new BufferedOutputStream(new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            }

            @Override
            public void close() throws IOException {
                try (channel) {
                    channel.force(true);
                }
            }
        }, 64 * 1024);
    }

    @Override
    public InputStream open(String location) throws IOException {
        return Files.newInputStream(path(location));
    }

    @Override
    public InputStream open(String location, long offset) throws IOException {
        FileChannel channel = FileChannel.open(path(location));
        try {
            channel.position(offset);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return Channels.newInputStream(channel);
    }

    @Override
    public long size(String location) throws IOException {
        return Files.size(path(location));
    }

    @Override
    public long modifiedMillis(String location) throws IOException {
        return Files.getLastModifiedTime(path(location)).toMillis();
    }

    @Override
    public List<String> files(String folder) throws IOException {
        return children(folder, Files::isRegularFile);
    }

    @Override
    public List<String> folders(String folder) throws IOException {
        return children(folder, Files::isDirectory);
    }

    private static List<String> children(String folder, Predicate<Path> kind) throws IOException {
        Path dir = path(folder).toAbsolutePath();
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> children = Files.list(dir)) {
            return children.filter(kind).map(Path::toString).sorted().toList();
        }
    }

    @Override
    public String parent(String location) {
        Path parent = path(location).toAbsolutePath().getParent();
        return parent == null ? path(location).toAbsolutePath().toString() : parent.toString();
    }

    @Override
    public boolean exists(String location) {
        return Files.exists(path(location));
    }

    @Override
    public void moveIntoPlace(String from, String to) throws IOException {
        Files.move(path(from), path(to), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public void moveFolderIntoPlace(String from, String to) throws IOException {
        Files.move(path(from), path(to), StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public void deleteFolder(String folder) throws IOException {
        Path dir = path(folder);
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<Path> below;
        try (Stream<Path> all = Files.walk(dir)) {
            below = all.sorted(Comparator.reverseOrder()).toList(); // what a folder holds before the folder
        }
        for (Path each : below) {
            Files.deleteIfExists(each);
        }
    }
}
