package io.keyranger.formats.managed;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Writes records in LevelDB's log format, as {@link LogRecords} reads them: 32 KiB blocks, a record split into FIRST,
 * MIDDLE... LAST fragments where it does not fit, each fragment with its masked CRC32C, and a block's last bytes
 * zeroed when no header fits there.
 */
public final class LogWriter implements Closeable {
    private static final int HEADER = 7;
    private final OutputStream out;
    private long offset;

    public LogWriter(Path file) throws IOException {
        this(Files.newOutputStream(file));
    }

    /** Records into {@code out}, closed with this writer. */
    public LogWriter(OutputStream out) {
        this.out = new BufferedOutputStream(out, LogRecords.BLOCK);
    }

    /** Bytes written so far. */
    public long size() {
        return offset;
    }

    public void write(byte[] record) throws IOException {
        int at = 0;
        boolean first = true;
        do {
            int left = (int) (LogRecords.BLOCK - offset % LogRecords.BLOCK);
            if (left < HEADER) {
                out.write(new byte[left]);
                offset += left;
                left = LogRecords.BLOCK;
            }
            int room = left - HEADER;
            int length = Math.min(room, record.length - at);
            boolean last = at + length == record.length;
            int type = first && last ? 1 : first ? 2 : last ? 4 : 3;
            byte[] data = Arrays.copyOfRange(record, at, at + length);
            int crc = LogRecords.mask(LogRecords.checksum(type, data));
            out.write(new byte[] {(byte) crc, (byte) (crc >>> 8), (byte) (crc >>> 16), (byte) (crc >>> 24),
                (byte) length, (byte) (length >>> 8), (byte) type});
            out.write(data);
            offset += HEADER + length;
            at += length;
            first = false;
        } while (at < record.length);
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
