package io.keyranger.executor.lease;

import io.keyranger.KeyRangerException;

/** This runner's epoch is no longer the job's: another runner took it over, and this one must apply nothing. */
public final class JobFencedException extends KeyRangerException {
    public JobFencedException(String message) {
        super(message);
    }
}
