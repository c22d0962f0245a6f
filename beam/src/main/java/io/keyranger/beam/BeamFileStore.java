package io.keyranger.beam;

import io.keyranger.files.FileStore;
import io.keyranger.files.LocalFileStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.EmptyMatchTreatment;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.MoveOptions;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.util.MimeTypes;

/**
 * Beam's {@code FileSystems} as a pipeline's {@link FileStore}: an export's parts and output, and an import's or a
 * restore's input, are wherever its workers reach (a local path on the DirectRunner and Flink's local mini-cluster,
 * gs:// on Dataflow). A new local file is
 * written by {@link LocalFileStore}, which syncs it to disk before the commit that records it; Beam's local file
 * system does not, and a part a ledger records must outlive a crash of the machine.
 */
final class BeamFileStore implements FileStore {
    static final BeamFileStore INSTANCE = new BeamFileStore();

    private BeamFileStore() {
    }

    private static ResourceId file(String location) {
        return FileSystems.matchNewResource(location, false);
    }

    private static String trimmed(String location) {
        return location.endsWith("/") && location.length() > 1 ? location.substring(0, location.length() - 1)
                : location;
    }

    @Override
    public String resolve(String folder, String name) {
        ResourceId at = FileSystems.matchNewResource(folder, true);
        String[] segments = name.split("/");
        for (int i = 0; i < segments.length - 1; i++) {
            at = at.resolve(segments[i], StandardResolveOptions.RESOLVE_DIRECTORY);
        }
        return at.resolve(segments[segments.length - 1], StandardResolveOptions.RESOLVE_FILE).toString();
    }

    @Override
    public String sibling(String location, String suffix) {
        ResourceId id = file(trimmed(location));
        return id.getCurrentDirectory().resolve(id.getFilename() + suffix, StandardResolveOptions.RESOLVE_FILE)
                .toString();
    }

    @Override
    public OutputStream create(String location) throws IOException {
        ResourceId id = file(location);
        if (id.getScheme().equals("file")) {
            return LocalFileStore.INSTANCE.create(location);
        }
        return Channels.newOutputStream(FileSystems.create(id, MimeTypes.BINARY));
    }

    @Override
    public InputStream open(String location) throws IOException {
        return Channels.newInputStream(FileSystems.open(file(location)));
    }

    @Override
    public InputStream open(String location, long offset) throws IOException {
        ReadableByteChannel channel = FileSystems.open(file(location));
        try {
            if (channel instanceof SeekableByteChannel seekable) { // local files and gs:// objects are
                seekable.position(offset);
                return Channels.newInputStream(seekable);
            }
            InputStream in = Channels.newInputStream(channel);
            in.skipNBytes(offset);
            return in;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    public long size(String location) throws IOException {
        return FileSystems.matchSingleFileSpec(location).sizeBytes();
    }

    @Override
    public long modifiedMillis(String location) throws IOException {
        return FileSystems.matchSingleFileSpec(location).lastModifiedMillis();
    }

    @Override
    public List<String> files(String folder) throws IOException {
        List<String> files = new ArrayList<>();
        for (MatchResult.Metadata m : matched(resolve(folder, "*"))) {
            if (!m.resourceId().isDirectory()) {
                files.add(m.resourceId().toString());
            }
        }
        files.sort(null);
        return files;
    }

    @Override
    public List<String> folders(String folder) throws IOException {
        // a cloud store has no folders: the prefixes one level down of the objects below
        String prefix = trimmed(FileSystems.matchNewResource(folder, true).toString()) + "/";
        TreeSet<String> folders = new TreeSet<>();
        for (MatchResult.Metadata m : matched(resolve(folder, "*/**"))) {
            String location = m.resourceId().toString();
            if (location.startsWith(prefix) && location.indexOf('/', prefix.length()) > 0) {
                folders.add(location.substring(0, location.indexOf('/', prefix.length())));
            }
        }
        return List.copyOf(folders);
    }

    private static List<MatchResult.Metadata> matched(String glob) throws IOException {
        MatchResult found = FileSystems.match(List.of(glob), EmptyMatchTreatment.ALLOW).get(0);
        return found.status() == MatchResult.Status.OK ? found.metadata() : List.of();
    }

    @Override
    public String parent(String location) {
        return trimmed(file(trimmed(location)).getCurrentDirectory().toString()); // as a local path has it
    }

    @Override
    public boolean exists(String location) throws IOException {
        return FileSystems.match(List.of(trimmed(location))).get(0).status() == MatchResult.Status.OK;
    }

    @Override
    public void moveIntoPlace(String from, String to) throws IOException {
        FileSystems.rename(List.of(file(from)), List.of(file(to))); // a local rename is atomic; a gs:// object is whole
    }

    @Override
    public void moveFolderIntoPlace(String from, String to) throws IOException {
        if (local(from)) {
            LocalFileStore.INSTANCE.moveFolderIntoPlace(localPath(from), localPath(to));
            return;
        }
        String prefix = FileSystems.matchNewResource(from, true).toString();
        String target = FileSystems.matchNewResource(to, true).toString();
        List<ResourceId> sources = new ArrayList<>(below(from));
        // deepest first: the files directly in the folder (an export's overall metadata) arrive last
        sources.sort(Comparator.comparingLong((ResourceId id) -> id.toString().chars().filter(c -> c == '/').count())
                .reversed());
        for (ResourceId source : sources) {
            FileSystems.rename(List.of(source), List.of(file(target + source.toString().substring(prefix.length()))));
        }
    }

    @Override
    public void deleteFolder(String folder) throws IOException {
        if (local(folder)) {
            LocalFileStore.INSTANCE.deleteFolder(localPath(folder));
            return;
        }
        FileSystems.delete(below(folder), MoveOptions.StandardMoveOptions.IGNORE_MISSING_FILES);
    }

    /** Whether a location is on Beam's local file system (a path, or a file: URI), where folders are real. */
    private static boolean local(String location) {
        return FileSystems.matchNewResource(location, true).getScheme().equals("file");
    }

    private static String localPath(String location) {
        return location.startsWith("file:") ? Path.of(URI.create(location)).toString() : location;
    }

    /** Every file below a cloud store's folder, at any depth. */
    private List<ResourceId> below(String folder) throws IOException {
        MatchResult files = FileSystems.match(List.of(resolve(folder, "**"))).get(0);
        List<ResourceId> ids = new ArrayList<>();
        if (files.status() == MatchResult.Status.OK) {
            files.metadata().forEach(m -> ids.add(m.resourceId()));
        }
        return ids;
    }
}
