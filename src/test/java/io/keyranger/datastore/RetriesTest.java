package io.keyranger.datastore;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.DatastoreException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

class RetriesTest {
    @Test
    void aRefusedConnectionMeansWaitForTheServer() {
        DatastoreException refused = new DatastoreException(14, "I/O error", "UNAVAILABLE",
                new RuntimeException(new ConnectException("Connection refused")));
        assertThat(Retries.isServerUnreachable(refused)).isTrue();
        assertThat(Retries.isTransient(refused)).isTrue();
    }

    @Test
    void anEmulatorShuttingDownMeansWaitForTheServer() {
        // what the emulator answers to calls in flight while it stops (its internal gRPC channel closes)
        DatastoreException closing = new DatastoreException(2, "channel closed", "UNKNOWN");
        assertThat(Retries.isServerUnreachable(closing)).isTrue();
    }

    @Test
    void otherUnknownAndInvalidErrorsAreNeitherWaitedForNorRetried() {
        DatastoreException unknown = new DatastoreException(2, "something else broke", "UNKNOWN");
        DatastoreException invalid = new DatastoreException(3, "channel closed is not a key", "INVALID_ARGUMENT");
        assertThat(Retries.isServerUnreachable(unknown)).isFalse();
        assertThat(Retries.isTransient(unknown)).isFalse();
        assertThat(Retries.isServerUnreachable(invalid)).isFalse();
        assertThat(Retries.isTransient(invalid)).isFalse();
    }

    @Test
    void contentionAndOverloadAreRetried() {
        assertThat(Retries.isTransient(new DatastoreException(10, "too much contention", "ABORTED"))).isTrue();
        assertThat(Retries.isAborted(new DatastoreException(10, "too much contention", "ABORTED"))).isTrue();
        assertThat(Retries.isTransient(new DatastoreException(8, "quota", "RESOURCE_EXHAUSTED"))).isTrue();
        assertThat(Retries.isServerUnreachable(new DatastoreException(8, "quota", "RESOURCE_EXHAUSTED"))).isFalse();
    }
}
