package io.keyranger.executor.source;

import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.executor.cells.CellPlan;
import io.keyranger.executor.cells.PageSource;
import io.keyranger.job.JobReport;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.formats.managed.LogRecords;
import io.keyranger.mapper.SourceRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An import's input as a job's pages: each entry at its position ({@link Positions}), read from any byte of any of
 * its files, so a file of any size is worked by as many workers as the job has, each from where its range starts.
 *
 * @param input        the input
 * @param project      the project the positions are keys of (the connection's)
 * @param skipBadLines whether a bad entry is a record to skip (else refused)
 * @param superseded   the offsets in the first file of the entries whose key a later entry names again: passed over,
 *                     so the last one is what the job writes, whichever worker reaches which first
 * @param badLines     the line numbers of the first file's first bad entries, by their offsets, for reports
 */
public record FileSource(ImportInput input, String project, boolean skipBadLines, Set<Long> superseded,
                         Map<Long, Long> badLines) implements PageSource {
    /** The least bytes of a cell: two of a managed export's blocks. */
    static final long MIN_CELL = 2L * LogRecords.BLOCK;
    /** Why an entry of the input is not written: it is not an exported entity. */
    public static final String BAD = JobReport.SKIPPED_PREFIX + ImportFile.BAD_LINE;
    /** Why an entry is not written: a later entry of the input has its key (and is written instead). */
    public static final String SUPERSEDED = JobReport.SKIPPED_PREFIX + "a later line has its key";
    /** The most bytes of a file: its offsets are the low 40 bits of a position. */
    static final long MAX_FILE_BYTES = 1L << 40;

    @Override
    public Page fetch(KeyRange range, int offset, int limit) {
        long from = range.start() == null ? Positions.id(0, 0) : range.start().getId()
                + (range.startInclusive() ? 0 : 1);
        long end = range.end() == null ? Long.MAX_VALUE : range.end().getId();
        List<Key> keys = new ArrayList<>(Math.min(limit, 1_024));
        Map<Key, SourceRecord> records = new HashMap<>();
        List<String> files = input.files();
        int file = Positions.file(from);
        long at = Positions.offset(from);
        while (keys.size() < limit && file < files.size() && Positions.id(file, at) < end) {
            try (ImportInput.Positioned entries = input.read(file, at, skipBadLines)) {
                for (ImportInput.Entry e = entries.next(); e != null && keys.size() < limit; e = entries.next()) {
                    long id = Positions.id(file, entries.offset());
                    if (id >= end) {
                        break;
                    }
                    Key key = Positions.key(project, file, entries.offset());
                    keys.add(key);
                    records.put(key, e.bad() ? new SourceRecord(null, BAD, where(file, entries.offset()) + ": "
                            + e.problem())
                            : !e.selected() ? new SourceRecord(null, FileRun.NOT_SELECTED, null)
                            : file == 0 && superseded.contains(entries.offset()) ? new SourceRecord(null, SUPERSEDED,
                                    null)
                            : SourceRecord.of(e.entity()));
                }
            } catch (IOException e) {
                throw new KeyRangerException("Cannot read " + files.get(file) + ": " + e.getMessage(), e);
            }
            file++;
            at = 0;
        }
        return new Page(keys, records);
    }

    /** Where an entry is, as a report names it: its line when the check numbered it, else its byte offset. */
    private String where(int file, long offset) {
        Long line = file == 0 ? badLines.get(offset) : null;
        return line != null ? "line " + line : "the entry at byte " + offset + " of " + input.files().get(file);
    }

    /**
     * The job's cells over the input's bytes: each file starts a cell, and each cell holds at most an even share of
     * {@code maxCells}, at least {@link #MIN_CELL} bytes, cut at a block boundary (where a managed export's reader
     * can start).
     */
    public CellPlan cells(KeyOrder order, int maxCells) {
        List<String> files = input.files();
        long[] sizes = new long[files.size()];
        long total = 0;
        for (int i = 0; i < files.size(); i++) {
            try {
                sizes[i] = input.size(i);
                if (sizes[i] >= MAX_FILE_BYTES) {
                    throw new KeyRangerException(files.get(i) + " is " + sizes[i] + " bytes: an import reads files of "
                            + "up to 1 TiB. Split it into smaller files.");
                }
            } catch (IOException e) {
                throw new KeyRangerException("Cannot read " + files.get(i) + ": " + e.getMessage(), e);
            }
            total += sizes[i];
        }
        long cell = Math.max(MIN_CELL, (long) Math.ceil(total / (double) maxCells));
        cell = (cell + LogRecords.BLOCK - 1) / LogRecords.BLOCK * LogRecords.BLOCK;
        List<Key> bounds = new ArrayList<>();
        for (int f = 0; f < files.size(); f++) {
            if (f > 0) {
                bounds.add(Positions.key(project, f, 0));
            }
            for (long at = cell; at < sizes[f]; at += cell) {
                bounds.add(Positions.key(project, f, at));
            }
        }
        return new CellPlan(order, bounds);
    }
}
