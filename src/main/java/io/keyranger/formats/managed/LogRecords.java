package io.keyranger.formats.managed;

import io.keyranger.KeyRangerException;
import io.keyranger.files.FileStore;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32C;

/**
 * The records of a file in LevelDB's log format, as managed exports write them, streamed: 32 KiB blocks of records,
 * each with a masked CRC32C of its type and data, a length and a type (FULL, or FIRST, MIDDLE... LAST for a record
 * split over blocks). A bad checksum, a record cut short or fragments out of order are a {@link KeyRangerException}
 * that names the file and the offset; a wrong record is never returned. Reading can start at any block boundary
 * (fragments of a record begun in an earlier block are skipped), so a large file can be cut into block ranges.
 */
public final class LogRecords implements Closeable {
    public static final int BLOCK = 32 * 1024;
    private static final int HEADER = 7;
    private static final int FULL = 1;
    private static final int FIRST = 2;
    private static final int MIDDLE = 3;
    private static final int LAST = 4;
    private static final int MASK_DELTA = 0xa282ead8;

    private final String file;
    private final InputStream in;
    private final long end;
    private long offset;
    private boolean skippingFragments;
    private long lastStart = -1;

    /**
     * The records of the file at {@code location} in {@code store} that begin in blocks {@code [fromBlock, toBlock)}
     * (toBlock -1: to the end); the blocks before are not read.
     */
    public LogRecords(FileStore store, String location, long fromBlock, long toBlock) throws IOException {
        this.file = location;
        this.offset = fromBlock * BLOCK;
        this.in = new BufferedInputStream(store.open(location, offset), BLOCK);
        this.end = toBlock < 0 ? Long.MAX_VALUE : toBlock * BLOCK;
        this.skippingFragments = fromBlock > 0;
    }

    public LogRecords(FileStore store, String location) throws IOException {
        this(store, location, 0, -1);
    }

    /** The next record, or null at the end (of the file, or of the last block asked for). */
    public byte[] next() throws IOException {
        ByteArrayOutputStream record = null;
        long recordStart = -1;
        while (true) {
            int left = (int) (BLOCK - offset % BLOCK);
            if (left < HEADER) { // a block's trailer: zeros
                in.readNBytes(left);
                offset += left;
                continue;
            }
            if (record == null && offset >= end) {
                return null;
            }
            byte[] header = new byte[HEADER];
            int got = readFully(header);
            if (got == 0) {
                if (record != null) {
                    throw broken(recordStart, "the file ends inside a record (it is truncated)");
                }
                return null;
            }
            if (got < HEADER) {
                throw broken(offset, "the file ends inside a record header (it is truncated)");
            }
            int crc = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16 | (header[3] & 0xff) << 24;
            int length = (header[4] & 0xff) | (header[5] & 0xff) << 8;
            int type = header[6] & 0xff;
            long at = offset;
            offset += HEADER;
            if (type == 0 && length == 0 && crc == 0) { // preallocated space: nothing more in this block
                in.readNBytes(left - HEADER);
                offset += left - HEADER;
                continue;
            }
            if (length > left - HEADER) {
                throw broken(at, "a record of " + length + " bytes overruns its block (the file is corrupt)");
            }
            byte[] data = new byte[length];
            if (readFully(data) < length) {
                throw broken(at, "the file ends inside a record (it is truncated)");
            }
            offset += length;
            if (unmask(crc) != checksum(type, data)) {
                throw broken(at, "a record's checksum does not match (the file is corrupt)");
            }
            if (skippingFragments && (type == MIDDLE || type == LAST)) {
                continue; // the rest of a record that began before the first block read
            }
            skippingFragments = false;
            switch (type) {
                case FULL -> {
                    if (record != null) {
                        throw broken(at, "a record begins before the one at offset " + recordStart + " ends");
                    }
                    lastStart = at;
                    return data;
                }
                case FIRST -> {
                    if (record != null) {
                        throw broken(at, "a record begins before the one at offset " + recordStart + " ends");
                    }
                    record = new ByteArrayOutputStream(length * 2);
                    recordStart = at;
                    record.write(data);
                }
                case MIDDLE, LAST -> {
                    if (record == null) {
                        throw broken(at, "a record's continuation has no beginning");
                    }
                    record.write(data);
                    if (type == LAST) {
                        lastStart = recordStart;
                        return record.toByteArray();
                    }
                }
                default -> throw broken(at, "unknown record type " + type + " (the file is corrupt)");
            }
        }
    }

    /** The byte offset in the file at which the record {@link #next} returned last begins (its first header). */
    public long lastStart() {
        return lastStart;
    }

    private int readFully(byte[] into) throws IOException {
        return in.readNBytes(into, 0, into.length);
    }

    static int checksum(int type, byte[] data) {
        CRC32C crc = new CRC32C();
        crc.update(type);
        crc.update(data);
        return (int) crc.getValue();
    }

    static int mask(int crc) {
        return ((crc >>> 15) | (crc << 17)) + MASK_DELTA;
    }

    private static int unmask(int masked) {
        int rot = masked - MASK_DELTA;
        return (rot >>> 17) | (rot << 15);
    }

    private KeyRangerException broken(long at, String what) {
        return new KeyRangerException("The export file " + file + " cannot be read at offset " + at + ": " + what
               );
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
