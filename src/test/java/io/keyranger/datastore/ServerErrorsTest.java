package io.keyranger.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.rpc.Code;
import io.keyranger.support.SharedEmulator;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/**
 * Every server error a user reads names its status, the call and (for a read of the past) the read time, and says
 * when the server gave no reason, where it used to end in "DatastoreException:" or "Datastore error (UNKNOWN):".
 */
class ServerErrorsTest {
    @Test
    void anErrorWithAnEmptyMessageSaysTheServerGaveNoReasonAndNamesTheCall() {
        // as the client's HTTP transport builds it (HttpDatastoreRpc.translate) from a 500 whose body holds no message
        com.google.datastore.v1.client.DatastoreException rpc = new com.google.datastore.v1.client.DatastoreException(
                "runQuery", Code.UNKNOWN, "", null);
        DatastoreException error = new DatastoreException(Code.UNKNOWN.getNumber(), rpc.getMessage(),
                Code.UNKNOWN.name(), false, rpc);

        assertThat(ServerErrors.describe(error))
                .isEqualTo("Datastore error (UNKNOWN) on runQuery: the server gave no reason");
        assertThat(ServerErrors.describe(new IllegalStateException(error)))
                .isEqualTo("Datastore error (UNKNOWN) on runQuery: the server gave no reason");
        assertThat(ServerErrors.describe(new DatastoreException(0, null, (String) null)))
                .isEqualTo("Datastore error (no status): the server gave no reason");
        assertThat(ServerErrors.describe(new IllegalStateException())).isEqualTo("IllegalStateException (no message)");
    }

    @Test
    void aReadOfThePastTheServerRefusesNamesTheCallTheReadTimeAndTheServersReason() {
        Session live = Session.open(SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "errors"));
        Key key = live.datastore().newKeyFactory().setKind("Account").newKey(1);
        // a moment the emulator refuses to read (a session's moments are checked before; this one is not)
        PointInTime future = PointInTime.at(Instant.now().plus(1, ChronoUnit.HOURS));
        Session past = live.asOf(future);

        Throwable lookup = catchThrowable(() -> past.datastore().get(key));
        assertThat(lookup).isInstanceOf(DatastoreException.class);
        assertThat(((DatastoreException) lookup).getReason()).as("retries decide as on the server's own error")
                .isEqualTo("INVALID_ARGUMENT");
        assertThat(ServerErrors.describe(lookup)).isEqualTo("Datastore error (INVALID_ARGUMENT) on lookup as of "
                + future.time() + ": The requested 'read_time' cannot be in the future.");
        assertThat(ServerErrors.readTime(lookup)).isEqualTo(future.time());

        Throwable query = catchThrowable(() -> past.datastore().run(Query.newKeyQueryBuilder().setKind("Account")
                .build()).hasNext());
        assertThat(ServerErrors.describe(query)).startsWith("Datastore error (INVALID_ARGUMENT) on runQuery as of "
                + future.time() + ": ");
    }
}
