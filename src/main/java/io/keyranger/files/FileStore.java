package io.keyranger.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;

/**
 * The file system a job reads its input and writes its output through, by location (a local path, or a URI such as
 * {@code gs://bucket/folder} on Dataflow): the local one ({@link LocalFileStore}) for a local run, Beam's
 * {@code FileSystems} on a pipeline's workers. An export's exactly-once parts protocol ({@code PartFiles}) and the
 * readers of an import's or a restore's input (a JSON lines file, a managed export) are written once, against this.
 */
public interface FileStore {
    /** The location of {@code name} (a relative path, its segments separated by '/') in folder {@code folder}. */
    String resolve(String folder, String name);

    /** The location beside {@code location} named as it is followed by {@code suffix}. */
    String sibling(String location, String suffix);

    /**
     * A new file, its folders made as needed; whole once the stream is closed (durable on the local disk, an
     * object that appears whole on a cloud store).
     */
    OutputStream create(String location) throws IOException;

    InputStream open(String location) throws IOException;

    /**
     * The bytes of a file from byte {@code offset} on, without reading those before (a worker starts its range
     * anywhere in a large file).
     */
    InputStream open(String location, long offset) throws IOException;

    /** The size of a file in bytes. */
    long size(String location) throws IOException;

    /** When a file was last written, in milliseconds since the epoch (0 where the file system does not say). */
    long modifiedMillis(String location) throws IOException;

    /** The locations of the files directly in {@code folder}, sorted; none (or no such folder) is an empty list. */
    List<String> files(String folder) throws IOException;

    /**
     * The locations of the folders directly in {@code folder} (on a cloud store, the prefixes one level down), sorted;
     * none is an empty list.
     */
    List<String> folders(String folder) throws IOException;

    /** The folder that holds the file at {@code location}, without a trailing '/' (the same on every store). */
    String parent(String location);

    boolean exists(String location) throws IOException;

    /** Moves a file into place over any file there, atomically where the file system allows (a local move is). */
    void moveIntoPlace(String from, String to) throws IOException;

    /**
     * Moves folder {@code from}, with everything below it, to {@code to}, where nothing is: atomically on the local
     * disk (one rename: {@code to} appears whole or not at all, and fails when a folder is there already). A cloud
     * store has no folders: there its objects are moved one by one, those deepest first, so the files directly in
     * the folder (an export's overall metadata) arrive last.
     */
    void moveFolderIntoPlace(String from, String to) throws IOException;

    /** Removes folder {@code folder} and everything below it, if it exists. */
    void deleteFolder(String folder) throws IOException;
}
