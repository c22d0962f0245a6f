package io.keyranger.datastore;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.DatastoreException;
import io.keyranger.KeyRangerException;
import java.io.IOException;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.Assertions;
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

    @Test
    void anErrorWithoutAReasonIsJudgedByItsCode() {
        // the client leaves the reason out of some errors (an interrupted request); that must not hide the error
        assertThat(Retries.isTransient(new DatastoreException(14, "unavailable", (String) null))).isTrue();
        assertThat(Retries.isTransient(new DatastoreException(3, "bad key", (String) null))).isFalse();
    }

    @Test
    void theFirestoreEmulatorsGoneTransactionsAreRetriedWithAFreshOne() {
        // its answers (measured): a commit, and a rollback, of a transaction it expired after 60 s idle
        assertThat(Retries.isTransient(new DatastoreException(3, "Transaction is invalid or closed.",
                "INVALID_ARGUMENT"))).isTrue();
        assertThat(Retries.isTransient(new DatastoreException(3, "Transaction is invalid or expired.",
                "INVALID_ARGUMENT"))).isTrue();
    }

    @Test
    void aLockHeldByAnotherTransactionIsWaitedThroughWithoutUsingAttempts() {
        // the Firestore emulator's answer when another transaction holds the lock for ~2 s (measured): 409 ABORTED
        DatastoreException locked = new DatastoreException(409, "Transaction lock timeout.", "ABORTED");
        assertThat(Retries.isLockTimeout(locked)).isTrue();
        assertThat(Retries.isLockTimeout(new DatastoreException(10, "too much contention", "ABORTED"))).isFalse();
        int[] calls = {0};
        // two attempts only, yet five lock timeouts in a row do not use them up (a frozen runner's lock lasts 60 s)
        String value = Retries.call(new Retries.Simple(2, 1, 2, 0), Retries.Observer.NONE, () -> {
            if (++calls[0] <= 5) {
                throw locked;
            }
            return "done";
        });
        assertThat(value).isEqualTo("done");
        assertThat(calls[0]).isEqualTo(6);
    }

    @Test
    void theOneLoopWaitsForALostServerWithoutUsingAttemptsAndRetriesTransientErrors() {
        List<String> heard = new ArrayList<>();
        Retries.Observer observer = new Retries.Observer() {
            @Override
            public void retrying(Throwable problem) {
                heard.add("retry");
            }

            @Override
            public void waitingForServer(Throwable problem) {
                heard.add("wait");
            }

            @Override
            public void serverBack() {
                heard.add("back");
            }
        };
        int[] calls = {0};
        String value = Retries.call(new Retries.Simple(2, 1, 2, 10_000), observer, () -> {
            calls[0]++;
            if (calls[0] <= 3) {
                throw new DatastoreException(new IOException("down", new ConnectException("refused")));
            }
            if (calls[0] == 4) {
                throw new DatastoreException(10, "too much contention", "ABORTED");
            }
            return "done";
        });
        assertThat(value).isEqualTo("done");
        assertThat(heard).containsExactly("wait", "wait", "wait", "retry", "back");

        int[] tries = {0};
        Assertions.assertThatThrownBy(() -> Retries.call(new Retries.Simple(5, 1, 2, 0),
                Retries.Observer.NONE, () -> {
                    tries[0]++;
                    throw new KeyRangerException("fix the spec");
                })).hasMessage("fix the spec");
        assertThat(tries[0]).as("a problem for the user is not retried").isEqualTo(1);
    }
}
