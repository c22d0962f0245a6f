package io.keyranger.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The file system an export writes its parts and its output through, by location (a local path, or a URI such as
 * {@code gs://bucket/folder} on Dataflow): the local one ({@link LocalFileStore}) for a local run, Beam's
 * {@code FileSystems} on a pipeline's workers. The exactly-once parts protocol ({@code PartFiles}) is written once,
 * against this.
 */
public interface FileStore {
    /** The location of {@code name} (one path segment) in folder {@code folder}. */
    String resolve(String folder, String name);

    /** The location beside {@code location} named as it is followed by {@code suffix}. */
    String sibling(String location, String suffix);

    /**
     * A new file, its folders made as needed; whole once the stream is closed (durable on the local disk, an
     * object that appears whole on a cloud store).
     */
    OutputStream create(String location) throws IOException;

    InputStream open(String location) throws IOException;

    boolean exists(String location) throws IOException;

    /** Moves a file into place over any file there, atomically where the file system allows (a local move is). */
    void moveIntoPlace(String from, String to) throws IOException;

    /** Removes folder {@code folder} and the files in it, if it exists. */
    void deleteFolder(String folder) throws IOException;
}
