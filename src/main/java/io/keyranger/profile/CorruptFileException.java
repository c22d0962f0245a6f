package io.keyranger.profile;

import io.keyranger.KeyRangerException;
import java.nio.file.Path;

/** A settings file that could not be parsed. It has been kept aside so that nothing overwrites it. */
public class CorruptFileException extends KeyRangerException {
    CorruptFileException(Path file, Path keptAs, String detail, Throwable cause) {
        super(file + " is not valid JSON (" + detail + "). It was kept as " + keptAs.getFileName()
                + " for you to repair or delete; KeyRanger starts with an empty one.", cause);
    }
}
