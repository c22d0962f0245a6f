package io.keyranger.beam;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.beam.sdk.io.FileSystem;
import org.apache.beam.sdk.io.FileSystemRegistrar;
import org.apache.beam.sdk.io.fs.CreateOptions;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.MoveOptions;
import org.apache.beam.sdk.io.fs.ResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * An object store for tests, registered with Beam's {@code FileSystems} under the scheme {@code bucket://} as gs:// is
 * on Dataflow: a flat space of objects named by path (no folders; a {@code *} of a match stays within one segment),
 * read as a stream that cannot seek. Objects live under {@link #root} on this machine, but nothing reaches them
 * except through Beam, so a job that reads {@code bucket://} input shows that it reads through the pipeline's file
 * systems and never through a local path.
 */
public final class BucketFileSystem extends FileSystem<BucketFileSystem.Id> {
    static final String SCHEME = "bucket";

    /** Where the objects of {@code bucket://NAME/...} are kept on this machine. */
    static Path root() {
        return Path.of(System.getProperty("java.io.tmpdir"), "keyranger-test-buckets");
    }

    /** Removes every object of {@code bucket} (one a test run left), so the test starts from an empty bucket. */
    static void empty(String bucket) throws IOException {
        Path folder = root().resolve(bucket);
        if (Files.isDirectory(folder)) {
            try (Stream<Path> files = Files.walk(folder)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    /** Copies a local file or folder to {@code bucket://bucket/name} (the test's gsutil cp -r). */
    static String upload(Path from, String bucket, String name) throws IOException {
        Path to = root().resolve(bucket).resolve(name);
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path target = Files.isDirectory(from) ? to.resolve(from.relativize(file).toString()) : to;
                Files.createDirectories(target.getParent());
                Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return SCHEME + "://" + bucket + "/" + name;
    }

    private static Path local(Id id) {
        return root().resolve(id.path);
    }

    @Override
    protected List<MatchResult> match(List<String> specs) throws IOException {
        List<MatchResult> results = new ArrayList<>();
        for (String spec : specs) {
            String path = new Id(spec, false).path;
            List<MatchResult.Metadata> found = new ArrayList<>();
            if (!path.contains("*")) {
                Path file = root().resolve(path);
                if (Files.isRegularFile(file)) {
                    found.add(metadata(path, file));
                }
            } else if (Files.isDirectory(root())) {
                // as on gs://: ** matches across '/', * within one segment
                Pattern glob = Pattern.compile(String.join(".*", Arrays.stream(path.split("\\*\\*", -1))
                        .map(part -> String.join("[^/]*", Arrays.stream(part.split("\\*", -1))
                                .map(Pattern::quote).toList())).toList()));
                try (Stream<Path> files = Files.walk(root())) {
                    for (Path file : files.filter(Files::isRegularFile).toList()) {
                        String name = root().relativize(file).toString();
                        if (glob.matcher(name).matches()) {
                            found.add(metadata(name, file));
                        }
                    }
                }
            }
            results.add(found.isEmpty() && !path.contains("*")
                    ? MatchResult.create(MatchResult.Status.NOT_FOUND, new FileNotFoundException(spec))
                    : MatchResult.create(MatchResult.Status.OK, found));
        }
        return results;
    }

    private static MatchResult.Metadata metadata(String path, Path file) throws IOException {
        return MatchResult.Metadata.builder().setResourceId(new Id(SCHEME + "://" + path, false))
                .setSizeBytes(Files.size(file)).setIsReadSeekEfficient(false)
                .setLastModifiedMillis(Files.getLastModifiedTime(file).toMillis()).build();
    }

    @Override
    protected WritableByteChannel create(Id id, CreateOptions options) throws IOException {
        Files.createDirectories(local(id).getParent());
        return Channels.newChannel(Files.newOutputStream(local(id)));
    }

    @Override
    protected ReadableByteChannel open(Id id) throws IOException {
        InputStream in = Files.newInputStream(local(id));
        return new ReadableByteChannel() { // a stream: not a SeekableByteChannel
            private final ReadableByteChannel channel = Channels.newChannel(in);

            @Override
            public int read(ByteBuffer into) throws IOException {
                return channel.read(into);
            }

            @Override
            public boolean isOpen() {
                return channel.isOpen();
            }

            @Override
            public void close() throws IOException {
                channel.close();
            }
        };
    }

    @Override
    protected void copy(List<Id> from, List<Id> to) throws IOException {
        for (int i = 0; i < from.size(); i++) {
            Files.createDirectories(local(to.get(i)).getParent());
            Files.copy(local(from.get(i)), local(to.get(i)), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Override
    protected void rename(List<Id> from, List<Id> to, MoveOptions... options) throws IOException {
        copy(from, to);
        delete(from);
    }

    @Override
    protected void delete(Collection<Id> ids) throws IOException {
        for (Id id : ids) {
            Files.deleteIfExists(local(id));
        }
    }

    @Override
    protected Id matchNewResource(String spec, boolean isDirectory) {
        return new Id(spec, isDirectory);
    }

    @Override
    protected String getScheme() {
        return SCHEME;
    }

    /** An object's name ({@code bucket/path/to/object}), or a prefix ending in '/'. */
    static final class Id implements ResourceId {
        private final String path;
        private final boolean directory;

        Id(String spec, boolean directory) {
            String path = spec.startsWith(SCHEME + "://") ? spec.substring(SCHEME.length() + 3) : spec;
            this.directory = directory || path.endsWith("/");
            this.path = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        }

        @Override
        public ResourceId resolve(String other, ResolveOptions options) {
            String base = directory ? path : path.substring(0, Math.max(0, path.lastIndexOf('/')));
            return new Id(base + "/" + other, options == ResolveOptions.StandardResolveOptions.RESOLVE_DIRECTORY);
        }

        @Override
        public ResourceId getCurrentDirectory() {
            return directory ? this : new Id(path.substring(0, Math.max(0, path.lastIndexOf('/'))), true);
        }

        @Override
        public String getScheme() {
            return SCHEME;
        }

        @Override
        public String getFilename() {
            return path.substring(path.lastIndexOf('/') + 1);
        }

        @Override
        public boolean isDirectory() {
            return directory;
        }

        @Override
        public String toString() {
            return SCHEME + "://" + path + (directory ? "/" : "");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Id other && other.path.equals(path) && other.directory == directory;
        }

        @Override
        public int hashCode() {
            return path.hashCode();
        }
    }

    /**
     * Registers the store with Beam's {@code FileSystems} (META-INF/services of the test classes), as the GCP
     * extension registers gs://.
     */
    public static final class Registrar implements FileSystemRegistrar {
        @Override
        public Iterable<FileSystem<?>> fromOptions(PipelineOptions options) {
            return List.of(new BucketFileSystem());
        }
    }
}
