package io.keyranger.executor.range;

import com.google.cloud.datastore.Key;

/**
 * What a range's probes for a split point found empty, kept on the range's live node: a key from which on nothing was
 * found, and how many probes found nothing. Only the split policy reads and writes it.
 */
public final class ProbeMemory {
    /** A key from which on a probe found nothing, or null. */
    public Key emptyFrom;
    /** Probes that found nothing. */
    public int emptyProbes;
}
