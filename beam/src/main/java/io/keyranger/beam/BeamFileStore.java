package io.keyranger.beam;

import io.keyranger.files.FileStore;
import io.keyranger.files.LocalFileStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.io.fs.MoveOptions;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.util.MimeTypes;

/**
 * Beam's {@code FileSystems} as an export's {@link FileStore}: a pipeline's parts and output go wherever its workers
 * reach (a local path on the DirectRunner and Flink's local mini-cluster, gs:// on Dataflow). A new local file is
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
        return FileSystems.matchNewResource(folder, true).resolve(name, StandardResolveOptions.RESOLVE_FILE)
                .toString();
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
    public boolean exists(String location) throws IOException {
        return FileSystems.match(List.of(trimmed(location))).get(0).status() == MatchResult.Status.OK;
    }

    @Override
    public void moveIntoPlace(String from, String to) throws IOException {
        FileSystems.rename(List.of(file(from)), List.of(file(to))); // a local rename is atomic; a gs:// object is whole
    }

    @Override
    public void deleteFolder(String folder) throws IOException {
        MatchResult files = FileSystems.match(List.of(resolve(folder, "*"))).get(0);
        List<ResourceId> ids = new ArrayList<>();
        if (files.status() == MatchResult.Status.OK) {
            files.metadata().forEach(m -> ids.add(m.resourceId()));
        }
        FileSystems.delete(ids, MoveOptions.StandardMoveOptions.IGNORE_MISSING_FILES);
        ResourceId dir = FileSystems.matchNewResource(folder, true);
        if (dir.getScheme().equals("file")) { // a cloud store has no folders to remove
            FileSystems.delete(List.of(dir), MoveOptions.StandardMoveOptions.IGNORE_MISSING_FILES);
        }
    }
}
